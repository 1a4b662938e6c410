/*
 * read_common.c - the field readers both kinds of workload use (a choice
 * among names, a precision, a whole count) and what their checks ask of
 * the model (its longest sequence, its name).
 */
#include "read_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/suggest.h"

/*
 * Reads key as one of `names` (n of them).  Returns 1 with the index in
 * *out, 0 when absent, -1 after reporting an unknown name with the list of
 * known ones and a did-you-mean.
 */
int wl_read_choice(struct yread *r, const struct ynode *map,
		   const char *key, const char *const *names, size_t n,
		   const char *expected, int *out)
{
	char *v = NULL;
	int rc = yr_name(r, map, key, &v);
	if (rc <= 0)
		return rc;
	for (size_t i = 0; i < n; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = (int)i;
			free(v);
			return 1;
		}
	char hint[96];
	const char *h = gp_errors_full(r->errs) ? NULL
		: suggest_hint(v, names, n, hint, sizeof(hint));
	yr_error(r, ymap_get(map, key), h, "unknown %s '%.60s': expected %s",
		 key, v, expected);
	free(v);
	return -1;
}

/* The longest sequence the model takes: a transformer's max_seq, or the
 * tokens of a graph model's input; 0 for image models. */
long wl_seq_limit(const struct model *m)
{
	if (m->kind == MODEL_TRANSFORMER)
		return m->tf.max_seq;
	if (model_is_sequence(m))
		return m->input.d[0];
	return 0;
}

const char *wl_model_label(const struct model *m)
{
	return m->name ? m->name : m->file;
}

/* ---- fields shared by both kinds ---- */

/*
 * Reads a precision from the allowed ones: fp32, bf16, fp16, fp8, plus tf32
 * (a compute mode: not for the KV cache) and int8 (inference) when asked.
 */
int wl_read_precision(struct yread *r, const struct ynode *map,
		      const char *key, bool allow_int8, bool allow_tf32,
		      enum precision *out)
{
	char *v = NULL;
	int rc = yr_name(r, map, key, &v);
	if (rc <= 0)
		return rc;
	const char *names[6];
	size_t n = 0;
	names[n++] = "fp32";
	if (allow_tf32)
		names[n++] = "tf32";
	names[n++] = "bf16";
	names[n++] = "fp16";
	names[n++] = "fp8";
	if (allow_int8)
		names[n++] = "int8";
	char expected[96] = "";
	for (size_t i = 0; i < n; i++) {
		if (strcmp(v, names[i]) == 0) {
			*out = (enum precision)precision_from_name(v);
			free(v);
			return 1;
		}
		snprintf(expected + strlen(expected),
			 sizeof(expected) - strlen(expected), "%s%s",
			 i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
	}
	const struct ynode *node = ymap_get(map, key);
	if (strcmp(v, "int8") == 0)
		yr_error(r, node, NULL,
			 "'%s' int8 is for inference: training takes %s", key,
			 expected);
	else if (precision_from_name(v) >= 0)
		yr_error(r, node, NULL, "'%s' cannot be %s: expected %s", key,
			 v, expected);
	else {
		char hint[96];
		const char *h = gp_errors_full(r->errs) ? NULL
			: suggest_hint(v, names, n, hint, sizeof(hint));
		yr_error(r, node, h, "unknown precision '%.60s': expected %s",
			 v, expected);
	}
	free(v);
	return -1;
}

/* A count (tokens, samples) that must be a whole number of at least 1,
 * within q's range (units.h). */
int wl_read_whole_count(struct yread *r, const struct ynode *map,
			const char *key, enum quantity q, double *out)
{
	int rc = yr_quantity(r, map, key, UNIT_COUNT, out, NULL);
	if (rc <= 0)
		return rc;
	const struct ynode *n = ymap_get(map, key);
	if (*out < 1 || floor(*out) != *out) {
		yr_error(r, n, NULL,
			 "'%s' must be a whole number of at least 1, found '%s'",
			 key, n->text);
		return -1;
	}
	if (!quantity_in_range(q, *out)) {
		yr_error(r, n, NULL, "'%s' must be from %s, found '%.60s'", key,
			 quantity_range(q)->range, n->text);
		return -1;
	}
	return 1;
}

/*
 * profile_read.c - the scalars every part of the profile's loader reads,
 * held to the profile's rules; see profile_read.h.
 */
#include "profile/profile_read.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int profile_read_node_number(struct yread *r, const struct ynode *n,
			    const char *what, double *out)
{
	if (n->kind != YNODE_SCALAR || n->quoted || !n->text[0] ||
	    isspace((unsigned char)n->text[0])) {
		char got[80];
		ynode_describe(n, got, sizeof(got));
		yr_error(r, n, NULL, "'%s' expects a number, found %s", what, got);
		return -1;
	}
	char *end;
	errno = 0;
	double v = strtod(n->text, &end);
	/* decimal notation only: strtod would also take hex ("0x1p-6") */
	bool decimal = strspn(n->text, "0123456789.eE+-") == strlen(n->text);
	if (decimal && !*end && errno == ERANGE) {
		/* strtod says ERANGE past the largest double and below the
		 * smallest normal one: name which, not "not finite" */
		yr_error(r, n, NULL, isinf(v)
			 ? "'%s' %.60s is beyond the largest double (1.8e308)"
			 : "'%s' %.60s is below the smallest normal double (2.2e-308): too small for a measured quantity; write 0 if it is none",
			 what, n->text);
		return -1;
	}
	if (!decimal || *end || !isfinite(v) || v < 0) {
		yr_error(r, n, NULL,
			 "'%s' expects a finite number >= 0, found '%.60s'",
			 what, n->text);
		return -1;
	}
	*out = v;
	return 1;
}

int profile_read_number(struct yread *r, const struct ynode *map,
		       const char *key, double *out)
{
	const struct ynode *n = ymap_get(map, key);
	return n ? profile_read_node_number(r, n, key, out) : 0;
}

/* key's text (a name when `name`), copied into buf of size bytes. */
static int read_into(struct yread *r, const struct ynode *map, const char *key,
		     bool name, char *buf, size_t size)
{
	char *s = NULL;
	int rc = name ? yr_name(r, map, key, &s) : yr_string(r, map, key, &s);
	if (rc <= 0)
		return rc;
	if (strlen(s) >= size) {
		yr_error(r, ymap_get(map, key), NULL,
			 "'%s' is longer than %zu bytes", key, size - 1);
		rc = -1;
	} else {
		memcpy(buf, s, strlen(s) + 1);
	}
	free(s);
	return rc;
}

int profile_read_text(struct yread *r, const struct ynode *map,
		     const char *key, char *buf, size_t size)
{
	return read_into(r, map, key, false, buf, size);
}

int profile_read_name(struct yread *r, const struct ynode *map,
		      const char *key, char *buf, size_t size)
{
	return read_into(r, map, key, true, buf, size);
}

bool profile_has_suite(const struct bench_profile *p, const char *suite)
{
	for (size_t i = 0; i < p->n_suites; i++)
		if (!strcmp(p->suites[i], suite))
			return true;
	return false;
}

int profile_read_word(struct yread *r, const struct ynode *map,
		     const char *key, const char *const *names, char *buf,
		     size_t size)
{
	int rc = profile_read_name(r, map, key, buf, size);
	if (rc <= 0)
		return rc;
	for (const char *const *n = names; *n; n++)
		if (strcmp(*n, buf) == 0)
			return 1;
	yr_error(r, ymap_get(map, key), NULL, "unknown %s '%s'", key, buf);
	return -1;
}

int profile_read_int(struct yread *r, const struct ynode *map, const char *key,
		    long min, long max, int *out)
{
	long v;
	int rc = yr_int(r, map, key, min, max, &v);
	if (rc == 1)
		*out = (int)v;
	return rc;
}

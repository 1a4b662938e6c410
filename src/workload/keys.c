/*
 * keys.c - the keys of each kind of workload, and of the workload items
 * inside outcome records, checked with the messages that say where a
 * misplaced key belongs.
 */
#include "keys.h"

#include <string.h>

#include "core/error.h"
#include "core/suggest.h"
#include "workload.h"

/* ---- keys ---- */

static const char *const common_keys[] = {"name", "kind", "model",
					  "precision", "efficiency", NULL};
static const char *const training_keys[] = {
	"tokens", "samples", "epochs", "seq", "global_batch", "optimizer",
	"zero", "recompute", "parallelism", "instance", "gpus", "nodes",
	"layout", "fused_attention", "deadline", "budget", "spot", "input",
	"framework", "goodput", NULL};
static const char *const inference_keys[] = {
	"request_rate", "prompt_tokens", "output_tokens", "p99_latency",
	"ttft_p99", "tpot_p99", "ttft_p50", "tpot_p50",
	"hours_per_month", "kv_precision", "trace", "engine",
	"engine_version", "engine_settings", NULL};
static const char *const required_training[] = {"global_batch", NULL};
/* request_rate too, unless a trace gives arrivals (wl_check_rate()) */
static const char *const required_inference[] = {NULL};

static bool in_list(const char *const *list, const char *key)
{
	for (; *list; list++)
		if (strcmp(*list, key) == 0)
			return true;
	return false;
}

static size_t add_names(const char **to, size_t n, const char *const *from)
{
	for (; *from; from++)
		to[n++] = *from;
	return n;
}

/*
 * Like yr_check_keys, but a key of the other kind of workload is named as
 * such ("'tokens' belongs to training workloads ..."), and with the kind
 * unknown (kind < 0) the keys of both kinds are accepted.
 */
int wl_check_keys(struct yread *r, const struct ynode *map,
		  const char *what, int kind)
{
	const char *const *own = kind == WORKLOAD_INFERENCE ? inference_keys
							    : training_keys;
	const char *const *other = kind == WORKLOAD_INFERENCE ? training_keys
							      : inference_keys;
	const char *names[48];
	size_t nn = add_names(names, add_names(names, 0, common_keys), own);
	if (kind < 0)
		nn = add_names(names, nn, other);
	int bad = 0;
	for (size_t i = 0; i < map->n; i++) {
		const struct ynode *k = map->items[2 * i];
		if (in_list(common_keys, k->text) || in_list(own, k->text) ||
		    (kind < 0 && in_list(other, k->text)))
			continue;
		bad = 1;
		if (in_list(other, k->text)) {
			yr_error(r, k, NULL,
				 "'%s' belongs to %s workloads, but %s is %s",
				 k->text, workload_kind_name(!kind), what,
				 workload_kind_name(kind));
			continue;
		}
		char hint[128];
		const char *h = gp_errors_full(r->errs) ? NULL
			: suggest_hint(k->text, names, nn, hint, sizeof(hint));
		yr_error(r, k, h, "unknown key '%.100s' in %s", k->text, what);
	}
	const char *const *req = kind == WORKLOAD_INFERENCE ? required_inference
							    : required_training;
	for (const char *const *k = common_keys; *k; k++)
		if (ymap_get(map, *k) == NULL && strcmp(*k, "efficiency") != 0) {
			yr_error(r, map, NULL, "missing required key '%s' in %s",
				 *k, what);
			bad = 1;
		}
	for (; kind >= 0 && *req; req++)
		if (ymap_get(map, *req) == NULL) {
			yr_error(r, map, NULL, "missing required key '%s' in %s",
				 *req, what);
			bad = 1;
		}
	return bad;
}

/* ---- training items inside other files ---- */

/* Said by the outer file itself (an outcome's `hardware:` and `layout:`). */
static const char *const cluster_keys[] = {"instance", "gpus", "nodes",
					   "layout", NULL};
static const char *const embedded_common[] = {"model", "precision",
					      "efficiency", NULL};
static const char *const embedded_required[] = {"model", "precision",
						"global_batch", NULL};

/* A served model inside an outcome: what is served, at which lengths;
 * the traffic and the engine are the record's `load:` and `engine:`. */
static const char *const serving_keys[] = {"prompt_tokens", "output_tokens",
					   "kv_precision", NULL};
/* and the lengths of a sequence model (wl_check_inference() says so) */
static const char *const serving_required[] = {"model", "precision", NULL};

int wl_check_embedded_keys(struct yread *r, const struct ynode *map,
			   const char *what, bool serving)
{
	const char *names[48];
	size_t nn = add_names(names, 0, embedded_common);
	const char *const *own = serving ? serving_keys : training_keys;
	for (const char *const *k = own; *k; k++)
		if (!in_list(cluster_keys, *k))
			names[nn++] = *k;
	names[nn] = NULL;
	int bad = 0;
	for (size_t i = 0; i < map->n; i++) {
		const struct ynode *k = map->items[2 * i];
		if (in_list(names, k->text))
			continue;
		bad = 1;
		if (in_list(cluster_keys, k->text)) {
			yr_error(r, k, NULL,
				 "'%s' does not go in %s: the cluster is the record's 'hardware:', its split the record's 'layout:'",
				 k->text, what);
			continue;
		}
		if (serving && (in_list(inference_keys, k->text) ||
				in_list(training_keys, k->text))) {
			yr_error(r, k, NULL,
				 "'%s' does not go in %s: the traffic is the record's 'load:', the engine its 'engine:'",
				 k->text, what);
			continue;
		}
		char hint[128];
		const char *h = gp_errors_full(r->errs) ? NULL
			: suggest_hint(k->text, names, nn, hint, sizeof(hint));
		yr_error(r, k, h, "unknown key '%.100s' in %s", k->text, what);
	}
	const char *const *required = serving ? serving_required
					      : embedded_required;
	for (const char *const *k = required; *k; k++)
		if (ymap_get(map, *k) == NULL) {
			yr_error(r, map, NULL, "missing required key '%s' in %s",
				 *k, what);
			bad = 1;
		}
	return bad;
}

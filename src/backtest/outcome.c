/*
 * outcome.c - strict reading of outcome files: the file and its list,
 * each record's sources, its training (read by the workload reader), its
 * hardware (a catalog instance, or one described inline with the catalog's
 * own readers for links and network), its layout, and what was measured.
 */
#include "outcome.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog_read.h"
#include "catalog/instance_key.h"
#include "catalog/name_index.h"
#include "core/file_read.h"
#include "core/suggest.h"
#include "core/term_safe.h"
#include "core/xalloc.h"
#include "core/yaml_read.h"
#include "workload/engine_read.h"
#include "workload/layout.h"
#include "workload/workload_file.h"
#include "workload/workload_reader.h"

struct oc_ctx {
	struct yread r;
	const struct catalog *c;
	struct outcome_file *of;
	struct workload_reader *wr;
};

static const char *const measure_names[MEASURE_COUNT] = {
	"step_time", "flops_per_gpu", "tokens_per_s", "mfu", "gpu_hours",
	"days", "output_tokens_per_s", "total_tokens_per_s", "requests_per_s",
	"samples_per_s",
	"ttft_mean", "ttft_p50", "ttft_p99", "tpot_mean", "tpot_p50",
	"tpot_p99", "e2e_mean", "e2e_p50", "e2e_p99",
};

const char *measure_name(enum measure m)
{
	return measure_names[m];
}

double outcome_tolerance(const struct outcome *o, enum measure m)
{
	if (o->tolerance > 0)
		return o->tolerance;
	return o->serving && measure_is_latency(m) ? OUTCOME_LATENCY_TOLERANCE
						   : OUTCOME_DEFAULT_TOLERANCE;
}

bool measure_is_latency(enum measure m)
{
	return m >= MEASURE_TTFT_MEAN && m <= MEASURE_E2E_P99;
}

static const char *const counting_names[] = {"megatron-2021", "model",
					     "hardware"};

const char *flops_counting_name(enum flops_counting c)
{
	return counting_names[c];
}

static struct origin origin_of(const struct yread *r, const struct ynode *n)
{
	return (struct origin){r->file, n->line, n->col};
}

/* ---- values ---- */

/*
 * A percentage written with its sign ("46.2%", "15 %"), from lo to hi
 * percent, into *out as a fraction.  Same returns as the yr_ getters.
 */
static int read_percent(struct yread *r, const struct ynode *map,
			const char *key, double lo, double hi,
			const char *range, double *out)
{
	const struct ynode *n = ymap_get(map, key);
	if (!n)
		return 0;
	if (n->kind != YNODE_SCALAR || !n->text[0]) {
		char found[96];
		ynode_describe(n, found, sizeof(found));
		yr_error(r, n, NULL, "'%s' expects a percentage like '46.2%%', found %s",
			 key, found);
		return -1;
	}
	size_t len = strlen(n->text);
	if (n->text[len - 1] != '%') {
		yr_error(r, n, NULL,
			 "'%s': missing unit: expected a percentage like '46.2%%', found '%.60s'",
			 key, n->text);
		return -1;
	}
	char num[64];
	while (len > 1 && (n->text[len - 2] == ' '))
		len--;
	bool plain = len - 1 < sizeof(num) && len > 1;
	if (plain) {
		memcpy(num, n->text, len - 1);
		num[len - 1] = '\0';
		plain = strspn(num, "0123456789.eE+-") == strlen(num) &&
			strchr("0123456789.", num[0]);
	}
	char *end = NULL;
	double v = plain ? strtod(num, &end) : NAN;
	if (!plain || *end || !isfinite(v)) {
		yr_error(r, n, NULL, "'%s' expects a percentage like '46.2%%', found '%.60s'",
			 key, n->text);
		return -1;
	}
	if (v < lo || v > hi) {
		yr_error(r, n, NULL, "'%s' must be from %s, found '%.60s'", key,
			 range, n->text);
		return -1;
	}
	*out = v / 100;
	return 1;
}

/* A quantity of `kind` (a count may be bare) from lo to hi. */
static int read_in(struct yread *r, const struct ynode *map, const char *key,
		   enum unit_kind kind, double lo, double hi, const char *range,
		   double *out)
{
	int rc = yr_quantity(r, map, key, kind, out, NULL);
	if (rc <= 0)
		return rc;
	if (*out < lo || *out > hi) {
		yr_error(r, ymap_get(map, key), NULL,
			 "'%s' must be from %s, found '%.60s'", key, range,
			 ymap_get(map, key)->text);
		return -1;
	}
	return 1;
}

/* ---- sources ---- */

static const struct yfield source_fields[] = {
	{"title", true}, {"url", true}, {"where", false}, {"retrieved", true},
	{NULL, false},
};

static int read_outcome_sources(struct yread *r, const struct ynode *rec,
			const char *what, struct outcome *o)
{
	const struct ynode *n = ymap_get(rec, "source");
	char ctx[192];
	snprintf(ctx, sizeof(ctx), "'source' of %s", what);
	if (!n)
		return 0;	/* reported as a missing required key */
	if (!yr_expect_seq(r, n, ctx))
		return -1;
	if (n->n == 0) {
		yr_error(r, n, NULL,
			 "%s is empty: expected at least one {title, url, retrieved}",
			 ctx);
		return -1;
	}
	o->sources = xcalloc(n->n, sizeof(*o->sources));
	o->n_sources = n->n;
	snprintf(ctx, sizeof(ctx), "a source of %s", what);
	int bad = 0;
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *s = n->items[i];
		struct outcome_source *src = &o->sources[i];
		if (!yr_expect_map(r, s, ctx)) {
			bad = 1;
			continue;
		}
		bad |= yr_check_keys(r, s, ctx, source_fields) > 0;
		bad |= yr_string(r, s, "title", &src->title) < 0;
		bad |= yr_name(r, s, "url", &src->url) < 0;
		bad |= yr_string(r, s, "where", &src->where) < 0;
		bad |= yr_date(r, s, "retrieved", &src->retrieved) < 0;
	}
	return bad ? -1 : 0;
}

/* ---- hardware ---- */

static const struct yfield hardware_fields[] = {
	{"instance", false}, {"accelerator", false}, {"gpus_per_node", false},
	{"gpus", false}, {"nodes", false}, {"vcpus", false},
	{"intra_node_link", false}, {"network", false}, {NULL, false},
};

/* The keys that describe hardware inline. */
static const char *const inline_keys[] = {"accelerator", "gpus_per_node",
					  "vcpus", "intra_node_link",
					  "network", NULL};

static const struct ynode *first_inline_key(const struct ynode *n)
{
	for (const char *const *k = inline_keys; *k; k++)
		if (ymap_get(n, *k))
			return ymap_get(n, *k);
	return NULL;
}

/* The key node of value v in map n (errors about a key name the key). */
static const struct ynode *key_of(const struct ynode *n, const struct ynode *v)
{
	for (size_t i = 0; i < n->n; i++)
		if (n->items[2 * i + 1] == v)
			return n->items[2 * i];
	return v;
}

static const char *hint_among(const char *name, const char **names, size_t n,
			      char *buf, size_t len)
{
	return suggest_hint(name, names, n, buf, len);
}

/* `instance:` of the catalog; its GPUs per node in *per_node. */
static int read_named(struct oc_ctx *cx, const struct ynode *n,
		      struct outcome *o, long *per_node)
{
	struct yread *r = &cx->r;
	char *name = NULL;
	if (yr_name(r, n, "instance", &name) <= 0)
		return -1;
	char several[1024];
	if (catalog_lookup_instance(cx->c, name, &o->inst, several,
				    sizeof(several)) == -2) {
		/* the same type in several regions: prices differ, so the
		 * record must say which it ran on (instance_key.h) */
		yr_error(r, ymap_get(n, "instance"),
			 "write PROVIDER/REGION/NAME or REGION/NAME",
			 "instance '%s' is sold in several regions: %s", name,
			 several);
		free(name);
		return -1;
	}
	if (!o->inst) {
		const char *h = gp_errors_full(r->errs) ? NULL : several;
		yr_error(r, ymap_get(n, "instance"), h && h[0] ? h : NULL,
			 "no instance '%s' in the catalog", name);
		free(name);
		return -1;
	}
	free(name);
	*per_node = o->inst->gpus;
	return 0;
}

/* An instance described inline: an accelerator of the catalog, GPUs per
 * node, links and network as a catalog instance has them; no price. */
static int read_inline(struct oc_ctx *cx, const struct ynode *n,
		       const char *ctx, struct outcome *o, long *per_node)
{
	struct yread *r = &cx->r;
	struct instance *in = &o->inline_inst;
	long vcpus = 0;
	int bad = yr_name(r, n, "accelerator", &in->accelerator_name) < 0;
	bad |= yr_int(r, n, "gpus_per_node", 1, 1024, per_node) < 0;
	bad |= yr_int(r, n, "vcpus", 1, 100000, &vcpus) < 0;
	bad |= read_instance_links(r, n, ctx, in) < 0;
	in->gpus = (int)*per_node;
	in->vcpus = (int)vcpus;
	in->at = origin_of(r, n);
	in->name = xstrdup("inline");
	in->provider = xstrdup("inline");
	const char *const req[] = {"accelerator", "gpus_per_node"};
	for (int i = 0; i < 2; i++)
		if (!ymap_get(n, req[i])) {
			yr_error(r, n, NULL,
				 "missing required key '%s' in %s (hardware described inline)",
				 req[i], ctx);
			bad = 1;
		}
	if (in->accelerator_name) {
		in->acc = catalog_find_accelerator(cx->c, in->accelerator_name);
		if (!in->acc) {
			const char **names = xcalloc(cx->c->n_acc + 1,
						     sizeof(*names));
			for (size_t i = 0; i < cx->c->n_acc; i++)
				names[i] = cx->c->acc[i].name;
			char hint[320];
			const char *h = gp_errors_full(r->errs) ? NULL
				: hint_among(in->accelerator_name, names,
					     cx->c->n_acc, hint, sizeof(hint));
			yr_error(r, ymap_get(n, "accelerator"), h,
				 "no accelerator '%s' in the catalog",
				 in->accelerator_name);
			free(names);
			bad = 1;
		}
	}
	if (!bad && *per_node > 1 && in->intra.kind == LINK_NONE) {
		const struct ynode *k = ymap_get(n, "intra_node_link");
		yr_error(r, k ? k : n, NULL,
			 "%s has %ld GPUs per node, so it needs an 'intra_node_link' other than none",
			 ctx, *per_node);
		bad = 1;
	}
	o->is_inline = true;
	o->inst = in;
	return bad ? -1 : 0;
}

/* gpus or nodes (one), as a whole number of per_node-GPU instances. */
static int read_size(struct yread *r, const struct ynode *n, const char *ctx,
		     long per_node, struct outcome *o)
{
	int g = yr_int(r, n, "gpus", 1, 1000000, &o->gpus);
	int k = yr_int(r, n, "nodes", 1, 1000000, &o->nodes);
	if (g < 0 || k < 0)
		return -1;
	if (g == 1 && k == 1) {
		yr_error(r, ymap_get(n, "nodes"), NULL,
			 "%s gives both 'gpus' and 'nodes': give one", ctx);
		return -1;
	}
	if (g == 0 && k == 0) {
		yr_error(r, n, NULL, "%s needs 'gpus' or 'nodes'", ctx);
		return -1;
	}
	if (per_node <= 0)
		return 0;	/* the instance did not read */
	if (g == 1 && o->is_inline && o->gpus < per_node) {
		/* part of one machine (1 GPU of a DGX): planned as a node of
		 * the GPUs used, with the machine's links */
		o->inline_inst.gpus = (int)o->gpus;
		o->nodes = 1;
		return 0;
	}
	if (g == 1 && o->gpus % per_node) {
		yr_error(r, ymap_get(n, "gpus"), NULL,
			 "'gpus' of %ld is not a whole number of %s instances of %ld GPUs",
			 o->gpus, o->inst->name, per_node);
		return -1;
	}
	if (g == 1)
		o->nodes = o->gpus / per_node;
	else
		o->gpus = o->nodes * per_node;
	return 0;
}

static int read_hardware(struct oc_ctx *cx, const struct ynode *rec,
			 const char *what, struct outcome *o)
{
	struct yread *r = &cx->r;
	const struct ynode *n = ymap_get(rec, "hardware");
	if (!n)
		return -1;	/* reported as a missing required key */
	char ctx[192];
	snprintf(ctx, sizeof(ctx), "'hardware' of %s", what);
	if (!yr_expect_map(r, n, ctx))
		return -1;
	int bad = yr_check_keys(r, n, ctx, hardware_fields) > 0;
	const struct ynode *inl = first_inline_key(n);
	long per_node = 0;
	if (ymap_get(n, "instance") && inl) {
		yr_error(r, key_of(n, inl), NULL,
			 "%s names a catalog 'instance' and describes hardware inline ('%s'): give one",
			 ctx, key_of(n, inl)->text);
		bad = 1;
	} else if (ymap_get(n, "instance"))
		bad |= read_named(cx, n, o, &per_node) < 0;
	else if (inl)
		bad |= read_inline(cx, n, ctx, o, &per_node) < 0;
	else {
		yr_error(r, n, NULL,
			 "%s names no catalog 'instance' and describes none inline ('accelerator', 'gpus_per_node', ...)",
			 ctx);
		bad = 1;
	}
	bad |= read_size(r, n, ctx, bad ? 0 : per_node, o) < 0;
	if (!bad && o->is_inline && o->nodes > 1 &&
	    o->inline_inst.network_bandwidth <= 0) {
		yr_error(r, n, NULL,
			 "%s spans %ld nodes, so it needs a 'network'", ctx,
			 o->nodes);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* ---- measured ---- */

static const struct yfield measured_fields[] = {
	{"step_time", false}, {"flops_per_gpu", false},
	{"flops_counted", false}, {"tokens_per_s", false}, {"mfu", false},
	{"gpu_hours", false}, {"days", false},
	{"output_tokens_per_s", false}, {"total_tokens_per_s", false},
	{"requests_per_s", false}, {"samples_per_s", false},
	{"ttft_mean", false}, {"ttft_p50", false},
	{"ttft_p99", false}, {"tpot_mean", false}, {"tpot_p50", false},
	{"tpot_p99", false}, {"e2e_mean", false}, {"e2e_p50", false},
	{"e2e_p99", false}, {NULL, false},
};

static int read_counting(struct yread *r, const struct ynode *n,
			 struct outcome *o)
{
	char *v = NULL;
	int rc = yr_name(r, n, "flops_counted", &v);
	if (rc <= 0)
		return rc;
	for (int i = 0; i < 3; i++)
		if (strcmp(v, counting_names[i]) == 0) {
			o->counted = (enum flops_counting)i;
			free(v);
			return 1;
		}
	char hint[96];
	const char *h = suggest_hint(v, counting_names, 3, hint, sizeof(hint));
	yr_error(r, ymap_get(n, "flops_counted"), h,
		 "unknown flops_counted '%.60s': expected megatron-2021, model or hardware",
		 v);
	free(v);
	return -1;
}

/* One measurement by its kind: SI, or a count for gpu_hours and days. */
static int read_measure(struct yread *r, const struct ynode *n,
			enum measure m, double *v)
{
	const char *key = measure_names[m];
	switch (m) {
	case MEASURE_STEP_TIME:
		return yr_quantity_in(r, n, key, Q_LATENCY, v, NULL);
	case MEASURE_FLOPS_PER_GPU:
		return yr_quantity_in(r, n, key, Q_PEAK, v, NULL);
	case MEASURE_TOKENS_PER_S:
	case MEASURE_OUTPUT_TOKENS_PER_S:
	case MEASURE_TOTAL_TOKENS_PER_S:
	case MEASURE_REQUESTS_PER_S:
	case MEASURE_SAMPLES_PER_S: {
		const struct ynode *t = ymap_get(n, key);
		bool per = t && t->kind == YNODE_SCALAR && strchr(t->text, '/');
		return read_in(r, n, key, per ? UNIT_FREQUENCY : UNIT_COUNT,
			       1e-3, 1e12, m == MEASURE_REQUESTS_PER_S
			       ? "0.001 to 1T requests a second"
			       : m == MEASURE_SAMPLES_PER_S
			       ? "0.001 to 1T samples a second"
			       : "0.001 to 1T tokens a second", v);
	}
	case MEASURE_MFU:
		return read_percent(r, n, key, 0.01, 100, "0.01% to 100%", v);
	case MEASURE_GPU_HOURS:
		return read_in(r, n, key, UNIT_COUNT, 1e-3, 1e12,
			       "0.001 to 1T GPU-hours", v);
	case MEASURE_DAYS:
		return read_in(r, n, key, UNIT_COUNT, 1e-3, 1e5,
			       "0.001 to 100K days", v);
	default:
		if (measure_is_latency(m))
			return yr_quantity_in(r, n, key, Q_LATENCY, v, NULL);
		break;
	}
	return 0;
}

static int read_measured(struct yread *r, const struct ynode *rec,
			 const char *what, struct outcome *o)
{
	const struct ynode *n = ymap_get(rec, "measured");
	if (!n)
		return -1;	/* reported as a missing required key */
	char ctx[192];
	snprintf(ctx, sizeof(ctx), "'measured' of %s", what);
	if (!yr_expect_map(r, n, ctx))
		return -1;
	int bad = yr_check_keys(r, n, ctx, measured_fields) > 0;
	int given = 0;
	for (int m = 0; m < MEASURE_COUNT; m++) {
		struct outcome_value *ov = &o->m[m];
		int rc = read_measure(r, n, (enum measure)m, &ov->v);
		bad |= rc < 0;
		given += ymap_get(n, measure_names[m]) != NULL;
		if (rc == 1) {
			const struct ynode *v = ymap_get(n, measure_names[m]);
			ov->has = true;
			ov->at = origin_of(r, v);
			ov->text = xstrdup(v->text);
		}
	}
	int counted = read_counting(r, n, o);
	bad |= counted < 0;
	if (ymap_get(n, "flops_per_gpu") && !ymap_get(n, "flops_counted")) {
		yr_error(r, ymap_get(n, "flops_per_gpu"), NULL,
			 "'flops_per_gpu' needs 'flops_counted' beside it: megatron-2021, model or hardware (how the FLOPs were counted)");
		bad = 1;
	} else if (!ymap_get(n, "flops_per_gpu") && ymap_get(n, "flops_counted")) {
		yr_error(r, ymap_get(n, "flops_counted"), NULL,
			 "'flops_counted' says how 'flops_per_gpu' was counted, but %s gives no 'flops_per_gpu'",
			 ctx);
		bad = 1;
	}
	if (given == 0) {
		yr_error(r, n, NULL,
			 o->serving
			 ? "%s holds no measurement: expected at least one of output_tokens_per_s, total_tokens_per_s, requests_per_s, ttft_mean, ttft_p50, ttft_p99, tpot_mean, tpot_p50, tpot_p99, e2e_mean, e2e_p50 or e2e_p99"
			 : "%s holds no measurement: expected at least one of step_time, flops_per_gpu, tokens_per_s, mfu, gpu_hours or days",
			 ctx);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* What the measurements need of the training: a sequence model for
 * tokens, a transformer for Megatron's count, a run length for totals. */
static int check_measured(struct yread *r, const struct outcome *o,
			  const char *what)
{
	const struct workload *w = o->w;
	const struct training *t = &w->train;
	int bad = 0;
	const struct outcome_value *tok = &o->m[MEASURE_TOKENS_PER_S];
	if (tok->has && t->seq == 0) {
		gp_errors_add(r->errs, tok->at.file, tok->at.line, tok->at.col,
			      NULL,
			      "'tokens_per_s' needs a sequence model, but model '%s' of %s takes images",
			      w->model->name ? w->model->name : w->model_file,
			      what);
		bad = 1;
	}
	const struct outcome_value *fl = &o->m[MEASURE_FLOPS_PER_GPU];
	if (fl->has && o->counted == COUNT_MEGATRON_2021 &&
	    w->model->kind != MODEL_TRANSFORMER) {
		gp_errors_add(r->errs, fl->at.file, fl->at.line, fl->at.col,
			      NULL,
			      "flops counted as megatron-2021 need a transformer model (layers, hidden, vocab), but model '%s' is a graph: count them as 'model' or 'hardware'",
			      w->model->name ? w->model->name : w->model_file);
		bad = 1;
	}
	for (int m = MEASURE_GPU_HOURS; m <= MEASURE_DAYS; m++) {
		const struct outcome_value *v = &o->m[m];
		if (v->has && t->total_samples <= 0) {
			gp_errors_add(r->errs, v->at.file, v->at.line, v->at.col,
				      NULL,
				      "'%s' is the whole run's: the training of %s needs 'tokens' or 'samples'",
				      measure_names[m], what);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

/* ---- one record ---- */

static const struct yfield record_fields[] = {
	{"name", true}, {"source", true}, {"notes", false},
	{"training", false}, {"serving", false}, {"hardware", true},
	{"layout", false}, {"engine", false}, {"load", false},
	{"measured", true}, {"tolerance", false}, {"known_miss", false},
	{NULL, false},
};

/* `training:` through the workload reader. */
static int read_training(struct oc_ctx *cx, const struct ynode *rec,
			 const char *what, struct outcome *o)
{
	const struct ynode *t = ymap_get(rec, "training");
	if (!t)
		return -1;	/* reported as a missing required key */
	char ctx[192];
	snprintf(ctx, sizeof(ctx), "'training' of %s", what);
	return workload_reader_training(cx->wr, t, o->name ? o->name : "?",
					ctx, &o->w);
}

/* ---- serving records ---- */

/* `serving:` through the workload reader. */
static int read_serving(struct oc_ctx *cx, const struct ynode *rec,
			const char *what, struct outcome *o)
{
	const struct ynode *t = ymap_get(rec, "serving");
	char ctx[192];
	snprintf(ctx, sizeof(ctx), "'serving' of %s", what);
	return workload_reader_serving(cx->wr, t, o->name ? o->name : "?",
				       ctx, &o->w);
}

static const struct yfield engine_fields[] = {
	{"name", true}, {"version", false}, {"tp", false},
	{"max_live_sequences", false}, {"token_budget", false},
	{"max_batch", false}, {"settings", false}, {NULL, false},
};

/*
 * `engine:` - its name and version (as published), the tensor-parallel
 * degree of one replica (1 when not given), and the limits where the
 * source states them: live sequences (otherwise the load's clients or
 * requests, which bound them anyway) and the tokens of one iteration
 * (otherwise ENGINE_DEFAULT_BUDGET, an assumption).
 */
#define ENGINE_DEFAULT_BUDGET 8192

/* A map a serving record must give (`engine:`, `load:`), NULL after an
 * error; ctx gets "'KEY' of WHAT". */
static const struct ynode *serving_map(struct yread *r, const struct ynode *rec,
				       const char *key, const char *what,
				       char *ctx, size_t len)
{
	const struct ynode *n = ymap_get(rec, key);
	snprintf(ctx, len, "'%s' of %s", key, what);
	if (!n) {
		yr_error(r, rec, NULL, "missing required key '%s' in %s (a serving record)",
			 key, what);
		return NULL;
	}
	return yr_expect_map(r, n, ctx) ? n : NULL;
}

/*
 * The engine's table entry at the record's version, and its `settings:`
 * under the engine's own names.  A record of an engine or version the
 * table lacks is still predicted, on the planner's assumptions; settings
 * need an entry to be read against.
 */
static int read_engine_settings(struct yread *r, const struct ynode *n,
				const char *ctx, const char *version,
				struct outcome *o)
{
	const struct engine_version *e =
		o->sv.engine ? engine_find(o->sv.engine, version) : NULL;
	const struct ynode *settings = ymap_get(n, "settings");
	if (!e) {
		memset(&o->sv.cfg, 0, sizeof(o->sv.cfg));
		if (settings && o->sv.engine)
			yr_error(r, settings, NULL,
				 "'settings' of %s are read against gpuplan's table of engine defaults, which has no %s %s (src/workload/ENGINES.md)",
				 ctx, o->sv.engine, version ? version : "");
		return settings ? -1 : 0;
	}
	engine_config_init(&o->sv.cfg, e);
	char sctx[224];
	snprintf(sctx, sizeof(sctx), "'settings' of %s", ctx);
	return wl_engine_settings(r, settings, sctx, &o->sv.cfg);
}

static int read_engine(struct yread *r, const struct ynode *rec,
		       const char *what, struct outcome *o)
{
	char ctx[192];
	const struct ynode *n = serving_map(r, rec, "engine", what, ctx, sizeof(ctx));
	if (!n)
		return -1;
	int bad = yr_check_keys(r, n, ctx, engine_fields) > 0;
	bad |= yr_name(r, n, "name", &o->sv.engine) < 0;
	char *version = NULL;
	bad |= yr_string(r, n, "version", &version) < 0;
	bad |= read_engine_settings(r, n, ctx, version, o) < 0;
	free(version);
	o->sv.tp = 1;
	bad |= yr_int(r, n, "tp", 1, 64, &o->sv.tp) < 0;
	bad |= yr_int(r, n, "max_live_sequences", 1, 100000, &o->sv.max_seqs) < 0;
	o->sv.token_budget = ENGINE_DEFAULT_BUDGET;
	bad |= yr_int(r, n, "token_budget", 16, 1000000, &o->sv.token_budget) < 0;
	o->sv.budget_stated = ymap_get(n, "token_budget") != NULL;
	bad |= yr_int(r, n, "max_batch", 1, OUTCOME_MAX_BATCH, &o->sv.max_batch) < 0;
	return bad ? -1 : 0;
}

static const struct yfield load_fields[] = {
	{"clients", false}, {"request_rate", false}, {"offline", false},
	{"requests", true}, {"samples_per_request", false}, {NULL, false},
};

/* `load:` - one of clients (closed loop), request_rate (Poisson) or
 * offline: true (all at once), and the requests sent. */
static int read_load(struct yread *r, const struct ynode *rec,
		     const char *what, struct outcome *o)
{
	char ctx[192];
	const struct ynode *n = serving_map(r, rec, "load", what, ctx, sizeof(ctx));
	if (!n)
		return -1;
	struct cb_load *l = &o->sv.load;
	int bad = yr_check_keys(r, n, ctx, load_fields) > 0;
	int c = yr_int(r, n, "clients", 1, 100000, &l->clients);
	int q = yr_quantity_in(r, n, "request_rate", Q_REQUEST_RATE, &l->rate, NULL);
	bool offline = false;
	int f = yr_bool(r, n, "offline", &offline);
	bad |= c < 0 || q < 0 || f < 0 || yr_int(r, n, "requests", 20, 100000,
						 &l->requests) < 0;
	int given = (c == 1) + (q == 1) + (f == 1 && offline);
	if (f == 1 && !offline) {
		yr_error(r, ymap_get(n, "offline"), NULL,
			 "'offline: false' says nothing: give 'clients' or 'request_rate' instead");
		bad = 1;
	} else if (given != 1 && !bad) {
		yr_error(r, n, NULL,
			 "%s needs exactly one of 'clients' (closed loop), 'request_rate' (Poisson arrivals) or 'offline: true' (all at once), found %d",
			 ctx, given);
		bad = 1;
	}
	l->arrivals = c == 1 ? CB_CLOSED : q == 1 ? CB_POISSON : CB_OFFLINE;
	o->sv.samples = 1;
	bad |= yr_int(r, n, "samples_per_request", 1, OUTCOME_MAX_BATCH,
		      &o->sv.samples) < 0;
	l->keep_warmup = true;	/* benchmarks average over every request */
	l->seed = 1;
	return bad ? -1 : 0;
}

/* Keys of `engine:` and `load:` for one kind of served model only. */
static int refuse_keys(struct yread *r, const struct ynode *rec,
		       const char *map, const char *const *keys,
		       const char *why)
{
	const struct ynode *n = ymap_get(rec, map);
	int bad = 0;
	for (size_t i = 0; n && keys[i]; i++) {
		const struct ynode *k = ymap_get(n, keys[i]);
		if (k) {
			yr_error(r, k, NULL, "'%s' %s", keys[i], why);
			bad = 1;
		}
	}
	return bad;
}

/* A token-generating model: its engine's limits default to what the load
 * allows; the lengths come from the workload; it generates. */
/* The record's engine, where the table knows it, is the workload's: its
 * limits given as settings are the record's (as max_live_sequences and
 * token_budget are), the rest of its defaults the planner's. */
static int apply_engine(struct yread *r, const struct ynode *rec,
			struct outcome *o)
{
	const struct engine_config *c = &o->sv.cfg;
	if (!c->e)
		return 0;
	if (c->e->kind == ENGINE_TRITON) {
		yr_error(r, ymap_get(rec, "engine"), NULL,
			 "engine '%s' batches whole requests, but this record's model generates tokens",
			 o->sv.engine);
		return -1;
	}
	o->w->infer.engine = *c;
	o->w->infer.engine_named = true;
	if (c->given[ES_TOKEN_BUDGET]) {
		o->sv.token_budget = (long)c->v[ES_TOKEN_BUDGET];
		o->sv.budget_stated = true;
	}
	if (c->given[ES_MAX_SEQS])
		o->sv.max_seqs = (long)c->v[ES_MAX_SEQS];
	return wl_engine_check(r, ymap_get(rec, "engine"), c,
			       o->w->infer.prompt_range[1]);
}

static int check_generating(struct yread *r, const struct ynode *rec,
			    const char *what, struct outcome *o)
{
	static const char *const batch_engine[] = {"max_batch", NULL};
	static const char *const batch_load[] = {"samples_per_request", NULL};
	static const char *const why =
		"is for a model batched whole (an image model, an encoder); this one generates tokens in a continuous-batching engine";
	int bad = refuse_keys(r, rec, "engine", batch_engine, why);
	bad |= refuse_keys(r, rec, "load", batch_load, why);
	struct cb_load *l = &o->sv.load;
	bad |= apply_engine(r, rec, o) < 0;
	if (o->sv.max_seqs == 0) {
		if (l->arrivals == CB_POISSON) {
			yr_error(r, ymap_get(rec, "engine"), NULL,
				 "%s with a 'request_rate' needs the engine's 'max_live_sequences' (nothing else bounds them)",
				 what);
			bad = 1;
		}
		o->sv.max_seqs = l->arrivals == CB_CLOSED ? l->clients : l->requests;
	}
	if (o->sv.token_budget < o->sv.max_seqs)
		o->sv.token_budget = o->sv.max_seqs;	/* every decode fits */
	const struct inference *in = &o->w->infer;
	l->prompt = in->prompt_range[1];
	l->output = in->output_range[1];
	l->prompt_lo = in->prompt_range[0] < l->prompt ? in->prompt_range[0] : 0;
	l->output_lo = in->output_range[0] < l->output ? in->output_range[0] : 0;
	if (in->output_range[0] < 1) {
		yr_error(r, ymap_get(rec, "serving"), NULL,
			 "%s generates no tokens: a serving record needs 'output_tokens' of 1 or more",
			 what);
		bad = 1;
	}
	const struct outcome_value *v = &o->m[MEASURE_SAMPLES_PER_S];
	if (v->has) {
		gp_errors_add(r->errs, v->at.file, v->at.line, v->at.col, NULL,
			      "'samples_per_s' is for a model batched whole; %s generates tokens: use 'requests_per_s' or the token rates",
			      what);
		bad = 1;
	}
	return bad;
}

/* A model batched whole: a request of `samples` samples is one pass's
 * share; the engine's largest batch is given, or with one client is the
 * request; token measurements do not apply. */
static int check_batched(struct yread *r, const struct ynode *rec,
			 const char *what, struct outcome *o)
{
	static const char *const llm_engine[] = {"max_live_sequences",
						 "token_budget", NULL};
	int bad = refuse_keys(r, rec, "engine", llm_engine,
			      "is a continuous-batching engine's limit; this model is batched whole: give 'max_batch'");
	o->sv.batched = true;
	const struct cb_load *l = &o->sv.load;
	if (o->sv.max_batch == 0) {
		if (l->arrivals == CB_CLOSED && l->clients == 1)
			o->sv.max_batch = o->sv.samples;
		else {
			yr_error(r, ymap_get(rec, "engine"), NULL,
				 "%s needs the engine's 'max_batch' (with more than one client in flight, nothing else bounds a batch)",
				 what);
			bad = 1;
		}
	} else if (o->sv.samples > o->sv.max_batch) {
		yr_error(r, ymap_get(ymap_get(rec, "load"), "samples_per_request"),
			 NULL, "a request of %ld samples does not fit the engine's 'max_batch' of %ld",
			 o->sv.samples, o->sv.max_batch);
		bad = 1;
	}
	for (int m = MEASURE_OUTPUT_TOKENS_PER_S; m <= MEASURE_TPOT_P99; m++)
		if (o->m[m].has && (m <= MEASURE_TOTAL_TOKENS_PER_S ||
				    m >= MEASURE_TTFT_MEAN)) {
			gp_errors_add(r->errs, o->m[m].at.file, o->m[m].at.line,
				      o->m[m].at.col, NULL,
				      "'%s' measures generated tokens, but %s serves model '%s', which is batched whole: use 'samples_per_s', 'requests_per_s' or 'e2e_*'",
				      measure_names[m], what, o->w->model->name);
			bad = 1;
		}
	return bad;
}

/* A serving record measures one replica of tp GPUs, and serving only. */
static int check_serving(struct yread *r, const struct ynode *rec,
			 const char *what, struct outcome *o)
{
	int bad = 0;
	if (o->gpus != o->sv.tp) {
		yr_error(r, ymap_get(rec, "hardware"), NULL,
			 "%s measures one replica: the hardware's %ld GPUs must equal the engine's 'tp' of %ld",
			 what, o->gpus, o->sv.tp);
		bad = 1;
	}
	for (int m = 0; m < MEASURE_FIRST_SERVING; m++)
		if (o->m[m].has) {
			gp_errors_add(r->errs, o->m[m].at.file, o->m[m].at.line,
				      o->m[m].at.col, NULL,
				      "'%s' is a training measurement, but %s is a serving record",
				      measure_names[m], what);
			bad = 1;
		}
	const struct model *m = o->w->model;
	bool generates = m->kind == MODEL_TRANSFORMER && m->tf.arch == TF_DECODER;
	bad |= generates ? check_generating(r, rec, what, o)
			 : check_batched(r, rec, what, o);
	return bad ? -1 : 0;
}

/* A training record has no engine or load, and measures training. */
static int check_training_kind(struct yread *r, const struct ynode *rec,
			       const char *what, const struct outcome *o)
{
	int bad = 0;
	const char *serving_only[] = {"engine", "load"};
	for (int i = 0; i < 2; i++)
		if (ymap_get(rec, serving_only[i])) {
			yr_error(r, ymap_get(rec, serving_only[i]), NULL,
				 "'%s' describes a served model, but %s is a training record ('training:')",
				 serving_only[i], what);
			bad = 1;
		}
	for (int m = MEASURE_FIRST_SERVING; m < MEASURE_COUNT; m++)
		if (o->m[m].has) {
			gp_errors_add(r->errs, o->m[m].at.file, o->m[m].at.line,
				      o->m[m].at.col, NULL,
				      "'%s' is a serving measurement, but %s is a training record",
				      measure_names[m], what);
			bad = 1;
		}
	return bad ? -1 : 0;
}

/* The record's cluster and `layout:` put into its training, and the
 * layout checked against them (when both read). */
static int read_layout(struct yread *r, const struct ynode *rec,
		       const char *what, bool ready, struct outcome *o)
{
	const struct ynode *l = ymap_get(rec, "layout");
	struct train_layout layout;
	memset(&layout, 0, sizeof(layout));
	int bad = 0;
	if (l) {
		char ctx[192];
		snprintf(ctx, sizeof(ctx), "'layout' of %s", what);
		bad = workload_read_layout(r, l, ctx, &layout) < 0;
		o->has_layout = true;
	}
	if (!o->w)
		return bad ? -1 : 0;
	o->w->train.layout = layout;
	if (bad || !ready)
		return bad ? -1 : 0;
	o->w->train.fixed_gpus = o->gpus;	/* at most one: workload.h */
	return workload_check_layout(r, l, o->w, o->gpus,
				     "the hardware's 'gpus'");
}

/* Exactly one of `training:` and `serving:`. */
static int record_kind(struct yread *r, const struct ynode *n, const char *what,
		       struct outcome *o)
{
	bool t = ymap_get(n, "training") != NULL, s = ymap_get(n, "serving") != NULL;
	if (t == s) {
		yr_error(r, n, NULL, t ? "%s gives both 'training' and 'serving': a record is one run"
				       : "%s needs 'training' (a training run) or 'serving' (a served model)",
			 what);
		return -1;
	}
	o->serving = s;
	return 0;
}

static int read_record(struct oc_ctx *cx, const struct ynode *n, size_t index,
		       struct outcome *o)
{
	struct yread *r = &cx->r;
	o->at = origin_of(r, n);
	if (!yr_expect_map(r, n, "an outcome"))
		return -1;
	char what[128];
	yr_entry_label(n, "outcome", index, what, sizeof(what));
	int bad = yr_check_keys(r, n, what, record_fields) > 0;
	bad |= yr_name(r, n, "name", &o->name) < 0;
	bad |= read_outcome_sources(r, n, what, o) < 0;
	bad |= yr_string(r, n, "notes", &o->notes) < 0;
	bad |= yr_string(r, n, "known_miss", &o->known_miss) < 0;
	if (record_kind(r, n, what, o) < 0)
		return -1;
	int tr = o->serving ? read_serving(cx, n, what, o)
			    : read_training(cx, n, what, o);
	int hw = read_hardware(cx, n, what, o);
	bad |= tr < 0 || hw < 0;
	if (o->serving) {
		if (ymap_get(n, "layout")) {
			yr_error(r, ymap_get(n, "layout"), NULL,
				 "'layout' splits a training run; a serving record gives its tensor parallelism as the engine's 'tp'");
			bad = 1;
		}
		bad |= read_engine(r, n, what, o) < 0;
		bad |= read_load(r, n, what, o) < 0;
	} else
		bad |= read_layout(r, n, what, tr == 0 && hw == 0, o) < 0;
	bad |= read_measured(r, n, what, o) < 0;
	int tol = read_percent(r, n, "tolerance", 0.1, 1000, "0.1% to 1000%",
			       &o->tolerance);
	bad |= tol < 0;
	if (tol == 0)
		o->tolerance = 0;	/* outcome_tolerance() gives the default */
	if (bad || !o->w || !o->w->model)
		return bad ? -1 : 0;
	if (o->serving)
		return check_serving(r, n, what, o);
	bad |= check_training_kind(r, n, what, o) < 0;
	bad |= check_measured(r, o, what) < 0;
	return bad ? -1 : 0;
}

static void free_record(struct outcome *o)
{
	free(o->name);
	for (size_t i = 0; i < o->n_sources; i++) {
		free(o->sources[i].title);
		free(o->sources[i].url);
		free(o->sources[i].where);
		free(o->sources[i].retrieved);
	}
	free(o->sources);
	free(o->notes);
	free(o->known_miss);
	free(o->sv.engine);
	free(o->inline_inst.name);
	free(o->inline_inst.provider);
	free(o->inline_inst.accelerator_name);
	free(o->inline_inst.network_name);
	for (int m = 0; m < MEASURE_COUNT; m++)
		free(o->m[m].text);
}

/* ---- the file ---- */

/* Names are unique case-blind, in one pass over a hash of them. */
static void check_duplicates(struct outcome_file *of, struct gp_errors *errs)
{
	struct name_index seen;
	name_index_init(&seen);
	for (size_t i = 0; i < of->n; i++) {
		size_t j;
		if (!of->v[i].name || name_index_add(&seen, of->v[i].name, i, &j))
			continue;
		char hint[256];
		snprintf(hint, sizeof(hint), "first defined at %s:%d",
			 of->file, of->v[j].at.line);
		gp_errors_add(errs, of->file, of->v[i].at.line,
			      of->v[i].at.col, hint,
			      "duplicate outcome name '%s'", of->v[i].name);
	}
	name_index_free(&seen);
}

static const struct yfield file_fields[] = {
	{"schema", true}, {"outcomes", true}, {NULL, false},
};

static int read_list(struct oc_ctx *cx, const struct ynode *list,
		     const char *path, const char *shown)
{
	struct yread *r = &cx->r;
	if (!yr_expect_seq(r, list, "'outcomes'"))
		return -1;
	if (list->n == 0) {
		yr_error(r, list, NULL,
			 "'outcomes' is empty: expected at least one record");
		return -1;
	}
	struct outcome_file *of = cx->of;
	cx->wr = workload_reader_open(&of->wf, path, shown, list->n, r->errs);
	of->v = xcalloc(list->n, sizeof(*of->v));
	int bad = 0;
	for (size_t i = 0; i < list->n; i++) {
		struct outcome *o = &of->v[of->n];
		int rc = read_record(cx, list->items[i], i, o);
		bad |= rc < 0;
		/* once problems are only counted, a record with problems is
		 * dropped as soon as it is read (as workload_file.c does) */
		if (rc < 0 && gp_errors_full(r->errs)) {
			free_record(o);
			memset(o, 0, sizeof(*o));
		} else
			of->n++;
	}
	workload_reader_close(cx->wr);
	cx->wr = NULL;
	return bad ? -1 : 0;
}

int outcome_file_load_as(struct outcome_file *of, const char *path,
			 const char *shown, const struct catalog *c,
			 struct gp_errors *errs)
{
	memset(of, 0, sizeof(*of));
	of->file = term_escape_dup(file_shown(shown), 0);	/* printed: see term_safe.h */
	size_t before = gp_errors_count(errs);
	struct ytree t;
	if (ytree_load(&t, path, of->file, errs) == 0) {
		struct oc_ctx cx = {.r = {.file = of->file, .errs = errs},
				    .c = c, .of = of};
		if (yr_check_schema(&cx.r, t.root, OUTCOME_SCHEMA,
				    "outcome file") == 0) {
			yr_check_keys(&cx.r, t.root, "an outcome file",
				      file_fields);
			const struct ynode *list = ymap_get(t.root, "outcomes");
			if (list)
				read_list(&cx, list, path, shown);
			check_duplicates(of, errs);
		}
	}
	ytree_free(&t);
	return gp_errors_count(errs) > before ? -1 : 0;
}

int outcome_file_load(struct outcome_file *of, const char *path,
		      const struct catalog *c, struct gp_errors *errs)
{
	return outcome_file_load_as(of, path, path, c, errs);
}

void outcome_file_free(struct outcome_file *of)
{
	for (size_t i = 0; i < of->n; i++)
		free_record(&of->v[i]);
	free(of->v);
	workload_file_free(&of->wf);
	free(of->file);
	memset(of, 0, sizeof(*of));
}

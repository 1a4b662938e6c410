#include "report_data.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_read.h"
#include "core/xalloc.h"

/* The shipped plan is about 1.5 MB of JSON (2 kB an option); the limit
 * is there to refuse a wrong file (a disk image, say), not a big plan. */
#define PLAN_MAX_BYTES (1024u << 20)

struct reader {
	const char *file;
	char *why;
	size_t len;
	bool failed;
};

static void fail(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct reader *rd, const char *fmt, ...)
{
	if (rd->failed)
		return;		/* the first problem is the one to fix */
	rd->failed = true;
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(rd->why, rd->len, "%s: %s", rd->file, msg);
}

/* What a bad value was, for "expected X, found Y". */
static const char *found(const json_t *v)
{
	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "a list";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "true/false";
	default: return v ? "null" : "nothing (the key is missing)";
	}
}

static const char *get_string(struct reader *rd, json_t *o, const char *key,
			      const char *path, bool nullable)
{
	json_t *v = json_object_get(o, key);
	if (v && json_is_string(v))
		return json_string_value(v);
	if (nullable && (!v || json_is_null(v)))
		return NULL;
	fail(rd, "%s.%s: expected a string, found %s", path, key, found(v));
	return "";
}

static double get_number(struct reader *rd, json_t *o, const char *key,
			 const char *path, bool nullable)
{
	json_t *v = json_object_get(o, key);
	if (v && json_is_number(v))
		return json_number_value(v);
	if (nullable && (!v || json_is_null(v)))
		return 0;
	fail(rd, "%s.%s: expected a number, found %s", path, key, found(v));
	return 0;
}

/* A count (GPUs, nodes, replicas, a batch): a whole number from 0 to a
 * billion, so the cast to long is defined and the text stays sane. */
static long get_count(struct reader *rd, json_t *o, const char *key,
		      const char *path, bool nullable)
{
	double v = get_number(rd, o, key, path, nullable);
	if (!(v >= 0 && v <= 1e9) || v != floor(v)) {
		fail(rd, "%s.%s: expected a whole number from 0 to 1000000000, found %g",
		     path, key, v);
		return 0;
	}
	return (long)v;
}

static long get_index(struct reader *rd, json_t *o, const char *key,
		      const char *path, size_t n)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return -1;
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (size_t)json_integer_value(v) >= n) {
		if (json_is_integer(v))
			fail(rd, "%s.%s: expected an option index below %zu or null, found %lld",
			     path, key, n, (long long)json_integer_value(v));
		else
			fail(rd, "%s.%s: expected an option index below %zu or null, found %s",
			     path, key, n, found(v));
		return -1;
	}
	return (long)json_integer_value(v);
}

static void read_reasons(struct reader *rd, json_t *o, const char *path,
			 struct r_option *opt)
{
	json_t *a = json_object_get(o, "reason_codes");
	if (!json_is_array(a)) {
		fail(rd, "%s.reason_codes: expected a list, found %s", path, found(a));
		return;
	}
	size_t i;
	json_t *r;
	json_array_foreach(a, i, r) {
		if (opt->n_reasons == R_MAX_REASONS)
			break;
		struct plan_reason_figures *f = &opt->reasons[opt->n_reasons++];
		char p[160];
		snprintf(p, sizeof(p), "%s.reason_codes[%zu]", path, i);
		f->code = get_string(rd, r, "code", p, false);
		f->s1 = get_string(rd, r, "s1", p, true);
		f->s2 = get_string(rd, r, "s2", p, true);
		f->used = get_string(rd, r, "used", p, true);
		f->wanted = get_string(rd, r, "wanted", p, true);
		f->a = get_number(rd, r, "a", p, true);
		f->b = get_number(rd, r, "b", p, true);
		f->c = get_number(rd, r, "c", p, true);
		f->n1 = get_count(rd, r, "n1", p, true);
		f->n2 = get_count(rd, r, "n2", p, true);
	}
}

static void read_option(struct reader *rd, json_t *o, const char *path,
			bool training, struct r_option *opt)
{
	if (!json_is_object(o)) {
		fail(rd, "%s: expected an object, found %s", path, found(o));
		return;
	}
	opt->instance = get_string(rd, o, "instance", path, false);
	opt->provider = get_string(rd, o, "provider", path, false);
	opt->accelerator = get_string(rd, o, "accelerator", path, false);
	opt->gpus = get_count(rd, o, "gpus", path, false);
	opt->nodes = get_count(rd, o, "nodes", path, false);
	json_t *f = json_object_get(o, "feasible");
	opt->feasible = json_is_true(f);
	/* plans written before "runnable" existed: feasible implies it */
	json_t *run = json_object_get(o, "runnable");
	opt->runnable = run ? json_is_true(run) : opt->feasible;
	opt->pareto = json_is_true(json_object_get(o, "pareto"));
	opt->cost = get_number(rd, o, "cost", path, false);
	json_t *spot = json_object_get(o, "cost_spot");
	opt->has_spot = spot && json_is_number(spot);
	opt->cost_spot = opt->has_spot ? json_number_value(spot) : 0;
	opt->gpu_hours = get_number(rd, o, "gpu_hours", path, false);
	opt->memory = get_number(rd, o, "memory_per_gpu_bytes", path, false);
	opt->capacity = get_number(rd, o, "memory_capacity_bytes", path, false);
	if (training) {
		opt->time_s = get_number(rd, o, "time_s", path, false);
		opt->mfu = get_number(rd, o, "mfu", path, true);
		opt->dp = get_count(rd, o, "dp", path, true);
		opt->tp = get_count(rd, o, "tp", path, true);
		opt->micro = get_count(rd, o, "micro_batch", path, true);
	} else {
		opt->p99_s = get_number(rd, o, "p99_latency_s", path, false);
		opt->replicas = get_count(rd, o, "replicas", path, false);
		opt->batch = get_count(rd, o, "batch", path, true);
		opt->sharing = get_string(rd, o, "sharing", path, true);
	}
	static const char *const bk[] = {"compute_s", "memory_s",
					 "communication_s", "input_s"};
	json_t *b = json_object_get(o, "breakdown");
	for (int k = 0; k < 4; k++)
		opt->breakdown[k] = get_number(rd, b, bk[k], path, true);
	static const char *const mk[] = {"weights_bytes", "gradients_bytes",
		"optimizer_bytes", "activations_bytes", "kv_cache_bytes",
		"workspace_bytes"};
	json_t *m = json_object_get(o, "memory");
	for (int k = 0; k < 6; k++)
		opt->memory_parts[k] = get_number(rd, m, mk[k], path, true);
	read_reasons(rd, o, path, opt);
}

static void read_classes(struct reader *rd, json_t *w, const char *path,
			 struct r_workload *rw)
{
	json_t *c = json_object_get(w, "op_classes");
	const char *key;
	json_t *v;
	if (!json_is_object(c)) {
		fail(rd, "%s.op_classes: expected an object, found %s", path, found(c));
		return;
	}
	json_object_foreach(c, key, v) {
		if (rw->n_classes == 6)
			break;
		struct r_class *k = &rw->classes[rw->n_classes++];
		k->name = key;
		k->flops = get_number(rd, v, "flops_per_sample", path, false);
		k->weight_bytes = get_number(rd, v, "weight_bytes", path, false);
		k->act_bytes = get_number(rd, v, "activation_bytes_per_sample", path, false);
	}
}

static void read_workload(struct reader *rd, json_t *w, size_t index,
			  struct r_workload *rw)
{
	char path[64];
	snprintf(path, sizeof(path), "workloads[%zu]", index);
	if (!json_is_object(w)) {
		fail(rd, "%s: expected an object, found %s", path, found(w));
		return;
	}
	rw->name = get_string(rd, w, "name", path, false);
	rw->kind = get_string(rd, w, "kind", path, false);
	rw->model = get_string(rd, w, "model", path, false);
	rw->precision = get_string(rd, w, "precision", path, false);
	rw->why = get_string(rd, w, "recommendation", path, false);
	rw->training = strcmp(rw->kind, "training") == 0;
	rw->saving = get_number(rd, w, "saving", path, true);
	rw->deadline_s = get_number(rd, w, "deadline_s", path, true);
	rw->budget = get_number(rd, w, "budget", path, true);
	rw->p99_target_s = get_number(rd, w, "p99_target_s", path, true);
	json_t *opts = json_object_get(w, "options");
	if (!json_is_array(opts)) {
		fail(rd, "%s.options: expected a list, found %s", path, found(opts));
		return;
	}
	rw->n = json_array_size(opts);
	rw->v = xcalloc(rw->n + 1, sizeof(*rw->v));
	for (size_t i = 0; i < rw->n && !rd->failed; i++) {
		char op[96];
		snprintf(op, sizeof(op), "%s.options[%zu]", path, i);
		read_option(rd, json_array_get(opts, i), op, rw->training, &rw->v[i]);
	}
	rw->recommended = get_index(rd, w, "recommended", path, rw->n);
	rw->runner_up = get_index(rd, w, "runner_up", path, rw->n);
	rw->obvious = get_index(rd, w, "obvious_alternative", path, rw->n);
	read_classes(rd, w, path, rw);
}

int r_plan_load(struct r_plan *p, const char *path, char *why, size_t len)
{
	memset(p, 0, sizeof(*p));
	char *text;
	size_t n;
	switch (file_read_all(path, PLAN_MAX_BYTES, &text, &n)) {
	case FILE_READ_CANNOT_OPEN:
		snprintf(why, len, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	case FILE_READ_CANNOT_READ:
		snprintf(why, len, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	case FILE_READ_TOO_LARGE:
		snprintf(why, len, "%s: file too large: over %u MiB", path,
			 PLAN_MAX_BYTES >> 20);
		return -1;
	case FILE_READ_OK:
		break;
	}
	json_error_t err;
	json_t *root = json_loadb(text, n, 0, &err);
	free(text);
	if (!root) {
		snprintf(why, len, "%s:%d:%d: not a plan: %s", path,
			 err.line > 0 ? err.line : 1,
			 err.column > 0 ? err.column : 1, err.text);
		return -1;
	}
	int rc = r_plan_from_json(p, root, path, why, len);
	json_decref(root);
	return rc;
}

int r_plan_from_json(struct r_plan *p, json_t *root, const char *path,
		     char *why, size_t len)
{
	memset(p, 0, sizeof(*p));
	p->root = json_incref(root);
	struct reader rd = {path, why, len, false};
	json_t *schema = json_object_get(p->root, "schema");
	if (!json_is_string(schema) ||
	    strcmp(json_string_value(schema), "gpuplan/plan/v1") != 0) {
		if (json_is_string(schema))
			fail(&rd, "schema: expected \"gpuplan/plan/v1\" (a file written by 'gpuplan plan --format json'), found \"%s\"",
			     json_string_value(schema));
		else
			fail(&rd, "schema: expected \"gpuplan/plan/v1\" (a file written by 'gpuplan plan --format json'), found %s",
			     found(schema));
		return -1;
	}
	p->currency = get_string(&rd, p->root, "currency", "$", false);
	p->assumptions = json_object_get(p->root, "assumptions");
	p->sources = json_object_get(p->root, "sources");
	p->rates = json_object_get(p->root, "exchange_rates");
	if (p->rates)
		p->rates_as_of = json_string_value(json_object_get(p->rates, "as_of"));
	json_t *ws = json_object_get(p->root, "workloads");
	if (!json_is_array(ws) || json_array_size(ws) == 0) {
		fail(&rd, "workloads: expected a list of at least one workload, found %s",
		     json_is_array(ws) ? "an empty list" : found(ws));
		return -1;
	}
	p->n = json_array_size(ws);
	p->w = xcalloc(p->n + 1, sizeof(*p->w));
	for (size_t i = 0; i < p->n && !rd.failed; i++)
		read_workload(&rd, json_array_get(ws, i), i, &p->w[i]);
	json_t *inst = json_object_get(p->sources, "instances");
	for (size_t i = 0; i < p->n && !rd.failed; i++)
		for (size_t k = 0; k < p->w[i].n; k++) {
			struct r_option *o = &p->w[i].v[k];
			json_t *e = o->instance ? json_object_get(inst, o->instance) : NULL;
			o->owned = json_is_true(json_object_get(e, "owned"));
			o->illustrative = json_is_true(json_object_get(e, "illustrative"));
		}
	return rd.failed ? -1 : 0;
}

void r_plan_free(struct r_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->w[i].v);
	free(p->w);
	json_decref(p->root);
	memset(p, 0, sizeof(*p));
}

bool r_plan_accelerator(const struct r_plan *p, const char *name,
			struct r_accelerator *out)
{
	json_t *a = json_object_get(json_object_get(p->sources, "accelerators"), name);
	if (!a)
		return false;
	out->name = name;
	out->bandwidth = json_number_value(json_object_get(a, "memory_bandwidth_bytes_per_s"));
	out->peaks = json_object_get(a, "peak_dense_ops_per_s");
	return out->bandwidth > 0 && out->peaks;
}

void r_plan_price_dates(const struct r_plan *p, const char **earliest,
			const char **latest)
{
	json_t *inst = json_object_get(p->sources, "instances");
	const char *key, *lo = NULL, *hi = NULL;
	json_t *v;
	json_object_foreach(inst, key, v) {
		const char *d = json_string_value(json_object_get(v, "price_as_of"));
		if (d && (!lo || strcmp(d, lo) < 0))
			lo = d;
		if (d && (!hi || strcmp(d, hi) > 0))
			hi = d;
	}
	*earliest = lo ? lo : "?";
	*latest = hi ? hi : "?";
}

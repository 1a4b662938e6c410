/*
 * plan_workloads.c - a plan's workloads and their options; see
 * plan_workloads.h.
 */
#include "plan_workloads.h"

#include <stdio.h>
#include <string.h>

#include "core/xalloc.h"
#include "plan_curves.h"
#include "workload/workload.h"

/* Every entry of reason_codes is checked; the first is kept. */
static void read_reasons(struct reader *rd, const char *path,
			 struct r_option *opt)
{
	size_t at, el;
	struct jiter it;
	char p[192];
	if (!rd_container(rd, &rd->option, "reason_codes", path, J_ARRAY, false, &at))
		return;
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, NULL, &el)) {
		snprintf(p, sizeof(p), "%s.reason_codes[%d]", path, opt->n_reasons);
		if (!rd_record_read(rd, &rd->sub, el, p))
			return;
		struct plan_reason_figures f;
		bool keep = opt->n_reasons == 0;
		f.code = rd_text(rd, &rd->sub, "code", p, false, NAME, keep);
		f.s1 = rd_text(rd, &rd->sub, "s1", p, true, NAME, keep);
		f.s2 = rd_text(rd, &rd->sub, "s2", p, true, NAME, keep);
		f.used = rd_text(rd, &rd->sub, "used", p, true, NAME, keep);
		f.wanted = rd_text(rd, &rd->sub, "wanted", p, true, NAME, keep);
		f.a = rd_number(rd, &rd->sub, "a", p, true, -R_NUMBER_MAX);
		f.b = rd_number(rd, &rd->sub, "b", p, true, -R_NUMBER_MAX);
		f.c = rd_number(rd, &rd->sub, "c", p, true, -R_NUMBER_MAX);
		f.n1 = rd_count(rd, &rd->sub, "n1", p, true, 0);
		f.n2 = rd_count(rd, &rd->sub, "n2", p, true, 0);
		if (opt->n_reasons++ == 0)
			opt->reason = f;
	}
}

/* The numbers of an optional sub-object (breakdown, memory) by key. */
static void read_parts(struct reader *rd, const char *key, const char *path,
		       const char *const *keys, double *out, int n)
{
	size_t at;
	char p[192];
	for (int k = 0; k < n; k++)
		out[k] = 0;
	if (!rd_container(rd, &rd->option, key, path, J_OBJECT, true, &at))
		return;
	snprintf(p, sizeof(p), "%s.%s", path, key);
	if (!rd_record_read(rd, &rd->sub, at, p))
		return;
	for (int k = 0; k < n; k++)
		out[k] = rd_number(rd, &rd->sub, keys[k], p, true, 0);
}

static void read_option(struct reader *rd, size_t at, const char *path,
			bool training, struct r_option *opt)
{
	struct record *r = &rd->option;
	if (!rd_record_read(rd, r, at, path))
		return;
	opt->instance = rd_string(rd, r, "instance", path, false, NAME);
	opt->provider = rd_string(rd, r, "provider", path, false, NAME);
	opt->accelerator = rd_string(rd, r, "accelerator", path, false, NAME);
	opt->gpus = rd_count(rd, r, "gpus", path, false, 0);
	opt->nodes = rd_count(rd, r, "nodes", path, false, 0);
	opt->feasible = rd_bool(rd, r, "feasible", path, false);
	/* plans written before "runnable" existed: feasible implies it */
	opt->runnable = rd_bool(rd, r, "runnable", path, opt->feasible);
	opt->pareto = rd_bool(rd, r, "pareto", path, false);
	opt->cost = rd_number(rd, r, "cost", path, false, 0);
	size_t spot;
	opt->has_spot = rd_value_of(rd, r, "cost_spot", path, true, "a number", &spot);
	opt->cost_spot = opt->has_spot ? rd_number(rd, r, "cost_spot", path, true, 0) : 0;
	opt->gpu_hours = rd_number(rd, r, "gpu_hours", path, false, 0);
	opt->memory = rd_number(rd, r, "memory_per_gpu_bytes", path, false, 0);
	opt->capacity = rd_number(rd, r, "memory_capacity_bytes", path, false, 0);
	if (training) {
		opt->time_s = rd_number(rd, r, "time_s", path, false, 0);
		opt->mfu = rd_number(rd, r, "mfu", path, true, 0);
		opt->gpu_hours_compute = rd_number(rd, r, "gpu_hours_compute", path,
						   true, 0);
		opt->dp = rd_count(rd, r, "dp", path, true, 0);
		opt->tp = rd_count(rd, r, "tp", path, true, 0);
		opt->micro = rd_count(rd, r, "micro_batch", path, true, 0);
	} else {
		opt->p99_s = rd_number(rd, r, "p99_latency_s", path, false, 0);
		opt->replicas = rd_count(rd, r, "replicas", path, false, 0);
		opt->batch = rd_count(rd, r, "batch", path, true, 0);
		opt->sharing = rd_string(rd, r, "sharing", path, true, NAME);
	}
	static const char *const bk[] = {"compute_s", "memory_s",
					 "communication_s", "input_s"};
	static const char *const mk[] = {"weights_bytes", "gradients_bytes",
		"optimizer_bytes", "activations_bytes", "kv_cache_bytes",
		"workspace_bytes"};
	static const char *const rk[] = {"low", "high"};
	static const char *const gk[] = {"fraction", "low", "high"};
	read_parts(rd, "breakdown", path, bk, opt->breakdown, 4);
	if (training)
		read_parts(rd, "goodput", path, gk, opt->goodput, 3);
	read_parts(rd, "cost_range", path, rk, opt->cost_range, 2);
	opt->range_measured = rd_bool(rd, r, "range_measured", path, false);
	opt->range_level = rd_number(rd, r, "range_level", path, true, 0);
	read_parts(rd, "memory", path, mk, opt->memory_parts, 6);
	read_reasons(rd, path, opt);
	opt->slices = rd_count(rd, r, "slices", path, true, 0);
	opt->mig_profile = rd_string(rd, r, "mig_profile", path, true, NAME);
}

/* The op classes in the plan's order, the first six kept; each value
 * checked. */
static void read_classes(struct reader *rd, const char *path,
			 struct r_workload *rw)
{
	size_t at, key_at, value_at;
	struct jiter it;
	char outer[96], p[400];
	if (!rd_container(rd, &rd->workload, "op_classes", path, J_OBJECT, false, &at))
		return;
	snprintf(outer, sizeof(outer), "%s.op_classes", path);
	if (!rd_record_read(rd, &rd->sub, at, outer))	/* duplicates */
		return;
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, &key_at, &value_at)) {
		const char *name = rd_key_name(rd, key_at, outer, p, sizeof(p));
		if (!rd_record_read(rd, &rd->leaf, value_at, p))
			return;
		struct r_class k;
		k.name = name;
		k.flops = rd_number(rd, &rd->leaf, "flops_per_sample", p, false, 0);
		k.weight_bytes = rd_number(rd, &rd->leaf, "weight_bytes", p, false, 0);
		k.act_bytes = rd_number(rd, &rd->leaf, "activation_bytes_per_sample",
					p, false, 0);
		if (rw->n_classes < 6)
			rw->classes[rw->n_classes++] = k;
	}
}

static void read_options(struct reader *rd, size_t at, const char *path,
			 struct r_workload *rw)
{
	struct jiter it;
	size_t el, cap = 0, curves_cap = 0;
	char p[128];
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, NULL, &el)) {
		snprintf(p, sizeof(p), "%s.options[%zu]", path, rw->n);
		xgrow((void **)&rw->v, &cap, rw->n + 1, sizeof(*rw->v));
		memset(&rw->v[rw->n], 0, sizeof(*rw->v));
		read_option(rd, el, p, rw->training, &rw->v[rw->n]);
		if (!rw->training)	/* a service's: rd->option still holds it */
			r_read_load_curve(rd, p, rw, rw->n, &curves_cap);
		rw->n++;
	}
}

/* A {low, median, high} range of the sample device into out; zeros when
 * absent or null. */
static void read_range(struct reader *rd, const char *key, const char *path,
		       double out[3])
{
	static const char *const keys[] = {"low", "median", "high"};
	size_t at;
	char p[192];
	for (int k = 0; k < 3; k++)
		out[k] = 0;
	if (!rd_container(rd, &rd->sub, key, path, J_OBJECT, true, &at))
		return;
	snprintf(p, sizeof(p), "%s.%s", path, key);
	if (!rd_record_read(rd, &rd->leaf, at, p))
		return;
	for (int k = 0; k < 3; k++)
		out[k] = rd_number(rd, &rd->leaf, keys[k], p, false, 0);
}

/* The workload on the measured device (plan --profile), when there. */
static void read_sample(struct reader *rd, const char *path,
			struct r_workload *rw)
{
	size_t at;
	char p[192];
	if (!rd_container(rd, &rd->workload, "sample_device", path, J_OBJECT,
			   true, &at))
		return;
	snprintf(p, sizeof(p), "%s.sample_device", path);
	if (!rd_record_read(rd, &rd->sub, at, p))
		return;
	rw->sample_device = rd_string(rd, &rd->sub, "device", p, false, TEXT);
	rw->sample_measured = rd_string(rd, &rd->sub, "measured", p, false, NAME);
	rw->sample_batch = rd_count(rd, &rd->sub, "batch", p, true, 0);
	read_range(rd, "forward_s", p, rw->sample_forward);
	read_range(rd, "step_s", p, rw->sample_step);
	read_range(rd, "run_s", p, rw->sample_run);
	read_range(rd, "requests_per_s", p, rw->sample_rate);
}

/* Nothing feasible: the closest option and what to relax, when the plan
 * says (plans written before "shortfall" existed do not). */
static void read_shortfall(struct reader *rd, const char *path,
			   struct r_workload *rw)
{
	size_t at;
	char p[192];
	rw->closest = rw->meets_deadline = -1;
	if (!rd_container(rd, &rd->workload, "shortfall", path, J_OBJECT,
			   true, &at))
		return;
	snprintf(p, sizeof(p), "%s.shortfall", path);
	if (!rd_record_read(rd, &rd->sub, at, p))
		return;
	rw->has_shortfall = true;
	rw->closest = rd_index(rd, &rd->sub, "closest", p, rw->n);
	rw->meets_deadline = rd_index(rd, &rd->sub, "meets_deadline", p, rw->n);
	rw->deadline_over_s = rd_number(rd, &rd->sub, "deadline_over_s", p, true, 0);
	rw->budget_over = rd_number(rd, &rd->sub, "budget_over", p, true, 0);
	rw->meets_deadline_over = rd_number(rd, &rd->sub,
					    "meets_deadline_budget_over", p, true, 0);
	rw->target_over_s = rd_number(rd, &rd->sub, "target_over_s", p, true, 0);
	rw->target = rd_string(rd, &rd->sub, "target", p, true, NAME);
}

static void read_workload(struct reader *rd, size_t at, size_t index,
			  struct r_workload *rw)
{
	struct record *r = &rd->workload;
	size_t opts;
	char path[64];
	snprintf(path, sizeof(path), "workloads[%zu]", index);
	rw->recommended = rw->runner_up = rw->obvious = -1;
	if (!rd_record_read(rd, r, at, path))
		return;
	rw->name = rd_string(rd, r, "name", path, false, NAME);
	rw->kind = rd_string(rd, r, "kind", path, false, NAME);
	if (!rd->failed && strcmp(rw->kind, "training") && strcmp(rw->kind, "inference"))
		rd_fail_at(rd, rd_field(r, "kind")->at,
			   "%s.kind: expected \"training\" or \"inference\", found \"%s\"",
			   path, rw->kind);
	rw->model = rd_string(rd, r, "model", path, false, NAME);
	rw->precision = rd_string(rd, r, "precision", path, false, NAME);
	rw->why = rd_string(rd, r, "recommendation", path, false, TEXT);
	rw->training = strcmp(rw->kind, "training") == 0;
	rw->saving = rd_number(rd, r, "saving", path, true, -R_NUMBER_MAX);
	rw->deadline_s = rd_number(rd, r, "deadline_s", path, true, 0);
	rw->budget = rd_number(rd, r, "budget", path, true, 0);
	for (int t = 0; t < TARGET_COUNT; t++)
		rw->target_s[t] = rd_number(rd, r, target_name((enum latency_target)t)->json,
					    path, true, 0);
	rw->request_rate = rd_number(rd, r, "request_rate_per_s", path, true, 0);
	read_sample(rd, path, rw);
	if (!rd_container(rd, r, "options", path, J_ARRAY, false, &opts))
		return;
	read_options(rd, opts, path, rw);
	/* to size: the array doubled as it grew */
	rw->v = xrealloc(rw->v, (rw->n + 1) * sizeof(*rw->v));
	/* the options' reads reused the other records, never this one */
	rw->recommended = rd_index(rd, r, "recommended", path, rw->n);
	rw->runner_up = rd_index(rd, r, "runner_up", path, rw->n);
	rw->obvious = rd_index(rd, r, "obvious_alternative", path, rw->n);
	rw->spot_acceptable = rd_bool(rd, r, "spot_acceptable", path, false);
	rw->prompt_tokens = rd_count(rd, r, "prompt_tokens", path, true, 0);
	const char *phase = rd_string(rd, r, "dominant_phase", path, true, NAME);
	rw->decode_dominates = phase && !strcmp(phase, "decode") && rw->prompt_tokens > 0;
	read_shortfall(rd, path, rw);
	read_classes(rd, path, rw);
}

void r_read_workloads(struct reader *rd, struct r_plan *p)
{
	size_t at, el, cap = 0;
	struct jiter it;
	if (!rd_container(rd, &rd->root, "workloads", "", J_ARRAY, false, &at))
		return;
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, NULL, &el)) {
		xgrow((void **)&p->w, &cap, p->n + 1, sizeof(*p->w));
		memset(&p->w[p->n], 0, sizeof(*p->w));
		read_workload(rd, el, p->n, &p->w[p->n]);
		p->n++;
	}
	if (!rd->failed && p->n == 0)
		rd_fail_at(rd, at, "workloads: expected a list of at least one workload, found an empty list");
}

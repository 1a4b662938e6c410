/*
 * plan_prom.c - a plan's recommendations as Prometheus text; see
 * plan_prom.h.
 */
#include "plan/plan_prom.h"

#include <stdlib.h>
#include <string.h>

#include "core/prom_text.h"
#include "core/xalloc.h"

enum fig {
	F_OPTIONS, F_FEASIBLE,
	F_TIME, F_STEP, F_MFU,
	F_COST, F_COST_PER_M,
	F_GPUS, F_INSTANCES, F_GPU_TIME, F_MEMORY, F_CAPACITY, F_ENERGY,
	F_RATE, F_P99, F_BATCH_LATENCY, F_REPLICAS, F_BATCH,
	F_TTFT, F_TPOT, F_TOKENS,
	N_FIGS
};

/* Which labels a family's samples carry. */
enum scope {
	S_WORKLOAD,	/* workload alone: the counts */
	S_OPTION,	/* the recommended option's labels */
	S_PERIOD,	/* and currency and period: a cost */
	S_MONEY,	/* and currency: a cost per unit of work */
};

static const struct {
	const char *name;
	enum scope scope;
	const char *help;
} fams[N_FIGS] = {
	[F_OPTIONS] = {"gpuplan_plan_options", S_WORKLOAD,
		"options the plan weighed for the workload, feasible or not"},
	[F_FEASIBLE] = {"gpuplan_plan_feasible_options", S_WORKLOAD,
		"options that fit memory and meet the deadline, budget and latency targets"},
	[F_TIME] = {"gpuplan_plan_time_seconds", S_OPTION,
		"recommended option: wall-clock time of the whole training run"},
	[F_STEP] = {"gpuplan_plan_step_seconds", S_OPTION,
		"recommended option: one optimizer step"},
	[F_MFU] = {"gpuplan_plan_mfu_ratio", S_OPTION,
		"recommended option: model FLOPs over time x GPUs x datasheet peak"},
	[F_COST] = {"gpuplan_plan_cost", S_PERIOD,
		"recommended option: on-demand cost of the run (training) or of a month (serving)"},
	[F_COST_PER_M] = {"gpuplan_plan_cost_per_million_requests", S_MONEY,
		"recommended option: cost of a million requests served"},
	[F_GPUS] = {"gpuplan_plan_gpus", S_OPTION,
		"recommended option: GPUs in use (or MIG slices)"},
	[F_INSTANCES] = {"gpuplan_plan_instances", S_OPTION,
		"recommended option: instances rented"},
	[F_GPU_TIME] = {"gpuplan_plan_gpu_time_seconds", S_OPTION,
		"recommended option: GPU-seconds of the run (training) or of a month (serving)"},
	[F_MEMORY] = {"gpuplan_plan_memory_per_gpu_bytes", S_OPTION,
		"recommended option: memory each GPU needs"},
	[F_CAPACITY] = {"gpuplan_plan_memory_capacity_bytes", S_OPTION,
		"recommended option: memory each GPU (or slice) has"},
	[F_ENERGY] = {"gpuplan_plan_energy_joules", S_OPTION,
		"recommended option: GPUs x TDP x time, of the run (training) or of a month (serving)"},
	[F_RATE] = {"gpuplan_plan_requests_per_second", S_OPTION,
		"serving: the request rate the recommended option is sized for"},
	[F_P99] = {"gpuplan_plan_p99_latency_seconds", S_OPTION,
		"serving: p99 latency of a request (queueing, batching and service)"},
	[F_BATCH_LATENCY] = {"gpuplan_plan_batch_latency_seconds", S_OPTION,
		"serving: one batch through the model"},
	[F_REPLICAS] = {"gpuplan_plan_replicas", S_OPTION,
		"serving: model copies serving in parallel"},
	[F_BATCH] = {"gpuplan_plan_batch_requests", S_OPTION,
		"serving: requests per batch on one replica"},
	[F_TTFT] = {"gpuplan_plan_ttft_p99_seconds", S_OPTION,
		"token serving: p99 time to the first token"},
	[F_TPOT] = {"gpuplan_plan_tpot_p99_seconds", S_OPTION,
		"token serving: p99 time per output token"},
	[F_TOKENS] = {"gpuplan_plan_gpu_output_tokens_per_second", S_OPTION,
		"token serving: output tokens a second per GPU"},
};

struct plan_prom_row {
	const char *workload, *kind, *instance, *provider, *region,
		*accelerator, *precision;	/* not owned */
	bool has[N_FIGS];
	double v[N_FIGS];
};

void plan_prom_init(struct plan_prom *pp, const char *currency)
{
	memset(pp, 0, sizeof(*pp));
	snprintf(pp->currency, sizeof(pp->currency), "%s", currency);
}

void plan_prom_free(struct plan_prom *pp)
{
	free(pp->v);
	memset(pp, 0, sizeof(*pp));
}

static void set(struct plan_prom_row *row, enum fig f, double v)
{
	row->has[f] = true;
	row->v[f] = v;
}

static void add_training(struct plan_prom_row *row, const struct plan_option *o)
{
	set(row, F_TIME, o->time_s);
	set(row, F_STEP, o->step_s);
	set(row, F_MFU, o->mfu);
}

static void add_serving(struct plan_prom_row *row, const struct workload *w,
			const struct plan_option *o)
{
	set(row, F_RATE, w->infer.request_rate);
	set(row, F_P99, o->p99_latency_s);
	set(row, F_BATCH_LATENCY, o->batch_latency_s);
	set(row, F_REPLICAS, (double)o->replicas);
	set(row, F_BATCH, (double)o->batch);
	set(row, F_COST_PER_M, o->cost_per_million);
	if (o->has_llm) {
		set(row, F_TTFT, o->llm.ttft_p99);
		set(row, F_TPOT, o->llm.tpot_p99);
		set(row, F_TOKENS, o->llm.tokens_per_s_per_gpu);
	}
}

void plan_prom_add(struct plan_prom *pp, const struct plan_result *r)
{
	if (pp->n == pp->cap) {
		pp->cap = pp->cap ? 2 * pp->cap : 8;
		pp->v = xrealloc(pp->v, pp->cap * sizeof(*pp->v));
	}
	struct plan_prom_row *row = &pp->v[pp->n++];
	memset(row, 0, sizeof(*row));
	row->workload = r->w->name;
	row->kind = workload_kind_name(r->w->kind);
	size_t feasible = 0;
	for (size_t i = 0; i < r->n; i++)
		feasible += r->v[i].feasible;
	set(row, F_OPTIONS, (double)r->n);
	set(row, F_FEASIBLE, (double)feasible);
	if (r->recommended < 0)
		return;
	const struct plan_option *o = &r->v[r->recommended];
	row->instance = o->inst->name;
	row->provider = o->inst->provider;
	row->region = o->inst->region;
	row->accelerator = o->inst->acc->name;
	row->precision = precision_name(o->precision_used);
	set(row, F_COST, o->cost);
	set(row, F_GPUS, (double)o->gpus);
	set(row, F_INSTANCES, (double)o->nodes);
	set(row, F_GPU_TIME, o->gpu_hours * 3600);
	set(row, F_MEMORY, o->memory_per_gpu);
	set(row, F_CAPACITY, o->memory_capacity);
	set(row, F_ENERGY, o->energy_kwh * 3.6e6);
	if (r->w->kind == WORKLOAD_TRAINING)
		add_training(row, o);
	else
		add_serving(row, r->w, o);
}

static void sample(FILE *f, const struct plan_prom *pp,
		   const struct plan_prom_row *row, enum fig fig)
{
	enum scope s = fams[fig].scope;
	bool training = !strcmp(row->kind, workload_kind_name(WORKLOAD_TRAINING));
	struct prom_label l[] = {
		{"workload", row->workload},
		{"kind", s == S_WORKLOAD ? NULL : row->kind},
		{"instance_type", row->instance},
		{"provider", row->provider},
		{"region", row->region},
		{"accelerator", row->accelerator},
		{"precision", row->precision},
		{"currency", s >= S_PERIOD ? pp->currency : NULL},
		{"period", s != S_PERIOD ? NULL : training ? "run" : "month"},
	};
	prom_sample(f, fams[fig].name, l, s == S_WORKLOAD ? 1 : 9, row->v[fig]);
}

void plan_prom_emit(const struct plan_prom *pp, FILE *f)
{
	for (int fig = 0; fig < N_FIGS; fig++) {
		bool any = false;
		for (size_t i = 0; i < pp->n; i++)
			any |= pp->v[i].has[fig];
		if (!any)
			continue;
		char help[200];
		snprintf(help, sizeof(help), "gpuplan plan: %s", fams[fig].help);
		prom_family(f, fams[fig].name, "gauge", help);
		for (size_t i = 0; i < pp->n; i++)
			if (pp->v[i].has[fig])
				sample(f, pp, &pp->v[i], (enum fig)fig);
	}
}

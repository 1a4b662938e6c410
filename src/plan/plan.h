/*
 * plan.h - every workload against every instance: what each option takes
 * (time, memory, money) and which one to rent.
 *
 * For each workload the planner builds options (an instance type, how many,
 * and how the work is split over them), estimates each with the roofline in
 * roofline.h, marks what is infeasible and why, and then chooses
 * (choose.c): the Pareto front of time against cost, the cheapest option
 * that meets the deadline, the fastest within budget, and a recommendation
 * with the sentence that justifies it.
 *
 * Every figure names where it came from: datasheet peaks and bandwidths
 * from the catalog, efficiencies from efficiency.h (documented assumptions
 * with their sources), prices from the catalog with their date, exchange
 * rates from the dated rates file.
 *
 * Ownership: a struct plan owns its results and options; it points at (and
 * does not own) the catalog and the workload file, which must outlive it.
 */
#ifndef GPUPLAN_PLAN_PLAN_H
#define GPUPLAN_PLAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog/catalog.h"
#include "efficiency.h"
#include "workload/workload.h"

#define PLAN_MAX_REASONS 6
#define PLAN_REASON_LEN 240
#define PLAN_MAX_NODES 512	/* largest cluster considered: 4096 8-GPU nodes is
				 * past any deadline's need for the shipped jobs */

struct plan_settings {
	char currency[4];	/* every cost is converted to this ("USD") */
	bool spot;		/* --spot: rank by spot price where the workload allows */
	long top;		/* options per workload in the table view */
	struct efficiency eff;	/* defaults, see efficiency.h */
};

/* Seconds per training step (or per inference batch), split by what
 * bounds them; the parts add up to the step time. */
struct time_breakdown {
	double compute;		/* compute-bound op time */
	double memory;		/* memory-bound op time */
	double communication;	/* exposed (not overlapped) communication */
	double input;		/* data loading beyond what compute hides */
};

struct plan_option {
	const struct instance *inst;
	long nodes;			/* instances rented */
	long gpus;			/* GPUs in use (nodes x GPUs each, or MIG slices) */
	/* training */
	long dp, tp, pp;
	int zero;
	long micro_batch, accumulation;	/* per GPU; micro-steps per step */
	double step_s;			/* one optimizer step */
	double time_s;			/* the whole run, wall clock */
	double mfu;			/* model FLOPs / (time x GPUs x peak) */
	/* inference */
	long batch;			/* requests per batch on one replica */
	long replicas;			/* model copies serving in parallel */
	char sharing[24];		/* "" whole GPUs, or a MIG profile "1g.10gb" */
	double batch_latency_s;		/* one batch through the model */
	double p99_latency_s;		/* queueing + batching + service */
	double cost_per_million;	/* per million requests, plan currency */
	/* both */
	bool feasible;
	char reasons[PLAN_MAX_REASONS][PLAN_REASON_LEN];
	int n_reasons;			/* why infeasible; also notes on feasible ones */
	struct time_breakdown per_step;
	double gpu_hours;		/* training: whole run; inference: a month */
	double cost;			/* on demand, plan currency: run or month */
	bool has_spot;
	double cost_spot;		/* spot, plan currency, preemption included */
	double energy_kwh;		/* GPUs x TDP x hours */
	double memory_per_gpu;		/* bytes needed */
	double memory_capacity;		/* bytes the GPU (or slice) has */
	bool pareto;			/* on the time/cost (latency/cost) front */
	enum precision precision_used;	/* the peak used (bf16 may run as fp16) */
};

struct plan_result {
	const struct workload *w;
	struct plan_option *v;
	size_t n, cap;
	long recommended;		/* index into v, -1: nothing feasible */
	long runner_up;			/* -1: none */
	long cheapest_in_deadline;	/* -1: none */
	long fastest_in_budget;		/* -1: none */
	char why[800];			/* the recommendation, in one or two sentences */
};

struct plan {
	const struct catalog *catalog;
	const struct workload_file *workloads;
	struct plan_settings settings;
	struct plan_result *results;	/* one per workload, in file order */
	size_t n;
};

void plan_settings_default(struct plan_settings *s);

/*
 * Plans every workload against every instance of the catalog.  Returns 0,
 * or -1 with a reason (an exchange rate missing for the plan currency).
 */
int plan_run(struct plan *p, const struct catalog *c,
	     const struct workload_file *wf, const struct plan_settings *s,
	     char *why, size_t whylen);
void plan_free(struct plan *p);

/* Appends a zeroed option to r and returns it. */
struct plan_option *plan_result_add(struct plan_result *r);

/* Records a reason on o (infeasible ones say why; feasible ones may carry
 * notes such as "runs as fp16: T4 has no bf16"). */
void plan_option_reason(struct plan_option *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The estimators: every sensible option of one workload on one instance
 * type, appended to r.  Prices are converted to s->currency through c. */
void plan_training(const struct catalog *c, const struct instance *in,
		   const struct workload *w, const struct model_graph *g,
		   const struct plan_settings *s, struct plan_result *r);
void plan_inference(const struct catalog *c, const struct instance *in,
		    const struct workload *w, const struct plan_settings *s,
		    struct plan_result *r);

/* Pareto front, the cheapest within the deadline, the fastest within the
 * budget and the recommendation (choose.c). */
void plan_choose(struct plan_result *r, const struct plan_settings *s);

#endif

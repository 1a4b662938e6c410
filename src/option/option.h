/*
 * option.h - what one option is and what the estimators found for it: an
 * instance type, how many, how the work is split over them, its time,
 * memory and money, and why it cannot run (coded reasons, worded by
 * reason.h); and the result that holds one workload's options, which the
 * planner then chooses from (plan/choose.h).
 *
 * The estimators (train/, serve/) append options to a result and the
 * planner (plan/) ranks them and fills in the choice: the types live here,
 * below both, so that neither reaches up for them.
 *
 * Ownership: a struct plan_result owns its options, its reasons and their
 * text pool, its layouts, its splits and its `why` (plan_result_free());
 * it points at (and does not own) its workload, and each option at its
 * instance in the catalog, which must outlive the result.
 */
#ifndef GPUPLAN_OPTION_OPTION_H
#define GPUPLAN_OPTION_OPTION_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog/catalog.h"
#include "hwmodel/sample_device.h"
#include "model/memory.h"
#include "workload/workload.h"

#define PLAN_MAX_REASONS 4
#define PLAN_MAX_NODES 512	/* largest cluster considered: 4096 8-GPU nodes is
				 * past any deadline's need for the shipped jobs */

/* Seconds per training step (or per inference batch), split by what
 * bounds them; the parts add up to the step time. */
struct time_breakdown {
	double compute;		/* compute-bound op time */
	double memory;		/* memory-bound op time */
	double communication;	/* exposed (not overlapped) communication */
	double input;		/* data loading beyond what compute hides */
};

/*
 * Why an option is infeasible, or a note on a feasible one.  Kept as a
 * code with its figures and formatted only when printed: a large plan
 * holds millions of options, and most are never shown.
 */
enum reason_code {
	REASON_TEXT,		/* free text, kept in the result's text pool */
	REASON_MEMORY,		/* a: bytes needed, b: bytes per GPU, n1: tp, n2: pp */
	REASON_DEADLINE,	/* a: run time s, b: deadline s */
	REASON_BUDGET,		/* a: cost, b: budget, currency[0]: the plan's */
	REASON_ILLUSTRATIVE,	/* the price is not from a published source */
	REASON_PRECISION,	/* p_used runs for p_wanted on s1 (accelerator);
				 * n1: 1 when s1 lacks p_wanted in hardware,
				 * 0 when the catalog has no sourced peak */
	REASON_STARVE,		/* a: input s per step, b: compute s, c: idle share */
	REASON_NO_RATE,		/* currency[0] -> currency[1]: no rate */
	/* inference (serve.c) */
	REASON_SERVE_MEMORY,	/* a: B per GPU at batch 1, b: B the GPU has,
				 * n1: tp, s1: accelerator */
	REASON_SERVE_SLOW,	/* a: S(1) s, b: p99 target s, n1: tp,
				 * s1: accelerator, s2: MIG profile or NULL */
	REASON_SERVE_RATE,	/* n1: instances at most, a: requests/s */
	REASON_SERVE_P99,	/* n1: instances at most, a: p99 target s */
	REASON_MIG_ISOLATED,	/* MIG slices assumed free of interference */
	REASON_SERVE_ON_DEMAND,	/* --spot: serving stays on demand */
	REASON_OUT_OF_RANGE,	/* s1: the first figure that was not a finite,
				 * non-negative number (a static name); see
				 * plan.c, check_figures() */
	REASON_LLM_TARGET,	/* s1: the target ("TTFT p99"), a: what is
				 * reached, b: the target, s; n1: 1 when even
				 * an idle replica misses it, else n2: the
				 * instances at most */
	REASON_GOODPUT,		/* training makes no progress: a: the
				 * cluster's MTBF s, b: checkpoint write s,
				 * c: restart s, n1: GPUs (train/goodput.h) */
};

/*
 * Lifetimes: a reason is read long after the estimator that made it has
 * returned (the table, CSV and JSON are written from the finished result),
 * so it points at nothing that does not outlive the result: s1 and s2 at
 * static strings or at the catalog's (accelerator names, MIG profiles),
 * which outlives every plan made from it (struct plan); currency codes,
 * which come from the settings of one workload's planning, are copied in.
 */
struct plan_reason {
	enum reason_code code;
	double a, b, c;
	long n1, n2;
	int p_used, p_wanted;	/* enum precision */
	const char *s1, *s2;	/* static or catalog-owned strings, or NULL */
	char currency[2][4];	/* ISO codes, NUL-terminated; "" unused */
	size_t text;		/* REASON_TEXT: offset in the result's pool */
	long next;		/* the option's next reason; -1: the last */
};

struct plan_result;

struct plan_option {
	struct plan_result *owner;	/* set by plan_result_add */
	const struct instance *inst;
	long nodes;			/* instances rented */
	long gpus;			/* physical GPUs in use (never MIG slices) */
	long slices;			/* MIG slices in use; 0: whole GPUs */
	long slices_per_gpu;		/* the MIG profile's slices per GPU; 0: whole */
	/* training */
	long dp, tp, pp;
	int zero;			/* the stage used (chosen when zero: auto) */
	enum recompute recompute;	/* the one used */
	long interleave;		/* virtual stages per GPU; 1: plain 1F1B */
	bool sequence_parallel;
	long micro_batch, accumulation;	/* per GPU; micro-steps per step */
	double step_s;			/* one optimizer step */
	double time_s;			/* the whole run, wall clock: the steps
					 * over the goodput */
	/* the share of the wall clock that trains, at the goodput inputs'
	 * values and at their ranges' pessimistic and optimistic ends (1:
	 * `goodput: none`); the checkpoint interval used and the cluster's
	 * mean time between failures, s (0 when not modelled) */
	double goodput, goodput_low, goodput_high;
	double checkpoint_interval_s, mtbf_s;
	double mfu;			/* model FLOPs / (time x GPUs x peak) */
	/* inference */
	long batch;			/* requests per batch on one replica */
	long replicas;			/* model copies serving in parallel */
	char sharing[24];		/* "" whole GPUs, or a MIG profile "1g.10gb" */
	double batch_latency_s;		/* one batch through the model */
	double p99_latency_s;		/* queueing + batching + service */
	double cost_per_million;	/* per million requests, plan currency */
	/* token-generating services, sized by continuous batching
	 * (serve_llm.h); has_llm is false for batch-level services */
	bool has_llm;
	struct {
		double ttft_p50, ttft_p99;	/* s */
		double tpot_p50, tpot_p99;	/* s */
		double e2e_p50, e2e_p99_lo, e2e_p99_hi;	/* s */
		double tokens_per_s_per_gpu;	/* output tokens */
		long max_seqs, token_budget;	/* the engine's limits */
		long peak_concurrency;		/* sequences live, most */
		double kv_tokens, kv_peak;	/* cache capacity; most in use */
		/* of the GPUs' busy time, the share prompts take (cbatch.h);
		 * -1 when nothing was simulated (the request alone) */
		double prefill_share;
	} llm;
	/* both */
	bool runnable;			/* fits memory and has a price: it could run */
	bool feasible;			/* runnable and meets deadline, budget, p99 */
	int n_reasons;			/* why infeasible; also notes on feasible ones */
	long first_reason;		/* index in owner->reasons; see plan_option_reason_at() */
	struct time_breakdown per_step;
	double gpu_hours;		/* training: whole run, wall clock (what
					 * is paid); inference: a month */
	double gpu_hours_compute;	/* training: the productive share of it */
	double cost;			/* on demand, plan currency: run or month */
	bool has_spot;
	double cost_spot;		/* spot, plan currency, preemption included */
	double energy_kwh;		/* GPUs x TDP x hours */
	double memory_per_gpu;		/* bytes needed */
	double memory_capacity;		/* bytes the GPU (or slice) has */
	double memory_parts[MEM_PARTS];	/* memory_per_gpu by enum memory_part */
	bool pareto;			/* on the time/cost (latency/cost) front */
	/* with a calibration carried to the catalog (calibrate.h): the
	 * range the measured fractions' 95% intervals give the run time
	 * (training) or the batch latency (serving), and the cost */
	bool has_range;
	bool range_measured;		/* from a calibration, not only the
					 * stated ranges of the assumptions */
	double range_level;		/* the probability the range is for */
	double time_low_s, time_high_s;
	double cost_low, cost_high;
	/* training: the step's range at the settings' range_level, s
	 * (valid when has_range; the backtest compares step-based
	 * measurements with it) */
	double step_low_s, step_high_s;
	enum precision precision_used;	/* the peak used (bf16 may run as fp16) */
};

/*
 * A layout the search weighed for the recommended option: the best of each
 * tensor x pipeline x interleaving split (its micro-batch, ZeRO stage and
 * recomputation chosen), so a reader sees what else was possible and why
 * it lost (plan_layout_why()).
 */
struct plan_layout {
	long tp, pp, dp, micro_batch, interleave;
	int zero;
	enum recompute recompute;
	bool sequence_parallel;
	bool fits;
	double memory_per_gpu;		/* bytes */
	double step_s;			/* valid when fits */
	/* the step by mechanism, s: they add up to step_s */
	double compute, bubble, tp_comm, pp_comm, dp_comm, optimizer, input;
};

/*
 * A split of an LLM replica (tensor parallel x pipeline stages) the search
 * weighed on the recommended option's instance (serve.c), so a reader sees
 * what else was possible and why it lost (plan_split_why()).
 */
struct plan_split {
	long tp, pp;
	bool fits;		/* the weights and one request's cache fit */
	bool ok;		/* meets every target */
	long replicas, instances;	/* valid when fits */
	long max_seqs;		/* live sequences per engine */
	double p99, ttft_p99, tpot_p99;	/* s, valid when fits */
	double memory_per_gpu;	/* bytes at the busiest moment */
};

/*
 * A chosen service's latency against load: the same deployment (replicas,
 * engine limits) simulated at multiples of the workload's request rate,
 * for the report's latency-against-load chart (serve.c).
 */
#define LOAD_FACTORS 9		/* 0.25x .. 4x the workload's rate */
struct load_point {
	double rate;			/* requests per second, whole service */
	bool saturated;			/* the queue grows without bound */
	double e2e_p50, e2e_p99;	/* s (not saturated) */
	double ttft_p99, tpot_p99;	/* s; token services only */
};
struct load_curve {
	long option;			/* index into the result's options */
	size_t n;
	struct load_point p[LOAD_FACTORS];
};

/*
 * Nothing feasible: the option that comes closest and what to relax
 * (choose.c says how "closest" is measured).  closest -1: nothing can run
 * at all (out of memory everywhere, or unpriced).
 */
struct plan_shortfall {
	long closest;		/* index into the options; -1: none runnable */
	double violation;	/* the measure the closest minimises */
	double time_over_s;	/* training: past the deadline, s; 0: meets it */
	double cost_over;	/* over the budget, plan currency; 0: within */
	long in_deadline;	/* the cheapest option meeting the deadline
				 * (over the budget), -1: none */
	double in_deadline_over;	/* its cost over the budget */
	int target;		/* serving: the target missed most (enum
				 * latency_target), -1: none */
	double target_over_s;	/* by how much, s */
	bool larger;		/* a larger instance (more GPU memory) is what
				 * it takes: nothing fits */
};

struct plan_result {
	const struct workload *w;
	double budget;			/* the workload's budget in the plan
					 * currency; 0: none */
	struct plan_option *v;
	size_t n, cap;
	long recommended;		/* index into v, -1: nothing feasible */
	long runner_up;			/* -1: none */
	long cheapest_in_deadline;	/* -1: none */
	long fastest_in_budget;		/* -1: none */
	long obvious;			/* what a team would rent without a plan: the
					 * cheapest feasible option on the fastest
					 * accelerator (see choose.c); -1: none */
	double saving;			/* (obvious - recommended) / obvious cost */
	/* The model's work per sample by op class, for rooflines:
	 * intensity at batch b = flops b / (weight_bytes + act_bytes b). */
	struct {
		double flops, weight_bytes, act_bytes;
	} classes[OPC_COUNT];
	/* training: the layouts weighed for the recommended option, the
	 * chosen first, then by step time (fitting ones before the rest) */
	struct plan_layout *layouts;
	size_t n_layouts;
	/* inference: the recommended option's and the runner-up's */
	struct load_curve curves[2];
	size_t n_curves;
	/* inference, token services: the splits weighed for the recommended
	 * option, the chosen first, then by instances and p99 */
	struct plan_split *splits;
	size_t n_splits;
	/* with --profile: the workload on the measured device itself
	 * (present false with sample_why when it could not be estimated) */
	struct sample_estimate sample;
	char sample_why[300];
	struct plan_shortfall shortfall;	/* valid when recommended < 0 */
	char *why;			/* the recommendation, in one or two
					 * sentences (owned; NULL until chosen) */
	char *text;			/* pool for REASON_TEXT */
	size_t text_len, text_cap;
	/* Reasons live here, not in the options: most options have none, and
	 * a large plan holds millions of options. */
	struct plan_reason *reasons;
	size_t n_reasons, cap_reasons;
};

/* Appends a zeroed option to r and returns it. */
struct plan_option *plan_result_add(struct plan_result *r);
void plan_result_free(struct plan_result *r);
/*
 * Empties r for the next workload but keeps the room of its options,
 * reasons and text: a plan of 10,000 instances fills some 20 MB of options
 * per workload, and freeing them (glibc unmaps blocks that large) made
 * every workload fault its pages in afresh, a third of a large plan's time.
 */
void plan_result_reset(struct plan_result *r);

/* Records a free-text reason on o (infeasible ones say why; feasible ones
 * may carry notes).  Prefer plan_option_code() where a code fits. */
void plan_option_reason(struct plan_option *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Records a coded reason (formatted only when printed: reason.h). */
void plan_option_code(struct plan_option *o, const struct plan_reason *r);
/* Reason i (0 <= i < o->n_reasons) of o.  Inline: every figure check of
 * every option walks its reasons. */
static inline const struct plan_reason *
plan_option_reason_at(const struct plan_option *o, int i)
{
	const struct plan_reason *r = &o->owner->reasons[o->first_reason];
	while (i-- > 0)
		r = &o->owner->reasons[r->next];
	return r;
}

/*
 * A token-generating option's month over its month of tokens, per
 * million, in the plan currency: the cost split between input and output
 * by the share of the GPUs' busy time prompts take (llm.prefill_share),
 * and over every token in and out.  False (and nothing set) for other
 * options and when nothing was simulated.
 */
bool plan_token_costs(const struct plan_option *o, double *per_m_input,
		      double *per_m_output, double *per_m_all);

#endif

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
#include "calibrate.h"
#include "efficiency.h"
#include "model/memory.h"
#include "sample_device.h"
#include "workload/workload.h"
#include "catalog/instance_key.h"

#define PLAN_MAX_REASONS 4
#define PLAN_REASON_LEN 1400	/* longest reason, formatted: room for two
				 * names of YR_NAME_MAX bytes and their words */
#define PLAN_MAX_NODES 512	/* largest cluster considered: 4096 8-GPU nodes is
				 * past any deadline's need for the shipped jobs */

struct plan_settings {
	char currency[4];	/* every cost is converted to this ("USD") */
	bool spot;		/* --spot: rank by spot price where the workload allows */
	long top;		/* options per workload in the table view */
	struct efficiency eff;	/* defaults, see efficiency.h */
	/* --instance: plan only these instance types (names as given,
	 * compared case-blind); n_only 0: every instance.  Checked against
	 * the catalog first (plan_check_instances()).  Not owned. */
	const char *const *only;
	size_t n_only;
	/* --region, --provider: plan only instances these keep
	 * (instance_key.h); empty lists keep all.  Not owned. */
	struct instance_filter where;
	/* --profile: the calibration and what it carried to the catalog
	 * (calibrate.h); NULL: none.  Not owned. */
	const struct carried *carried;
};

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

/* The reason's first and second words as plan_reason_format() and the
 * JSON's "s1"/"s2" give them: a name, a currency code, or NULL. */
const char *plan_reason_s1(const struct plan_reason *r);
const char *plan_reason_s2(const struct plan_reason *r);
/* Copies a currency code into r->currency[i]. */
void plan_reason_currency(struct plan_reason *r, int i, const char *code);

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
	double time_s;			/* the whole run, wall clock */
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
	double gpu_hours;		/* training: whole run; inference: a month */
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
	double time_low_s, time_high_s;
	double cost_low, cost_high;
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

/* Why l lost to `chosen` (the first of the list), as a sentence
 * fragment; "chosen" for the chosen one. */
void plan_layout_why(const struct plan_layout *l, const struct plan_layout *chosen,
		     double capacity, char *buf, size_t len);

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

/* Why s lost to `chosen` (the first of the list), as a sentence fragment;
 * "chosen" for the chosen one. */
void plan_split_why(const struct plan_split *s, const struct plan_split *chosen,
		    char *buf, size_t len);

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

struct prep_cache;

struct plan {
	struct prep_cache *preps;	/* prep_cache.h, during a run */
	const struct catalog *catalog;
	const struct workload_file *workloads;
	struct plan_settings settings;
	struct plan_result *results;	/* one per workload, in file order */
	size_t n;
};

void plan_settings_default(struct plan_settings *s);

/* The settings for one workload: its own efficiencies (`efficiency:`),
 * if it gives them, replace base's (a team that has measured its
 * kernels). */
struct plan_settings plan_settings_for(const struct plan_settings *base,
				       const struct workload *w);

/*
 * Every instance name the planning will filter by, against catalog c:
 * each of `only` (--instance; an unknown one is a problem without a file,
 * with a did-you-mean) and each training workload's `instance:` (reported
 * at its instance_at, with a did-you-mean; one that `only` leaves out is a
 * problem too: nothing would be planned for it).  Returns the number of
 * problems added to errs.
 */
int plan_check_instances(const struct catalog *c,
			 const struct workload_file *wf,
			 const char *const *only, size_t n_only,
			 struct gp_errors *errs);

/* Whether in is planned for w under s: within s->only, and w's own
 * `instance:` when it names one (both case-blind). */
bool plan_instance_wanted(const struct plan_settings *s,
			  const struct workload *w, const struct instance *in);

/*
 * Plans every workload against every instance of the catalog.  Returns 0,
 * or -1 with a reason (an exchange rate missing for the plan currency).
 */
int plan_run(struct plan *p, const struct catalog *c,
	     const struct workload_file *wf, const struct plan_settings *s,
	     char *why, size_t whylen);
void plan_free(struct plan *p);
void plan_result_free(struct plan_result *r);

/*
 * The same, handing each workload's result to emit as soon as it is
 * chosen and freeing it afterwards, so a plan of thousands of instances
 * and hundreds of workloads holds one workload's options at a time.
 * emit returns 0 to go on.  p->results stays empty.
 */
int plan_run_each(struct plan *p, const struct catalog *c,
		  const struct workload_file *wf, const struct plan_settings *s,
		  int (*emit)(void *ctx, const struct plan *p,
			      const struct plan_result *r),
		  void *ctx, char *why, size_t whylen);

/* Appends a zeroed option to r and returns it. */
struct plan_option *plan_result_add(struct plan_result *r);

/*
 * A token-generating option's month over its month of tokens, per
 * million, in the plan currency: the cost split between input and output
 * by the share of the GPUs' busy time prompts take (llm.prefill_share),
 * and over every token in and out.  False (and nothing set) for other
 * options and when nothing was simulated.
 */
bool plan_token_costs(const struct plan_option *o, double *per_m_input,
		      double *per_m_output, double *per_m_all);

/* Records a free-text reason on o (infeasible ones say why; feasible ones
 * may carry notes).  Prefer plan_option_code() where a code fits. */
void plan_option_reason(struct plan_option *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Records a coded reason (formatted only when printed). */
void plan_option_code(struct plan_option *o, const struct plan_reason *r);
/* Reason i (0 <= i < o->n_reasons) of o. */
const struct plan_reason *plan_option_reason_at(const struct plan_option *o,
						int i);
/* "deadline", "memory", ...: the code's stable name in JSON. */
const char *plan_reason_code_name(enum reason_code c);
/* Reason i of o as a sentence fragment, lowercase, no full stop. */
void plan_reason_format(const struct plan_option *o, int i, char *buf,
			size_t len);

/*
 * The training estimator: every sensible option of one workload on one
 * instance type, appended to r.  Prices are converted to s->currency
 * through c.  What does not depend on the instance (the built model, its
 * memory accounting, roofline results per accelerator) is prepared once
 * per workload.
 */
struct train_prep;
struct train_prep *train_prepare(const struct catalog *c,
				 const struct workload *w,
				 struct gp_errors *errs);
void train_prep_free(struct train_prep *p);
/* Points p at w, a workload with the same step as the one p was made for
 * (prep_cache.c says which fields): its run length, deadline, budget and
 * limits are w's from now on. */
void train_prep_rebind(struct train_prep *p, const struct workload *w);
const struct model_graph *train_prep_graph(const struct train_prep *p);
/* FLOPs of one forward pass of one sample (the graph's sum). */
double train_prep_forward_flops(const struct train_prep *p);
/*
 * The estimate on exactly `nodes` instances like `in` (the backtest's
 * question, and a workload that fixes its cluster): the workload's layout
 * where it fixes one, the fastest layout that fits otherwise.  Appends one
 * option to r and returns it (infeasible, with its reasons, when nothing
 * fits), or NULL with a reason in why when no layout can use that many
 * GPUs (more data-parallel ranks than samples, a fixed layout that does
 * not divide the GPUs).
 */
struct plan_option *plan_training_at(struct train_prep *p,
				     const struct instance *in, long nodes,
				     const struct plan_settings *s,
				     struct plan_result *r, char *why,
				     size_t whylen);
void plan_training(struct train_prep *p, const struct instance *in,
		   const struct plan_settings *s, struct plan_result *r);
/* Fills r->layouts for r's recommended option (nothing when there is
 * none). */
void plan_training_layouts(struct train_prep *p, const struct plan_settings *s,
			   struct plan_result *r);
/* The inference estimator is in serve.h (plan_inference()). */

/* Pareto front, the cheapest within the deadline, the fastest within the
 * budget and the recommendation (choose.c). */
void plan_choose(struct plan_result *r, const struct plan_settings *s);

/*
 * The spot rule, the one place it is decided (choose.c): spot prices are
 * acceptable for a training workload when --spot is given or the workload
 * says `spot: true`; serving always runs on demand (a reclaimed instance
 * drops requests mid-flight).  When acceptable, the front, the
 * recommendation, the runner-up, the budget check and the savings all
 * compare spot prices (an option without one at its on-demand price).
 */
bool plan_spot_acceptable(const struct plan_settings *s, const struct workload *w);
/* The cost o is compared by under that rule, plan currency. */
double plan_compared_cost(const struct plan_settings *s, const struct workload *w,
			  const struct plan_option *o);
/* Why a user cannot act on o: "owned machine" (a team owns a given
 * number; nothing to rent), "illustrative price" (nobody published it);
 * NULL for a rental at a sourced price. */
const char *plan_option_not_actionable(const struct plan_option *o);

/* "8 x H200-SXM", or with MIG "8 x H200-SXM as 15 x 3g.71gb": the GPUs
 * an option uses, physical GPUs first. */
void plan_gpus_text(const struct plan_option *o, char *buf, size_t len);

/* Wording shared by the sentences, the table and the report. */
/* GPU-hours with three significant digits below 100 ("0.46"), whole
 * above ("39928"); never "0" for a non-zero figure. */
const char *plan_gpu_hours_text(double h, char *buf, size_t len);
/* Bytes in decimal GB, three significant digits ("83.9 GB"): the unit
 * family every need-against-capacity comparison uses, since the catalog
 * states GPU memory in GB as the datasheets do. */
const char *plan_gb_text(double bytes, char *buf, size_t len);
/* How `slow`'s time compares with `fast`'s, one rule: from 2x as
 * "4.95x the time", below it "38% slower" or "3% faster", and from twice
 * as fast as "22.2x as fast". */
const char *plan_slower_text(double slow, double fast, char *buf, size_t len);

#endif

/*
 * report_data.h - a plan (gpuplan/plan/v1 JSON) as the report needs it.
 *
 * A loaded plan (plan_load.h) holds what the report draws in the compact
 * structs below, names interned (plan_strings.h, one copy each), and
 * nothing of the JSON text, so it costs a fraction of its file.  This
 * module owns those structs: their limits, their lookups and their
 * freeing.
 *
 * What a plan may hold (every value outside is refused at load, with its
 * file:line:column and JSON path):
 *   - the file at most PLAN_MAX_BYTES, valid JSON (RFC 8259: UTF-8, no
 *     NUL, numbers a double holds), nesting at most JSON_MAX_DEPTH deep;
 *   - every number finite, within +-R_NUMBER_MAX; costs, times, bytes,
 *     FLOPs, bandwidths and peaks not negative (subnormals are numbers:
 *     the charts draw them);
 *   - counts (GPUs, nodes, replicas, batches, a reason's n1 and n2) whole,
 *     0 to R_COUNT_MAX; option indexes whole and below the option count;
 *   - names (workloads, models, instances, accelerators, op classes, the
 *     currency...) at most R_NAME_MAX bytes on one line, and no text with
 *     control characters (term_safe.h); noncharacters are drawn as U+FFFD;
 *   - no key twice in an object, no name twice in a map, at most
 *     R_RECORD_MAX_KEYS keys in an object the report reads, and at most
 *     R_SOURCES_MAX instances and as many accelerators in "sources";
 *   - a service option's "load_curve" (optional: the planner draws one
 *     for the recommendation and the runner-up) holds whole replicas from
 *     1 and 1 to R_CURVE_MAX_POINTS points, their request rates strictly
 *     increasing; a point that is not saturated has its end-to-end
 *     latencies (TTFT and TPOT may be null: a service that makes no
 *     tokens), a saturated one has none (null or left out).
 * Ownership: struct r_plan owns everything it points to; free with
 * r_plan_free().
 */
#ifndef GPUPLAN_REPORT_REPORT_DATA_H
#define GPUPLAN_REPORT_REPORT_DATA_H

#include <stdbool.h>
#include <stddef.h>

#include "core/precision.h"
#include "i18n.h"
#include "workload/workload.h"	/* enum latency_target: the plan's targets */

/*
 * Reading a plan costs its text plus what is copied out of it: 1.2 to 1.8
 * times the file at the peak of a whole report for plans gpuplan writes
 * (10,000 to 100,000 options), at most about 4 times for the costliest
 * shapes found (a bare option per 200 bytes, each naming a different
 * instance and accelerator), where the JSON tree read before took 5 to 8
 * times for real plans and 73 times for a file of empty objects
 * (tests/perf/report-memory.sh).  256 MiB holds a 100,000-option plan as
 * `plan -o` writes it (228 MB) and keeps a report run within about 1 GiB.
 */
#define PLAN_MAX_BYTES ((size_t)256 << 20)
#define R_NUMBER_MAX 1e100	/* far past any figure a plan can hold */
#define R_COUNT_MAX 1000000000L
#define R_NAME_MAX 256		/* bytes, as YR_NAME_MAX for YAML names */
#define R_RECORD_MAX_KEYS 1024	/* keys of one object the report reads */
#define R_SOURCES_MAX 100000	/* instances, and accelerators, in sources */
#define R_CURVE_MAX_POINTS 64	/* points of one load curve */

struct r_option {
	const char *instance, *provider, *accelerator, *sharing;
	long gpus, nodes, dp, tp, micro, replicas, batch;
	bool feasible, pareto, has_spot;
	bool owned;			/* an on-premises machine, not a rental */
	bool illustrative;		/* its price has no published source */
	bool runnable;			/* fits and has a price (feasible or not) */
	double time_s, p99_s, cost, cost_spot, gpu_hours, mfu;
	/* training: the productive share of gpu_hours (wall clock), and the
	 * goodput between them: fraction, low, high; 0s in a plan made
	 * before goodput was modelled */
	double gpu_hours_compute, goodput[3];
	double memory, capacity, memory_parts[6];
	double breakdown[4];		/* compute, memory, communication, input s */
	double cost_range[2];		/* low, high; 0: none */
	bool range_measured;		/* cost_range from a measurement, not
					 * the assumptions' stated ranges */
	double range_level;		/* the probability cost_range is for */
	struct plan_reason_figures reason;	/* the first of reason_codes */
	int n_reasons;			/* how many reason_codes there are */
	/* MIG: slices in use apart from the physical GPUs (gpus); 0 and
	 * NULL for whole GPUs and for plans written before they existed */
	long slices;
	const char *mig_profile;
};

/* One request rate of a load curve.  Latencies in s; NAN where the plan
 * has null: every latency of a saturated point, and TTFT and TPOT of a
 * service that makes no tokens. */
struct r_load_point {
	double rate;			/* requests/s offered to the curve's replicas */
	double e2e_p50, e2e_p99, ttft_p99, tpot_p99;
	bool saturated;			/* the queue grows without bound */
};

/* An option's latency against load (its "load_curve"): a side table of
 * the workload, as only the recommendation and the runner-up carry one,
 * so an option costs no more for it. */
struct r_load_curve {
	long option;			/* index in the workload's options */
	long replicas;			/* the replicas the rates are offered to */
	struct r_load_point *pt;	/* rates strictly increasing */
	size_t n;			/* 1 to R_CURVE_MAX_POINTS */
};

struct r_class {
	const char *name;
	double flops, weight_bytes, act_bytes;	/* per sample */
};

struct r_workload {
	const char *name, *kind, *model, *precision, *why;
	bool training;
	struct r_option *v;
	size_t n;
	long recommended, runner_up, obvious;
	double saving;
	double deadline_s, budget;	/* 0: none */
	/* a service's targets, s, by enum latency_target (the plan's
	 * "p99_target_s", "ttft_p99_target_s", ...); 0: none */
	double target_s[TARGET_COUNT];
	double request_rate;		/* requests/s; 0: none (training) */
	struct r_class classes[6];
	size_t n_classes;
	struct r_load_curve *curves;	/* in option order */
	size_t n_curves;
	/* with a calibration: the workload on the measured device
	 * ("sample_device"); ranges low, median, high, all 0 when absent */
	const char *sample_device, *sample_measured;	/* NULL: none */
	long sample_batch;
	double sample_forward[3], sample_step[3], sample_run[3], sample_rate[3];
	/* nothing feasible: the plan's "shortfall" (option/option.h's struct
	 * plan_shortfall); closest -1 when absent or nothing runs */
	bool has_shortfall;
	long closest, meets_deadline;
	double deadline_over_s, budget_over, meets_deadline_over, target_over_s;
	const char *target;		/* the JSON key of the target; NULL */
	bool spot_acceptable;		/* compared on spot prices */
	/* token services: the prompt's length, and whether decode takes
	 * most of the recommended service's GPU time (its roofline then
	 * shows decode steps, not the prompt's forward pass) */
	long prompt_tokens;
	bool decode_dominates;
};

/* A catalog entry's first source; each field "" when absent. */
struct r_source {
	const char *title, *url, *retrieved;
};

struct r_accelerator {
	const char *name, *defined_at;
	double bandwidth;		/* B/s; 0: not given */
	double peaks[PREC_COUNT];	/* op/s per precision; 0: not given */
	struct r_source source;
};

struct r_instance {
	const char *name, *defined_at;
	const char *price_as_of;	/* NULL: not given */
	bool owned, illustrative;
	struct r_source source;
};

struct r_assumption {
	const char *key, *from;
	double value;
	bool has_value;			/* "value" was a number */
};

struct r_strings;

struct r_plan {
	const char *currency;
	bool has_rates;			/* the plan converted currencies */
	const char *rates_base, *rates_as_of;	/* "" when absent */
	/* "generated": the day the plan was made and by which gpuplan
	 * ("gpuplan 0.1.0"); "" when absent (an older plan) */
	const char *generated_date, *generated_tool;
	struct r_source rates_source;
	struct r_assumption *assumptions;	/* in the plan's order */
	size_t n_assumptions;
	struct r_accelerator *acc;	/* sorted by name (strcmp) */
	size_t n_acc;
	struct r_instance *inst;	/* sorted by name (strcmp) */
	size_t n_inst;
	struct r_workload *w;
	size_t n;
	struct r_strings *strings;	/* every string above */
};

/* Frees everything p holds, and zeroes p. */
void r_plan_free(struct r_plan *p);

/* The accelerator's datasheet figures from the plan's sources; NULL when
 * the plan has none of that name. */
const struct r_accelerator *r_plan_accelerator(const struct r_plan *p,
					       const char *name);
/* The instance's entry in the plan's sources; NULL when absent. */
const struct r_instance *r_plan_instance(const struct r_plan *p,
					 const char *name);
/* How many of the plan's accelerators sort before name: a stable colour
 * index per accelerator. */
size_t r_plan_accelerator_rank(const struct r_plan *p, const char *name);
/* The load curve of option `option` of w; NULL when it has none. */
const struct r_load_curve *r_workload_curve(const struct r_workload *w,
					    long option);
/* An assumption's value, dflt when the plan does not state it. */
double r_plan_assumption(const struct r_plan *p, const char *key, double dflt);

/* The earliest and latest price dates among the plan's instances (for
 * footnotes): "?" when the plan carries none. */
void r_plan_price_dates(const struct r_plan *p, const char **earliest,
			const char **latest);

/* Orders r_instance (r_accelerator) entries by name, strcmp's order:
 * the plan's sources are sorted with these, and searched. */
int by_instance_name(const void *a, const void *b);
int by_accelerator_name(const void *a, const void *b);

#endif

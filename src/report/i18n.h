/*
 * i18n.h - every word a report prints, in English and in Chinese.
 *
 * Labels are looked up by id; sentences (the recommendation, the reasons)
 * are composed from the plan's figures in the report's language rather
 * than translated from the planner's English text.
 */
#ifndef GPUPLAN_REPORT_I18N_H
#define GPUPLAN_REPORT_I18N_H

#include <stddef.h>

#include "text.h"

enum msg {
	MSG_TITLE,		/* default report title */
	MSG_SUMMARY,		/* first page heading */
	MSG_SUMMARY_INTRO,
	MSG_TRAINING, MSG_INFERENCE,
	MSG_RECOMMENDATION, MSG_TIME, MSG_COST, MSG_COST_MONTH, MSG_SAVING, MSG_OBVIOUS_SAME,
	MSG_NO_OPTION,
	MSG_OPTIONS, MSG_CONTINUED,
	MSG_COL_INSTANCE, MSG_COL_GPUS, MSG_COL_TIME, MSG_COL_P99,
	MSG_COL_COST, MSG_COL_SPOT, MSG_COL_GPU_HOURS, MSG_COL_MEMORY,
	MSG_COL_STATUS, MSG_COL_REPLICAS, MSG_COL_PER_MILLION,
	MSG_OK,
	MSG_CHART_TIME_COST, MSG_CHART_LATENCY_COST, MSG_CHART_COST, MSG_CHART_BREAKDOWN,
	MSG_CHART_MEMORY, MSG_CHART_SCALING, MSG_CHART_ROOFLINE, MSG_CHART_LOAD,
	MSG_AXIS_TIME, MSG_AXIS_P99, MSG_AXIS_COST, MSG_AXIS_COST_MONTH,
	MSG_AXIS_SECONDS, MSG_AXIS_MEMORY, MSG_AXIS_GPUS, MSG_AXIS_EFFICIENCY,
	MSG_AXIS_RATE,
	MSG_E2E_P99, MSG_TTFT_P99, MSG_TPOT_P99,
	MSG_TARGET,		/* "%s target %s": a target's name, its value */
	MSG_PLANNED_LOAD,	/* "%s/s": the workload's request rate */
	MSG_SATURATED,		/* "%s/s": where a curve saturates */
	MSG_REPLICAS_N,		/* "%ld replicas" */
	MSG_RUNNER_UP,
	MSG_SAMPLE_DEVICE,	/* "On the measured device %s (%s)" */
	MSG_SAMPLE_FORWARD,	/* "forward pass of %ld" */
	MSG_SAMPLE_STEP, MSG_SAMPLE_RUN, MSG_SAMPLE_RATE,
	MSG_RANGE,		/* "%s (%s to %s)": median, low, high */
	MSG_MEASURED_RANGE,	/* the error bars' legend */
	MSG_ON_DEMAND, MSG_SPOT, MSG_FEASIBLE, MSG_INFEASIBLE, MSG_PARETO,
	MSG_DEADLINE, MSG_OWNED, MSG_PERFORMANCE, MSG_INTENSITY, MSG_PEAK, MSG_RIDGE, MSG_PRICE_AS_OF, MSG_BUDGET, MSG_CAPACITY, MSG_RECOMMENDED,
	MSG_COMPUTE, MSG_MEMORY_BOUND, MSG_COMMUNICATION, MSG_INPUT,
	MSG_WEIGHTS, MSG_GRADIENTS, MSG_OPTIMIZER, MSG_ACTIVATIONS, MSG_KV_CACHE,
	MSG_WORKSPACE,
	MSG_APPENDIX, MSG_ASSUMPTIONS, MSG_SOURCES, MSG_EXCHANGE_RATE,
	MSG_FOOTNOTE,		/* %s catalog dates */
	MSG_PAGE,		/* "page %d" */
	MSG_ILLUSTRATIVE_PRICE,	/* a scatter series: "H100-SXM (illustrative price)" */
	MSG_PREFILL, MSG_DECODE,	/* a serving roofline's phase */
	/* the first page (page15) */
	MSG_FP_MADE,		/* %s date, %s tool */
	MSG_FP_NOT_RECORDED,
	MSG_FP_ONE_OFF, MSG_FP_MONTHLY,	/* %s amount, %s low, %s high, %zu count */
	MSG_FP_RANGE_MEASURED, MSG_FP_RANGE_STATED,	/* %.0f%% */
	MSG_FP_RANGE_ASSUMED,	/* %.0f%% %.0f%% */
	MSG_FP_CHART_TRAIN, MSG_FP_CHART_SERVE,
	MSG_FP_RECOMMENDED, MSG_FP_OBVIOUS,
	MSG_FP_INPUTS, MSG_FP_PRICES, MSG_FP_ASSUMED, MSG_FP_NO_ILLUSTRATIVE,
	MSG_FP_LIMITS, MSG_FP_LIMIT_SIZE, MSG_FP_LIMIT_H100, MSG_FP_LIMIT_CPU,
	MSG_FP_GPU_HOURS,	/* %s wall clock, %s compute, %.1f goodput % */
	MSG_GOODPUT_LINE,	/* %s wall, %s compute, %s goodput (%s to %s) */
	MSG_COL_GPU_HOURS_SPLIT,	/* training tables: wall / compute */
	MSG_COUNT
};

const char *tr(enum report_lang lang, enum msg id);

/* Drops a character that snprintf cut in the middle (a long Chinese name
 * in a fixed buffer), so cairo never sees broken UTF-8. */
void tr_trim_utf8(char *s);

/* What a plan assumption means: the plan's own English sentence, or its
 * Chinese counterpart (the plan's sentence when the key is unknown). */
const char *tr_assumption(enum report_lang lang, const char *key,
			  const char *english);

/* An op class of the plan ("gemm", "attention", ...) in the language;
 * English keeps the plan's own names. */
const char *tr_op_class(enum report_lang lang, const char *name);

/* "41.7 min" / "41.7 分钟"; "3.2 d" / "3.2 天". */
char *tr_duration(enum report_lang lang, double seconds, char *buf, size_t len);

/* The unit tr_duration would use for `seconds` (the largest that keeps at
 * least 2 of it): its length in seconds, its name in *name.  Charts scale
 * a time axis by it so that ticks fall on 1-2-5 steps of that unit. */
double tr_time_unit(enum report_lang lang, double seconds, const char **name);

/* "1,234 USD" (grouped; two decimals under 100). */
char *tr_money(double amount, const char *currency, char *buf, size_t len);

/* A coded reason (plan JSON "reason_codes" entry) in the language. */
struct plan_reason_figures {
	const char *code, *s1, *s2, *used, *wanted;
	double a, b, c;
	long n1, n2;
};
char *tr_reason(enum report_lang lang, const struct plan_reason_figures *r,
		const char *currency, char *buf, size_t len);

#endif

/*
 * workload.c - the names of the workload types: the kinds ("training",
 * "inference") and the latency targets, each as a workload file, a
 * sentence and a plan name it.
 */
#include "workload.h"

/* ---- names ---- */

static const char *const kind_names[] = {"training", "inference"};

const char *workload_kind_name(enum workload_kind k)
{
	return kind_names[k];
}

static const struct target_name target_names[TARGET_COUNT] = {
	[TARGET_P99] = {"p99_latency", "p99", "p99_target_s", false},
	[TARGET_TTFT_P99] = {"ttft_p99", "TTFT p99", "ttft_p99_target_s", false},
	[TARGET_TPOT_P99] = {"tpot_p99", "TPOT p99", "tpot_p99_target_s", true},
	[TARGET_TTFT_P50] = {"ttft_p50", "TTFT p50", "ttft_p50_target_s", false},
	[TARGET_TPOT_P50] = {"tpot_p50", "TPOT p50", "tpot_p50_target_s", true},
};

const struct target_name *target_name(enum latency_target t)
{
	return &target_names[t];
}

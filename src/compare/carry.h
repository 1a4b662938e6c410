/*
 * carry.h - a measured change carried into a plan's money and time:
 * "this saves 31% of the job's time, 4,200 CNY at the recommended option".
 *
 * The factor on the job's time is the ratio of a compared metric
 * (compare_runs.h): after/before for a time (lower is better), its
 * inverse for a throughput (higher is better), with the ratio's 95%
 * interval carried the same way.  The recommended option of one workload
 * of the plan gets time x factor and cost x factor.  Assumptions, stated
 * in the result: the measured command is a faithful part of the planned
 * job, so its whole time scales alike; a training run's cost is its time
 * at the option's price; a service's monthly cost scales with the GPU time
 * each request takes (whole replicas make the real change come in steps).
 *
 * Ownership: the caller decrefs the returned json_t.
 */
#ifndef GPUPLAN_COMPARE_CARRY_H
#define GPUPLAN_COMPARE_CARRY_H

#include <jansson.h>

#include "report/report_data.h"

/*
 * The carry of metric `metric` of the runs comparison cmp into workload
 * `workload` of plan (NULL: the plan's only workload, or its first with
 * a recommendation).  Returns the JSON, or NULL with why (no such
 * workload or metric, no recommendation, no ratio).
 */
json_t *carry_into_plan(const json_t *cmp, const char *metric,
			const struct r_plan *plan, const char *plan_file,
			const char *workload, char *why, size_t len);

#endif

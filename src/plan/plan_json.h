/*
 * plan_json.h - a plan as JSON (schema gpuplan/plan/v1): what the report
 * stage reads.  Every option of every workload, feasible or not, with its
 * reasons, time, cost, memory, breakdown, Pareto flag and the provenance of
 * its figures; per workload the recommendation and the sentence behind it.
 * Ownership: returns new references.
 */
#ifndef GPUPLAN_PLAN_PLAN_JSON_H
#define GPUPLAN_PLAN_PLAN_JSON_H

#include <jansson.h>

#include "plan.h"

/* The document without its workloads (an empty "workloads" array). */
json_t *plan_header_json(const struct plan *p);
json_t *plan_result_json(const struct plan *p, const struct plan_result *r);

#endif

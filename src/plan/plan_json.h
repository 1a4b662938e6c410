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

#include "plan/plan.h"

/* The document without its workloads (an empty "workloads" array). */
json_t *plan_header_json(const struct plan *p);
/* One workload's result, with every option under "options" (its last
 * member). */
json_t *plan_result_json(const struct plan *p, const struct plan_result *r);
/* The same without "options", and option i alone: for writing a large
 * result an option at a time (core/output.h, json_stream). */
json_t *plan_result_head_json(const struct plan *p, const struct plan_result *r);
json_t *plan_option_json(const struct plan *p, const struct plan_result *r,
			 size_t i);

#endif

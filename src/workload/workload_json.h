/*
 * workload_json.h - workloads as JSON, the form `gpuplan workload list
 * --format json` prints and a plan carries.
 *
 * Ownership: each function returns a new reference the caller releases
 * with json_decref().
 */
#ifndef GPUPLAN_WORKLOAD_WORKLOAD_JSON_H
#define GPUPLAN_WORKLOAD_WORKLOAD_JSON_H

#include <jansson.h>

#include "workload.h"

/* A layout's degrees (null where left to the planner) and flags (null
 * when unset).  A new reference. */
json_t *workload_layout_json(const struct train_layout *l);

/* A service's trace as JSON (file, requests, columns, own rate, the
 * factor its gaps are stretched by), or null without one. */
json_t *workload_trace_json(const struct inference *in);

/* Every field, SI units named in the keys (deadline_s, p99_latency_s,
 * request_rate_per_s, ...); absent optional fields are null.  A new
 * reference. */
json_t *workload_to_json(const struct workload *w);

#endif

/*
 * plan_curves.h - a service option's "load_curve": its latency against
 * the request rate offered to its replicas, which the planner draws for
 * the recommendation and the runner-up (report_data.h's struct
 * r_load_curve; its header says what a curve may hold).
 *
 * Ownership: a curve and its points are the workload's (r_plan_free
 * frees them); nothing is added after a failure.
 */
#ifndef GPUPLAN_REPORT_PLAN_CURVES_H
#define GPUPLAN_REPORT_PLAN_CURVES_H

#include <stddef.h>

#include "plan_reader.h"
#include "report_data.h"

/* The "load_curve" of option `index` when it has one (rd->option holds
 * the option, just read), appended to rw's curves once every point is
 * read; cap is the curves' allocation. */
void r_read_load_curve(struct reader *rd, const char *path,
		       struct r_workload *rw, size_t index, size_t *cap);

#endif

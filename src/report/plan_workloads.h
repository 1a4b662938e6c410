/*
 * plan_workloads.h - a plan JSON's "workloads": each workload's figures
 * (its limits and targets, the recommended option and the runner-up, the
 * measured device, the shortfall when nothing is feasible, its op
 * classes) and its options, a service's with their load curves
 * (plan_curves.h).
 *
 * Ownership: the workloads, their options and curves are the plan's
 * (r_plan_free frees them); strings are interned in its table.
 */
#ifndef GPUPLAN_REPORT_PLAN_WORKLOADS_H
#define GPUPLAN_REPORT_PLAN_WORKLOADS_H

#include "plan_reader.h"
#include "report_data.h"

/* The root's "workloads" into p->w and p->n: a list of at least one, read
 * with rd->workload, rd->option, rd->sub and rd->leaf. */
void r_read_workloads(struct reader *rd, struct r_plan *p);

#endif

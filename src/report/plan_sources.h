/*
 * plan_sources.h - the parts of a plan JSON that hold for all its
 * workloads: "sources" (the catalog's instances and accelerators, each
 * with its first source), "assumptions", "exchange_rates" and "generated".
 *
 * Each is optional (plans written before it lack it) and read from the
 * root record, rd->root, as plan_reader.h reads: what the plan omits is
 * left "" or empty.
 * Ownership: the arrays are the plan's (r_plan_free frees them); strings
 * are interned in its table.
 */
#ifndef GPUPLAN_REPORT_PLAN_SOURCES_H
#define GPUPLAN_REPORT_PLAN_SOURCES_H

#include "plan_reader.h"
#include "report_data.h"

/* "sources": p->inst and p->acc, each sorted by name (by_instance_name,
 * by_accelerator_name), a name twice refused.  It borrows rd->workload,
 * so it comes before r_read_workloads (plan_workloads.h). */
void r_read_plan_sources(struct reader *rd, struct r_plan *p);
/* "assumptions": p->assumptions in the plan's order. */
void r_read_assumptions(struct reader *rd, struct r_plan *p);
/* "exchange_rates": p->has_rates, its base, date and source. */
void r_read_rates(struct reader *rd, struct r_plan *p);
/* "generated": the plan's date and the gpuplan that made it. */
void r_read_generated(struct reader *rd, struct r_plan *p);

#endif

/*
 * plan_prom.h - a plan's recommendations in the Prometheus text exposition
 * format (core/prom_text.h), for the node exporter's textfile collector:
 * `gpuplan plan --prom FILE`.
 *
 * Cardinality stays at one series per workload and figure: every workload
 * gives its count of options and of feasible ones (label workload), and
 * the recommended option, when there is one, its figures with the labels
 * workload, kind, instance_type, provider, region, accelerator and
 * precision (the precision the option runs at).  The cloud instance is
 * `instance_type`, not `instance`: Prometheus sets `instance` to the
 * scrape target and would rename ours to exported_instance.  Money has no base unit, so costs
 * carry a `currency` label, and `period` says what a cost covers ("run"
 * for training, "month" for serving).  GPU time is in GPU-seconds and
 * energy in joules: Prometheus' base units, not the table's hours and kWh.
 *
 *   gpuplan_plan_cost{workload="llama-7b-pretrain",kind="training",
 *       instance_type="p5.48xlarge",...,currency="USD",period="run"} 1.23e+05
 *
 * The plan is made a workload at a time and each result freed after it is
 * emitted (plan_run_each), while the format wants each family's samples
 * together: plan_prom_add() keeps the few figures of one result, and
 * plan_prom_emit() writes them family by family at the end.
 *
 * Ownership: a struct plan_prom owns its rows; the rows point at the
 * workload file's and the catalog's strings, which must outlive it.
 */
#ifndef GPUPLAN_PLAN_PLAN_PROM_H
#define GPUPLAN_PLAN_PLAN_PROM_H

#include <stddef.h>
#include <stdio.h>

#include "plan/plan.h"

struct plan_prom_row;

struct plan_prom {
	struct plan_prom_row *v;
	size_t n, cap;
	char currency[4];	/* the plan's */
};

void plan_prom_init(struct plan_prom *pp, const char *currency);
void plan_prom_free(struct plan_prom *pp);

/* Keeps what the text needs of r (its recommendation and counts). */
void plan_prom_add(struct plan_prom *pp, const struct plan_result *r);

/* Every family, in a fixed order; rows in the order they were added.
 * cmd_plan.c delivers the text with output_finish (atomically). */
void plan_prom_emit(const struct plan_prom *pp, FILE *f);

#endif

/*
 * report_data.h - a plan (gpuplan/plan/v1 JSON) as the report needs it.
 *
 * The loader checks every field it uses and says where a bad one is, by
 * its JSON path ("plan.json: workloads[2].options[5].cost: expected a
 * number"): the report never draws from a half-read plan.
 * Ownership: struct r_plan holds a reference to the JSON document, and
 * every string in it points into that document; free with r_plan_free().
 */
#ifndef GPUPLAN_REPORT_REPORT_DATA_H
#define GPUPLAN_REPORT_REPORT_DATA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "i18n.h"

#define R_MAX_REASONS 4

struct r_option {
	const char *instance, *provider, *accelerator, *sharing;
	long gpus, nodes, dp, tp, micro, replicas, batch;
	bool feasible, pareto, has_spot;
	bool owned;			/* an on-premises machine, not a rental */
	bool illustrative;		/* its price has no published source */
	bool runnable;			/* fits and has a price (feasible or not) */
	double time_s, p99_s, cost, cost_spot, gpu_hours, mfu;
	double memory, capacity, memory_parts[6];
	double breakdown[4];		/* compute, memory, communication, input s */
	struct plan_reason_figures reasons[R_MAX_REASONS];
	int n_reasons;
};

struct r_class {
	const char *name;
	double flops, weight_bytes, act_bytes;	/* per sample */
};

struct r_workload {
	const char *name, *kind, *model, *precision, *why;
	bool training;
	struct r_option *v;
	size_t n;
	long recommended, runner_up, obvious;
	double saving;
	double deadline_s, budget, p99_target_s;	/* 0: none */
	struct r_class classes[6];
	size_t n_classes;
};

struct r_accelerator {
	const char *name;
	double bandwidth;		/* B/s */
	json_t *peaks;			/* precision -> op/s */
};

struct r_plan {
	json_t *root;
	const char *currency;
	const char *rates_as_of;	/* may be NULL */
	struct r_workload *w;
	size_t n;
	json_t *assumptions, *sources, *rates;
};

/* Reads `path`; 0, or -1 with why. */
int r_plan_load(struct r_plan *p, const char *path, char *why, size_t len);
/* The same from a document in memory (`gpuplan plan --report`); takes a
 * reference to root.  name is used in messages. */
int r_plan_from_json(struct r_plan *p, json_t *root, const char *name,
		     char *why, size_t len);
void r_plan_free(struct r_plan *p);

/* The accelerator's datasheet figures from the plan's sources. */
bool r_plan_accelerator(const struct r_plan *p, const char *name,
			struct r_accelerator *out);

/* The earliest and latest price dates among the plan's instances (for
 * footnotes): "?" when the plan carries none. */
void r_plan_price_dates(const struct r_plan *p, const char **earliest,
			const char **latest);

#endif

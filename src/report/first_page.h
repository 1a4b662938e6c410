/*
 * first_page.h - what the report's first page says about a whole plan:
 * the money its recommendations commit (one-off for training runs, per
 * month for services) with the range the uncertain inputs give, the
 * illustrative inputs they rest on, and the model's limits where a
 * recommendation goes beyond what the planner was checked against.
 * report.c draws it; these only compute, so unit tests can check them.
 * Ownership: nothing is kept; text goes into the caller's buffers.
 */
#ifndef GPUPLAN_REPORT_FIRST_PAGE_H
#define GPUPLAN_REPORT_FIRST_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "report_data.h"
#include "text.h"

/*
 * Where an option carries no range (a service; a plan written before
 * training ranges), the planner's own error stands in for the
 * uncertainty: the backtest gates hold the mean |error| of predicted
 * training figures under 25% and of serving figures under 30% (README,
 * Backtest; tests/validation), so a cost is given as cost x (1 -/+ that).
 * An assumption, and the page says so.  Training options carry the
 * stated ranges of their assumptions (train/train_range.h).
 */
#define FP_TRAIN_SPREAD 0.25
#define FP_SERVE_SPREAD 0.30
/* The largest cluster a backtest record ran on (korthikanti-2022-530b-dp8,
 * 2240 x A100; README's backtest table). */
#define FP_BACKTEST_MAX_GPUS 2240

struct fp_totals {
	double one_off[3];	/* training: low, sum of costs, high */
	double monthly[3];	/* services, per month: low, sum, high */
	size_t n_training, n_services;	/* recommendations counted */
	bool measured;		/* some range came from a measurement */
	bool stated;		/* some from the assumptions' stated ranges */
	double stated_level;	/* their probability */
	bool assumed;		/* some range came from FP_*_SPREAD */
};

/* Sums the recommended options' costs and ranges over p's workloads (a
 * workload without a recommendation adds nothing). */
void fp_totals(const struct r_plan *p, struct fp_totals *t);

/* How the totals' ranges were made, one sentence per kind present
 * (measured, the assumptions' stated ranges, the flat spread), joined in
 * buf; returns how many. */
size_t fp_range_notes(const struct fp_totals *t, enum report_lang lang,
		      char *buf, size_t len);

/* The recommended instances whose price is illustrative (no published
 * source), comma-separated, each once; "" when none.  Returns how many. */
size_t fp_illustrative(const struct r_plan *p, char *buf, size_t len);

/* The plan's assumptions whose source says "assumption", as "key value"
 * comma-separated; returns how many. */
size_t fp_assumed(const struct r_plan *p, char *buf, size_t len);

/* One line on the model's limits for this plan in lang: a cluster beyond
 * the backtest's largest, H100 training (the backtest's known misses), a
 * sample-device figure measured on a CPU; "" when none applies.
 * Returns how many applied. */
size_t fp_limits(const struct r_plan *p, enum report_lang lang, char *buf,
		 size_t len);

/* The recommended training runs' GPU-hours of wall clock and of compute
 * (goodput); false, and nothing summed, when no recommended run records
 * its compute (a plan made before goodput was modelled). */
bool fp_gpu_hours(const struct r_plan *p, double *wall, double *compute);
/* The same as page 1's sentence in lang; false when there is none. */
bool fp_gpu_hours_sentence(const struct r_plan *p, enum report_lang lang,
			   char *buf, size_t len);

#endif

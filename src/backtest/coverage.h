/*
 * coverage.h - whether the planner's ranges hold (`gpuplan backtest
 * --coverage LEVEL`): of the measurements the backtest compared, the
 * share that lies inside the range the planner gave at LEVEL, overall
 * and by stratum, with an exact binomial interval, the ranges' mean
 * relative width, the misses by side, and every source's share and the
 * overall share without it.
 *
 * One observation per record and quantity kind.  A record's step-based
 * measurements (step_time, flops_per_gpu, tokens_per_s, mfu) are one
 * prediction, the step, seen in different units; its whole-run ones
 * (gpu_hours, days) are one prediction, the run's length.  Each kind
 * counts once: the row standing for it is the first with a range in
 * the order step_time, tokens_per_s, flops_per_gpu, mfu (the measures
 * that need no FLOP counting first), and gpu_hours, days; the others
 * are counted as folded.  Serving rows carry no range yet, training rows
 * whose plan has none are counted as without a range, and rows the
 * planner could not predict as not predicted: none of them are
 * observations.
 *
 * A source is a record's first source URL (the publication its figures
 * come from; one outcome file may hold several).
 *
 * Ownership: a struct coverage owns its arrays; its observations point
 * at the backtest's rows and its sources at the records' strings, which
 * must outlive it.
 */
#ifndef GPUPLAN_BACKTEST_COVERAGE_H
#define GPUPLAN_BACKTEST_COVERAGE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "backtest.h"

/* The gate holds a stratum to --coverage-min from this many records on:
 * below it one miss moves the share by more than 20 points. */
#define COVERAGE_GATE_MIN_RECORDS 5
/* The confidence of the interval on each share. */
#define COVERAGE_CONFIDENCE 0.95

enum coverage_kind {
	COVER_STEP,	/* the step: step_time, tokens_per_s, flops_per_gpu, mfu */
	COVER_RUN,	/* the whole run: gpu_hours, days */
	COVER_KINDS
};

/* What the strata are cut by, in the order they are printed. */
enum coverage_dim {
	DIM_GENERATION,	/* the accelerator's architecture (catalog) */
	DIM_PRECISION,	/* the record's training precision */
	DIM_ZERO,	/* the ZeRO stage of the layout predicted */
	DIM_DP,		/* its data-parallel width: 1, 2-63, 64-511, 512+ */
	DIM_KIND,	/* enum coverage_kind */
	DIM_COUNT
};

/* Where a measurement fell against its range, as the run went: slower
 * than the range's slow end (the plan promised too much) or faster than
 * its fast end.  For a step time, GPU-hours or days "slower" is above
 * the range; for tokens/s and MFU it is below. */
enum coverage_side { COVER_INSIDE, COVER_SLOWER, COVER_FASTER };

/* Counts over a set of observations. */
struct coverage_tally {
	size_t n, covered, slower, faster;
	double width_sum;	/* of (high - low) / predicted, compared terms */
};

struct coverage_obs {
	const struct backtest_row *row;	/* the row standing for it */
	enum coverage_kind kind;
	enum coverage_side side;
	double width;			/* (high - low) / predicted */
	size_t group;			/* index in coverage.groups */
	size_t stratum[DIM_COUNT];	/* indices in coverage.strata */
};

struct coverage_stratum {
	enum coverage_dim dim;
	int rank;			/* order within dim (then label) */
	char label[48];			/* "Hopper", "bf16", "2-63", ... */
	struct coverage_tally t;
};

struct coverage_group {
	const char *source;		/* first source URL; not owned */
	struct coverage_tally t;
	/* the overall share with this source left out; NAN when nothing
	 * else is left */
	double share_without;
};

struct coverage {
	double level;			/* the ranges' asked probability */
	struct coverage_obs *obs;
	size_t n_obs;
	/* rows that are no observation, by why */
	size_t rows_serving, rows_no_range, rows_not_predicted, rows_folded;
	struct coverage_tally overall;
	struct coverage_stratum *strata;	/* by dim, rank, label */
	size_t n_strata;
	struct coverage_group *groups;	/* by source */
	size_t n_groups;
	/* the group whose removal gives the lowest overall share; -1 when
	 * no removal leaves anything */
	long loo_worst;
};

/* The coverage of bt's rows, whose ranges were asked at level; free with
 * coverage_free(). */
void coverage_of(struct coverage *cv, const struct backtest *bt,
		 double level);
void coverage_free(struct coverage *cv);

/* covered / n; NAN when n is 0. */
double coverage_share(const struct coverage_tally *t);
/* width_sum / n; NAN when n is 0. */
double coverage_mean_width(const struct coverage_tally *t);

/*
 * The exact (Clopper-Pearson) interval of confidence conf for a share of
 * k successes in n trials: lo = the p at which P(X >= k) = (1 - conf) / 2,
 * hi = the p at which P(X <= k) = (1 - conf) / 2, from the beta quantiles
 * B(a; k, n - k + 1) and B(1 - a; k + 1, n - k); lo 0 when k is 0, hi 1
 * when k is n.  n 0: both NAN.
 */
void coverage_interval(size_t k, size_t n, double conf, double *lo,
		       double *hi);

/* The stratum of row (an observation of kind) along dim: its label into
 * label, its rank within dim returned. */
int coverage_stratum_of(const struct backtest_row *row,
			enum coverage_kind kind, enum coverage_dim dim,
			char *label, size_t len);
/* The kind of measure m; -1 for a serving measure. */
int coverage_kind_of(enum measure m);

const char *coverage_dim_name(enum coverage_dim d);	/* "generation", ... */
const char *coverage_side_name(enum coverage_side s);	/* "inside", ... */

/*
 * The gate: true when the overall share, or that of a stratum of at
 * least COVERAGE_GATE_MIN_RECORDS records, is below min (a fraction), or
 * when there is nothing to check; the reason, one line, into why.
 */
bool coverage_below(const struct coverage *cv, double min, char *why,
		    size_t len);

/* Every figure, keys naming units (fractions as _fraction).  A new
 * reference. */
json_t *coverage_json(const struct coverage *cv);

#endif

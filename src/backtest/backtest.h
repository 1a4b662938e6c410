/*
 * backtest.h - the planner held against recorded runs: each outcome record
 * (outcome.h) is predicted on exactly its hardware (plan_training_at(),
 * with the record's layout where it gives one) and each measurement is
 * compared in its own terms:
 *
 *   step_time      the option's step_s
 *   tokens_per_s   global_batch x seq / step_s
 *   flops_per_gpu  turned into a measured step time with the record's
 *                  counting (backtest_step_flops()), compared with step_s
 *   mfu            the option's mfu
 *   gpu_hours      the option's gpu_hours (the run's tokens or samples)
 *   days           the option's time_s in days
 *
 * gpu_hours and days are wall clock, as published totals are: the steps
 * over the goodput (train/goodput.h), at the record's own goodput inputs
 * where its `training:` states them (`goodput:`, read as a workload's),
 * else the defaults.  The step-based measures compare with the step alone.
 *
 * error = predicted / measured - 1 (in the compared terms), within the
 * record's tolerance when |error| <= tolerance.  Where the planner gives
 * its option a range (option.h: has_range, at the settings' range_level)
 * each training row carries it in the compared terms too
 * (backtest_row_range()); coverage.h asks whether the ranges hold.  A record the planner
 * cannot predict (it does not fit in memory, no layout uses its GPUs, its
 * model does not build) gives error rows: no figure, a reason, and
 * outside tolerance.
 *
 * Ownership: a struct backtest owns its rows; they point at (and do not
 * own) the outcome records, which must outlive it.
 */
#ifndef GPUPLAN_BACKTEST_BACKTEST_H
#define GPUPLAN_BACKTEST_BACKTEST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "outcome.h"
#include "option/reason.h"

/* The planner's choice for a record: its layout and figures. */
struct backtest_plan {
	long tp, pp, dp, micro_batch, interleave;
	bool sequence_parallel;
	int zero;
	enum recompute recompute;
	double step_s;			/* s per optimizer step */
	double time_s;			/* s, the whole run (0: no run length) */
	double gpu_hours;		/* the whole run (0: no run length) */
	double mfu;			/* a fraction */
	/* the option's range at the asked level (option.h); valid when
	 * has_range.  time_* are 0 when the record gives no run length. */
	bool has_range;
	double step_low_s, step_high_s;
	double time_low_s, time_high_s;
	/* serving records: the simulated traffic (serve/cbatch.h), or for a
	 * model batched whole the batcher's (serve/dbatch.h) */
	struct cb_result sim;
	double kv_tokens;		/* the cache one GPU holds */
	long token_budget;		/* the iteration's, as simulated */
	struct dbatch_result batch;
	double batch_s;			/* one full batch through the model */
};

struct backtest_row {
	const struct outcome *o;
	enum measure m;
	double measured;		/* as recorded: SI, or a count */
	bool predicted;			/* false: an error row, see reason */
	char reason[PLAN_REASON_LEN];
	struct backtest_plan plan;	/* valid when predicted */
	/* the comparison, in the compared terms: a step time in s for
	 * flops_per_gpu and step_time, else the measurement's own */
	double measured_cmp, predicted_cmp;
	double predicted_own;		/* the prediction in the measurement's
					 * own terms (flops_per_gpu: FLOP/s
					 * per GPU, counted as recorded) */
	double step_flops;		/* flops_per_gpu: FLOPs per step as
					 * counted; else 0 */
	double error;			/* predicted_cmp / measured_cmp - 1 */
	double tolerance;		/* outcome_tolerance() of this row */
	bool within;			/* |error| <= tolerance */
	/* the prediction's range (backtest_row_range()), valid when
	 * has_range: in the compared terms, and in the measurement's own
	 * (flops_per_gpu: FLOP/s per GPU, whose low end is the slow step) */
	bool has_range;
	double low_cmp, high_cmp;
	double low_own, high_own;
};

struct backtest {
	/* the level the planner's ranges are asked at (a probability, set
	 * before the first backtest_file(); 0 there: the settings' default,
	 * option/settings.h, written back) */
	double range_level;
	struct backtest_row *v;		/* record by record, measures in
					 * enum measure order */
	size_t n, cap;
	size_t n_predicted, n_within, n_failed;	/* failed: error rows */
	double mean_abs_error;		/* over predicted rows (0: none) */
	size_t n_held;			/* predicted rows not marked known_miss */
	double mean_abs_error_held;	/* over those (0: none) */
	double max_abs_error;
	long max_row;			/* the row of max_abs_error; -1: none */
};

/*
 * Predicts every record of f against catalog c (the one f was loaded
 * with) and appends its rows to bt (initialised with memset 0); the
 * summary is brought up to date after each file.
 */
void backtest_file(struct backtest *bt, const struct catalog *c,
		   const struct outcome_file *f);
void backtest_free(struct backtest *bt);

/*
 * The range of row's prediction, from its plan's step or run range, in
 * the row's compared terms and in its own; has_range false when the plan
 * has none, the row is a serving one, or the range is not a finite
 * positive interval.  Needs compare()'s fields (predicted_cmp,
 * predicted_own) set: backtest_file() calls it for every predicted row.
 *
 *   step_time, flops_per_gpu  compared as the step: [step_low, step_high]
 *   tokens_per_s, mfu         inverse in the step: predicted x step_s /
 *                             step_high .. predicted x step_s / step_low
 *   gpu_hours                 predicted x time_low / time_s .. x time_high / time_s
 *   days                      time_low / 86400 .. time_high / 86400
 */
void backtest_row_range(struct backtest_row *row);
/* The measurement lies in the row's range (ends included): false
 * without one. */
bool backtest_row_covered(const struct backtest_row *row);

/* Narayanan et al. 2021, eq. (3): FLOPs of one training step of a GPT
 * with l layers, hidden size h and vocabulary V on a batch of B
 * sequences of s tokens, with full recomputation (four passes):
 * 96 B s l h^2 (1 + s / (6 h) + V / (16 l h)). */
double backtest_megatron_flops(double batch, double seq, double layers,
			       double hidden, double vocab);

/* FLOPs of one step of record o as its `flops_counted` counts them:
 * megatron-2021 from the model's shape; model as 3 x forward x batch;
 * hardware as 4 x forward x batch under full recompute (used), else 3x.
 * forward: FLOPs of one forward pass of one sample. */
double backtest_step_flops(const struct outcome *o, double forward,
			   enum recompute used);

/* Every row and the summary, every figure SI (keys name the unit).  A
 * new reference. */
json_t *backtest_json(const struct backtest *bt);

#endif

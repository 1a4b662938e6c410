/*
 * goodput.h - a training run's wall clock from its productive time.
 *
 * A synchronous training job stops whenever one of its GPUs fails: it
 * restarts from its last checkpoint, and the work done since that
 * checkpoint is done again.  Checkpoints themselves stop training while
 * they are written.  Goodput is the share of the wall clock that trains;
 * published totals (GPU-hours, days) are wall clock, so the planner prices
 * wall = productive / goodput.
 *
 * The model, to first order (Young 1974; Daly 2006), for failures that
 * arrive as a Poisson process:
 *
 *   M       = 1 / (rate x GPUs)              the cluster's mean time
 *                                            between failures, s
 *   tau     = sqrt(2 delta M)                the checkpoint interval that
 *                                            wastes least (Young/Daly), or
 *                                            the workload's own
 *   waste   = delta / tau + (tau / 2 + R) / M
 *   goodput = 1 - waste
 *
 * (the optimum as "Robustness of the Young/Daly formula for stochastic
 * iterative applications", Inria hal-02514107, states it: "the optimal
 * period is P_YD = sqrt(2 mu_f C) where mu_f is the Mean Time Between
 * Failures (MTBF) and C is the checkpoint time"; the waste is that
 * model's: the interval's share spent writing, and per failure the
 * restart and the work since the last checkpoint)
 *
 * delta: the time training stops to write a checkpoint; R: the restart
 * (detection, reload, warm-up); tau / 2: the work lost on average, a
 * failure falling anywhere in an interval alike.  A run shorter than tau
 * writes no checkpoint on the way (its interval is the run: tau = T, no
 * delta term).  waste >= 1 is a cluster too large to make progress: the
 * option is infeasible, with a reason.
 *
 * Every input has a sourced default and a stated range (low, high), each
 * with its source or "assumption" (goodput.c); the workload's `goodput:`
 * replaces any of them, and `goodput: none` turns the model off.  The
 * option's goodput_low and goodput_high are the goodput at the pessimistic
 * and optimistic ends of every input's range together.
 *
 * The cost of one option is O(1): three evaluations of the formula.
 *
 * Ownership: plain data; the `from` strings are static.
 */
#ifndef GPUPLAN_TRAIN_GOODPUT_H
#define GPUPLAN_TRAIN_GOODPUT_H

#include <stdbool.h>

#include "workload/workload.h"

enum goodput_input {
	GOODPUT_FAILURE_RATE,		/* failures per GPU per s */
	GOODPUT_CHECKPOINT_WRITE,	/* s */
	GOODPUT_RESTART,		/* s */
	GOODPUT_INPUTS
};

/* One input: its value and the ends of its stated range, with where each
 * comes from.  A value the workload gave has no range: low = high = value. */
struct goodput_value {
	double value, low, high;
	const char *from;		/* the value's source, or "assumption: ..." */
	const char *range_from;		/* the range's sources */
	bool given;			/* by the workload's `goodput:` */
};

struct goodput_model {
	bool off;			/* `goodput: none`: wall = productive */
	struct goodput_value in[GOODPUT_INPUTS];
	double interval;		/* s; 0: the Young/Daly optimum */
	const char *interval_from;
};

/* The JSON key and unit of each input ("failure_rate_per_gpu_hour"); the
 * JSON scales the rate to per GPU-hour (goodput_json_scale()). */
const char *goodput_input_key(enum goodput_input i);
double goodput_json_scale(enum goodput_input i);
/* Why half an interval is lost on average, for the plan's JSON. */
const char *goodput_lost_work_from(void);

/* The planner's defaults, each with its source and range. */
void goodput_defaults(struct goodput_model *m);
/* The defaults with the workload's `goodput:` in their place. */
void goodput_model_for(const struct goodput_inputs *w, struct goodput_model *m);

/* Goodput at one set of inputs. */
struct goodput_point {
	bool feasible;		/* waste < 1 */
	double fraction;	/* productive / wall, in (0, 1]; 0 when not feasible */
	double interval;	/* s of training between checkpoints (the run
				 * itself when it is shorter) */
	double mtbf;		/* s, the cluster's */
	double waste_checkpoints;	/* share of the wall clock writing them */
	double waste_failures;		/* share lost to restarts and lost work */
};

/*
 * The goodput of `productive` s of training on `gpus` GPUs failing at
 * `rate` per GPU per s, stopping `write` s per checkpoint every `interval`
 * s of training (0: the optimum), `restart` s per failure.
 */
struct goodput_point goodput_at(double rate, double write, double restart,
				double interval, long gpus, double productive);

/* An option's goodput: at the inputs' values, and at the pessimistic
 * (low) and optimistic (high) ends of their ranges. */
struct goodput {
	struct goodput_point mid;
	double low, high;	/* fractions; low 0: no progress at that end */
};

void goodput_of(const struct goodput_model *m, long gpus, double productive,
		struct goodput *g);


#endif

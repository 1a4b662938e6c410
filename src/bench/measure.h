/*
 * measure.h - how every benchmark is repeated: the measuring loop.
 *
 * A measurement is warm-up runs (timed, discarded), then repetitions until
 * the 95% confidence interval of the median is within a relative
 * half-width of it (2% by default) or a cap on repetitions or time is
 * reached.  The policy, the result and its summary (the interval, the
 * readings discarded) are the profile's record of the repetitions:
 * profile/timing.h.
 *
 * A timer can lie: a plugin's event timer may report a negative time,
 * zero, or NaN or infinity.  Such a reading is discarded and counted
 * (timing.h), and it still counts against max_reps, so a timer that never
 * gives a good reading ends the loop with n == 0 rather than spinning.
 * CLOCK_MONOTONIC cannot go backwards, but the check costs nothing and
 * every backend goes through it.
 *
 * Ownership: the struct measure_result that measure_run fills owns its
 * samples; free with measure_result_free.
 */
#ifndef GPUPLAN_BENCH_MEASURE_H
#define GPUPLAN_BENCH_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "profile/timing.h"

/* One repetition: runs the work once and stores its duration in seconds
 * (the caller's own timer: CUDA events on a GPU, the monotonic clock on
 * the CPU).  Returns 0, or -1 with a reason in why. */
typedef int (*measure_rep_fn)(void *ctx, double *seconds, char *why,
			      size_t len);

/*
 * Runs the policy over rep.  Returns 0 with r filled (converged or not:
 * hitting a cap is a result, reported as such; n may be 0 when no reading
 * was good), or -1 with why when a repetition failed; r then holds the
 * repetitions that ran before it.
 */
int measure_run(const struct measure_policy *p, measure_rep_fn rep, void *ctx,
		struct measure_result *r, char *why, size_t len);

#endif

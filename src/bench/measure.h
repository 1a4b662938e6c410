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

/*
 * The training suites' sustained loop.  A GPU under a long run of large
 * GEMMs heats up and meets its power limit, and then holds a lower clock
 * than a short benchmark sees.  How much power a matmul draws depends on
 * its data as well (Horace He, "Strangely, Matrix Multiplications on GPUs
 * Run Faster When Given 'Predictable' Data!", 2024,
 * https://www.thonking.ai/p/strangely-matrix-multiplications: the same
 * benchmark ran at 295 TFLOP/s on zeros and 257 on torch.randn inputs,
 * since bits that flip cost switching power and the part is power
 * limited; read 2026-12-07 in a copy of the page), so every input is
 * random as well.  So a sustained figure runs back to back
 * for settle_s seconds first (timed, discarded: the part reaching its
 * power and thermal steady state; bad readings still counted) and then for
 * steady_s seconds, every repetition kept; the figure is the median of the
 * steady part.  A part lasts until the clock or the device's own time
 * (its good readings summed: a simulated device's time is not the
 * host's) reaches its seconds.  At least min_reps repetitions are kept
 * even past steady_s (an interval needs 6), and no more than max_reps
 * (attempts, good or not, as measure_run counts them: the profile keeps
 * every one).  converged: the interval is within
 * rel_half_width of the median; too_few as measure_run.  elapsed_s is the
 * steady part's length (by the policy's clock): its NVML samples are
 * found by it (profile/samples.h).
 */
struct sustain_policy {
	double settle_s, steady_s;	/* s */
	int min_reps, max_reps;
	double rel_half_width;
	double (*clock)(void *ctx);	/* NULL: CLOCK_MONOTONIC */
};

/* The sustained phase a figure gets by default, s: 20 on a GPU (4
 * quick), long enough for the power limit and most of the heating to
 * show; 1 on the CPU (0.25 quick), whose clock does not sag the same way
 * and whose suite has a minute. */
double sustain_default_s(bool gpu, bool quick);

/* settle and steady halves of `seconds`, 6..4000 reps, 2%. */
struct sustain_policy sustain_policy_of(double seconds);

int measure_sustained(const struct sustain_policy *p, measure_rep_fn rep,
		      void *ctx, struct measure_result *r, char *why,
		      size_t len);

#endif

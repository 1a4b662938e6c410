/*
 * timing.h - what the repetitions of one benchmark are, as a measured
 * profile records them: the policy that ran them, the kept times and the
 * summary drawn from them, and the readings discarded on the way.
 *
 * It lives in src/profile, not src/bench, because it is part of the
 * measured profile's record: the loader (profile_figure.c) re-summarises
 * every figure's samples_s and checks the file's figures against it, and
 * fit and compare read results that bench wrote.  The loop that takes the
 * repetitions (measure_run) is measuring, and stays in bench/measure.h.
 *
 * The summary is the median and its 95% confidence interval.  The interval
 * is distribution-free: the order statistics x(j) and x(n+1-j) with the
 * largest j for which P(Binomial(n, 1/2) < j) <= 2.5% (so its coverage is
 * at least 95% whatever the distribution of the times; Conover, Practical
 * Nonparametric Statistics, 3rd ed., 3.2).  It needs at least 6
 * repetitions to exist.  Timing medians rather than means keeps one
 * descheduled repetition from moving the figure.
 *
 * A timer can lie: a negative time (the end before the start: a timer
 * that went backwards), zero, a subnormal (above 0 but below the smallest
 * normal double, 2.2e-308 s: no timer resolves that, and its rate
 * work / time would leave a double's range), or NaN or infinity.  Such a reading is never
 * a sample: it is discarded and counted (rejected, with the kinds seen).
 * When discarded readings leave fewer good repetitions than min_reps, the
 * result says so (too_few) and is not converged: the rate it gives is
 * marked, never silent.
 *
 * Ownership: struct measure_result owns its samples (raw repetitions in
 * the order they ran); free with measure_result_free.
 */
#ifndef GPUPLAN_PROFILE_TIMING_H
#define GPUPLAN_PROFILE_TIMING_H

#include <stdbool.h>
#include <stddef.h>

struct measure_policy {
	int warmup;		/* runs before timing starts */
	int min_reps;		/* at least this many timed runs (>= 6 for an interval) */
	int max_reps;		/* at most this many */
	double rel_half_width;	/* stop when the CI half-width / median <= this: 0.02 */
	double time_cap_s;	/* stop when the timed runs took this long, s */
	/* seconds on a monotonic clock; NULL: CLOCK_MONOTONIC (tests pass
	 * their own so that no test depends on wall time) */
	double (*clock)(void *ctx);
};

/* warmup 2, min 10, max 1000, 2%, 5 s: the defaults of a full suite. */
struct measure_policy measure_policy_default(void);

/* Bits of measure_result.rejected_kinds: what the discarded readings were. */
enum measure_rejected_kind {
	MEASURE_REJECTED_NEGATIVE = 1u << 0,	/* the timer went backwards */
	MEASURE_REJECTED_ZERO = 1u << 1,
	MEASURE_REJECTED_NON_FINITE = 1u << 2,	/* NaN or infinity */
	MEASURE_REJECTED_SUBNORMAL = 1u << 3,	/* 0 < t < DBL_MIN */
};

struct measure_result {
	double *samples;	/* seconds, in the order they ran: good readings only */
	size_t n;
	size_t rejected;	/* readings discarded (warm-up and timed runs) */
	unsigned rejected_kinds;	/* enum measure_rejected_kind bits */
	bool too_few;		/* rejections left n below the policy's min_reps */
	double median, ci_low, ci_high;	/* s; ci_* equal median when n < 6 */
	double min, max, mean, stddev;	/* s */
	bool converged;		/* the interval met rel_half_width */
	bool has_ci;		/* n >= 6: ci_low/ci_high are an interval */
	double elapsed_s;	/* timed runs, by the policy's clock */
};

/* Fills median, interval, min, max, mean, stddev and has_ci from
 * r->samples[0..n) (the loop's own summary, exposed for tests and for
 * profiles re-loaded from disk). */
void measure_summarise(struct measure_result *r);

/* The 1-based index j of the lower bound of the 95% interval of the
 * median of n samples (the upper is n + 1 - j); 0 when n < 6. */
size_t measure_ci_index(size_t n);

void measure_result_free(struct measure_result *r);

/* A reading that can be a sample: finite and at least the smallest
 * normal double (DBL_MIN, 2.2e-308 s). */
bool measure_reading_good(double seconds);

/* Counts a discarded reading in r (rejected and rejected_kinds). */
void measure_reject(struct measure_result *r, double seconds);

/* "negative", "zero", "not finite", "subnormal (below 2.2e-308 s)"
 * joined by ", " from kinds; "" for 0.  MEASURE_REJECTED_NAMES_MAX bytes
 * hold them all. */
#define MEASURE_REJECTED_NAMES_MAX 96
void measure_rejected_names(unsigned kinds, char *buf, size_t len);

#endif

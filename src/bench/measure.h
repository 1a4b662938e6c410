/*
 * measure.h - how every benchmark is repeated and summarised.
 *
 * A measurement is warm-up runs (timed, discarded), then repetitions until
 * the 95% confidence interval of the median is within a relative
 * half-width of it (2% by default) or a cap on repetitions or time is
 * reached.  The interval is distribution-free: the order statistics
 * x(j) and x(n+1-j) with the largest j for which P(Binomial(n, 1/2) < j)
 * <= 2.5% (so its coverage is at least 95% whatever the distribution of
 * the times; Conover, Practical Nonparametric Statistics, 3rd ed., 3.2).
 * It needs at least 6 repetitions to exist.  Timing medians rather than
 * means keeps one descheduled repetition from moving the figure.
 *
 * A timer can lie: a plugin's event timer may report a negative time (the
 * end before the start: a timer that went backwards), zero, or NaN or
 * infinity.  Such a reading is never a sample: it is discarded and counted
 * (rejected, with the kinds seen), and it still counts against max_reps, so
 * a timer that never gives a good reading ends the loop with n == 0 rather
 * than spinning.  When discarded readings leave fewer good repetitions than
 * min_reps, the result says so (too_few) and is not converged: the rate it
 * gives is marked, never silent.  CLOCK_MONOTONIC cannot go backwards, but
 * the check costs nothing and every backend goes through it.
 *
 * Ownership: struct measure_result owns its samples (raw repetitions in
 * the order they ran); free with measure_result_free.
 */
#ifndef GPUPLAN_BENCH_MEASURE_H
#define GPUPLAN_BENCH_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

/* One repetition: runs the work once and stores its duration in seconds
 * (the caller's own timer: CUDA events on a GPU, the monotonic clock on
 * the CPU).  Returns 0, or -1 with a reason in why. */
typedef int (*measure_rep_fn)(void *ctx, double *seconds, char *why,
			      size_t len);

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

/*
 * Runs the policy over rep.  Returns 0 with r filled (converged or not:
 * hitting a cap is a result, reported as such; n may be 0 when no reading
 * was good), or -1 with why when a repetition failed; r then holds the
 * repetitions that ran before it.
 */
int measure_run(const struct measure_policy *p, measure_rep_fn rep, void *ctx,
		struct measure_result *r, char *why, size_t len);

/* Fills median, interval, min, max, mean, stddev and has_ci from
 * r->samples[0..n) (the loop's own summary, exposed for tests and for
 * profiles re-loaded from disk). */
void measure_summarise(struct measure_result *r);

/* The 1-based index j of the lower bound of the 95% interval of the
 * median of n samples (the upper is n + 1 - j); 0 when n < 6. */
size_t measure_ci_index(size_t n);

void measure_result_free(struct measure_result *r);

/* A reading that can be a sample: finite and greater than zero. */
bool measure_reading_good(double seconds);

/* Counts a discarded reading in r (rejected and rejected_kinds). */
void measure_reject(struct measure_result *r, double seconds);

/* "negative", "zero", "not finite" joined by ", " from kinds; "" for 0. */
void measure_rejected_names(unsigned kinds, char *buf, size_t len);

#endif

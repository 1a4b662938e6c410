/*
 * test_measure.c - the repetition policy and its statistics, with fake
 * repetitions and a fake clock: no test here depends on wall time.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/measure.h"
#include "check.h"

/* 95% interval of the median: the 1-based lower index j, hand-computed
 * from the binomial tails, and matching the tables in Conover (1999),
 * Table A3 (n = 10: x(2)..x(9); n = 20: x(6)..x(15)). */
static void ci_indexes(void)
{
	static const struct { size_t n, j; } cases[] = {
		{0, 0}, {1, 0}, {5, 0},	/* P(B<=0) = 1/32 > 2.5%: no interval */
		{6, 1},			/* 1/64 = 1.6% */
		{10, 2},		/* P(B<=1) = 11/1024 = 1.07%, P(B<=2) = 5.5% */
		{20, 6},		/* P(B<=5) = 2.07%, P(B<=6) = 5.77% */
		{100, 40},		/* P(B<=39) = 1.76%, P(B<=40) = 2.84% */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t j = measure_ci_index(cases[i].n);
		if (j != cases[i].j)
			fprintf(stderr, "n=%zu: j=%zu, want %zu\n", cases[i].n, j, cases[i].j);
		CHECK(j == cases[i].j);
	}
}

static void summaries(void)
{
	double five[] = {5, 1, 4, 2, 3};
	struct measure_result r = {.samples = five, .n = 5};
	measure_summarise(&r);
	CHECK_NEAR(r.median, 3, 1e-12);
	CHECK_NEAR(r.mean, 3, 1e-12);
	CHECK_NEAR(r.stddev, sqrt(2.5), 1e-12);	/* sample (n - 1) */
	CHECK(r.min == 1 && r.max == 5);
	CHECK(!r.has_ci && r.ci_low == r.median && r.ci_high == r.median);

	double ten[] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
	r = (struct measure_result){.samples = ten, .n = 10};
	measure_summarise(&r);
	CHECK_NEAR(r.median, 5.5, 1e-12);	/* even n: mean of the middle two */
	CHECK(r.has_ci && r.ci_low == 2 && r.ci_high == 9);
	CHECK(ten[0] == 10);			/* the raw order is kept */
}

/* Repetitions from a list, cycling; the clock advances by each one. */
struct fake {
	const double *times;
	size_t n_times, calls;
	size_t fail_at;		/* 1-based call that fails; 0: none */
	double now;
};

static int fake_rep(void *ctx, double *seconds, char *why, size_t len)
{
	struct fake *f = ctx;
	f->calls++;
	if (f->fail_at && f->calls == f->fail_at) {
		snprintf(why, len, "out of memory at repetition %zu", f->calls);
		return -1;
	}
	*seconds = f->times[(f->calls - 1) % f->n_times];
	if (isfinite(*seconds) && *seconds > 0)	/* time passes even when a timer lies */
		f->now += *seconds;
	return 0;
}

static double fake_clock(void *ctx)
{
	return ((struct fake *)ctx)->now;
}

static void runs(void)
{
	char why[200];
	struct measure_result r;

	/* steady: converges as soon as the minimum is reached */
	double steady[] = {1.0};
	struct fake f = {steady, 1, 0, 0, 0};
	struct measure_policy p = {2, 10, 1000, 0.02, 1e9, fake_clock};
	CHECK(measure_run(&p, fake_rep, &f, &r, why, sizeof(why)) == 0);
	CHECK(r.n == 10 && r.converged && f.calls == 12);	/* 2 warm-up */
	CHECK_NEAR(r.median, 1.0, 1e-12);
	CHECK_NEAR(r.elapsed_s, 10.0, 1e-9);	/* timed runs only */
	measure_result_free(&r);

	/* 1.0 and 1.1 alternating: the interval spans both, 4.8% of the
	 * median, so it never tightens to 2%: the repetition cap stops it */
	double noisy[] = {1.0, 1.1};
	f = (struct fake){noisy, 2, 0, 0, 0};
	p.max_reps = 50;
	CHECK(measure_run(&p, fake_rep, &f, &r, why, sizeof(why)) == 0);
	CHECK(r.n == 50 && !r.converged);
	CHECK_NEAR(r.median, 1.05, 1e-12);
	measure_result_free(&r);

	/* the same under a 12 s cap: 10 runs take 10.5 s, 11 take 11.5 s,
	 * the 12th reaches 12.6 s and stops it */
	f = (struct fake){noisy, 2, 0, 0, 0};
	p.time_cap_s = 12;
	CHECK(measure_run(&p, fake_rep, &f, &r, why, sizeof(why)) == 0);
	CHECK(r.n == 12 && !r.converged);
	measure_result_free(&r);

	/* a failing repetition: -1, its reason, the runs before it kept */
	f = (struct fake){.times = steady, .n_times = 1, .fail_at = 5};	/* 2 warm-up, then the 3rd timed */
	CHECK(measure_run(&p, fake_rep, &f, &r, why, sizeof(why)) == -1);
	CHECK(r.n == 2 && !r.converged);
	CHECK(strstr(why, "out of memory") != NULL);
	measure_result_free(&r);

	/* a failing warm-up: nothing timed */
	f = (struct fake){.times = steady, .n_times = 1, .fail_at = 1};
	CHECK(measure_run(&p, fake_rep, &f, &r, why, sizeof(why)) == -1);
	CHECK(r.n == 0 && r.samples == NULL);
	measure_result_free(&r);
}

/* Readings a timer got wrong are discarded and counted, never samples;
 * each counts against max_reps; too few good ones are marked. */
static void bad_readings(void)
{
	char why[200];
	struct measure_result r;
	struct measure_policy p = {2, 10, 1000, 0.02, 1e9, fake_clock};

	/* good and NaN in turn: warm-up 1.0, NaN; then good at calls 3, 5,
	 * ..., 21 (the 10th converges), NaN at 4, 6, ..., 20: 1 + 9 rejected */
	double nan_every_other[] = {1.0, NAN};
	struct fake f = {nan_every_other, 2, 0, 0, 0};
	CHECK(measure_run(&p, fake_rep, &f, &r, why, sizeof(why)) == 0);
	CHECK(r.n == 10 && f.calls == 21 && r.rejected == 10);
	CHECK(r.rejected_kinds == MEASURE_REJECTED_NON_FINITE);
	CHECK(r.converged && !r.too_few && r.median == 1.0);
	for (size_t i = 0; i < r.n; i++)
		CHECK(r.samples[i] == 1.0);
	measure_result_free(&r);

	/* a timer that always runs backwards: 2 warm-ups and 50 attempts, no
	 * sample, marked too few; the loop ends (it does not spin) */
	double backwards[] = {-1e-3};
	f = (struct fake){backwards, 1, 0, 0, 0};
	p.max_reps = 50;
	CHECK(measure_run(&p, fake_rep, &f, &r, why, sizeof(why)) == 0);
	CHECK(r.n == 0 && f.calls == 52 && r.rejected == 52);
	CHECK(r.rejected_kinds == MEASURE_REJECTED_NEGATIVE);
	CHECK(r.too_few && !r.converged && r.median == 0);
	measure_result_free(&r);

	/* one good reading in four, zeros between, 20 attempts: warm-up 1.0
	 * and 0; good at calls 5, 9, 13, 17, 21: 5 of the 10 asked for */
	double mostly_zero[] = {1.0, 0.0, 0.0, 0.0};
	f = (struct fake){mostly_zero, 4, 0, 0, 0};
	p.max_reps = 20;
	CHECK(measure_run(&p, fake_rep, &f, &r, why, sizeof(why)) == 0);
	CHECK(r.n == 5 && f.calls == 22 && r.rejected == 16);
	CHECK(r.rejected_kinds == MEASURE_REJECTED_ZERO);
	CHECK(r.too_few && !r.converged && !r.has_ci && r.median == 1.0);
	measure_result_free(&r);

	/* infinity is not finite either; names for messages */
	CHECK(!measure_reading_good(INFINITY) && !measure_reading_good(-0.0) &&
	      !measure_reading_good(NAN) && measure_reading_good(1e-300));
	/* a subnormal is no time a timer resolves: named for what it is */
	CHECK(!measure_reading_good(1e-310) && measure_reading_good(DBL_MIN));
	struct measure_result sub = {0};
	measure_reject(&sub, 1e-310);
	CHECK(sub.rejected == 1 && sub.rejected_kinds == MEASURE_REJECTED_SUBNORMAL);
	char names[MEASURE_REJECTED_NAMES_MAX];
	measure_rejected_names(MEASURE_REJECTED_SUBNORMAL, names, sizeof(names));
	CHECK_STR(names, "subnormal (below 2.2e-308 s)");
	measure_rejected_names(MEASURE_REJECTED_NEGATIVE | MEASURE_REJECTED_ZERO |
			       MEASURE_REJECTED_NON_FINITE, names, sizeof(names));
	CHECK_STR(names, "negative, zero, not finite");
	measure_rejected_names(0, names, sizeof(names));
	CHECK_STR(names, "");
}

int main(void)
{
	ci_indexes();
	summaries();
	runs();
	bad_readings();
	return check_summary("measure");
}

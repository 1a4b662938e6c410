/*
 * test_stat_props.c - properties of every statistic gpuplan computes, over
 * inputs drawn across their whole documented ranges: Welch's test and the
 * delta method's ratio interval (compare/welch.h: any finite values), the
 * fits (fit/lsq.h: 0 or magnitudes from 1e-60 to 1e60), calibration's draws
 * (fit/calibration.h), the repetitions' summary (profile/timing.h:
 * times from 2.2e-308 to 1.8e308 s) and the backtest's exact interval of
 * a share (backtest/coverage.h: k of n up to a million).  Inside a range each gives finite
 * figures, or NaN said in so many words (welch's `beyond`), or a refusal
 * that says why; never infinity, never an abort (GSL's default handler
 * would abort: it is left on here, as a library caller leaves it, so a
 * GSL call outside the statistics' own guards ends this test).
 *
 * The draws come from a seeded generator: every run tests the same inputs.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "backtest/coverage.h"
#include "check.h"
#include "compare/welch.h"
#include "fit/calibration.h"
#include "fit/lsq.h"
#include "profile/timing.h"

#define DRAWS 4000

/* Uniform in [0, 1) from a seeded 64-bit LCG (Knuth's MMIX constants). */
static double uniform(uint64_t *s)
{
	*s = *s * 6364136223846793005u + 1442695040888963407u;
	return (double)(*s >> 11) * 0x1.0p-53;
}

/* A finite double of any sign and magnitude: 0, -0, subnormals, the
 * largest, and decades in between, each often enough to be met. */
static double any_double(uint64_t *s)
{
	static const double edges[] = {0.0, -0.0, 4.9e-324, 1e-320, DBL_MIN,
				       1e-300, 1.0, 1e300, DBL_MAX, -DBL_MAX};
	double u = uniform(s);
	if (u < 0.2)
		return edges[(size_t)(uniform(s) * 10)];
	double sign = uniform(s) < 0.3 ? -1 : 1;
	return sign * (1 + uniform(s)) * pow(10, -323 + 630 * uniform(s)) / 2;
}

/* A value near `centre` (within a quarter below it, so never past a
 * double), for samples of one scale. */
static double near(uint64_t *s, double centre)
{
	return centre * (0.75 + 0.25 * uniform(s));
}

/* finite or NaN: never an infinity */
static bool honest(double v)
{
	return !isinf(v);
}

static void check_welch(const double *b, size_t nb, const double *a, size_t na)
{
	struct sample_stats sb, sa;
	sample_stats_of(b, nb, &sb);
	sample_stats_of(a, na, &sa);
	CHECK(isfinite(sb.mean) && isfinite(sa.mean));
	CHECK(honest(sb.sd) && honest(sa.sd));
	struct welch w;
	welch_compare(&sb, &sa, &w);
	const double all[] = {w.diff, w.diff_lo, w.diff_hi, w.ratio, w.ratio_lo,
			      w.ratio_hi, w.t, w.df, w.p};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		CHECK(honest(all[i]));
	/* a difference that exists is a double unless said to be beyond */
	CHECK(isfinite(w.diff) || w.beyond);
	if (w.status == WELCH_OK && isfinite(w.p)) {
		CHECK(w.p >= 0 && w.p <= 1);
		CHECK(w.df >= 1 - 1e-9 && w.df <= (double)(na + nb - 2) + 1e-9);
		if (isfinite(w.diff_lo) && isfinite(w.diff_hi) && isfinite(w.diff))
			CHECK(w.diff_lo <= w.diff && w.diff <= w.diff_hi);
		else
			CHECK(w.beyond);
		if (isfinite(w.ratio_lo) && isfinite(w.ratio))
			CHECK(w.ratio_lo <= w.ratio && w.ratio <= w.ratio_hi);
	}
	if (w.status == WELCH_NO_SPREAD)
		CHECK(sb.constant && sa.constant);
}

/* Samples of any values at all, and samples of one scale each (the usual
 * case, at scales from 1e-320 to 1e308). */
static void welch_any_finite(void)
{
	uint64_t s = 28;
	double b[8], a[8];
	for (int k = 0; k < DRAWS; k++) {
		size_t nb = 1 + (size_t)(uniform(&s) * 7), na = 1 + (size_t)(uniform(&s) * 7);
		bool scaled = k % 2;
		double cb = any_double(&s), ca = any_double(&s);
		for (size_t i = 0; i < nb; i++)
			b[i] = scaled ? near(&s, cb) : any_double(&s);
		for (size_t i = 0; i < na; i++)
			a[i] = scaled ? near(&s, ca) : any_double(&s);
		check_welch(b, nb, a, na);
	}
}

/* The test does not depend on the unit: both samples times 2^k give the
 * same t, df and p, at every k a double holds them at. */
static void welch_scale_free(void)
{
	const double b[] = {10, 12, 11, 13, 9}, a[] = {14, 15, 13, 16, 17, 15};
	struct sample_stats sb, sa;
	struct welch ref, w;
	sample_stats_of(b, 5, &sb);
	sample_stats_of(a, 6, &sa);
	welch_compare(&sb, &sa, &ref);
	for (int k = -1060; k <= 1015; k += 5) {
		double bs[5], as[6];
		for (int i = 0; i < 5; i++)
			bs[i] = ldexp(b[i], k);
		for (int i = 0; i < 6; i++)
			as[i] = ldexp(a[i], k);
		sample_stats_of(bs, 5, &sb);
		sample_stats_of(as, 6, &sa);
		welch_compare(&sb, &sa, &w);
		CHECK(w.status == WELCH_OK);
		/* subnormal scales keep fewer digits of the values themselves */
		double tol = k < -1020 ? 1e-3 : 1e-12;
		CHECK_NEAR(w.p, ref.p, tol);
		CHECK_NEAR(w.df, ref.df, tol);
		CHECK_NEAR(w.ratio, ref.ratio, tol);
		CHECK_NEAR(w.diff, ldexp(ref.diff, k), tol);
	}
}

/* What the issue met: 1e80 s wall times, 1e-300 s repetitions' rates, 0
 * against 1e-300. */
static void welch_reported_cases(void)
{
	const double big_b[] = {1e80, 2e80, 3e80}, big_a[] = {1e80, 5e80, 9e80};
	check_welch(big_b, 3, big_a, 3);
	const double zero[] = {0, 0, 0}, mixed[] = {0, 1e-300, 0, 1e-300};
	struct sample_stats sz, sm;
	sample_stats_of(zero, 3, &sz);
	sample_stats_of(mixed, 4, &sm);
	CHECK(sz.constant && !sm.constant && sm.sd > 0);
	struct welch w;
	welch_compare(&sz, &sm, &w);
	CHECK(w.status == WELCH_OK && w.df == 3 && isfinite(w.p));
}

/* y = a + b x with b chosen so that both terms matter across the points */
static void fit_points(uint64_t *s, enum fit_form form, double *x, double *y,
		       size_t n)
{
	double xs = pow(10, -50 + 100 * uniform(s));
	double ys = pow(10, -50 + 100 * uniform(s));
	for (size_t i = 0; i < n; i++) {
		x[i] = xs * (1 + (double)i + uniform(s));
		double u = x[i] / xs;
		double shape = form == FIT_SATURATING ? u / (u + 3)
			       : form == FIT_INVERSE ? 1 + 2 / u : 1 + 0.5 * u;
		y[i] = ys * shape * (1 + 0.05 * (uniform(s) - 0.5));
	}
}

/* 1 for a fit made, 0 for a refusal (which says why) */
static int check_fit(enum fit_form form, const double *x, const double *y,
		     size_t n)
{
	static const enum fit_sign sign[FIT_PARAMS] = {FIT_ANY, FIT_ANY};
	static const char *const name[FIT_PARAMS] = {"p0", "p1"};
	struct fit f;
	char why[200] = "";
	if (fit_curve(form, x, y, n, sign, name, &f, why, sizeof(why)) < 0) {
		CHECK(why[0] != '\0');
		return 0;
	}
	for (int i = 0; i < FIT_PARAMS; i++)
		CHECK(isfinite(f.p[i].value) && isfinite(f.p[i].se) &&
		      isfinite(f.p[i].lo) && isfinite(f.p[i].hi));
	CHECK(isfinite(f.r2) && isfinite(f.rms_rel));
	CHECK(f.loo == -1 || (isfinite(f.loo) && f.loo >= 0));
	CHECK(honest(fit_band(&f, x[0])));
	return 1;
}

/* Points anywhere in the fits' range give a fit with finite figures or a
 * refusal that says why; points outside it are refused by number. */
static void fits_in_range(void)
{
	uint64_t s = 60;
	const enum fit_form forms[] = {FIT_LINE, FIT_INVERSE, FIT_SATURATING};
	double x[12], y[12];
	int made = 0;
	for (int k = 0; k < 300; k++) {
		enum fit_form form = forms[k % 3];
		size_t n = 3 + (size_t)(uniform(&s) * 9);
		fit_points(&s, form, x, y, n);
		made += check_fit(form, x, y, n);
	}
	CHECK(made >= 270);	/* the points are curves: nearly all fit */
	const double out[] = {1e-300, 1e300, 4.9e-324, DBL_MAX};
	for (size_t k = 0; k < 4; k++) {
		double xs[5] = {1, 2, 3, 4, 5}, ys[5] = {1, 2, 3, 4, 5};
		ys[2] = out[k];
		struct fit f;
		char why[200] = "";
		static const enum fit_sign sign[FIT_PARAMS] = {FIT_ANY, FIT_ANY};
		static const char *const name[FIT_PARAMS] = {"p0", "p1"};
		CHECK(fit_curve(FIT_LINE, xs, ys, 5, sign, name, &f, why, sizeof(why)) < 0);
		CHECK_HAS(why, "point 3 is");
		CHECK_HAS(why, "a fit takes x and y of 0 or a magnitude from 1e-60 to 1e+60");
	}
}

/* The hat-matrix leave-one-out error is the refit-each-point one. */
static void loo_is_refit(void)
{
	uint64_t s = 7;
	static const enum fit_sign sign[FIT_PARAMS] = {FIT_ANY, FIT_ANY};
	static const char *const name[FIT_PARAMS] = {"p0", "p1"};
	const enum fit_form forms[] = {FIT_LINE, FIT_INVERSE};
	int compared = 0;
	for (int k = 0; k < 40; k++) {
		enum fit_form form = forms[k % 2];
		double x[10], y[10], xs[9], ys[9];
		size_t n = 4 + (size_t)(uniform(&s) * 6);
		fit_points(&s, form, x, y, n);
		struct fit f, g;
		char why[200];
		if (fit_curve(form, x, y, n, sign, name, &f, why, sizeof(why)) < 0)
			continue;
		double sum = 0;
		for (size_t out = 0; out < n; out++) {
			size_t m = 0;
			for (size_t i = 0; i < n; i++)
				if (i != out) {
					xs[m] = x[i];
					ys[m++] = y[i];
				}
			CHECK(fit_curve(form, xs, ys, m, sign, name, &g, why, sizeof(why)) == 0);
			sum += fabs(fit_residual(&g, x[out], y[out]));
		}
		CHECK_NEAR(f.loo, sum / (double)n, 1e-6);
		compared++;
	}
	CHECK(compared >= 36);
}

/* Draws from any fit's covariance are finite and not below 0. */
static void calibration_draws(void)
{
	uint64_t s = 9;
	gsl_rng *r = calibration_rng();
	double x[10], y[10];
	const enum fit_form forms[] = {FIT_LINE, FIT_SATURATING};
	static const enum fit_sign sign[FIT_PARAMS] = {FIT_POSITIVE, FIT_POSITIVE};
	static const char *const name[FIT_PARAMS] = {"p0", "p1"};
	for (int k = 0; k < 200; k++) {
		struct scaling_curve c = {0};
		c.kind = CURVE_TRANSFER;
		fit_points(&s, forms[k % 2], x, y, 10);
		char why[200];
		if (fit_curve(forms[k % 2], x, y, 10, sign, name, &c.fit, why, sizeof(why)) < 0)
			continue;
		double v[50], q[2];
		for (int d = 0; d < 50; d++) {
			calibration_draw(&c, r, q);
			CHECK(isfinite(q[0]) && isfinite(q[1]) && q[0] >= 0 && q[1] >= 0);
			v[d] = q[1];
		}
		double lo, mid, hi;
		calibration_percentiles(v, 50, &lo, &mid, &hi);
		CHECK(isfinite(lo) && lo <= mid && mid <= hi && isfinite(hi));
	}
	gsl_rng_free(r);
}

/* Times from the smallest normal double to the largest summarise to
 * finite figures inside their range, the interval around the median. */
static void timing_summary(void)
{
	uint64_t s = 308;
	for (int k = 0; k < DRAWS / 4; k++) {
		struct measure_result r = {0};
		size_t n = 1 + (size_t)(uniform(&s) * 30);
		r.samples = calloc(n, sizeof(double));
		double centre = k % 2 ? DBL_MAX / 2 : pow(10, -307 + 614 * uniform(&s));
		for (size_t i = 0; i < n; i++) {
			double t = k % 3 ? near(&s, centre) : fabs(any_double(&s));
			r.samples[i] = measure_reading_good(t) ? t : DBL_MIN;
		}
		r.n = n;
		measure_summarise(&r);
		CHECK(isfinite(r.median) && isfinite(r.mean) && isfinite(r.stddev));
		CHECK(r.min <= r.median && r.median <= r.max);
		CHECK(r.ci_low <= r.median && r.median <= r.ci_high);
		CHECK(r.min <= r.mean && r.mean <= r.max);
		measure_result_free(&r);
	}
}

/* The exact (Clopper-Pearson) interval of a share k of n, the backtest's
 * coverage: inside [0, 1], around k / n, for n up to a million. */
static void coverage_intervals(void)
{
	uint64_t s = 95;
	const double levels[] = {0.5, 0.8, 0.95, 0.999};
	for (int i = 0; i < 400; i++) {
		size_t n = 1 + (size_t)pow(10, 6 * uniform(&s));
		size_t k = (size_t)(uniform(&s) * (double)(n + 1));
		if (k > n)
			k = n;
		double lo, hi;
		coverage_interval(k, n, levels[i % 4], &lo, &hi);
		double share = (double)k / (double)n;
		CHECK(isfinite(lo) && isfinite(hi));
		CHECK(0 <= lo && lo <= share && share <= hi && hi <= 1);
	}
}

int main(void)
{
	coverage_intervals();
	welch_any_finite();
	welch_scale_free();
	welch_reported_cases();
	fits_in_range();
	loo_is_refit();
	calibration_draws();
	timing_summary();
	return check_summary("stat_props");
}

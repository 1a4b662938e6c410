/*
 * test_fit.c - the least-squares fits (src/fit/lsq.h) on synthetic data
 * whose parameters are known: exact points give them back exactly, noisy
 * points give intervals that hold them about 95% of the time, and every
 * refusal says why.
 */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "fit/lsq.h"

static const enum fit_sign line_sign[FIT_PARAMS] = {FIT_NONNEGATIVE, FIT_POSITIVE};
static const char *const line_name[FIT_PARAMS] = {"latency_s", "s_per_byte"};
static const enum fit_sign sat_sign[FIT_PARAMS] = {FIT_POSITIVE, FIT_POSITIVE};
static const char *const sat_name[FIT_PARAMS] = {"peak", "half_size"};

/* Uniform in [-1, 1) from a seeded 64-bit LCG (Knuth's MMIX constants). */
static double noise(uint64_t *s)
{
	*s = *s * 6364136223846793005u + 1442695040888963407u;
	return (double)(*s >> 11) * 0x1.0p-52 - 1;
}

/*
 * A transfer: 20 us of latency and 10 GB/s, at 4 KiB x 4^k up to 1 GiB
 * (10 sizes), exact: both parameters come back to 1e-9, R^2 is 1, the
 * curve misses nothing, and each point left out is predicted exactly.
 */
static void exact_line(void)
{
	double x[10], y[10];
	for (int i = 0; i < 10; i++) {
		x[i] = 4096.0 * pow(4, i);
		y[i] = 20e-6 + x[i] / 10e9;
	}
	struct fit f;
	char why[200];
	CHECK(fit_curve(FIT_LINE, x, y, 10, line_sign, line_name, &f, why, sizeof(why)) == 0);
	CHECK_NEAR(f.p[0].value, 20e-6, 1e-9);
	CHECK_NEAR(f.p[1].value, 1 / 10e9, 1e-9);
	CHECK(f.p[0].lo <= 20e-6 && 20e-6 <= f.p[0].hi);
	CHECK_NEAR(f.r2, 1, 1e-12);
	CHECK(f.rms_rel < 1e-9 && f.loo >= 0 && f.loo < 1e-9);
	CHECK_NEAR(fit_eval(&f, 1e6), 20e-6 + 1e6 / 10e9, 1e-9);
	CHECK(fit_band(&f, 1e6) < 1e-9 * fit_eval(&f, 1e6));	/* exact: no spread */
}

/* A GEMM's rate against size: 100 at most, half of it at 50 (sizes 1 to
 * 1024, doubling), exact. */
static void exact_saturating(void)
{
	double x[11], y[11];
	for (int i = 0; i < 11; i++) {
		x[i] = pow(2, i);
		y[i] = 100 * x[i] / (x[i] + 50);
	}
	struct fit f;
	char why[200];
	CHECK(fit_curve(FIT_SATURATING, x, y, 11, sat_sign, sat_name, &f, why, sizeof(why)) == 0);
	CHECK_NEAR(f.p[0].value, 100, 1e-7);
	CHECK_NEAR(f.p[1].value, 50, 1e-7);
	CHECK(f.rms_rel < 1e-8);
}

/*
 * Noise: each point off by up to +-4% (uniform).  Over 200 seeds the 95%
 * intervals hold the true parameters between 88% and 100% of the time
 * (a binomial's 200 trials at 0.95 put 3.5 sd below at 88%), and the
 * estimates stay within 10% of the truth.
 */
static void coverage(enum fit_form form, double a, double b)
{
	int held[2] = {0, 0}, banded = 0;
	const int trials = 200;
	for (int t = 0; t < trials; t++) {
		uint64_t s = 1000 + (uint64_t)t;
		double x[12], y[12];
		for (int i = 0; i < 12; i++) {
			x[i] = form == FIT_LINE ? 4096.0 * pow(2.5, i) : pow(2, i);
			double truth = form == FIT_LINE ? a + b * x[i] : a * x[i] / (x[i] + b);
			y[i] = truth * (1 + 0.04 * noise(&s));
		}
		struct fit f;
		char why[200];
		int rc = form == FIT_LINE
			? fit_curve(form, x, y, 12, line_sign, line_name, &f, why, sizeof(why))
			: fit_curve(form, x, y, 12, sat_sign, sat_name, &f, why, sizeof(why));
		CHECK(rc == 0);
		/* the curve's 95% band at a middle x holds the true value */
		double xm = x[6], tm = form == FIT_LINE ? a + b * xm : a * xm / (xm + b);
		double w = fit_band(&f, xm);
		CHECK(w > 0);
		banded += fabs(fit_eval(&f, xm) - tm) <= w;
		double truth[2] = {a, b};
		for (int k = 0; k < 2; k++) {
			held[k] += f.p[k].lo <= truth[k] && truth[k] <= f.p[k].hi;
			CHECK(fabs(f.p[k].value / truth[k] - 1) < 0.1);
		}
		CHECK(f.loo > 0 && f.loo < 0.1);
		/* the covariance's diagonal is each se squared; a fixed cost
		 * and a slope (or a ceiling and its half point) trade off:
		 * negatively (positively) correlated */
		CHECK_NEAR(f.cov[0][0], f.p[0].se * f.p[0].se, 1e-12);
		CHECK_NEAR(f.cov[1][1], f.p[1].se * f.p[1].se, 1e-12);
		CHECK(f.cov[0][1] == f.cov[1][0]);
		CHECK(form == FIT_LINE ? f.cov[0][1] < 0 : f.cov[0][1] > 0);
	}
	CHECK(held[0] >= 176 && held[1] >= 176 && banded >= 176);
	printf("  %s: 95%% intervals held the truth %d and %d times of %d, the band %d\n",
	       form == FIT_LINE ? "line" : "saturating", held[0], held[1], trials,
	       banded);
}

/*
 * A fixed cost the points cannot tell from 0 is held there (lsq.h):
 * y = 0.95, 2.1, 3.9, 8.1 at x = 1, 2, 4, 8.  The free weighted fit
 * (weights 1/y^2) gives an intercept of -0.0546 whose 95% interval,
 * +-4.303 x 0.0668 at 2 degrees of freedom, reaches 0; held at 0, the
 * slope is sum(x/y) / sum(x^2/y^2) = 0.99402458 with se
 * sqrt(s2 / sum(x^2/y^2)) = 0.0216858, s2 the mean squared relative
 * residual at n - 1 = 3 degrees of freedom (worked in Python from these
 * formulas).
 */
static void held_at_zero(void)
{
	double x[] = {1, 2, 4, 8}, y[] = {0.95, 2.1, 3.9, 8.1};
	struct fit f;
	char why[200] = "";
	CHECK(fit_curve(FIT_LINE, x, y, 4, line_sign, line_name, &f, why, sizeof(why)) == 0);
	CHECK(f.p[0].held && !f.p[1].held && fit_free_params(&f) == 1);
	CHECK(f.p[0].value == 0 && f.p[0].se == 0 && f.p[0].lo == 0 && f.p[0].hi == 0);
	CHECK_NEAR(f.p[0].free_value, -0.05463517804622342, 1e-9);
	CHECK(f.p[0].free_lo < 0 && f.p[0].free_hi > 0);
	CHECK_NEAR(f.p[1].value, 0.9940245808051204, 1e-12);
	CHECK_NEAR(f.p[1].se, 0.021685801660642542, 1e-9);
	CHECK_NEAR(f.p[1].hi - f.p[1].value, 3.182446305284263 * 0.021685801660642542, 1e-6);
	CHECK(f.cov[0][0] == 0 && f.cov[0][1] == 0);
	CHECK_NEAR(f.cov[1][1], 0.021685801660642542 * 0.021685801660642542, 1e-9);
	/* the band through the origin: the slope's spread alone */
	CHECK_NEAR(fit_band(&f, 2), 3.182446305284263 * 2 * 0.021685801660642542, 1e-6);
	/* a parameter that must be above 0 is never held: y = 10 - x */
	double down[] = {9, 8, 6, 2};
	CHECK(fit_curve(FIT_LINE, x, down, 4, line_sign, line_name, &f, why, sizeof(why)) == -1);
	CHECK(!f.p[1].held);
}

static void refusals(void)
{
	struct fit f;
	char why[200];
	double x2[] = {1, 2}, y2[] = {1, 2};
	CHECK(fit_curve(FIT_LINE, x2, y2, 2, line_sign, line_name, &f, why, sizeof(why)) == -1);
	CHECK_STR(why, "2 points: a line needs at least 3");
	/* a fixed cost below 0: y = -1 + 2x */
	/* and points no line describes: 10 + x, every other one 4 x over */
	double x[] = {1, 2, 4, 8, 16}, neg[5], bad[5];
	double zigzag[] = {11, 18, 14, 42, 26};
	for (int i = 0; i < 5; i++) {
		neg[i] = -1 + 2 * x[i];
		bad[i] = x[i];
	}
	CHECK(fit_curve(FIT_LINE, x, neg, 5, line_sign, line_name, &f, why, sizeof(why)) == -1);
	CHECK_STR(why, "latency_s is -1 (95% interval [-1, -1]): not physical (expected at least 0)");
	CHECK(fit_curve(FIT_LINE, x, zigzag, 5, line_sign, line_name, &f, why, sizeof(why)) == -1);
	CHECK_STR(why, "a poor fit: the curve misses its points by 27% (root mean square), more than 20%");
	double same[] = {4096, 4096, 4096, 4096};
	CHECK(fit_curve(FIT_LINE, same, x, 4, line_sign, line_name, &f, why, sizeof(why)) == -1);
	CHECK_STR(why, "every point is at x = 4096: a curve needs two x values or more");
	bad[2] = 0;
	CHECK(fit_curve(FIT_LINE, x, bad, 5, line_sign, line_name, &f, why, sizeof(why)) == -1);
	CHECK_STR(why, "point 3 is (4, 0): expected a finite x and y > 0");
}

/*
 * The prediction error's work is bounded (lsq.h), counted rather than
 * timed: 8,000 points of a line take no refit (hat matrix, one pass) and
 * of a saturating curve FIT_CV_FOLDS refits (10 folds past 50 points);
 * leaving each point out in turn, as before, made 8,000 refits (40 s and
 * more for the curve on a 2-core machine).
 */
static void prediction_error_work(void)
{
	enum { N = 8000 };
	static double x[N], y[N], ys[N];
	uint64_t s = 3;
	for (int i = 0; i < N; i++) {
		x[i] = 8.0 * (i + 1);
		y[i] = (1e-5 + 5e-11 * x[i]) * (1 + 0.02 * noise(&s));
		ys[i] = 1e11 * x[i] / (x[i] + 300) * (1 + 0.02 * noise(&s));
	}
	struct fit f;
	char why[200];
	CHECK(fit_curve(FIT_LINE, x, y, N, line_sign, line_name, &f, why, sizeof(why)) == 0);
	CHECK(f.loo > 0 && f.loo < 0.02);
	CHECK(f.loo_refits == 0);
	CHECK(fit_curve(FIT_SATURATING, x, ys, N, sat_sign, sat_name, &f, why, sizeof(why)) == 0);
	CHECK(f.loo > 0 && f.loo < 0.02);
	CHECK(f.loo_refits == FIT_CV_FOLDS);
	/* up to FIT_LOO_EXACT_MAX points, each point is left out in turn */
	CHECK(fit_curve(FIT_SATURATING, x, ys, FIT_LOO_EXACT_MAX, sat_sign, sat_name, &f, why, sizeof(why)) == 0);
	CHECK(f.loo_refits == FIT_LOO_EXACT_MAX);
}

int main(void)
{
	prediction_error_work();
	exact_line();
	exact_saturating();
	coverage(FIT_LINE, 20e-6, 1 / 10e9);
	coverage(FIT_SATURATING, 100, 50);
	held_at_zero();
	refusals();
	return check_summary("fit");
}

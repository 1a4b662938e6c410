/*
 * test_calibration.c - the calibration's Monte Carlo draws against the
 * delta method worked by hand, and the percentiles on known data.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fit/calibration.h"

/* A step-time line fitted to points with a known 2% zig-zag. */
static void step_curve(struct scaling_curve *c)
{
	static const double x[] = {1, 2, 4, 8, 16, 32, 64};
	static double y[7];
	static const char *const names[] = {"fixed_s", "per_sample_s"};
	static const enum fit_sign sign[] = {FIT_NONNEGATIVE, FIT_POSITIVE};
	for (int i = 0; i < 7; i++)
		y[i] = (0.004 + 0.001 * x[i]) * (i % 2 ? 1.02 : 0.98);
	memset(c, 0, sizeof(*c));
	c->kind = CURVE_STEP_TIME;
	c->ok = true;
	char why[128];
	CHECK(fit_curve(FIT_LINE, x, y, 7, sign, names, &c->fit, why, sizeof(why)) == 0);
}

/*
 * The draws of fixed + b x per_sample at b = 24 against the normal the
 * covariance gives: mean fixed + 24 per_sample, variance
 * v00 + 2 x 24 v01 + 24^2 v11; the 2.5th and 97.5th percentiles at
 * -+1.96 standard deviations.  1000 draws put each within about 0.15
 * standard deviations of it.
 */
static void test_draws_match_delta_method(void)
{
	struct scaling_curve c;
	step_curve(&c);
	const double b = 24;
	const double (*v)[FIT_PARAMS] = c.fit.cov;
	double mean = c.fit.p[0].value + b * c.fit.p[1].value;
	double sd = sqrt(v[0][0] + 2 * b * v[0][1] + b * b * v[1][1]);
	CHECK(sd > 0);
	double *t = malloc(CALIBRATION_DRAWS * sizeof(double));
	gsl_rng *r = calibration_rng();
	for (int i = 0; i < CALIBRATION_DRAWS; i++) {
		double q[2];
		calibration_draw(&c, r, q);
		t[i] = q[0] + b * q[1];
	}
	gsl_rng_free(r);
	double lo, med, hi;
	calibration_percentiles(t, CALIBRATION_DRAWS, &lo, &med, &hi);
	CHECK(fabs(med - mean) < 0.15 * sd);
	CHECK(fabs(lo - (mean - 1.96 * sd)) < 0.25 * sd);
	CHECK(fabs(hi - (mean + 1.96 * sd)) < 0.25 * sd);
	free(t);
}

/* The same seed gives the same draws: same inputs, same bytes out. */
static void test_draws_repeat(void)
{
	struct scaling_curve c;
	step_curve(&c);
	gsl_rng *a = calibration_rng(), *b = calibration_rng();
	for (int i = 0; i < 10; i++) {
		double p[2], q[2];
		calibration_draw(&c, a, p);
		calibration_draw(&c, b, q);
		CHECK(p[0] == q[0] && p[1] == q[1]);
	}
	gsl_rng_free(a);
	gsl_rng_free(b);
}

/* Percentiles of 1..1001: the 2.5th is 26, the median 501, the 97.5th
 * 976 (index round(p x 1000)). */
static void test_percentiles(void)
{
	double v[1001];
	for (int i = 0; i < 1001; i++)
		v[i] = (double)(1001 - i);
	double lo, med, hi;
	calibration_percentiles(v, 1001, &lo, &med, &hi);
	CHECK(lo == 26 && med == 501 && hi == 976);
}

/* A draw past zero is held at a thousandth of the fitted value. */
static void test_draw_held_positive(void)
{
	struct scaling_curve c;
	memset(&c, 0, sizeof(c));
	c.fit.p[0].value = 1e-6;
	c.fit.p[1].value = 1;
	c.fit.cov[0][0] = 1;	/* sd 1 around 1e-6: half the draws negative */
	gsl_rng *r = calibration_rng();
	for (int i = 0; i < 200; i++) {
		double q[2];
		calibration_draw(&c, r, q);
		CHECK(q[0] > 0);
		CHECK(q[1] == 1);
	}
	gsl_rng_free(r);
}

/* The memory rate: a CPU's line in time gives 1 / s_per_byte, a GPU's
 * saturating curve its peak. */
static void test_memory_rate(void)
{
	struct calibration cal;
	struct scaling_curve s;
	memset(&cal, 0, sizeof(cal));
	memset(&s, 0, sizeof(s));
	cal.memory = &s;
	s.kind = CURVE_MEMBW_MEMORY;
	double q[2] = {1e-6, 1e-10};	/* 10 GB/s */
	CHECK_NEAR(calibration_memory_rate(&cal, q), 1e10, 1e-12);
	s.kind = CURVE_MEMBW;
	double g[2] = {3e12, 1e6};
	CHECK_NEAR(calibration_memory_rate(&cal, g), 3e12, 1e-12);
	cal.memory = NULL;	/* none measured */
	CHECK(calibration_memory_rate(&cal, g) == 0);
}

int main(void)
{
	test_draws_match_delta_method();
	test_draws_repeat();
	test_percentiles();
	test_draw_held_positive();
	test_memory_rate();
	return check_summary("calibration");
}

/*
 * welch.h - is AFTER different from BEFORE?  Welch's t-test on two samples
 * of repetitions, the 95% interval of the difference of their means, and
 * the ratio of the means with its 95% interval.
 *
 * Difference: d = mean(after) - mean(before), standard error
 * se = sqrt(s_b^2/n_b + s_a^2/n_a), degrees of freedom by Welch-
 * Satterthwaite, interval d +- t(0.975, df) se (GSL gsl_cdf_tdist_Pinv),
 * two-sided p = 2 Q(|d|/se, df) (gsl_cdf_tdist_Q).
 *
 * Ratio: r = mean(after) / mean(before), interval by the delta method:
 * se_r = |r| sqrt(s_a^2/(n_a m_a^2) + s_b^2/(n_b m_b^2)), r +- t(0.975, df) se_r
 * with the same df.  It is symmetric and can be poor when the before mean
 * is near zero relative to its spread; Fieller's would then be unbounded.
 *
 * Range: any finite values, from subnormals (4.9e-324) to 1.8e308, either
 * sign.  Each sample is summarised in units of a power of two at least its
 * largest magnitude (so no square over- or underflows and the scaling is
 * exact), and both are compared in the larger of those units: the test is
 * the same at 1e-300 and at 1e300.  df always lies in [1, n_a + n_b - 2],
 * so GSL's distributions are only asked what they can answer; GSL's error
 * handler is off while they are (an answer that is not finite all the
 * same is WELCH_BEYOND, never an abort).  A result a double cannot hold
 * (a difference of values near +-1.8e308, a ratio past 1.8e308) is NaN
 * and `beyond` says so: never infinity, never a wrong finite number.
 *
 * Honest edge cases: fewer than 2 repetitions on a side gives no test
 * (WELCH_TOO_FEW); every repetition equal on both sides, compared exactly,
 * gives the exact difference and no p-value (WELCH_NO_SPREAD); a spread
 * that exists but is below 2^-1074 of the larger sample's scale, or a t
 * past 1.8e308, gives the difference as exact and no p-value either
 * (WELCH_TINY_SPREAD): the difference is certain to a double's precision.
 *
 * Ownership: plain data, nothing to free.
 */
#ifndef GPUPLAN_COMPARE_WELCH_H
#define GPUPLAN_COMPARE_WELCH_H

#include <stdbool.h>
#include <stddef.h>

enum welch_status { WELCH_OK, WELCH_TOO_FEW, WELCH_NO_SPREAD,
		    WELCH_TINY_SPREAD };

struct sample_stats {
	size_t n;
	double mean, sd;	/* sd: n-1 denominator; 0 when n < 2; NaN past
				 * a double's range (values spanning +-1.8e308) */
	bool constant;		/* every value equal, compared exactly */
	/* The same in units of 2^exp2 (at least the largest |value|), which
	 * keep |mean_u| <= 1 and sd_u < 2; exp2 is WELCH_EXP_NONE when
	 * every value is 0. */
	int exp2;
	double mean_u, sd_u;
};

#define WELCH_EXP_NONE (-2000)

struct welch {
	enum welch_status status;
	struct sample_stats before, after;
	double diff, diff_lo, diff_hi;	/* after - before */
	double ratio, ratio_lo, ratio_hi;	/* after / before; NaN when before's mean is 0 */
	double t, df, p;		/* WELCH_OK only */
	bool beyond;	/* a figure that exists is past a double's range: NaN */
};

/* x[0..n) finite (the loaders see to it). */
void sample_stats_of(const double *x, size_t n, struct sample_stats *s);

/* Compares after with before at 95%. */
void welch_compare(const struct sample_stats *before,
		   const struct sample_stats *after, struct welch *w);

#endif

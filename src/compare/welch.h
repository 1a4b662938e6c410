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
 * Honest edge cases: fewer than 2 repetitions on a side gives no test
 * (WELCH_TOO_FEW); no spread on either side gives the exact difference and
 * no p-value (WELCH_NO_SPREAD).
 *
 * Ownership: plain data, nothing to free.
 */
#ifndef GPUPLAN_COMPARE_WELCH_H
#define GPUPLAN_COMPARE_WELCH_H

#include <stddef.h>

enum welch_status { WELCH_OK, WELCH_TOO_FEW, WELCH_NO_SPREAD };

struct sample_stats {
	size_t n;
	double mean, sd;	/* sd: n-1 denominator; 0 when n < 2 */
};

struct welch {
	enum welch_status status;
	struct sample_stats before, after;
	double diff, diff_lo, diff_hi;	/* after - before */
	double ratio, ratio_lo, ratio_hi;	/* after / before; NaN when before's mean is 0 */
	double t, df, p;		/* WELCH_OK only */
};

void sample_stats_of(const double *x, size_t n, struct sample_stats *s);

/* Compares after with before at 95%. */
void welch_compare(const struct sample_stats *before,
		   const struct sample_stats *after, struct welch *w);

#endif

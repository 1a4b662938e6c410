/*
 * test_welch.c - Welch's t-test and the ratio interval (compare/welch.h),
 * on a case worked by hand, and the honest edge cases.
 */
#include <math.h>

#include "check.h"
#include "compare/welch.h"

/*
 * before 10 12 11 13 9: mean 11, sum of squares 10, variance 2.5, /n 0.5
 * after  14 15 13 16 17 15: mean 15, sum of squares 10, variance 2, /n 1/3
 * diff 4; se = sqrt(0.5 + 1/3) = 0.912870929; t = 4.381780460
 * df = (5/6)^2 / (0.5^2/4 + (1/3)^2/5) = 0.694444 / 0.0847222 = 8.196721311
 * SciPy 1.10.1, scipy.stats.ttest_ind(after, before, equal_var=False):
 * statistic 4.3817804600413295, pvalue 0.002210474515509631; the interval
 * (1.10 has no confidence_interval on this result) from
 * scipy.stats.t.ppf(0.975, 8.196721311475407) = 2.29640617665896:
 * 4 -+ 2.29640617665896 x 0.912870929 = 1.9036775597494904, 6.09632244025051.
 * ratio 15/11 = 1.363636; delta method se_r = sqrt(1/3 + r^2 0.5) / 11
 * = 0.102170, times the same t quantile.
 */
#define P_SCIPY 0.002210474515509631
#define CI_SCIPY_LO 1.9036775597494904
#define CI_SCIPY_HI 6.09632244025051

static void hand_case(void)
{
	const double b[] = {10, 12, 11, 13, 9}, a[] = {14, 15, 13, 16, 17, 15};
	struct sample_stats sb, sa;
	sample_stats_of(b, 5, &sb);
	sample_stats_of(a, 6, &sa);
	CHECK_NEAR(sb.mean, 11, 1e-12);
	CHECK_NEAR(sb.sd, sqrt(2.5), 1e-12);
	CHECK_NEAR(sa.sd, sqrt(2.0), 1e-12);
	struct welch w;
	welch_compare(&sb, &sa, &w);
	CHECK(w.status == WELCH_OK);
	CHECK_NEAR(w.diff, 4, 1e-12);
	CHECK_NEAR(w.t, 4.381780460041329, 1e-9);
	CHECK_NEAR(w.df, 8.19672131147541, 1e-9);
	CHECK_NEAR(w.p, P_SCIPY, 1e-8);
	CHECK_NEAR(w.diff_lo, CI_SCIPY_LO, 1e-8);
	CHECK_NEAR(w.diff_hi, CI_SCIPY_HI, 1e-8);
	/* the interval is symmetric about the difference */
	CHECK_NEAR(w.diff_hi - w.diff, w.diff - w.diff_lo, 1e-12);
	double q = (w.diff_hi - w.diff) / sqrt(0.5 + 1.0 / 3);
	CHECK_NEAR(w.ratio, 15.0 / 11, 1e-12);
	CHECK_NEAR(w.ratio_hi - w.ratio, q * 0.1021701, 1e-5);
	CHECK_NEAR(w.ratio - w.ratio_lo, q * 0.1021701, 1e-5);
}

static void too_few(void)
{
	const double b[] = {10}, a[] = {14, 15, 13};
	struct sample_stats sb, sa;
	sample_stats_of(b, 1, &sb);
	sample_stats_of(a, 3, &sa);
	struct welch w;
	welch_compare(&sb, &sa, &w);
	CHECK(w.status == WELCH_TOO_FEW);
	CHECK(isnan(w.p));
	CHECK(isnan(w.diff_lo));
	CHECK_NEAR(w.diff, 4, 1e-12);
}

static void no_spread(void)
{
	const double b[] = {2, 2, 2}, a[] = {3, 3};
	struct sample_stats sb, sa;
	sample_stats_of(b, 3, &sb);
	sample_stats_of(a, 2, &sa);
	struct welch w;
	welch_compare(&sb, &sa, &w);
	CHECK(w.status == WELCH_NO_SPREAD);
	CHECK(isnan(w.p));
	CHECK(w.diff_lo == 1 && w.diff_hi == 1);
	CHECK(w.ratio_lo == 1.5 && w.ratio_hi == 1.5);
}

/* one side without spread: the other's variance and df carry the test */
static void one_side_spread(void)
{
	const double b[] = {10, 10, 10, 10}, a[] = {11, 12, 13};
	struct sample_stats sb, sa;
	sample_stats_of(b, 4, &sb);
	sample_stats_of(a, 3, &sa);
	struct welch w;
	welch_compare(&sb, &sa, &w);
	CHECK(w.status == WELCH_OK);
	/* df = n_a - 1 = 2 exactly; t = 2 / sqrt(1/3) = 3.4641016 */
	CHECK_NEAR(w.df, 2, 1e-12);
	CHECK_NEAR(w.t, 3.4641016151377544, 1e-9);
	/* two-sided p of t=3.4641 at 2 df: 2(1 - F) = 1 - t/sqrt(t^2+2)
	 * = 1 - 3.4641/3.7417 = 0.0741799 (closed form for df 2; SciPy
	 * 1.10.1 ttest_ind(equal_var=False) gives 0.07417990022744853) */
	CHECK_NEAR(w.p, 1 - 3.4641016151377544 / sqrt(12.0 + 2), 1e-9);
}

/* a zero after-mean still has a ratio interval */
static void zero_after(void)
{
	const double b[] = {1, 2, 3}, a[] = {-1, 0, 1};
	struct sample_stats sb, sa;
	sample_stats_of(b, 3, &sb);
	sample_stats_of(a, 3, &sa);
	struct welch w;
	welch_compare(&sb, &sa, &w);
	CHECK(w.ratio == 0);
	CHECK(w.ratio_lo < 0 && w.ratio_hi > 0);
}

int main(void)
{
	hand_case();
	too_few();
	no_spread();
	one_side_spread();
	zero_after();
	return check_summary("welch");
}

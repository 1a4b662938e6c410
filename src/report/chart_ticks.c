/*
 * chart_ticks.c - where an axis puts its ticks: 1-2-5 steps on a linear
 * axis, decades (with 2 and 5 between when few) on a log axis, powers of
 * two for GPU counts; see chart.h (axis_ticks, axis_wants_log) and
 * chart_frame.h (pow2_ticks).
 *
 * Pure arithmetic, no cairo: every function widens [min, max] to the
 * outer ticks it returns, and returns 0 when no tick set fits max_ticks.
 */
#include "chart_frame.h"

#include <math.h>

/* m x 10^e as the double nearest the decimal (a division for e < 0 rounds
 * once, where a multiplication by 0.1 would round twice). */
static double decimal(double m, int e)
{
	return e >= 0 ? m * pow(10, e) : m / pow(10, -e);
}

/* A zero or sub-resolution span gets a width to put ticks on. */
static void widen_degenerate(double *min, double *max)
{
	double mag = fmax(fabs(*min), fabs(*max));
	if (*max - *min > 1e-12 * mag)
		return;
	if (mag == 0) {
		*min = 0;
		*max = 1;
		return;
	}
	*min -= mag / 2;
	*max += mag / 2;
}

/*
 * The smallest 1-2-5 step giving at most max_ticks ticks that cover
 * [min, max]; starts at the power of ten below the even split, so no
 * smaller valid step is skipped.
 */
static size_t linear_ticks(double *min, double *max, double *t,
			   size_t max_ticks)
{
	static const double mant[] = {1, 2, 5};
	widen_degenerate(min, max);
	double raw = (*max - *min) / (double)(max_ticks - 1);
	if (!isfinite(raw))
		return 0;
	int e = (int)floor(log10(raw));
	for (int tries = 0; tries < 8; tries++, e++) {
		for (int i = 0; i < 3; i++) {
			double step = decimal(mant[i], e);
			double lo = floor(*min / step + 1e-9);
			double hi = ceil(*max / step - 1e-9);
			if (hi - lo + 1 > (double)max_ticks)
				continue;
			size_t n = (size_t)(hi - lo) + 1;
			for (size_t j = 0; j < n; j++)
				t[j] = decimal((lo + (double)j) * mant[i], e);
			*min = t[0];
			*max = t[n - 1];
			return n;
		}
	}
	return 0;
}

/* 1, 2 and 5 times powers of ten from the largest <= min to the smallest
 * >= max, decades lo..hi; 0 when more than max_ticks. */
static size_t log_sub_ticks(double *min, double *max, int lo, int hi,
			    double *t, size_t max_ticks)
{
	static const double mant[] = {1, 2, 5};
	double cand[3 * 4 + 1];
	size_t nc = 0, first = 0, last;
	for (int d = lo; d < hi; d++)
		for (int i = 0; i < 3; i++)
			cand[nc++] = decimal(mant[i], d);
	cand[nc++] = decimal(1, hi);
	while (first + 1 < nc && cand[first + 1] <= *min * (1 + 1e-9))
		first++;
	last = first;
	while (last + 1 < nc && cand[last] < *max * (1 - 1e-9))
		last++;
	if (last - first + 1 > max_ticks)
		return 0;
	for (size_t i = first; i <= last; i++)
		t[i - first] = cand[i];
	*min = cand[first];
	*max = cand[last];
	return last - first + 1;
}

/*
 * Every k-th power (of ten or two) covering exponents [lo, hi] in at most
 * max_ticks: multiples of k when some k gives few enough (1, 1e3, 1e6),
 * else k steps from lo (exponents straddling 0 with two ticks).  Returns
 * the count; the first exponent in *first, the step in *k.
 */
static size_t power_steps(double lo, double hi, size_t max_ticks,
			  double *first, double *k)
{
	for (*k = 1; *k <= hi - lo; (*k)++) {
		double a = floor(lo / *k) * *k, b = ceil(hi / *k) * *k;
		if ((b - a) / *k + 1 <= (double)max_ticks) {
			*first = a;
			return (size_t)((b - a) / *k) + 1;
		}
	}
	*k = ceil((hi - lo) / (double)(max_ticks - 1));
	*first = lo;
	return (size_t)ceil((hi - lo) / *k) + 1;
}

/*
 * Decades covering [min, max]; with fewer than three, 2 and 5 between
 * them as well when that many fit.  Too many decades: every k-th one.
 */
static size_t log_ticks(double *min, double *max, double *t,
			size_t max_ticks)
{
	if (!(*max > 0))
		*max = 10;
	if (!(*min > 0) || *min > *max)
		*min = *max / 10;
	double lo = floor(log10(*min) + 1e-9), hi = ceil(log10(*max) - 1e-9);
	double first, k;
	if (hi <= lo)
		hi = lo + 1;
	if (lo < -300 || hi > 300)
		return 0;
	if (hi - lo < 3) {
		size_t n = log_sub_ticks(min, max, (int)lo, (int)hi, t,
					 max_ticks);
		if (n)
			return n;
	}
	size_t n = power_steps(lo, hi, max_ticks, &first, &k);
	for (size_t i = 0; i < n; i++)
		t[i] = decimal(1, (int)(first + k * (double)i));
	*min = t[0];
	*max = t[n - 1];
	return n;
}

size_t axis_ticks(double *min, double *max, bool log, double *ticks,
		  size_t max_ticks)
{
	if (max_ticks < 2 || !isfinite(*min) || !isfinite(*max))
		return 0;
	if (*min > *max) {
		double s = *min;
		*min = *max;
		*max = s;
	}
	return log ? log_ticks(min, max, ticks, max_ticks)
		   : linear_ticks(min, max, ticks, max_ticks);
}

bool axis_wants_log(double min, double max)
{
	return min > 0 && max / min > 100;
}

/*
 * Powers of two covering [min, max] (GPU counts), every k-th power when
 * more than max_ticks; min/max widened to the outer ones.
 */
size_t pow2_ticks(double *min, double *max, double *t, size_t max_ticks)
{
	if (!(*max >= 1))
		*max = 1;
	if (!(*min >= 1) || *min > *max)
		*min = 1;
	double lo = floor(log2(*min) + 1e-9), hi = ceil(log2(*max) - 1e-9);
	double first, k;
	if (hi <= lo)
		hi = lo + 1;
	if (hi > 1000)
		return 0;
	size_t n = power_steps(lo, hi, max_ticks, &first, &k);
	for (size_t i = 0; i < n; i++)
		t[i] = ldexp(1, (int)(first + k * (double)i));
	*min = t[0];
	*max = t[n - 1];
	return n;
}

/*
 * chart_ticks.c - where an axis puts its ticks: 1-2-5 steps on a linear
 * axis, decades (with 2 and 5 between when few) on a log axis, powers of
 * two for GPU counts; see chart.h (axis_ticks, axis_wants_log) and
 * chart_ticks.h (pow2_ticks).
 *
 * Pure arithmetic, no cairo: every function widens [min, max] to the
 * outer ticks it returns, and returns 0 (leaving min and max as they
 * came) when no tick set fits max_ticks.
 *
 * Any finite input is safe, whatever a hand-edited plan holds: zero and
 * subnormal spans, 1e308, min = max, negative values.  Every exponent is
 * computed from a normal, finite double and clamped before it is cast to
 * int; every tick set is checked (finite, strictly increasing, at most
 * max_ticks) before it is returned, so a caller's buffer of max_ticks
 * values is never overrun and never holds an infinity or a NaN.
 */
#include "chart_ticks.h"

#include <float.h>
#include <math.h>

#include "chart.h"

/*
 * A linear span narrower than this is widened before ticks are put on it:
 * its 1-2-5 steps would be subnormal (digits lost, 10^e overflowing for
 * the e they need).  Magnitudes below it count as zero.
 */
#define LINEAR_SPAN_MIN 1e-290

/* Exponents the ticks themselves may take: 10^e and 2^e stay normal and
 * finite. */
#define DECADE_EXP_MIN -307
#define DECADE_EXP_MAX 308
#define POW2_EXP_MAX 1023

/* m x 10^e as the double nearest the decimal (a division for e < 0 rounds
 * once, where a multiplication by 0.1 would round twice).  0 or an
 * infinity when e is past what a double holds; callers check. */
static double decimal(double m, int e)
{
	return e >= 0 ? m * pow(10, e) : m / pow(10, -e);
}

/* True when t[0..n) is a usable tick set: at least two, at most max,
 * finite and strictly increasing (and above zero on a log axis). */
static bool ticks_sane(const double *t, size_t n, size_t max, bool positive)
{
	if (n < 2 || n > max || (positive && !(t[0] > 0)))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(t[i]) || (i > 0 && !(t[i] > t[i - 1])))
			return false;
	return true;
}

/*
 * A zero, sub-resolution or sub-LINEAR_SPAN_MIN span gets a width to put
 * ticks on: half its magnitude either side, or, for magnitudes that count
 * as zero, [0, 1] on the side of zero the values are on.  False when the
 * widened range is not finite (values near DBL_MAX).
 */
static bool widen_degenerate(double *min, double *max)
{
	double mag = fmax(fabs(*min), fabs(*max));
	double half = *max / 2 - *min / 2;	/* never overflows */
	if (half > 0.5e-12 * mag && half >= LINEAR_SPAN_MIN / 2)
		return true;
	if (mag < LINEAR_SPAN_MIN) {
		*min = *min < 0 ? -1 : 0;
		*max = *max > 0 || *min == 0 ? 1 : 0;
		return true;
	}
	*min -= mag / 2;
	*max += mag / 2;
	return isfinite(*min) && isfinite(*max);
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
	double lo_in = *min, hi_in = *max;
	if (!widen_degenerate(min, max))
		goto none;
	/* the even split, from half the span: max - min may overflow */
	double raw = (*max / 2 - *min / 2) / ((double)(max_ticks - 1) / 2);
	if (!(raw >= DBL_MIN) || !isfinite(raw))
		goto none;
	int e = (int)floor(log10(raw));	/* raw normal: e in [-308, 308] */
	for (int tries = 0; tries < 8; tries++, e++) {
		for (int i = 0; i < 3; i++) {
			double step = decimal(mant[i], e);
			if (!(step > 0) || !isfinite(step))
				continue;
			double lo = floor(*min / step + 1e-9);
			double hi = ceil(*max / step - 1e-9);
			if (!(hi > lo) || !(hi - lo + 1 <= (double)max_ticks))
				continue;
			size_t n = (size_t)(hi - lo) + 1;
			for (size_t j = 0; j < n; j++)
				t[j] = decimal((lo + (double)j) * mant[i], e);
			if (!ticks_sane(t, n, max_ticks, false))
				continue;
			*min = t[0];
			*max = t[n - 1];
			return n;
		}
	}
none:
	*min = lo_in;
	*max = hi_in;
	return 0;
}

/* 1, 2 and 5 times powers of ten from the largest <= min to the smallest
 * >= max, decades lo..hi (hi - lo <= 3); 0 when more than max_ticks. */
static size_t log_sub_ticks(double *min, double *max, int lo, int hi,
			    double *t, size_t max_ticks)
{
	static const double mant[] = {1, 2, 5};
	double cand[3 * 3 + 1];
	size_t nc = 0, first = 0, last;
	for (int d = lo; d < hi && nc + 3 < sizeof(cand) / sizeof(cand[0]); d++)
		for (int i = 0; i < 3; i++)
			cand[nc++] = decimal(mant[i], d);
	cand[nc++] = decimal(1, hi);
	while (first + 1 < nc && cand[first + 1] <= *min * (1 + 1e-9))
		first++;
	last = first;
	while (last + 1 < nc && cand[last] < *max * (1 - 1e-9))
		last++;
	if (last - first + 1 > max_ticks ||
	    !ticks_sane(cand + first, last - first + 1, max_ticks, true))
		return 0;
	for (size_t i = first; i <= last; i++)
		t[i - first] = cand[i];
	*min = cand[first];
	*max = cand[last];
	return last - first + 1;
}

/*
 * Every k-th power (of ten or two) covering exponents [lo, hi] in at most
 * max_ticks, every exponent within [emin, emax]: multiples of k when some
 * k gives few enough (1, 1e3, 1e6), else k steps from lo (or ending at
 * emax when they would pass it).  Returns the count; the first exponent
 * in *first, the step in *k.  lo < hi, both within [emin, emax].
 */
static size_t power_steps(double lo, double hi, double emin, double emax,
			  size_t max_ticks, double *first, double *k)
{
	for (*k = 1; *k <= hi - lo; (*k)++) {
		double a = floor(lo / *k) * *k, b = ceil(hi / *k) * *k;
		if (a >= emin && b <= emax &&
		    (b - a) / *k + 1 <= (double)max_ticks) {
			*first = a;
			return (size_t)((b - a) / *k) + 1;
		}
	}
	*k = ceil((hi - lo) / (double)(max_ticks - 1));
	size_t n = (size_t)ceil((hi - lo) / *k) + 1;
	*first = lo;
	if (lo + *k * (double)(n - 1) > emax)
		*first = emax - *k * (double)(n - 1);
	return n;
}

/*
 * Decades covering [min, max]; with fewer than three, 2 and 5 between
 * them as well when that many fit.  Too many decades: every k-th one.
 * A log axis shows 1e-300 to 1e300 (axis_wants_log): values beyond are
 * off it, so the decades are clamped to that range.
 */
static size_t log_ticks(double *min, double *max, double *t,
			size_t max_ticks)
{
	double lo_in = *min, hi_in = *max;
	if (!(*max > 0))
		*max = 10;
	if (!(*min > 0) || *min > *max)
		*min = *max / 10;
	double lo = floor(log10(*min) + 1e-9), hi = ceil(log10(*max) - 1e-9);
	double first, k;
	lo = fmin(fmax(lo, -300), 299);
	hi = fmin(fmax(hi, lo + 1), 300);
	if (hi - lo < 3) {
		size_t n = log_sub_ticks(min, max, (int)lo, (int)hi, t,
					 max_ticks);
		if (n)
			return n;
	}
	size_t n = power_steps(lo, hi, DECADE_EXP_MIN, DECADE_EXP_MAX,
			       max_ticks, &first, &k);
	for (size_t i = 0; i < n && i < max_ticks; i++)
		t[i] = decimal(1, (int)(first + k * (double)i));
	if (!ticks_sane(t, n, max_ticks, true)) {
		*min = lo_in;
		*max = hi_in;
		return 0;
	}
	*min = t[0];
	*max = t[n - 1];
	return n;
}

size_t axis_ticks(double *min, double *max, bool log, double *ticks,
		  size_t max_ticks)
{
	double lo_in = *min, hi_in = *max;
	if (max_ticks < 2 || !isfinite(*min) || !isfinite(*max))
		return 0;
	if (*min > *max) {
		*min = hi_in;
		*max = lo_in;
	}
	size_t n = log ? log_ticks(min, max, ticks, max_ticks)
		       : linear_ticks(min, max, ticks, max_ticks);
	if (n == 0) {
		*min = lo_in;
		*max = hi_in;
	}
	return n;
}

bool axis_wants_log(double min, double max)
{
	return min >= AXIS_LOG_MIN && max <= AXIS_LOG_MAX && max / min > 100;
}

/*
 * Powers of two covering [min, max] (GPU counts), every k-th power when
 * more than max_ticks; min/max widened to the outer ones.  Counts past
 * 2^1000 are off the axis.
 */
size_t pow2_ticks(double *min, double *max, double *t, size_t max_ticks)
{
	double lo_in = *min, hi_in = *max;
	if (max_ticks < 2 || !isfinite(*min) || !isfinite(*max))
		return 0;
	if (!(*max >= 1))
		*max = 1;
	if (!(*min >= 1) || *min > *max)
		*min = 1;
	double lo = floor(log2(*min) + 1e-9), hi = ceil(log2(*max) - 1e-9);
	double first, k;
	lo = fmin(lo, 999);
	hi = fmin(fmax(hi, lo + 1), 1000);
	size_t n = power_steps(lo, hi, 0, POW2_EXP_MAX, max_ticks, &first, &k);
	for (size_t i = 0; i < n && i < max_ticks; i++)
		t[i] = ldexp(1, (int)(first + k * (double)i));
	if (!ticks_sane(t, n, max_ticks, true)) {
		*min = lo_in;
		*max = hi_in;
		return 0;
	}
	*min = t[0];
	*max = t[n - 1];
	return n;
}

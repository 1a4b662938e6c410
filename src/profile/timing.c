/*
 * timing.c - summarising repetitions and counting discarded readings; see
 * timing.h.  The loop that takes them is bench/measure.c.
 */
#include "profile/timing.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/describe.h"
#include "core/sort_doubles.h"
#include "core/xalloc.h"

struct measure_policy measure_policy_default(void)
{
	return (struct measure_policy){2, 10, 1000, 0.02, 5.0, NULL};
}

size_t measure_ci_index(size_t n)
{
	/* largest j with P(B <= j - 1) <= 0.025, B ~ Binomial(n, 1/2); GSL's
	 * handler off, so a value it cannot give ends the search (NaN fails
	 * the test) instead of the process */
	if (n > UINT_MAX)
		n = UINT_MAX;
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	size_t j = 0;
	while (j < n / 2 && gsl_cdf_binomial_P((unsigned)j, 0.5, (unsigned)n) <= 0.025)
		j++;
	gsl_set_error_handler(old);
	return j;
}

/* The median of sorted s as describe_median_sorted gives it (profiles on
 * disk hold that, compared exactly), save that two middle times near
 * 1.8e308 s are halved before they are added rather than summed past a
 * double. */
static double median_sorted(const double *s, size_t n)
{
	double m = describe_median_sorted(s, n);
	if (isfinite(m))
		return m;
	return s[n / 2 - 1] / 2 + s[n / 2] / 2;
}

/* Mean and standard deviation in units of a power of two at least the
 * largest time, so neither the sum nor the squares leave a double. */
static void spread(const double *s, size_t n, double *mean, double *sd)
{
	int e = 0;
	frexp(s[n - 1], &e);
	double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		sum += ldexp(s[i], -e);
	double m = sum / (double)n;
	for (size_t i = 0; i < n && n > 1; i++) {
		double d = ldexp(s[i], -e) - m;
		sq += d * d;
	}
	*mean = ldexp(m, e);
	*sd = n > 1 ? ldexp(sqrt(sq / (double)(n - 1)), e) : 0;
}

void measure_summarise(struct measure_result *r)
{
	size_t n = r->n;
	r->median = r->ci_low = r->ci_high = r->min = r->max = r->mean = r->stddev = 0;
	r->has_ci = false;
	if (n == 0)
		return;
	double *s = xcalloc(n, sizeof(double));
	memcpy(s, r->samples, n * sizeof(double));
	sort_doubles(s, n);
	r->min = s[0];
	r->max = s[n - 1];
	r->median = median_sorted(s, n);
	spread(s, n, &r->mean, &r->stddev);
	size_t j = measure_ci_index(n);
	r->has_ci = j > 0;
	r->ci_low = r->has_ci ? s[j - 1] : r->median;
	r->ci_high = r->has_ci ? s[n - j] : r->median;
	free(s);
}

bool measure_reading_good(double seconds)
{
	return isfinite(seconds) && seconds >= DBL_MIN;
}

void measure_reject(struct measure_result *r, double seconds)
{
	r->rejected++;
	r->rejected_kinds |= !isfinite(seconds) ? MEASURE_REJECTED_NON_FINITE
			     : seconds < 0 ? MEASURE_REJECTED_NEGATIVE
			     : seconds == 0 ? MEASURE_REJECTED_ZERO
					    : MEASURE_REJECTED_SUBNORMAL;
}

void measure_rejected_names(unsigned kinds, char *buf, size_t len)
{
	static const struct { unsigned bit; const char *name; } k[] = {
		{MEASURE_REJECTED_NEGATIVE, "negative"},
		{MEASURE_REJECTED_ZERO, "zero"},
		{MEASURE_REJECTED_NON_FINITE, "not finite"},
		{MEASURE_REJECTED_SUBNORMAL, "subnormal (below 2.2e-308 s)"},
	};
	size_t at = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]) && at < len; i++)
		if (kinds & k[i].bit)
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? ", " : "", k[i].name);
}

void measure_result_free(struct measure_result *r)
{
	free(r->samples);
	memset(r, 0, sizeof(*r));
}

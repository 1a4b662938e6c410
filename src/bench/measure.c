#include "measure.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/xalloc.h"

struct measure_policy measure_policy_default(void)
{
	return (struct measure_policy){2, 10, 1000, 0.02, 5.0, NULL};
}

static double monotonic_s(void *ctx)
{
	(void)ctx;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

size_t measure_ci_index(size_t n)
{
	/* largest j with P(B <= j - 1) <= 0.025, B ~ Binomial(n, 1/2) */
	size_t j = 0;
	while (j < n / 2 && gsl_cdf_binomial_P((unsigned)j, 0.5, (unsigned)n) <= 0.025)
		j++;
	return j;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
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
	qsort(s, n, sizeof(double), by_value);
	r->min = s[0];
	r->max = s[n - 1];
	r->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	r->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (s[i] - r->mean) * (s[i] - r->mean);
	r->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	size_t j = measure_ci_index(n);
	r->has_ci = j > 0;
	r->ci_low = r->has_ci ? s[j - 1] : r->median;
	r->ci_high = r->has_ci ? s[n - j] : r->median;
	free(s);
}

/* The interval is tight enough: both ends within rel of the median. */
static bool tight(const struct measure_result *r, double rel)
{
	if (!r->has_ci || !(r->median > 0))
		return false;
	double half = fmax(r->median - r->ci_low, r->ci_high - r->median);
	return half <= rel * r->median;
}

bool measure_reading_good(double seconds)
{
	return isfinite(seconds) && seconds > 0;
}

void measure_reject(struct measure_result *r, double seconds)
{
	r->rejected++;
	r->rejected_kinds |= !isfinite(seconds) ? MEASURE_REJECTED_NON_FINITE
			     : seconds < 0 ? MEASURE_REJECTED_NEGATIVE
					   : MEASURE_REJECTED_ZERO;
}

void measure_rejected_names(unsigned kinds, char *buf, size_t len)
{
	static const struct { unsigned bit; const char *name; } k[] = {
		{MEASURE_REJECTED_NEGATIVE, "negative"},
		{MEASURE_REJECTED_ZERO, "zero"},
		{MEASURE_REJECTED_NON_FINITE, "not finite"},
	};
	size_t at = 0;
	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]) && at < len; i++)
		if (kinds & k[i].bit)
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? ", " : "", k[i].name);
}

/*
 * Every attempt, good or not, counts against the cap, so a timer that
 * only ever lies ends the loop after max_reps attempts.  The stopping
 * rules look at good samples only.
 */
int measure_run(const struct measure_policy *p, measure_rep_fn rep, void *ctx,
		struct measure_result *r, char *why, size_t len)
{
	double (*clock)(void *) = p->clock ? p->clock : monotonic_s;
	memset(r, 0, sizeof(*r));
	double t;
	for (int i = 0; i < p->warmup; i++) {
		if (rep(ctx, &t, why, len) < 0)
			return -1;
		if (!measure_reading_good(t))
			measure_reject(r, t);
	}
	size_t cap = p->max_reps > 0 ? (size_t)p->max_reps : 1;
	r->samples = xcalloc(cap, sizeof(double));
	double start = clock(ctx);
	int rc = 0;
	for (size_t attempts = 0; attempts < cap; attempts++) {
		if (rep(ctx, &t, why, len) < 0) {
			rc = -1;
			break;
		}
		r->elapsed_s = clock(ctx) - start;
		if (!measure_reading_good(t)) {
			measure_reject(r, t);
			continue;
		}
		r->samples[r->n++] = t;
		if ((int)r->n < p->min_reps)
			continue;
		measure_summarise(r);
		if (tight(r, p->rel_half_width)) {
			r->converged = true;
			break;
		}
		if (r->elapsed_s >= p->time_cap_s)
			break;
	}
	measure_summarise(r);
	r->too_few = r->rejected > 0 && (int)r->n < p->min_reps;
	r->converged = r->converged && rc == 0 && !r->too_few;
	return rc;
}

void measure_result_free(struct measure_result *r)
{
	free(r->samples);
	memset(r, 0, sizeof(*r));
}

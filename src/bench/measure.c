#include "measure.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "core/xalloc.h"

static double monotonic_s(void *ctx)
{
	(void)ctx;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The interval is tight enough: both ends within rel of the median. */
static bool tight(const struct measure_result *r, double rel)
{
	if (!r->has_ci || !(r->median > 0))
		return false;
	double half = fmax(r->median - r->ci_low, r->ci_high - r->median);
	return half <= rel * r->median;
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

double sustain_default_s(bool gpu, bool quick)
{
	if (gpu)
		return quick ? 4 : 20;
	return quick ? 0.25 : 1;
}

struct sustain_policy sustain_policy_of(double seconds)
{
	return (struct sustain_policy){seconds / 2, seconds / 2, 6, 4000, 0.02,
				       NULL};
}

/* Runs rep for settle_s: the settle part, its readings discarded (bad
 * ones counted in r).  A part's time is the larger of the clock's and the
 * device's own (the sum of its good readings): a simulated device's
 * readings are not the host's time. */
static int settle(const struct sustain_policy *p, double (*clock)(void *),
		  measure_rep_fn rep, void *ctx, struct measure_result *r,
		  char *why, size_t len)
{
	double start = clock(ctx), busy = 0, t;
	while (fmax(clock(ctx) - start, busy) < p->settle_s) {
		if (rep(ctx, &t, why, len) < 0)
			return -1;
		if (!measure_reading_good(t))
			measure_reject(r, t);
		else
			busy += t;
	}
	return 0;
}

int measure_sustained(const struct sustain_policy *p, measure_rep_fn rep,
		      void *ctx, struct measure_result *r, char *why,
		      size_t len)
{
	double (*clock)(void *) = p->clock ? p->clock : monotonic_s;
	memset(r, 0, sizeof(*r));
	if (settle(p, clock, rep, ctx, r, why, len) < 0)
		return -1;
	size_t cap = p->max_reps > 0 ? (size_t)p->max_reps : 1, have = 64;
	r->samples = xcalloc(have, sizeof(double));
	double start = clock(ctx), busy = 0, t;
	int rc = 0;
	for (size_t attempts = 0; attempts < cap; attempts++) {
		if (fmax(r->elapsed_s, busy) >= p->steady_s && (int)r->n >= p->min_reps)
			break;
		if (rep(ctx, &t, why, len) < 0) {
			rc = -1;
			break;
		}
		r->elapsed_s = clock(ctx) - start;
		if (!measure_reading_good(t)) {
			measure_reject(r, t);
			continue;
		}
		xgrow((void **)&r->samples, &have, r->n + 1, sizeof(double));
		r->samples[r->n++] = t;
		busy += t;
	}
	measure_summarise(r);
	r->too_few = r->rejected > 0 && (int)r->n < p->min_reps;
	r->converged = rc == 0 && !r->too_few && tight(r, p->rel_half_width);
	return rc;
}

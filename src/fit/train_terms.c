/*
 * train_terms.c - a profile's training suites as the model's terms; see
 * train_terms.h.
 */
#include "fit/train_terms.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#include "profile/profile.h"

/* ---- derived values ---- */

void train_matmul_derive(struct train_matmul *m)
{
	double work = 0, t = 0, t_fast = 0, t_slow = 0;
	for (size_t i = 0; i < m->n; i++) {
		const struct train_point *p = &m->v[i];
		double w = 2.0 * (double)p->m * (double)p->n * (double)p->k *
			   (double)p->occurrences;
		work += w;
		t += w / p->rate;
		t_fast += w / p->high;
		t_slow += w / p->low;
	}
	m->rate = t > 0 ? work / t : 0;
	m->low = t_slow > 0 ? work / t_slow : 0;
	m->high = t_fast > 0 ? work / t_fast : 0;
}

void train_overlap_derive(struct train_overlap *o)
{
	o->slowdown = o->alone / o->with - 1;
	o->low = o->alone_low / o->with_high - 1;
	o->high = o->alone_high / o->with_low - 1;
}

/* df / chi2(p, df) with GSL's handler off: NaN (never an abort) if GSL
 * cannot answer; df >= 1 here (2 GPUs or more). */
static double chisq_ratio(double p, double df)
{
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	double q = gsl_cdf_chisq_Pinv(p, df);
	gsl_set_error_handler(old);
	return q > 0 ? df / q : NAN;
}

void train_spread_derive(struct train_spread *s)
{
	/* in units of a power of two at least the largest rate, so that
	 * rates near 1.8e308 neither sum nor square out of range */
	double top = 0;
	int slowest = 0, e = 0;
	for (int i = 0; i < s->n; i++) {
		top = fmax(top, s->rate[i]);
		if (s->rate[i] < s->rate[slowest])
			slowest = i;
	}
	frexp(top, &e);
	double sum = 0, sq = 0;
	for (int i = 0; i < s->n; i++)
		sum += ldexp(s->rate[i], -e);
	double mean_u = sum / s->n;
	for (int i = 0; i < s->n; i++) {
		double d = ldexp(s->rate[i], -e) - mean_u;
		sq += d * d;
	}
	double df = s->n - 1, sd_u = df > 0 ? sqrt(sq / df) : 0;
	s->mean = ldexp(mean_u, e);
	s->cv = mean_u > 0 ? sd_u / mean_u : 0;
	/* sd x sqrt(df / chi2): the upper quantile gives the low end */
	s->low = df > 0 ? s->cv * sqrt(chisq_ratio(0.975, df)) : s->cv;
	s->high = df > 0 ? s->cv * sqrt(chisq_ratio(0.025, df)) : s->cv;
	s->slowest = s->gpu[slowest];
}

/* ---- from a profile ---- */

/* Why f cannot be used, or NULL. */
static const char *unusable(const struct bench_figure *f)
{
	if (f->disturbed[0])
		return "measured on a busy host";
	if (f->time.too_few || f->time.n == 0)
		return "too few good repetitions";
	return NULL;
}

/* Counts a figure left out of a term, its reason joined to why once. */
struct left {
	size_t n, of;
	char why[160];
};

static void leave(struct left *l, const char *why)
{
	l->n++;
	if (strstr(l->why, why))
		return;
	size_t at = strlen(l->why);
	snprintf(l->why + at, sizeof(l->why) - at, "%s%s", at ? "; " : "", why);
}

/* A term with figures left out is not given: why says how many, why. */
static bool complete(const struct left *l, const char *suite, char *why,
		     size_t len)
{
	if (!l->of) {
		snprintf(why, len, "no %s figure in the profile", suite);
		return false;
	}
	if (!l->n)
		return true;
	snprintf(why, len, "%zu of %zu %s figure%s left out: %.120s", l->n, l->of,
		 suite, l->of == 1 ? "" : "s", l->why);
	return false;
}

static void take_matmul(const struct bench_profile *p, struct train_matmul *m)
{
	struct left l = {0};
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *f = &p->figures.v[i];
		if (strcmp(f->suite, "train-gemm"))
			continue;
		l.of++;
		const char *why = unusable(f);
		if (why || m->n == TRAIN_TERMS_MAX_POINTS) {
			leave(&l, why ? why : "more figures than a term holds");
			continue;
		}
		struct train_point *x = &m->v[m->n++];
		snprintf(x->role, sizeof(x->role), "%s", f->kernel);
		x->m = f->m;
		x->n = f->n;
		x->k = f->k;
		x->occurrences = f->occurrences > 0 ? f->occurrences : 1;
		x->rate = f->value;
		x->low = f->low;
		x->high = f->high;
		x->clock_hz = f->clocks.has_sm_clock ? f->clocks.sm_clock_median_hz : 0;
		m->throttle |= f->clocks.throttle;
		snprintf(m->precision, sizeof(m->precision), "%s", f->precision);
	}
	m->ok = complete(&l, "train-gemm", m->why, sizeof(m->why));
	if (m->ok)
		train_matmul_derive(m);
}

/* "allreduce x 8 GPUs", "d2d copy" or "memcpy", from a beside figure. */
static void beside_of(const struct bench_figure *f, char *out, size_t len)
{
	const char *b = strstr(f->name, " beside ");
	if (b && !strcmp(b + 8, "allreduce"))
		snprintf(out, len, "allreduce x %d GPUs", f->gpus);
	else
		snprintf(out, len, "%s", b ? b + 8 : "?");
}

static void take_overlap(const struct bench_profile *p, struct train_overlap *o)
{
	struct left l = {0};
	bool alone = false, with = false;
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *f = &p->figures.v[i];
		if (strcmp(f->suite, "overlap"))
			continue;
		l.of++;
		const char *why = unusable(f);
		if (why) {
			leave(&l, why);
			continue;
		}
		if (strstr(f->name, " beside ")) {
			o->with = f->value;
			o->with_low = f->low;
			o->with_high = f->high;
			beside_of(f, o->beside, sizeof(o->beside));
			with = true;
		} else {
			o->alone = f->value;
			o->alone_low = f->low;
			o->alone_high = f->high;
			alone = true;
		}
	}
	o->ok = complete(&l, "overlap", o->why, sizeof(o->why));
	if (o->ok && !(alone && with)) {
		o->ok = false;
		snprintf(o->why, sizeof(o->why), "the profile has the GEMM %s only",
			 alone ? "alone" : "beside a collective");
	}
	if (o->ok)
		train_overlap_derive(o);
}

static void take_spread(const struct bench_profile *p, struct train_spread *s)
{
	struct left l = {0};
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *f = &p->figures.v[i];
		if (strcmp(f->suite, "spread"))
			continue;
		l.of++;
		const char *why = unusable(f);
		if (why || s->n == TRAIN_TERMS_MAX_GPUS) {
			leave(&l, why ? why : "more GPUs than a term holds");
			continue;
		}
		s->gpu[s->n] = f->gpu;
		s->rate[s->n++] = f->value;
	}
	s->ok = complete(&l, "spread", s->why, sizeof(s->why));
	if (!l.of)
		snprintf(s->why, sizeof(s->why),
			 "no spread figure: the spread across GPUs needs a node's GPUs (one device, or the CPU, has none)");
	if (s->ok && s->n < 2) {
		s->ok = false;
		snprintf(s->why, sizeof(s->why), "one GPU's figure: a spread needs two");
	}
	if (s->ok)
		train_spread_derive(s);
}

static void take_layer(const struct bench_profile *p, struct train_layer *y)
{
	struct left l = {0};
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *f = &p->figures.v[i];
		if (strcmp(f->suite, "layer"))
			continue;
		l.of++;
		const char *why = unusable(f);
		if (why) {
			leave(&l, why);
			continue;
		}
		double calls = (double)(f->iterations > 0 ? f->iterations : 1);
		snprintf(y->precision, sizeof(y->precision), "%s", f->precision);
		y->batch = f->batch;
		y->seq = f->seq;
		y->seconds = f->time.median / calls;
		y->low = f->time.ci_low / calls;
		y->high = f->time.ci_high / calls;
	}
	y->ok = complete(&l, "layer", y->why, sizeof(y->why));
}

bool train_terms_from_profile(const struct bench_profile *p,
			      const char *source, struct train_terms *out)
{
	memset(out, 0, sizeof(*out));
	bool ran = false;
	for (size_t i = 0; i < p->n_suites; i++)
		ran |= bench_suite_sustained(p->suites[i]);
	if (!ran)
		return false;
	snprintf(out->source, sizeof(out->source), "%s", source);
	snprintf(out->device, sizeof(out->device), "%s: %s", p->device.kind,
		 p->device.name);
	snprintf(out->measured, sizeof(out->measured), "%s", p->when);
	snprintf(out->model, sizeof(out->model), "%s", p->model_name);
	out->micro_batch = p->train_micro_batch;
	out->tp = p->train_tp;
	out->sustain_s = p->sustain_s;
	take_matmul(p, &out->matmul);
	take_overlap(p, &out->overlap);
	take_spread(p, &out->spread);
	take_layer(p, &out->layer);
	return true;
}

bool train_terms_any(const struct train_terms *t)
{
	return t->matmul.ok || t->overlap.ok || t->spread.ok || t->layer.ok;
}

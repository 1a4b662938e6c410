/*
 * curves.c - series of figures from a measured profile, each fitted; see
 * curves.h.
 */
#include "curves.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "profile/profile.h"
#include "profile/stream_rule.h"

static const struct curve_form forms[CURVE_KINDS] = {
	[CURVE_TRANSFER] = {"transfer", FIT_LINE, "bytes", "s",
			    {"latency_s", "s_per_byte"},
			    {FIT_NONNEGATIVE, FIT_POSITIVE},
			    "t = latency_s + bytes x s_per_byte"},
	[CURVE_STEP_TIME] = {"step_time", FIT_LINE, "batch", "s",
			     {"fixed_s", "per_sample_s"},
			     {FIT_NONNEGATIVE, FIT_POSITIVE},
			     "t = fixed_s + batch x per_sample_s"},
	[CURVE_STEP_MEMORY] = {"step_memory", FIT_LINE, "batch", "bytes",
			       {"fixed_bytes", "per_sample_bytes"},
			       {FIT_NONNEGATIVE, FIT_NONNEGATIVE},
			       "m = fixed_bytes + batch x per_sample_bytes"},
	[CURVE_GEMM] = {"gemm", FIT_SATURATING, "n", "FLOP/s",
			{"peak_flop_per_s", "half_n"},
			{FIT_POSITIVE, FIT_POSITIVE},
			"rate = peak_flop_per_s x n / (n + half_n)"},
	[CURVE_SCALING] = {"scaling", FIT_INVERSE, "ranks", "s",
			   {"fixed_s", "parallel_s"},
			   {FIT_NONNEGATIVE, FIT_POSITIVE},
			   "t = fixed_s + parallel_s / ranks"},
	[CURVE_MEMBW_MEMORY] = {"membw_memory", FIT_LINE, "bytes", "s",
				{"latency_s", "s_per_byte"},
				{FIT_NONNEGATIVE, FIT_POSITIVE},
				"t = latency_s + bytes x s_per_byte"},
	[CURVE_COLLECTIVE] = {"collective", FIT_LINE, "bus bytes", "s",
			      {"latency_s", "s_per_byte"},
			      {FIT_NONNEGATIVE, FIT_POSITIVE},
			      "t = latency_s + bus_bytes x s_per_byte"},
	[CURVE_MEMBW] = {"membw", FIT_SATURATING, "bytes", "B/s",
			 {"peak_bytes_per_s", "half_bytes"},
			 {FIT_POSITIVE, FIT_POSITIVE},
			 "rate = peak_bytes_per_s x bytes / (bytes + half_bytes)"},
};

const struct curve_form *curve_form(enum curve_kind k)
{
	return &forms[k];
}

int curve_kind_of(const char *name)
{
	for (int k = 0; k < CURVE_KINDS; k++)
		if (!strcmp(forms[k].kind, name))
			return k;
	return -1;
}

struct scaling_curve *curve_list_add(struct curve_list *l)
{
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	struct scaling_curve *c = &l->v[l->n++];
	memset(c, 0, sizeof(*c));
	return c;
}

struct measured_rate *curve_list_add_rate(struct curve_list *l)
{
	xgrow((void **)&l->rates, &l->cap_rates, l->n_rates + 1, sizeof(*l->rates));
	struct measured_rate *r = &l->rates[l->n_rates++];
	memset(r, 0, sizeof(*r));
	return r;
}

struct train_terms *curve_list_add_train(struct curve_list *l)
{
	xgrow((void **)&l->train, &l->cap_train, l->n_train + 1, sizeof(*l->train));
	struct train_terms *t = &l->train[l->n_train++];
	memset(t, 0, sizeof(*t));
	return t;
}

void curve_list_free(struct curve_list *l)
{
	free(l->train);
	free(l->rates);
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].x);
		free(l->v[i].y);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* ---- series ---- */

/* The series of kind k named name in l (made when new). */
static struct scaling_curve *series(struct curve_list *l, size_t first,
			    enum curve_kind k, const char *name,
			    const char *source, const struct bench_profile *p)
{
	for (size_t i = first; i < l->n; i++)
		if (l->v[i].kind == k && !strcmp(l->v[i].name, name))
			return &l->v[i];
	struct scaling_curve *c = curve_list_add(l);
	c->kind = k;
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->source, sizeof(c->source), "%s", source);
	snprintf(c->device, sizeof(c->device), "%s: %s", p->device.kind,
		 p->device.name);
	snprintf(c->measured, sizeof(c->measured), "%s", p->when);
	return c;
}

static void add_point(struct scaling_curve *c, double x, double y)
{
	c->x = xrealloc(c->x, (c->n + 1) * sizeof(double));
	c->y = xrealloc(c->y, (c->n + 1) * sizeof(double));
	c->x[c->n] = x;
	c->y[c->n++] = y;
}

/* Why figure f is not a point, or NULL. */
static const char *unusable(const struct bench_figure *f)
{
	if (f->disturbed[0])
		return "measured on a busy host";
	if (f->throttled)
		return "measured while the GPU throttled";
	if (f->time.too_few || f->time.n == 0)
		return "too few good repetitions";
	return NULL;
}

static void leave_out(struct scaling_curve *c, const char *why)
{
	c->left_out++;
	if (strstr(c->left_out_why, why))
		return;
	size_t at = strlen(c->left_out_why);
	snprintf(c->left_out_why + at, sizeof(c->left_out_why) - at, "%s%s",
		 at ? "; " : "", why);
}

/* v (a time or work of one repetition) per call of the kernel. */
static double per_call(const struct bench_figure *f, double v)
{
	return v / (double)(f->iterations > 0 ? f->iterations : 1);
}

/* Keeps figure f as a measured rate, or says why it is not one. */
static void add_rate(struct curve_list *l, const struct bench_profile *p,
		     const struct bench_figure *f, const char *source)
{
	struct measured_rate *r = curve_list_add_rate(l);
	snprintf(r->name, sizeof(r->name), "%s", f->name);
	snprintf(r->source, sizeof(r->source), "%s", source);
	snprintf(r->device, sizeof(r->device), "%s: %s", p->device.kind,
		 p->device.name);
	snprintf(r->measured, sizeof(r->measured), "%s", p->when);
	snprintf(r->unit, sizeof(r->unit), "%s", f->unit ? f->unit : "");
	r->value = f->value;
	r->low = f->low;
	r->high = f->high;
	const char *why = unusable(f);
	r->ok = !why && f->value > 0;
	snprintf(r->why, sizeof(r->why), "%s", why ? why : r->ok ? "" : "no rate");
}

/* Puts f on its series (or two, for a model step), or leaves it out. */
static void place(struct curve_list *l, size_t first,
		  const struct bench_profile *p, const struct bench_figure *f,
		  const char *source)
{
	char name[96];
	struct scaling_curve *c[2] = {NULL, NULL};
	double x = 0, y[2] = {0, 0};
	bool gpu = strcmp(p->device.kind, "cpu") != 0;
	if (!strcmp(f->suite, "transfer")) {
		snprintf(name, sizeof(name), "transfer %s", f->kernel);
		c[0] = series(l, first, CURVE_TRANSFER, name, source, p);
		x = f->bytes;
		y[0] = per_call(f, f->time.median);
	} else if (!strcmp(f->suite, "model")) {
		snprintf(name, sizeof(name), "model %s %s step time", p->model_name,
			 f->precision);
		/* by index: making the second series may move the list */
		size_t time_at = (size_t)(series(l, first, CURVE_STEP_TIME, name,
						 source, p) - l->v);
		snprintf(name, sizeof(name), "model %s %s step memory", p->model_name,
			 f->precision);
		c[1] = series(l, first, CURVE_STEP_MEMORY, name, source, p);
		c[0] = &l->v[time_at];
		x = (double)f->batch;
		y[0] = per_call(f, f->time.median);
		y[1] = f->memory_bytes;
	} else if (!strcmp(f->suite, "gemm")) {
		snprintf(name, sizeof(name), "gemm %s", f->precision);
		c[0] = series(l, first, CURVE_GEMM, name, source, p);
		x = (double)f->n;
		y[0] = f->value;
	} else if (!strcmp(f->suite, "membw") && !gpu) {
		/* a CPU's rate steps down with each cache a footprint outgrows:
		 * only the footprints resident in memory share one line */
		snprintf(name, sizeof(name), "membw %s in memory", f->kernel);
		c[0] = series(l, first, CURVE_MEMBW_MEMORY, name, source, p);
		if (!stream_in_memory(&p->device.cpu, (uint64_t)f->bytes)) {
			char why[160];
			snprintf(why, sizeof(why), "in a cache (footprint below %llu MiB: STREAM's rule for this CPU's cache)",
				 (unsigned long long)(stream_memory_footprint(
					stream_llc_bytes(&p->device.cpu)) >> 20));
			leave_out(c[0], why);
			return;
		}
		x = per_call(f, f->work);
		y[0] = per_call(f, f->time.median);
	} else if (!strcmp(f->suite, "membw")) {
		snprintf(name, sizeof(name), "membw %s", f->kernel);
		c[0] = series(l, first, CURVE_MEMBW, name, source, p);
		x = f->bytes;
		y[0] = f->value;
	} else if (!strcmp(f->suite, "p2p")) {
		snprintf(name, sizeof(name), "transfer %s", f->kernel);
		c[0] = series(l, first, CURVE_TRANSFER, name, source, p);
		x = per_call(f, f->work);
		y[0] = per_call(f, f->time.median);
	} else if (!strcmp(f->suite, "allreduce")) {
		snprintf(name, sizeof(name), "allreduce %s x %d GPUs", f->precision,
			 f->gpus);
		c[0] = series(l, first, CURVE_COLLECTIVE, name, source, p);
		x = per_call(f, f->work);
		y[0] = per_call(f, f->time.median);
	} else if (!strcmp(f->suite, "launch")) {
		add_rate(l, p, f, source);	/* one figure, no curve */
		return;
	} else {
		return;
	}
	const char *why = unusable(f);
	for (int i = 0; i < 2 && c[i]; i++) {
		if (why)
			leave_out(c[i], why);
		else if (y[i] > 0)
			add_point(c[i], x, y[i]);
	}
}

/* Fits the series of out from `first` on; one with no point says why. */
static void fit_series(struct curve_list *out, size_t first)
{
	for (size_t i = first; i < out->n; i++) {
		struct scaling_curve *c = &out->v[i];
		const struct curve_form *f = curve_form(c->kind);
		if (c->n == 0 && c->left_out) {
			snprintf(c->why, sizeof(c->why), "no figure to fit: %s",
				 c->left_out_why);
			continue;
		}
		c->ok = fit_curve(f->form, c->x, c->y, c->n, f->sign, f->param,
				  &c->fit, c->why, sizeof(c->why)) == 0;
		size_t at = strlen(c->why);
		if (!c->ok && c->left_out)
			snprintf(c->why + at, sizeof(c->why) - at,
				 "; %zu more figure%s not used: %s", c->left_out,
				 c->left_out == 1 ? "" : "s", c->left_out_why);
	}
}

void curves_from_profile(const struct bench_profile *p, const char *source,
			 struct curve_list *out)
{
	size_t first = out->n;
	for (size_t i = 0; i < p->figures.n; i++)
		place(out, first, p, &p->figures.v[i], source);
	fit_series(out, first);
	struct train_terms t;
	if (train_terms_from_profile(p, source, &t))
		*curve_list_add_train(out) = t;
}

/* ---- scaling against ranks ---- */

static bool same_device(const struct bench_profile *a,
			const struct bench_profile *b)
{
	return !strcmp(a->device.kind, b->device.kind) &&
	       !strcmp(a->device.name, b->device.name);
}

/* How many thread counts the series' points (and its left-out figures'
 * profiles, counted by the caller) stand at: 1 or more than 1. */
static bool spread(const struct scaling_curve *c)
{
	for (size_t i = 1; i < c->n; i++)
		if (c->x[i] != c->x[0])
			return true;
	return false;
}

void curves_scaling(const struct bench_profile *const *p,
		    const char *const *names, size_t n, struct curve_list *out)
{
	if (n < 2 || strcmp(p[0]->device.kind, "cpu"))
		return;
	struct curve_list tmp = {0};
	for (size_t k = 0; k < n; k++) {
		if (!same_device(p[k], p[0]))
			continue;
		for (size_t i = 0; i < p[k]->figures.n; i++) {
			const struct bench_figure *f = &p[k]->figures.v[i];
			if (strcmp(f->suite, "model"))
				continue;
			char name[96];
			snprintf(name, sizeof(name), "scaling %s %s", f->name,
				 f->precision);
			struct scaling_curve *c = series(&tmp, 0, CURVE_SCALING,
							 name, names[0], p[0]);
			const char *why = unusable(f);
			if (why)
				leave_out(c, why);
			else
				add_point(c, (double)p[k]->threads,
					  per_call(f, f->time.median));
		}
	}
	size_t first = out->n;
	for (size_t i = 0; i < tmp.n; i++) {
		struct scaling_curve *c = &tmp.v[i];
		if (!spread(c))
			continue;	/* one thread count: not a series */
		snprintf(c->source, sizeof(c->source), "%s and %zu more",
			 names[0], n - 1);
		*curve_list_add(out) = *c;
		c->x = c->y = NULL;	/* moved */
	}
	curve_list_free(&tmp);
	fit_series(out, first);
}

double curve_scaling_efficiency(const struct fit *f, double ranks)
{
	double t1 = fit_eval(f, 1), tn = fit_eval(f, ranks);
	return tn > 0 && ranks > 0 ? t1 / (ranks * tn) : 0;
}

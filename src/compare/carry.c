/*
 * carry.c - a measured change in a plan's money and time; see carry.h.
 */
#include "compare/carry.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/output.h"

static const json_t *find_metric(const json_t *cmp, const char *name)
{
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(cmp, "metrics"), i, m)
		if (strcmp(json_string_value(json_object_get(m, "name")), name) == 0)
			return m;
	return NULL;
}

static const struct r_workload *pick(const struct r_plan *p, const char *name,
				     char *why, size_t len)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct r_workload *w = &p->w[i];
		if (name ? strcmp(w->name, name) == 0 : w->recommended >= 0)
			return w;
	}
	if (name)
		snprintf(why, len, "--plan has no workload '%s'", name);
	else
		snprintf(why, len, "--plan has no workload with a recommendation");
	return NULL;
}

/* The factor on time and its interval, from the metric's ratio. */
static int factor(const json_t *m, double f[3], char *why, size_t len)
{
	const json_t *r = json_object_get(m, "ratio"), *ri = json_object_get(m, "ratio_interval");
	if (!json_is_number(r) || json_number_value(r) <= 0) {
		snprintf(why, len, "metric '%s' has no positive ratio to carry",
			 json_string_value(json_object_get(m, "name")));
		return -1;
	}
	bool higher = strcmp(json_string_value(json_object_get(m, "better")), "higher") == 0;
	double x = json_number_value(r);
	double lo = json_is_array(ri) ? json_number_value(json_array_get(ri, 0)) : NAN;
	double hi = json_is_array(ri) ? json_number_value(json_array_get(ri, 1)) : NAN;
	f[0] = higher ? 1 / x : x;
	if (!isfinite(f[0])) {
		/* a ratio of 1e-310: its inverse leaves a double (a ratio
		 * near 1e-307 passes here and is caught with the money) */
		snprintf(why, len, "metric '%s' changed by a factor of %g: the job's time would scale past a double's range, which is no time to carry",
			 json_string_value(json_object_get(m, "name")), x);
		return -1;
	}
	/* an interval reaching 0 or below has no inverse: none then */
	f[1] = higher ? (hi > 0 ? 1 / hi : NAN) : lo;
	f[2] = higher ? (lo > 0 ? 1 / lo : NAN) : hi;
	return 0;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* [lo, hi], or null when either is past a double's range */
static json_t *pair(double lo, double hi)
{
	return isfinite(lo) && isfinite(hi) ? json_pack("[ff]", lo, hi)
					    : json_null();
}

json_t *carry_into_plan(const json_t *cmp, const char *metric,
			const struct r_plan *plan, const char *plan_file,
			const char *workload, char *why, size_t len)
{
	const json_t *m = find_metric(cmp, metric);
	if (!m) {
		snprintf(why, len, "--carry: no metric '%s' in both runs", metric);
		return NULL;
	}
	const struct r_workload *w = pick(plan, workload, why, len);
	if (!w)
		return NULL;
	if (w->recommended < 0 || (size_t)w->recommended >= w->n) {
		snprintf(why, len, "workload '%s' has no recommendation to carry into",
			 w->name);
		return NULL;
	}
	double f[3];
	if (factor(m, f, why, len) < 0)
		return NULL;
	const struct r_option *o = &w->v[w->recommended];
	double t = w->training ? o->time_s : o->p99_s;
	if (!isfinite(100 * (1 - f[0])) || !isfinite(o->cost * f[0]) ||
	    (isfinite(t) && !isfinite(t * f[0]))) {
		snprintf(why, len, "metric '%s' scales the job's time by %g: its time or cost would be past a double's range, which is nothing to carry",
			 metric, f[0]);
		return NULL;
	}
	json_t *j = json_object();
	json_object_set_new(j, "plan", json_text(plan_file));
	json_object_set_new(j, "workload", json_text(w->name));
	json_object_set_new(j, "kind", json_text(w->kind));
	json_object_set_new(j, "instance", json_text(o->instance));
	json_object_set_new(j, "gpus", json_integer(o->gpus));
	json_object_set_new(j, "metric", json_text(metric));
	json_object_set_new(j, "time_factor", num(f[0]));
	json_object_set_new(j, "time_factor_interval", pair(f[1], f[2]));
	json_object_set_new(j, w->training ? "time_before_s" : "p99_latency_before_s", num(t));
	json_object_set_new(j, w->training ? "time_after_s" : "p99_latency_after_s", num(t * f[0]));
	json_object_set_new(j, "cost_before", num(o->cost));
	json_object_set_new(j, "cost_after", num(o->cost * f[0]));
	json_object_set_new(j, "saving", num(o->cost * (1 - f[0])));
	json_object_set_new(j, "saving_interval",
			    pair(o->cost * (1 - f[2]), o->cost * (1 - f[1])));
	json_object_set_new(j, "time_saved_pct", num(100 * (1 - f[0])));
	json_object_set_new(j, "currency", json_text(plan->currency));
	json_object_set_new(j, "cost_period", json_string(w->training ? "run" : "month"));
	json_object_set_new(j, "assumption", json_string(w->training
		? "the measured command is a faithful part of the planned job, so the job's time scales by the same factor; a run's cost is its time at the option's price"
		: "the measured command is a faithful part of each request, so the GPU time a request takes, and the monthly cost, scale by the factor; whole replicas make the real change come in steps; the p99 latency is scaled alike as a first estimate"));
	return j;
}

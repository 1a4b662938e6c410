/*
 * compare_plans.c - two plans as a cost diff; see compare_plans.h.
 */
#include "compare/compare_plans.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/output.h"
#include "core/xalloc.h"

/* ---- matching options ---- */

static int option_cmp(const struct r_option *a, const struct r_option *b)
{
	int c = strcmp(a->instance, b->instance);
	if (c)
		return c;
	if (a->gpus != b->gpus)
		return a->gpus < b->gpus ? -1 : 1;
	if (a->nodes != b->nodes)
		return a->nodes < b->nodes ? -1 : 1;
	/* a service on MIG slices or whole GPUs of one instance */
	return strcmp(a->sharing ? a->sharing : "", b->sharing ? b->sharing : "");
}

static const struct r_workload *sort_base;

static int index_cmp(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int c = option_cmp(&sort_base->v[a], &sort_base->v[b]);
	return c ? c : (a > b) - (a < b);	/* stable: the plan's order */
}

/* w's option indexes in key order. */
static size_t *sorted(const struct r_workload *w)
{
	size_t *ix = xcalloc(w->n + 1, sizeof(size_t));
	for (size_t i = 0; i < w->n; i++)
		ix[i] = i;
	sort_base = w;
	qsort(ix, w->n, sizeof(size_t), index_cmp);
	return ix;
}

/* ---- JSON of one option ---- */

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static double option_time(const struct r_workload *w, const struct r_option *o)
{
	return w->training ? o->time_s : o->p99_s;
}

static json_t *option_json(const struct r_workload *w, const struct r_option *o)
{
	json_t *j = json_object();
	json_object_set_new(j, "instance", json_text(o->instance));
	json_object_set_new(j, "gpus", json_integer(o->gpus));
	json_object_set_new(j, "nodes", json_integer(o->nodes));
	json_object_set_new(j, "sharing", json_string_or_null(o->sharing));
	json_object_set_new(j, "feasible", json_boolean(o->feasible));
	json_object_set_new(j, "runnable", json_boolean(o->runnable));
	json_object_set_new(j, w->training ? "time_s" : "p99_latency_s",
			    o->runnable ? num(option_time(w, o)) : json_null());
	json_object_set_new(j, "cost", o->runnable ? num(o->cost) : json_null());
	return j;
}

/* null for what a double cannot hold (a plan's costs are finite, but
 * their difference or ratio need not be) */
static json_t *change(double before, double after)
{
	return num(after - before);
}

static json_t *change_pct(double before, double after)
{
	return before != 0 ? num(100 * (after / before - 1)) : json_null();
}

static double cost_of(const struct r_option *o)
{
	return o->runnable ? o->cost : NAN;
}

/* After's money in before's currency (plan_money.h); NaN stays NaN. */
static double in_before_currency(const struct money_bridge *m,
				 double after_amount)
{
	return after_amount * m->factor;
}

/* One option in both plans: before, after, the changes (in before's
 * currency). */
static json_t *pair_json(const struct r_workload *wb, const struct r_option *b,
			 const struct r_workload *wa, const struct r_option *a,
			 const struct money_bridge *m)
{
	json_t *j = json_object();
	json_object_set_new(j, "instance", json_text(b->instance));
	json_object_set_new(j, "gpus", json_integer(b->gpus));
	json_object_set_new(j, "nodes", json_integer(b->nodes));
	json_object_set_new(j, "sharing", json_string_or_null(b->sharing));
	json_object_set_new(j, "before", option_json(wb, b));
	json_object_set_new(j, "after", option_json(wa, a));
	double ca = in_before_currency(m, cost_of(a));
	json_object_set_new(j, "cost_change", change(cost_of(b), ca));
	json_object_set_new(j, "cost_change_pct", change_pct(cost_of(b), ca));
	double tb = b->runnable ? option_time(wb, b) : NAN;
	double ta = a->runnable ? option_time(wa, a) : NAN;
	json_object_set_new(j, "time_change_pct", change_pct(tb, ta));
	return j;
}

/* Every option of both, merged in key order. */
static void options_json(const struct r_workload *wb, const struct r_workload *wa,
			 const struct money_bridge *m, json_t *w)
{
	json_t *both = json_array(), *ob = json_array(), *oa = json_array();
	size_t *ib = sorted(wb), *ia = sorted(wa), i = 0, k = 0;
	while (i < wb->n || k < wa->n) {
		int c = i == wb->n ? 1 : k == wa->n ? -1
			: option_cmp(&wb->v[ib[i]], &wa->v[ia[k]]);
		if (c < 0)
			json_array_append_new(ob, option_json(wb, &wb->v[ib[i++]]));
		else if (c > 0)
			json_array_append_new(oa, option_json(wa, &wa->v[ia[k++]]));
		else {
			json_array_append_new(both, pair_json(wb, &wb->v[ib[i]],
							      wa, &wa->v[ia[k]], m));
			i++, k++;
		}
	}
	free(ib);
	free(ia);
	json_object_set_new(w, "options", both);
	json_object_set_new(w, "options_only_before", ob);
	json_object_set_new(w, "options_only_after", oa);
}

/* ---- a workload ---- */

static const struct r_option *recommended(const struct r_workload *w)
{
	return w && w->recommended >= 0 && (size_t)w->recommended < w->n
		? &w->v[w->recommended] : NULL;
}

static json_t *recommendation_json(const struct r_workload *wb,
				   const struct r_workload *wa,
				   const struct money_bridge *m)
{
	const struct r_option *b = recommended(wb), *a = recommended(wa);
	json_t *j = json_object();
	json_object_set_new(j, "before", b ? option_json(wb, b) : json_null());
	json_object_set_new(j, "after", a ? option_json(wa, a) : json_null());
	json_object_set_new(j, "changed", json_boolean(
		!b != !a || (b && a && option_cmp(b, a) != 0)));
	double cb = b ? cost_of(b) : NAN;
	double ca = a ? in_before_currency(m, cost_of(a)) : NAN;
	json_object_set_new(j, "cost_change", change(cb, ca));
	json_object_set_new(j, "cost_change_pct", change_pct(cb, ca));
	double tb = b && b->runnable ? option_time(wb, b) : NAN;
	double ta = a && a->runnable ? option_time(wa, a) : NAN;
	json_object_set_new(j, "time_change_pct", change_pct(tb, ta));
	json_object_set_new(j, "reason_before", wb ? json_text(wb->why) : json_null());
	json_object_set_new(j, "reason_after", wa ? json_text(wa->why) : json_null());
	return j;
}

/*
 * A workload of one name that is training in one plan and a service in
 * the other: a cost per run against a cost per month, a run time against
 * a p99 latency.  Each side is listed as it is, nothing is set against
 * the other.
 */
static json_t *kind_changed_json(const struct r_workload *wb,
				 const struct r_workload *wa, json_t *j)
{
	const struct r_option *b = recommended(wb), *a = recommended(wa);
	json_t *r = json_object();
	json_object_set_new(r, "before", b ? option_json(wb, b) : json_null());
	json_object_set_new(r, "after", a ? option_json(wa, a) : json_null());
	json_object_set_new(r, "changed", json_true());
	json_object_set_new(r, "cost_change", json_null());
	json_object_set_new(r, "cost_change_pct", json_null());
	json_object_set_new(r, "time_change_pct", json_null());
	json_object_set_new(r, "reason_before", json_text(wb->why));
	json_object_set_new(r, "reason_after", json_text(wa->why));
	json_object_set_new(j, "kind_after", json_text(wa->kind));
	json_object_set_new(j, "cost_period_after", json_string(wa->training ? "run" : "month"));
	json_object_set_new(j, "recommended", r);
	json_object_set_new(j, "note", json_sprintf(
		"%s before and %s after: a cost per %s is not compared with a cost per %s, nor %s with %s",
		wb->kind, wa->kind, wb->training ? "run" : "month",
		wa->training ? "run" : "month",
		wb->training ? "a run time" : "a p99 latency",
		wa->training ? "a run time" : "a p99 latency"));
	return j;
}

static json_t *workload_json(const struct r_workload *wb,
			     const struct r_workload *wa,
			     const struct money_bridge *m)
{
	const struct r_workload *w = wb ? wb : wa;
	json_t *j = json_object();
	json_object_set_new(j, "name", json_text(w->name));
	json_object_set_new(j, "kind", json_text(w->kind));
	json_object_set_new(j, "in", json_string(wb && wa ? "both"
						 : wb ? "before" : "after"));
	json_object_set_new(j, "cost_period", json_string(w->training ? "run" : "month"));
	if (wb && wa && wb->training != wa->training)
		return kind_changed_json(wb, wa, j);
	json_object_set_new(j, "recommended", recommendation_json(wb, wa, m));
	if (wb && wa)
		options_json(wb, wa, m, j);
	return j;
}

static const struct r_workload *find_workload(const struct r_plan *p,
					      const char *name)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->w[i].name, name) == 0)
			return &p->w[i];
	return NULL;
}

/* ---- totals ---- */

/* A plan's spend at its recommendations: one-off (training) or monthly. */
static double spend(const struct r_plan *p, bool training, size_t *unpriced)
{
	double sum = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct r_option *o = recommended(&p->w[i]);
		if (p->w[i].training != training)
			continue;
		if (o && o->runnable && isfinite(o->cost))
			sum += o->cost;
		else
			(*unpriced)++;
	}
	return sum;
}

static json_t *total_json(const struct r_plan *b, const struct r_plan *a,
			  bool training, const struct money_bridge *m)
{
	size_t ub = 0, ua = 0;
	double sb = spend(b, training, &ub), sa = spend(a, training, &ua);
	double sa_b = in_before_currency(m, sa);
	json_t *j = json_object();
	json_object_set_new(j, "spend", json_string(training ? "one-off" : "monthly"));
	json_object_set_new(j, "currency_before", json_text(b->currency));
	json_object_set_new(j, "currency_after", json_text(a->currency));
	json_object_set_new(j, "before", num(sb));
	json_object_set_new(j, "after", num(sa));
	/* the changes are in before's currency, after's total converted */
	json_object_set_new(j, "after_converted",
			    m->converted ? num(sa_b) : json_null());
	json_object_set_new(j, "change", change(sb, sa_b));
	json_object_set_new(j, "change_pct", change_pct(sb, sa_b));
	json_object_set_new(j, "workloads_without_recommendation_before",
			    json_integer((json_int_t)ub));
	json_object_set_new(j, "workloads_without_recommendation_after",
			    json_integer((json_int_t)ua));
	return j;
}

/* How after's money was brought to before's currency, or null. */
static json_t *conversion_json(const struct money_bridge *m)
{
	if (!m->converted)
		return json_null();
	json_t *j = json_object();
	json_object_set_new(j, "from", json_text(m->from));
	json_object_set_new(j, "to", json_text(m->to));
	json_object_set_new(j, "factor", json_real(m->factor));
	json_object_set_new(j, "base", json_text(m->base));
	json_object_set_new(j, "as_of", json_text(m->as_of));
	json_object_set_new(j, "note", json_sprintf(
		"after's %s amounts are converted to %s at 1 %s = %.6g %s for every change, from the exchange rates both plans carry (as of %s, per 1 %s: %.6g %s, %.6g %s); each plan's own amounts are shown in its own currency",
		m->from, m->to, m->from, m->factor, m->to, m->as_of, m->base,
		m->rate_to, m->to, m->rate_from, m->from));
	return j;
}

json_t *compare_plans(const struct r_plan *before, const char *before_file,
		      const struct r_plan *after, const char *after_file,
		      const struct money_bridge *money)
{
	json_t *ws = json_array();
	for (size_t i = 0; i < before->n; i++)
		json_array_append_new(ws, workload_json(&before->w[i],
			find_workload(after, before->w[i].name), money));
	for (size_t i = 0; i < after->n; i++)
		if (!find_workload(before, after->w[i].name))
			json_array_append_new(ws, workload_json(NULL, &after->w[i], money));
	json_t *totals = json_array();
	json_array_append_new(totals, total_json(before, after, true, money));
	json_array_append_new(totals, total_json(before, after, false, money));
	json_t *j = json_object();
	json_object_set_new(j, "schema", json_string("gpuplan/compare/v1"));
	json_object_set_new(j, "kind", json_string("plans"));
	json_object_set_new(j, "before", json_pack("{s:o,s:o}", "file",
		json_text(before_file), "currency", json_text(before->currency)));
	json_object_set_new(j, "after", json_pack("{s:o,s:o}", "file",
		json_text(after_file), "currency", json_text(after->currency)));
	json_object_set_new(j, "conversion", conversion_json(money));
	json_object_set_new(j, "workloads", ws);
	json_object_set_new(j, "totals", totals);
	return j;
}

double compare_plans_max_rise(const json_t *j, char *what, size_t len)
{
	double worst = 0;
	snprintf(what, len, "no total");
	size_t i;
	json_t *t;
	json_array_foreach(json_object_get(j, "totals"), i, t) {
		json_t *pct = json_object_get(t, "change_pct");
		json_t *d = json_object_get(t, "change");
		/* from nothing to something is a rise without bound */
		double rise = json_is_number(pct) ? json_number_value(pct) / 100
			: json_is_number(d) && json_number_value(d) > 0 ? INFINITY
			: 0;
		if (rise <= worst)
			continue;
		worst = rise;
		snprintf(what, len, "%s %s spend",
			 json_string_value(json_object_get(t, "spend")),
			 json_string_value(json_object_get(t, "currency_before")));
	}
	return worst;
}

#include "report_charts.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/precision.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "plan/rank.h"
#include "chart_frame.h"
#include "hwmodel/roofline.h"
#include "i18n.h"

#define BARS 10		/* options shown in the bar charts */

static const char *const slugs[RC_COUNT] = {
	"time-cost", "latency-load", "cost", "breakdown", "memory", "scaling",
	"roofline",
};

const char *report_chart_slug(enum report_chart c)
{
	return slugs[c];
}

/* ---- ordering ---- */

/* The cost the plan compared options by (option/settings.h's spot rule): spot where
 * spot is acceptable and the option has a spot price. */
static double compared_cost(const struct r_workload *w, const struct r_option *o)
{
	return w->spot_acceptable && o->has_spot ? o->cost_spot : o->cost;
}

/* A cost axis's title says which price it is: spot where the spot rule
 * compares on spot, else on demand; a service's cost is per month. */
static void cost_axis_title(const struct r_plan *p, const struct r_workload *w,
			    enum report_lang lang, char *buf, size_t len)
{
	if (w->spot_acceptable)
		snprintf(buf, len, "%s (%s, %s)", tr(lang, MSG_AXIS_COST),
			 p->currency, tr(lang, MSG_SPOT));
	else
		snprintf(buf, len, "%s (%s)",
			 tr(lang, w->training ? MSG_AXIS_COST : MSG_AXIS_COST_MONTH),
			 p->currency);
}

size_t *report_rank(const struct r_workload *w)
{
	struct rank_key *k = xcalloc(w->n + 1, sizeof(*k));
	for (size_t i = 0; i < w->n; i++)
		k[i] = (struct rank_key){
			rank_tier((long)i == w->recommended, w->v[i].feasible,
				  w->v[i].owned || w->v[i].illustrative,
				  w->v[i].runnable),
			compared_cost(w, &w->v[i]), i};
	qsort(k, w->n, sizeof(*k), rank_compare);
	size_t *idx = xcalloc(w->n + 1, sizeof(size_t));
	for (size_t i = 0; i < w->n; i++)
		idx[i] = k[i].i;
	free(k);
	return idx;
}

/* ---- helpers ---- */

/* 950, 1.2k, 3.4M, 1.1B: the unit chosen after rounding to three figures,
 * so 999,950 reads "1M", never "1e+03k". */
static void fmt_money(double v, char *buf, size_t len)
{
	static const char *const units[] = {"", "k", "M", "B", "T"};
	size_t u = 0;
	while (u + 1 < sizeof(units) / sizeof(units[0]) && fabs(v) >= 999.5) {
		v /= 1e3;
		u++;
	}
	snprintf(buf, len, "%.3g%s", v, units[u]);
}

void report_money_tick(double v, char *buf, size_t len)
{
	fmt_money(v, buf, len);
}

/* Whole numbers in full ("1024", never "1.02e+03"), the rest to three
 * significant digits. */
static void fmt_plain(double v, char *buf, size_t len)
{
	if (v == floor(v) && fabs(v) < 1e9)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.3g", v);
}

/* A time axis in one unit chosen from its largest value, so the ticks are
 * 1-2-5 steps of hours or days rather than odd numbers of seconds.
 * Writes "time (h)" into label; returns the unit in seconds to divide by. */
static double time_axis(enum report_lang lang, enum msg what, double max_s,
			char *label, size_t len)
{
	const char *unit;
	double scale = tr_time_unit(lang, max_s, &unit);
	snprintf(label, len, "%s (%s)", tr(lang, what), unit);
	return scale;
}

/* An accelerator's colour index: its position among the plan's
 * accelerators in name order, the same on every chart. */
static size_t colour_of(const struct r_plan *p, const char *acc)
{
	return r_plan_accelerator_rank(p, acc);
}

static void option_label(const struct r_option *o, char *buf, size_t len)
{
	/* a MIG option keeps its profile: two options never share a label */
	if (o->slices > 0 && o->mig_profile)
		snprintf(buf, len, "%ld x %s as %ld x %s", o->nodes, o->instance,
			 o->slices, o->mig_profile);
	else if (o->sharing && o->sharing[0])
		snprintf(buf, len, "%ld x %s on %s", o->nodes, o->instance, o->sharing);
	else
		snprintf(buf, len, "%ld x %s", o->nodes, o->instance);
	tr_trim_utf8(buf);
}

/* A point with the value it is ordered by: qsort, not insertion, since a
 * plan may hold 100,000 options.  Ties are broken by the other values, so
 * the order never depends on the sort's internals. */
struct keyed {
	double key, a, b;
};

static int cmp_double(double a, double b)
{
	return (a > b) - (a < b);
}

static int by_key(const void *x, const void *y)
{
	const struct keyed *p = x, *q = y;
	int c = cmp_double(p->key, q->key);
	if (!c)
		c = cmp_double(p->a, q->a);
	return c ? c : cmp_double(p->b, q->b);
}

static void sort_keyed(struct keyed *p, size_t n)
{
	qsort(p, n, sizeof(*p), by_key);
}

/* ---- time against cost ---- */

/* Owned machines in dark grey: their cost is a share of owning, not a
 * rental price, so they must not pass for their accelerator's rentals. */
static const struct rgb owned_colour = {0.25, 0.25, 0.25};

/* What an option's price is, for the series it is drawn in: a rental at
 * a sourced price, an owned machine, a rental at an illustrative price.
 * Only the first are choices on the front; the others are drawn apart,
 * each with its own marker and legend entry. */
enum price_kind { PRICE_RENTAL, PRICE_OWNED, PRICE_ILLUSTRATIVE, PRICE_KINDS };

static enum price_kind price_kind_of(const struct r_option *o)
{
	return o->owned ? PRICE_OWNED : o->illustrative ? PRICE_ILLUSTRATIVE
							: PRICE_RENTAL;
}

struct acc_series {
	const char *acc;		/* NULL: the pool of the rest */
	bool owned;			/* owned or illustrative: drawn apart */
	enum price_kind kind;
	const char *name;		/* the legend's; NULL: none */
	char *own;			/* "H100 (owned)", when name is made */
	double *x, *y;
	bool *muted, *hl;
	size_t n;
};

/* Series drawn on their own; accelerators past the last share one, with
 * no legend entry.  Far more than a legend shows or the palette tells
 * apart (16), and a bound on what each series costs cairo (about 1 kB in
 * a PDF's command list): a hand-made plan naming 40,000 accelerators
 * otherwise took 36 MB of cairo's memory for this one chart. */
#define SERIES_MAX 64

/*
 * The options that can be drawn (time and cost above zero) grouped into
 * one series per accelerator, owned machines apart, in order of first
 * appearance (past SERIES_MAX - 1 of them, the rest in one): in O(n) for
 * any number of accelerators (a hash per name, one array of points shared
 * by the series).  Returns the series; their count in *na, the points'
 * ranges in *range (x min, x max, y min, y max).
 */
static struct acc_series *group_points(const struct r_workload *w,
				       enum report_lang lang, size_t *na,
				       double range[4])
{
	struct strmap seen[PRICE_KINDS];	/* accelerator -> series, by kind */
	struct acc_series *as = NULL;
	size_t cap = 0, m = 0, k;
	size_t *series = xcalloc(w->n + 1, sizeof(size_t));
	range[0] = range[2] = INFINITY;
	range[1] = range[3] = 0;
	*na = 0;
	for (int kd = 0; kd < PRICE_KINDS; kd++)
		strmap_init(&seen[kd]);
	for (size_t i = 0; i < w->n; i++) {
		const struct r_option *o = &w->v[i];
		double x = w->training ? o->time_s : o->p99_s, y = compared_cost(w, o);
		series[i] = SIZE_MAX;
		if (!(x > 0) || !(y > 0))
			continue;
		enum price_kind kind = price_kind_of(o);
		if (!strmap_get(&seen[kind], o->accelerator, &k)) {
			bool pool = *na == SERIES_MAX - 1;
			k = *na < SERIES_MAX ? (*na)++ : SERIES_MAX - 1;
			xgrow((void **)&as, &cap, *na, sizeof(*as));
			if (k + 1 == *na) {	/* a new series */
				memset(&as[k], 0, sizeof(*as));
				as[k].acc = pool ? NULL : o->accelerator;
				as[k].kind = pool ? PRICE_RENTAL : kind;
				as[k].owned = !pool && kind != PRICE_RENTAL;
				/* an owned machine's cost is its share of owning,
				 * and an illustrative price nobody published: their
				 * own legend entries keep them apart from rentals */
				as[k].name = pool ? NULL : o->accelerator;
				if (as[k].owned)
					as[k].name = as[k].own = xasprintf("%s (%s)",
						o->accelerator, tr(lang,
						kind == PRICE_OWNED ? MSG_OWNED : MSG_ILLUSTRATIVE_PRICE));
			}
			strmap_put(&seen[kind], o->accelerator, k, NULL);
		}
		series[i] = k;
		as[k].n++;
		m++;
		range[0] = fmin(range[0], x), range[1] = fmax(range[1], x);
		range[2] = fmin(range[2], y), range[3] = fmax(range[3], y);
	}
	for (int kd = 0; kd < PRICE_KINDS; kd++)
		strmap_free(&seen[kd]);
	if (*na == 0) {		/* no option with a cost: no points to hold */
		free(series);
		return as;
	}
	/* one block of points; each series a slice of it, filled in order */
	double *xs = xcalloc(m + 1, sizeof(double)), *ys = xcalloc(m + 1, sizeof(double));
	bool *mu = xcalloc(m + 1, sizeof(bool)), *hl = xcalloc(m + 1, sizeof(bool));
	size_t off = 0;
	for (k = 0; k < *na; k++) {
		as[k].x = xs + off, as[k].y = ys + off;
		as[k].muted = mu + off, as[k].hl = hl + off;
		off += as[k].n;
		as[k].n = 0;
	}
	for (size_t i = 0; i < w->n; i++) {
		if (series[i] == SIZE_MAX)
			continue;
		const struct r_option *o = &w->v[i];
		struct acc_series *a = &as[series[i]];
		a->x[a->n] = w->training ? o->time_s : o->p99_s;
		a->y[a->n] = compared_cost(w, o);
		a->muted[a->n] = !o->feasible;
		a->hl[a->n] = (long)i == w->recommended;
		a->n++;
	}
	free(series);
	return as;
}

/* Frees group_points' series and their shared block of points. */
static void free_points(struct acc_series *as, size_t na)
{
	for (size_t k = 0; k < na; k++)
		free(as[k].own);
	if (na) {
		free(as[0].x);
		free(as[0].y);
		free(as[0].muted);
		free(as[0].hl);
	}
	free(as);
}

static void time_cost(cairo_t *cr, struct rect area, const struct r_plan *p,
		      const struct r_workload *w, enum report_lang lang,
		      const struct chart_style *st)
{
	size_t na;
	double range[4];
	struct acc_series *as = group_points(w, lang, &na, range);
	double xmin = range[0], xmax = range[1], ymin = range[2], ymax = range[3];
	struct point_series *ps = xcalloc(na + 1, sizeof(*ps));
	int *marks = xcalloc(na + 1, sizeof(int));
	for (size_t k = 0; k < na; k++) {
		ps[k] = (struct point_series){as[k].name, as[k].x, as[k].y,
			as[k].muted, as[k].hl, as[k].n,
			as[k].kind == PRICE_OWNED ? owned_colour
			: chart_colour(as[k].acc ? colour_of(p, as[k].acc) : SERIES_MAX)};
		marks[k] = as[k].kind == PRICE_OWNED ? MARK_SQUARE
			   : as[k].kind == PRICE_ILLUSTRATIVE ? MARK_TRIANGLE
							      : MARK_CIRCLE;
	}
	/* the Pareto front, in order of time */
	double *fx = xcalloc(w->n + 1, sizeof(double)), *fy = xcalloc(w->n + 1, sizeof(double));
	struct keyed *front = xcalloc(w->n + 1, sizeof(*front));
	size_t nf = 0;
	for (size_t i = 0; i < w->n; i++)
		if (w->v[i].pareto)
			front[nf++] = (struct keyed){
				w->training ? w->v[i].time_s : w->v[i].p99_s,
				compared_cost(w, &w->v[i]), 0};
	sort_keyed(front, nf);
	for (size_t i = 0; i < nf; i++)
		fx[i] = front[i].key, fy[i] = front[i].a;
	free(front);
	struct ref_line refs[2];
	size_t nr = 0;
	if (w->training && w->deadline_s > 0)
		refs[nr++] = (struct ref_line){true, w->deadline_s, tr(lang, MSG_DEADLINE)};
	if (w->training && w->budget > 0)
		refs[nr++] = (struct ref_line){false, w->budget, tr(lang, MSG_BUDGET)};
	if (!w->training && w->target_s[TARGET_P99] > 0)
		refs[nr++] = (struct ref_line){true, w->target_s[TARGET_P99], "p99"};
	char xl[96], yl[96];
	for (size_t k = 0; k < nr; k++)
		if (refs[k].vertical)
			xmax = fmax(xmax, refs[k].at);
	double unit = time_axis(lang, w->training ? MSG_AXIS_TIME : MSG_AXIS_P99,
				na ? xmax : 1, xl, sizeof(xl));
	xmin /= unit, xmax /= unit;
	for (size_t k = 0; k < na; k++)
		for (size_t i = 0; i < as[k].n; i++)
			as[k].x[i] /= unit;
	for (size_t i = 0; i < nf; i++)
		fx[i] /= unit;
	for (size_t k = 0; k < nr; k++)
		if (refs[k].vertical)
			refs[k].at /= unit;
	cost_axis_title(p, w, lang, yl, sizeof(yl));
	if (na == 0)
		xmin = xmax = ymin = ymax = 1;
	for (size_t k = 0; k < nr; k++) {
		if (refs[k].vertical)
			xmin = fmin(xmin, refs[k].at), xmax = fmax(xmax, refs[k].at);
		else
			ymin = fmin(ymin, refs[k].at), ymax = fmax(ymax, refs[k].at);
	}
	struct axis x = {xmin, xmax, axis_wants_log(xmin, xmax), xl, fmt_plain};
	struct axis y = {ymin, ymax, axis_wants_log(ymin, ymax), yl, fmt_money};
	struct scatter_words words = {tr(lang, MSG_PARETO), tr(lang, MSG_RECOMMENDED),
				      tr(lang, MSG_INFEASIBLE)};
	enum msg title = w->training ? MSG_CHART_TIME_COST : MSG_CHART_LATENCY_COST;
	chart_scatter_marked(cr, area, tr(lang, title), &x, &y, ps, marks, na,
			     fx, fy, nf, refs, nr, &words, st);
	free_points(as, na);
	free(marks);
	free(ps);
	free(fx);
	free(fy);
}

/* ---- latency against load ---- */

/* How many of the curve's points are below saturation (each has its
 * end-to-end latencies: the reader checked). */
static size_t unsaturated(const struct r_load_curve *c)
{
	size_t n = 0;
	for (size_t i = 0; c && i < c->n; i++)
		n += !c->pt[i].saturated;
	return n;
}

/* The rate of the curve's first saturated point; NAN when none is. */
static double saturation_rate(const struct r_load_curve *c)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->pt[i].saturated)
			return c->pt[i].rate;
	return NAN;
}

enum { LM_E2E, LM_TTFT, LM_TPOT, LM_COUNT };	/* the latencies drawn */

static double load_metric(const struct r_load_point *pt, int m)
{
	return m == LM_E2E ? pt->e2e_p99 : m == LM_TTFT ? pt->ttft_p99 : pt->tpot_p99;
}

/* One chosen option's curve as the chart draws it: rates, and each
 * latency in the axis's unit (NaN where it has none). */
struct load_line {
	const struct r_load_curve *c;
	double x[R_CURVE_MAX_POINTS], y[LM_COUNT][R_CURVE_MAX_POINTS];
	char name[400], stop[96];
};

/* The recommendation's curve and the runner-up's, when it has one
 * below saturation; returns how many (1 or 2). */
static size_t load_lines(const struct r_workload *w, enum report_lang lang,
			 struct load_line *l)
{
	long chosen[2] = {w->recommended, w->runner_up};
	enum msg role[2] = {MSG_RECOMMENDED, MSG_RUNNER_UP};
	size_t n = 0;
	for (int k = 0; k < 2; k++) {
		const struct r_load_curve *c = chosen[k] >= 0 ? r_workload_curve(w, chosen[k]) : NULL;
		if (!unsaturated(c))
			continue;
		char opt[300], reps[64] = "";
		option_label(&w->v[chosen[k]], opt, sizeof(opt));
		if (c->replicas > 1) {
			reps[0] = ',', reps[1] = ' ';
			snprintf(reps + 2, sizeof(reps) - 2, tr(lang, MSG_REPLICAS_N), c->replicas);
		}
		snprintf(l[n].name, sizeof(l[n].name), "%s%s (%s)", opt, reps, tr(lang, role[k]));
		tr_trim_utf8(l[n].name);
		l[n].c = c;
		n++;
	}
	return n;
}

/* Does any drawn point have a TTFT or TPOT (a service that makes tokens)? */
static bool load_has_tokens(const struct load_line *l, size_t n)
{
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < l[k].c->n; i++)
			if (isfinite(l[k].c->pt[i].ttft_p99) || isfinite(l[k].c->pt[i].tpot_p99))
				return true;
	return false;
}

/*
 * The latency axis: its unit from the largest latency or target, so ticks
 * fall on 1-2-5 steps of ms or s; log when the smallest and largest
 * (above zero) are more than 30 times apart, as TPOT is beside a whole
 * answer; room above the largest, so that a target there is not drawn on
 * the plot's edge.  Fills the lines' y in that unit.
 */
static void load_y(const struct r_workload *w, struct load_line *l,
		   size_t n, int metrics, enum report_lang lang, char *label,
		   size_t len, struct axis *y, double *unit_s)
{
	double lo = INFINITY, hi = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < l[k].c->n; i++)
			for (int m = 0; m < metrics; m++) {
				double v = load_metric(&l[k].c->pt[i], m);
				if (v > 0)
					lo = fmin(lo, v), hi = fmax(hi, v);
			}
	for (int t = 0; t < TARGET_COUNT; t++)
		if (w->target_s[t] > 0)
			lo = fmin(lo, w->target_s[t]), hi = fmax(hi, w->target_s[t]);
	double unit = time_axis(lang, MSG_AXIS_P99, hi > 0 ? hi : 1, label, len);
	bool log = hi > 0 && hi / lo > 30;
	*y = (struct axis){log ? lo / unit : 0, hi * (log ? 1.5 : 1.15) / unit,
			   log, label, fmt_plain};
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < l[k].c->n; i++) {
			l[k].x[i] = l[k].c->pt[i].rate;
			for (int m = 0; m < LM_COUNT; m++)
				l[k].y[m][i] = load_metric(&l[k].c->pt[i], m) / unit;
		}
	*unit_s = unit;
}

/* A dashed line for each target the workload sets ("TTFT p99 target
 * 500 ms"), and a vertical one at its request rate; returns how many. */
static size_t load_refs(const struct r_workload *w, double unit,
			enum report_lang lang, struct ref_line *refs,
			char (*labels)[128])
{
	size_t n = 0;
	char v[48];
	for (int t = 0; t < TARGET_COUNT; t++) {
		if (!(w->target_s[t] > 0))
			continue;
		tr_duration(lang, w->target_s[t], v, sizeof(v));
		snprintf(labels[n], 128, tr(lang, MSG_TARGET),
			 target_name((enum latency_target)t)->label, v);
		refs[n] = (struct ref_line){false, w->target_s[t] / unit, labels[n]};
		n++;
	}
	if (w->request_rate > 0) {
		fmt_plain(w->request_rate, v, sizeof(v));
		snprintf(labels[n], 128, tr(lang, MSG_PLANNED_LOAD), v);
		refs[n] = (struct ref_line){true, w->request_rate, labels[n]};
		n++;
	}
	return n;
}

/*
 * p99 latency against request rate for the recommendation (thick, blue)
 * and the runner-up (thin, orange): end-to-end, and for a service that
 * makes tokens TTFT and TPOT too, told apart by marker.  Each line stops
 * where its service saturates, marked by a dotted line at the first
 * saturated rate; the targets and the planned load are dashed grey.
 */
static void latency_load(cairo_t *cr, struct rect area,
			 const struct r_workload *w, enum report_lang lang,
			 const struct chart_style *st)
{
	struct load_line l[2];
	size_t n = load_lines(w, lang, l);
	int metrics = load_has_tokens(l, n) ? LM_COUNT : 1;
	char yl[96], labels[TARGET_COUNT + 1][128], v[48];
	struct axis y;
	double unit;
	load_y(w, l, n, metrics, lang, yl, sizeof(yl), &y, &unit);
	struct curve curves[2 * LM_COUNT];
	struct curve_key keys[2 + LM_COUNT];
	struct curve_stop stops[2];
	struct ref_line refs[TARGET_COUNT + 1];
	size_t nc = 0, nk = 0, ns = 0;
	double xlo = INFINITY, xhi = 0;
	for (size_t k = 0; k < n; k++) {
		struct rgb col = chart_colour(k);
		for (int m = 0; m < metrics; m++)
			curves[nc++] = (struct curve){l[k].x, l[k].y[m], l[k].c->n,
						      col, m, k > 0, false};
		keys[nk++] = (struct curve_key){l[k].name, col, metrics > 1 ? -1 : 0, false};
		double sat = saturation_rate(l[k].c);
		if (isfinite(sat)) {
			fmt_plain(sat, v, sizeof(v));
			snprintf(l[k].stop, sizeof(l[k].stop), tr(lang, MSG_SATURATED), v);
			stops[ns++] = (struct curve_stop){sat, l[k].stop, col};
		}
		for (size_t i = 0; i < l[k].c->n; i++)
			if (!l[k].c->pt[i].saturated || l[k].c->pt[i].rate == sat)
				xlo = fmin(xlo, l[k].x[i]), xhi = fmax(xhi, l[k].x[i]);
	}
	static const enum msg names[LM_COUNT] = {MSG_E2E_P99, MSG_TTFT_P99, MSG_TPOT_P99};
	for (int m = 0; metrics > 1 && m < metrics; m++)
		keys[nk++] = (struct curve_key){tr(lang, names[m]), chart_ink(), m, m == 0};
	size_t nr = load_refs(w, unit, lang, refs, labels);
	if (w->request_rate > 0)
		xlo = fmin(xlo, w->request_rate), xhi = fmax(xhi, w->request_rate);
	struct axis x = {0, 0, axis_wants_log(xlo, xhi),
			 tr(lang, MSG_AXIS_RATE), fmt_plain};
	struct curve_chart cc = {curves, nc, keys, nk, refs, nr, stops, ns};
	chart_curves(cr, area, tr(lang, MSG_CHART_LOAD), &x, &y, &cc, st);
}

/* ---- bars ---- */

struct bars {
	struct bar_group g[BARS];
	double values[BARS][6];
	char labels[BARS][288];
	size_t n;
};

static void take_top(const struct r_workload *w, const size_t *ranked,
		     size_t n_ranked, struct bars *b)
{
	b->n = 0;
	for (size_t k = 0; k < n_ranked && b->n < BARS; k++) {
		const struct r_option *o = &w->v[ranked[k]];
		option_label(o, b->labels[b->n], sizeof(b->labels[0]));
		b->g[b->n] = (struct bar_group){b->labels[b->n], b->values[b->n],
						!o->feasible, 0, 0, 0};
		b->n++;
	}
}

static void cost_bars(cairo_t *cr, struct rect area, const struct r_plan *p,
		      const struct r_workload *w, const size_t *ranked,
		      size_t n_ranked, enum report_lang lang,
		      const struct chart_style *st)
{
	struct bars b;
	take_top(w, ranked, n_ranked, &b);
	double ymax = 0;
	bool ranged = false;
	for (size_t k = 0; k < b.n; k++) {
		const struct r_option *o = &w->v[ranked[k]];
		b.values[k][0] = o->cost;
		b.values[k][1] = o->has_spot ? o->cost_spot : 0;
		b.g[k].err_low = o->cost_range[0];
		b.g[k].err_high = o->cost_range[1];
		ranged |= o->cost_range[1] > 0;
		ymax = fmax(ymax, fmax(o->cost, o->cost_range[1]));
	}
	const char *seg[] = {tr(lang, MSG_ON_DEMAND), tr(lang, MSG_SPOT)};
	struct rgb col[] = {chart_colour(0), chart_colour(1)};
	char yl[96];
	cost_axis_title(p, w, lang, yl, sizeof(yl));
	struct axis y = {0, ymax > 0 ? ymax : 1, false, yl, fmt_money};
	char title[200];
	snprintf(title, sizeof(title), "%s%s%s%s", tr(lang, MSG_CHART_COST),
		 ranged ? " (" : "", ranged ? tr(lang, MSG_MEASURED_RANGE) : "",
		 ranged ? ")" : "");
	chart_bars(cr, area, title, &y, b.g, b.n, seg, col,
		   w->training ? 2 : 1, true, NULL, st);
}

static void breakdown_bars(cairo_t *cr, struct rect area,
			   const struct r_workload *w, const size_t *ranked,
			   size_t n_ranked, enum report_lang lang,
			   const struct chart_style *st)
{
	struct bars b;
	take_top(w, ranked, n_ranked, &b);
	double ymax = 0;
	for (size_t k = 0; k < b.n; k++) {
		const struct r_option *o = &w->v[ranked[k]];
		double sum = 0;
		for (int s = 0; s < 4; s++)
			sum += b.values[k][s] = o->breakdown[s];
		ymax = fmax(ymax, sum);
	}
	const char *seg[] = {tr(lang, MSG_COMPUTE), tr(lang, MSG_MEMORY_BOUND),
			     tr(lang, MSG_COMMUNICATION), tr(lang, MSG_INPUT)};
	struct rgb col[] = {chart_colour(0), chart_colour(1), chart_colour(2),
			    chart_colour(3)};
	struct axis y = {0, ymax > 0 ? ymax : 1, false,
			 tr(lang, MSG_AXIS_SECONDS), fmt_plain};
	chart_bars(cr, area, tr(lang, MSG_CHART_BREAKDOWN), &y, b.g, b.n, seg, col,
		   4, false, NULL, st);
}

static void memory_bars(cairo_t *cr, struct rect area,
			const struct r_workload *w, const size_t *ranked,
			size_t n_ranked, enum report_lang lang,
			const struct chart_style *st)
{
	struct bars b;
	take_top(w, ranked, n_ranked, &b);
	double ymax = 0;
	bool same_cap = true;
	for (size_t k = 0; k < b.n; k++) {
		const struct r_option *o = &w->v[ranked[k]];
		double sum = 0;
		for (int s = 0; s < 6; s++)
			sum += b.values[k][s] = o->memory_parts[s] / 1e9;
		ymax = fmax(ymax, fmax(sum, o->capacity / 1e9));
		/* each bar against its own GPU's memory */
		b.g[k].limit = o->capacity / 1e9;
		same_cap &= b.g[k].limit == b.g[0].limit;
	}
	const char *seg[] = {tr(lang, MSG_WEIGHTS), tr(lang, MSG_GRADIENTS),
			     tr(lang, MSG_OPTIMIZER), tr(lang, MSG_ACTIVATIONS),
			     tr(lang, MSG_KV_CACHE), tr(lang, MSG_WORKSPACE)};
	struct rgb col[6];
	for (int s = 0; s < 6; s++)
		col[s] = chart_colour((size_t)s);
	char cap_label[96];
	if (b.n && same_cap)
		snprintf(cap_label, sizeof(cap_label), "%s (%.0f GB)",
			 tr(lang, MSG_CAPACITY), b.g[0].limit);
	else
		snprintf(cap_label, sizeof(cap_label), "%s", tr(lang, MSG_CAPACITY));
	struct axis y = {0, ymax > 0 ? ymax : 1, false, tr(lang, MSG_AXIS_MEMORY),
			 fmt_plain};
	chart_bars(cr, area, tr(lang, MSG_CHART_MEMORY), &y, b.g, b.n, seg, col,
		   6, false, cap_label, st);
}

/* ---- scaling ---- */

/* The recommended instance type at each cluster size, in GPU order:
 * GPU count, training time (s) and cost of the whole run. */
static size_t scaling_points(const struct r_workload *w, double *g, double *t,
			     double *cost)
{
	if (w->recommended < 0 || !w->training)
		return 0;
	const char *inst = w->v[w->recommended].instance;
	struct keyed *pt = xcalloc(w->n + 1, sizeof(*pt));
	size_t n = 0;
	for (size_t i = 0; i < w->n; i++) {
		const struct r_option *o = &w->v[i];
		if (!strcmp(o->instance, inst) && o->time_s > 0)
			pt[n++] = (struct keyed){(double)o->gpus, o->time_s, o->cost};
	}
	sort_keyed(pt, n);
	for (size_t i = 0; i < n; i++)
		g[i] = pt[i].key, t[i] = pt[i].a, cost[i] = pt[i].b;
	free(pt);
	return n;
}

/* The cost axis: linear from zero, so twice the height is twice the
 * money, unless the costs span more than 100x. */
static struct axis cost_axis(const double *cost, size_t n, const char *label)
{
	double lo = INFINITY, hi = 0;
	for (size_t i = 0; i < n; i++)
		lo = fmin(lo, cost[i]), hi = fmax(hi, cost[i]);
	bool log = n && axis_wants_log(lo, hi);
	return (struct axis){log ? lo : 0, hi, log, label, fmt_money};
}

/*
 * Time and cost against GPU count (the scaling curve) with parallel
 * efficiency against the smallest size, t1 g1 / (t g), on a second
 * right axis.
 */
static void scaling(cairo_t *cr, struct rect area, const struct r_plan *p,
		    const struct r_workload *w, enum report_lang lang,
		    const struct chart_style *st)
{
	double *g = xcalloc(w->n + 1, sizeof(double)), *t = xcalloc(w->n + 1, sizeof(double));
	double *cost = xcalloc(w->n + 1, sizeof(double));
	double *eff = xcalloc(w->n + 1, sizeof(double));
	size_t n = scaling_points(w, g, t, cost);
	double tmin = INFINITY, tmax = 0;
	for (size_t i = 0; i < n; i++) {
		/* NaN breaks the line where a count of 0 GPUs has no efficiency */
		eff[i] = t[i] * g[i] > 0 ? 100 * t[0] * g[0] / (t[i] * g[i]) : NAN;
		tmin = fmin(tmin, t[i]), tmax = fmax(tmax, t[i]);
	}
	if (n == 0)
		tmin = tmax = 1;
	char tl[96], cl[96];
	double unit = time_axis(lang, MSG_AXIS_TIME, tmax, tl, sizeof(tl));
	for (size_t i = 0; i < n; i++)
		t[i] /= unit;
	tmin /= unit, tmax /= unit;
	snprintf(cl, sizeof(cl), "%s (%s)", tr(lang, MSG_AXIS_COST), p->currency);
	/* log x at any span: its ticks are powers of two, cluster sizes one
	 * rents, where a linear x would tick 9, 10, 11 GPUs */
	struct axis x = {n ? g[0] : 1, n ? g[n - 1] : 2, true,
			 tr(lang, MSG_AXIS_GPUS), fmt_plain};
	struct axis yt = {tmin, tmax, axis_wants_log(tmin, tmax), tl, fmt_plain};
	struct axis yc = cost_axis(cost, n, cl);
	struct axis ye = {0, 100, false, tr(lang, MSG_AXIS_EFFICIENCY), fmt_plain};
	struct line_series lines[] = {
		{tl, t, &yt}, {cl, cost, &yc},
		{tr(lang, MSG_AXIS_EFFICIENCY), eff, &ye},
	};
	chart_lines(cr, area, tr(lang, MSG_CHART_SCALING), &x, g, n, lines, 3,
		    st);
	free(g);
	free(t);
	free(cost);
	free(eff);
}

/* ---- roofline ---- */

/* The peak the planner used for this precision: the same fallbacks
 * (hwmodel/roofline.h), looked up in the plan's datasheet figures. */
static double peak_for(const struct r_accelerator *a, const char *precision)
{
	int want = precision_from_name(precision);
	if (want < 0)
		want = PREC_FP32;
	const enum precision *order = roofline_fallbacks((enum precision)want);
	for (int k = 0; k < ROOFLINE_FALLBACKS; k++) {
		double v = a->peaks[order[k]];
		if (v > 0)
			return v;
	}
	return 0;
}

static void roofline(cairo_t *cr, struct rect area, const struct r_plan *p,
		     const struct r_workload *w, enum report_lang lang,
		     const struct chart_style *st)
{
	const struct r_option *rec = &w->v[w->recommended];
	const struct r_accelerator *a = r_plan_accelerator(p, rec->accelerator);
	if (!a)
		return;
	double peak = peak_for(a, w->precision);
	double ce = r_plan_assumption(p, "compute_efficiency", 0.8);
	double me = r_plan_assumption(p, "memory_efficiency", 0.8);
	/* intensity at the batch one GPU runs: the micro-batch when training */
	long batch = w->training ? rec->micro : rec->batch;
	if (batch < 1)
		batch = 1;
	struct roof_point pts[6];
	size_t n = 0;
	/* A decode step runs one token of each live sequence: the prompt's
	 * work per token, the weights read once for the batch.  The op
	 * classes are the prompt's forward pass, so per token they are
	 * divided by its length.  Attention is left out of a decode
	 * roofline: each sequence reads its own cache, which the prompt's
	 * figures (reuse across the whole prompt) do not give. */
	double per = w->decode_dominates ? (double)w->prompt_tokens : 1;
	for (size_t k = 0; k < w->n_classes; k++) {
		const struct r_class *c = &w->classes[k];
		if (w->decode_dominates && !strcmp(c->name, "attention"))
			continue;
		double bytes = c->weight_bytes + c->act_bytes / per * batch;
		if (!(c->flops > 0) || !(bytes > 0))
			continue;
		double i = c->flops / per * batch / bytes;
		double roof = fmin(peak * ce, a->bandwidth * me * i);
		pts[n++] = (struct roof_point){tr_op_class(lang, c->name), i, roof};
	}
	char title[400];
	snprintf(title, sizeof(title), "%s: %s (%s%s%s)", tr(lang, MSG_CHART_ROOFLINE),
		 rec->accelerator, w->precision,
		 w->training ? "" : ", ",
		 w->training ? "" : tr(lang, w->decode_dominates ? MSG_DECODE : MSG_PREFILL));
	struct roofline_words words = {tr(lang, MSG_PERFORMANCE), tr(lang, MSG_INTENSITY),
				       tr(lang, MSG_PEAK), tr(lang, MSG_RIDGE)};
	chart_roofline(cr, area, title, peak, a->bandwidth, pts, n, &words, st);
}

bool report_chart_applies(const struct r_plan *p, const struct r_workload *w,
			  enum report_chart c)
{
	if (c == RC_SCALING) {
		double *g = xcalloc(w->n + 1, sizeof(double));
		double *t = xcalloc(w->n + 1, sizeof(double));
		double *cost = xcalloc(w->n + 1, sizeof(double));
		bool applies = w->training && scaling_points(w, g, t, cost) > 1;
		free(g);
		free(t);
		free(cost);
		return applies;
	}
	if (c == RC_LOAD)
		return !w->training && w->recommended >= 0 &&
		       unsaturated(r_workload_curve(w, w->recommended)) >= 2;
	if (c == RC_ROOFLINE) {
		const struct r_accelerator *a = w->recommended >= 0
			? r_plan_accelerator(p, w->v[w->recommended].accelerator) : NULL;
		/* a subnormal bandwidth or peak has no roof to draw */
		return a && roofline_drawable(peak_for(a, w->precision), a->bandwidth);
	}
	return w->n > 0;
}

void report_chart_draw(cairo_t *cr, struct rect area, const struct r_plan *p,
		       const struct r_workload *w, const size_t *ranked,
		       size_t n_ranked, enum report_chart c,
		       enum report_lang lang, const struct chart_style *st)
{
	switch (c) {
	case RC_TIME_COST: time_cost(cr, area, p, w, lang, st); break;
	case RC_LOAD: latency_load(cr, area, w, lang, st); break;
	case RC_COST: cost_bars(cr, area, p, w, ranked, n_ranked, lang, st); break;
	case RC_BREAKDOWN: breakdown_bars(cr, area, w, ranked, n_ranked, lang, st); break;
	case RC_MEMORY: memory_bars(cr, area, w, ranked, n_ranked, lang, st); break;
	case RC_SCALING: scaling(cr, area, p, w, lang, st); break;
	case RC_ROOFLINE: roofline(cr, area, p, w, lang, st); break;
	default: break;
	}
}

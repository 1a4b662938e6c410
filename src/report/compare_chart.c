/*
 * compare_chart.c - a comparison as one chart; see compare_chart.h.
 */
#include "report/compare_chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "report/chart.h"
#include "report/report.h"

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Runs and profiles: after / before per metric, its interval as error. */
static void ratio_bars(cairo_t *cr, struct rect area, const json_t *j,
		       const struct chart_style *st)
{
	const json_t *ms = json_object_get(j, "metrics");
	size_t n = json_array_size(ms), k = 0;
	struct bar_group *g = xcalloc(n + 1, sizeof(*g));
	double *v = xcalloc(n + 1, sizeof(double)), top = 1;
	for (size_t i = 0; i < n; i++) {
		const json_t *m = json_array_get(ms, i), *ri = json_object_get(m, "ratio_interval");
		double r = num(m, "ratio");
		if (!isfinite(r) || r < 0)
			continue;	/* no ratio to draw: the table says why */
		v[k] = r;
		g[k].label = json_string_value(json_object_get(m, "name"));
		g[k].values = &v[k];
		if (json_is_array(ri)) {
			g[k].err_low = fmax(0, json_number_value(json_array_get(ri, 0)));
			g[k].err_high = json_number_value(json_array_get(ri, 1));
		}
		top = fmax(top, fmax(r, g[k].err_high));
		k++;
	}
	const char *seg[] = {"after / before"};
	struct rgb col[] = {chart_colour(0)};
	struct axis y = {0, top * 1.05, false, "after / before (95% interval; 1: no change)", NULL};
	chart_bars(cr, area, "Change of each metric, with its 95% interval", &y, g, k,
		   seg, col, 1, false, NULL, st);
	free(g);
	free(v);
}

/* Plans: the cost at each workload's recommendation, before and after. */
static void cost_bars(cairo_t *cr, struct rect area, const json_t *j,
		      const struct chart_style *st)
{
	const json_t *ws = json_object_get(j, "workloads");
	size_t n = json_array_size(ws);
	struct bar_group *g = xcalloc(n + 1, sizeof(*g));
	double (*v)[2] = xcalloc(n + 1, sizeof(*v)), top = 0;
	for (size_t i = 0; i < n; i++) {
		const json_t *w = json_array_get(ws, i);
		const json_t *r = json_object_get(w, "recommended");
		v[i][0] = fmax(0, num(json_object_get(r, "before"), "cost"));
		v[i][1] = fmax(0, num(json_object_get(r, "after"), "cost"));
		for (int s = 0; s < 2; s++)
			if (!isfinite(v[i][s]))
				v[i][s] = 0;	/* no recommendation: no bar */
		g[i].label = json_string_value(json_object_get(w, "name"));
		g[i].values = v[i];
		top = fmax(top, fmax(v[i][0], v[i][1]));
	}
	const char *seg[] = {"before", "after"};
	struct rgb col[] = {chart_grey(), chart_colour(0)};
	char label[96];
	snprintf(label, sizeof(label), "cost per run or month (%s)",
		 json_string_value(json_object_get(json_object_get(j, "after"), "currency")));
	struct axis y = {0, top > 0 ? top * 1.05 : 1, false, label, NULL};
	chart_bars(cr, area, "Cost at each workload's recommendation", &y, g, n,
		   seg, col, 2, true, NULL, st);
	free(g);
	free(v);
}

static void draw(cairo_t *cr, struct rect area, const struct chart_style *st,
		 const void *arg)
{
	const json_t *j = arg;
	const char *kind = json_string_value(json_object_get(j, "kind"));
	if (kind && strcmp(kind, "plans") == 0)
		cost_bars(cr, area, j, st);
	else
		ratio_bars(cr, area, j, st);
}

unsigned char *compare_chart(const char *path, const json_t *j,
			     const struct report_font *f, const char *date,
			     size_t *len, char *why, size_t wlen)
{
	return report_drawing_bytes(path, draw, j, f, date, len, why, wlen);
}

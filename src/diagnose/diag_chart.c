/*
 * diag_chart.c - see diag_chart.h.
 */
#include "diag_chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/xalloc.h"
#include "report/chart.h"
#include "report/report.h"
#include "report/text.h"

struct chart_in {
	const struct smi_log *log;
	const struct diagnosis *g;
};

/* Each sample's reading in `unit` (SI divided by it), or NaN (a break in
 * the line) where absent. */
static double *series(const struct sample_series *s, enum series_column c,
		      double unit)
{
	double *v = xcalloc(s->n ? s->n : 1, sizeof(double));
	for (size_t i = 0; i < s->n; i++)
		v[i] = series_has(s, c, i) ? series_get(s, c, i) / unit : NAN;
	return v;
}

/* Utilisation against time, each finding's start and end marked. */
static void util_panel(cairo_t *cr, struct rect r, const struct smi_gpu *gpu,
		       const struct diag_gpu *dg, const double *t,
		       const struct chart_style *st)
{
	const struct sample_series *s = &gpu->s;
	double *u = series(s, SC_UTIL, 1);
	struct curve c = {t, u, s->n, chart_colour(0), -1, false, false};
	struct curve_key key = {"utilization.gpu", chart_colour(0), -1, false};
	size_t nf = dg->d.n;
	struct curve_stop *stops = xcalloc(2 * nf + 1, sizeof(*stops));
	for (size_t i = 0; i < nf; i++) {
		const struct finding *f = &dg->d.f[i];
		struct rgb col = chart_colour(1 + (size_t)f->kind);
		stops[2 * i] = (struct curve_stop){f->start_s, finding_kind_name(f->kind), col};
		stops[2 * i + 1] = (struct curve_stop){f->end_s, "", col};
	}
	struct curve_chart cc = {&c, 1, &key, 1, NULL, 0, stops, 2 * nf};
	struct axis x = {NAN, NAN, false, "time (s)", NULL};
	struct axis y = {0, 100, false, "utilisation (%)", NULL};
	char title[2 * DIAG_TEXT_MAX + 64];
	snprintf(title, sizeof(title), "GPU %s%s%s%s: utilisation and findings",
		 dg->label, dg->name[0] ? " (" : "", dg->name, dg->name[0] ? ")" : "");
	chart_curves(cr, r, title, &x, &y, &cc, st);
	free(stops);
	free(u);
}

/* SM clock, temperature and power, each on its own axis. */
static void sensor_panel(cairo_t *cr, struct rect r, const struct smi_gpu *gpu,
			 const double *t, const struct chart_style *st)
{
	const struct sample_series *s = &gpu->s;
	double *c = series(s, SC_SM_CLOCK, 1e6);
	double *k = series(s, SC_TEMP, 1);
	double *w = series(s, SC_POWER, 1);
	struct axis x = {NAN, NAN, false, "time (s)", NULL};
	struct axis ya = {NAN, NAN, false, "SM clock (MHz)", NULL};
	struct axis yb = {NAN, NAN, false, "temperature (C)", NULL};
	struct axis yc = {NAN, NAN, false, "power (W)", NULL};
	struct line_series lines[3] = {
		{"SM clock", c, &ya}, {"temperature", k, &yb}, {"power", w, &yc},
	};
	chart_lines(cr, r, "clocks, temperature and power", &x, t, s->n, lines, 3, st);
	free(c);
	free(k);
	free(w);
}

static void draw(cairo_t *cr, struct rect area, const struct chart_style *st,
		 const void *arg)
{
	const struct chart_in *in = arg;
	size_t n = in->log->n < DIAG_CHART_MAX_GPUS ? in->log->n : DIAG_CHART_MAX_GPUS;
	double band = n ? area.h / (double)n : area.h;
	for (size_t i = 0; i < n; i++) {
		const struct smi_gpu *gpu = &in->log->gpu[i];
		double *t = xcalloc(gpu->s.n ? gpu->s.n : 1, sizeof(double));
		for (size_t k = 0; k < gpu->s.n; k++)
			t[k] = gpu->s.t_s[k];
		double y = area.y + band * (double)i;
		util_panel(cr, (struct rect){area.x, y, area.w, band * 0.55},
			   gpu, &in->g->gpu[i], t, st);
		sensor_panel(cr, (struct rect){area.x, y + band * 0.55, area.w, band * 0.45},
			     gpu, t, st);
		free(t);
	}
}

unsigned char *diag_chart_bytes(const char *path, const struct smi_log *log,
				const struct diagnosis *g, const char *date,
				size_t *len, char *why, size_t wlen)
{
	struct report_font f;
	if (report_font_find(LANG_EN, &f, why, wlen) < 0) {
		report_fonts_shutdown();
		return NULL;
	}
	struct chart_in in = {log, g};
	unsigned char *b = report_drawing_bytes(path, draw, &in, &f, date, len, why, wlen);
	report_font_free(&f);
	/* fontconfig's caches freed: one chart a run, so nothing draws after */
	report_fonts_shutdown();
	return b;
}

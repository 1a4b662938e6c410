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

/*
 * What a band draws: times and the four readings (utilisation, SM clock
 * in MHz, temperature, power), NaN (a break in the line) where absent.
 * Up to CHART_POINTS_MOST samples, one point each; a longer log (a day at
 * 100 ms is 864,000 samples, more than a page has pixels, and a minute of
 * drawing) is cut into CHART_POINTS_MOST / 2 runs of samples, each drawn
 * as two points at its first and last time: its lowest and its highest
 * reading, in the order they came, so a drop or a spike of one sample
 * still shows.
 */
#define CHART_POINTS_MOST 4000
enum { LINE_UTIL, LINE_CLOCK, LINE_TEMP, LINE_POWER, LINES };
static const enum series_column line_column[LINES] = {SC_UTIL, SC_SM_CLOCK, SC_TEMP, SC_POWER};
static const double line_unit[LINES] = {1, 1e6, 1, 1};

struct drawn {
	size_t n;
	double *t;
	double *v[LINES];
};

static double reading(const struct sample_series *s, int line, size_t i)
{
	enum series_column c = line_column[line];
	return series_has(s, c, i) ? series_get(s, c, i) / line_unit[line] : NAN;
}

/* The lowest and highest reading of samples [a, b) into v[0..1], in the
 * order they came; NaN when none has one. */
static void run_extremes(const struct sample_series *s, int line, size_t a,
			 size_t b, double *v)
{
	size_t lo = b, hi = b;
	for (size_t i = a; i < b; i++) {
		double x = reading(s, line, i);
		if (isnan(x))
			continue;
		if (lo == b || x < reading(s, line, lo))
			lo = i;
		if (hi == b || x > reading(s, line, hi))
			hi = i;
	}
	if (lo == b) {
		v[0] = v[1] = NAN;
		return;
	}
	v[0] = reading(s, line, lo < hi ? lo : hi);
	v[1] = reading(s, line, lo < hi ? hi : lo);
}

static void drawn_of(const struct sample_series *s, struct drawn *d)
{
	bool whole = s->n <= CHART_POINTS_MOST;
	size_t runs = CHART_POINTS_MOST / 2;
	d->n = whole ? s->n : 2 * runs;
	d->t = xcalloc(d->n ? d->n : 1, sizeof(double));
	for (int l = 0; l < LINES; l++)
		d->v[l] = xcalloc(d->n ? d->n : 1, sizeof(double));
	if (whole) {
		for (size_t i = 0; i < s->n; i++) {
			d->t[i] = s->t_s[i];
			for (int l = 0; l < LINES; l++)
				d->v[l][i] = reading(s, l, i);
		}
		return;
	}
	for (size_t r = 0; r < runs; r++) {
		size_t a = r * s->n / runs, b = (r + 1) * s->n / runs;
		d->t[2 * r] = s->t_s[a];
		d->t[2 * r + 1] = s->t_s[b - 1];
		for (int l = 0; l < LINES; l++)
			run_extremes(s, l, a, b, &d->v[l][2 * r]);
	}
}

static void drawn_free(struct drawn *d)
{
	free(d->t);
	for (int l = 0; l < LINES; l++)
		free(d->v[l]);
}

/* Utilisation against time, each finding's start and end marked. */
static void util_panel(cairo_t *cr, struct rect r, const struct drawn *d,
		       const struct diag_gpu *dg, const struct chart_style *st)
{
	struct curve c = {d->t, d->v[LINE_UTIL], d->n, chart_colour(0), -1, false, false};
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
}

/* SM clock, temperature and power, each on its own axis. */
static void sensor_panel(cairo_t *cr, struct rect r, const struct drawn *d,
			 const struct chart_style *st)
{
	struct axis x = {NAN, NAN, false, "time (s)", NULL};
	struct axis ya = {NAN, NAN, false, "SM clock (MHz)", NULL};
	struct axis yb = {NAN, NAN, false, "temperature (C)", NULL};
	struct axis yc = {NAN, NAN, false, "power (W)", NULL};
	struct line_series lines[3] = {
		{"SM clock", d->v[LINE_CLOCK], &ya}, {"temperature", d->v[LINE_TEMP], &yb},
		{"power", d->v[LINE_POWER], &yc},
	};
	chart_lines(cr, r, "clocks, temperature and power", &x, d->t, d->n, lines, 3, st);
}

static void draw(cairo_t *cr, struct rect area, const struct chart_style *st,
		 const void *arg)
{
	const struct chart_in *in = arg;
	size_t n = in->log->n < DIAG_CHART_MAX_GPUS ? in->log->n : DIAG_CHART_MAX_GPUS;
	double band = n ? area.h / (double)n : area.h;
	for (size_t i = 0; i < n; i++) {
		struct drawn d;
		drawn_of(&in->log->gpu[i].s, &d);
		double y = area.y + band * (double)i;
		util_panel(cr, (struct rect){area.x, y, area.w, band * 0.55}, &d,
			   &in->g->gpu[i], st);
		sensor_panel(cr, (struct rect){area.x, y + band * 0.55, area.w, band * 0.45},
			     &d, st);
		drawn_free(&d);
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

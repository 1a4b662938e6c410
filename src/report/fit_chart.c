/*
 * fit_chart.c - a fitted scaling curve as a PNG; see fit_chart.h.
 */
#include "fit_chart.h"

#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"
#include "report/png_out.h"

#define SAMPLES 64	/* points along the fitted curve and its band */

/* The curve and its band at SAMPLES x values across the points' range:
 * log-spaced when the range wants a log axis. */
static void sample(const struct scaling_curve *c, bool log, double *x,
		   double *y, double *lo, double *hi)
{
	double a = c->x[0], b = c->x[0];
	for (size_t i = 1; i < c->n; i++) {
		a = fmin(a, c->x[i]);
		b = fmax(b, c->x[i]);
	}
	for (int i = 0; i < SAMPLES; i++) {
		double t = (double)i / (SAMPLES - 1);
		x[i] = log ? a * pow(b / a, t) : a + (b - a) * t;
		y[i] = fit_eval(&c->fit, x[i]);
		double w = fit_band(&c->fit, x[i]);
		lo[i] = y[i] - w;
		hi[i] = y[i] + w;
		if (log && !(lo[i] > 0))
			lo[i] = NAN;	/* off a log axis: the line breaks */
	}
}

static void draw(cairo_t *cr, const struct scaling_curve *c,
		 const struct report_font *f)
{
	const struct curve_form *form = curve_form(c->kind);
	struct chart_style st = {f->family, 22, 2};
	double xmin = c->x[0], xmax = c->x[0], ymin = c->y[0], ymax = c->y[0];
	for (size_t i = 1; i < c->n; i++) {
		xmin = fmin(xmin, c->x[i]);
		xmax = fmax(xmax, c->x[i]);
		ymin = fmin(ymin, c->y[i]);
		ymax = fmax(ymax, c->y[i]);
	}
	bool xlog = xmin > 0 && axis_wants_log(xmin, xmax);
	bool ylog = ymin > 0 && axis_wants_log(ymin, ymax);
	double sx[SAMPLES], sy[SAMPLES], lo[SAMPLES], hi[SAMPLES];
	sample(c, xlog, sx, sy, lo, hi);
	double *res = malloc(c->n * sizeof(double));
	for (size_t i = 0; i < c->n; i++)
		res[i] = 100 * fit_residual(&c->fit, c->x[i], c->y[i]);

	char title[400], xl[64], yl[64], fit_key[160];
	snprintf(title, sizeof(title), "%s (%s)", c->name, c->device);
	snprintf(xl, sizeof(xl), "%s", form->x);
	snprintf(yl, sizeof(yl), "%s", form->y);
	snprintf(fit_key, sizeof(fit_key), "fit: %s", form->equation);
	struct rgb ink = chart_colour(0), pts = chart_colour(1), grey = chart_grey();
	struct curve curves[] = {
		{sx, lo, SAMPLES, grey, -1, true, false},
		{sx, hi, SAMPLES, grey, -1, true, false},
		{sx, sy, SAMPLES, ink, -1, false, false},
		{c->x, c->y, c->n, pts, 0, false, true},
	};
	struct curve_key keys[] = {
		{"measured", pts, 0, false},
		{fit_key, ink, -1, false},
		{"95% band", grey, -1, false},
	};
	struct curve_chart top = {curves, 4, keys, 3, NULL, 0, NULL, 0};
	struct axis x = {NAN, NAN, xlog, xl, NULL};
	struct axis y = {NAN, NAN, ylog, yl, NULL};
	chart_curves(cr, (struct rect){20, 20, 1560, 640}, title, &x, &y, &top, &st);

	struct curve resid = {c->x, res, c->n, pts, 0, false, true};
	struct ref_line zero = {false, 0, ""};
	struct curve_chart bottom = {&resid, 1, NULL, 0, &zero, 1, NULL, 0};
	struct axis rx = {NAN, NAN, xlog, xl, NULL};
	struct axis ry = {NAN, NAN, false, "residual (%)", NULL};
	chart_curves(cr, (struct rect){20, 680, 1560, 300}, "relative residuals",
		     &rx, &ry, &bottom, &st);
	free(res);
}

unsigned char *fit_chart_png(const struct scaling_curve *c,
			     const struct report_font *f, size_t *len,
			     char *why, size_t wlen)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1600, 1000);
	cairo_t *cr = cairo_create(s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	unsigned char *png = NULL;
	if (c->n > 0)
		draw(cr, c, f);
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	if (st != CAIRO_STATUS_SUCCESS)
		snprintf(why, wlen, "cannot draw the fit of '%s': %s", c->name,
			 cairo_status_to_string(st));
	else
		png = png_encode(s, len, why, wlen);
	cairo_surface_destroy(s);
	return png;
}

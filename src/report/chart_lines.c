/*
 * chart_lines.c - chart_lines (see chart.h): up to CHART_MAX_LINES lines
 * over a shared x, each on its own y axis in its own colour and marker,
 * the legend across the top.
 */
#include "chart_frame.h"

#include <math.h>

/* Blue, orange and green: the palette's three farthest apart (its red is
 * close to orange); each line's own marker tells them apart in grey. */
static const size_t line_palette[CHART_MAX_LINES] = {0, 1, 4};
static const enum mark line_marks[CHART_MAX_LINES] = {
	MARK_CIRCLE, MARK_SQUARE, MARK_TRIANGLE};
static const enum mark line_legend_marks[CHART_MAX_LINES] = {
	MARK_LINE_CIRCLE, MARK_LINE_SQUARE, MARK_LINE_TRIANGLE};

static struct rgb line_colour(size_t i)
{
	return chart_colour(line_palette[i]);
}

/* A line's colour for text: a quarter darker, as small orange or green
 * text on white is hard to read in the line's own tone. */
static struct rgb line_text_colour(size_t i)
{
	struct rgb c = line_colour(i);
	return (struct rgb){c.r * 0.75, c.g * 0.75, c.b * 0.75};
}

/* One line with markers over xs, broken where a value cannot be shown. */
static void draw_line(struct chart *c, const struct axis *x,
		      const struct axis *y, const double *xs,
		      const double *ys, size_t n, struct rgb col, enum mark m)
{
	cairo_t *cr = c->cr;
	trace_polyline(c, x, y, xs, ys, n);
	set_rgb(cr, col, 1);
	cairo_set_line_width(cr, c->sz.lw * 2.2);
	cairo_stroke(cr);
	for (size_t i = 0; i < n; i++) {
		double px = map_x(c, x, xs[i]), py = map_y(c, y, ys[i]);
		if (isfinite(px) && isfinite(py))
			draw_mark(cr, px, py, c->sz.r * 1.3, m);
	}
}

static void values_range(const double *v, size_t n, bool log, double *lo,
			 double *hi)
{
	range_empty(lo, hi);
	for (size_t i = 0; v && i < n; i++)
		range_add(lo, hi, v[i], log);
}

/* The shared x ranged from xs; a log x counts GPUs: powers of two from
 * one up, unless the caller gave its own range. */
static void lines_x(struct laid_axis *lx, struct axis *x, const double *xs,
		    size_t n)
{
	double lo, hi;
	values_range(xs, n, x->log, &lo, &hi);
	axis_prepare(lx, x, lo, hi);
	if (x->log && !(lx->lo < lx->hi && x->min < x->max))
		lx->lo = fmax(1, lx->lo);
	lx->pow2 = x->log;
}

/* The lines, clipped to the plot grown by a marker so that end points
 * on its edges show whole. */
static void lines_draw(struct chart *c, const struct axis *x,
		       const double *xs, size_t n,
		       const struct line_series *lines, size_t k)
{
	cairo_t *cr = c->cr;
	double m = c->sz.r * 2;
	cairo_save(cr);
	cairo_rectangle(cr, c->plot.x - m, c->plot.y - m, c->plot.w + 2 * m,
			c->plot.h + 2 * m);
	cairo_clip(cr);
	for (size_t i = 0; xs && i < k; i++)
		if (lines[i].y)
			draw_line(c, x, lines[i].axis, xs, lines[i].y, n,
				  line_colour(i), line_marks[i]);
	cairo_restore(cr);
}

void chart_lines(cairo_t *cr, struct rect area, const char *title,
		 struct axis *x, const double *xs, size_t n,
		 const struct line_series *lines, size_t n_lines,
		 const struct chart_style *st)
{
	struct chart c;
	struct laid_axis lx, ly[CHART_MAX_LINES];
	struct legend_item items[CHART_MAX_LINES];
	size_t k = n_lines < CHART_MAX_LINES ? n_lines : CHART_MAX_LINES;
	double lo, hi;
	chart_start(&c, cr, area, title, st);
	if (k == 0) {
		chart_finish(&c);
		return;
	}
	for (size_t i = 0; i < k; i++)
		items[i] = (struct legend_item){lines[i].name, line_colour(i),
						line_legend_marks[i]};
	legend_rows(&c, items, k);
	lines_x(&lx, x, xs, n);
	for (size_t i = 0; i < k; i++) {
		values_range(lines[i].y, n, lines[i].axis->log, &lo, &hi);
		axis_prepare(&ly[i], lines[i].axis, lo, hi);
	}
	layout(&c, &lx, ly, k, 0, 0);
	draw_grid(&c, &lx, &ly[0]);
	lines_draw(&c, x, xs, n, lines, k);
	draw_x_axis(&c, &lx);
	for (size_t i = 0; i < k; i++)
		draw_y_axis(&c, &ly[i], i > 0, line_text_colour(i));
	chart_finish(&c);
}

/*
 * chart_lines.c - the line charts of chart.h: chart_lines, up to
 * CHART_MAX_LINES lines over a shared x, each on its own y axis in its
 * own colour and marker, at most two axes a panel; and chart_curves, any number of curves, each
 * with its own points, on one x and one y axis, with reference lines and
 * the rates where curves stop.  Both put the legend across the top.
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

/* A colour for text: a quarter darker, as small orange or green text on
 * white is hard to read in the line's own tone. */
static struct rgb text_tone(struct rgb c)
{
	return (struct rgb){c.r * 0.75, c.g * 0.75, c.b * 0.75};
}

static struct rgb line_text_colour(size_t i)
{
	return text_tone(line_colour(i));
}

/* One line with markers over xs, broken where a value cannot be shown;
 * `weight` scales its stroke and markers (1: a line chart's). */
static void draw_line(struct chart *c, const struct axis *x,
		      const struct axis *y, const double *xs,
		      const double *ys, size_t n, struct rgb col, enum mark m,
		      double weight, bool line)
{
	cairo_t *cr = c->cr;
	set_rgb(cr, col, 1);
	if (line) {
		trace_polyline(c, x, y, xs, ys, n);
		cairo_set_line_width(cr, c->sz.lw * 2.2 * weight);
		cairo_stroke(cr);
	}
	for (size_t i = 0; i < n; i++) {
		double px = map_x(c, x, xs[i]), py = map_y(c, y, ys[i]);
		if (isfinite(px) && isfinite(py))
			draw_mark(cr, px, py, c->sz.r * 1.3 * weight, m);
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

/* Clips to the plot grown by a marker, so that end points on its edges
 * show whole; the caller restores cr. */
static void clip_plot(struct chart *c)
{
	double m = c->sz.r * 2;
	cairo_save(c->cr);
	cairo_rectangle(c->cr, c->plot.x - m, c->plot.y - m, c->plot.w + 2 * m,
			c->plot.h + 2 * m);
	cairo_clip(c->cr);
}

/* The lines, clipped to the plot grown by a marker. */
static void lines_draw(struct chart *c, const struct axis *x,
		       const double *xs, size_t n,
		       const struct line_series *lines, size_t k)
{
	cairo_t *cr = c->cr;
	clip_plot(c);
	for (size_t i = 0; xs && i < k; i++)
		if (lines[i].y)
			draw_line(c, x, lines[i].axis, xs, lines[i].y, n,
				  line_colour(i), line_marks[i], 1, true);
	cairo_restore(cr);
}

/* Lines [first, first + k) of a line chart in area, each on its own y
 * axis (the first left, the second right), coloured by their index. */
static void lines_panel(cairo_t *cr, struct rect area, const char *title,
			struct axis *x, const double *xs, size_t n,
			const struct line_series *lines, size_t first, size_t k,
			const struct chart_style *st, struct rect *plot)
{
	struct chart c;
	struct laid_axis lx, ly[2];
	struct legend_item items[2];
	struct line_series mine[CHART_MAX_LINES];
	double lo, hi;
	chart_start(&c, cr, area, title, st);
	for (size_t i = 0; i < first + k; i++)	/* colours by index */
		mine[i] = i < first ? (struct line_series){0} : lines[i];
	for (size_t i = 0; i < k; i++)
		items[i] = (struct legend_item){lines[first + i].name,
						line_colour(first + i),
						line_legend_marks[first + i]};
	legend_rows(&c, items, k);
	lines_x(&lx, x, xs, n);
	for (size_t i = 0; i < k; i++) {
		const struct line_series *l = &lines[first + i];
		values_range(l->y, n, l->axis->log, &lo, &hi);
		axis_prepare(&ly[i], l->axis, lo, hi);
	}
	layout(&c, &lx, ly, k, 0, 0);
	if (plot->w > 0) {	/* under another panel: the same x span */
		c.plot.x = plot->x;
		c.plot.w = plot->w;
	}
	*plot = c.plot;
	draw_grid(&c, &lx, &ly[0]);
	lines_draw(&c, x, xs, n, mine, first + k);
	draw_x_axis(&c, &lx);
	for (size_t i = 0; i < k; i++)
		draw_y_axis(&c, &ly[i], i > 0, line_text_colour(first + i));
	chart_finish(&c);
}

/*
 * At most two y axes a plot, one each side: a third line gets a panel of
 * its own under the first two, a third of the height, on the same x
 * (three axes side by side could not be read against the grid).
 */
void chart_lines(cairo_t *cr, struct rect area, const char *title,
		 struct axis *x, const double *xs, size_t n,
		 const struct line_series *lines, size_t n_lines,
		 const struct chart_style *st)
{
	size_t k = n_lines < CHART_MAX_LINES ? n_lines : CHART_MAX_LINES;
	if (k == 0) {
		struct chart c;
		chart_start(&c, cr, area, title, st);
		chart_finish(&c);
		return;
	}
	struct rect plot = {0, 0, 0, 0};
	if (k <= 2) {
		lines_panel(cr, area, title, x, xs, n, lines, 0, k, st, &plot);
		return;
	}
	double top_h = area.h * 0.6;
	lines_panel(cr, (struct rect){area.x, area.y, area.w, top_h}, title, x,
		    xs, n, lines, 0, 2, st, &plot);
	lines_panel(cr, (struct rect){area.x, area.y + top_h, area.w,
				      area.h - top_h}, NULL, x, xs, n, lines,
		    2, 1, st, &plot);
}

/* ---- curves on shared axes ---------------------------------------------- */

/* A curve's marker (0 to 2), on the plot or, with a line, in the legend;
 * out of range: none. */
static enum mark curve_mark(int m, bool key)
{
	if (m < 0 || m >= CHART_MAX_LINES)
		return key ? MARK_LINE : MARK_NONE;
	return key ? line_legend_marks[m] : line_marks[m];
}

/* The range of x (or y) over the curves' points that have a y, the
 * reference lines across that axis and, on x, the stops. */
static void curves_range(const struct curve_chart *cc, bool is_x, bool log,
			 double *lo, double *hi)
{
	range_empty(lo, hi);
	for (size_t k = 0; k < cc->n_curves; k++) {
		const struct curve *cv = &cc->curves[k];
		for (size_t i = 0; cv->x && cv->y && i < cv->n; i++)
			if (isfinite(cv->y[i]))
				range_add(lo, hi, is_x ? cv->x[i] : cv->y[i], log);
	}
	for (size_t i = 0; i < cc->n_refs; i++)
		if (cc->refs[i].vertical == is_x)
			range_add(lo, hi, cc->refs[i].at, log);
	for (size_t i = 0; is_x && i < cc->n_stops; i++)
		range_add(lo, hi, cc->stops[i].at, log);
}

/*
 * Each stop as a dotted vertical line in its colour, labelled in a row of
 * its own under the top row (where a vertical reference line's label
 * sits): right of the line, or left of it near the plot's right edge.
 */
static void curve_stops(struct chart *c, const struct axis *x,
			const struct curve_stop *stops, size_t n)
{
	cairo_t *cr = c->cr;
	const struct rect *p = &c->plot;
	const struct sizes *s = &c->sz;
	double dots[] = {s->lw * 0.1, s->lw * 3};
	chart_font(c, s->fs, false);
	double row = font_h(cr) * 1.3;
	for (size_t i = 0; i < n; i++) {
		double at = map_x(c, x, stops[i].at);
		if (!(at >= p->x - 0.5 && at <= p->x + p->w + 0.5))
			continue;
		cairo_save(cr);
		set_rgb(cr, stops[i].colour, 1);
		cairo_set_line_width(cr, s->lw * 2);
		cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
		cairo_set_dash(cr, dots, 2, 0);
		stroke_line(cr, at, p->y, at, p->y + p->h);
		cairo_restore(cr);
		bool right = at + p->w * 0.35 < p->x + p->w;
		set_rgb(cr, text_tone(stops[i].colour), 1);
		put_text(cr, at + (right ? s->pad : -s->pad),
			 p->y + s->pad + row * (double)(i + 1), stops[i].label,
			 p->w * 0.35, right ? 0 : 1, 0, true);
	}
}

/* The curves: lighter ones first, so the main ones lie on top. */
static void curves_draw(struct chart *c, const struct axis *x,
			const struct axis *y, const struct curve_chart *cc)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < cc->n_curves; k++) {
			const struct curve *cv = &cc->curves[k];
			if (cv->thin != (pass == 0) || !cv->x || !cv->y)
				continue;
			draw_line(c, x, y, cv->x, cv->y, cv->n, cv->colour,
				  curve_mark(cv->marker, false),
				  cv->thin ? 0.7 : 1, !cv->no_line);
		}
}

#define CURVE_KEYS_MAX 16	/* legend entries shown; more are left out */

void chart_curves(cairo_t *cr, struct rect area, const char *title,
		  struct axis *x, struct axis *y, const struct curve_chart *cc,
		  const struct chart_style *st)
{
	struct chart c;
	struct laid_axis lx, ly;
	struct legend_item items[CURVE_KEYS_MAX];
	size_t nk = cc->n_keys < CURVE_KEYS_MAX ? cc->n_keys : CURVE_KEYS_MAX;
	double lo, hi;
	chart_start(&c, cr, area, title, st);
	for (size_t i = 0, row = 0; i < nk; i++) {
		items[i] = (struct legend_item){cc->keys[i].name, cc->keys[i].colour,
						curve_mark(cc->keys[i].marker, true)};
		if (i + 1 == nk || cc->keys[i + 1].new_row) {
			legend_rows(&c, items + row, i + 1 - row);
			row = i + 1;
		}
	}
	curves_range(cc, true, x->log, &lo, &hi);
	axis_prepare(&lx, x, lo, hi);
	curves_range(cc, false, y->log, &lo, &hi);
	axis_prepare(&ly, y, lo, hi);
	layout(&c, &lx, &ly, 1, 0, 0);
	draw_grid(&c, &lx, &ly);
	clip_plot(&c);
	curves_draw(&c, x, y, cc);
	curve_stops(&c, x, cc->stops, cc->n_stops);
	draw_refs(&c, x, y, cc->refs, cc->n_refs);
	cairo_restore(cr);
	draw_x_axis(&c, &lx);
	draw_y_axis(&c, &ly, 0, ink);
	chart_finish(&c);
}

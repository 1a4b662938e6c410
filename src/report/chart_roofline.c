/*
 * chart_roofline.c - chart_roofline (see chart.h): one accelerator's roof,
 * min(peak, bandwidth x intensity) on log-log axes, its ridge, peak and
 * bandwidth labelled, and the op classes' points with labels placed clear
 * of each other and of the roof's own labels.
 */
#include "chart_frame.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* FLOP/s in the unit that suits the peak, and the chart's words in the
 * caller's language (English when none are given). */
struct flops_unit {
	double scale;
	const char *unit;		/* "TFLOP/s" */
	const char *peak, *ridge;	/* words before the figures */
	char y_label[TEXT_MAX], x_label[TEXT_MAX];
};

static struct flops_unit flops_unit(double peak, const struct roofline_words *w)
{
	static const struct roofline_words english = {
		"performance", "arithmetic intensity", "peak", "ridge"};
	if (!w)
		w = &english;
	struct flops_unit u = {1, "FLOP/s", w->peak, w->ridge, "", ""};
	if (peak >= 1e12)
		u.scale = 1e12, u.unit = "TFLOP/s";
	else if (peak >= 1e9)
		u.scale = 1e9, u.unit = "GFLOP/s";
	snprintf(u.y_label, sizeof(u.y_label), "%s (%s)", w->performance, u.unit);
	snprintf(u.x_label, sizeof(u.x_label), "%s (FLOP/byte)", w->intensity);
	return u;
}

/* A bandwidth for the roof's label: "3.35 TB/s". */
static void format_bandwidth(double bw, char *buf, size_t len)
{
	if (bw >= 1e12)
		snprintf(buf, len, "%.3g TB/s", bw / 1e12);
	else
		snprintf(buf, len, "%.3g GB/s", bw / 1e9);
}

static bool boxes_overlap(const struct rect *a, const struct rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w &&
	       a->y < b->y + b->h && b->y < a->y + a->h;
}

static bool rect_inside(const struct rect *in, const struct rect *out)
{
	return in->x >= out->x && in->y >= out->y &&
	       in->x + in->w <= out->x + out->w &&
	       in->y + in->h <= out->y + out->h;
}

/* Is box clear of every box in taken[0..n)? */
static bool box_free(const struct rect *box, const struct rect *taken,
		     size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (boxes_overlap(box, &taken[i]))
			return false;
	return true;
}

/*
 * A place for a w x h label near the marker at (px, py): right of it, then
 * left, at growing vertical offsets, the first clear of every box in
 * taken and inside the plot.  Falls back to the right of the marker,
 * pulled inside the plot.
 */
static struct rect place_label(const struct chart *c, double px, double py,
			       double w, double h, const struct rect *taken,
			       size_t n)
{
	double gap = c->sz.pad + c->sz.r * 1.3;
	for (int k = 0; k < 13; k++) {
		double dy = (double)((k + 1) / 2) * (k % 2 ? -1 : 1) * h * 1.05;
		for (int side = 0; side < 2; side++) {
			struct rect b = {side ? px - gap - w : px + gap,
					 py - h / 2 + dy, w, h};
			if (rect_inside(&b, &c->plot) && box_free(&b, taken, n))
				return b;
		}
	}
	struct rect b = {px + gap, py - h / 2, w, h};
	b.x = fmin(fmax(b.x, c->plot.x), c->plot.x + c->plot.w - w);
	b.y = fmin(fmax(b.y, c->plot.y), c->plot.y + c->plot.h - h);
	return b;
}

/* The roof: light fill under it, min(peak, bw x I) across the plot, the
 * ridge marked with a dotted drop to the axis and its intensity.  Returns
 * the box of the ridge's label, for point labels to keep clear of. */
static struct rect roof_draw(struct chart *c, const struct axis *x,
		      const struct axis *y, double peak, double bw,
		      const struct flops_unit *u)
{
	cairo_t *cr = c->cr;
	const struct rect *p = &c->plot;
	double ridge = peak / bw, bottom = p->y + p->h;
	double xs[3] = {x->min, ridge, x->max};
	char buf[TEXT_MAX];
	cairo_new_path(cr);
	for (int i = 0; i < 3; i++)
		cairo_line_to(cr, map_x(c, x, xs[i]),
			      map_y(c, y, fmin(peak, bw * xs[i]) / u->scale));
	cairo_line_to(cr, p->x + p->w, bottom);
	cairo_line_to(cr, p->x, bottom);
	cairo_close_path(cr);
	cairo_set_source_rgba(cr, 0.3, 0.45, 0.65, 0.08);
	cairo_fill(cr);
	for (int i = 0; i < 3; i++)
		cairo_line_to(cr, map_x(c, x, xs[i]),
			      map_y(c, y, fmin(peak, bw * xs[i]) / u->scale));
	set_rgb(cr, (struct rgb){0.2, 0.2, 0.2}, 1);
	cairo_set_line_width(cr, c->sz.lw * 2.5);
	cairo_stroke(cr);
	double rx = map_x(c, x, ridge), ry = map_y(c, y, peak / u->scale);
	double dots[] = {c->sz.lw * 1.5, c->sz.lw * 2.5};
	cairo_save(cr);
	cairo_set_dash(cr, dots, 2, 0);
	cairo_set_line_width(cr, c->sz.lw);
	stroke_line(cr, rx, ry, rx, bottom);
	cairo_restore(cr);
	cairo_arc(cr, rx, ry, c->sz.r * 1.6, 0, TAU);
	cairo_fill(cr);
	chart_font(c, c->sz.fs, false);
	snprintf(buf, sizeof(buf), "%s %.3g FLOP/byte", u->ridge, ridge);
	double h = font_h(cr);
	double w = put_text(cr, rx + c->sz.pad, bottom - c->sz.pad, buf, 0, 0,
			    1, true);
	return (struct rect){rx + c->sz.pad, bottom - c->sz.pad - h, w, h};
}

/* The axis-aligned box around a w x h label whose bottom-left corner is
 * at (x, y) and whose baseline is rotated by angle a. */
static struct rect rotated_box(double x, double y, double w, double h,
			       double a)
{
	double lx[4] = {0, w, 0, w}, ly[4] = {0, 0, -h, -h};
	double x0 = HUGE_VAL, y0 = HUGE_VAL, x1 = -HUGE_VAL, y1 = -HUGE_VAL;
	for (int i = 0; i < 4; i++) {
		double px = x + lx[i] * cos(a) - ly[i] * sin(a);
		double py = y + lx[i] * sin(a) + ly[i] * cos(a);
		x0 = fmin(x0, px), x1 = fmax(x1, px);
		y0 = fmin(y0, py), y1 = fmax(y1, py);
	}
	return (struct rect){x0, y0, x1 - x0, y1 - y0};
}

/*
 * The roof's two figures: the peak under the flat part's right end, the
 * bandwidth along the slope just short of the ridge, above the line
 * where no point can be (points sit under the roof).  Both boxes go to
 * taken[0..1] for the point labels to keep clear of.
 */
static void roof_labels(struct chart *c, const struct axis *x,
			const struct axis *y, double peak, double bw,
			const struct flops_unit *u, struct rect taken[2])
{
	cairo_t *cr = c->cr;
	const struct rect *p = &c->plot;
	char buf[TEXT_MAX];
	chart_font(c, c->sz.fs, true);
	set_rgb(cr, (struct rgb){0.2, 0.2, 0.2}, 1);
	snprintf(buf, sizeof(buf), "%s %.4g %s", u->peak, peak / u->scale,
		 u->unit);
	double h = font_h(cr), py = map_y(c, y, peak / u->scale) + c->sz.pad * 1.5;
	double ridge = peak / bw, rx0 = map_x(c, x, ridge) + c->sz.pad;
	double w;
	/* under the roof just right of the ridge, where compute-bound points
	 * (a GEMM near the peak, at the plot's right) are not; at the right
	 * end only when the ridge leaves no room */
	if (isfinite(rx0) && rx0 + text_w(cr, buf) <= p->x + p->w - c->sz.pad) {
		w = put_text(cr, rx0, py, buf, 0, 0, 0, true);
		taken[0] = (struct rect){rx0, py, w, h};
	} else {
		w = put_text(cr, p->x + p->w - c->sz.pad, py, buf, p->w * 0.5,
			     1, 0, true);
		taken[0] = (struct rect){p->x + p->w - c->sz.pad - w, py, w, h};
	}
	/* from where the slope enters the plot to the ridge, on screen */
	double ie = fmax(x->min, y->min * u->scale / bw);
	double ex = map_x(c, x, ie), ey = map_y(c, y, bw * ie / u->scale);
	double rx = map_x(c, x, ridge), ry = map_y(c, y, peak / u->scale);
	double len = hypot(rx - ex, ry - ey), a = atan2(ry - ey, rx - ex);
	chart_font(c, c->sz.fs, false);
	format_bandwidth(bw, buf, sizeof(buf));
	w = fmin(text_w(cr, buf), len);
	double back = fmin(len, w + c->sz.fs * 2);
	double sx = rx - back * cos(a), sy = ry - back * sin(a);
	taken[1] = (struct rect){0, 0, 0, 0};
	if (!isfinite(sx) || !isfinite(sy) || !isfinite(a))
		return;		/* a NaN angle would break cr's matrix */
	cairo_save(cr);
	cairo_translate(cr, sx, sy);
	cairo_rotate(cr, a);
	put_text(cr, 0, -c->sz.pad, buf, len, 0, 1, true);
	cairo_restore(cr);
	taken[1] = rotated_box(sx + c->sz.pad * sin(a),
			       sy - c->sz.pad * cos(a), w, h, a);
}

/* The points with labels that keep clear of each other and of every
 * marker; a displaced label gets a thin leader line. */
static void roof_points(struct chart *c, const struct axis *x,
			const struct axis *y, const struct roof_point *pt,
			size_t n, const struct flops_unit *u, const struct rect *fixed,
			size_t n_fixed)
{
	cairo_t *cr = c->cr;
	struct rect taken[260];
	size_t nt = n_fixed, k = n < 128 ? n : 128;
	memcpy(taken, fixed, n_fixed * sizeof(taken[0]));
	double r = c->sz.r * 1.5;
	char buf[TEXT_MAX];
	chart_font(c, c->sz.fs, false);
	double h = font_h(cr);
	for (size_t i = 0; i < k; i++) {
		double px = map_x(c, x, pt[i].intensity);
		double py = map_y(c, y, pt[i].achieved / u->scale);
		if (isfinite(px) && isfinite(py))
			taken[nt++] = (struct rect){px - r, py - r, 2 * r, 2 * r};
	}
	for (size_t i = 0; i < k; i++) {
		double px = map_x(c, x, pt[i].intensity);
		double py = map_y(c, y, pt[i].achieved / u->scale);
		if (!isfinite(px) || !isfinite(py))
			continue;
		set_rgb(cr, chart_colour(i), 1);
		draw_mark(cr, px, py, r, MARK_CIRCLE);
		fit_text(cr, pt[i].label, c->plot.w * 0.4, buf);
		struct rect b = place_label(c, px, py, text_w(cr, buf), h,
					    taken, nt);
		if (nt < 260)
			taken[nt++] = b;
		if (fabs(b.y + h / 2 - py) > h * 0.6) {
			cairo_set_line_width(cr, c->sz.lw * 0.7);
			stroke_line(cr, px, py, b.x < px ? b.x + b.w : b.x,
				    b.y + h / 2);
		}
		set_rgb(cr, ink, 1);
		put_text(cr, b.x, b.y, buf, 0, 0, 0, true);
	}
}

/* Axis ranges: thirty times either side of the ridge, every point, and
 * the roof from the peak down to 1/300 of it. */
static void roof_ranges(double peak, double bw, const struct roof_point *pt,
			size_t n, const struct flops_unit *u, struct axis *x,
			struct axis *y)
{
	double ridge = peak / bw;
	double xlo = ridge / 30, xhi = ridge * 30;
	double ylo = peak / 300, yhi = peak;
	for (size_t i = 0; i < n; i++) {
		range_add(&xlo, &xhi, pt[i].intensity, true);
		range_add(&ylo, &yhi, pt[i].achieved, true);
	}
	*x = (struct axis){xlo, xhi, true, u->x_label, NULL};
	*y = (struct axis){ylo / u->scale, yhi / u->scale, true, u->y_label, NULL};
}

bool roofline_drawable(double peak_flops, double bandwidth)
{
	if (!(peak_flops > 0) || !(bandwidth > 0) || !isfinite(peak_flops) ||
	    !isfinite(bandwidth))
		return false;
	double ridge = peak_flops / bandwidth;
	/* the y axis is in FLOP/s down to peak / 300, and in the peak's unit
	 * (up to 1e12) after flops_unit's scaling */
	return ridge / 30 >= AXIS_LOG_MIN && ridge * 30 <= AXIS_LOG_MAX &&
	       peak_flops / 300 / 1e12 >= AXIS_LOG_MIN &&
	       peak_flops <= AXIS_LOG_MAX;
}

void chart_roofline(cairo_t *cr, struct rect area, const char *title,
		    double peak_flops, double bandwidth,
		    const struct roof_point *points, size_t n,
		    const struct roofline_words *words,
		    const struct chart_style *st)
{
	struct chart c;
	struct axis x, y;
	struct laid_axis lx, ly;
	chart_start(&c, cr, area, title, st);
	if (!roofline_drawable(peak_flops, bandwidth)) {
		chart_finish(&c);
		return;
	}
	struct flops_unit unit = flops_unit(peak_flops, words);
	const struct flops_unit *u = &unit;
	roof_ranges(peak_flops, bandwidth, points, n, u, &x, &y);
	axis_prepare(&lx, &x, x.min, x.max);
	axis_prepare(&ly, &y, y.min, y.max);
	layout(&c, &lx, &ly, 1, 0, 0);
	/* the roof at the very top would read as the plot's frame */
	if (frac(&y, peak_flops / u->scale) > 0.97)
		y.max *= pow(y.max / y.min, 0.06);
	draw_grid(&c, &lx, &ly);
	cairo_save(cr);
	cairo_rectangle(cr, c.plot.x, c.plot.y, c.plot.w, c.plot.h);
	cairo_clip(cr);
	struct rect fixed[3];
	fixed[0] = roof_draw(&c, &x, &y, peak_flops, bandwidth, u);
	roof_labels(&c, &x, &y, peak_flops, bandwidth, u, fixed + 1);
	roof_points(&c, &x, &y, points, n, u, fixed, 3);
	cairo_restore(cr);
	draw_x_axis(&c, &lx);
	draw_y_axis(&c, &ly, 0, ink);
	chart_finish(&c);
}

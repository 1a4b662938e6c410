/*
 * chart_scatter.c - chart_scatter (see chart.h): the points of several
 * series, the Pareto front through them, deadline and budget lines, rings
 * around the recommended points, and a legend placed where it covers the
 * fewest points.
 *
 * Muted points go first, then the front, then the coloured points, the
 * reference lines and the rings last, so that what matters is on top.
 * Points on an unscaled image surface are stamped from a small mask,
 * rounded to the pixel, instead of filled as paths: several times faster.
 */
#include "chart_frame.h"
#include "ref_labels.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The data range of every point, front vertex and reference line on one
 * axis (the y axis when vertical_refs is false). */
static void scatter_range(const struct point_series *series, size_t ns,
			  const double *front, size_t nf,
			  const struct ref_line *refs, size_t nr, bool is_x,
			  bool log, double *lo, double *hi)
{
	range_empty(lo, hi);
	for (size_t s = 0; s < ns; s++) {
		const double *v = is_x ? series[s].x : series[s].y;
		for (size_t i = 0; v && i < series[s].n; i++)
			range_add(lo, hi, v[i], log);
	}
	for (size_t i = 0; front && i < nf; i++)
		range_add(lo, hi, front[i], log);
	for (size_t i = 0; i < nr; i++)
		if (refs[i].vertical == is_x)
			range_add(lo, hi, refs[i].at, log);
}

/* Is the point inside the plot, grown by margin on each side? */
static bool in_plot(const struct chart *c, double px, double py, double margin)
{
	return px >= c->plot.x - margin && px <= c->plot.x + c->plot.w + margin &&
	       py >= c->plot.y - margin && py <= c->plot.y + c->plot.h + margin;
}

/*
 * A filled circle of radius r as a small A8 mask, for unscaled image
 * surfaces: masking it at each point is several times faster than
 * filling thousands of circles as a path (a 10,000-point scatter in
 * about 5 ms instead of 30-60).  NULL for any other target, so PDF and
 * SVG keep vector circles.  The caller destroys it.
 */
static cairo_surface_t *dot_stamp(cairo_t *cr, double r)
{
	cairo_matrix_t m;
	cairo_get_matrix(cr, &m);
	cairo_surface_t *target = cairo_get_group_target(cr);
	if (cairo_surface_get_type(target) != CAIRO_SURFACE_TYPE_IMAGE ||
	    m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0 ||
	    m.x0 != floor(m.x0) || m.y0 != floor(m.y0))
		return NULL;
	int size = (int)ceil(2 * r) + 2;
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, size,
							size);
	cairo_t *c = cairo_create(s);
	cairo_arc(c, size / 2.0, size / 2.0, r, 0, TAU);
	cairo_fill(c);
	cairo_destroy(c);
	return s;
}

/*
 * Draws a circle in the current source for each point of s whose muted
 * flag equals `muted`: through the stamp when there is one (positions
 * rounded to the pixel), else as one path filled once.
 */
static void scatter_points(struct chart *c, const struct axis *x,
			   const struct axis *y, const struct point_series *s,
			   int mark, bool muted, double r, cairo_surface_t *stamp)
{
	cairo_t *cr = c->cr;
	double half = stamp ? cairo_image_surface_get_width(stamp) / 2.0 : 0;
	if (!s->x || !s->y)
		return;
	cairo_new_path(cr);
	for (size_t i = 0; i < s->n; i++) {
		if ((s->muted && s->muted[i]) != muted)
			continue;
		double px = map_x(c, x, s->x[i]), py = map_y(c, y, s->y[i]);
		if (!in_plot(c, px, py, r))
			continue;
		if (mark != MARK_CIRCLE) {	/* owned, illustrative: few */
			draw_mark(cr, px, py, r, (enum mark)mark);
			continue;
		}
		if (stamp) {
			cairo_mask_surface(cr, stamp, floor(px - half + 0.5),
					   floor(py - half + 0.5));
			continue;
		}
		cairo_new_sub_path(cr);
		cairo_arc(cr, px, py, r, 0, TAU);
	}
	cairo_fill(cr);
}

/* Rings around highlighted points, drawn over everything else. */
static void scatter_rings(struct chart *c, const struct axis *x,
			  const struct axis *y, const struct point_series *s,
			  double r)
{
	cairo_t *cr = c->cr;
	if (!s->highlight || !s->x || !s->y)
		return;
	cairo_new_path(cr);
	for (size_t i = 0; i < s->n; i++) {
		if (!s->highlight[i])
			continue;
		double px = map_x(c, x, s->x[i]), py = map_y(c, y, s->y[i]);
		if (!in_plot(c, px, py, r))
			continue;
		cairo_new_sub_path(cr);
		cairo_arc(cr, px, py, r, 0, TAU);
	}
	set_rgb(cr, ink, 1);
	cairo_set_line_width(cr, c->sz.lw * 1.6);
	cairo_stroke(cr);
}

/* The polyline through the front's points, broken where a point cannot
 * be shown. */
static void scatter_front(struct chart *c, const struct axis *x,
			  const struct axis *y, const double *fx,
			  const double *fy, size_t n)
{
	cairo_t *cr = c->cr;
	if (!fx || !fy || n < 1)
		return;
	trace_polyline(c, x, y, fx, fy, n);
	cairo_set_source_rgba(cr, ink.r, ink.g, ink.b, 0.85);
	cairo_set_line_width(cr, c->sz.lw * 1.8);
	cairo_stroke(cr);
}

/* Counts the points (and front vertices) inside each of the four legend
 * corners: top-right, top-left, bottom-left, bottom-right. */
static void corner_counts(struct chart *c, const struct axis *x,
			  const struct axis *y, const struct point_series *ser,
			  size_t ns, const double *fx, const double *fy,
			  size_t nf, const struct ref_line *refs, size_t nr,
			  double w, double h, size_t count[4])
{
	const struct rect *p = &c->plot;
	double m = c->sz.pad, r = c->sz.r;
	double l = p->x + m + w + r, rr = p->x + p->w - m - w - r;
	double t = p->y + m + h + r, b = p->y + p->h - m - h - r;
	memset(count, 0, 4 * sizeof(count[0]));
	for (size_t s = 0; s <= ns; s++) {
		const double *xs = s < ns ? ser[s].x : fx;
		const double *ys = s < ns ? ser[s].y : fy;
		size_t n = s < ns ? ser[s].n : nf;
		for (size_t i = 0; xs && ys && i < n; i++) {
			double px = map_x(c, x, xs[i]), py = map_y(c, y, ys[i]);
			if (!isfinite(px) || !isfinite(py))
				continue;
			count[0] += px >= rr && py <= t;
			count[1] += px <= l && py <= t;
			count[2] += px <= l && py >= b;
			count[3] += px >= rr && py >= b;
		}
	}
	/* a deadline or budget line and its label count as covered data */
	for (size_t i = 0; i < nr; i++) {
		double at = refs[i].vertical ? map_x(c, x, refs[i].at)
					     : map_y(c, y, refs[i].at);
		if (!isfinite(at))
			continue;
		if (refs[i].vertical) {		/* right corners 0, 3; left 1, 2 */
			count[0] += at >= rr, count[3] += at >= rr;
			count[1] += at <= l, count[2] += at <= l;
		} else {			/* top corners 0, 1; bottom 2, 3 */
			count[0] += at <= t, count[1] += at <= t;
			count[2] += at >= b, count[3] += at >= b;
		}
	}
}

/* Whether series s has a point drawn in its own colour: a series whose
 * points are all muted (grey) shows nothing its legend entry would name. */
static bool has_coloured(const struct point_series *s)
{
	for (size_t k = 0; k < s->n; k++)
		if (!s->muted || !s->muted[k])
			return true;
	return false;
}

/* Whether the legend lists s: named, with a point in its colour. */
bool scatter_series_listed(const struct point_series *s)
{
	return s->name && s->name[0] && s->n > 0 && has_coloured(s);
}

/* Whether any point of the series carries the flag. */
static bool any_flag(const struct point_series *s, size_t n, bool highlight)
{
	for (size_t i = 0; i < n; i++) {
		const bool *f = highlight ? s[i].highlight : s[i].muted;
		for (size_t k = 0; f && k < s[i].n; k++)
			if (f[k])
				return true;
	}
	return false;
}

/*
 * The legend's entries: one per named series, then what the marks mean.
 * At most max_rows in all: when the series do not fit, the last row that
 * holds one says how many were left out ("+ 12"), so the marks' meanings
 * are never the ones lost.  `more` holds that text (caller's buffer).
 */
static size_t scatter_legend_items(const struct point_series *s,
				   const int *series_marks, size_t n,
				   size_t n_front,
				   const struct scatter_words *words,
				   struct legend_item *it, size_t max,
				   size_t max_rows, char *more, size_t more_len)
{
	struct legend_item marks[3];
	size_t nm = 0, named = 0, k = 0;
	/* what the marks mean, only for marks that are on the plot */
	if (words && words->front && n_front > 1)
		marks[nm++] = (struct legend_item){words->front, ink, MARK_LINE};
	if (words && words->highlight && any_flag(s, n, true))
		marks[nm++] = (struct legend_item){words->highlight, ink, MARK_RING};
	if (words && words->muted && any_flag(s, n, false))
		marks[nm++] = (struct legend_item){words->muted, chart_grey(), MARK_CIRCLE};
	for (size_t i = 0; i < n; i++)
		named += scatter_series_listed(&s[i]);
	if (max_rows > max)
		max_rows = max;
	size_t room = max_rows > nm ? max_rows - nm : 0;
	size_t show = named <= room ? named : room > 0 ? room - 1 : 0;
	for (size_t i = 0; i < n && k < show; i++)
		if (scatter_series_listed(&s[i]))
			it[k++] = (struct legend_item){s[i].name, s[i].colour,
				series_marks ? (enum mark)series_marks[i] : MARK_CIRCLE};
	if (show < named && room > 0) {
		snprintf(more, more_len, "+ %zu", named - show);
		it[k++] = (struct legend_item){more, ink, MARK_NONE};
	}
	for (size_t i = 0; i < nm && k < max; i++)
		it[k++] = marks[i];
	return k;
}

/*
 * Places the legend: the inside corner covering the fewest points; when
 * every corner covers some, outside to the right, the plot relaid out
 * narrower.  Returns the legend's top-left corner in *lx, *ly.
 */
static void scatter_place_legend(struct chart *c, struct laid_axis *lx,
				 struct laid_axis *ly,
				 const struct point_series *ser, size_t ns,
				 const double *fx, const double *fy, size_t nf,
				 const struct ref_line *refs, size_t nr,
				 double w, double h, double *x, double *y)
{
	const struct rect *p = &c->plot;
	double m = c->sz.pad;
	size_t count[4], best = 0;
	corner_counts(c, lx->a, ly->a, ser, ns, fx, fy, nf, refs, nr, w, h, count);
	for (size_t i = 1; i < 4; i++)
		if (count[i] < count[best])
			best = i;
	if (count[best] > 0 || w > p->w * 0.45 || h > p->h * 0.8) {
		layout(c, lx, ly, 1, 0, w + m);
		*x = c->room.x + c->room.w - w;
		*y = c->plot.y;
		return;
	}
	*x = best == 1 || best == 2 ? p->x + m : p->x + p->w - m - w;
	*y = best <= 1 ? p->y + m : p->y + p->h - m - h;
}

/*
 * The reference lines, then their labels where ref_labels_place() puts
 * them: a deadline's label and a budget's never overlap, and neither is
 * struck through by the other line.
 */
static void scatter_refs(struct chart *c, const struct axis *x,
			 const struct axis *y, const struct ref_line *refs,
			 size_t n)
{
	struct ref_line bare[8];
	char text[8][TEXT_MAX];		/* each label as drawn: valid UTF-8, fitted */
	struct ref_label in[8];
	struct rect out[8];
	size_t m = 0;
	if (n > 8)
		n = 8;		/* a deadline, a budget, targets: a handful */
	for (size_t i = 0; i < n; i++)
		bare[i] = (struct ref_line){refs[i].vertical, refs[i].at, ""};
	draw_refs(c, x, y, bare, n);
	cairo_t *cr = c->cr;
	const struct rect *p = &c->plot;
	chart_font(c, c->sz.fs, false);
	for (size_t i = 0; i < n; i++) {
		double at = refs[i].vertical ? map_x(c, x, refs[i].at)
					     : map_y(c, y, refs[i].at);
		double lo = refs[i].vertical ? p->x : p->y;
		double len = refs[i].vertical ? p->w : p->h;
		if (!refs[i].label || !refs[i].label[0] ||
		    !(at >= lo - 0.5 && at <= lo + len + 0.5))
			continue;
		fit_text(cr, refs[i].label, p->w * 0.3, text[m]);
		in[m] = (struct ref_label){refs[i].vertical, at,
			text_w(cr, text[m]), font_h(cr)};
		m++;
	}
	ref_labels_place(p, in, m, c->sz.pad, out);
	cairo_save(cr);
	set_rgb(cr, (struct rgb){0.35, 0.35, 0.35}, 1);
	for (size_t k = 0; k < m; k++)
		put_text(cr, out[k].x, out[k].y, text[k], out[k].w + 1, 0, 0, true);
	cairo_restore(cr);
}

/* Marker radius: smaller when there are thousands of points, so that the
 * cloud shows its density instead of a blot; larger when there are few. */
static double scatter_radius(const struct chart *c,
			     const struct point_series *s, size_t n)
{
	size_t total = 0;
	for (size_t i = 0; i < n; i++)
		total += s[i].n;
	if (total > 2000)
		return c->sz.r * 0.7;
	return total < 300 ? c->sz.r * 1.4 : c->sz.r;
}

void chart_scatter(cairo_t *cr, struct rect area, const char *title,
		   struct axis *x, struct axis *y,
		   const struct point_series *series, size_t n_series,
		   const double *front_x, const double *front_y, size_t n_front,
		   const struct ref_line *refs, size_t n_refs,
		   const struct scatter_words *words,
		   const struct chart_style *st)
{
	chart_scatter_marked(cr, area, title, x, y, series, NULL, n_series,
			     front_x, front_y, n_front, refs, n_refs, words, st);
}

void chart_scatter_marked(cairo_t *cr, struct rect area, const char *title,
			  struct axis *x, struct axis *y,
			  const struct point_series *series, const int *marks,
			  size_t n_series, const double *front_x,
			  const double *front_y, size_t n_front,
			  const struct ref_line *refs, size_t n_refs,
			  const struct scatter_words *words,
			  const struct chart_style *st)
{
	struct chart c;
	struct laid_axis lx, ly;
	struct legend_item items[64];
	double lo, hi, lgx = 0, lgy = 0, lgw = 0, lgh = 0;
	chart_start(&c, cr, area, title, st);
	scatter_range(series, n_series, front_x, n_front, refs, n_refs, true,
		      x->log, &lo, &hi);
	axis_prepare(&lx, x, lo, hi);
	scatter_range(series, n_series, front_y, n_front, refs, n_refs, false,
		      y->log, &lo, &hi);
	axis_prepare(&ly, y, lo, hi);
	layout(&c, &lx, &ly, 1, 0, 0);
	chart_font(&c, c.sz.fs, false);
	double row = font_h(cr) * 1.3;
	size_t rows = (size_t)fmax(0, (c.room.h - 2 * c.sz.pad) / row);
	char more[32];
	size_t ni = scatter_legend_items(series, marks, n_series, n_front, words,
					 items, 64, rows, more, sizeof(more));
	if (ni) {
		legend_box_size(&c, items, ni, c.room.w * 0.3, &lgw, &lgh);
		scatter_place_legend(&c, &lx, &ly, series, n_series, front_x,
				     front_y, n_front, refs, n_refs, lgw, lgh,
				     &lgx, &lgy);
	}
	draw_grid(&c, &lx, &ly);
	double r = scatter_radius(&c, series, n_series);
	cairo_save(cr);
	cairo_rectangle(cr, c.plot.x - r, c.plot.y - r, c.plot.w + 2 * r,
			c.plot.h + 2 * r);
	cairo_clip(cr);
	cairo_surface_t *stamp = dot_stamp(cr, r);
	set_rgb(cr, chart_grey(), 0.8);
	for (size_t i = 0; i < n_series; i++)
		scatter_points(&c, x, y, &series[i], marks ? marks[i] : MARK_CIRCLE,
			       true, r, stamp);
	/* under the points it joins, which stay visible on it */
	scatter_front(&c, x, y, front_x, front_y, n_front);
	for (size_t i = 0; i < n_series; i++) {
		set_rgb(cr, series[i].colour, 0.85);
		scatter_points(&c, x, y, &series[i], marks ? marks[i] : MARK_CIRCLE,
			       false, r, stamp);
	}
	if (stamp)
		cairo_surface_destroy(stamp);
	scatter_refs(&c, x, y, refs, n_refs);
	for (size_t i = 0; i < n_series; i++)
		scatter_rings(&c, x, y, &series[i], r * 2.4);
	cairo_restore(cr);
	draw_x_axis(&c, &lx);
	draw_y_axis(&c, &ly, 0, ink);
	if (ni)
		legend_box(&c, items, ni, lgx, lgy, lgw, lgh);
	chart_finish(&c);
}

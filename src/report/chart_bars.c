/*
 * chart_bars.c - chart_bars (see chart.h): stacked or side-by-side bars
 * per category, the category labels under them (horizontal, 45 degrees or
 * vertical, whichever fits) and the groups' limits drawn dashed red.
 */
#include "chart_frame.h"

#include <math.h>

/* How category labels are set under the bars. */
struct cat_labels {
	double angle;		/* 0, 45 or 90 degrees */
	size_t stride;		/* every stride-th label (1: all) */
	double len;		/* longest label length along its baseline */
	double height;		/* room taken under the plot */
};

/*
 * Horizontal when every label fits its slot; else at 45 degrees when the
 * slots are far enough apart for rotated lines not to touch; else
 * vertical, every stride-th label when even that is too crowded.
 * Rotated labels take at most `cap` of height and are ellipsised to it.
 */
static struct cat_labels cat_layout(struct chart *c,
				    const struct bar_group *g, size_t n,
				    double slot, double cap)
{
	cairo_t *cr = c->cr;
	struct cat_labels cl = {0, 1, 0, 0};
	char buf[TEXT_MAX];
	double maxw = 0, fh = font_h(cr), s45 = sqrt(0.5);
	for (size_t i = 0; i < n; i++) {
		utf8_copy(buf, sizeof(buf), g[i].label);
		maxw = fmax(maxw, text_w(cr, buf));
	}
	if (maxw <= slot - c->sz.pad) {
		cl.len = slot - c->sz.pad;
		cl.height = fh;
		return cl;
	}
	if (slot * s45 >= fh * 1.15) {
		cl.angle = 45;
		cl.height = fmin(maxw * s45 + fh * s45, cap);
		cl.len = (cl.height - fh * s45) / s45;
		return cl;
	}
	cl.angle = 90;
	cl.height = fmin(maxw, cap);
	cl.len = cl.height;
	if (slot < fh * 1.15)
		cl.stride = (size_t)ceil(fh * 1.15 / slot);
	return cl;
}

/* Draws label i of the categories centred on cx, under the plot. */
static void cat_label(struct chart *c, const struct cat_labels *cl,
		      const char *label, double cx, bool muted)
{
	cairo_t *cr = c->cr;
	double top = c->plot.y + c->plot.h + c->sz.tick + c->sz.pad / 2;
	double len = cl->len;
	set_rgb(cr, muted ? (struct rgb){0.55, 0.55, 0.55} : ink, 1);
	if (cl->angle == 0) {
		put_text(cr, cx, top, label, len, 0.5, 0, false);
		return;
	}
	char buf[TEXT_MAX];
	cairo_save(cr);
	cairo_translate(cr, cx, top);
	if (cl->angle == 45) {
		/* the label must not run out of the chart on the left
		 * (bars_layout moved the plot right to make the room) */
		len = fmin(len, (cx - c->area.x) / sqrt(0.5) - c->sz.pad);
		cairo_rotate(cr, -TAU / 8);
	} else {
		cairo_rotate(cr, -TAU / 4);
	}
	/* beyond the room, the middle goes: "128 x p5e...48xlarge" keeps
	 * both the count and the instance type's size */
	fit_text_middle(cr, label, len, buf);
	put_fitted(cr, 0, 0, buf, 1, cl->angle == 45 ? 0.3 : 0.5, false);
	cairo_restore(cr);
}

/* Largest bar: the stack's total, or the largest segment side by side. */
static double bars_top(const struct bar_group *g, size_t n, size_t nseg,
		       bool side_by_side)
{
	double top = 0;
	for (size_t i = 0; i < n; i++) {
		double sum = 0;
		for (size_t k = 0; g[i].values && k < nseg; k++) {
			double v = g[i].values[k];
			if (!isfinite(v) || v <= 0)
				continue;
			sum = side_by_side ? fmax(sum, v) : sum + v;
		}
		top = fmax(top, sum);
	}
	return top;
}

/* c faded towards white by f (0: c, 1: white). */
static struct rgb fade(struct rgb c, double f)
{
	return (struct rgb){c.r + (1 - c.r) * f, c.g + (1 - c.g) * f,
			    c.b + (1 - c.b) * f};
}

/* Draws one group's bars centred on cx within a slot. */
/* A vertical error bar at x from lo to hi, caps half as wide as cap. */
static void error_bar(struct chart *c, const struct axis *y, double x,
		      double cap, double lo, double hi)
{
	double y0 = map_y(c, y, lo), y1 = map_y(c, y, hi);
	if (!isfinite(y0) || !isfinite(y1))
		return;
	cairo_t *cr = c->cr;
	cairo_save(cr);
	set_rgb(cr, chart_ink(), 1);
	cairo_set_line_width(cr, c->sz.lw);
	stroke_line(cr, x, y0, x, y1);
	stroke_line(cr, x - cap / 2, y0, x + cap / 2, y0);
	stroke_line(cr, x - cap / 2, y1, x + cap / 2, y1);
	cairo_restore(cr);
}

static void bar_group_draw(struct chart *c, const struct axis *y,
			   const struct bar_group *g, const struct rgb *colours,
			   size_t nseg, bool side_by_side, double cx,
			   double slot)
{
	cairo_t *cr = c->cr;
	double base_v = y->log ? y->min : fmax(y->min, 0), acc = base_v;
	double w = side_by_side ? slot * 0.8 / (double)nseg : slot * 0.65;
	double x0 = side_by_side ? cx - slot * 0.4 : cx - w / 2;
	for (size_t k = 0; g->values && k < nseg; k++) {
		double v = g->values[k];
		if (!isfinite(v) || v <= 0)
			continue;
		double from = side_by_side ? base_v : acc;
		double to = side_by_side ? v : acc + v;
		acc = to;
		double bx = side_by_side ? x0 + w * (double)k : x0;
		double y0 = map_y(c, y, from), y1 = map_y(c, y, to);
		if (!isfinite(y0))
			y0 = c->plot.y + c->plot.h;
		if (!isfinite(y1))
			continue;
		struct rgb col = colours ? colours[k] : chart_colour(k);
		cairo_rectangle(cr, bx, y1, w, y0 - y1);
		set_rgb(cr, g->muted ? fade(col, 0.65) : col, 1);
		cairo_fill_preserve(cr);
		cairo_set_source_rgb(cr, 1, 1, 1);
		cairo_set_line_width(cr, c->sz.lw * 0.6);
		cairo_stroke(cr);
	}
	if (g->err_high > 0 && g->err_low > 0)
		error_bar(c, y, x0 + w / 2, w * 0.3, g->err_low, g->err_high);
}

static const struct rgb limit_red = {0.75, 0.1, 0.1};

/* The limit shared by every group that has one; 0 when none has one or
 * they differ. */
static double common_limit(const struct bar_group *g, size_t n, bool *any)
{
	double at = 0;
	*any = false;
	for (size_t i = 0; i < n; i++) {
		if (!(g[i].limit > 0))
			continue;
		if (*any && g[i].limit != at)
			return 0;
		at = g[i].limit;
		*any = true;
	}
	return at;
}

static void limit_pen(struct chart *c)
{
	double dash[] = {c->sz.fs * 0.6, c->sz.fs * 0.35};
	set_rgb(c->cr, limit_red, 1);
	cairo_set_line_width(c->cr, c->sz.lw * 1.5);
	cairo_set_dash(c->cr, dash, 2, 0);
}

/* One limit for all: a dashed line across the plot, its label above its
 * right end. */
static void bars_limit_line(struct chart *c, const struct axis *y,
			    double limit, const char *label)
{
	cairo_t *cr = c->cr;
	const struct rect *p = &c->plot;
	double py = map_y(c, y, limit);
	if (!isfinite(py) || py < p->y - 0.5 || py > p->y + p->h + 0.5)
		return;
	cairo_save(cr);
	limit_pen(c);
	stroke_line(cr, p->x, py, p->x + p->w, py);
	cairo_set_dash(cr, NULL, 0, 0);
	chart_font(c, c->sz.fs, false);
	if (label)
		put_text(cr, p->x + p->w - c->sz.pad, py - c->sz.pad / 2, label,
			 p->w * 0.6, 1, 1, true);
	cairo_restore(cr);
}

/* Limits that differ: a dash across each bar's slot at its own limit. */
static void bars_limit_dashes(struct chart *c, const struct axis *y,
			      const struct bar_group *g, size_t n, double slot)
{
	cairo_t *cr = c->cr;
	const struct rect *p = &c->plot;
	cairo_save(cr);
	limit_pen(c);
	for (size_t i = 0; i < n; i++) {
		double py = map_y(c, y, g[i].limit);
		if (!(g[i].limit > 0) || !isfinite(py) || py < p->y - 0.5 ||
		    py > p->y + p->h + 0.5)
			continue;
		double cx = p->x + slot * ((double)i + 0.5);
		stroke_line(cr, cx - slot * 0.45, py, cx + slot * 0.45, py);
	}
	cairo_restore(cr);
}

/*
 * Lays out the bar chart's plot: the category labels' room depends on the
 * slot width, which depends on the y tick labels' width, which depends on
 * the plot's height; rounds settle it.  Labels at 45 degrees run left of
 * their bar: when the first needs more room than the y axis leaves, the
 * plot moves right rather than the label being cut.
 */
static struct cat_labels bars_layout(struct chart *c, struct laid_axis *ly,
				     const struct bar_group *g, size_t n)
{
	struct cat_labels cl = {0, 1, 0, 0};
	double bottom = c->room.h * 0.1;
	for (int round = 0; round < 3; round++) {
		layout(c, NULL, ly, 1, bottom, 0);
		chart_font(c, c->sz.fs, false);
		double slot = c->plot.w / (double)(n ? n : 1);
		cl = cat_layout(c, g, n, slot, c->room.h * 0.45);
		bottom = c->sz.tick + c->sz.pad + cl.height;
		if (cl.angle == 45 && n > 0) {
			/* the first label runs left of its bar: room for it
			 * whole (up to cl.len) by moving the plot right */
			char buf[TEXT_MAX];
			utf8_copy(buf, sizeof(buf), g[0].label);
			double need = (fmin(text_w(c->cr, buf), cl.len) +
				       c->sz.pad) * sqrt(0.5) + c->sz.pad;
			double have = c->plot.x + slot / 2 - c->area.x;
			if (need > have) {
				c->room.x += need - have;
				c->room.w -= need - have;
			}
		}
	}
	return cl;
}

void chart_bars(cairo_t *cr, struct rect area, const char *title,
		struct axis *y, const struct bar_group *groups, size_t n_groups,
		const char *const *segments, const struct rgb *colours,
		size_t n_segments, bool side_by_side, const char *limit_label,
		const struct chart_style *st)
{
	struct chart c;
	struct laid_axis ly;
	struct legend_item items[64];
	size_t ni = 0;
	chart_start(&c, cr, area, title, st);
	for (size_t k = 0; segments && k < n_segments && ni < 64; k++)
		items[ni++] = (struct legend_item){
			segments[k], colours ? colours[k] : chart_colour(k),
			MARK_SQUARE};
	bool any_limit;
	double shared = common_limit(groups, n_groups, &any_limit);
	/* differing limits are named in the legend, a shared one on its line */
	if (any_limit && shared == 0 && limit_label && ni < 64)
		items[ni++] = (struct legend_item){limit_label, limit_red, MARK_LINE};
	if (ni > 1)
		legend_rows(&c, items, ni);
	double top = bars_top(groups, n_groups, n_segments, side_by_side);
	for (size_t i = 0; i < n_groups; i++)
		top = fmax(top, fmax(groups[i].limit, groups[i].err_high));
	axis_prepare(&ly, y, 0, top);
	range_add(&ly.lo, &ly.hi, top, y->log);
	if (!y->log && ly.lo > 0)
		ly.lo = 0;
	struct cat_labels cl = bars_layout(&c, &ly, groups, n_groups);
	draw_grid(&c, NULL, &ly);
	double slot = c.plot.w / (double)(n_groups ? n_groups : 1);
	cairo_save(cr);
	cairo_rectangle(cr, c.plot.x, c.plot.y, c.plot.w, c.plot.h);
	cairo_clip(cr);
	for (size_t i = 0; i < n_groups; i++)
		bar_group_draw(&c, y, &groups[i], colours, n_segments,
			       side_by_side, c.plot.x + slot * ((double)i + 0.5),
			       slot);
	cairo_restore(cr);
	if (shared > 0)
		bars_limit_line(&c, y, shared, limit_label);
	else if (any_limit)
		bars_limit_dashes(&c, y, groups, n_groups, slot);
	draw_y_axis(&c, &ly, 0, ink);
	struct laid_axis none = {.a = &(struct axis){0, 1, false, NULL, NULL}};
	draw_x_axis(&c, &none);
	chart_font(&c, c.sz.fs, false);
	for (size_t i = 0; i < n_groups; i += cl.stride)
		cat_label(&c, &cl, groups[i].label,
			  c.plot.x + slot * ((double)i + 0.5), groups[i].muted);
	chart_finish(&c);
}

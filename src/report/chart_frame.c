/*
 * chart_frame.c - what every chart kind draws in: colours, text, the
 * frame (title, layout, grid, axes) and legends; see chart_frame.h.
 *
 * Every chart takes the same steps: clip to its rect and paint it white,
 * draw the title, lay out the plot (margins measured from the tick labels
 * actually drawn), draw the grid and axes, then the data, then the legend.
 * All sizes derive from chart_style (font_size for text, line_width for
 * strokes), so a chart reads the same on an A4 page in points and in a
 * 1600 x 1000 PNG in pixels.
 *
 * Text is laid out with Pango (text.h's layouts: shaping, font fallback
 * when the family lacks a character) in the style's family, is sanitised
 * (utf8.h: what cairo or Pango would refuse becomes '?') and ellipsised
 * to the room it has; the chart's rect is the clip, so nothing is ever
 * drawn outside it.
 *
 * An axis whose min is not below its max is ranged from the data; a given
 * range is kept (bars and the roofline widen it to show every bar and the
 * roof).  Every axis is then widened to its outer ticks, written back to
 * the caller's struct axis.
 */
#include "chart_frame.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "core/xalloc.h"
#include "chart_ticks.h"
#include "text.h"

/* ---- colours ---------------------------------------------------------------- */

/* Tableau 10 without its grey (kept for muted points), then darker tones
 * that none of those is close to: sixteen colours before one repeats, more
 * than the accelerators a catalog holds today. */
static const unsigned char palette[][3] = {
	{0x4e, 0x79, 0xa7}, {0xf2, 0x8e, 0x2b}, {0xe1, 0x57, 0x59},
	{0x76, 0xb7, 0xb2}, {0x59, 0xa1, 0x4f}, {0xed, 0xc9, 0x48},
	{0xb0, 0x7a, 0xa1}, {0xff, 0x9d, 0xa7}, {0x9c, 0x75, 0x5f},
	{0x17, 0xbe, 0xcf}, {0xbc, 0xbd, 0x22}, {0x1f, 0x3a, 0x68},
	{0x8b, 0x1a, 0x1a}, {0x2e, 0x6b, 0x2e}, {0x5e, 0x3c, 0x99},
	{0x80, 0x80, 0x00},
};
#define N_PALETTE (sizeof(palette) / sizeof(palette[0]))

struct rgb chart_colour(size_t i)
{
	const unsigned char *c = palette[i % N_PALETTE];
	return (struct rgb){c[0] / 255.0, c[1] / 255.0, c[2] / 255.0};
}

struct rgb chart_grey(void)
{
	return (struct rgb){0.73, 0.73, 0.73};
}

void set_rgb(cairo_t *cr, struct rgb c, double alpha)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

const struct rgb ink = {0.15, 0.15, 0.15};	/* text, axes */

struct rgb chart_ink(void)
{
	return ink;
}
static const struct rgb grid_ink = {0.88, 0.88, 0.88};

/* ---- text ------------------------------------------------------------------- */

/* Copies src into dst (len bytes with the NUL) as text cairo accepts:
 * malformed bytes and noncharacters become '?' (utf8.h), and a cut never
 * splits a character. */
void utf8_copy(char *dst, size_t len, const char *src)
{
	utf8_clean_into(dst, len, src, '?');
}

/* The font chart_font last chose on a context: charts measure and draw
 * "in the current font", as cairo's toy API had it, through Pango. */
struct cur_font {
	char family[128];
	double size;
	bool bold;
};

static const cairo_user_data_key_t cur_font_key;

static struct cur_font *cur_font(cairo_t *cr)
{
	struct cur_font *f = cairo_get_user_data(cr, &cur_font_key);

	if (!f) {
		f = xcalloc(1, sizeof(*f));
		snprintf(f->family, sizeof(f->family), "sans-serif");
		f->size = 10;
		if (cairo_set_user_data(cr, &cur_font_key, f, free) !=
		    CAIRO_STATUS_SUCCESS) {
			static struct cur_font fallback = {"sans-serif", 10, false};
			free(f);
			return &fallback;	/* a context in error draws nothing */
		}
	}
	return f;
}

/* The cached layout (text.h) in the current font. */
static PangoLayout *cur_layout(cairo_t *cr)
{
	const struct cur_font *f = cur_font(cr);
	return text_layout(cr, f->family, text_family_lang(f->family), f->size,
			   f->bold);
}

double text_w(cairo_t *cr, const char *s)
{
	PangoLayout *l = cur_layout(cr);
	text_layout_set(l, s, strlen(s));
	return text_layout_width(l);
}

/*
 * buf (valid UTF-8) cut back one character at a time until it, with
 * "..." after it, fits max_w; an empty string when not even "..." fits.
 */
static void ellipsise(cairo_t *cr, char *buf, double max_w)
{
	size_t len = strlen(buf);
	if (text_w(cr, buf) <= max_w)
		return;
	while (len > 0) {
		do
			len--;
		while (len > 0 && ((unsigned char)buf[len] & 0xc0) == 0x80);
		memcpy(buf + len, "...", 4);
		if (text_w(cr, buf) <= max_w)
			return;
	}
	buf[0] = '\0';
}

void fit_text_middle(cairo_t *cr, const char *s, double max_w, char *buf)
{
	char out[TEXT_MAX];
	size_t b[TEXT_MAX + 1], k;
	utf8_copy(buf, TEXT_MAX - 4, s);
	if (!(max_w > 0) || text_w(cr, buf) <= max_w)
		return;
	k = utf8_bounds(buf, strlen(buf), b);
	/* keep the head and the tail, dropping ever more in between */
	for (size_t keep = k; keep-- > 0;) {
		size_t head = (keep + 1) / 2, tail = k - keep / 2;
		snprintf(out, sizeof(out), "%.*s...%s", (int)b[head], buf,
			 buf + b[tail]);
		if (text_w(cr, out) <= max_w) {
			memcpy(buf, out, strlen(out) + 1);
			return;
		}
	}
	buf[0] = '\0';
}

static void use_font(cairo_t *cr, const struct chart_style *st, double size,
		     bool bold)
{
	struct cur_font *f = cur_font(cr);
	const char *family = st && st->font_family ? st->font_family : "sans-serif";
	snprintf(f->family, sizeof(f->family), "%s", family);
	f->size = size;
	f->bold = bold;
}

/* Height of a line of text in the current font (ascent + descent). */
double font_h(cairo_t *cr)
{
	PangoLayout *l = cur_layout(cr);
	PangoRectangle r;
	pango_layout_set_text(l, "Ag", 2);
	pango_layout_get_extents(l, NULL, &r);
	return (double)r.height / PANGO_SCALE;
}

/* The text of s as it will be drawn: sanitised and fitted to max_w
 * (no limit when max_w <= 0). */
void fit_text(cairo_t *cr, const char *s, double max_w, char *buf)
{
	utf8_copy(buf, TEXT_MAX - 4, s);	/* room for "..." */
	if (max_w > 0)
		ellipsise(cr, buf, max_w);
}

/* Draws buf (as fit_text or fit_text_middle made it) in the current font
 * and source, anchored as put_text says; returns the width drawn. */
double put_fitted(cairo_t *cr, double x, double y, const char *buf,
		  double ax, double ay, bool halo)
{
	double h = font_h(cr);
	PangoLayout *l = cur_layout(cr);
	text_layout_set(l, buf, strlen(buf));
	double w = text_layout_width(l), left = x - ax * w, top = y - ay * h;
	if (!buf[0])
		return 0;
	if (halo) {
		double pad = h * 0.15;
		cairo_save(cr);
		cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
		cairo_rectangle(cr, left - pad, top, w + 2 * pad, h);
		cairo_fill(cr);
		cairo_restore(cr);
	}
	cairo_new_path(cr);
	cairo_move_to(cr, left, top);
	pango_cairo_update_layout(cr, l);
	pango_cairo_show_layout(cr, l);
	cairo_new_path(cr);
	return w;
}

/*
 * Draws s in the current font and source with its box anchored at (x, y):
 * ax 0 left, 0.5 centre, 1 right; ay 0 top, 0.5 middle, 1 bottom of the
 * font's ascent + descent.  A white box behind it when halo.  Returns the
 * width drawn.
 */
double put_text(cairo_t *cr, double x, double y, const char *s,
		double max_w, double ax, double ay, bool halo)
{
	char buf[TEXT_MAX];
	fit_text(cr, s, max_w, buf);
	return put_fitted(cr, x, y, buf, ax, ay, halo);
}

/* Widest of the strings after sanitising. */
static double widest(cairo_t *cr, const char *const *s, size_t n)
{
	char buf[TEXT_MAX];
	double w = 0;
	for (size_t i = 0; i < n; i++) {
		utf8_copy(buf, sizeof(buf), s[i]);
		w = fmax(w, text_w(cr, buf));
	}
	return w;
}

/* ---- the chart frame -------------------------------------------------------- */

/* Fonts, gaps and strokes derived from the style (defaults for NULL or
 * unset fields). */
static struct sizes sizes_of(const struct chart_style *st)
{
	struct sizes s;
	s.fs = st && st->font_size > 0 ? st->font_size : 9;
	s.label = s.fs * 1.1;
	s.title = s.fs * 1.3;
	s.pad = s.fs * 0.4;
	s.tick = s.fs * 0.35;
	s.lw = st && st->line_width > 0 ? st->line_width : s.fs / 10;
	s.r = s.fs * 0.25;
	return s;
}

void chart_font(struct chart *c, double size, bool bold)
{
	use_font(c->cr, c->st, size, bold);
}

/* A title centred across room.w, wrapped onto two lines when one does not
 * hold it (Pango breaks it where the language allows) and ellipsised only
 * past that: a chart keeps most of its height for the data.  Returns the
 * height drawn. */
#define TITLE_MAX_LINES 2
static double title_block(cairo_t *cr, struct rect room, const char *title)
{
	PangoLayout *l = cur_layout(cr);
	PangoRectangle r;
	text_layout_set(l, title, strlen(title));
	pango_layout_set_width(l, (int)(room.w * PANGO_SCALE));
	pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
	pango_layout_set_height(l, -TITLE_MAX_LINES);
	pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
	pango_layout_set_alignment(l, PANGO_ALIGN_CENTER);
	pango_layout_get_extents(l, NULL, &r);
	cairo_new_path(cr);
	cairo_move_to(cr, room.x, room.y);
	pango_cairo_show_layout(cr, l);
	cairo_new_path(cr);
	pango_layout_set_height(l, -1);
	pango_layout_set_alignment(l, PANGO_ALIGN_LEFT);
	return (double)r.height / PANGO_SCALE;
}

/*
 * Saves cr, clips to area, paints it white and draws the title; room is
 * the area under the title, inset by a pad.  chart_finish restores cr.
 */
void chart_start(struct chart *c, cairo_t *cr, struct rect area,
		 const char *title, const struct chart_style *st)
{
	c->cr = cr;
	c->st = st;
	c->sz = sizes_of(st);
	c->area = area;
	cairo_save(cr);
	cairo_rectangle(cr, area.x, area.y, area.w, area.h);
	cairo_clip(cr);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	double pad = c->sz.pad;
	c->room = (struct rect){area.x + pad, area.y + pad, area.w - 2 * pad,
				area.h - 2 * pad};
	if (title && title[0]) {
		chart_font(c, c->sz.title, true);
		set_rgb(cr, ink, 1);
		double h = title_block(cr, c->room, title);
		c->room.y += h + pad;
		c->room.h -= h + pad;
	}
}

void chart_finish(struct chart *c)
{
	cairo_restore(c->cr);
}

/* ---- axes ------------------------------------------------------------------- */

/* Where v falls on a, 0 at min and 1 at max; NaN when the axis cannot
 * show v (not finite; not positive on a log axis) or has no width. */
double frac(const struct axis *a, double v)
{
	if (!isfinite(v))
		return NAN;
	if (a->log) {
		if (!(v > 0) || !(a->min > 0) || !(a->max > a->min))
			return NAN;
		return (log10(v) - log10(a->min)) /
		       (log10(a->max) - log10(a->min));
	}
	/* halves: max - min may overflow for values near DBL_MAX */
	double half = a->max / 2 - a->min / 2;
	if (!(half > 0) || !isfinite(half))
		return NAN;
	return (v / 2 - a->min / 2) / half;
}

/*
 * A plot coordinate from a fraction of the plot, kept inside cairo's
 * 24.8 fixed-point range (about 8 million units): a value far off its
 * axis lands at most COORD_FRAC_MAX plot lengths away, where the clip
 * hides it, never at a coordinate cairo would wrap around.
 */
#define COORD_FRAC_MAX 1000.0

static double clamp_frac(double f)
{
	return isnan(f) ? f : fmin(fmax(f, -COORD_FRAC_MAX), COORD_FRAC_MAX);
}

double map_x(const struct chart *c, const struct axis *a, double v)
{
	return c->plot.x + clamp_frac(frac(a, v)) * c->plot.w;
}

double map_y(const struct chart *c, const struct axis *a, double v)
{
	return c->plot.y + c->plot.h - clamp_frac(frac(a, v)) * c->plot.h;
}

static void tick_text(const struct axis *a, double v, char *buf, size_t len)
{
	char raw[TEXT_MAX];
	raw[0] = '\0';
	if (a->format)
		a->format(v, raw, sizeof(raw));
	else
		snprintf(raw, sizeof(raw), "%g", v);
	raw[sizeof(raw) - 1] = '\0';
	utf8_copy(buf, len, raw);
}

/* Adds v to the range [*lo, *hi] when a (log or linear) axis can show it. */
void range_add(double *lo, double *hi, double v, bool log)
{
	if (!isfinite(v) || (log && !(v >= AXIS_LOG_MIN && v <= AXIS_LOG_MAX)))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

/* An empty range as range_add starts it. */
void range_empty(double *lo, double *hi)
{
	*lo = HUGE_VAL;
	*hi = -HUGE_VAL;
}

/*
 * The range the axis shows: the caller's when it gave one (min < max),
 * else the data's [dlo, dhi], from 0 for non-negative linear data.
 */
void axis_prepare(struct laid_axis *l, struct axis *a, double dlo,
		  double dhi)
{
	l->a = a;
	l->pow2 = false;
	l->n = 0;
	l->offset = 0;
	if (isfinite(a->min) && isfinite(a->max) && a->min < a->max &&
	    (!a->log || a->min > 0)) {
		l->lo = a->min;
		l->hi = a->max;
		return;
	}
	if (!(dlo <= dhi)) {
		dlo = a->log ? 1 : 0;
		dhi = a->log ? 10 : 1;
	}
	if (!a->log && dlo > 0)
		dlo = 0;
	l->lo = dlo;
	l->hi = dhi;
}

/* Do adjacent tick labels, placed along `length`, keep clear of each
 * other?  Horizontal labels by their widths, vertical by line height. */
static bool labels_fit(struct chart *c, const struct laid_axis *l,
		       double length, bool horizontal)
{
	cairo_t *cr = c->cr;
	char buf[TEXT_MAX];
	double prev_pos = 0, prev_half = 0, gap = c->sz.fs;
	double line = font_h(cr) * 1.3;
	for (size_t i = 0; i < l->n; i++) {
		double pos = frac(l->a, l->t[i]) * length, half = line / 2;
		if (horizontal) {
			tick_text(l->a, l->t[i], buf, sizeof(buf));
			half = text_w(cr, buf) / 2 + gap / 2;
		}
		if (i > 0 && pos - prev_pos < prev_half + half)
			return false;
		prev_pos = pos;
		prev_half = half;
	}
	return true;
}

/*
 * Ticks for l along `length` (surface units): the most, up to eleven,
 * whose labels stay clear of each other in the current font; when none
 * do, the fewest the axis can have.
 */
static void fit_ticks(struct chart *c, struct laid_axis *l, double length,
		      bool horizontal)
{
	struct laid_axis fallback = *l;
	struct axis a = *l->a;
	a.min = l->lo;
	a.max = l->hi;
	for (size_t m = 11; m >= 2; m--) {
		l->a->min = l->lo;
		l->a->max = l->hi;
		l->n = l->pow2 ? pow2_ticks(&l->a->min, &l->a->max, l->t, m)
			       : axis_ticks(&l->a->min, &l->a->max, l->a->log,
					    l->t, m);
		if (l->n < 2)
			continue;
		if (labels_fit(c, l, length, horizontal))
			return;
		fallback = *l;
		a = *l->a;
	}
	*l = fallback;
	*l->a = a;
}

static double widest_tick(struct chart *c, const struct laid_axis *l)
{
	char buf[TEXT_MAX];
	double w = 0;
	for (size_t i = 0; i < l->n; i++) {
		tick_text(l->a, l->t[i], buf, sizeof(buf));
		w = fmax(w, text_w(c->cr, buf));
	}
	return w;
}

/* Width of the tick label at index i of l. */
static double tick_w(struct chart *c, const struct laid_axis *l, size_t i)
{
	char buf[TEXT_MAX];
	tick_text(l->a, l->t[i], buf, sizeof(buf));
	return text_w(c->cr, buf);
}

/* Width a y axis takes beside the plot in the tick font: tick marks, its
 * widest tick label and its label (label_h high, rotated). */
static double y_band(struct chart *c, const struct laid_axis *l,
		     double label_h)
{
	const struct sizes *s = &c->sz;
	return s->tick + s->pad + widest_tick(c, l) + s->pad + label_h;
}

/*
 * Fits the ticks of the right axes r[0..n) to a plot h high and places
 * their spines side by side, a gap between one axis's label and the next
 * one's ticks.  Returns the width they take (a pad when there are none).
 */
static double right_axes(struct chart *c, struct laid_axis *r, size_t n,
			 double h, double label_h)
{
	double at = 0, gap = c->sz.fs;
	for (size_t i = 0; i < n; i++) {
		fit_ticks(c, &r[i], h, false);
		r[i].offset = at;
		at += y_band(c, &r[i], label_h) + (i + 1 < n ? gap : 0);
	}
	return n ? at : c->sz.pad;
}

/*
 * Lays out the plot in c->room for x (may be NULL: the caller reserves
 * `bottom` for its own labels) and the y axes y[0..n_y): the first on the
 * left, the rest on the right, each further out; right_extra is left free
 * at the right (an outside legend).  Margins come from the tick labels'
 * measured sizes, wide enough for the x axis's first and last labels
 * centred on the plot's edges; ticks are fitted to the final lengths.
 */
void layout(struct chart *c, struct laid_axis *x, struct laid_axis *y,
	    size_t n_y, double bottom, double right_extra)
{
	const struct sizes *s = &c->sz;
	cairo_t *cr = c->cr;
	chart_font(c, s->label, false);
	double label_h = font_h(cr);
	chart_font(c, s->fs, false);
	double fh = font_h(cr), top = fh * 0.6;
	if (x)
		bottom = s->tick + s->pad + fh +
			 (x->a->label && x->a->label[0] ? s->pad + label_h : 0);
	c->plot.y = c->room.y + top;
	c->plot.h = fmax(1, c->room.h - top - bottom);
	fit_ticks(c, y, c->plot.h, false);
	double left = y_band(c, y, label_h);
	double right = right_axes(c, y + 1, n_y - 1, c->plot.h, label_h);
	double l = left, r = right;
	for (int round = 0; round < 3; round++) {
		c->plot.x = c->room.x + l;
		c->plot.w = fmax(1, c->room.w - l - r - right_extra);
		if (!x)
			return;
		fit_ticks(c, x, c->plot.w, true);
		if (x->n < 1)
			return;
		double first = tick_w(c, x, 0) / 2, last = tick_w(c, x, x->n - 1) / 2;
		if (l >= first && r >= last)
			return;
		l = fmax(left, first);
		r = fmax(right, last);
	}
}

void stroke_line(cairo_t *cr, double x0, double y0, double x1,
		 double y1)
{
	cairo_move_to(cr, x0, y0);
	cairo_line_to(cr, x1, y1);
	cairo_stroke(cr);
}

/* A new path through the points (xs[i], ys[i]) on axes x and y, broken
 * where a point cannot be shown; the caller sets the pen and strokes. */
void trace_polyline(struct chart *c, const struct axis *x,
		    const struct axis *y, const double *xs, const double *ys,
		    size_t n)
{
	cairo_t *cr = c->cr;
	bool pen = false;
	cairo_new_path(cr);
	for (size_t i = 0; i < n; i++) {
		double px = map_x(c, x, xs[i]), py = map_y(c, y, ys[i]);
		if (!isfinite(px) || !isfinite(py)) {
			pen = false;
			continue;
		}
		if (pen)
			cairo_line_to(cr, px, py);
		else
			cairo_move_to(cr, px, py);
		pen = true;
	}
}

/* Light grid lines at the ticks of x (vertical) and y (horizontal). */
void draw_grid(struct chart *c, const struct laid_axis *x,
	       const struct laid_axis *y)
{
	cairo_t *cr = c->cr;
	const struct rect *p = &c->plot;
	cairo_save(cr);
	set_rgb(cr, grid_ink, 1);
	cairo_set_line_width(cr, c->sz.lw * 0.6);
	for (size_t i = 0; x && i < x->n; i++) {
		double px = map_x(c, x->a, x->t[i]);
		stroke_line(cr, px, p->y, px, p->y + p->h);
	}
	for (size_t i = 0; y && i < y->n; i++) {
		double py = map_y(c, y->a, y->t[i]);
		stroke_line(cr, p->x, py, p->x + p->w, py);
	}
	cairo_restore(cr);
}

/* The x axis: the baseline, tick marks and labels under the plot and the
 * axis label centred under them. */
void draw_x_axis(struct chart *c, const struct laid_axis *x)
{
	cairo_t *cr = c->cr;
	const struct sizes *s = &c->sz;
	const struct rect *p = &c->plot;
	char buf[TEXT_MAX];
	double base = p->y + p->h;
	set_rgb(cr, ink, 1);
	cairo_set_line_width(cr, s->lw);
	stroke_line(cr, p->x, base, p->x + p->w, base);
	chart_font(c, s->fs, false);
	double fh = font_h(cr);
	for (size_t i = 0; i < x->n; i++) {
		double px = map_x(c, x->a, x->t[i]);
		stroke_line(cr, px, base, px, base + s->tick);
		tick_text(x->a, x->t[i], buf, sizeof(buf));
		put_text(cr, px, base + s->tick + s->pad, buf, 0, 0.5, 0,
			 false);
	}
	chart_font(c, s->label, false);
	put_text(cr, p->x + p->w / 2, base + s->tick + s->pad + fh + s->pad,
		 x->a->label, c->room.w, 0.5, 0, false);
}

/*
 * A y axis at the plot's left (side 0) or right (side 1, y->offset out
 * from the plot): the spine, tick marks, tick labels and the axis label
 * rotated beside them, the labels in `colour` (a line's, on a line chart).
 * The left axis's label keeps to the room's edge; a right axis's sits
 * just past its tick labels, where layout left it room.
 */
void draw_y_axis(struct chart *c, const struct laid_axis *y, int side,
		 struct rgb colour)
{
	cairo_t *cr = c->cr;
	const struct sizes *s = &c->sz;
	const struct rect *p = &c->plot;
	char buf[TEXT_MAX];
	double spine = side ? p->x + p->w + y->offset : p->x, dir = side ? 1 : -1;
	chart_font(c, s->label, false);
	double label_h = font_h(cr);
	chart_font(c, s->fs, false);
	double edge = side ? spine + y_band(c, y, label_h) : c->room.x;
	set_rgb(cr, ink, 1);
	cairo_set_line_width(cr, s->lw);
	stroke_line(cr, spine, p->y, spine, p->y + p->h);
	for (size_t i = 0; i < y->n; i++) {
		double py = map_y(c, y->a, y->t[i]);
		set_rgb(cr, ink, 1);
		stroke_line(cr, spine, py, spine + dir * s->tick, py);
		tick_text(y->a, y->t[i], buf, sizeof(buf));
		set_rgb(cr, colour, 1);
		put_text(cr, spine + dir * (s->tick + s->pad), py, buf, 0,
			 side ? 0 : 1, 0.5, false);
	}
	chart_font(c, s->label, false);
	set_rgb(cr, colour, 1);
	cairo_save(cr);
	cairo_translate(cr, edge, p->y + p->h / 2);
	cairo_rotate(cr, side ? TAU / 4 : -TAU / 4);
	put_text(cr, 0, 0, y->a->label, p->h + c->plot.y - c->room.y, 0.5, 0,
		 false);
	cairo_restore(cr);
}

/* Dashed reference lines with their labels at the line's end: the top of
 * a vertical line (right of it, or left when near the right edge), the
 * left end of a horizontal one (above it, or under it at the plot's top). */
void draw_refs(struct chart *c, const struct axis *x, const struct axis *y,
	       const struct ref_line *refs, size_t n)
{
	cairo_t *cr = c->cr;
	const struct rect *p = &c->plot;
	const struct sizes *s = &c->sz;
	double dash[] = {s->fs * 0.6, s->fs * 0.4};
	chart_font(c, s->fs, false);
	for (size_t i = 0; i < n; i++) {
		const struct ref_line *rl = &refs[i];
		double at = rl->vertical ? map_x(c, x, rl->at) : map_y(c, y, rl->at);
		double lo = rl->vertical ? p->x : p->y;
		double len = rl->vertical ? p->w : p->h;
		if (!(at >= lo - 0.5 && at <= lo + len + 0.5))
			continue;
		cairo_save(cr);
		set_rgb(cr, (struct rgb){0.35, 0.35, 0.35}, 1);
		cairo_set_line_width(cr, s->lw * 1.2);
		cairo_set_dash(cr, dash, 2, 0);
		if (rl->vertical)
			stroke_line(cr, at, p->y, at, p->y + p->h);
		else
			stroke_line(cr, p->x, at, p->x + p->w, at);
		cairo_set_dash(cr, NULL, 0, 0);
		if (rl->vertical) {
			bool right = at + p->w * 0.3 < p->x + p->w;
			put_text(cr, at + (right ? s->pad : -s->pad),
				 p->y + s->pad, rl->label, p->w * 0.3,
				 right ? 0 : 1, 0, true);
		} else {
			/* at the left end: the right end is where a deadline's
			 * label sits when the deadline is far out; under the
			 * line when the plot's top leaves no room above it */
			bool above = at - s->pad / 2 - font_h(cr) >= p->y;
			put_text(cr, p->x + s->pad, at + (above ? -1 : 1) * s->pad / 2,
				 rl->label, p->w * 0.5, 0, above ? 1 : 0, true);
		}
		cairo_restore(cr);
	}
}

/* ---- legends ---------------------------------------------------------------- */

/* A legend swatch with a stroke through its marker (a line's entry)? */
static bool mark_has_line(enum mark m)
{
	return m == MARK_LINE_CIRCLE || m == MARK_LINE_SQUARE ||
	       m == MARK_LINE_TRIANGLE || m == MARK_LINE;
}

/* Draws a marker of radius r centred at (x, y) in the current source; a
 * triangle's corners lie further out, so it looks as large as a circle. */
void draw_mark(cairo_t *cr, double x, double y, double r, enum mark m)
{
	double t = r * 1.35;
	if (m == MARK_LINE || m == MARK_NONE)
		return;
	if (m == MARK_RING) {
		cairo_new_sub_path(cr);
		cairo_arc(cr, x, y, r * 1.6, 0, TAU);
		cairo_set_line_width(cr, r * 0.5);
		cairo_stroke(cr);
		return;
	}
	if (m == MARK_SQUARE || m == MARK_LINE_SQUARE) {
		cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
	} else if (m == MARK_TRIANGLE || m == MARK_LINE_TRIANGLE) {
		cairo_move_to(cr, x, y - t);
		cairo_line_to(cr, x + t * 0.866, y + t / 2);
		cairo_line_to(cr, x - t * 0.866, y + t / 2);
		cairo_close_path(cr);
	} else {
		cairo_arc(cr, x, y, r, 0, TAU);
	}
	cairo_fill(cr);
}

/* One legend entry: swatch then name, the swatch's left edge at x, the
 * row centred on y; the name ellipsised to max_w. */
static void legend_entry(struct chart *c, const struct legend_item *it,
			 double x, double y, double max_w)
{
	cairo_t *cr = c->cr;
	double sw = c->sz.fs * 1.6, r = c->sz.fs * 0.3;
	set_rgb(cr, it->colour, 1);
	if (mark_has_line(it->mark)) {
		cairo_set_line_width(cr, c->sz.lw * 2);
		stroke_line(cr, x, y, x + sw, y);
	}
	draw_mark(cr, x + sw / 2, y, r, it->mark);
	set_rgb(cr, ink, 1);
	put_text(cr, x + sw + c->sz.pad, y, it->name, max_w, 0, 0.5, false);
}

/* Size of a boxed, one-entry-per-row legend whose names are at most
 * max_name wide. */
void legend_box_size(struct chart *c, const struct legend_item *it,
		     size_t n, double max_name, double *w, double *h)
{
	const char *names[64];
	size_t k = n < 64 ? n : 64;
	chart_font(c, c->sz.fs, false);
	for (size_t i = 0; i < k; i++)
		names[i] = it[i].name;
	double name_w = fmin(widest(c->cr, names, k), max_name);
	*w = c->sz.pad * 3 + c->sz.fs * 1.6 + name_w;
	*h = c->sz.pad * 2 + font_h(c->cr) * 1.3 * (double)n;
}

/* A boxed legend with its top-left corner at (x, y), w x h as
 * legend_box_size gave. */
void legend_box(struct chart *c, const struct legend_item *it,
		size_t n, double x, double y, double w, double h)
{
	cairo_t *cr = c->cr;
	const struct sizes *s = &c->sz;
	cairo_save(cr);
	cairo_rectangle(cr, x, y, w, h);
	cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
	cairo_fill_preserve(cr);
	set_rgb(cr, grid_ink, 1);
	cairo_set_line_width(cr, s->lw * 0.8);
	cairo_stroke(cr);
	chart_font(c, s->fs, false);
	double row = font_h(cr) * 1.3, name_max = w - s->pad * 3 - s->fs * 1.6;
	for (size_t i = 0; i < n; i++)
		legend_entry(c, &it[i], x + s->pad,
			     y + s->pad + row * ((double)i + 0.5), name_max);
	cairo_restore(cr);
}

/*
 * A legend laid out in rows across the top of c->room (never over data),
 * wrapping as needed; c->room shrinks by its height.  Names longer than
 * the room are ellipsised.
 */
void legend_rows(struct chart *c, const struct legend_item *it,
		 size_t n)
{
	cairo_t *cr = c->cr;
	const struct sizes *s = &c->sz;
	char buf[TEXT_MAX];
	chart_font(c, s->fs, false);
	double row = font_h(cr) * 1.3, sw = s->fs * 1.6;
	double x = c->room.x, y = c->room.y + row / 2, max_name;
	max_name = c->room.w - sw - s->pad;
	for (size_t i = 0; i < n; i++) {
		fit_text(cr, it[i].name, max_name, buf);
		double w = sw + s->pad + text_w(cr, buf);
		if (x > c->room.x && x + w > c->room.x + c->room.w) {
			x = c->room.x;
			y += row;
		}
		legend_entry(c, &it[i], x, y, max_name);
		x += w + s->fs * 1.5;
	}
	double used = y + row / 2 - c->room.y + s->pad;
	c->room.y += used;
	c->room.h -= used;
}

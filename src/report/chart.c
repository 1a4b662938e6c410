/*
 * chart.c - charts drawn with cairo; see chart.h.
 *
 * Every chart takes the same steps: clip to its rect and paint it white,
 * draw the title, lay out the plot (margins measured from the tick labels
 * actually drawn), draw the grid and axes, then the data, then the legend.
 * All sizes derive from chart_style (font_size for text, line_width for
 * strokes), so a chart reads the same on an A4 page in points and in a
 * 1600 x 1000 PNG in pixels.
 *
 * Text goes through cairo's toy API with the style's family (fontconfig
 * falls back when the family is absent), is sanitised to valid UTF-8 (an
 * invalid string would put the cairo context into an error state and stop
 * all later drawing) and ellipsised to the room it has; the chart's rect
 * is the clip, so nothing is ever drawn outside it.
 *
 * An axis whose min is not below its max is ranged from the data; a given
 * range is kept (bars and the roofline widen it to show every bar and the
 * roof).  Every axis is then widened to its outer ticks, written back to
 * the caller's struct axis.
 */
#include "chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TAU 6.283185307179586
#define MAX_TICKS 24		/* more would never fit a label each */
#define TEXT_MAX 256		/* bytes of one label, ellipsised beyond */

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

static void set_rgb(cairo_t *cr, struct rgb c, double alpha)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

/* c faded towards white by f (0: c, 1: white). */
static struct rgb fade(struct rgb c, double f)
{
	return (struct rgb){c.r + (1 - c.r) * f, c.g + (1 - c.g) * f,
			    c.b + (1 - c.b) * f};
}

static const struct rgb ink = {0.15, 0.15, 0.15};	/* text, axes */
static const struct rgb grid_ink = {0.88, 0.88, 0.88};

/* ---- ticks ------------------------------------------------------------------ */

/* m x 10^e as the double nearest the decimal (a division for e < 0 rounds
 * once, where a multiplication by 0.1 would round twice). */
static double decimal(double m, int e)
{
	return e >= 0 ? m * pow(10, e) : m / pow(10, -e);
}

/* A zero or sub-resolution span gets a width to put ticks on. */
static void widen_degenerate(double *min, double *max)
{
	double mag = fmax(fabs(*min), fabs(*max));
	if (*max - *min > 1e-12 * mag)
		return;
	if (mag == 0) {
		*min = 0;
		*max = 1;
		return;
	}
	*min -= mag / 2;
	*max += mag / 2;
}

/*
 * The smallest 1-2-5 step giving at most max_ticks ticks that cover
 * [min, max]; starts at the power of ten below the even split, so no
 * smaller valid step is skipped.
 */
static size_t linear_ticks(double *min, double *max, double *t,
			   size_t max_ticks)
{
	static const double mant[] = {1, 2, 5};
	widen_degenerate(min, max);
	double raw = (*max - *min) / (double)(max_ticks - 1);
	if (!isfinite(raw))
		return 0;
	int e = (int)floor(log10(raw));
	for (int tries = 0; tries < 8; tries++, e++) {
		for (int i = 0; i < 3; i++) {
			double step = decimal(mant[i], e);
			double lo = floor(*min / step + 1e-9);
			double hi = ceil(*max / step - 1e-9);
			if (hi - lo + 1 > (double)max_ticks)
				continue;
			size_t n = (size_t)(hi - lo) + 1;
			for (size_t j = 0; j < n; j++)
				t[j] = decimal((lo + (double)j) * mant[i], e);
			*min = t[0];
			*max = t[n - 1];
			return n;
		}
	}
	return 0;
}

/* 1, 2 and 5 times powers of ten from the largest <= min to the smallest
 * >= max, decades lo..hi; 0 when more than max_ticks. */
static size_t log_sub_ticks(double *min, double *max, int lo, int hi,
			    double *t, size_t max_ticks)
{
	static const double mant[] = {1, 2, 5};
	double cand[3 * 4 + 1];
	size_t nc = 0, first = 0, last;
	for (int d = lo; d < hi; d++)
		for (int i = 0; i < 3; i++)
			cand[nc++] = decimal(mant[i], d);
	cand[nc++] = decimal(1, hi);
	while (first + 1 < nc && cand[first + 1] <= *min * (1 + 1e-9))
		first++;
	last = first;
	while (last + 1 < nc && cand[last] < *max * (1 - 1e-9))
		last++;
	if (last - first + 1 > max_ticks)
		return 0;
	for (size_t i = first; i <= last; i++)
		t[i - first] = cand[i];
	*min = cand[first];
	*max = cand[last];
	return last - first + 1;
}

/*
 * Every k-th power (of ten or two) covering exponents [lo, hi] in at most
 * max_ticks: multiples of k when some k gives few enough (1, 1e3, 1e6),
 * else k steps from lo (exponents straddling 0 with two ticks).  Returns
 * the count; the first exponent in *first, the step in *k.
 */
static size_t power_steps(double lo, double hi, size_t max_ticks,
			  double *first, double *k)
{
	for (*k = 1; *k <= hi - lo; (*k)++) {
		double a = floor(lo / *k) * *k, b = ceil(hi / *k) * *k;
		if ((b - a) / *k + 1 <= (double)max_ticks) {
			*first = a;
			return (size_t)((b - a) / *k) + 1;
		}
	}
	*k = ceil((hi - lo) / (double)(max_ticks - 1));
	*first = lo;
	return (size_t)ceil((hi - lo) / *k) + 1;
}

/*
 * Decades covering [min, max]; with fewer than three, 2 and 5 between
 * them as well when that many fit.  Too many decades: every k-th one.
 */
static size_t log_ticks(double *min, double *max, double *t,
			size_t max_ticks)
{
	if (!(*max > 0))
		*max = 10;
	if (!(*min > 0) || *min > *max)
		*min = *max / 10;
	double lo = floor(log10(*min) + 1e-9), hi = ceil(log10(*max) - 1e-9);
	double first, k;
	if (hi <= lo)
		hi = lo + 1;
	if (lo < -300 || hi > 300)
		return 0;
	if (hi - lo < 3) {
		size_t n = log_sub_ticks(min, max, (int)lo, (int)hi, t,
					 max_ticks);
		if (n)
			return n;
	}
	size_t n = power_steps(lo, hi, max_ticks, &first, &k);
	for (size_t i = 0; i < n; i++)
		t[i] = decimal(1, (int)(first + k * (double)i));
	*min = t[0];
	*max = t[n - 1];
	return n;
}

size_t axis_ticks(double *min, double *max, bool log, double *ticks,
		  size_t max_ticks)
{
	if (max_ticks < 2 || !isfinite(*min) || !isfinite(*max))
		return 0;
	if (*min > *max) {
		double s = *min;
		*min = *max;
		*max = s;
	}
	return log ? log_ticks(min, max, ticks, max_ticks)
		   : linear_ticks(min, max, ticks, max_ticks);
}

bool axis_wants_log(double min, double max)
{
	return min > 0 && max / min > 100;
}

/*
 * Powers of two covering [min, max] (GPU counts), every k-th power when
 * more than max_ticks; min/max widened to the outer ones.
 */
static size_t pow2_ticks(double *min, double *max, double *t, size_t max_ticks)
{
	if (!(*max >= 1))
		*max = 1;
	if (!(*min >= 1) || *min > *max)
		*min = 1;
	double lo = floor(log2(*min) + 1e-9), hi = ceil(log2(*max) - 1e-9);
	double first, k;
	if (hi <= lo)
		hi = lo + 1;
	if (hi > 1000)
		return 0;
	size_t n = power_steps(lo, hi, max_ticks, &first, &k);
	for (size_t i = 0; i < n; i++)
		t[i] = ldexp(1, (int)(first + k * (double)i));
	*min = t[0];
	*max = t[n - 1];
	return n;
}

/* ---- text ------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (as cairo judges it: no
 * overlongs, surrogates or code points past U+10FFFF), 0 when invalid. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0], cp, n;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c < 0xe0)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c < 0xf0)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c < 0xf5)
		n = 4, cp = c & 0x07;
	else
		return 0;
	for (unsigned i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff)
		return 0;
	return n;
}

/* Copies src into dst (len bytes with the NUL) as valid UTF-8: invalid
 * bytes become '?', and a cut never splits a character. */
static void utf8_copy(char *dst, size_t len, const char *src)
{
	const unsigned char *s = (const unsigned char *)(src ? src : "");
	size_t o = 0;
	while (*s) {
		size_t n = utf8_len(s);
		if (o + (n ? n : 1) >= len)
			break;
		if (n) {
			memcpy(dst + o, s, n);
			o += n;
			s += n;
		} else {
			dst[o++] = '?';
			s++;
		}
	}
	dst[o] = '\0';
}

static double text_w(cairo_t *cr, const char *s)
{
	cairo_text_extents_t e;
	cairo_text_extents(cr, s, &e);
	return e.x_advance;
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

static void use_font(cairo_t *cr, const struct chart_style *st, double size,
		     bool bold)
{
	const char *family = st && st->font_family ? st->font_family : "sans-serif";
	cairo_select_font_face(cr, family, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD
				    : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}

/* Height of a line of text in the current font (ascent + descent). */
static double font_h(cairo_t *cr)
{
	cairo_font_extents_t fe;
	cairo_font_extents(cr, &fe);
	return fe.ascent + fe.descent;
}

/* The text of s as it will be drawn: sanitised and fitted to max_w
 * (no limit when max_w <= 0). */
static void fit_text(cairo_t *cr, const char *s, double max_w, char *buf)
{
	utf8_copy(buf, TEXT_MAX - 4, s);	/* room for "..." */
	if (max_w > 0)
		ellipsise(cr, buf, max_w);
}

/*
 * Draws s in the current font and source with its box anchored at (x, y):
 * ax 0 left, 0.5 centre, 1 right; ay 0 top, 0.5 middle, 1 bottom of the
 * font's ascent + descent.  A white box behind it when halo.  Returns the
 * width drawn.
 */
static double put_text(cairo_t *cr, double x, double y, const char *s,
		       double max_w, double ax, double ay, bool halo)
{
	char buf[TEXT_MAX];
	cairo_font_extents_t fe;
	fit_text(cr, s, max_w, buf);
	cairo_font_extents(cr, &fe);
	double w = text_w(cr, buf), h = fe.ascent + fe.descent;
	double left = x - ax * w, top = y - ay * h;
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
	cairo_move_to(cr, left, top + fe.ascent);
	cairo_show_text(cr, buf);
	return w;
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

/* Sizes derived from the style: fonts, gaps and strokes. */
struct sizes {
	double fs;		/* tick labels and legend */
	double label;		/* axis labels */
	double title;
	double pad;		/* between text and lines */
	double tick;		/* tick mark length */
	double lw;		/* axis line width; data lines are thicker */
	double r;		/* marker radius */
};

struct chart {
	cairo_t *cr;
	const struct chart_style *st;
	struct sizes sz;
	struct rect area;	/* the whole chart: the clip */
	struct rect room;	/* what the title and legends leave */
	struct rect plot;	/* the data area */
};

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

static void chart_font(struct chart *c, double size, bool bold)
{
	use_font(c->cr, c->st, size, bold);
}

/*
 * Saves cr, clips to area, paints it white and draws the title; room is
 * the area under the title, inset by a pad.  chart_finish restores cr.
 */
static void chart_start(struct chart *c, cairo_t *cr, struct rect area,
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
		double h = font_h(cr);
		put_text(cr, area.x + area.w / 2, c->room.y, title,
			 c->room.w, 0.5, 0, false);
		c->room.y += h + pad;
		c->room.h -= h + pad;
	}
}

static void chart_finish(struct chart *c)
{
	cairo_restore(c->cr);
}

/* ---- axes ------------------------------------------------------------------- */

/* One axis as laid out: the caller's struct (widened), its data range
 * before widening, and its ticks. */
struct laid_axis {
	struct axis *a;
	double lo, hi;		/* data range, before ticks widen it */
	bool pow2;		/* ticks at powers of two (log x of GPU counts) */
	double t[MAX_TICKS];
	size_t n;
	double offset;		/* a right axis: its spine's distance from the plot */
};

/* Where v falls on a, 0 at min and 1 at max; NaN when a log axis gets a
 * value it cannot show. */
static double frac(const struct axis *a, double v)
{
	if (a->log) {
		if (!(v > 0))
			return NAN;
		return (log10(v) - log10(a->min)) /
		       (log10(a->max) - log10(a->min));
	}
	return (v - a->min) / (a->max - a->min);
}

static double map_x(const struct chart *c, const struct axis *a, double v)
{
	return c->plot.x + frac(a, v) * c->plot.w;
}

static double map_y(const struct chart *c, const struct axis *a, double v)
{
	return c->plot.y + c->plot.h - frac(a, v) * c->plot.h;
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
static void range_add(double *lo, double *hi, double v, bool log)
{
	if (!isfinite(v) || (log && !(v > 0)))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

/* An empty range as range_add starts it. */
static void range_empty(double *lo, double *hi)
{
	*lo = HUGE_VAL;
	*hi = -HUGE_VAL;
}

/*
 * The range the axis shows: the caller's when it gave one (min < max),
 * else the data's [dlo, dhi], from 0 for non-negative linear data.
 */
static void axis_prepare(struct laid_axis *l, struct axis *a, double dlo,
			 double dhi)
{
	l->a = a;
	l->pow2 = false;
	l->n = 0;
	l->offset = 0;
	if (a->min < a->max && (!a->log || a->min > 0)) {
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
static void layout(struct chart *c, struct laid_axis *x, struct laid_axis *y,
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

static void stroke_line(cairo_t *cr, double x0, double y0, double x1,
			double y1)
{
	cairo_move_to(cr, x0, y0);
	cairo_line_to(cr, x1, y1);
	cairo_stroke(cr);
}

/* Light grid lines at the ticks of x (vertical) and y (horizontal). */
static void draw_grid(struct chart *c, const struct laid_axis *x,
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
static void draw_x_axis(struct chart *c, const struct laid_axis *x)
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
static void draw_y_axis(struct chart *c, const struct laid_axis *y, int side,
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

/* ---- legends ---------------------------------------------------------------- */

enum mark {
	MARK_CIRCLE, MARK_SQUARE, MARK_TRIANGLE,
	MARK_LINE_CIRCLE, MARK_LINE_SQUARE, MARK_LINE_TRIANGLE,
	MARK_LINE,		/* a line alone: a limit's entry */
	MARK_RING,		/* a hollow circle: the highlighted point */
};

struct legend_item {
	const char *name;
	struct rgb colour;
	enum mark mark;
};

/* A legend swatch with a stroke through its marker (a line's entry)? */
static bool mark_has_line(enum mark m)
{
	return m == MARK_LINE_CIRCLE || m == MARK_LINE_SQUARE ||
	       m == MARK_LINE_TRIANGLE || m == MARK_LINE;
}

/* Draws a marker of radius r centred at (x, y) in the current source; a
 * triangle's corners lie further out, so it looks as large as a circle. */
static void draw_mark(cairo_t *cr, double x, double y, double r, enum mark m)
{
	double t = r * 1.35;
	if (m == MARK_LINE)
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
static void legend_box_size(struct chart *c, const struct legend_item *it,
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
static void legend_box(struct chart *c, const struct legend_item *it,
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
static void legend_rows(struct chart *c, const struct legend_item *it,
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

/* ---- scatter ---------------------------------------------------------------- */

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
			   bool muted, double r, cairo_surface_t *stamp)
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
	bool pen = false;
	if (!fx || !fy || n < 1)
		return;
	cairo_new_path(cr);
	for (size_t i = 0; i < n; i++) {
		double px = map_x(c, x, fx[i]), py = map_y(c, y, fy[i]);
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
	cairo_set_source_rgba(cr, ink.r, ink.g, ink.b, 0.85);
	cairo_set_line_width(cr, c->sz.lw * 1.8);
	cairo_stroke(cr);
}

/* Dashed reference lines with their labels at the line's end: the top of
 * a vertical line (right of it, or left when near the right edge), the
 * right end of a horizontal one (above it). */
static void scatter_refs(struct chart *c, const struct axis *x,
			 const struct axis *y, const struct ref_line *refs,
			 size_t n)
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
			put_text(cr, p->x + p->w - s->pad, at - s->pad / 2,
				 rl->label, p->w * 0.5, 1, 1, true);
		}
		cairo_restore(cr);
	}
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

/* The named, non-empty series as legend entries; returns how many. */
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

static size_t scatter_legend_items(const struct point_series *s, size_t n,
				   size_t n_front,
				   const struct scatter_words *words,
				   struct legend_item *it, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k < max; i++)
		if (s[i].name && s[i].name[0] && s[i].n > 0)
			it[k++] = (struct legend_item){s[i].name, s[i].colour,
						       MARK_CIRCLE};
	if (!words)
		return k;
	/* what the marks mean, only for marks that are on the plot */
	if (words->front && n_front > 1 && k < max)
		it[k++] = (struct legend_item){words->front, ink, MARK_LINE};
	if (words->highlight && any_flag(s, n, true) && k < max)
		it[k++] = (struct legend_item){words->highlight, ink, MARK_RING};
	if (words->muted && any_flag(s, n, false) && k < max)
		it[k++] = (struct legend_item){words->muted, chart_grey(), MARK_CIRCLE};
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
	size_t ni = scatter_legend_items(series, n_series, n_front, words,
					 items, 64);
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
		scatter_points(&c, x, y, &series[i], true, r, stamp);
	/* under the points it joins, which stay visible on it */
	scatter_front(&c, x, y, front_x, front_y, n_front);
	for (size_t i = 0; i < n_series; i++) {
		set_rgb(cr, series[i].colour, 0.85);
		scatter_points(&c, x, y, &series[i], false, r, stamp);
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

/* ---- bars ------------------------------------------------------------------- */

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
	cairo_save(cr);
	cairo_translate(cr, cx, top);
	if (cl->angle == 45) {
		/* the label must not run out of the chart on the left */
		len = fmin(len, (cx - c->area.x) / sqrt(0.5) - c->sz.pad);
		cairo_rotate(cr, -TAU / 8);
		put_text(cr, 0, 0, label, len, 1, 0.3, false);
	} else {
		cairo_rotate(cr, -TAU / 4);
		put_text(cr, 0, 0, label, len, 1, 0.5, false);
	}
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

/* Draws one group's bars centred on cx within a slot. */
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
 * the plot's height; two rounds settle it.
 */
static struct cat_labels bars_layout(struct chart *c, struct laid_axis *ly,
				     const struct bar_group *g, size_t n)
{
	struct cat_labels cl = {0, 1, 0, 0};
	double bottom = c->room.h * 0.1;
	for (int round = 0; round < 2; round++) {
		layout(c, NULL, ly, 1, bottom, 0);
		chart_font(c, c->sz.fs, false);
		double slot = c->plot.w / (double)(n ? n : 1);
		cl = cat_layout(c, g, n, slot, c->room.h * 0.35);
		bottom = c->sz.tick + c->sz.pad + cl.height;
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
		top = fmax(top, groups[i].limit > 0 ? groups[i].limit : 0);
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

/* ---- lines, an axis each ---------------------------------------------------- */

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

/* ---- roofline --------------------------------------------------------------- */

/* FLOP/s shown in the unit that suits the peak. */
struct flops_unit {
	double scale;
	const char *y_label;
};

static struct flops_unit flops_unit(double peak)
{
	if (peak >= 1e12)
		return (struct flops_unit){1e12, "performance (TFLOP/s)"};
	if (peak >= 1e9)
		return (struct flops_unit){1e9, "performance (GFLOP/s)"};
	return (struct flops_unit){1, "performance (FLOP/s)"};
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
		      struct flops_unit u)
{
	cairo_t *cr = c->cr;
	const struct rect *p = &c->plot;
	double ridge = peak / bw, bottom = p->y + p->h;
	double xs[3] = {x->min, ridge, x->max};
	char buf[TEXT_MAX];
	cairo_new_path(cr);
	for (int i = 0; i < 3; i++)
		cairo_line_to(cr, map_x(c, x, xs[i]),
			      map_y(c, y, fmin(peak, bw * xs[i]) / u.scale));
	cairo_line_to(cr, p->x + p->w, bottom);
	cairo_line_to(cr, p->x, bottom);
	cairo_close_path(cr);
	cairo_set_source_rgba(cr, 0.3, 0.45, 0.65, 0.08);
	cairo_fill(cr);
	for (int i = 0; i < 3; i++)
		cairo_line_to(cr, map_x(c, x, xs[i]),
			      map_y(c, y, fmin(peak, bw * xs[i]) / u.scale));
	set_rgb(cr, (struct rgb){0.2, 0.2, 0.2}, 1);
	cairo_set_line_width(cr, c->sz.lw * 2.5);
	cairo_stroke(cr);
	double rx = map_x(c, x, ridge), ry = map_y(c, y, peak / u.scale);
	double dots[] = {c->sz.lw * 1.5, c->sz.lw * 2.5};
	cairo_save(cr);
	cairo_set_dash(cr, dots, 2, 0);
	cairo_set_line_width(cr, c->sz.lw);
	stroke_line(cr, rx, ry, rx, bottom);
	cairo_restore(cr);
	cairo_arc(cr, rx, ry, c->sz.r * 1.6, 0, TAU);
	cairo_fill(cr);
	chart_font(c, c->sz.fs, false);
	snprintf(buf, sizeof(buf), "ridge %.3g FLOP/byte", ridge);
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
			struct flops_unit u, struct rect taken[2])
{
	cairo_t *cr = c->cr;
	const struct rect *p = &c->plot;
	char buf[TEXT_MAX];
	chart_font(c, c->sz.fs, true);
	set_rgb(cr, (struct rgb){0.2, 0.2, 0.2}, 1);
	snprintf(buf, sizeof(buf), "peak %.4g %s", peak / u.scale,
		 u.y_label + strlen("performance ("));
	buf[strlen(buf) - 1] = '\0';	/* the unit's closing parenthesis */
	double h = font_h(cr), py = map_y(c, y, peak / u.scale) + c->sz.pad * 1.5;
	double w = put_text(cr, p->x + p->w - c->sz.pad, py, buf, p->w * 0.5,
			    1, 0, true);
	taken[0] = (struct rect){p->x + p->w - c->sz.pad - w, py, w, h};
	/* from where the slope enters the plot to the ridge, on screen */
	double ie = fmax(x->min, y->min * u.scale / bw), ridge = peak / bw;
	double ex = map_x(c, x, ie), ey = map_y(c, y, bw * ie / u.scale);
	double rx = map_x(c, x, ridge), ry = map_y(c, y, peak / u.scale);
	double len = hypot(rx - ex, ry - ey), a = atan2(ry - ey, rx - ex);
	chart_font(c, c->sz.fs, false);
	format_bandwidth(bw, buf, sizeof(buf));
	w = fmin(text_w(cr, buf), len);
	double back = fmin(len, w + c->sz.fs * 2);
	double sx = rx - back * cos(a), sy = ry - back * sin(a);
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
			size_t n, struct flops_unit u, const struct rect *fixed,
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
		double py = map_y(c, y, pt[i].achieved / u.scale);
		if (isfinite(px) && isfinite(py))
			taken[nt++] = (struct rect){px - r, py - r, 2 * r, 2 * r};
	}
	for (size_t i = 0; i < k; i++) {
		double px = map_x(c, x, pt[i].intensity);
		double py = map_y(c, y, pt[i].achieved / u.scale);
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
			size_t n, struct flops_unit u, struct axis *x,
			struct axis *y)
{
	double ridge = peak / bw;
	double xlo = ridge / 30, xhi = ridge * 30;
	double ylo = peak / 300, yhi = peak;
	for (size_t i = 0; i < n; i++) {
		range_add(&xlo, &xhi, pt[i].intensity, true);
		range_add(&ylo, &yhi, pt[i].achieved, true);
	}
	*x = (struct axis){xlo, xhi, true, "arithmetic intensity (FLOP/byte)",
			   NULL};
	*y = (struct axis){ylo / u.scale, yhi / u.scale, true, u.y_label, NULL};
}

void chart_roofline(cairo_t *cr, struct rect area, const char *title,
		    double peak_flops, double bandwidth,
		    const struct roof_point *points, size_t n,
		    const struct chart_style *st)
{
	struct chart c;
	struct axis x, y;
	struct laid_axis lx, ly;
	chart_start(&c, cr, area, title, st);
	if (!(peak_flops > 0) || !(bandwidth > 0) || !isfinite(peak_flops) ||
	    !isfinite(bandwidth)) {
		chart_finish(&c);
		return;
	}
	struct flops_unit u = flops_unit(peak_flops);
	roof_ranges(peak_flops, bandwidth, points, n, u, &x, &y);
	axis_prepare(&lx, &x, x.min, x.max);
	axis_prepare(&ly, &y, y.min, y.max);
	layout(&c, &lx, &ly, 1, 0, 0);
	/* the roof at the very top would read as the plot's frame */
	if (frac(&y, peak_flops / u.scale) > 0.97)
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

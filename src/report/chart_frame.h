/*
 * chart_frame.h - what the chart kinds share, inside src/report/chart_*.c
 * only (everyone else uses chart.h): colours, text, the chart frame and
 * its axes, and legends.  The ticks it lays out are below it:
 * chart_ticks.h (powers of two) and chart.h (axis_ticks).
 *
 * Each chart kind (chart_scatter.c, chart_bars.c, chart_lines.c,
 * chart_roofline.c) takes the same steps: chart_start, axis_prepare for
 * each axis, layout, draw_grid, its data, draw_x_axis and draw_y_axis, a
 * legend, chart_finish.  Sizes are in the surface's units, as in chart.h.
 * Ownership: struct chart borrows cr and the style for one chart; struct
 * laid_axis points at the caller's struct axis and writes the widened
 * range back to it.  Text is copied into buffers of TEXT_MAX bytes.
 */
#ifndef GPUPLAN_REPORT_CHART_FRAME_H
#define GPUPLAN_REPORT_CHART_FRAME_H

#include "chart.h"

#define TAU 6.283185307179586
#define MAX_TICKS 24		/* more would never fit a label each */
#define TEXT_MAX 256		/* bytes of one label, ellipsised beyond */

/* ---- colours ---- */

extern const struct rgb ink;	/* text, axes */

/* Sets c with alpha as cr's source. */
void set_rgb(cairo_t *cr, struct rgb c, double alpha);

/* ---- text ---- */

/* src into dst (len bytes with the NUL) as text cairo accepts (utf8.h):
 * malformed bytes and noncharacters '?'. */
void utf8_copy(char *dst, size_t len, const char *src);
/* Advance width of s in cr's current font (chart_font's choice, kept on
 * cr; Pango lays it out). */
double text_w(cairo_t *cr, const char *s);
/* Height of a line of text in the current font (ascent + descent). */
double font_h(cairo_t *cr);
/* s as drawn: valid UTF-8 fitted to max_w (<= 0: any) in buf[TEXT_MAX]. */
void fit_text(cairo_t *cr, const char *s, double max_w, char *buf);
/* The same with the middle of s cut out ("128 x p5e...48xlarge") where
 * both ends of a name matter. */
void fit_text_middle(cairo_t *cr, const char *s, double max_w, char *buf);
/* Draws buf as fitted, anchored as put_text; returns its width. */
double put_fitted(cairo_t *cr, double x, double y, const char *buf,
		  double ax, double ay, bool halo);
/* Draws s anchored at (x, y) by (ax, ay), fitted to max_w; returns width. */
double put_text(cairo_t *cr, double x, double y, const char *s,
		double max_w, double ax, double ay, bool halo);

/* ---- the chart frame ---- */

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

/* Selects the style's family at size (bold or regular) on c's cairo. */
void chart_font(struct chart *c, double size, bool bold);
/* Saves cr, clips to area, paints it white and draws the title. */
void chart_start(struct chart *c, cairo_t *cr, struct rect area,
		 const char *title, const struct chart_style *st);
/* Restores the cr that chart_start saved. */
void chart_finish(struct chart *c);

/* Where v falls on a, 0 at min and 1 at max; NaN when it cannot show v. */
double frac(const struct axis *a, double v);
/* v on a as a surface x inside c->plot. */
double map_x(const struct chart *c, const struct axis *a, double v);
/* v on a as a surface y inside c->plot (up is larger). */
double map_y(const struct chart *c, const struct axis *a, double v);

/* Adds v to the range [*lo, *hi] when a (log or linear) axis can show it. */
void range_add(double *lo, double *hi, double v, bool log);
/* An empty range as range_add starts it. */
void range_empty(double *lo, double *hi);
/* Sets l up for a: the caller's range when given, else [dlo, dhi]. */
void axis_prepare(struct laid_axis *l, struct axis *a, double dlo,
		  double dhi);
/* Places c->plot in c->room; fits x's (may be NULL) and y[0..n_y)'s ticks. */
void layout(struct chart *c, struct laid_axis *x, struct laid_axis *y,
	    size_t n_y, double bottom, double right_extra);

/* Strokes the segment from (x0, y0) to (x1, y1) with cr's current pen. */
void stroke_line(cairo_t *cr, double x0, double y0, double x1,
		 double y1);
/* A new path through (xs[i], ys[i]), broken where a point cannot be shown. */
void trace_polyline(struct chart *c, const struct axis *x,
		    const struct axis *y, const double *xs, const double *ys,
		    size_t n);
/* Light grid lines at the ticks of x and y (either may be NULL). */
void draw_grid(struct chart *c, const struct laid_axis *x,
	       const struct laid_axis *y);
/* Dashed grey reference lines (a deadline, a budget, a target) across
 * the plot, each labelled at its end: a vertical line at its top, a
 * horizontal one at its left end, above it (under it when the plot's top
 * leaves no room). */
void draw_refs(struct chart *c, const struct axis *x, const struct axis *y,
	       const struct ref_line *refs, size_t n);
/* The x axis under the plot: baseline, ticks, their labels, the axis label. */
void draw_x_axis(struct chart *c, const struct laid_axis *x);
/* A y axis left (side 0) or right (side 1) of the plot, labels in colour. */
void draw_y_axis(struct chart *c, const struct laid_axis *y, int side,
		 struct rgb colour);

/* ---- legends ---- */

enum mark {
	MARK_CIRCLE, MARK_SQUARE, MARK_TRIANGLE,
	MARK_LINE_CIRCLE, MARK_LINE_SQUARE, MARK_LINE_TRIANGLE,
	MARK_LINE,		/* a line alone: a limit's entry */
	MARK_RING,		/* a hollow circle: the highlighted point */
	MARK_NONE,		/* no swatch: "+ 12" when entries were left out */
};

struct legend_item {
	const char *name;
	struct rgb colour;
	enum mark mark;
};

/* A marker of radius r centred at (x, y) in cr's source (MARK_LINE: none). */
void draw_mark(cairo_t *cr, double x, double y, double r, enum mark m);
/* Size of a boxed legend, one entry a row, names at most max_name wide. */
void legend_box_size(struct chart *c, const struct legend_item *it,
		     size_t n, double max_name, double *w, double *h);
/* The boxed legend at top-left (x, y), w x h as legend_box_size gave. */
void legend_box(struct chart *c, const struct legend_item *it,
		size_t n, double x, double y, double w, double h);
/* A legend in rows across the top of c->room, which shrinks by its height. */
void legend_rows(struct chart *c, const struct legend_item *it,
		 size_t n);

#endif

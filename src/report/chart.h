/*
 * chart.h - charts drawn with cairo into a rectangle of a page: axes with
 * 1-2-5 ticks (linear or log), scatter, bars, stacked bars, lines with an
 * axis each, curves on shared axes, and the roofline.  Nothing here knows
 * about plans: callers hand in plain series.
 *
 * Sizes are in the surface's units (points for PDF/SVG, pixels for PNG);
 * every chart scales its fonts and strokes from struct chart_style, so the
 * same code serves an A4 page and a 1600 x 1000 PNG.
 * Ownership: series arrays and strings belong to the caller and are only
 * read during the call.
 */
#ifndef GPUPLAN_REPORT_CHART_H
#define GPUPLAN_REPORT_CHART_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>

struct rect {
	double x, y, w, h;
};

struct rgb {
	double r, g, b;
};

/* A palette of distinguishable colours; accelerator i always gets the
 * same one (callers index it by a stable number, e.g. sorted name). */
struct rgb chart_colour(size_t i);
struct rgb chart_grey(void);
/* The colour of text and axes: a legend entry for a mark, not a series. */
struct rgb chart_ink(void);

struct chart_style {
	const char *font_family;	/* resolved by text.h */
	double font_size;		/* tick labels; titles 1.3x */
	double line_width;
};

/* ---- axes ---- */

struct axis {
	double min, max;		/* data range shown */
	bool log;			/* log10 scale */
	const char *label;		/* with its unit: "time (h)" */
	/* tick labels: value -> text, e.g. "2 h", "1,000 USD"; NULL: %g */
	void (*format)(double v, char *buf, size_t len);
};

/* The values a log axis shows: its ticks stay normal, finite doubles.
 * Values beyond are off the axis (not drawn). */
#define AXIS_LOG_MIN 1e-300
#define AXIS_LOG_MAX 1e300

/*
 * Ticks at 1, 2 and 5 times powers of ten (linear) or at powers of ten,
 * with 2 and 5 between when few (log), covering [min, max].  Returns how
 * many (at most max_ticks) and widens *min and *max to the outer ticks.
 * Any finite range is accepted: a zero or subnormal span is widened
 * first (magnitudes under 1e-290 count as zero), a log axis is clamped
 * to [AXIS_LOG_MIN, AXIS_LOG_MAX].  Returns 0, leaving *min and *max as
 * they were, for a non-finite bound, max_ticks < 2, or a range no finite
 * tick set covers (values within a factor of ten of DBL_MAX).
 */
size_t axis_ticks(double *min, double *max, bool log, double *ticks,
		  size_t max_ticks);

/* Decides log or linear: log when the data spans more than 100x and lies
 * within [AXIS_LOG_MIN, AXIS_LOG_MAX]. */
bool axis_wants_log(double min, double max);

/* ---- charts ---- */

struct point_series {
	const char *name;		/* legend entry */
	const double *x, *y;
	const bool *muted;		/* per point: drawn grey (infeasible); may be NULL */
	const bool *highlight;		/* per point: ringed (recommended); may be NULL */
	size_t n;
	struct rgb colour;
};

/* A reference line across the plot: a deadline (vertical, x) or a
 * budget (horizontal, y). */
struct ref_line {
	bool vertical;
	double at;
	const char *label;
};

/* Legend words for the scatter's own marks, in the report's language;
 * each may be NULL (no entry), and an entry shows only when its mark is
 * drawn. */
struct scatter_words {
	const char *front;		/* the polyline: "Pareto front" */
	const char *highlight;		/* the ring: "recommended" */
	const char *muted;		/* grey points: "infeasible" */
};

/*
 * Scatter of several series on shared axes; `front` (may be NULL) is a
 * polyline drawn through the given points in order (the Pareto front).
 * The legend (series, then `words`, which may be NULL) goes where it
 * covers the fewest points.
 */
/* Whether chart_scatter's legend lists series s: it has a name and a
 * point drawn in its colour (all-grey series are not listed). */
bool scatter_series_listed(const struct point_series *s);

void chart_scatter(cairo_t *cr, struct rect area, const char *title,
		   struct axis *x, struct axis *y,
		   const struct point_series *series, size_t n_series,
		   const double *front_x, const double *front_y, size_t n_front,
		   const struct ref_line *refs, size_t n_refs,
		   const struct scatter_words *words,
		   const struct chart_style *st);
/* The same, series i drawn with marker marks[i] (enum mark of
 * chart_frame.h: MARK_CIRCLE, MARK_SQUARE or MARK_TRIANGLE), in the plot
 * and the legend: owned machines and illustrative prices apart from
 * rentals.  marks NULL: circles. */
void chart_scatter_marked(cairo_t *cr, struct rect area, const char *title,
			  struct axis *x, struct axis *y,
			  const struct point_series *series, const int *marks,
			  size_t n_series, const double *front_x,
			  const double *front_y, size_t n_front,
			  const struct ref_line *refs, size_t n_refs,
			  const struct scatter_words *words,
			  const struct chart_style *st);

struct bar_group {
	const char *label;		/* category under the bar */
	const double *values;		/* one per stack segment */
	bool muted;
	double limit;			/* > 0: this bar's ceiling (its GPU's
					 * memory); 0: none */
	/* an error bar over the first segment, from err_low to err_high
	 * (a measured range); both 0: none */
	double err_low, err_high;
};

/*
 * Vertical stacked bars, one per group, segments named by `segments` with
 * their colours; a single segment gives plain bars; `side_by_side` draws
 * the segments next to each other instead (on-demand vs spot).  Groups'
 * limits are drawn dashed red: one labelled line across the plot when
 * every limit is the same, else a dash over each bar with `limit_label`
 * in the legend (memory per GPU against each GPU's capacity).  A group's
 * error bar is drawn in ink over its first segment, with caps.
 */
void chart_bars(cairo_t *cr, struct rect area, const char *title,
		struct axis *y, const struct bar_group *groups, size_t n_groups,
		const char *const *segments, const struct rgb *colours,
		size_t n_segments, bool side_by_side, const char *limit_label,
		const struct chart_style *st);

/* One line of a line chart, read against its own y axis. */
struct line_series {
	const char *name;		/* legend entry */
	const double *y;		/* n values over the chart's xs; NaN breaks the line */
	struct axis *axis;		/* this line's alone: ranged and widened */
};

#define CHART_MAX_LINES 3

/*
 * Up to CHART_MAX_LINES lines over a shared x (GPU count: ticks at powers
 * of two when x is log), each on its own y axis with tick labels and title
 * in the line's colour: the first on the left, the second on the right;
 * a third gets a panel of its own underneath, on the same x (never three
 * y axes on one plot).  The legend runs across the top.  Lines past the limit are
 * ignored.
 */
void chart_lines(cairo_t *cr, struct rect area, const char *title,
		 struct axis *x, const double *xs, size_t n,
		 const struct line_series *lines, size_t n_lines,
		 const struct chart_style *st);

/* One curve of chart_curves: its own points, in order of x, on the
 * chart's shared axes; a NaN y breaks the line. */
struct curve {
	const double *x, *y;
	size_t n;
	struct rgb colour;
	int marker;			/* 0 circle, 1 square, 2 triangle */
	bool thin;			/* drawn lighter: a second choice */
	bool no_line;			/* its markers alone: measured points */
};

/* A legend entry of chart_curves: a line in colour, with a marker
 * (-1: the line alone). */
struct curve_key {
	const char *name;
	struct rgb colour;
	int marker;
	bool new_row;			/* starts a row: what the marks mean */
};

/* Where curves end at a limit (a service saturated from this rate on):
 * a dotted vertical line in their colour, labelled at the top. */
struct curve_stop {
	double at;
	const char *label;
	struct rgb colour;
};

struct curve_chart {
	const struct curve *curves;
	size_t n_curves;
	const struct curve_key *keys;	/* the legend, in order */
	size_t n_keys;
	const struct ref_line *refs;	/* dashed grey, as chart_scatter's */
	size_t n_refs;
	const struct curve_stop *stops;
	size_t n_stops;
};

/*
 * Curves on one shared x and y axis (latency against load), the legend in
 * rows across the top, never over the data.  Axes not given a range are
 * ranged from the curves' drawable points, the reference lines and the
 * stops.
 */
void chart_curves(cairo_t *cr, struct rect area, const char *title,
		  struct axis *x, struct axis *y, const struct curve_chart *cc,
		  const struct chart_style *st);

struct roof_point {
	const char *label;		/* op class */
	double intensity;		/* FLOP/byte */
	double achieved;		/* FLOP/s the plan assumes for it */
};

/* The roofline's words in the report's language; units (TFLOP/s,
 * FLOP/byte) are the same in every language. */
struct roofline_words {
	const char *performance;	/* the y axis: "performance" */
	const char *intensity;		/* the x axis: "arithmetic intensity" */
	const char *peak, *ridge;	/* before the roof's two figures */
};

/* Whether chart_roofline can draw this roof: peak and bandwidth finite
 * and positive, and the roof's axes (the ridge, peak / bandwidth, 30x
 * either side; the peak down to 1/300 of it) within what a log axis
 * shows.  A subnormal bandwidth, say, puts the ridge at infinity. */
bool roofline_drawable(double peak_flops, double bandwidth);

/* The roofline of one accelerator: min(peak, bandwidth x intensity) on
 * log-log axes, with points placed on it.  words NULL: English.  Draws
 * only the title when !roofline_drawable(peak_flops, bandwidth). */
void chart_roofline(cairo_t *cr, struct rect area, const char *title,
		    double peak_flops, double bandwidth,
		    const struct roof_point *points, size_t n,
		    const struct roofline_words *words,
		    const struct chart_style *st);

#endif

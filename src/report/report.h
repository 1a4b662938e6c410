/*
 * report.h - a plan as a report a manager can read: a multi-page PDF (the
 * recommendation per workload on the first page, then the option tables,
 * the charts, and an appendix of assumptions and sources), and the charts
 * as PNG and SVG files.  English or Chinese.
 *
 * The files of one report are written all or nothing: each is drawn in
 * memory, checked with cairo (every context and surface status: a string
 * or coordinate cairo refused would otherwise blank the rest silently),
 * and staged into the caller's atomic set (core/atomic_file.h), which the
 * caller commits once everything is staged or aborts.  The same plan
 * gives the same bytes.
 *
 * Test hook: GPUPLAN_FAULT=report-cairo:N puts the N-th chart the process
 * draws (PDF pages' charts, then PNGs, then SVGs, from 1) into a cairo
 * error, so tests can check that a report cairo refused part-way fails
 * whole (tests/cli/report-faults.sh).
 */
#ifndef GPUPLAN_REPORT_REPORT_H
#define GPUPLAN_REPORT_REPORT_H

#include <stddef.h>

#include "core/atomic_file.h"

#include "report_charts.h"
#include "report_data.h"
#include "text.h"

struct report_options {
	enum report_lang lang;
	const char *title;	/* NULL: the language's default */
	const char *pdf;	/* NULL: no PDF */
	const char *png_dir;	/* NULL: no PNGs */
	const char *svg_dir;	/* NULL: no SVGs */
	size_t table_rows;	/* options per workload in the tables */
	const char *first_page_png;	/* NULL: none; else page 1 as a PNG */
	const char *pdf_shown;	/* what messages call the PDF; NULL: pdf */
};

struct report_stats {
	int pdf_pages;
	size_t png_files, svg_files;
};

enum {
	REPORT_OK = 0,
	REPORT_FAILED = -1,	/* no font, cairo refused, a write failed: exit 1 */
	REPORT_REFUSED = -2,	/* a target that may not be written: exit 2 */
};

/*
 * Renders p and stages every file into set (nothing is renamed: the
 * caller commits or aborts the set).  Returns REPORT_OK, or REPORT_FAILED
 * / REPORT_REFUSED with why.  stats counts what was staged.
 */
int report_render(const struct r_plan *p, const struct report_options *o,
		  struct atomic_set *set, struct report_stats *stats, char *why,
		  size_t len);

/*
 * One chart of one workload as a file in o->png_dir (1600 x 1000 px) or
 * o->svg_dir (800 x 500 pt), named WORKLOAD-SLUG.png/.svg, in font f.
 * `ranked` is report_rank(w).  Written on its own with atomic_write:
 * the scatter benchmark (tests/perf) times it alone.  0, or -1 with why.
 */
int report_chart_file(const struct r_plan *p, const struct r_workload *w,
		      const size_t *ranked, enum report_chart c,
		      const struct report_options *o,
		      const struct report_font *f, bool svg, char *why,
		      size_t len);

/*
 * One drawing (a command's own chart, not a plan's) as the bytes of a
 * file whose name ends in .png (1600 x 1000 px), .svg (800 x 500 pt) or
 * .pdf (one A4 landscape page, created `date`, an ISO 8601 moment, so the
 * same drawing gives the same bytes).  draw() paints into area with
 * style st.  Returns malloc'd bytes (*len of them), or NULL with why: an
 * unknown extension, or what cairo refused.
 */
typedef void (*report_draw_fn)(cairo_t *cr, struct rect area,
			       const struct chart_style *st, const void *arg);
unsigned char *report_drawing_bytes(const char *path, report_draw_fn draw,
				    const void *arg, const struct report_font *f,
				    const char *date, size_t *len, char *why,
				    size_t wlen);

/* A plan's drawings' PDF date (ISO 8601): its latest price date, not the
 * wall clock, so the same plan gives the same bytes. */
void report_plan_date(const struct r_plan *p, char *buf, size_t len);

/* A name as a file name's part: letters, digits, '.', '_' and '-' kept,
 * anything else (a multi-byte character counts once) as '_'; "workload"
 * when nothing is left. */
void report_file_slug(const char *name, char *out, size_t cap);

#endif

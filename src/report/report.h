/*
 * report.h - a plan as a report a manager can read: a multi-page PDF (the
 * recommendation per workload on the first page, then the option tables,
 * the charts, and an appendix of assumptions and sources), and the charts
 * as PNG and SVG files.  English or Chinese.
 *
 * Every file is written whole or not at all (rendered in memory, then
 * atomic_write), and the same plan gives the same bytes.
 */
#ifndef GPUPLAN_REPORT_REPORT_H
#define GPUPLAN_REPORT_REPORT_H

#include <stddef.h>

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
};

struct report_stats {
	int pdf_pages;
	size_t png_files, svg_files;
};

/*
 * Renders p.  Returns 0, or -1 with why: no font for the language (an
 * environment problem, exit 1) or a file that cannot be written.
 */
int report_render(const struct r_plan *p, const struct report_options *o,
		  struct report_stats *stats, char *why, size_t len);

/*
 * One chart of one workload as a file in o->png_dir (1600 x 1000 px) or
 * o->svg_dir (800 x 500 pt), named WORKLOAD-SLUG.png/.svg, in font f.
 * `ranked` is report_rank(w).  report_render calls it for every chart;
 * the scatter benchmark (tests/perf) times it alone.
 */
int report_chart_file(const struct r_plan *p, const struct r_workload *w,
		      const size_t *ranked, enum report_chart c,
		      const struct report_options *o,
		      const struct report_font *f, bool svg, char *why,
		      size_t len);

#endif

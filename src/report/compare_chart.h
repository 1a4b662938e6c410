/*
 * compare_chart.h - a comparison (compare/compare_runs.h, compare_plans.h)
 * drawn for `gpuplan compare --report FILE`: for runs and profiles, a bar
 * per metric of after / before with its 95% interval as an error bar (1
 * is no change); for plans, the cost at each workload's recommendation,
 * before and after side by side.  Drawn from the comparison's JSON, as
 * the table is.  A 1600 x 1000 PNG, an 800 x 500 pt SVG or a one-page
 * PDF (report_drawing_bytes), the same bytes for the same comparison.
 */
#ifndef GPUPLAN_REPORT_COMPARE_CHART_H
#define GPUPLAN_REPORT_COMPARE_CHART_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "report/text.h"

/* The bytes of the chart of j (malloc'd, *len long) for a file named
 * path (.png, .svg or .pdf, whose date is `date`, ISO 8601); NULL with
 * why when cairo or the encoder refused. */
unsigned char *compare_chart(const char *path, const json_t *j,
			     const struct report_font *f, const char *date,
			     size_t *len, char *why, size_t wlen);

#endif

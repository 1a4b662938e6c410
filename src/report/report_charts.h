/*
 * report_charts.h - the charts of one workload, from plan data to chart.h
 * calls: time against cost, latency against load (a service whose
 * recommendation has a load curve), cost per option, where the time goes,
 * memory against capacity, scaling with GPU count (training) and the
 * roofline of the recommended accelerator.
 */
#ifndef GPUPLAN_REPORT_REPORT_CHARTS_H
#define GPUPLAN_REPORT_REPORT_CHARTS_H

#include <cairo.h>
#include <stdbool.h>

#include "chart.h"
#include "report_data.h"
#include "text.h"

enum report_chart {
	RC_TIME_COST, RC_LOAD, RC_COST, RC_BREAKDOWN, RC_MEMORY, RC_SCALING,
	RC_ROOFLINE, RC_COUNT
};

/* File-name part: "time-cost", "cost", ... */
const char *report_chart_slug(enum report_chart c);

/* Whether the chart applies (latency against load needs a service whose
 * recommendation has a load curve of two points or more below
 * saturation; scaling needs a training workload with more than one size
 * of the recommended instance; the roofline needs the accelerator's
 * figures). */
bool report_chart_applies(const struct r_plan *p, const struct r_workload *w,
			  enum report_chart c);

/* Draws chart c of w into area.  `ranked` holds option indexes in reading
 * order (see report.c), n_ranked of them. */
void report_chart_draw(cairo_t *cr, struct rect area, const struct r_plan *p,
		       const struct r_workload *w, const size_t *ranked,
		       size_t n_ranked, enum report_chart c,
		       enum report_lang lang, const struct chart_style *st);

/* Options in reading order: the recommendation, feasible rentals by cost,
 * the rest by cost.  Returns a new array of w->n indexes. */
size_t *report_rank(const struct r_workload *w);

/* A money axis's tick label as the charts write it: "950", "1.2k", "3.4M"
 * (for the first page's headline chart, page15). */
void report_money_tick(double v, char *buf, size_t len);

#endif

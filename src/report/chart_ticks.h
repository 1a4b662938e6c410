/*
 * chart_ticks.h - the power-of-two ticks of an axis of GPU counts, which
 * the chart frame (chart_frame.c) lays out; chart_ticks.c's other ticks,
 * 1-2-5 steps and decades, are chart.h's axis_ticks and axis_wants_log,
 * open to any caller.
 *
 * Pure arithmetic below the frame that draws the ticks: nothing here
 * knows about cairo or a chart.
 * Ownership: none; the caller's buffer of max_ticks values is written.
 */
#ifndef GPUPLAN_REPORT_CHART_TICKS_H
#define GPUPLAN_REPORT_CHART_TICKS_H

#include <stddef.h>

/* Powers of two covering [min, max] (GPU counts), every k-th power when
 * more than max_ticks; *min and *max widened to the outer ones.  Returns
 * how many, or 0 (leaving *min and *max as they were) when none fits. */
size_t pow2_ticks(double *min, double *max, double *t, size_t max_ticks);

#endif

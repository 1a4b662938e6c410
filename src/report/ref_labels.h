/*
 * ref_labels.h - where the labels of a chart's reference lines go (a
 * deadline's vertical line, a budget's horizontal one), so that no label
 * overlaps another or is struck through by another line.
 *
 * Pure geometry in device units (y grows downwards), no drawing: the
 * scatter chart draws the lines and then each label in the rectangle this
 * gives it.  Nothing allocated; the caller owns every array.
 */
#ifndef GPUPLAN_REPORT_REF_LABELS_H
#define GPUPLAN_REPORT_REF_LABELS_H

#include <stdbool.h>
#include <stddef.h>

#include "chart.h"

/* One line's label to place: its line (vertical at x = at, else
 * horizontal at y = at) and the label's size. */
struct ref_label {
	bool vertical;
	double at;
	double w, h;
};

/*
 * Places each label i in out[i] inside plot: a vertical line's at its top
 * (right of the line, else left), then at its bottom; a horizontal line's
 * at its left end (above the line, else below), then at its right end.
 * The first of those that crosses no other line and overlaps no label
 * placed before wins; when none does, the first inside the plot.  Labels
 * are placed in order, so the first keeps its usual place.
 */
void ref_labels_place(const struct rect *plot, const struct ref_label *in,
		      size_t n, double pad, struct rect *out);

/* Whether two rectangles overlap (touching edges do not). */
bool rect_overlap(const struct rect *a, const struct rect *b);

#endif

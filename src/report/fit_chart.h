/*
 * fit_chart.h - a fitted scaling curve drawn for `gpuplan fit --plot`:
 * above, the measured points, the fitted curve and its 95% band (the
 * delta method on the parameters' covariance, lsq.h fit_band()); below,
 * each point's relative residual against a line at zero.  A 1600 x 1000
 * PNG, the same bytes for the same curve.
 */
#ifndef GPUPLAN_REPORT_FIT_CHART_H
#define GPUPLAN_REPORT_FIT_CHART_H

#include <stddef.h>

#include "fit/curves.h"
#include "report/text.h"

/* PNG bytes of c (malloc'd, *len long), or NULL with why when cairo or
 * the encoder refused. */
unsigned char *fit_chart_png(const struct scaling_curve *c,
			     const struct report_font *f, size_t *len,
			     char *why, size_t wlen);

#endif

/*
 * fitted.h - the fitted file (`schema: gpuplan/fitted/v1`) that `gpuplan
 * fit` writes: each curve it fitted, with its parameters, their standard
 * errors and 95% intervals, the quality of the fit and the points behind
 * it, and each series it left out with why.  Loaded as strictly as every
 * gpuplan file: every problem at file:line:column.
 *
 *   schema: gpuplan/fitted/v1
 *   curves:
 *     - name: "transfer memcpy"
 *       kind: transfer                  # curves.h: the form and names
 *       source: "m.yaml"                # the measured profile
 *       device: "cpu: AMD EPYC"
 *       measured: "2026-12-02T02:21:55Z"   # the profile's `when`
 *       parameters:
 *         latency_s: {value: 1.2e-05, se: 3e-07, ci95: [1.1e-05, 1.3e-05]}
 *         s_per_byte: {value: 5.1e-11, se: 4e-13, ci95: [5e-11, 5.2e-11]}
 *       covariance: [[9e-14, -1e-19], [-1e-19, 1.6e-25]]  # of the two
 *       r2: 0.9993
 *       rms_relative_residual: 0.012
 *       leave_one_out_error: 0.018      # null with too few points; lines
 *                                       # exact (hat matrix), a saturating
 *                                       # curve 10-fold past 50 points (lsq.h)
 *       points: [[4096, 1.3e-05], ...]  # [x, y] as fitted
 *       relative_residuals: [0.01, ...] # curve / y - 1 at each point
 *       figures_left_out: 0
 *       left_out_because: "..."         # with figures left out
 *   rates:                              # figures that are no curve
 *     - name: "empty kernel launch"
 *       source: "m.yaml"
 *       device: "cuda: NVIDIA H100 80GB HBM3"
 *       measured: "2026-12-02T02:21:55Z"
 *       unit: launch/s
 *       value: 250000
 *       ci95: [248000, 251000]          # as the profile has it
 *   training: [...]                     # training terms (train_fitted.h)
 *   left_out:
 *     - {name: "membw copy", source: "m.yaml", why: "..."}
 *
 * On load everything the file says of a fit is checked against a refit of
 * its own points (parameters, standard errors, intervals, covariance, R^2,
 * residual and leave-one-out errors, to within FITTED_SLACK), so an edited
 * value is refused rather than planned with.  The refit costs what `fit`
 * did, linear in the points (lsq.h's bounded prediction error), so
 * `plan --profile` reads an 8,000-point file in a fraction of a second;
 * the coefficients planned with are the file's, checked, never the refit's.
 * (A file written before the bounded error, of a saturating curve over 50
 * points, gives another leave_one_out_error and is refused: fit again.)
 *
 * `rates` is absent in files with none (and in those from before rates).
 *
 * Ownership: the loader fills a curve_list (curves.h): fitted curves with
 * ok set, left-out series with why, and the rates.
 */
#ifndef GPUPLAN_FIT_FITTED_H
#define GPUPLAN_FIT_FITTED_H

#include <stdio.h>

#include "core/error.h"
#include "fit/curves.h"

#define FITTED_SCHEMA "gpuplan/fitted/v1"

/* Writes l (fitted curves, then those left out). */
void fitted_emit(const struct curve_list *l, FILE *f);

/* Reads path into out (shown as `shown`); 0, or -1 with every problem in
 * errs (out must then only be freed). */
int fitted_load(struct curve_list *out, const char *path, const char *shown,
		struct gp_errors *errs);

#endif

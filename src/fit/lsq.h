/*
 * lsq.h - the two curves gpuplan fits to measurements, by least squares
 * on relative residuals (GSL), each with what a reader needs to trust it.
 *
 *   line        y = p0 + p1 x          (a fixed cost and a cost per unit:
 *                                       transfer time against bytes, step
 *                                       time or memory against batch);
 *                                       weighted least squares,
 *                                       gsl_multifit_wlinear, weights 1/y^2
 *   inverse     y = p0 + p1 / x        (a part that does not shrink with the
 *                                       ranks and one that divides over
 *                                       them: step time against threads or
 *                                       GPUs); the same weighted linear fit
 *                                       in 1/x
 *   saturating  y = p0 x / (x + p1)    (a rate that rises with the problem
 *                                       size towards p0, half of it at
 *                                       p1); gsl_multifit_nlinear, trust
 *                                       region (Levenberg-Marquardt)
 *
 * Relative residuals, (model - y) / y, because the points span orders of
 * magnitude (4 KiB to 1 GiB transfers): absolute ones would fit the
 * largest and ignore the rest.  For each parameter: its value, standard
 * error (from the covariance, scaled by the residual variance: the
 * measurements' own spread, not an assumed one) and 95% interval
 * (Student's t at n - p degrees of freedom).  For the fit: R^2 of y, the
 * root mean square relative residual, and the prediction error of points
 * the fit did not see, mean |relative error| (`loo`), from 4 points on:
 *   - line, inverse: leave-one-out, each point predicted by the fit to
 *     the others, exactly and without refitting, by the hat-matrix
 *     identity e_i / (1 - h_ii): O(n), so 8,000 points cost what one fit
 *     does.  A point of leverage 1 (1 - h_ii <= FIT_LOO_MIN_FREEDOM: the
 *     others cannot place it) leaves it undefined (-1).
 *   - saturating (a nonlinear fit, no such identity): leave-one-out by
 *     refitting up to FIT_LOO_EXACT_MAX points; above, FIT_CV_FOLDS-fold
 *     cross-validation (point i in fold i mod FIT_CV_FOLDS, each fold
 *     refitted from the full fit's parameters), so the work is at most
 *     FIT_CV_FOLDS refits whatever the number of points.
 *
 * A parameter that must be >= 0 (a fixed cost, a latency) and comes out
 * below 0 is held at 0 when its 95% interval reaches 0, or when it is
 * rounding (its term adds less than a billionth of every point's y, as
 * exact points give): the measurements cannot tell it from 0, and the least-squares optimum with the parameter
 * held at its bound is the other parameter's one-parameter fit (the
 * constrained minimum of a convex quadratic whose free minimum lies past
 * the bound sits on the bound).  The held parameter's value, standard
 * error and interval are then 0, the other's come from the one-parameter
 * fit at n - 1 degrees of freedom, and the free estimate and its interval
 * are kept to be reported.  Only the linear forms (line, inverse) hold:
 * a saturating curve's parameters must be > 0, not >= 0.
 *
 * Range: x and y are 0 or of a magnitude from FIT_MIN_MAGNITUDE to
 * FIT_MAX_MAGNITUDE (1e-60 to 1e60: a time of a femtosecond to an age of
 * the universe, bytes, FLOP/s and ranks are all far inside), so the
 * weights 1/y^2 and the solvers' products x^2/y^2 stay finite and normal;
 * a point outside is refused with its number and the range.  GSL's error
 * handler is off inside fit_curve: every solver's status is checked, and
 * an estimate that is not finite is refused, never an abort.
 *
 * A fit is refused, with why, when it cannot be trusted: fewer points than
 * parameters + 1, no convergence, a parameter that is not physical (the
 * caller says which must be >= 0 or > 0) and is not held as above, or a
 * root mean square relative residual over FIT_POOR_RMS (an assumption: a
 * curve that misses its own points by more than that does not describe
 * them).
 *
 * Ownership: plain values; nothing is kept.
 */
#ifndef GPUPLAN_FIT_LSQ_H
#define GPUPLAN_FIT_LSQ_H

#include <stdbool.h>
#include <stddef.h>

#define FIT_PARAMS 2
#define FIT_POOR_RMS 0.2	/* 20% */
#define FIT_MIN_MAGNITUDE 1e-60	/* of a nonzero x or y */
#define FIT_MAX_MAGNITUDE 1e60
#define FIT_LOO_MIN_FREEDOM 1e-9	/* 1 - leverage below: no prediction */
#define FIT_LOO_EXACT_MAX 50	/* saturating: leave-one-out up to here */
#define FIT_CV_FOLDS 10		/* saturating: folds past FIT_LOO_EXACT_MAX */

enum fit_form { FIT_LINE, FIT_SATURATING, FIT_INVERSE };

struct fit_param {
	double value, se;	/* estimate and standard error */
	double lo, hi;		/* 95% interval */
	/* held at 0 (see above); then the free fit's estimate and interval */
	bool held;
	double free_value, free_lo, free_hi;
};

/* What each parameter must be to be physical. */
enum fit_sign { FIT_ANY, FIT_NONNEGATIVE, FIT_POSITIVE };

struct fit {
	enum fit_form form;
	struct fit_param p[FIT_PARAMS];
	/* the parameters' covariance, scaled by the residual variance (its
	 * diagonal is each se squared): what a calibrated plan draws its
	 * uncertainty from */
	double cov[FIT_PARAMS][FIT_PARAMS];
	size_t n;		/* points */
	double r2;		/* 1 - SS_res / SS_tot of y */
	double rms_rel;		/* root mean square relative residual */
	double loo;		/* prediction error of unseen points, mean
				 * |relative error| (above); -1 when too few
				 * points or undefined */
	size_t loo_refits;	/* fits made for loo: 0 for the linear forms
				 * (hat matrix), n up to FIT_LOO_EXACT_MAX
				 * points of the saturating curve, then
				 * FIT_CV_FOLDS: the work is bounded */
};

/* The parameters the fit estimated: FIT_PARAMS less those held. */
int fit_free_params(const struct fit *f);

/* The form's value at x. */
double fit_eval(const struct fit *f, double x);

/* The relative residual of the point (x, y): fit_eval(f, x) / y - 1, as
 * the fits weigh them and every output of a fit reports them. */
double fit_residual(const struct fit *f, double x, double y);

/* Half the width of the curve's 95% band at x: Student's t at n less the
 * free parameters degrees of freedom times the standard error of the
 * value there, from the parameters' covariance (the delta method). */
double fit_band(const struct fit *f, double x);

/*
 * Fits form to (x[i], y[i]), i < n (y > 0), the parameters, called
 * name[0..1] in messages, held to sign[0..1].  0 with *f filled; -1 with
 * why ("2 points: a line needs at least 3", "latency_s is -2.1e-05: not
 * physical (expected at least 0)", ...) and *f as far as it got.
 */
int fit_curve(enum fit_form form, const double *x, const double *y, size_t n,
	      const enum fit_sign sign[FIT_PARAMS],
	      const char *const name[FIT_PARAMS], struct fit *f, char *why,
	      size_t len);

#endif

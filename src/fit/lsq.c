/*
 * lsq.c - least squares on relative residuals; see lsq.h.
 */
#include "lsq.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort_doubles.h"
#include "core/xalloc.h"

int fit_free_params(const struct fit *f)
{
	int k = 0;
	for (int i = 0; i < FIT_PARAMS; i++)
		k += !f->p[i].held;
	return k;
}

double fit_eval(const struct fit *f, double x)
{
	double a = f->p[0].value, b = f->p[1].value;
	if (f->form == FIT_LINE)
		return a + b * x;
	if (f->form == FIT_INVERSE)
		return x != 0 ? a + b / x : HUGE_VAL;
	return x + b != 0 ? a * x / (x + b) : HUGE_VAL;
}

double fit_residual(const struct fit *f, double x, double y)
{
	return fit_eval(f, x) / y - 1;
}

double fit_band(const struct fit *f, double x)
{
	double a = f->p[0].value, b = f->p[1].value, g[2];
	if (f->form == FIT_LINE || f->form == FIT_INVERSE) {
		g[0] = 1;
		g[1] = f->form == FIT_LINE ? x : 1 / x;
	} else {
		g[0] = x / (x + b);
		g[1] = -a * x / ((x + b) * (x + b));
	}
	double v = 0;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			v += g[i] * f->cov[i][j] * g[j];
	size_t k = (size_t)fit_free_params(f);
	double dof = f->n > k ? (double)(f->n - k) : 1;
	return gsl_cdf_tdist_Pinv(0.975, dof) * sqrt(fmax(v, 0));
}

/* ---- the solvers: estimates, covariance and chi^2 of relative
 * residuals; -1 when the solver fails ---- */

/* The regressor of parameter k at x: 1 for p0, x (a line) or 1/x
 * (inverse) for p1. */
static double regressor(int k, bool inverse, double x)
{
	return k == 0 ? 1 : inverse ? 1 / x : x;
}

/* y = p0 + p1 u, u = x (a line) or 1/x (inverse); `held` (0 or 1) is held
 * at 0 and the other parameter fitted alone, or -1 for none */
static int solve_line(const double *x, const double *y, size_t n, bool inverse,
		      int held, double p[2], double cov[2][2], double *chisq)
{
	if (held >= 0) {
		int k = 1 - held;	/* the free parameter */
		double suu = 0, suy = 0;
		for (size_t i = 0; i < n; i++) {
			double u = regressor(k, inverse, x[i]);
			double w = 1 / (y[i] * y[i]);
			suu += w * u * u;
			suy += w * u * y[i];
		}
		memset(cov, 0, 4 * sizeof(double));
		p[held] = 0;
		p[k] = suy / suu;
		cov[k][k] = 1 / suu;
		*chisq = 0;
		for (size_t i = 0; i < n; i++) {
			double e = (p[k] * regressor(k, inverse, x[i]) - y[i]) / y[i];
			*chisq += e * e;
		}
		return suu > 0 ? 0 : -1;
	}
	gsl_matrix *X = gsl_matrix_alloc(n, 2), *C = gsl_matrix_alloc(2, 2);
	gsl_vector *w = gsl_vector_alloc(n), *v = gsl_vector_alloc(n),
		   *c = gsl_vector_alloc(2);
	gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(n, 2);
	for (size_t i = 0; i < n; i++) {
		gsl_matrix_set(X, i, 0, regressor(0, inverse, x[i]));
		gsl_matrix_set(X, i, 1, regressor(1, inverse, x[i]));
		gsl_vector_set(w, i, 1 / (y[i] * y[i]));
		gsl_vector_set(v, i, y[i]);
	}
	int rc = gsl_multifit_wlinear(X, w, v, c, C, chisq, ws) == GSL_SUCCESS ? 0 : -1;
	for (int i = 0; i < 2; i++) {
		p[i] = gsl_vector_get(c, i);
		for (int j = 0; j < 2; j++)
			cov[i][j] = gsl_matrix_get(C, i, j);
	}
	gsl_multifit_linear_free(ws);
	gsl_vector_free(c);
	gsl_vector_free(v);
	gsl_vector_free(w);
	gsl_matrix_free(C);
	gsl_matrix_free(X);
	return rc;
}

struct points {
	const double *x, *y;
	size_t n;
};

/* (a x / (x + b) - y) / y */
static int sat_f(const gsl_vector *p, void *d, gsl_vector *f)
{
	const struct points *s = d;
	double a = gsl_vector_get(p, 0), b = gsl_vector_get(p, 1);
	for (size_t i = 0; i < s->n; i++)
		gsl_vector_set(f, i, (a * s->x[i] / (s->x[i] + b) - s->y[i]) / s->y[i]);
	return GSL_SUCCESS;
}

static int sat_df(const gsl_vector *p, void *d, gsl_matrix *J)
{
	const struct points *s = d;
	double a = gsl_vector_get(p, 0), b = gsl_vector_get(p, 1);
	for (size_t i = 0; i < s->n; i++) {
		double x = s->x[i], q = x + b;
		gsl_matrix_set(J, i, 0, x / q / s->y[i]);
		gsl_matrix_set(J, i, 1, -a * x / (q * q) / s->y[i]);
	}
	return GSL_SUCCESS;
}

/* Starts at the largest y for the ceiling and the median x for the half
 * point, or (warm) at p as given; the trust region does the rest. */
static int solve_saturating(const double *x, const double *y, size_t n,
			    bool warm, double p[2], double cov[2][2],
			    double *chisq)
{
	struct points s = {x, y, n};
	double start[2] = {p[0], p[1]};
	if (!warm) {
		double *sorted = xmalloc(n * sizeof(double)), top = 0;
		memcpy(sorted, x, n * sizeof(double));
		sort_doubles(sorted, n);
		for (size_t i = 0; i < n; i++)
			top = fmax(top, y[i]);
		start[0] = top;
		start[1] = sorted[n / 2];
		free(sorted);
	}
	gsl_vector_view x0 = gsl_vector_view_array(start, 2);
	gsl_multifit_nlinear_fdf fdf = {sat_f, sat_df, NULL, n, 2, &s, 0, 0, 0};
	gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_workspace *w =
		gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, n, 2);
	gsl_multifit_nlinear_init(&x0.vector, &fdf, w);
	int info = 0;
	int rc = gsl_multifit_nlinear_driver(500, 1e-12, 1e-12, 0, NULL, NULL,
					     &info, w) == GSL_SUCCESS ? 0 : -1;
	gsl_vector *r = gsl_multifit_nlinear_residual(w);
	gsl_vector *q = gsl_multifit_nlinear_position(w);
	gsl_matrix *C = gsl_matrix_alloc(2, 2);
	if (rc == 0 && gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w),
						  0.0, C) != GSL_SUCCESS)
		rc = -1;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += gsl_vector_get(r, i) * gsl_vector_get(r, i);
	*chisq = sum;
	for (int i = 0; i < 2; i++) {
		p[i] = gsl_vector_get(q, i);
		for (int j = 0; j < 2; j++)
			cov[i][j] = rc == 0 ? gsl_matrix_get(C, i, j) : 0;
	}
	gsl_matrix_free(C);
	gsl_multifit_nlinear_free(w);
	return rc;
}

static int solve(enum fit_form form, int held, const double *x,
		 const double *y, size_t n, double p[2], double cov[2][2],
		 double *chisq)
{
	if (form == FIT_SATURATING)
		return solve_saturating(x, y, n, false, p, cov, chisq);
	return solve_line(x, y, n, form == FIT_INVERSE, held, p, cov, chisq);
}

/* ---- what a reader needs ---- */

/*
 * The linear forms' leave-one-out error without refitting: for weighted
 * least squares the fit to the others predicts point i with the residual
 * e_i / (1 - h_ii), e_i = y_i - fit(x_i) and h_ii = w_i g_i' C g_i its
 * leverage (g_i the regressors, C = (X'WX)^-1 the unscaled covariance the
 * solver gave, w_i = 1/y_i^2).  Exact, in O(n).  A point of leverage 1
 * (the others cannot place it) has no prediction: -1 then.
 */
static double loo_linear(const struct fit *f, const double cov[2][2],
			 int held, const double *x, const double *y, size_t n)
{
	bool inverse = f->form == FIT_INVERSE;
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		double g[2], h = 0;
		for (int k = 0; k < 2; k++)
			g[k] = k == held ? 0 : regressor(k, inverse, x[i]);
		for (int a = 0; a < 2; a++)
			for (int b = 0; b < 2; b++)
				h += g[a] * cov[a][b] * g[b];
		h /= y[i] * y[i];
		if (!(1 - h > FIT_LOO_MIN_FREEDOM))
			return -1;
		sum += fabs((y[i] - fit_eval(f, x[i])) / (1 - h)) / y[i];
	}
	return sum / (double)n;
}

/*
 * The saturating curve's prediction error: each point predicted by the
 * fit to the points outside its fold, mean |relative error|.  Up to
 * FIT_LOO_EXACT_MAX points every point is its own fold (leave-one-out,
 * each refit from the usual start); above, FIT_CV_FOLDS folds (point i in
 * fold i mod FIT_CV_FOLDS, so each spans the x range), each refit from the
 * full fit's parameters: FIT_CV_FOLDS refits whatever n is.
 */
static double cv_saturating(struct fit *full, const double *x,
			    const double *y, size_t n)
{
	bool exact = n <= FIT_LOO_EXACT_MAX;
	size_t folds = exact ? n : FIT_CV_FOLDS;
	double *xs = xmalloc(n * sizeof(double)), *ys = xmalloc(n * sizeof(double));
	double sum = 0;
	bool ok = true;
	for (size_t k = 0; k < folds && ok; k++) {
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			if (i % folds != k) {
				xs[m] = x[i];
				ys[m++] = y[i];
			}
		double p[2] = {full->p[0].value, full->p[1].value}, cov[2][2], chisq;
		ok = solve_saturating(xs, ys, m, !exact, p, cov, &chisq) == 0;
		full->loo_refits++;
		struct fit f = {.form = FIT_SATURATING,
				.p = {{.value = p[0]}, {.value = p[1]}}};
		for (size_t i = k; i < n && ok; i += folds)
			sum += fabs(fit_residual(&f, x[i], y[i]));
	}
	free(xs);
	free(ys);
	return ok && isfinite(sum) ? sum / (double)n : -1;
}

static void quality(struct fit *f, const double *x, const double *y, size_t n)
{
	double mean = 0, ss_res = 0, ss_tot = 0, rel = 0;
	for (size_t i = 0; i < n; i++)
		mean += y[i] / (double)n;
	for (size_t i = 0; i < n; i++) {
		double e = fit_eval(f, x[i]) - y[i];
		ss_res += e * e;
		ss_tot += (y[i] - mean) * (y[i] - mean);
		rel += (e / y[i]) * (e / y[i]);
	}
	f->r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 1;
	f->rms_rel = sqrt(rel / (double)n);
}

/* 0, or a magnitude the solvers' squares and products hold (lsq.h). */
static bool in_range(double v)
{
	double m = fabs(v);
	return m == 0 || (m >= FIT_MIN_MAGNITUDE && m <= FIT_MAX_MAGNITUDE);
}

static const char *const sign_words[] = {"", "at least 0", "above 0"};

/* Solves with `held` (-1: none) and fills f's parameters, their scaled
 * covariance and 95% intervals at n less the free parameters degrees of
 * freedom.  -1 when the solver fails or gives what is not finite. */
static int estimate(enum fit_form form, int held, const double *x,
		    const double *y, size_t n, struct fit *f, double cov[2][2])
{
	double p[2], chisq;
	if (solve(form, held, x, y, n, p, cov, &chisq) < 0 || !isfinite(p[0]) ||
	    !isfinite(p[1]) || !isfinite(cov[0][0]) || !isfinite(cov[1][1]) ||
	    !isfinite(cov[0][1]))
		return -1;
	double dof = (double)(n - FIT_PARAMS + (held >= 0)), s2 = chisq / dof;
	double t = gsl_cdf_tdist_Pinv(0.975, dof);
	for (int i = 0; i < FIT_PARAMS; i++)
		for (int j = 0; j < FIT_PARAMS; j++)
			f->cov[i][j] = cov[i][j] * s2;
	for (int i = 0; i < FIT_PARAMS; i++) {
		f->p[i] = (struct fit_param){.value = p[i]};
		f->p[i].se = sqrt(fmax(cov[i][i] * s2, 0));
		f->p[i].lo = p[i] - t * f->p[i].se;
		f->p[i].hi = p[i] + t * f->p[i].se;
	}
	return 0;
}

/* Below what a parameter of a linear form is rounding: a term that adds
 * less than a billionth of any point's y. */
static double rounding(int k, bool inverse, const double *x, const double *y,
		       size_t n)
{
	double least = HUGE_VAL;
	for (size_t i = 0; i < n; i++) {
		double u = fabs(regressor(k, inverse, x[i]));
		if (u > 0)
			least = fmin(least, y[i] / u);
	}
	return isfinite(least) ? 1e-9 * least : 0;
}

/* The parameter to hold at 0 (lsq.h), or -1: one that must be >= 0, came
 * out below it and whose interval reaches 0 (or whose value is rounding:
 * exact points give an interval too narrow to reach 0 from -1e-20), in a
 * linear form. */
static int holdable(enum fit_form form, const enum fit_sign sign[FIT_PARAMS],
		    const struct fit *f, const double *x, const double *y,
		    size_t n)
{
	if (form == FIT_SATURATING)
		return -1;
	for (int i = 0; i < FIT_PARAMS; i++) {
		const struct fit_param *p = &f->p[i];
		if (sign[i] != FIT_NONNEGATIVE || p->value >= 0)
			continue;
		if (p->hi >= 0 ||
		    -p->value <= rounding(i, form == FIT_INVERSE, x, y, n))
			return i;
	}
	return -1;
}

static int fit_checked(enum fit_form form, const double *x, const double *y,
		       size_t n, const enum fit_sign sign[FIT_PARAMS],
		       const char *const name[FIT_PARAMS], struct fit *f,
		       char *why, size_t len)
{
	memset(f, 0, sizeof(*f));
	f->form = form;
	f->n = n;
	f->loo = -1;
	f->loo_refits = 0;
	size_t need = FIT_PARAMS + 1;
	if (n < need) {
		snprintf(why, len, "%zu point%s: a %s needs at least %zu", n,
			 n == 1 ? "" : "s",
			 form == FIT_SATURATING ? "saturating curve"
			 : form == FIT_INVERSE ? "curve a + b/x" : "line", need);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!(y[i] > 0) || !isfinite(x[i]) || !isfinite(y[i]) ||
		    (form == FIT_INVERSE && !(x[i] > 0))) {
			snprintf(why, len, "point %zu is (%g, %g): expected a finite x%s and y > 0",
				 i + 1, x[i], y[i],
				 form == FIT_INVERSE ? " above 0" : "");
			return -1;
		} else if (!in_range(x[i]) || !in_range(y[i])) {
			snprintf(why, len, "point %zu is (%g, %g): a fit takes x and y of 0 or a magnitude from %g to %g",
				 i + 1, x[i], y[i], FIT_MIN_MAGNITUDE,
				 FIT_MAX_MAGNITUDE);
			return -1;
		}
	bool spread = false;
	for (size_t i = 1; i < n && !spread; i++)
		spread = x[i] != x[0];
	if (!spread) {
		snprintf(why, len, "every point is at x = %g: a curve needs two x values or more",
			 x[0]);
		return -1;
	}
	double cov[2][2];	/* unscaled: (X'WX)^-1 for the linear forms */
	if (estimate(form, -1, x, y, n, f, cov) < 0) {
		snprintf(why, len, "the least-squares solver did not converge");
		return -1;
	}
	int held = holdable(form, sign, f, x, y, n);
	if (held >= 0) {
		struct fit_param free_fit = f->p[held];
		if (estimate(form, held, x, y, n, f, cov) < 0) {
			snprintf(why, len, "the least-squares solver did not converge");
			return -1;
		}
		f->p[held].held = true;
		f->p[held].free_value = free_fit.value;
		f->p[held].free_lo = free_fit.lo;
		f->p[held].free_hi = free_fit.hi;
	}
	quality(f, x, y, n);
	if (n >= FIT_PARAMS + 2)	/* the others still fix the curve */
		f->loo = form == FIT_SATURATING ? cv_saturating(f, x, y, n)
			 : loo_linear(f, cov, held, x, y, n);
	for (int i = 0; i < FIT_PARAMS; i++) {
		double v = f->p[i].value;
		if ((sign[i] == FIT_NONNEGATIVE && v < 0) ||
		    (sign[i] == FIT_POSITIVE && !(v > 0))) {
			snprintf(why, len, "%s is %.4g (95%% interval [%.4g, %.4g]): not physical (expected %s)",
				 name[i], v, f->p[i].lo, f->p[i].hi,
				 sign_words[sign[i]]);
			return -1;
		}
	}
	if (f->rms_rel > FIT_POOR_RMS) {
		snprintf(why, len, "a poor fit: the curve misses its points by %.0f%% (root mean square), more than %.0f%%",
			 100 * f->rms_rel, 100 * FIT_POOR_RMS);
		return -1;
	}
	return 0;
}

int fit_curve(enum fit_form form, const double *x, const double *y, size_t n,
	      const enum fit_sign sign[FIT_PARAMS],
	      const char *const name[FIT_PARAMS], struct fit *f, char *why,
	      size_t len)
{
	/* errors are return codes here, whatever handler the caller set */
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	int rc = fit_checked(form, x, y, n, sign, name, f, why, len);
	gsl_set_error_handler(old);
	return rc;
}

/*
 * welch.c - Welch's t-test and the ratio of means; see welch.h.
 */
#include "compare/welch.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

void sample_stats_of(const double *x, size_t n, struct sample_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->constant = true;
	s->exp2 = WELCH_EXP_NONE;
	double top = 0, lo = n ? x[0] : 0, hi = lo;
	for (size_t i = 0; i < n; i++) {
		top = fmax(top, fabs(x[i]));
		lo = fmin(lo, x[i]);
		hi = fmax(hi, x[i]);
		s->constant = s->constant && x[i] == x[0];
	}
	if (top == 0)
		return;	/* every value 0: mean 0, sd 0 */
	frexp(top, &s->exp2);	/* top < 2^exp2: x / 2^exp2 lies in (-1, 1) */
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += ldexp(x[i], -s->exp2);
	/* rounding cannot take a mean outside its values */
	s->mean_u = fmin(fmax(sum / (double)n, ldexp(lo, -s->exp2)),
			 ldexp(hi, -s->exp2));
	double sq = 0;
	for (size_t i = 0; i < n && n >= 2; i++) {
		double d = ldexp(x[i], -s->exp2) - s->mean_u;
		sq += d * d;
	}
	s->sd_u = n >= 2 && !s->constant ? sqrt(sq / (double)(n - 1)) : 0;
	s->mean = ldexp(s->mean_u, s->exp2);
	s->sd = ldexp(s->sd_u, s->exp2);
	if (!isfinite(s->sd))
		s->sd = NAN;
}

/* NaN for what a double cannot hold, and w->beyond set. */
static double held(struct welch *w, double v)
{
	if (isfinite(v))
		return v;
	w->beyond = true;
	return NAN;
}

static void exact(struct welch *w)
{
	w->diff_lo = w->diff_hi = w->diff;
	w->ratio_lo = w->ratio_hi = w->ratio;
	w->t = w->df = w->p = NAN;
}

/* One side in units of 2^e: its mean and its standard error. */
static void in_units(const struct sample_stats *s, int e, double *mean,
		     double *se)
{
	int shift = s->exp2 == WELCH_EXP_NONE ? 0 : s->exp2 - e;
	*mean = ldexp(s->mean_u, shift);
	*se = s->n ? ldexp(s->sd_u / sqrt((double)s->n), shift) : 0;
}

/*
 * Welch-Satterthwaite from the two standard errors, written in their
 * ratio to the larger so nothing squares out of range: always in
 * [min(n) - 1, n_b + n_a - 2].
 */
static double welch_df(double se_b, size_t nb, double se_a, size_t na)
{
	double m = fmax(se_b, se_a), u = se_b / m, v = se_a / m;
	double s = u * u + v * v;
	return s * s / (u * u * u * u / (double)(nb - 1) +
			v * v * v * v / (double)(na - 1));
}

/* t's two-sided p and the 97.5% quantile at df, GSL's handler off: a
 * status GSL would have raised reads as NaN here, and is checked. */
static void t_dist(double t, double df, double *p, double *q)
{
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	*p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
	*q = gsl_cdf_tdist_Pinv(0.975, df);
	gsl_set_error_handler(old);
}

/*
 * The ratio's delta-method interval: se_r = sqrt(se_a^2 + r^2 se_b^2) /
 * |m_b|, each term taken in before's own units so that a before mean far
 * below the after side's scale still divides.
 */
static void ratio_interval(const struct sample_stats *b,
			   const struct sample_stats *a, double q,
			   struct welch *w)
{
	if (b->mean == 0 || isnan(w->ratio))
		return;
	double mb = fabs(b->mean_u);
	double rel_a = a->exp2 == WELCH_EXP_NONE ? 0
		: ldexp(a->sd_u / sqrt((double)a->n) / mb, a->exp2 - b->exp2);
	double rel_b = b->sd_u / sqrt((double)b->n) / mb;
	double se_r = hypot(rel_a, w->ratio * rel_b);
	w->ratio_lo = held(w, w->ratio - q * se_r);
	w->ratio_hi = held(w, w->ratio + q * se_r);
}

void welch_compare(const struct sample_stats *b, const struct sample_stats *a,
		   struct welch *w)
{
	memset(w, 0, sizeof(*w));
	w->before = *b;
	w->after = *a;
	int e = b->exp2 > a->exp2 ? b->exp2 : a->exp2;
	if (e == WELCH_EXP_NONE)
		e = 0;
	double mb, se_b, ma, se_a;
	in_units(b, e, &mb, &se_b);
	in_units(a, e, &ma, &se_a);
	double diff_u = ma - mb;
	w->diff = held(w, ldexp(diff_u, e));
	w->ratio = b->mean != 0 ? held(w, a->mean / b->mean) : NAN;
	w->diff_lo = w->diff_hi = w->ratio_lo = w->ratio_hi = NAN;
	w->t = w->df = w->p = NAN;
	if (a->n < 2 || b->n < 2) {
		w->status = WELCH_TOO_FEW;
		return;
	}
	if (a->constant && b->constant) {
		w->status = WELCH_NO_SPREAD;
		exact(w);
		return;
	}
	double se = hypot(se_b, se_a), t = diff_u / se;
	if (se == 0 || !isfinite(t)) {
		w->status = WELCH_TINY_SPREAD;
		exact(w);
		return;
	}
	double p, q;
	w->df = welch_df(se_b, b->n, se_a, a->n);
	t_dist(t, w->df, &p, &q);
	if (!isfinite(p) || !isfinite(q)) {
		w->beyond = true;	/* df is in range: not expected */
		w->df = NAN;
		return;
	}
	w->t = t;
	w->p = p;
	w->diff_lo = held(w, ldexp(diff_u - q * se, e));
	w->diff_hi = held(w, ldexp(diff_u + q * se, e));
	ratio_interval(b, a, q, w);
}

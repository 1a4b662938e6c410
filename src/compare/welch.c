/*
 * welch.c - Welch's t-test and the ratio of means; see welch.h.
 */
#include "compare/welch.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "core/describe.h"

void sample_stats_of(const double *x, size_t n, struct sample_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->n = n;
	s->mean = describe_mean(x, n);
	s->sd = describe_sd(x, n, s->mean);
}

static void exact(struct welch *w)
{
	w->diff_lo = w->diff_hi = w->diff;
	w->ratio_lo = w->ratio_hi = w->ratio;
	w->t = w->df = w->p = NAN;
}

void welch_compare(const struct sample_stats *b, const struct sample_stats *a,
		   struct welch *w)
{
	memset(w, 0, sizeof(*w));
	w->before = *b;
	w->after = *a;
	w->diff = a->mean - b->mean;
	w->ratio = b->mean != 0 ? a->mean / b->mean : NAN;
	if (a->n < 2 || b->n < 2) {
		w->status = WELCH_TOO_FEW;
		w->diff_lo = w->diff_hi = w->ratio_lo = w->ratio_hi = NAN;
		w->t = w->df = w->p = NAN;
		return;
	}
	double vb = b->sd * b->sd / (double)b->n, va = a->sd * a->sd / (double)a->n;
	if (va + vb == 0) {
		w->status = WELCH_NO_SPREAD;
		exact(w);
		return;
	}
	double se = sqrt(va + vb);
	w->df = (va + vb) * (va + vb) /
		(vb * vb / (double)(b->n - 1) + va * va / (double)(a->n - 1));
	w->t = w->diff / se;
	w->p = 2 * gsl_cdf_tdist_Q(fabs(w->t), w->df);
	double q = gsl_cdf_tdist_Pinv(0.975, w->df);
	w->diff_lo = w->diff - q * se;
	w->diff_hi = w->diff + q * se;
	if (b->mean != 0) {
		/* r^2 (va/ma^2 + vb/mb^2), written so a zero after-mean works */
		double se_r = sqrt(va + w->ratio * w->ratio * vb) / fabs(b->mean);
		w->ratio_lo = w->ratio - q * se_r;
		w->ratio_hi = w->ratio + q * se_r;
	} else {
		w->ratio_lo = w->ratio_hi = NAN;
	}
}

/*
 * fuzz_fitted.c - a fitted file (gpuplan/fitted/v1, src/fit/fitted.h),
 * loaded as `plan --profile` will load it.
 *
 * Besides the loaders' invariants (fuzz.h): every curve it loads has at
 * least three points with y > 0, finite parameters inside their 95%
 * intervals, and parameters that are what its points give (the loader's
 * own refit: a curve that loads is one the planner may trust); every
 * training term it gives (fit/train_terms.h) is finite and inside its
 * own 95% interval, its rates above 0.
 */
#include <math.h>

#include "fit/fitted.h"
#include "fuzz.h"

static struct curve_list loaded;
static int loaded_rc;

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	curve_list_free(&loaded);
	loaded_rc = fitted_load(&loaded, f->path[0], f->name[0], errs);
	return loaded_rc;
}

static void check_curves(const struct curve_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct scaling_curve *c = &l->v[i];
		if (!c->ok)
			continue;
		if (c->n < FIT_PARAMS + 1)
			fuzz_fail("fitted_load", "curve '%s' loaded with %zu points", c->name, c->n);
		for (size_t k = 0; k < c->n; k++)
			if (!(c->y[k] > 0) || !isfinite(c->x[k]))
				fuzz_fail("fitted_load", "curve '%s' point %zu is (%g, %g)",
					  c->name, k, c->x[k], c->y[k]);
		for (int k = 0; k < FIT_PARAMS; k++) {
			const struct fit_param *p = &c->fit.p[k];
			if (!isfinite(p->value) || !(p->lo <= p->value && p->value <= p->hi))
				fuzz_fail("fitted_load", "curve '%s' parameter %d is %g in [%g, %g]",
					  c->name, k, p->value, p->lo, p->hi);
		}
	}
}

/* lo <= v <= hi, all finite. */
static bool held(double v, double lo, double hi)
{
	return isfinite(v) && isfinite(lo) && isfinite(hi) && lo <= v && v <= hi;
}

static void check_training(const struct curve_list *l)
{
	for (size_t i = 0; i < l->n_train; i++) {
		const struct train_terms *t = &l->train[i];
		if (t->matmul.ok && !(held(t->matmul.rate, t->matmul.low, t->matmul.high) &&
				      t->matmul.low > 0))
			fuzz_fail("fitted_load", "matmul %g in [%g, %g]", t->matmul.rate,
				  t->matmul.low, t->matmul.high);
		if (t->overlap.ok && !held(t->overlap.slowdown, t->overlap.low, t->overlap.high))
			fuzz_fail("fitted_load", "overlap %g in [%g, %g]", t->overlap.slowdown,
				  t->overlap.low, t->overlap.high);
		if (t->spread.ok && !(held(t->spread.cv, t->spread.low, t->spread.high) &&
				      t->spread.n >= 2))
			fuzz_fail("fitted_load", "spread %g in [%g, %g] over %d", t->spread.cv,
				  t->spread.low, t->spread.high, t->spread.n);
		if (t->layer.ok && !(held(t->layer.seconds, t->layer.low, t->layer.high) &&
				     t->layer.seconds > 0))
			fuzz_fail("fitted_load", "layer %g in [%g, %g]", t->layer.seconds,
				  t->layer.low, t->layer.high);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files f;
	fuzz_write_file(data, size, "fitted.yaml", &f);
	fuzz_check_loader("fitted_load", load, &f);
	if (loaded_rc == 0) {
		check_curves(&loaded);
		check_training(&loaded);
	}
	curve_list_free(&loaded);
	return 0;
}

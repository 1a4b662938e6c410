/*
 * fuzz_baselines.c - a reference-baselines file (gpuplan/baselines/v1,
 * src/profile/baseline.h), loaded as `gpuplan bench --baselines` loads
 * it, then checked against the planner harness's small catalog
 * (tests/fuzz/data/catalogs/).  Besides the loaders' invariants (fuzz.h):
 * every entry loaded has 0 < low <= high and finite positive
 * measurements, every problem the check adds names the file and a line,
 * and each entry's verdict on its own first measurement has a finite
 * fraction and a sentence.
 */
#include <math.h>

#include "fuzz.h"
#include "profile/baseline.h"

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	struct baselines b;
	int rc = baselines_load(&b, f->path[0], f->name[0], errs);
	baselines_free(&b);
	return rc;
}

static void check_entries(const struct baselines *b, const struct catalog *c)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct baseline_entry *e = &b->v[i];
		if (!(e->low > 0 && e->low <= e->high) || e->n_measured == 0)
			fuzz_fail("baselines_load", "entry %zu: range %g-%g, %zu measurements",
				  i, e->low, e->high, e->n_measured);
		for (size_t k = 0; k < e->n_measured; k++)
			if (!(isfinite(e->measured[k].value) && e->measured[k].value > 0))
				fuzz_fail("baselines_load", "entry %zu: measurement %g", i,
					  e->measured[k].value);
		struct baseline_verdict v;
		baseline_verdict(b, c, e->figure, e->precision, e->measured[0].value,
				 e->accelerator, &v);
		if (!isfinite(v.fraction) || !v.text[0])
			fuzz_fail("baseline_verdict", "entry %zu: fraction %g, text '%s'", i,
				  v.fraction, v.text);
	}
}

static void check(const struct fuzz_files *f)
{
	struct baselines b;
	struct gp_errors errs;
	gp_errors_init(&errs);
	if (baselines_load(&b, f->path[0], f->name[0], &errs) == 0) {
		const struct catalog *c = fuzz_price_list("baselines");
		check_entries(&b, c);
		baselines_check(&b, c, &errs);
		for (size_t i = 0; i < errs.n; i++)
			if (!errs.v[i].file || errs.v[i].line < 1)
				fuzz_fail("baselines_check", "problem '%s' without a place",
					  errs.v[i].msg);
	}
	baselines_free(&b);
	gp_errors_free(&errs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files f;
	fuzz_write_file(data, size, "baselines.yaml", &f);
	fuzz_check_loader("baselines_load", load, &f);
	check(&f);
	return 0;
}

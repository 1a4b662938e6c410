/*
 * fuzz_outcome.c - an outcome file (gpuplan/outcome/v1) and the model
 * files its records name, loaded as `gpuplan backtest` loads it, against
 * the planner harness's small price list (tests/fuzz/data/catalogs/:
 * p4de.24xlarge, A100-SXM-80GB and others).  A file that loads is then
 * backtested, and every row predicted must hold finite figures (the
 * loader's promise that what it accepts plans), with a JSON that writes;
 * its coverage (backtest/coverage.h) accounts for every row, once.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "backtest/backtest.h"
#include "backtest/coverage.h"
#include "backtest/outcome.h"
#include "catalog/catalog.h"
#include "core/output.h"
#include "fuzz.h"

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	struct outcome_file of;
	int rc = outcome_file_load(&of, f->path[0], fuzz_price_list("outcome"), errs);
	outcome_file_free(&of);
	return rc;
}

static void write_null(json_t *j)
{
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		json_write(null, j);
		fclose(null);
	}
	json_decref(j);
}

/* Every row is an observation, folded into one, or left out with its
 * reason; the JSON writes. */
static void check_coverage(const struct backtest *bt)
{
	struct coverage cv;
	coverage_of(&cv, bt, bt->range_level);
	size_t counted = cv.n_obs + cv.rows_folded + cv.rows_serving +
			 cv.rows_no_range + cv.rows_not_predicted;
	if (counted != bt->n)
		fuzz_fail("coverage_of", "%zu rows accounted for, %zu rows", counted,
			  bt->n);
	write_null(coverage_json(&cv));
	coverage_free(&cv);
}

/* What loaded backtests to finite figures. */
static void check_backtest(const struct fuzz_files *f)
{
	struct outcome_file of;
	struct gp_errors errs;
	gp_errors_init(&errs);
	if (outcome_file_load(&of, f->path[0], fuzz_price_list("outcome"), &errs) == 0) {
		struct backtest bt = {0};
		backtest_file(&bt, fuzz_price_list("outcome"), &of);
		for (size_t i = 0; i < bt.n; i++) {
			const struct backtest_row *r = &bt.v[i];
			if (r->predicted &&
			    (!isfinite(r->error) || !isfinite(r->predicted_own) ||
			     !isfinite(r->measured_cmp)))
				fuzz_fail("backtest_file", "row %zu (%s): a figure is not finite",
					  i, measure_name(r->m));
		}
		write_null(backtest_json(&bt));
		check_coverage(&bt);
		backtest_free(&bt);
	}
	outcome_file_free(&of);
	gp_errors_free(&errs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files f;
	fuzz_write_files(data, size, "outcome.yaml", &f);
	fuzz_link_shipped_models();
	fuzz_check_loader("outcome_file_load", load, &f);
	check_backtest(&f);
	return 0;
}

/*
 * Outcome records and the backtest's arithmetic: Megatron's FLOP count
 * worked by hand, the loader on the CLI fixture (every field, the
 * defaults, catalog and inline hardware), the loader's refusals with
 * their positions, and a backtest row's comparison.  Run from the source
 * root (ctest does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backtest/backtest.h"
#include "backtest/outcome.h"
#include "check.h"

#define FIXTURE "tests/cli/data/backtest/outcomes.yaml"

/*
 * Narayanan et al. 2021, Table 1, row 1.7B: B = 512, s = 2048, l = 24,
 * h = 2304, V = 51200.
 *   96 B s l h^2 = 96 x 512 x 2048 x 24 x 2304^2
 *                = 2,415,919,104 x 5,308,416 = 12,824,703,626,379,264
 *   s / (6h)     = 2048 / 13824  = 4/27
 *   V / (16 l h) = 51200 / 884736 = 25/432
 *   1 + 4/27 + 25/432 = (432 + 64 + 25) / 432 = 521/432
 *   F = 12,824,703,626,379,264 x 521 / 432 = 15,466,830,067,924,992
 * At the paper's 137 TFLOP/s per GPU on 32 GPUs a step is
 * F / (137e12 x 32) = 3.528 s.
 */
static void test_megatron_formula(void)
{
	double f = backtest_megatron_flops(512, 2048, 24, 2304, 51200);
	CHECK_NEAR(f, 15466830067924992.0, 1e-15);
	CHECK_NEAR(f / (137e12 * 32), 3.528017807464643, 1e-12);
	/* one layer, h = 6, s = 6, V = 16 x 6 = 96, B = 1:
	 * 96 x 6 x 36 x (1 + 1/6 + 1) = 20736 x 13/6 = 44928 */
	CHECK_NEAR(backtest_megatron_flops(1, 6, 1, 6, 96), 44928, 1e-15);
}

static int load(struct outcome_file *of, struct catalog *c, const char *path,
		struct gp_errors *errs)
{
	catalog_init(c);
	int rc = catalog_load_shipped(c, ".", errs);
	CHECK(rc == 0);
	if (rc)
		gp_errors_print(errs, stderr);
	return outcome_file_load(of, path, c, errs);
}

static void test_fixture(void)
{
	struct catalog c;
	struct outcome_file of;
	struct gp_errors errs;
	gp_errors_init(&errs);
	int rc = load(&of, &c, FIXTURE, &errs);
	CHECK(rc == 0);
	if (rc)
		gp_errors_print(&errs, stderr);
	CHECK(of.n == 2);
	if (of.n == 2) {
		const struct outcome *o = &of.v[0];
		CHECK_STR(o->name, "gpt-1.7b-a100-32");
		CHECK(o->n_sources == 1);
		CHECK_STR(o->sources[0].where, "Table 1, row 1.7B");
		CHECK_STR(o->sources[0].retrieved, "2026-12-01");
		CHECK_STR(o->notes, "a test record");
		CHECK(!o->is_inline);
		CHECK_STR(o->inst->name, "p4de.24xlarge");
		CHECK(o->gpus == 32 && o->nodes == 4);
		CHECK(o->w->train.fixed_gpus == 32);
		CHECK(o->has_layout);
		CHECK(o->w->train.layout.tp == 1 && o->w->train.layout.dp == 32);
		CHECK(o->w->train.layout.micro_batch == 0);
		CHECK(o->w->train.recompute == RECOMPUTE_FULL);
		CHECK(o->w->train.optimizer == OPTIMIZER_ADAM);
		CHECK_NEAR(o->w->train.tokens, 300e9, 0);
		CHECK(o->m[MEASURE_FLOPS_PER_GPU].has);
		CHECK_NEAR(o->m[MEASURE_FLOPS_PER_GPU].v, 137e12, 0);
		CHECK(o->counted == COUNT_MEGATRON_2021);
		CHECK_NEAR(o->m[MEASURE_MFU].v, 0.44, 1e-15);
		CHECK_NEAR(o->m[MEASURE_DAYS].v, 30, 0);
		CHECK(!o->m[MEASURE_STEP_TIME].has);
		CHECK_NEAR(o->tolerance, 0.15, 1e-15);
		/* megatron-2021 counts from the shape alone */
		CHECK_NEAR(backtest_step_flops(o, 0, RECOMPUTE_NONE),
			   15466830067924992.0, 1e-15);

		o = &of.v[1];
		CHECK(o->is_inline);
		CHECK_STR(o->inst->acc->name, "A100-SXM-80GB");
		CHECK(o->inst->gpus == 8);
		CHECK(o->nodes == 2 && o->gpus == 16);
		CHECK(o->inst->intra.kind == LINK_NVSWITCH);
		CHECK_NEAR(o->inst->intra.bandwidth, 600e9, 0);
		CHECK_NEAR(o->inst->network_bandwidth, 200e9, 0);
		CHECK(o->inst->network_rdma);
		CHECK(!o->has_layout);
		CHECK(o->w->train.zero_auto && o->w->train.recompute_auto);
		CHECK(o->w->train.total_samples == 0);	/* no run length */
		CHECK_NEAR(o->m[MEASURE_STEP_TIME].v, 2.5, 0);
		CHECK_NEAR(o->m[MEASURE_TOKENS_PER_S].v, 210e3, 0);
		CHECK_NEAR(o->tolerance, 0.25, 1e-15);
	}

	/* the comparison: each row in its own terms */
	struct backtest bt = {0};
	backtest_file(&bt, &c, &of);
	CHECK(bt.n == 5);
	for (size_t i = 0; i < bt.n; i++) {
		const struct backtest_row *r = &bt.v[i];
		CHECK(r->predicted);
		if (!r->predicted)
			fprintf(stderr, "  row %zu: %s\n", i, r->reason);
		CHECK_NEAR(r->error, r->predicted_cmp / r->measured_cmp - 1, 1e-12);
		CHECK(r->within == (fabs(r->error) <= r->o->tolerance));
	}
	if (bt.n == 5) {
		/* flops_per_gpu: the measured step is F / (137 TFLOP/s x 32) */
		CHECK(bt.v[0].m == MEASURE_FLOPS_PER_GPU);
		CHECK_NEAR(bt.v[0].measured_cmp, 3.528017807464643, 1e-12);
		CHECK_NEAR(bt.v[0].predicted_cmp, bt.v[0].plan.step_s, 0);
		/* layout given: tp 1 pp 1 dp 32 kept */
		CHECK(bt.v[0].plan.tp == 1 && bt.v[0].plan.pp == 1 &&
		      bt.v[0].plan.dp == 32);
		/* tokens_per_s: 256 x 2048 tokens a step */
		CHECK(bt.v[4].m == MEASURE_TOKENS_PER_S);
		CHECK_NEAR(bt.v[4].predicted_cmp, 256.0 * 2048 / bt.v[4].plan.step_s,
			   1e-12);
		/* days: the run's 300B tokens / (512 x 2048) = 286,103 steps,
		 * wall clock: over the goodput of 32 GPUs at the defaults
		 * (train/goodput.c).  rate 419 / (54 d x 16,384) = 5.4813e-9
		 * per GPU-s; M = 1 / (32 rate) = 5.70e6 s; tau = sqrt(2 x
		 * 148.8 x M) = 4.12e4 s, shorter than the run (6.8e5 s);
		 * waste = 148.8 / tau + (tau / 2 + 600) / M = 0.00361 +
		 * 0.00372; goodput 0.9927 */
		CHECK(bt.v[2].m == MEASURE_DAYS);
		double rate = 419 / (54 * 86400.0 * 16384);
		double mtbf = 1 / (32 * rate);
		double tau = sqrt(2 * 148.8 * mtbf);
		double goodput = 1 - 148.8 / tau - (tau / 2 + 600) / mtbf;
		CHECK_NEAR(goodput, 0.9927, 1e-4);
		CHECK_NEAR(bt.v[2].predicted_cmp * 86400,
			   bt.v[2].plan.step_s * 286103 / goodput, 1e-9);
		double sum = 0, max = 0;
		for (size_t i = 0; i < 5; i++) {
			sum += fabs(bt.v[i].error);
			if (fabs(bt.v[i].error) > max)
				max = fabs(bt.v[i].error);
		}
		CHECK_NEAR(bt.mean_abs_error, sum / 5, 1e-12);
		CHECK_NEAR(bt.max_abs_error, max, 0);
	}
	backtest_free(&bt);
	outcome_file_free(&of);
	catalog_free(&c);
	gp_errors_free(&errs);
}

/* Each refusal placed where it is written (the corpus in tests/bad/outcome
 * has the rest, with their whole messages). */
static void test_refusals(void)
{
	static const struct {
		const char *file;
		int line, col;
		const char *msg;
	} cases[] = {
		{"missing-source", 3, 5, "missing required key 'source'"},
		{"flops-without-counted", 17, 22, "needs 'flops_counted'"},
		{"measure-no-unit", 17, 21, "missing unit"},
		{"hardware-neither", 14, 7, "names no catalog 'instance'"},
		{"unknown-instance", 14, 17, "no instance 'p4de.24xlarg'"},
		{"layout-product", 16, 13, "= 16 GPUs, but the hardware's 'gpus' is 8"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[256];
		snprintf(path, sizeof(path), "tests/bad/outcome/%s.yaml",
			 cases[i].file);
		struct catalog c;
		struct outcome_file of;
		struct gp_errors errs;
		gp_errors_init(&errs);
		CHECK(load(&of, &c, path, &errs) == -1);
		CHECK(errs.n == 1);
		if (errs.n >= 1) {
			CHECK(errs.v[0].line == cases[i].line);
			CHECK(errs.v[0].col == cases[i].col);
			CHECK_HAS(errs.v[0].msg, cases[i].msg);
		}
		outcome_file_free(&of);
		catalog_free(&c);
		gp_errors_free(&errs);
	}
}

int main(void)
{
	test_megatron_formula();
	test_fixture();
	test_refusals();
	return check_summary("outcome");
}

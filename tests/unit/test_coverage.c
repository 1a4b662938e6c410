/*
 * test_coverage.c - `backtest --coverage` (backtest/coverage.h): the exact
 * binomial interval against values found a second way, a row's range in
 * each measurement's terms (backtest_row_range()), and the observations
 * of a set of synthetic rows worked by hand: the folding of one
 * prediction's rows, the strata, the sides, leave-one-source-out, the gate.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backtest/coverage.h"
#include "check.h"

/* ---- the interval ---- */

/*
 * k = 8 of n = 10 at 95%: GSL's beta quantiles B(0.025; 8, 3) and
 * B(0.975; 9, 2).  Second method, the binomial tails the interval is
 * defined by, summed term by term and solved by bisection (Python,
 * math.comb, 200 halvings):
 *   lo = 0.4439045376923585: P(X >= 8) = 45 p^8 q^2 + 10 p^9 q + p^10
 *        = 0.0209811 + 0.0037218 + 0.0002971 = 0.0250000
 *   hi = 0.9747892736731667: P(X <= 8) = 1 - 10 p^9 q - p^10
 *        = 1 - 0.2003466 - 0.7746534 = 0.0250000
 * k = 0 and k = n close in form: P(X = 0) = (1 - hi)^n = 0.025 gives
 * hi = 1 - 0.025^(1/10) = 0.3084971078187607; k = n = 10 mirrors it,
 * lo = 0.025^(1/10) = 0.6915028921812392.
 * Where GSL 2.7.1's inverse does not converge (coverage.c), the same
 * bisection of the tails gives k = 2 of 260: 0.0009329355060647138 to
 * 0.027509464774955916; k = 5 of 385: 0.004229933100771632 to
 * 0.030045634336349825, and k = 380 of 385 mirrors it.
 */
static void interval(void)
{
	double lo, hi;
	coverage_interval(8, 10, 0.95, &lo, &hi);
	CHECK_NEAR(lo, 0.4439045376923585, 1e-9);
	CHECK_NEAR(hi, 0.9747892736731667, 1e-9);
	coverage_interval(0, 10, 0.95, &lo, &hi);
	CHECK(lo == 0);
	CHECK_NEAR(hi, 1 - pow(0.025, 0.1), 1e-9);
	coverage_interval(10, 10, 0.95, &lo, &hi);
	CHECK_NEAR(lo, pow(0.025, 0.1), 1e-9);
	CHECK(hi == 1);
	coverage_interval(2, 260, 0.95, &lo, &hi);
	CHECK_NEAR(lo, 0.0009329355060647138, 1e-7);
	CHECK_NEAR(hi, 0.027509464774955916, 1e-7);
	coverage_interval(5, 385, 0.95, &lo, &hi);
	CHECK_NEAR(lo, 0.004229933100771632, 1e-7);
	CHECK_NEAR(hi, 0.030045634336349825, 1e-7);
	coverage_interval(380, 385, 0.95, &lo, &hi);
	CHECK_NEAR(lo, 1 - 0.030045634336349825, 1e-7);
	CHECK_NEAR(hi, 1 - 0.004229933100771632, 1e-7);
	/* one record: 0 of 1 reaches 0.975, 1 of 1 starts at 0.025 */
	coverage_interval(0, 1, 0.95, &lo, &hi);
	CHECK(lo == 0);
	CHECK_NEAR(hi, 0.975, 1e-9);
	coverage_interval(1, 1, 0.95, &lo, &hi);
	CHECK_NEAR(lo, 0.025, 1e-9);
	coverage_interval(0, 0, 0.95, &lo, &hi);
	CHECK(isnan(lo) && isnan(hi));
	/* every share of up to 400 records: a finite interval around it */
	bool ordered = true;
	for (size_t n = 1; n <= 400; n += 7)
		for (size_t k = 0; k <= n; k++) {
			coverage_interval(k, n, 0.95, &lo, &hi);
			double share = (double)k / (double)n;
			ordered &= lo >= 0 && lo <= share && share <= hi && hi <= 1;
		}
	CHECK(ordered);
}

/* ---- fixtures ---- */

static struct accelerator ampere = {.name = "A100-SXM-80GB",
				    .architecture = "Ampere"};
static struct accelerator hopper = {.name = "H100-SXM",
				    .architecture = "Hopper"};
static struct accelerator unnamed = {.name = "X1"};	/* no architecture */
static struct instance on_ampere = {.acc = &ampere};
static struct instance on_hopper = {.acc = &hopper};
static struct instance on_unnamed = {.acc = &unnamed};
static struct workload bf16 = {.kind = WORKLOAD_TRAINING,
			       .precision = PREC_BF16};
static struct workload fp8 = {.kind = WORKLOAD_TRAINING,
			      .precision = PREC_FP8};
static struct outcome_source src_a = {.url = "https://a.example/paper"};
static struct outcome_source src_b = {.url = "https://b.example/table"};
static struct outcome_source src_c = {.url = "https://c.example/blog"};

static struct outcome record(const char *name, struct outcome_source *src,
			     struct workload *w, const struct instance *inst)
{
	return (struct outcome){.name = (char *)name, .sources = src,
				.n_sources = 1, .w = w, .inst = inst};
}

/* A predicted row with its range set directly (compared terms). */
static void add(struct backtest *bt, const struct outcome *o, enum measure m,
		double measured, double predicted, double lo, double hi,
		int zero, long dp)
{
	bt->v = realloc(bt->v, (bt->n + 1) * sizeof(*bt->v));
	struct backtest_row *row = &bt->v[bt->n++];
	memset(row, 0, sizeof(*row));
	row->o = o;
	row->m = m;
	row->predicted = true;
	row->measured_cmp = measured;
	row->predicted_cmp = predicted;
	row->has_range = lo > 0;
	row->low_cmp = lo;
	row->high_cmp = hi;
	row->plan.zero = zero;
	row->plan.dp = dp;
}

/* ---- a row's range ---- */

/*
 * The plan: step 2 s, its range 1.6 .. 2.5 s; the run 10 days
 * (864,000 s), its range 9 .. 12.5 days (777,600 .. 1,080,000 s).
 *   step_time      [1.6, 2.5] s in both terms
 *   flops_per_gpu  compared [1.6, 2.5] s; own 150 TFLOP/s x 2 / 2.5 = 120
 *                  .. 150 x 2 / 1.6 = 187.5 TFLOP/s
 *   tokens_per_s   1e6 x 2 / 2.5 = 800,000 .. 1e6 x 2 / 1.6 = 1,250,000
 *   mfu            0.5 x 0.8 = 0.4 .. 0.5 x 1.25 = 0.625
 *   gpu_hours      1000 x 0.9 = 900 .. 1000 x 1.25 = 1250
 *   days           9 .. 12.5
 */
static void row_ranges(void)
{
	struct outcome o = record("r", &src_a, &bf16, &on_ampere);
	struct backtest_row row = {.o = &o, .predicted = true};
	row.plan = (struct backtest_plan){
		.step_s = 2, .time_s = 864000, .has_range = true,
		.step_low_s = 1.6, .step_high_s = 2.5,
		.time_low_s = 777600, .time_high_s = 1080000};
	struct {
		enum measure m;
		double predicted_cmp, predicted_own;
		double low_cmp, high_cmp, low_own, high_own;
	} cases[] = {
		{MEASURE_STEP_TIME, 2, 2, 1.6, 2.5, 1.6, 2.5},
		{MEASURE_FLOPS_PER_GPU, 2, 150e12, 1.6, 2.5, 120e12, 187.5e12},
		{MEASURE_TOKENS_PER_S, 1e6, 1e6, 8e5, 1.25e6, 8e5, 1.25e6},
		{MEASURE_MFU, 0.5, 0.5, 0.4, 0.625, 0.4, 0.625},
		{MEASURE_GPU_HOURS, 1000, 1000, 900, 1250, 900, 1250},
		{MEASURE_DAYS, 10, 10, 9, 12.5, 9, 12.5},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		row.m = cases[i].m;
		row.predicted_cmp = cases[i].predicted_cmp;
		row.predicted_own = cases[i].predicted_own;
		backtest_row_range(&row);
		CHECK(row.has_range);
		CHECK_NEAR(row.low_cmp, cases[i].low_cmp, 1e-12);
		CHECK_NEAR(row.high_cmp, cases[i].high_cmp, 1e-12);
		CHECK_NEAR(row.low_own, cases[i].low_own, 1e-12);
		CHECK_NEAR(row.high_own, cases[i].high_own, 1e-12);
	}
	/* ends included */
	row.m = MEASURE_STEP_TIME;
	row.predicted_cmp = row.predicted_own = 2;
	backtest_row_range(&row);
	row.measured_cmp = 2.5;
	CHECK(backtest_row_covered(&row));
	row.measured_cmp = 2.5000001;
	CHECK(!backtest_row_covered(&row));
	/* no range: the plan gives none, a run of unstated length, an
	 * interval upside down, a serving record */
	row.plan.has_range = false;
	backtest_row_range(&row);
	CHECK(!row.has_range && !backtest_row_covered(&row));
	row.plan.has_range = true;
	row.m = MEASURE_DAYS;
	row.plan.time_s = 0;
	backtest_row_range(&row);
	CHECK(!row.has_range);
	row.m = MEASURE_STEP_TIME;
	row.plan.step_low_s = 3;
	backtest_row_range(&row);
	CHECK(!row.has_range);
	row.plan.step_low_s = 1.6;
	o.serving = true;
	backtest_row_range(&row);
	CHECK(!row.has_range);
}

/* ---- strata ---- */

static void strata_of_rows(void)
{
	struct outcome o = record("r", &src_a, &fp8, &on_hopper);
	struct backtest_row row = {.o = &o, .m = MEASURE_STEP_TIME};
	char label[48];
	CHECK(coverage_stratum_of(&row, COVER_STEP, DIM_GENERATION, label,
				  sizeof(label)) == 0);
	CHECK_STR(label, "Hopper");
	coverage_stratum_of(&row, COVER_STEP, DIM_PRECISION, label, sizeof(label));
	CHECK_STR(label, "fp8");
	row.plan.zero = 3;
	coverage_stratum_of(&row, COVER_STEP, DIM_ZERO, label, sizeof(label));
	CHECK_STR(label, "stage 3");
	/* the data-parallel bands' edges */
	struct { long dp; const char *band; int rank; } bands[] = {
		{1, "1", 0}, {2, "2-63", 1}, {63, "2-63", 1}, {64, "64-511", 2},
		{511, "64-511", 2}, {512, "512+", 3}, {2240, "512+", 3}};
	for (size_t i = 0; i < sizeof(bands) / sizeof(bands[0]); i++) {
		row.plan.dp = bands[i].dp;
		CHECK(coverage_stratum_of(&row, COVER_STEP, DIM_DP, label,
					  sizeof(label)) == bands[i].rank);
		CHECK_STR(label, bands[i].band);
	}
	coverage_stratum_of(&row, COVER_RUN, DIM_KIND, label, sizeof(label));
	CHECK_STR(label, "whole run");
	/* a catalog entry without `architecture:` sorts after the named */
	o.inst = &on_unnamed;
	CHECK(coverage_stratum_of(&row, COVER_STEP, DIM_GENERATION, label,
				  sizeof(label)) == 1);
	CHECK_STR(label, "not given");
	CHECK(coverage_kind_of(MEASURE_MFU) == COVER_STEP);
	CHECK(coverage_kind_of(MEASURE_DAYS) == COVER_RUN);
	CHECK(coverage_kind_of(MEASURE_TTFT_P99) == -1);
}

/* ---- observations, by hand ---- */

static const struct coverage_stratum *stratum(const struct coverage *cv,
					      enum coverage_dim d,
					      const char *label)
{
	for (size_t i = 0; i < cv->n_strata; i++)
		if (cv->strata[i].dim == d && !strcmp(cv->strata[i].label, label))
			return &cv->strata[i];
	return NULL;
}

/*
 * Rows (measured, predicted, range in the compared terms):
 *   A (source a, Ampere, bf16, stage 0, dp 1)
 *     flops_per_gpu  step 3 s against 2 s in [1.6, 2.5]: outside
 *     tokens_per_s   90 against 100 in [80, 125]: inside
 *     mfu            0.3 against 0.5 in [0.4, 0.625]: outside
 *     days           11 against 10 in [9, 12.5]: inside
 *   B (source b, Hopper, fp8, stage 3, dp 64)
 *     step_time      3 against 2 in [1.8, 2.4]: above, a time: slower
 *   C (source b, no architecture, bf16, stage 1, dp 512)
 *     tokens_per_s   200 against 100 in [90, 110]: above, a rate: faster
 *   D (source c, Ampere, bf16, stage 0, dp 63)
 *     step_time      1 against 1 in [0.8, 1.2]: inside
 *   E serving, F predicted without a range, G not predicted.
 * A's three step-based rows are one prediction: tokens_per_s stands for
 * them (it needs no FLOP counting; flops_per_gpu and mfu are folded),
 * so A's step is covered; A's days are a second observation.
 * Observations 5, covered 3 (A step, A run, D).  Widths: A step
 * (125 - 80) / 100 = 0.45, A run 3.5 / 10 = 0.35, B 0.6 / 2 = 0.3,
 * C 20 / 100 = 0.2, D 0.4 / 1 = 0.4; mean 1.7 / 5 = 0.34.
 * Sources: a 2 of 2, b 0 of 2, c 1 of 1; the overall share without
 * each: a (3 - 2) / 3 = 1/3, b 3 / 3 = 1, c 2 / 4 = 0.5; lowest without a.
 */
static void observations(void)
{
	struct outcome a = record("A", &src_a, &bf16, &on_ampere);
	struct outcome b = record("B", &src_b, &fp8, &on_hopper);
	struct outcome c = record("C", &src_b, &bf16, &on_unnamed);
	struct outcome d = record("D", &src_c, &bf16, &on_ampere);
	struct outcome e = record("E", &src_c, &bf16, &on_ampere);
	struct outcome f = record("F", &src_c, &bf16, &on_ampere);
	struct outcome g = record("G", &src_c, &bf16, &on_ampere);
	e.serving = true;
	struct backtest bt;
	memset(&bt, 0, sizeof(bt));
	add(&bt, &a, MEASURE_FLOPS_PER_GPU, 3, 2, 1.6, 2.5, 0, 1);
	add(&bt, &a, MEASURE_TOKENS_PER_S, 90, 100, 80, 125, 0, 1);
	add(&bt, &a, MEASURE_MFU, 0.3, 0.5, 0.4, 0.625, 0, 1);
	add(&bt, &a, MEASURE_DAYS, 11, 10, 9, 12.5, 0, 1);
	add(&bt, &b, MEASURE_STEP_TIME, 3, 2, 1.8, 2.4, 3, 64);
	add(&bt, &c, MEASURE_TOKENS_PER_S, 200, 100, 90, 110, 1, 512);
	add(&bt, &d, MEASURE_STEP_TIME, 1, 1, 0.8, 1.2, 0, 63);
	add(&bt, &e, MEASURE_TPOT_MEAN, 0.02, 0.02, 0, 0, 0, 1);
	add(&bt, &f, MEASURE_STEP_TIME, 1, 1, 0, 0, 0, 1);
	add(&bt, &g, MEASURE_STEP_TIME, 1, 1, 0.8, 1.2, 0, 1);
	bt.v[bt.n - 1].predicted = false;

	struct coverage cv;
	coverage_of(&cv, &bt, 0.8);
	CHECK(cv.n_obs == 5);
	CHECK(cv.overall.n == 5 && cv.overall.covered == 3);
	CHECK(cv.overall.slower == 1 && cv.overall.faster == 1);
	CHECK_NEAR(coverage_mean_width(&cv.overall), 0.34, 1e-12);
	CHECK(cv.rows_folded == 2 && cv.rows_serving == 1 &&
	      cv.rows_no_range == 1 && cv.rows_not_predicted == 1);
	CHECK(cv.obs[0].row->m == MEASURE_TOKENS_PER_S);
	CHECK(cv.obs[0].side == COVER_INSIDE);
	CHECK(cv.obs[1].kind == COVER_RUN);
	CHECK(cv.obs[2].side == COVER_SLOWER);
	CHECK(cv.obs[3].side == COVER_FASTER);

	/* 3 generations + 2 precisions + 3 stages + 4 bands + 2 kinds */
	CHECK(cv.n_strata == 14);
	CHECK_STR(cv.strata[0].label, "Ampere");
	CHECK_STR(cv.strata[1].label, "Hopper");
	CHECK_STR(cv.strata[2].label, "not given");
	const struct coverage_stratum *s = stratum(&cv, DIM_GENERATION, "Ampere");
	CHECK(s && s->t.n == 3 && s->t.covered == 3);
	s = stratum(&cv, DIM_PRECISION, "bf16");
	CHECK(s && s->t.n == 4 && s->t.covered == 3 && s->t.faster == 1);
	s = stratum(&cv, DIM_DP, "2-63");
	CHECK(s && s->t.n == 1 && s->t.covered == 1);
	s = stratum(&cv, DIM_DP, "512+");
	CHECK(s && s->t.n == 1 && s->t.faster == 1);
	s = stratum(&cv, DIM_KIND, "step");
	CHECK(s && s->t.n == 4 && s->t.covered == 2 && s->t.slower == 1);
	s = stratum(&cv, DIM_KIND, "whole run");
	CHECK(s && s->t.n == 1 && s->t.covered == 1);

	CHECK(cv.n_groups == 3);
	CHECK_STR(cv.groups[0].source, "https://a.example/paper");
	CHECK(cv.groups[0].t.n == 2 && cv.groups[0].t.covered == 2);
	CHECK(cv.groups[1].t.n == 2 && cv.groups[1].t.covered == 0);
	CHECK_NEAR(cv.groups[0].share_without, 1.0 / 3, 1e-12);
	CHECK_NEAR(cv.groups[1].share_without, 1.0, 1e-12);
	CHECK_NEAR(cv.groups[2].share_without, 0.5, 1e-12);
	CHECK(cv.loo_worst == 0);

	/* the gate: no stratum here has 5 records; overall 60% */
	char why[1200];
	CHECK(!coverage_below(&cv, 0.6, why, sizeof(why)));
	CHECK(coverage_below(&cv, 0.75, why, sizeof(why)));
	CHECK_HAS(why, "overall 60.0% (3 of 5)");
	CHECK(!strstr(why, "generation"));

	json_t *j = coverage_json(&cv);
	CHECK(json_integer_value(json_object_get(json_object_get(j, "overall"),
						 "covered")) == 3);
	CHECK(json_array_size(json_object_get(j, "strata")) == 14);
	json_decref(j);
	coverage_free(&cv);
	free(bt.v);
}

/* The gate holds a stratum of 5 or more records, not a smaller one, and
 * fails when there is nothing to check. */
static void gate(void)
{
	struct coverage_stratum strata[] = {
		{.dim = DIM_DP, .label = "512+", .t = {.n = 5, .covered = 3}},
		{.dim = DIM_DP, .label = "64-511", .t = {.n = 4, .covered = 0}},
	};
	struct coverage cv = {.level = 0.8, .strata = strata, .n_strata = 2,
			      .overall = {.n = 10, .covered = 9}};
	char why[1200];
	CHECK(coverage_below(&cv, 0.75, why, sizeof(why)));
	CHECK_HAS(why, "dp_width 512+ 60.0% (3 of 5)");
	CHECK(!strstr(why, "64-511") && !strstr(why, "overall"));
	CHECK(!coverage_below(&cv, 0.6, why, sizeof(why)));
	struct coverage none = {.level = 0.8};
	CHECK(coverage_below(&none, 0.5, why, sizeof(why)));
	CHECK_HAS(why, "cannot be checked");
}

int main(void)
{
	interval();
	row_ranges();
	strata_of_rows();
	observations();
	gate();
	return check_summary("coverage");
}

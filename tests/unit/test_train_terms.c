/*
 * The training terms (issue 27) from measured figures to the planner's
 * efficiencies: the FLOP-weighted matmul rate, the overlap slowdown, the
 * spread's coefficient of variation and its chi-square interval
 * (fit/train_terms.h), the fitted file's round trip and its refusal of an
 * edited value (fit/train_fitted.h), and the carry into struct efficiency
 * (hwmodel/calibrate.h): the compute ceiling with the tile model's shape
 * factor divided out, the slowdown held at 0 below 0.  Each expected
 * figure is worked by hand in the comment beside it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fit/fitted.h"
#include "fit/train_terms.h"
#include "hwmodel/calibrate.h"
#include "profile/profile.h"

static struct train_point point(const char *role, long m, long n, long k,
				long occ, double rate, double low, double high)
{
	struct train_point p = {"", m, n, k, occ, rate, low, high, 0};
	snprintf(p.role, sizeof(p.role), "%s", role);
	return p;
}

static void test_matmul(void)
{
	/* A: 1000^3 (W = 2e9) twice at 1e12 [0.9e12, 1.1e12]; B: 500^3
	 * (W = 2.5e8) four times at 0.5e12 [0.4e12, 0.6e12].  Work 4e9 + 1e9
	 * = 5e9; time 4e9/1e12 + 1e9/0.5e12 = 6e-3 s: 8.3333e11 FLOP/s.
	 * Slow ends 4.4444e-3 + 2.5e-3 = 6.9444e-3: 7.2e11; fast ends
	 * 3.6364e-3 + 1.6667e-3 = 5.3030e-3: 9.4286e11. */
	struct train_matmul m = {0};
	m.v[m.n++] = point("forward", 1000, 1000, 1000, 2, 1e12, 0.9e12, 1.1e12);
	m.v[m.n++] = point("dgrad", 500, 500, 500, 4, 0.5e12, 0.4e12, 0.6e12);
	train_matmul_derive(&m);
	CHECK_NEAR(m.rate, 5e9 / 6e-3, 1e-12);
	CHECK_NEAR(m.low, 7.2e11, 1e-12);
	CHECK_NEAR(m.high, 5e9 / (4e9 / 1.1e12 + 1e9 / 0.6e12), 1e-12);
	CHECK_NEAR(m.high, 9.428571428571e11, 1e-9);
}

static void test_overlap_and_spread(void)
{
	/* alone 1e12 [0.98e12, 1.02e12], beside 0.9e12 [0.88e12, 0.92e12]:
	 * slowdown 1/0.9 - 1 = 0.11111, from 0.98/0.92 - 1 = 0.065217 to
	 * 1.02/0.88 - 1 = 0.159091 */
	struct train_overlap o = {.alone = 1e12, .alone_low = 0.98e12,
				  .alone_high = 1.02e12, .with = 0.9e12,
				  .with_low = 0.88e12, .with_high = 0.92e12};
	train_overlap_derive(&o);
	CHECK_NEAR(o.slowdown, 1 / 0.9 - 1, 1e-12);
	CHECK_NEAR(o.low, 0.98 / 0.92 - 1, 1e-12);
	CHECK_NEAR(o.high, 1.02 / 0.88 - 1, 1e-12);

	/* rates 100, 110, 90, 100 on GPUs 4..7: mean 100, squares 0 + 100 +
	 * 100 + 0 over 3 degrees of freedom, sd sqrt(200/3) = 8.16497, CV
	 * 0.0816497; chi-square quantiles at 3 df: 0.975 -> 9.348404,
	 * 0.025 -> 0.2157953, so the CV's interval is 0.0816497 x
	 * sqrt(3/9.348404) = 0.046254 to 0.0816497 x sqrt(3/0.2157953) =
	 * 0.304437; the slowest, 90, is GPU 6 */
	struct train_spread s = {.n = 4, .gpu = {4, 5, 6, 7},
				 .rate = {100, 110, 90, 100}};
	train_spread_derive(&s);
	CHECK_NEAR(s.mean, 100, 1e-15);
	CHECK_NEAR(s.cv, sqrt(200.0 / 3) / 100, 1e-12);
	CHECK_NEAR(s.low, 0.046254, 1e-4);
	CHECK_NEAR(s.high, 0.304437, 1e-4);
	CHECK(s.slowest == 6);
}

/* ---- from a profile ---- */

static void add_figure(struct bench_profile *p, const char *suite,
		       const char *name, const char *kernel, double value,
		       bool disturbed)
{
	struct bench_figure f;
	memset(&f, 0, sizeof(f));
	snprintf(f.suite, sizeof(f.suite), "%s", suite);
	snprintf(f.name, sizeof(f.name), "%s", name);
	snprintf(f.kernel, sizeof(f.kernel), "%s", kernel);
	snprintf(f.precision, sizeof(f.precision), "bf16");
	f.m = f.n = f.k = 1000;
	f.occurrences = 3;
	f.iterations = 4;
	f.value = value;
	f.low = 0.99 * value;
	f.high = 1.01 * value;
	f.time.n = 8;
	f.time.median = 0.02;
	f.time.ci_low = 0.019;
	f.time.ci_high = 0.021;
	if (disturbed)
		snprintf(f.disturbed, sizeof(f.disturbed), "a busy host");
	bench_figures_push(&p->figures, &f);
}

static void test_from_profile(void)
{
	struct bench_profile p;
	struct train_terms t;
	bench_profile_init(&p);
	snprintf(p.device.kind, sizeof(p.device.kind), "cuda");
	snprintf(p.device.name, sizeof(p.device.name), "GPU X");
	snprintf(p.when, sizeof(p.when), "2026-12-07T10:00:00Z");
	/* no training suite ran: no terms */
	CHECK(!train_terms_from_profile(&p, "m.yaml", &t));
	snprintf(p.suites[p.n_suites++], sizeof(p.suites[0]), "train-gemm");
	snprintf(p.suites[p.n_suites++], sizeof(p.suites[0]), "overlap");
	snprintf(p.suites[p.n_suites++], sizeof(p.suites[0]), "layer");
	add_figure(&p, "train-gemm", "bf16 forward m=1000 n=1000 k=1000", "forward", 5e14, false);
	add_figure(&p, "train-gemm", "bf16 dgrad m=1000 n=1000 k=1000", "dgrad", 4e14, true);
	add_figure(&p, "overlap", "bf16 m=1000 n=1000 k=1000 alone", "gemm", 5e14, false);
	add_figure(&p, "overlap", "bf16 m=1000 n=1000 k=1000 beside d2d copy", "gemm", 4.5e14, false);
	add_figure(&p, "layer", "bf16 layer 0 fwd+bwd batch 1", "layer", 1e14, false);
	CHECK(train_terms_from_profile(&p, "m.yaml", &t));
	/* one of the two GEMMs left out: no matmul term, saying why */
	CHECK(!t.matmul.ok);
	CHECK_HAS(t.matmul.why, "1 of 2 train-gemm figures left out: measured on a busy host");
	/* 5e14 / 4.5e14 - 1 = 0.1111 */
	CHECK(t.overlap.ok);
	CHECK_NEAR(t.overlap.slowdown, 5.0 / 4.5 - 1, 1e-12);
	CHECK_STR(t.overlap.beside, "d2d copy");
	CHECK(!t.spread.ok);
	CHECK_HAS(t.spread.why, "no spread figure");
	/* a call is the median 0.02 s over 4 iterations: 5 ms [4.75, 5.25] */
	CHECK(t.layer.ok);
	CHECK_NEAR(t.layer.seconds, 0.005, 1e-12);
	CHECK_NEAR(t.layer.low, 0.00475, 1e-12);
	CHECK(train_terms_any(&t));
	bench_profile_free(&p);
}

/* ---- the fitted file ---- */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_fitted_round_trip(void)
{
	struct curve_list l = {0};
	struct train_terms *t = curve_list_add_train(&l);
	snprintf(t->source, sizeof(t->source), "m.yaml");
	snprintf(t->device, sizeof(t->device), "cuda: GPU X");
	snprintf(t->measured, sizeof(t->measured), "2026-12-07T10:00:00Z");
	snprintf(t->model, sizeof(t->model), "tiny");
	t->micro_batch = 2;
	t->tp = 1;
	t->sustain_s = 20;
	t->matmul.ok = true;
	snprintf(t->matmul.precision, sizeof(t->matmul.precision), "bf16");
	t->matmul.v[t->matmul.n++] = point("forward", 1000, 1000, 1000, 2, 1e12, 0.9e12, 1.1e12);
	t->matmul.v[t->matmul.n++] = point("wgrad", 500, 500, 500, 4, 0.5e12, 0.4e12, 0.6e12);
	train_matmul_derive(&t->matmul);
	t->spread = (struct train_spread){.ok = true, .n = 4, .gpu = {4, 5, 6, 7},
					  .rate = {100, 110, 90, 100}};
	train_spread_derive(&t->spread);
	snprintf(t->overlap.why, sizeof(t->overlap.why), "no overlap figure in the profile");
	snprintf(t->layer.why, sizeof(t->layer.why), "no layer figure in the profile");
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	fitted_emit(&l, f);
	fclose(f);
	char path[] = "/tmp/gpuplan-train-terms-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	write_file(path, text);
	struct curve_list back = {0};
	struct gp_errors e;
	gp_errors_init(&e);
	CHECK(fitted_load(&back, path, "t.yaml", &e) == 0);
	gp_errors_print(&e, stderr);
	CHECK(back.n_train == 1);
	if (back.n_train == 1) {
		CHECK(back.train[0].matmul.ok && back.train[0].spread.ok);
		CHECK(back.train[0].matmul.rate == t->matmul.rate);
		CHECK(back.train[0].spread.slowest == 6);
		CHECK(!back.train[0].overlap.ok);
		CHECK_STR(back.train[0].overlap.why, "no overlap figure in the profile");
	}
	curve_list_free(&back);
	gp_errors_free(&e);
	/* the rate edited: refused, at its line */
	char rate[64];
	snprintf(rate, sizeof(rate), "      rate: %.17g\n", t->matmul.rate);
	char *at = strstr(text, "      rate: ");
	CHECK(at != NULL);
	if (at) {
		char *edited = malloc(size + 32);
		size_t head = (size_t)(at - text);
		memcpy(edited, text, head);
		char *eol = strchr(at, '\n');
		sprintf(edited + head, "      rate: 9e11%s", eol);
		write_file(path, edited);
		gp_errors_init(&e);
		back = (struct curve_list){0};
		CHECK(fitted_load(&back, path, "t.yaml", &e) == -1);
		CHECK(gp_errors_count(&e) == 1);
		if (gp_errors_count(&e))
			CHECK_HAS(e.v[0].msg, "rate 900000000000 is not what the points give");
		curve_list_free(&back);
		gp_errors_free(&e);
		free(edited);
	}
	unlink(path);
	free(text);
	curve_list_free(&l);
}

/* ---- the carry ---- */

static void test_carry(void)
{
	/* a part with a bf16 peak of 1e15 and 100 SMs.  The product of 2560
	 * rows, 1280 outputs and 4032 inputs is 10 x 10 tiles of 256 x 128:
	 * one full wave of 100, no partial tile, shape factor k / (k + 64) =
	 * 4032 / 4096 = 0.984375.  Its forward GEMM (m 1280, n 2560, k 4032)
	 * at 0.7e15 and its dgrad (m 4032, n 2560, k 1280) at 0.35e15, each
	 * W = 2 x 1280 x 2560 x 4032: time W/0.7e15 + W/0.35e15, so the rate
	 * 2W / time = 0.466667e15, and the ceiling 0.466667 / 0.984375 =
	 * 0.474074 (at the dgrad's own shape the factor would differ) */
	struct accelerator acc;
	memset(&acc, 0, sizeof(acc));
	acc.name = "X";
	acc.peak[PREC_BF16] = 1e15;
	acc.has_peak[PREC_BF16] = true;
	acc.sms = 100;
	struct catalog cat;
	catalog_init(&cat);
	cat.acc = &acc;
	cat.n_acc = 1;
	struct train_terms t = {0};
	snprintf(t.model, sizeof(t.model), "tiny");
	snprintf(t.measured, sizeof(t.measured), "2026-12-07T10:00:00Z");
	t.matmul.ok = true;
	snprintf(t.matmul.precision, sizeof(t.matmul.precision), "bf16");
	t.matmul.v[t.matmul.n++] = point("forward", 1280, 2560, 4032, 1, 0.7e15, 0.69e15, 0.71e15);
	t.matmul.v[t.matmul.n++] = point("dgrad", 4032, 2560, 1280, 1, 0.35e15, 0.34e15, 0.36e15);
	train_matmul_derive(&t.matmul);
	/* the GEMM 5% faster beside the collective (noise): held at 0 */
	t.overlap = (struct train_overlap){.ok = true, .alone = 1, .alone_low = 0.99,
		.alone_high = 1.01, .with = 1 / 0.95, .with_low = 1 / 0.96,
		.with_high = 1 / 0.94};
	snprintf(t.overlap.beside, sizeof(t.overlap.beside), "allreduce x 8 GPUs");
	train_overlap_derive(&t.overlap);
	struct calibration c;
	memset(&c, 0, sizeof(c));
	c.gpu = true;
	snprintf(c.device, sizeof(c.device), "cuda: GPU X");
	c.matmul = c.overlap = &t;
	struct efficiency e;
	memset(&e, 0, sizeof(e));
	efficiency_default(&e);
	struct carried k;
	char why[256];
	CHECK(calibrate_carry(&c, &cat, "X", &e, &k, why, sizeof(why)) == 0);
	CHECK(k.compute && k.matmul);
	CHECK_NEAR(e.compute, (2.0 / (1 / 0.7 + 1 / 0.35)) / 0.984375, 1e-9);
	CHECK_NEAR(e.compute, 0.474074, 1e-5);
	CHECK_HAS(e.compute_from, "train-gemm");
	/* slowdown 0.95 - 1 = -0.05 and its interval 0.99 x 0.94 - 1 to
	 * 1.01 x 0.96 - 1 = -0.0304, all below 0: held at 0 */
	CHECK(k.overlap && e.overlap_slowdown == 0 && k.overlap_low == 0);
	CHECK(k.overlap_high == 0);
	CHECK_HAS(e.overlap_from, "held at 0");
	/* no spread measured: the default, from its source, stays */
	CHECK(!k.straggler);
	CHECK_HAS(e.straggler_from, "Bekman");
	/* a CPU's terms are not carried */
	c.gpu = false;
	memset(&e, 0, sizeof(e));
	efficiency_default(&e);
	CHECK(calibrate_carry(&c, &cat, "X", &e, &k, why, sizeof(why)) == 0);
	CHECK(!k.overlap);
	CHECK_HAS(e.overlap_from, "2507.03114");
}

int main(void)
{
	test_matmul();
	test_overlap_and_spread();
	test_from_profile();
	test_fitted_round_trip();
	test_carry();
	return check_summary("train_terms");
}

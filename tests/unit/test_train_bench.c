/*
 * The training suites' arithmetic on the bench side (issue 27): the
 * sustained loop on a fake clock, a model's matrix products and the
 * GEMMs each role calls (bench/train_shapes.h), one layer's forward and
 * backward program (bench/layer_program.h), run and checked on the CPU,
 * and the steady window of GPU samples a sustained figure reports
 * (profile/samples.h).  Every expected figure is worked by hand in the
 * comment beside it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cpu_program.h"
#include "bench/layer_program.h"
#include "bench/measure.h"
#include "bench/train_shapes.h"
#include "check.h"
#include "model/graph.h"
#include "profile/samples.h"

#define TINY "tests/cli/data/train/tiny-llama.yaml"

/* ---- the sustained loop ---- */

/* A clock that each repetition moves on by `step` seconds; the reading
 * a repetition returns is `reading` (a test sets it to a lie). */
struct fake {
	double now, step, reading;
	int reps;
	int lie_at;		/* the repetition (1-based) that reads 0 */
};

static double fake_clock(void *ctx)
{
	return ((struct fake *)ctx)->now;
}

static int fake_rep(void *ctx, double *seconds, char *why, size_t len)
{
	(void)why;
	(void)len;
	struct fake *f = ctx;
	f->now += f->step;
	f->reps++;
	*seconds = f->reps == f->lie_at ? 0 : f->reading;
	return 0;
}

static void test_sustained(void)
{
	/* steps of 0.125 s are exact in binary: settle 1 s is 8 repetitions
	 * (the clock reaches 1.0 after the 8th), steady 2 s is 16 more */
	struct fake f = {0, 0.125, 0.125, 0, 0};
	struct sustain_policy p = {1.0, 2.0, 6, 1000, 0.02, fake_clock};
	struct measure_result r;
	CHECK(measure_sustained(&p, fake_rep, &f, &r, NULL, 0) == 0);
	CHECK(f.reps == 24);
	CHECK(r.n == 16);
	CHECK(r.elapsed_s == 2.0);
	CHECK(r.median == 0.125);
	CHECK(r.converged);	/* 16 equal readings: an interval of width 0 */
	measure_result_free(&r);

	/* a lie in the settle part is counted, not kept; steady 0.25 s is two
	 * repetitions by time, but an interval needs min_reps = 6 */
	struct fake g = {0, 0.125, 0.125, 0, 3};
	struct sustain_policy q = {1.0, 0.25, 6, 1000, 0.02, fake_clock};
	CHECK(measure_sustained(&q, fake_rep, &g, &r, NULL, 0) == 0);
	CHECK(r.rejected == 1 && r.n == 6 && !r.too_few);
	CHECK(g.reps == 8 + 6);
	measure_result_free(&r);

	/* the cap counts attempts: max_reps 4 leaves 4 kept, below the 6 an
	 * interval needs, with a lie among them: too few, not converged */
	struct fake h = {0, 0.125, 0.125, 0, 10};
	struct sustain_policy c = {1.0, 2.0, 6, 4, 0.02, fake_clock};
	CHECK(measure_sustained(&c, fake_rep, &h, &r, NULL, 0) == 0);
	CHECK(r.n == 3 && r.rejected == 1 && r.too_few && !r.converged);
	measure_result_free(&r);

	struct sustain_policy d = sustain_policy_of(20);
	CHECK(d.settle_s == 10 && d.steady_s == 10 && d.min_reps == 6);
}

/* ---- the model's products ---- */

static int load(struct model *m, struct model_graph *g, long seq)
{
	struct gp_errors e;
	gp_errors_init(&e);
	int rc = model_load(m, TINY, &e) == 0 && model_build(m, seq, g, &e) == 0 ? 0 : -1;
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	CHECK(rc == 0);
	return rc;
}

static void test_shapes(const struct model_graph *g)
{
	struct train_shapes s;
	char why[256];
	/* tiny-llama, 2 layers of hidden 128, SwiGLU 256, vocab 512, at
	 * micro-batch 2 x 64 tokens = 128 rows.  Forward FLOPs, 2 x rows x in
	 * x out x occurrences:
	 *   gate and up 128->256 x 4    2*128*128*256*4 = 33,554,432
	 *   q/k/v 128->384 x 2          2*128*128*384*2 = 25,165,824
	 *   down 256->128 x 2           2*128*256*128*2 = 16,777,216
	 *   head 128->512 x 1           2*128*128*512   = 16,777,216
	 *   attention out 128->128 x 2  2*128*128*128*2 =  8,388,608
	 * total 100,663,296; after four, 92,274,688 (91.7%) is short of 95%,
	 * so all five are kept; down before head (equal FLOPs: model order) */
	CHECK(train_shapes_of(g, 2, 1, &s, why, sizeof(why)) == 0);
	CHECK(s.n == 5 && s.left == 0);
	CHECK(s.total == 100663296.0 && s.covered == s.total);
	CHECK(s.v[0].in == 128 && s.v[0].out == 256 && s.v[0].occurrences == 4);
	CHECK(s.v[0].tokens == 128);
	CHECK_HAS(s.v[0].label, "layer 0 ffn gate");
	CHECK(s.v[1].out == 384 && s.v[2].in == 256 && s.v[3].out == 512);
	CHECK(s.v[4].in == 128 && s.v[4].out == 128);

	/* tp 2: column-parallel outputs and row-parallel inputs halve:
	 * gate/up 128->128, q/k/v 128->192, down 128->128 (the same shape as
	 * gate and up now: 6 occurrences), head 128->256, out 64->128 */
	CHECK(train_shapes_of(g, 2, 2, &s, why, sizeof(why)) == 0);
	CHECK(s.v[0].in == 128 && s.v[0].out == 128 && s.v[0].occurrences == 6);
	/* tp 3 leaves a third of 384 features whole but not of 128 */
	CHECK(train_shapes_of(g, 2, 3, &s, why, sizeof(why)) == -1);
	CHECK_HAS(why, "tp 3 does not divide");

	/* the roles as cuBLAS is called: forward TN m=out n=rows k=in, dgrad
	 * NN m=in n=rows k=out, wgrad NT m=in n=out k=rows; fp8 all TN */
	struct train_product p = {.tokens = 4096, .in = 4096, .out = 11008};
	struct train_gemm x;
	train_gemm_of(&p, TRAIN_FORWARD, false, &x);
	CHECK(x.m == 11008 && x.n == 4096 && x.k == 4096 && x.trans_a && !x.trans_b);
	train_gemm_of(&p, TRAIN_DGRAD, false, &x);
	CHECK(x.m == 4096 && x.n == 4096 && x.k == 11008 && !x.trans_a && !x.trans_b);
	train_gemm_of(&p, TRAIN_WGRAD, false, &x);
	CHECK(x.m == 4096 && x.n == 11008 && x.k == 4096 && !x.trans_a && x.trans_b);
	train_gemm_of(&p, TRAIN_WGRAD, true, &x);
	CHECK(x.trans_a && !x.trans_b);
	CHECK_STR(train_role_name(TRAIN_DGRAD), "dgrad");
}

/* ---- one layer, forward and backward ---- */

static double gemm_flops(const struct bench_program *p, size_t from, size_t to)
{
	double f = 0;
	for (size_t i = from; i < to; i++)
		if (p->kernels[i].kind == BENCH_KERNEL_GEMM)
			f += 2.0 * p->kernels[i].m * p->kernels[i].n *
			     p->kernels[i].k * p->kernels[i].count;
	return f;
}

static void test_layer(const struct model_graph *g)
{
	struct model_program p;
	size_t forward = 0;
	char why[256];
	CHECK(layer_program_build(g, 2, BENCH_FP32, &p, &forward, why,
				  sizeof(why)) == 0);
	/* forward GEMMs of layer 0 at 128 rows: the linears 2*128*128*(384
	 * + 128 + 256 + 256) + 2*128*256*128 = 41,943,040; attention's two
	 * products per sample and head (2 x 4 = 8 of them), scores 64x64x32
	 * and values 64x32x64: 2 * 2*64*64*32*8 = 4,194,304; 46,137,344 */
	CHECK(gemm_flops(&p.prog, 0, forward) == 46137344.0);
	/* each forward GEMM has two gradient GEMMs of its size (the data
	 * gradient and the weight's, or both operands' for attention) */
	CHECK(gemm_flops(&p.prog, forward, p.n_kernels) == 2 * 46137344.0);
	/* runs on the CPU executor, whose prepare refuses any program that
	 * breaks program_abi.h's rules, and checks out */
	struct cpu_program *c = NULL;
	uint64_t bytes = 0;
	CHECK(cpu_program_prepare(&p.prog, 1ULL << 30, 1, &c, &bytes, why,
				  sizeof(why)) == BENCH_OK);
	if (c) {
		CHECK(cpu_program_run(c, 1, why, sizeof(why)) == BENCH_OK);
		CHECK(cpu_program_check(c, why, sizeof(why)) == BENCH_OK);
		cpu_program_free(c);
	}
	model_program_free(&p);
}

/* ---- the steady window of the samples ---- */

static void test_window(void)
{
	struct gpu_samples s;
	gpu_samples_init(&s);
	/* label "a" sampled every 0.25 s from 0 to 2.0 at 1000 + 10 t MHz,
	 * 300 + t W; then "b" */
	for (int i = 0; i <= 8; i++) {
		struct gpu_sample x = {.t_s = 0.25 * i,
				       .sm_clock_hz = (1000 + 10 * i) * 1e6,
				       .power_w = 300 + i,
				       .temperature_c = 60 + (i % 3),
				       .throttle = i == 7 ? GPU_THROTTLE_SW_POWER_CAP : 0,
				       .valid = GPU_SAMPLE_SM_CLOCK | GPU_SAMPLE_POWER |
						GPU_SAMPLE_TEMPERATURE | GPU_SAMPLE_THROTTLE};
		snprintf(x.during, sizeof(x.during), "a");
		gpu_samples_push(&s, &x);
	}
	struct gpu_sample y = {.t_s = 2.25, .sm_clock_hz = 1, .valid = GPU_SAMPLE_SM_CLOCK};
	snprintf(y.during, sizeof(y.during), "b");
	gpu_samples_push(&s, &y);
	struct gpu_window w;
	/* window 0.75 s before a's last sample (2.0): t >= 1.25, samples 5..8:
	 * clocks 1050..1080 MHz, median (1060 + 1070) / 2 = 1065 MHz; power
	 * median (306 + 307) / 2 = 306.5 W; hottest 62 (i = 5 and 8); the
	 * power cap seen at i = 7 */
	gpu_samples_window(&s, "a", 0.75, &w);
	CHECK(w.samples == 4);
	CHECK(w.has_sm_clock && w.sm_clock_median_hz == 1065e6);
	CHECK(w.has_power && w.power_median_w == 306.5);
	CHECK(w.has_temperature && w.temperature_max_c == 62);
	CHECK(w.throttle == GPU_THROTTLE_SW_POWER_CAP);
	/* odd count: the middle one; no power reading: absent, not 0 */
	gpu_samples_window(&s, "b", 10, &w);
	CHECK(w.samples == 1 && w.sm_clock_median_hz == 1 && !w.has_power);
	gpu_samples_window(&s, "c", 10, &w);
	CHECK(w.samples == 0 && !w.has_sm_clock);
	double v[] = {3, 1, 2};
	CHECK(gpu_median(v, 3) == 2 && gpu_median(v, 0) == 0);
	gpu_samples_free(&s);
}

int main(void)
{
	test_sustained();
	test_window();
	struct model m;
	struct model_graph g;
	memset(&m, 0, sizeof(m));
	memset(&g, 0, sizeof(g));
	if (load(&m, &g, 64) == 0) {
		test_shapes(&g);
		test_layer(&g);
	}
	model_graph_free(&g);
	model_free(&m);
	return check_summary("train_bench");
}

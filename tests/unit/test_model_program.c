/*
 * Lowering a model to a program of kernels (bench/model_program.h): a
 * hand-computed small CNN, GEMM work against the model's own count for the
 * shipped models, and the program's invariants (single assignment, every
 * extent inside its buffer) that both executors rely on.
 */
#include <math.h>
#include <string.h>

#include "bench/model_program.h"
#include "check.h"
#include "model_fixture.h"
#include "model/graph.h"

static double extent(int64_t count, int64_t stride, double matrix)
{
	return (double)(count - 1) * stride + matrix;
}

/* Every buffer written once, never read by its writer, every read and
 * write inside its buffer. */
static void check_invariants(const struct bench_program *p, const char *what)
{
	int *written = calloc(p->n_buffers, sizeof(int));
	int bad = 0;
	for (uint64_t i = 0; i < p->n_kernels; i++) {
		const struct bench_kernel *k = &p->kernels[i];
		if (k->a < 0 || (uint32_t)k->a >= p->n_buffers ||
		    k->c < 0 || (uint32_t)k->c >= p->n_buffers ||
		    k->b >= (int32_t)p->n_buffers || k->a == k->c || k->b == k->c ||
		    written[k->c]++) {
			bad++;
			continue;
		}
		double la = (double)p->buffer_elements[k->a];
		double lc = (double)p->buffer_elements[k->c];
		double lb = k->b >= 0 ? (double)p->buffer_elements[k->b] : 0;
		if (k->kind == BENCH_KERNEL_GEMM) {
			double ea = extent(k->count, k->a_stride, (double)k->m * k->k);
			double eb = extent(k->count, k->b_stride, (double)k->k * k->n);
			double ec = extent(k->count, k->c_stride, (double)k->m * k->n);
			bad += ea > la || eb > lb || ec > lc || k->count < 1;
			bad += k->count > 1 && (k->c_stride < k->m * k->n);
		} else if (k->kind == BENCH_KERNEL_STREAM) {
			bad += k->elements > lc || k->elements < 1;
		} else {
			bad += (double)k->rows * k->cols > la ||
			       (double)k->rows * k->cols > lc;
		}
		if (bad)
			printf("  %s: kernel %llu (%s) breaks an invariant\n",
			       what, (unsigned long long)i, k->label);
	}
	CHECK(bad == 0);
	free(written);
}

static double gemm_flops(const struct bench_program *p)
{
	double f = 0;
	for (uint64_t i = 0; i < p->n_kernels; i++)
		if (p->kernels[i].kind == BENCH_KERNEL_GEMM)
			f += 2.0 * p->kernels[i].m * p->kernels[i].n *
			     p->kernels[i].k * p->kernels[i].count;
	return f;
}

/* tiny-cnn at batch 2, by hand (profiles/models/tiny-cnn.yaml):
 *   input 2 x 1x28x28 = 1568
 *   conv 3x3 pad 1 -> 32: im2col 1568 pixels x 9 = 14112, weights 9x32
 *     = 288, out 1568 x 32 = 50176, GEMM 2*1568*32*9 = 903168
 *   relu 50176 (1 FLOP each); maxpool 2 -> 2 x 32x14x14 = 12544 (4 each)
 *   conv 3x3 pad 1 -> 64: 392 pixels x 288 = 112896, weights 288x64 =
 *     18432, out 392 x 64 = 25088, GEMM 2*392*64*288 = 14450688
 *   relu 25088; maxpool -> 6272 (4 each: 25088)
 *   flatten (no kernel); linear 3136 -> 128: weights 401408, out 256,
 *     GEMM 2*2*128*3136 = 1605632; relu 256
 *   linear 128 -> 10: weights 1280, out 20, GEMM 2*2*10*128 = 5120
 * FLOPs 903168 + 50176 + 50176 + 14450688 + 25088 + 25088 + 1605632 + 256
 * + 5120 = 17115392; elements 1568 + 288 + 14112 + 50176 + 50176 + 12544
 * + 18432 + 112896 + 25088 + 25088 + 6272 + 401408 + 256 + 256 + 1280 + 20
 * = 719860, 4 B each at fp32 = 2879440 B. */
static void tiny_cnn(void)
{
	struct built b;
	build(&b, "tiny-cnn.yaml", 0);
	if (!b.ok)
		return done(&b);
	struct model_program p;
	char why[256] = "";
	CHECK(model_program_build(&b.g, 2, BENCH_FP32, &p, why, sizeof(why)) == 0);
	CHECK(p.n_kernels == 11);
	CHECK(p.n_buffers == 16);
	CHECK(bench_program_flops(&p.prog) == 17115392);
	CHECK(bench_program_bytes(&p.prog) == 2879440);
	const struct bench_kernel *k = &p.kernels[1];
	CHECK(k->kind == BENCH_KERNEL_GEMM && k->m == 1568 && k->n == 32 &&
	      k->k == 9 && k->count == 1);
	CHECK(p.kernels[0].kind == BENCH_KERNEL_STREAM &&
	      p.kernels[0].elements == 14112);
	check_invariants(&p.prog, "tiny-cnn");
	model_program_free(&p);

	/* fp16 halves the bytes, nothing else */
	CHECK(model_program_build(&b.g, 2, BENCH_FP16, &p, why, sizeof(why)) == 0);
	CHECK(bench_program_bytes(&p.prog) == 2879440 / 2);
	model_program_free(&p);
	CHECK(model_program_build(&b.g, 0, BENCH_FP32, &p, why, sizeof(why)) == -1);
	done(&b);
}

/* The program's GEMM work is the model's matrix work: conv and linear
 * multiply-adds (op_cost.c) plus attention's two S x S products. */
static void matches_model(const char *file, long seq, long batch)
{
	struct built b;
	build(&b, file, seq);
	if (!b.ok)
		return done(&b);
	struct model_cost c;
	model_cost(&b.g, batch, 4, &c);
	struct model_program p;
	char why[256] = "";
	int rc = model_program_build(&b.g, batch, BENCH_FP32, &p, why, sizeof(why));
	if (rc)
		printf("  %s: %s\n", file, why);
	CHECK(rc == 0);
	if (rc == 0) {
		double want = 2 * c.macs_per_sample * batch;
		printf("  %-22s batch %ld: GEMM FLOPs %.6g, model 2 x MACs %.6g; "
		       "program %.4g GB\n", file, batch, gemm_flops(&p.prog),
		       want, bench_program_bytes(&p.prog) / 1e9);
		CHECK_NEAR(gemm_flops(&p.prog), want, 1e-9);
		/* weights are all in the program: buffers hold at least the
		 * parameters (norm and bias vectors aside) */
		CHECK(bench_program_bytes(&p.prog) >= 4 * 0.99 * c.params);
		check_invariants(&p.prog, file);
		model_program_free(&p);
	}
	done(&b);
}

static void precisions(void)
{
	CHECK(bench_precision_core(BENCH_BF16) == PREC_BF16);
	CHECK(bench_precision_of(PREC_FP8) == BENCH_FP8_E4M3);
	CHECK(bench_precision_of(PREC_FP64_TENSOR) == 0);
	for (int p = BENCH_FP64; p <= BENCH_FP8_E4M3; p++)
		CHECK(bench_precision_of(bench_precision_core(p)) == (enum bench_precision)p);
}

int main(void)
{
	tiny_cnn();
	matches_model("resnet-50.yaml", 0, 4);
	matches_model("vit-b-16.yaml", 0, 2);
	matches_model("bert-base.yaml", 128, 2);
	matches_model("yolo-inspect-640.yaml", 0, 1);
	matches_model("llama-2-7b.yaml", 256, 1);
	precisions();
	return check_summary("model_program");
}

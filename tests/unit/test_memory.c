/*
 * Memory per GPU and training FLOPs, against hand-computed figures.
 * Formulas: ZeRO (Rajbhandari et al. 2020) for model state; Korthikanti et
 * al. 2022 for transformer activations (both as summarised in
 * ../shared/reference/facts.md); KV cache per token from facts.md.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "model/memory.h"

static const double PSI = 6738415616.0;	/* Llama-2-7B parameters */

static bool load(const char *file, long seq, struct model *m,
		 struct model_graph *g)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/profiles/models/%s", GPUPLAN_SOURCE_DIR,
		 file);
	struct gp_errors e;
	gp_errors_init(&e);
	bool ok = model_load(m, path, &e) == 0 && model_build(m, seq, g, &e) == 0;
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	CHECK(ok);
	return ok;
}

static struct train_setup bf16_adamw(int zero, long dp)
{
	return (struct train_setup){PREC_BF16, OPTIMIZER_ADAMW, zero, dp, 1, 1, 1,
				    RECOMPUTE_SELECTIVE, 1, true, false, {0, 0, false}};
}

/* Model state of a 7B model, bf16 + AdamW, dp 64, under each ZeRO stage:
 * 2 + 2 + 12 bytes per parameter, sharded from stage 1 (optimizer), 2
 * (+ gradients) and 3 (+ weights). */
static void zero_stages(const struct model *m, const struct model_graph *g)
{
	const double want[4][3] = {
		{2 * PSI, 2 * PSI, 12 * PSI},
		{2 * PSI, 2 * PSI, 12 * PSI / 64},
		{2 * PSI, 2 * PSI / 64, 12 * PSI / 64},
		{2 * PSI / 64, 2 * PSI / 64, 12 * PSI / 64},
	};
	double last_total = 1e300;
	for (int z = 0; z <= 3; z++) {
		struct train_setup t = bf16_adamw(z, 64);
		struct memory_breakdown mb;
		memory_training(m, g, &t, &mb);
		CHECK_NEAR(mb.bytes[MEM_WEIGHTS], want[z][0], 1e-12);
		CHECK_NEAR(mb.bytes[MEM_GRADIENTS], want[z][1], 1e-12);
		CHECK_NEAR(mb.bytes[MEM_OPTIMIZER], want[z][2], 1e-12);
		CHECK(strstr(mb.how[MEM_OPTIMIZER], "12 B x") != NULL);
		/* more sharding never raises memory per GPU */
		CHECK(mb.total <= last_total);
		last_total = mb.total;
	}
	/* ZeRO-3 on one GPU shards nothing */
	struct train_setup one = bf16_adamw(3, 1);
	struct memory_breakdown mb;
	memory_training(m, g, &one, &mb);
	CHECK_NEAR(mb.bytes[MEM_WEIGHTS], 2 * PSI, 1e-12);
}

/* Korthikanti et al., with the constant 34 generalised to a SwiGLU FFN:
 * 15 + 3 + 8 f / h = 18 + 8 x 11008 / 4096 = 39.5.  s = 4096, b = 1,
 * h = 4096, a = 32, L = 32, s b h = 16,777,216.
 * Llama 2 has no attention dropout, so the unfused scores keep only the
 * softmax output, 2 a s / h (5 a s / h with dropout's mask and output).
 * none: s b h (39.5 + 2 a s / h) = 16,777,216 x 103.5 = 1,736,441,856 per
 * layer, x 32 = 55,566,139,392; selective: 39.5 s b h x 32 =
 * 21,206,401,024; full: 2 s b h x 32 = 1,073,741,824 plus one layer being
 * recomputed, 1,736,441,856.  Plus fp32 logits 4 s b V = 4 x 4096 x 32000
 * = 524,288,000.  With pp 4 the first stage (all 32 layers' worth under
 * 1F1B) outweighs the last (8 layers + logits). */
static void activations(const struct model *m, const struct model_graph *g)
{
	const double logits = 524288000.0;
	const struct { enum recompute r; long tp, pp; double want; } cases[] = {
		{RECOMPUTE_NONE, 1, 1, 55566139392.0 + logits},
		{RECOMPUTE_SELECTIVE, 1, 1, 21206401024.0 + logits},
		{RECOMPUTE_FULL, 1, 1, 1073741824.0 + 1736441856.0 + logits},
		{RECOMPUTE_NONE, 2, 1, (55566139392.0 + logits) / 2},
		{RECOMPUTE_SELECTIVE, 1, 4, 21206401024.0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct train_setup t = bf16_adamw(0, 1);
		t.recompute = cases[i].r;
		t.tp = cases[i].tp;
		t.pp = cases[i].pp;
		struct memory_breakdown mb;
		memory_training(m, g, &t, &mb);
		CHECK_NEAR(mb.bytes[MEM_ACTIVATIONS], cases[i].want, 1e-12);
	}
}

static void state_variants(const struct model *m, const struct model_graph *g)
{
	/* fp32 + SGD with momentum: 4 + 4 + 4 bytes per parameter. */
	struct train_setup t = {PREC_FP32, OPTIMIZER_SGD, 0, 1, 1, 1, 1,
				RECOMPUTE_FULL, 1, true, false, {0, 0, false}};
	struct memory_breakdown mb;
	memory_training(m, g, &t, &mb);
	CHECK_NEAR(mb.bytes[MEM_WEIGHTS] + mb.bytes[MEM_GRADIENTS] +
			   mb.bytes[MEM_OPTIMIZER], 12 * PSI, 1e-12);
	/* tp 2 x pp 4 splits the parameters over 8 GPUs */
	struct train_setup s = bf16_adamw(0, 1);
	s.tp = 2;
	s.pp = 4;
	memory_training(m, g, &s, &mb);
	CHECK_NEAR(mb.bytes[MEM_WEIGHTS], 2 * PSI / 8, 1e-12);
	/* workspace: 1 GiB + 10% of the rest */
	double rest = mb.total - mb.bytes[MEM_WORKSPACE];
	CHECK_NEAR(mb.bytes[MEM_WORKSPACE], ceil(1073741824.0 + 0.1 * rest), 1e-12);
}

static void serving_tp(void)
{
	/* Llama-2-70B has 8 KV heads: at tp 16 each rank still holds one, so
	 * the cache divides by 8, not 16: 327,680 x 4096 / 8 per sequence. */
	struct model m;
	struct model_graph g;
	if (load("llama-2-70b.yaml", 4096, &m, &g)) {
		struct serve_setup s = {PREC_BF16, PREC_BF16, 1, 4096, 16};
		struct memory_breakdown mb;
		memory_serving(&m, &g, &s, &mb);
		CHECK_NEAR(mb.bytes[MEM_KV_CACHE], 327680.0 * 4096 / 8, 1e-12);
	}
	model_graph_free(&g);
	model_free(&m);
}

static void serving(const struct model *m, const struct model_graph *g)
{
	/* facts.md: Llama-2-7B KV cache in fp16 is 2 x 32 x 4096 x 2 =
	 * 524,288 bytes per token. */
	CHECK(kv_cache_bytes_per_token(m, 2) == 524288);
	struct serve_setup s = {PREC_INT8, PREC_BF16, 8, 4096, 1};
	struct memory_breakdown mb;
	memory_serving(m, g, &s, &mb);
	CHECK_NEAR(mb.bytes[MEM_WEIGHTS], PSI, 1e-12);		/* 1 byte each */
	CHECK_NEAR(mb.bytes[MEM_KV_CACHE], 524288.0 * 4096 * 8, 1e-12);
	CHECK(mb.bytes[MEM_GRADIENTS] == 0 && mb.bytes[MEM_OPTIMIZER] == 0);
}

static void training_flops(const struct model_graph *g)
{
	struct model_cost c;
	model_cost(g, 4, 2, &c);
	CHECK_NEAR(training_flops_per_step(g, &c, RECOMPUTE_NONE, 4),
		   3 * c.flops_per_step, 1e-12);
	CHECK_NEAR(training_flops_per_step(g, &c, RECOMPUTE_FULL, 4),
		   4 * c.flops_per_step, 1e-12);
	double sel = training_flops_per_step(g, &c, RECOMPUTE_SELECTIVE, 4);
	CHECK(sel > 3 * c.flops_per_step && sel < 4 * c.flops_per_step);
}

static void gqa(void)
{
	/* Llama-2-70B: 2 x 80 layers x 8 KV heads x 128 x 2 bytes = 327,680. */
	struct model m;
	struct model_graph g;
	if (load("llama-2-70b.yaml", 128, &m, &g))
		CHECK(kv_cache_bytes_per_token(&m, 2) == 327680);
	model_graph_free(&g);
	model_free(&m);
}

static void graph_model(void)
{
	/* A CNN keeps op outputs: full recomputation keeps fewer than
	 * selective, which keeps fewer than none; no KV cache. */
	struct model m;
	struct model_graph g;
	if (!load("resnet-50.yaml", 0, &m, &g))
		return;
	double act[3];
	for (int r = 0; r < 3; r++) {
		struct train_setup t = {PREC_BF16, OPTIMIZER_SGD, 0, 1, 1, 1, 32,
					(enum recompute)r, 1, true, false, {0, 0, false}};
		struct memory_breakdown mb;
		memory_training(&m, &g, &t, &mb);
		act[r] = mb.bytes[MEM_ACTIVATIONS];
		CHECK(mb.bytes[MEM_KV_CACHE] == 0);
		/* SGD, mixed precision: 2 + 2 + 8 bytes per parameter */
		CHECK_NEAR(mb.bytes[MEM_OPTIMIZER], 8 * 25557032.0, 1e-12);
	}
	CHECK(act[RECOMPUTE_FULL] < act[RECOMPUTE_NONE]);
	CHECK(act[RECOMPUTE_SELECTIVE] < act[RECOMPUTE_NONE]);
	CHECK(kv_cache_bytes_per_token(&m, 2) == 0);
	model_graph_free(&g);
	model_free(&m);
}

/* Full recomputation on a graph keeps each checkpoint unit's output plus
 * the largest unit's working set: for tests/cli/data/small-graph.yaml
 * (units: conv+relu, the residual, the pool, the flatten, the linear):
 * outputs kept 256 (relu) + 256 (add) + 4 (pool) + 2 (linear) = 518
 * (flatten is a view), largest unit conv+relu = 512: 1,030 elements. */
static void graph_full_recompute(void)
{
	struct model m;
	struct model_graph g;
	struct gp_errors e;
	gp_errors_init(&e);
	char path[512];
	snprintf(path, sizeof(path), "%s/tests/cli/data/small-graph.yaml",
		 GPUPLAN_SOURCE_DIR);
	bool ok = model_load(&m, path, &e) == 0 && model_build(&m, 0, &g, &e) == 0;
	CHECK(ok);
	if (ok) {
		struct train_setup t = {PREC_BF16, OPTIMIZER_SGD, 0, 1, 1, 1, 1,
					RECOMPUTE_FULL, 1, true, false, {0, 0, false}};
		struct memory_breakdown mb;
		memory_training(&m, &g, &t, &mb);
		CHECK_NEAR(mb.bytes[MEM_ACTIVATIONS], 1030.0 * 2, 1e-12);
	}
	gp_errors_free(&e);
	model_graph_free(&g);
	model_free(&m);
}

int main(void)
{
	struct model m;
	struct model_graph g;
	if (load("llama-2-7b.yaml", 4096, &m, &g)) {
		zero_stages(&m, &g);
		activations(&m, &g);
		state_variants(&m, &g);
		serving(&m, &g);
		training_flops(&g);
	}
	model_graph_free(&g);
	model_free(&m);
	gqa();
	serving_tp();
	graph_model();
	graph_full_recompute();
	return check_summary("memory");
}

/*
 * test_matrix_eff.c - the shape factor of matrix ops (src/hwmodel/matrix_eff.h)
 * against cases worked by hand with the default curve: candidate tiles
 * 16..256 a side, at most 256 x 128, thinner than 64x64's reuse slowed in
 * proportion (reuse mt nt / (mt + nt), 32 for 64x64), k / (k + 64).
 */
#include "check.h"
#include "hwmodel/efficiency.h"
#include "hwmodel/matrix_eff.h"

static struct matrix_eff def;

/* NVIDIA's example (Matrix Multiplication Background guide): a 1792 x
 * 1792 output in 256x128 tiles is 7 x 14 = 98 tiles, one wave on the 108
 * SMs of an A100 with 10 idle.  Every smaller tile gives the same share
 * (1792 is a multiple of 256 and 128), so the largest is kept. */
static void guide_example(void)
{
	struct gemm_fit f;
	double s = matrix_eff_gemm(&def, MATRIX_GEMM, 1792, 1792, 4096, 1, 108,
				   &f);
	CHECK(f.tile_m == 256 && f.tile_n == 128);
	CHECK_NEAR(f.tiles, 98, 0);
	CHECK_NEAR(f.waves, 1, 0);
	CHECK_NEAR(f.tile_eff, 1, 0);
	CHECK_NEAR(f.wave_eff, 98.0 / 108, 1e-15);
	CHECK_NEAR(f.k_eff, 4096.0 / 4160, 1e-15);
	CHECK_NEAR(s, 98.0 / 108 * 4096 / 4160, 1e-12);
}

/*
 * Tile quantization: one row more, 1793 x 1792.  256x128 tiles need 8
 * rows of tiles (the last 1/256 full): 112 tiles, two waves, 45% busy.
 * 128x256 tiles: 15 x 7 = 105 tiles in one wave, 1793/1920 of the padded
 * rows used: 0.93385 x 105/108 = 0.9079, which 128x128 (210 tiles, two
 * waves) only ties.
 */
static void tile_quantization(void)
{
	struct gemm_fit f;
	matrix_eff_gemm(&def, MATRIX_GEMM, 1793, 1792, 4096, 1, 108, &f);
	CHECK(f.tile_m == 128 && f.tile_n == 256);
	CHECK_NEAR(f.tiles, 105, 0);
	CHECK_NEAR(f.waves, 1, 0);
	CHECK_NEAR(f.tile_eff, 1793.0 / 1920, 1e-15);
	CHECK_NEAR(f.wave_eff, 105.0 / 108, 1e-15);
	/* the 256x128 tiling, which the model does not pick, by hand */
	double padded = 1793.0 * 1792 / (8 * 256 * 14 * 128);
	CHECK(padded * 112 / 216 < f.tile_eff * f.wave_eff);
}

/*
 * A large GEMM reaches the ceiling: 27648 x 4096 is 108 x 32 tiles of
 * 256x128, 32 full waves on 108 SMs; with k = 65472 the reduction term is
 * 65472 / 65536, so the op runs at 0.8 x 0.99902 of the peak.
 */
static void large_gemm(void)
{
	struct efficiency e;
	efficiency_default(&e);
	struct gemm_fit f;
	double s = matrix_eff_gemm(&e.matrix, MATRIX_GEMM, 27648, 4096, 65472,
				   1, 108, &f);
	CHECK(f.tile_m == 256 && f.tile_n == 128);
	CHECK_NEAR(f.tiles, 3456, 0);
	CHECK_NEAR(f.waves, 32, 0);
	CHECK_NEAR(f.wave_eff, 1, 0);
	CHECK_NEAR(s, 65472.0 / 65536, 1e-15);
	CHECK_NEAR(e.compute, 0.80, 0);
	CHECK(fabs(e.compute * s - e.compute) < 0.001 * e.compute);
}

/* Short reductions: k = 64 runs at half the large-GEMM rate, 128 (an
 * attention head) at two thirds, 16 at a fifth; longer is never slower. */
static void small_k(void)
{
	double m = 27648, n = 4096;
	CHECK_NEAR(matrix_eff_gemm(&def, MATRIX_GEMM, m, n, 64, 1, 108, NULL),
		   0.5, 1e-15);
	CHECK_NEAR(matrix_eff_gemm(&def, MATRIX_ATTENTION, m, n, 128, 1, 108,
				   NULL), 2.0 / 3, 1e-15);
	CHECK_NEAR(matrix_eff_gemm(&def, MATRIX_GEMM, m, n, 16, 1, 108, NULL),
		   0.2, 1e-15);
	double last = 0;
	for (double k = 8; k <= 65536; k *= 2) {
		double s = matrix_eff_gemm(&def, MATRIX_GEMM, m, n, k, 1, 108,
					   NULL);
		CHECK(s > last);
		last = s;
	}
}

/*
 * Thin micro-batches.  128 tokens (micro-batch 1 at sequence 128) through
 * a 4096 x 4096 layer on 108 SMs: 128x128 tiles make 32 tiles (30% of the
 * SMs); 128x64 make 64 in one wave, 64/108 busy, the best any tile does:
 * 0.5835 of the ceiling with k 4096 / 4160.  One token (a decode step):
 * 16x64 tiles (the thinnest side, 16, padded from 1), 64 tiles in one wave,
 * 1/16 of each used, at 12.8/32 for the 16-wide tile's reuse.
 */
static void thin_micro_batch(void)
{
	struct gemm_fit f;
	double s = matrix_eff_gemm(&def, MATRIX_GEMM, 128, 4096, 4096, 1, 108,
				   &f);
	CHECK(f.tile_m == 128 && f.tile_n == 64);
	CHECK_NEAR(f.tiles, 64, 0);
	CHECK_NEAR(f.waves, 1, 0);
	CHECK_NEAR(s, 64.0 / 108 * 4096 / 4160, 1e-12);
	double large = matrix_eff_gemm(&def, MATRIX_GEMM, 27648, 4096, 4096,
				       1, 108, NULL);
	CHECK(s < 0.65 * large);

	s = matrix_eff_gemm(&def, MATRIX_GEMM, 1, 4096, 4096, 1, 108, &f);
	CHECK(f.tile_m == 16 && f.tile_n == 64);
	CHECK_NEAR(f.reuse_eff, 0.4, 1e-15);
	CHECK_NEAR(s, 64.0 / 108 * 0.4 / 16 * 4096 / 4160, 1e-12);
	CHECK(s < 0.02);
	/* more tokens never lower the shape factor of this layer */
	double last = 0;
	for (double m = 1; m <= 65536; m *= 2) {
		double x = matrix_eff_gemm(&def, MATRIX_GEMM, m, 4096, 4096, 1,
					   108, NULL);
		CHECK(x >= last - 1e-12);
		last = x;
	}
}

/* SMs: the catalog's, a MIG slice's share of them, or the default. */
static void sm_counts(void)
{
	struct accelerator a = {0};
	a.sms = 108;
	CHECK(matrix_eff_sms(&def, &a, 1) == 108);
	CHECK(matrix_eff_sms(&def, &a, 1.0 / 7) == 15);
	CHECK(matrix_eff_sms(&def, &a, 3.0 / 7) == 46);
	CHECK(matrix_eff_sms(&def, &a, 1e-6) == 1);
	a.sms = 0;
	CHECK(matrix_eff_sms(&def, &a, 1) == 108);
	/* fewer SMs, fewer waves: 98 tiles on 40 SMs take 3 waves */
	struct gemm_fit f;
	matrix_eff_gemm(&def, MATRIX_GEMM, 1792, 1792, 4096, 1, 40, &f);
	CHECK_NEAR(f.wave_eff * f.tile_eff * f.reuse_eff,
		   1792.0 * 1792 / (f.waves * 40 * f.tile_m * f.tile_n), 1e-12);
}

/* Built ops carry their GEMMs; the op's factor applies batch and share. */
static void ops(void)
{
	struct op o = {0};
	o.kind = OP_LINEAR;
	o.in = (struct shape){SHAPE_SEQ, {128, 4096, 0}};
	o.out = (struct shape){SHAPE_SEQ, {128, 11008, 0}};
	o.p.out = 11008;
	op_cost(&o, 0);
	CHECK(o.n_gemm == 1);
	CHECK(o.gemm[0].m == 128 && o.gemm[0].n == 11008 &&
	      o.gemm[0].k == 4096 && o.gemm[0].count == 1);
	/* batch 4 stacks rows; tensor parallel over 2 halves the columns */
	CHECK_NEAR(matrix_eff_op(&def, &o, 4, 0.5, 108),
		   matrix_eff_gemm(&def, MATRIX_GEMM, 512, 5504, 4096, 1, 108,
				   NULL), 1e-15);
	o.gemm[0].split = GEMM_SPLIT_K;		/* a row-parallel layer */
	CHECK_NEAR(matrix_eff_op(&def, &o, 4, 0.5, 108),
		   matrix_eff_gemm(&def, MATRIX_GEMM, 512, 11008, 2048, 1, 108,
				   NULL), 1e-15);

	/* attention, 32 heads of 128 over 2048 tokens: scores 2048 x 2048
	 * over k 128, values 2048 x 128 over k 2048, 32 x batch products
	 * each; equal FLOPs, so the harmonic mean of the two */
	struct op a = {0};
	a.kind = OP_ATTENTION;
	a.in = (struct shape){SHAPE_SEQ, {2048, 3 * 4096, 0}};
	a.out = (struct shape){SHAPE_SEQ, {2048, 4096, 0}};
	a.p.heads = 32;
	op_cost(&a, 0);
	CHECK(a.n_gemm == 2);
	double e0 = matrix_eff_gemm(&def, MATRIX_ATTENTION, 2048, 2048, 128,
				    64, 108, NULL);
	double e1 = matrix_eff_gemm(&def, MATRIX_ATTENTION, 2048, 128, 2048,
				    64, 108, NULL);
	/* thousands of tiles: waves all but full; k 128 */
	CHECK(e0 <= 2.0 / 3 && e0 > 0.995 * 2 / 3);
	CHECK_NEAR(matrix_eff_op(&def, &a, 2, 1, 108),
		   2 / (1 / e0 + 1 / e1), 1e-12);

	/* a 3x3 convolution, 64 -> 128 channels at 56 x 56: an implicit
	 * GEMM of 3136 pixels x 128 channels over 64 x 9 */
	struct op c = {0};
	c.kind = OP_CONV;
	c.in = (struct shape){SHAPE_IMAGE, {64, 56, 56}};
	c.out = (struct shape){SHAPE_IMAGE, {128, 56, 56}};
	c.p = (struct op_params){.out = 128, .kernel = 3, .stride = 1,
				 .padding = 1, .groups = 1};
	op_cost(&c, 0);
	CHECK(c.n_gemm == 1 && c.gemm[0].m == 3136 && c.gemm[0].n == 128 &&
	      c.gemm[0].k == 576 && c.gemm[0].count == 1);

	/* ops without matrix products: 1 */
	struct op r = {0};
	r.kind = OP_RELU;
	r.in = r.out = (struct shape){SHAPE_VEC, {4096, 0, 0}};
	op_cost(&r, 0);
	CHECK(r.n_gemm == 0 && matrix_eff_op(&def, &r, 8, 1, 108) == 1);
}

/* A fitted curve replaces the default through the same struct. */
static void replaced(void)
{
	struct matrix_eff fit = def;
	CHECK(matrix_eff_equal(&fit, &def));
	fit.curve[MATRIX_ATTENTION].scale = 0.5;
	CHECK(!matrix_eff_equal(&fit, &def));
	CHECK_NEAR(matrix_eff_gemm(&fit, MATRIX_ATTENTION, 27648, 4096, 64, 1,
				   108, NULL), 0.25, 1e-15);
	CHECK_NEAR(matrix_eff_gemm(&fit, MATRIX_GEMM, 27648, 4096, 64, 1, 108,
				   NULL), 0.5, 1e-15);
}

int main(void)
{
	matrix_eff_default(&def);
	guide_example();
	tile_quantization();
	large_gemm();
	small_k();
	thin_micro_batch();
	sm_counts();
	ops();
	replaced();
	return check_summary("matrix_eff");
}

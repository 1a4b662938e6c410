/*
 * matrix_eff.h - how much of the large-GEMM ceiling one matrix op reaches,
 * from its GEMM shape and the accelerator's SM count.
 *
 * A GPU library (cuBLAS, cuDNN) splits a GEMM's m x n output into tiles,
 * one per thread block, and runs the tiles in waves over the SMs, each
 * tile stepping through the k reduction (NVIDIA, "Matrix Multiplication
 * Background User's Guide").  Three things keep a product below the rate
 * a large, well-shaped GEMM sustains:
 *   tile quantization  a dimension that is not a multiple of the tile
 *                      leaves the last row or column of tiles partly
 *                      empty, computed all the same;
 *   wave quantization  a tile count that is not a multiple of the SMs
 *                      leaves SMs idle in the last wave;
 *   short reductions   a tile's fixed cost (filling the pipeline, writing
 *                      the output tile) is spread over only k steps.
 * So, for one GEMM,
 *
 *   shape = scale x tile_eff x wave_eff x reuse_eff x k / (k + k_overhead)

 * where reuse_eff charges tiles too thin to reuse their operands well (a
 * library picks smaller tiles when large ones leave SMs idle, at that
 * cost; the best candidate is taken).
 *
 * and an op's matrix time is its FLOPs / (peak x ceiling x shape), where
 * the ceiling (struct efficiency's `compute`) is the fraction of the dense
 * peak cuBLAS sustains on large GEMMs.  An op of two products (attention:
 * scores, then values) runs at the FLOP-weighted harmonic mean of the two.
 *
 * The parameters are a struct so that a fitted curve (`gpuplan fit` on
 * measured GEMMs) can replace the defaults: struct efficiency carries one,
 * and everything that times matrix work reads it from there.
 */
#ifndef GPUPLAN_HWMODEL_MATRIX_EFF_H
#define GPUPLAN_HWMODEL_MATRIX_EFF_H

#include <stdbool.h>

#include "catalog/catalog.h"
#include "model/op.h"

/* The op classes the curve tells apart. */
enum matrix_class { MATRIX_GEMM, MATRIX_ATTENTION, MATRIX_CLASSES };

struct matrix_curve {
	double scale;		/* multiplies the shape factor (1: none) */
	double k_overhead;	/* reduction elements a tile's fixed cost
				 * is worth: k = k_overhead runs at half */
};

struct matrix_eff {
	/* Candidate output tiles: sides powers of two from tile_min to
	 * tile_long, at most tile_long x tile_short in area (256 x 128).  A
	 * tile reuses each operand element over its other side; tiles whose
	 * reuse, mt nt / (mt + nt), is below that of a tile_ref x tile_ref
	 * tile run that much slower.  The library is taken to pick the
	 * candidate that finishes first (the larger on a tie). */
	long tile_long, tile_short, tile_min, tile_ref;
	/* SMs of a part whose catalog entry has no `sms:` */
	long default_sms;
	struct matrix_curve curve[MATRIX_CLASSES];
	/* > 0: a measured device (`plan --profile`, calibration.h), whose
	 * GEMMs follow its own fitted curve instead of the tiles above:
	 * shape = h / (h + measured_half_n) for h the harmonic mean of m, n
	 * and k (the side a square GEMM of the same operand reuse would
	 * have: a thin side limits reuse as it does in the square case; an
	 * assumption).  0: the tile model. */
	double measured_half_n;
	const char *from;	/* provenance, for the plan */
};

void matrix_eff_default(struct matrix_eff *p);
/* Whether a and b give every op the same shape factor (`from` aside). */
bool matrix_eff_equal(const struct matrix_eff *a, const struct matrix_eff *b);

/* How one GEMM falls on the GPU, for tests and reports. */
struct gemm_fit {
	long tile_m, tile_n;	/* the tile chosen */
	double tiles, waves;	/* tiles in all, waves of `sms` */
	double tile_eff, wave_eff, k_eff;
	double reuse_eff;	/* the tile's rate for its operand reuse */
	double shape;		/* scale x the four */
};

/*
 * The shape factor, in (0, 1], of `count` GEMMs of m x n x k on `sms` SMs
 * (m, n, k, count >= 1; sms >= 1), with the curve of class c.  detail may
 * be NULL.  Of the candidate tiles, the one that finishes first.
 */
double matrix_eff_gemm(const struct matrix_eff *p, enum matrix_class c,
		       double m, double n, double k, double count, long sms,
		       struct gemm_fit *detail);

/*
 * The shape factor of op o for `batch` samples with tensor-parallel share
 * `share` (1/tp) on `sms` SMs; 1 for an op without matrix products.
 */
double matrix_eff_op(const struct matrix_eff *p, const struct op *o,
		     long batch, double share, long sms);

/*
 * A model repeats the same products layer after layer: a memo of the
 * shape factors already worked out for one pass over a graph (one batch,
 * share and SM count).  Zero it (= {0}) before each pass.
 */
#define MATRIX_EFF_MEMO 32

struct matrix_eff_memo {
	int n;
	struct {
		int cls;	/* enum op_class */
		int n_gemm;
		struct gemm_dims g[OP_MAX_GEMMS];
		double factor;
	} v[MATRIX_EFF_MEMO];
};

/* matrix_eff_op() through the memo: the same for an op whose products
 * were seen before in this pass. */
double matrix_eff_op_memo(struct matrix_eff_memo *memo,
			  const struct matrix_eff *p, const struct op *o,
			  long batch, double share, long sms);

/* The SMs `fraction` of accelerator a has (a MIG slice: its share), at
 * least 1; default_sms where the catalog does not say. */
long matrix_eff_sms(const struct matrix_eff *p, const struct accelerator *a,
		    double fraction);

#endif

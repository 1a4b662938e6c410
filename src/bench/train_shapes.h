/*
 * train_shapes.h - the matrix products a training step of a model runs on
 * one GPU, at one micro-batch and tensor-parallel degree: what the
 * train-gemm suite times (and overlap and spread reuse), read from the
 * built graph's own GEMM dimensions (model/op.h: struct gemm_dims).
 *
 * Each linear layer (and each convolution, as its implicit GEMM) is one
 * product Y = X W^T of `tokens` rows (micro-batch x the op's rows per
 * sample), `in` input and `out` output features, after tensor parallelism
 * divides the side its split names (out for column-parallel layers, in
 * for row-parallel ones).  A training step runs three GEMMs per product:
 *   forward   Y  = X W^T     tokens x out, reduced over in
 *   dgrad     dX = dY W      tokens x in, reduced over out
 *   wgrad     dW = dY^T X    out x in, reduced over tokens
 * each of 2 x tokens x in x out FLOPs.  As a framework calls them from
 * row-major tensors, cuBLAS (column-major) gets
 *   forward   m = out, n = tokens, k = in      A = W transposed (T), B = X (N)
 *   dgrad     m = in,  n = tokens, k = out     A = W (N), B = dY (N)
 *   wgrad     m = in,  n = out,    k = tokens  A = X (N), B = dY transposed (T)
 * the TN, NN and NT layouts (the output's transpose is the row-major
 * result, so nothing is copied).  An fp8 GEMM has one layout in cuBLASLt,
 * TN; frameworks transpose fp8 operands to reach it, and so is it timed.
 *
 * Attention's score and value products are not here: they run as fused
 * attention kernels (FlashAttention and its kin), not cuBLAS GEMMs, and
 * the layer suite times them in place.  Products of more than one GEMM
 * (grouped convolutions) are left out and counted.
 *
 * Distinct products, largest forward FLOPs first, are kept until they
 * carry TRAIN_SHAPES_COVER of the model's GEMM FLOPs, at most
 * TRAIN_SHAPES_MAX of them: the rest (an output head, a pooler) are
 * counted in `left` and `total - covered`.
 *
 * Ownership: plain data.
 */
#ifndef GPUPLAN_BENCH_TRAIN_SHAPES_H
#define GPUPLAN_BENCH_TRAIN_SHAPES_H

#include <stdbool.h>
#include <stddef.h>

#include "model/graph.h"

#define TRAIN_SHAPES_MAX 6
#define TRAIN_SHAPES_COVER 0.95

enum train_role { TRAIN_FORWARD, TRAIN_DGRAD, TRAIN_WGRAD, TRAIN_ROLES };

/* "forward", "dgrad", "wgrad". */
const char *train_role_name(enum train_role r);

/* One distinct product of the model. */
struct train_product {
	long tokens, in, out;	/* after the micro-batch and tp */
	long occurrences;	/* ops of the forward pass that run it */
	double flops;		/* forward: 2 tokens in out x occurrences */
	char label[64];		/* its first op's: "layer 0 ffn gate" */
};

/* One GEMM as cuBLAS is called with it (above). */
struct train_gemm {
	long m, n, k;
	bool trans_a, trans_b;	/* A stored k x m; B stored n x k */
};

struct train_shapes {
	struct train_product v[TRAIN_SHAPES_MAX];
	size_t n;
	double covered, total;	/* forward GEMM FLOPs of those kept, of all */
	size_t left;		/* distinct products not kept */
};

/* The GEMM of product p in role r; fp8: every role in TN. */
void train_gemm_of(const struct train_product *p, enum train_role r,
		   bool fp8, struct train_gemm *out);

/*
 * The products of g at micro_batch samples (>= 1) and tensor-parallel
 * degree tp (>= 1), chosen as above.  0, or -1 with why when the graph has
 * no GEMM to time or tp does not divide a split side into whole features.
 */
int train_shapes_of(const struct model_graph *g, long micro_batch, long tp,
		    struct train_shapes *out, char *why, size_t len);

#endif

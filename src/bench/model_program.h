/*
 * model_program.h - lowers a built model graph at one batch size to a
 * program of kernels (program_abi.h) that `gpuplan bench --model` runs on
 * the CPU or a GPU.
 *
 * The program is a forward pass that keeps every activation (as a training
 * step keeps them for its backward pass), so its memory grows with the
 * batch and a sweep of batch sizes finds where the device runs out.  Each
 * op becomes the kernels that do its work:
 *   linear      one GEMM: (batch x tokens) x in times in x out;
 *   conv        an im2col gather (a STREAM over the unfolded input; skipped
 *               for 1x1 stride-1 unpadded convolutions, which need none) and
 *               one GEMM per group: (batch x out pixels) x (in/groups x
 *               kernel^2) times that x out/groups;
 *   attention   scores Q K^T and the product with V as batched GEMMs (one
 *               per sample and head) and a softmax (ROWNORM) between them;
 *               the S x S scores are materialised, as unfused attention
 *               does (the planner counts them the same way);
 *   layer/RMS norm, softmax    ROWNORM over the last dimension;
 *   batch norm  its inference form, a STREAM x * scale + shift;
 *   activations, add, mul, pools, upsample, concat, embeddings   one
 *               STREAM writing the op's output (reads are counted as the
 *               output's size: a pool's window is not re-read);
 *   flatten, to_tokens, select_token   no kernel when the output fits in
 *               the input's buffer (a reshape), else a STREAM copy.
 * Biases are not added (a bias is m x n FLOPs next to a GEMM's 2mnk).
 * An op reads the most recent activation buffer of its input's size, so
 * branches (a residual's shortcut, concat inputs) read the right tensors.
 *
 * Ownership: struct model_program owns its arrays; prog points into them.
 * Free with model_program_free.
 */
#ifndef GPUPLAN_BENCH_MODEL_PROGRAM_H
#define GPUPLAN_BENCH_MODEL_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "bench/program_abi.h"
#include "core/precision.h"
#include "model/graph.h"

struct model_program {
	struct bench_program prog;	/* what executors run */
	uint64_t *buffers;		/* elements per buffer */
	size_t n_buffers, cap_buffers;
	struct bench_kernel *kernels;
	size_t n_kernels, cap_kernels;
	size_t n_weight_buffers;	/* buffers holding weights (the first ones) */
};

/*
 * Lowers g at `batch` samples (>= 1) and `precision`.  Returns 0, or -1
 * with why when a size overflows what a program can hold (2^50 elements in
 * a buffer) or an op's input has no buffer (a graph the builder should
 * not have produced).
 */
int model_program_build(const struct model_graph *g, long batch,
			enum bench_precision precision,
			struct model_program *out, char *why, size_t len);

void model_program_free(struct model_program *p);

/* FLOPs the program executes: 2*m*n*k*count per GEMM, elements x flops
 * per STREAM, rows x cols x flops per ROWNORM. */
double bench_program_flops(const struct bench_program *p);

/* Bytes of its buffers at its precision. */
double bench_program_bytes(const struct bench_program *p);

/* The ABI's precision numbering to and from core/precision.h's, where
 * names and element sizes live.  bench_precision_of returns 0 for a
 * precision the bench has no kernels for (fp64_tensor). */
enum precision bench_precision_core(enum bench_precision p);
enum bench_precision bench_precision_of(enum precision p);

#endif

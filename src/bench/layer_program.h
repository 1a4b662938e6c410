/*
 * layer_program.h - one transformer layer's forward and backward pass at
 * one micro-batch, as a program (program_abi.h): what the layer suite
 * times.
 *
 * The forward part is the model suite's own lowering (model_program.h) of
 * the ops of the model's first layer (labels "layer 0 ..."; every layer
 * of a transformer is the same), the whole layer on one GPU (no tensor
 * parallelism).  The backward part follows it, kernel by kernel in
 * reverse, each forward kernel's gradients written to new buffers (a
 * program is single-assignment):
 *   GEMM C = op(A) op(B)   dA = dC op(B)^T for an activation A (the data
 *                          gradient), dB = op(A)^T dC for a weight B (the
 *                          weight gradient), and both ways for a product
 *                          of two activations (attention's); each 2mnk
 *                          FLOPs like the forward GEMM;
 *   STREAM (an add)        the gradient passes to both inputs unchanged;
 *   STREAM (anything else) one pass per activation input, reading the
 *                          output's gradient and the saved other input
 *                          (an activation's derivative, a product's),
 *                          writing the input's gradient: memory traffic;
 *   ROWNORM                a ROWNORM over the output's gradient: the
 *                          norm's (and softmax's) backward as its traffic
 *                          and row reductions.
 * A tensor whose gradient arrives from two places (the residual stream,
 * the Q/K/V buffer) sums them in a STREAM.  The pass starts from a
 * gradient buffer for the layer's output, filled like every input, and
 * ends with the gradient of the layer's input.
 *
 * Ownership: out owns its arrays (model_program_free).
 */
#ifndef GPUPLAN_BENCH_LAYER_PROGRAM_H
#define GPUPLAN_BENCH_LAYER_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/model_program.h"

/* Whether g has a transformer layer (ops labelled "layer 0 ..."). */
bool layer_program_has_layer(const struct model_graph *g);

/*
 * The first layer of g at micro_batch samples: 0 with out (forward then
 * backward) and *forward_kernels (how many of its kernels are the forward
 * part), or -1 with why when g has no "layer 0" ops or a product cannot be
 * differentiated as a program (a weight shared by several products).
 */
int layer_program_build(const struct model_graph *g, long micro_batch,
			enum bench_precision precision,
			struct model_program *out, size_t *forward_kernels,
			char *why, size_t len);

#endif

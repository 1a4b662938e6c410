/*
 * train_suite.h - what the CPU and CUDA backends' training suites share:
 * the model's products for the run's micro-batch and tp (train_shapes.h)
 * with a note of what they cover, and the figures' names and parameters.
 *
 *   train-gemm  per product, largest first, its forward, dgrad and wgrad
 *               GEMMs: "bf16 forward m=11008 n=4096 k=4096"
 *   overlap     the largest product's forward GEMM alone and beside a
 *               collective: "bf16 m=11008 n=4096 k=4096 alone", "...
 *               beside allreduce" (a d2d copy on one GPU, a memcpy thread
 *               on the CPU)
 *   spread      that GEMM on each GPU: "bf16 m=11008 n=4096 k=4096 gpu 3"
 *   layer       the first layer forward and backward: "bf16 layer 0
 *               fwd+bwd batch 1"
 * Each figure records the micro-batch and sequence length (batch, seq);
 * train-gemm figures their product's occurrences.
 *
 * Ownership: figures go to the caller's list.
 */
#ifndef GPUPLAN_BENCH_TRAIN_SUITE_H
#define GPUPLAN_BENCH_TRAIN_SUITE_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/backend.h"
#include "bench/train_shapes.h"
#include "profile/figure.h"

/* The collective's size beside the overlap suite's GEMM: large enough
 * that an all-reduce runs at its bus bandwidth, not its latency. */
#define TRAIN_OVERLAP_BYTES (64ULL << 20)

/* The products of o's model (o->micro_batch, o->tp) into s, and a note in
 * out saying how much of the model's GEMM work they carry.  0, or -1 with
 * why (train_shapes_of). */
int train_suite_shapes(const struct bench_run_options *o,
		       struct train_shapes *s, struct bench_figures *out,
		       char *why, size_t len);

/* A figure of `suite` for product p's GEMM in role r at precision name
 * `prec` (fp8: the TN layout), named as above with `suffix` ("" for
 * train-gemm; "alone", "beside allreduce", "gpu 3" for the others, which
 * leave the role out of the name).  Fills g with the GEMM as called. */
void train_suite_figure(struct bench_figure *f, const char *suite,
			const char *prec, const struct train_product *p,
			enum train_role r, const char *suffix,
			const struct bench_run_options *o, struct train_gemm *g);

/* The sequence length o's model was built for (0: not a sequence model). */
long train_suite_seq(const struct bench_run_options *o);

#endif

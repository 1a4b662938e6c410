/*
 * serve_prep.h - the inside of struct serve_prep, shared by serve_prep.c
 * (which fills it) and serve.c (which reads it).  Not for other callers:
 * serve.h is the interface.
 */
#ifndef GPUPLAN_PLAN_SERVE_PREP_H
#define GPUPLAN_PLAN_SERVE_PREP_H

#include <stdbool.h>

#include "model/memory.h"
#include "serve.h"

/*
 * Assumption, not a measurement: the fixed start-up time of one
 * all-reduce within a node, of the order nccl-tests reports for small
 * messages over NVLink and PCIe (tens of microseconds at most).  It
 * matters for decode steps, whose messages are a few kilobytes.
 */
#define SERVE_ALLREDUCE_LATENCY 10e-6	/* s */

/* The ops of one peak class of one graph at one batch size, sorted by
 * arithmetic intensity, with prefix sums (serve_prep.c says why). */
struct op_curve {
	size_t n;
	double *x;		/* FLOPs per element, ascending; n entries */
	double *cf, *ce;	/* FLOPs and elements of ops [0, i); n + 1 */
};

/* One graph: per batch size 2^b, the matrix [0] and vector [1] ops. */
struct serve_pass {
	struct op_curve curve[SERVE_BATCHES][2];
};

struct serve_prep {
	const struct workload *w;
	bool decoder;		/* generates tokens: prefill + decode steps */
	bool transformer;	/* tensor parallelism applies */
	long prompt, output;	/* tokens per request (output 0 unless decoder) */
	long seq;		/* tokens per sample of the forward graph */
	long context;		/* tokens of KV cache held per sequence */
	enum precision kv_precision;
	double kv_per_token;	/* B of KV cache per token of context */
	struct serve_pass prefill;	/* or the one forward pass */
	struct serve_pass decode;	/* decoders only: seq 1 */
	/* memory_serving() totals, B per GPU: [element size 1, 2, 4, 8]
	 * [tp 2^t][batch 2^b] */
	double memory[4][SERVE_TPS][SERVE_BATCHES];
};

#endif

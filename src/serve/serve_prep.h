/*
 * serve_prep.h - the inside of struct serve_prep, shared by serve_prep.c
 * (which fills it) and serve.c (which reads it).  Not for other callers:
 * serve.h is the interface.
 */
#ifndef GPUPLAN_PLAN_SERVE_PREP_H
#define GPUPLAN_PLAN_SERVE_PREP_H

#include <stdbool.h>
#include <stdint.h>

#include "model/memory.h"
#include "serve.h"
#include "sim_stats.h"

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

/* One graph: per batch size 2^b, the vector ops (at the fp32 peak); and
 * its matrix ops, whose curves depend on the SMs and the tensor-parallel
 * degree too (struct serve_shaped). */
struct serve_pass {
	struct op_curve vector[SERVE_TOKENS];
	long kernels;		/* launched per pass: ops that move bytes or do
				 * FLOPs, less those fused into a convolution */
	struct op *mops;	/* copies of the graph's matrix ops */
	size_t n_mops;
};

/*
 * The matrix curves for one SM count: per pass (prefill, decode), tensor-
 * parallel degree 2^t and batch 2^b, each op's FLOPs divided by its shape
 * factor (matrix_eff.h), so that a curve's FLOPs over peak x ceiling is
 * its time.  Built the first time a device with that SM count asks.
 */
struct serve_shaped {
	long sms;
	struct op_curve curve[2][SERVE_TPS][SERVE_TOKENS];
};

struct serve_shapes {
	struct serve_shaped *sets;
	size_t n, cap;
	struct matrix_eff params;	/* the curve they were built with */
};

/*
 * Everything plan_inference() finds for one instance type except money
 * depends only on its hardware: the accelerator, the GPUs per instance and
 * the GPU-to-GPU link.  A large catalog repeats the same machine under
 * many names, regions and prices, so the options found for one hardware
 * signature are kept, before pricing, and reused for the next instance
 * with the same signature (serve.c prices and notes them per instance).
 */
struct serve_hw {
	uint64_t hash;			/* of the four fields below */
	const struct accelerator *acc;	/* NULL: an empty slot */
	int gpus;
	enum link_kind link;
	double link_bandwidth;		/* B/s, compared bit for bit */
	size_t first, n;		/* options [first, first + n) of the cache */
};

struct serve_cache {
	struct serve_hw *slots;	/* open addressing, linear probing */
	size_t cap, used;	/* cap: 0 or a power of two, at most half used */
	/* The options of every signature seen, unpriced, with the reasons
	 * that hold for any instance of that hardware. */
	struct plan_result options;
	/* the efficiencies they were found with; others empty the cache */
	double compute, memory, link;
	double graph_gap, stream_gap, stream_floor, iteration_host;
	struct matrix_eff matrix;
};

struct serve_prep {
	const struct workload *w;
	bool decoder;		/* generates tokens: prefill + decode steps */
	bool transformer;	/* tensor parallelism applies */
	long prompt, output;	/* tokens per request, the mean (output 0
				 * unless decoder) */
	long prompt_lo, prompt_hi, output_lo, output_hi;	/* their range */
	long seq;		/* tokens per sample of the forward graph */
	long context;		/* tokens of KV cache held per sequence */
	enum precision kv_precision;
	double kv_per_token;	/* B of KV cache per token of context */
	double params;		/* the model's parameters */
	double peak_elements;	/* elements live in the largest op, per
				 * sample of the prefill graph (memory.h) */
	double token_peak_elements;	/* the same in the repeated layers,
					 * per token (transformers) */
	struct serve_pass prefill;	/* or the one forward pass */
	struct serve_pass decode;	/* decoders only: seq 1 */
	/* memory_serving() totals, B per GPU: [element size 1, 2, 4, 8]
	 * [tp 2^t][batch 2^b] */
	double memory[4][SERVE_TPS][SERVE_BATCHES];
	struct serve_cache cache;	/* filled by plan_inference() */
	/* Filled as devices ask (serve_batch_time() takes sp const: this
	 * is a cache of what sp determines, not a change to it). */
	struct serve_shapes *shapes;
};

/*
 * The cached options for in's hardware found with efficiencies e, or NULL
 * when there are none yet (then plan_inference() finds them, appends them
 * to sp->cache.options and calls serve_cache_add()).  Options found with
 * other efficiencies are dropped first.
 */
const struct serve_hw *serve_cache_find(struct serve_prep *sp,
					const struct instance *in,
					const struct efficiency *e);
/* Records options [first, first + n) of sp->cache.options as those of
 * in's hardware and returns the record (valid until the next call). */
const struct serve_hw *serve_cache_add(struct serve_prep *sp,
				       const struct instance *in, size_t first,
				       size_t n);

/* One forward pass (pass 0: prefill, 1: decode) of 2^b samples on d, its
 * tensor-parallel share: the compute-bound and memory-bound time, s. */
void serve_pass_time(const struct serve_prep *sp, int pass, int b,
		     const struct serve_device *d, double *compute,
		     double *memory);

/* What launching the kernels of one pass (0: prefill, 1: decode) adds to
 * its roofline time r on d: in a CUDA graph or one by one from the host
 * (efficiency.h).  Counted as compute time. */
double serve_launch_time(const struct serve_prep *sp, int pass,
			 const struct serve_device *d, bool graph, double r);

/* The tensor-parallel all-reduces of a forward pass over `tokens` tokens:
 * two per layer (serve_prep.c says how they are priced); 0 at tp 1. */
double serve_allreduce_time(const struct serve_prep *sp,
			    const struct serve_device *d, double tokens);

/* The pipeline's hand-offs in a forward pass over `tokens` tokens: each
 * stage but the last sends its activations to the next (serve_prep.c);
 * 0 at pp 1. */
double serve_stage_send_time(const struct serve_prep *sp,
			     const struct serve_device *d, double tokens);

/*
 * The recorded trace one of `replicas` replicas replays when the service
 * takes `rate` requests a second in all (the workload's `trace:`): its
 * round-robin share, stretched to that rate; into *t, which is returned,
 * or NULL when the service has no trace.
 */
const struct sim_trace *serve_trace(const struct serve_prep *sp, double rate,
				    long replicas, struct sim_trace *t);

/* Requests one replica's simulation runs: `usual`, or its share of a
 * trace's arrivals when that is longer (the whole trace is replayed). */
long serve_sim_count(const struct sim_trace *t, long usual);

#endif

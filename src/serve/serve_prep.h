/*
 * serve_prep.h - what the serving estimator prepares once per workload
 * and then asks per device: the model's passes as curves of ops sorted by
 * arithmetic intensity, the memory table, one accelerator (or a share of
 * it) as the service time model sees it, and S(b), the time one batch
 * takes on one replica.  serve.c searches deployments with it, serve_llm.c
 * sizes token services with it; the struct's inside is here because both
 * read it (serve_prep.c fills it).
 *
 * Ownership: serve_prepare() returns a struct the caller frees with
 * serve_prep_free(); it points at (and does not own) the workload, which
 * must outlive it, and at the accelerators of the catalog the estimator is
 * given, which must outlive it too.
 */
#ifndef GPUPLAN_SERVE_SERVE_PREP_H
#define GPUPLAN_SERVE_SERVE_PREP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"
#include "hwmodel/efficiency.h"
#include "hwmodel/fusion.h"
#include "hwmodel/matrix_eff.h"
#include "model/memory.h"
#include "option/option.h"
#include "serve/sim_stats.h"
#include "workload/workload.h"

#define SERVE_BATCHES 9		/* batch sizes 1, 2, 4, ..., 256 */
#define SERVE_TOKENS 14		/* a pass's curves: 1, 2, ..., 8192 samples
				 * (tokens of an LLM iteration) */
#define SERVE_TPS 7		/* tensor-parallel degrees 1, 2, ..., 64 */

struct serve_prep;

/*
 * Builds what plan_inference() needs for one inference workload: the
 * prefill and decode graphs (token-generating decoders) or the one forward
 * graph, each op's FLOPs and elements per batch size sorted by arithmetic
 * intensity, and memory per GPU per batch size and tensor-parallel degree.
 * Returns NULL with a reason in why when the model cannot be built.
 * The graphs run as stock TensorRT fuses them (fusion.h): the planner's
 * engine for every batch-served model.
 */
struct serve_prep *serve_prepare(const struct workload *w, char *why,
				 size_t whylen);
/* The same with the fusion rules of a named engine (fusion_rules_for()):
 * a record's engine that is stated to run more fused than stock. */
struct serve_prep *serve_prepare_fused(const struct workload *w,
				       enum fusion_rules rules, char *why,
				       size_t whylen);
void serve_prep_free(struct serve_prep *sp);
/* Points sp at w, a workload with the same model, precisions and token
 * counts as the one sp was made for (prep_cache.c). */
void serve_prep_rebind(struct serve_prep *sp, const struct workload *w);

/* One accelerator (or a share of it) as the service time model sees it. */
struct serve_device {
	const struct accelerator *acc;
	enum precision used;	/* the peak used, see roofline_matrix_peak() */
	int elem;		/* bytes per weight element (activations:
				 * serve_act_bytes()) */
	double matrix, vector;	/* FLOP/s after the ceiling and fraction */
	long sms;		/* SMs of the fraction, for the shape factor */
	const struct matrix_eff *shape;	/* the efficiency's curve */
	double bandwidth;	/* B/s after efficiency and fraction */
	long tp;		/* tensor-parallel degree */
	long pp;		/* pipeline stages of an LLM replica (1 unless
				 * set after serve_device_init()) */
	double link;		/* B/s one way between GPUs, after efficiency */
	double graph_gap, stream_gap, stream_floor;	/* s per kernel */
	double iteration_host;	/* s an LLM iteration waits for the host */
};

/*
 * compute_fraction and bandwidth_fraction: 1 for a whole GPU, a MIG slice's
 * shares otherwise; intra: the instance's GPU-to-GPU link (used when
 * tp > 1; may be NULL for tp 1).
 */
void serve_device_init(struct serve_device *d, const struct accelerator *a,
		       enum precision want, const struct efficiency *e,
		       long tp, double compute_fraction,
		       double bandwidth_fraction, const struct link *intra);

/* Seconds one batch of requests takes on one replica: S(b). */
struct serve_time {
	double prefill;		/* the prompt's forward pass (or the one pass) */
	double decode_step;	/* one generated token, KV reads included */
	double kv_read;		/* of which reading the KV cache */
	double comm;		/* tensor-parallel all-reduces, whole request */
	double total;		/* S(b) = prefill + output x decode_step + comm */
	struct time_breakdown split;	/* compute, memory, communication of S(b) */
};

/* S(b) for batch 2^batch_index; batch_index < SERVE_BATCHES. */
void serve_batch_time(const struct serve_prep *sp, const struct serve_device *d,
		      int batch_index, struct serve_time *out);

/*
 * Bytes per GPU to serve batch 2^batch_index with tensor-parallel degree
 * 2^tp_index and elem-byte weights and activations: memory_serving()'s
 * total, from the table serve_prepare() filled.
 */
double serve_memory(const struct serve_prep *sp, int tp_index,
		    int batch_index, int elem);

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

/*
 * Element sizes of a pass.  SERVE_ONE_SIZE: weights and activations at the
 * precision run (a CNN's TensorRT INT8 engine quantizes both).
 * SERVE_WIDE_ACTS: an LLM engine's 8-bit weights with 16-bit activations:
 * vLLM's FP8 quantizes only the Linear modules' weights ("all Linear
 * modules (except for the final lm_head) have their weights quantized down
 * to FP8_E4M3", vLLM docs v0.5.4, quantization/fp8), so the residual
 * stream, norms, the tensor-parallel all-reduce and the output head stay
 * in 16 bits.  A curve of that kind counts an op's elements as its weights
 * plus twice its activations: its bytes at one byte a weight.
 */
enum serve_sizes { SERVE_ONE_SIZE, SERVE_WIDE_ACTS, SERVE_SIZES };

/* One graph: per element-size kind and batch size 2^b, the vector ops (at
 * the fp32 peak); and its matrix ops, whose curves depend on the SMs and
 * the tensor-parallel degree too (struct serve_shaped). */
struct serve_pass {
	struct op_curve vector[SERVE_SIZES][SERVE_TOKENS];
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
	struct op_curve curve[SERVE_SIZES][2][SERVE_TPS][SERVE_TOKENS];
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
	bool compute_default;	/* each part's own ceiling (efficiency.h) */
	double graph_gap, stream_gap, stream_floor, iteration_host;
	struct matrix_eff matrix;
};

struct serve_prep {
	const struct workload *w;
	bool decoder;		/* generates tokens: prefill + decode steps */
	bool transformer;	/* tensor parallelism applies */
	bool wide_acts;		/* SERVE_WIDE_ACTS curves are built: a
				 * decoder served at 8-bit weights */
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

/* Bytes per activation element on d: d->elem, or 2 for a decoder whose
 * weights run at 8 bits (enum serve_sizes says whose practice). */
int serve_act_bytes(const struct serve_prep *sp, const struct serve_device *d);

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

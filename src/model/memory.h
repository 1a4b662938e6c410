/*
 * memory.h - how much memory one GPU needs to train or serve a model, line
 * by line, each line with the formula and source it comes from.
 *
 * Training: weights, gradients and optimizer state (mixed precision with
 * fp32 master weights, as ZeRO's accounting), sharded by ZeRO stage over
 * data parallelism and split by tensor and pipeline parallelism;
 * activations (Korthikanti et al. 2022 for transformers, saved op outputs
 * for other graphs) under none/selective/full recomputation; a workspace
 * allowance.  Serving: weights at the serving precision, the KV cache, the
 * largest live activation, the same allowance.
 */
#ifndef GPUPLAN_MODEL_MEMORY_H
#define GPUPLAN_MODEL_MEMORY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/precision.h"
#include "graph.h"
#include "model.h"

enum optimizer { OPTIMIZER_ADAMW, OPTIMIZER_ADAM, OPTIMIZER_SGD };
enum recompute { RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL };

const char *optimizer_name(enum optimizer o);
int optimizer_from_name(const char *s);		/* -1 when unknown */
const char *recompute_name(enum recompute r);
int recompute_from_name(const char *s);		/* -1 when unknown */

/* What a training framework changes in the state accounting
 * (workload/framework.h says whose rules): the bytes of the gradient
 * buffer under 16-bit mixed precision (0: 2, the ZeRO paper's), fp32 main
 * gradients the optimizer keeps beside them (sharded with it), and a
 * sharded parameter kept in fp32 as its own master copy. */
struct grad_rules {
	double grad_bytes, main_grad_bytes;
	bool fp32_params;
};

struct train_setup {
	enum precision precision;	/* compute precision */
	enum optimizer optimizer;
	int zero;			/* ZeRO stage 0..3 */
	long dp, tp, pp;		/* parallel degrees, each >= 1 */
	long micro_batch;		/* samples per GPU per micro-step */
	enum recompute recompute;
	long interleave;		/* virtual pipeline stages per GPU;
					 * 0 or 1: plain 1F1B */
	bool sequence_parallel;		/* with tp > 1: norms and dropouts
					 * split over tp too */
	bool fused_attention;		/* the S x S scores are never stored
					 * (FlashAttention) */
	struct grad_rules grads;	/* the framework's; zeros: the ZeRO
					 * paper's accounting */
};

/* Bytes of model state per parameter in training (memory.c says whose
 * figures): the weights, their gradients and the optimizer's state, which
 * holds an fp32 master copy of the weights under mixed precision. */
struct state_bytes {
	double weights, gradients, optimizer;
	bool master_copy;		/* the optimizer state includes fp32 weights */
	const char *optimizer_what;
};

struct state_bytes memory_state_bytes(enum precision p, enum optimizer o,
				      const struct grad_rules *g);

struct serve_setup {
	enum precision precision;	/* weights and activations */
	enum precision kv_precision;
	long batch;			/* sequences (or images) at once */
	long context;			/* tokens held per sequence (KV cache) */
	long tp;			/* tensor-parallel degree */
};

enum memory_part {
	MEM_WEIGHTS, MEM_GRADIENTS, MEM_OPTIMIZER, MEM_ACTIVATIONS,
	MEM_KV_CACHE, MEM_WORKSPACE, MEM_PARTS
};

const char *memory_part_name(enum memory_part p);	/* "weights", ... */

struct memory_breakdown {
	double bytes[MEM_PARTS];
	char how[MEM_PARTS][512];	/* the formula, with its numbers */
	double total;
};

/* Assumption, not a measurement: CUDA context, cuBLAS/cuDNN workspaces and
 * allocator fragmentation.  A measured peak from `gpuplan bench --model`
 * replaces it when there is one. */
#define WORKSPACE_FIXED_BYTES (1024.0 * 1024 * 1024)
#define WORKSPACE_FRACTION 0.10

void memory_training(const struct model *m, const struct model_graph *g,
		     const struct train_setup *t, struct memory_breakdown *out);
void memory_serving(const struct model *m, const struct model_graph *g,
		    const struct serve_setup *s, struct memory_breakdown *out);

/*
 * What the accounting needs from a built model, computed once: the planner
 * asks about thousands of setups of one model, so it prepares this and
 * skips the explanations (explain = false leaves `how` untouched).  The
 * model and graph it was made from must outlive it.
 */
struct memory_model {
	const struct model *m;
	double params;
	long seq;
	double kept[3];		/* graphs: activation elements per sample kept,
				 * per enum recompute */
	double serve_peak;	/* elements live in the largest op, per sample */
};

void memory_model_init(struct memory_model *mm, const struct model *m,
		       const struct model_graph *g);
void memory_training_of(const struct memory_model *mm,
			const struct train_setup *t, bool explain,
			struct memory_breakdown *out);
void memory_serving_of(const struct memory_model *mm,
		       const struct serve_setup *s, bool explain,
		       struct memory_breakdown *out);

/* KV-cache bytes per token of context (both K and V, all layers), at the
 * given element size; 0 for models without a decoder KV cache. */
double kv_cache_bytes_per_token(const struct model *m, int elem_bytes);

/* Forward passes' worth of FLOPs in one training step: 3 (forward plus a
 * backward of twice the forward, Kaplan et al. 2020), 4 with full
 * recomputation (Narayanan et al. 2021: one more forward).  Selective
 * recomputation redoes only the attention core, added separately. */
double training_flops_per_step(const struct model_graph *g,
			       const struct model_cost *c,
			       enum recompute r, long batch);

#endif

/*
 * graph.h - a model built for one sequence length: a flat list of ops with
 * shapes and per-sample costs.
 *
 * Graph descriptions are expanded (repeats unrolled, residuals turned into
 * their ops and an add, includes inlined, named tensors resolved) and every
 * shape is checked against the op that consumes it.  Transformer
 * configurations are turned into the same kind of list, layer by layer.
 *
 * Ownership: struct model_graph owns its op array; free with
 * model_graph_free().
 */
#ifndef GPUPLAN_MODEL_GRAPH_H
#define GPUPLAN_MODEL_GRAPH_H

#include "core/error.h"
#include "model.h"
#include "op.h"

struct model_graph {
	struct op *ops;
	size_t n, cap;
	struct shape input, output;
	long seq;		/* tokens per sample; 0 for non-sequence models */
	long blocks;		/* checkpoint units: layers, top-level items,
				 * repeat iterations, residual blocks */
};

/*
 * Builds m for `seq` tokens per sample (0: the model's own length, its
 * max_seq or its input's tokens; must be 0 for image models).  Shape
 * problems are added to errs with the location of the op; returns 0 or -1.
 */
int model_build(const struct model *m, long seq, struct model_graph *g,
		struct gp_errors *errs);
void model_graph_free(struct model_graph *g);

/* Totals over a built graph for one step of `batch` samples. */
struct class_total {
	double flops;		/* per step */
	double bytes;		/* per step */
};

struct model_cost {
	double params;
	double macs_per_sample;		/* matrix multiply-adds (conv, linear, attention) */
	double flops_per_sample;	/* forward */
	double flops_per_step;		/* forward, batch samples */
	double bytes_per_step;		/* forward: weights once + activations x batch */
	double weight_bytes;
	struct class_total cls[OPC_COUNT];
};

void model_cost(const struct model_graph *g, long batch, int elem_bytes,
		struct model_cost *c);

#endif

/* ---- for the builders (graph_build.c, transformer_build.c) ---- */

/* Appends an op with its shapes and parameters and computes its cost;
 * extra_elems as in op_cost().  Returns the op (valid until the next
 * append). */
struct op *model_graph_append(struct model_graph *g, enum op_kind kind,
			      const struct shape *in, const struct shape *out,
			      const struct op_params *p, double extra_elems,
			      const struct origin *at, const char *label);

int build_graph_ops(const struct model *m, struct model_graph *g,
		    struct gp_errors *errs);
int build_transformer_ops(const struct model *m, long seq,
			  struct model_graph *g);
/* Features per token of tf's widest per-sample tensor; *what names it
 * ("the output head"). */
double transformer_widest(const struct transformer_config *tf,
			  const char **what);
/* The ops build_transformer_ops() appends for tf. */
uint64_t transformer_op_count(const struct transformer_config *tf);

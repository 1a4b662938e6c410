/*
 * graph.h - a model built for one sequence length (struct model_graph,
 * model_graph.h: a flat list of ops with shapes and per-sample costs), and
 * its totals.
 *
 * Graph descriptions are expanded (repeats unrolled, residuals turned into
 * their ops and an add, includes inlined, named tensors resolved) and every
 * shape is checked against the op that consumes it (graph_build.h).
 * Transformer configurations are turned into the same kind of list, layer
 * by layer (transformer_build.h).  model_build() picks the builder; both
 * builders fill the graph without calling back up here.
 *
 * Ownership: struct model_graph owns its op array; free with
 * model_graph_free().
 */
#ifndef GPUPLAN_MODEL_GRAPH_H
#define GPUPLAN_MODEL_GRAPH_H

#include "core/error.h"
#include "model.h"
#include "model_graph.h"
#include "op.h"

/*
 * Builds m for `seq` tokens per sample (0: the model's own length, its
 * max_seq or its input's tokens; must be 0 for image models).  Shape
 * problems are added to errs with the location of the op; returns 0 or -1.
 */
int model_build(const struct model *m, long seq, struct model_graph *g,
		struct gp_errors *errs);

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

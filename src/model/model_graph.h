/*
 * model_graph.h - the graph a model is built into: a flat list of ops with
 * shapes and per-sample costs, for one sequence length.
 *
 * This is the data structure alone, so the two builders that fill it
 * (graph_build.h, transformer_build.h) sit below the dispatcher that picks
 * one (model_build() in graph.h) without calling back into it.
 *
 * Ownership: struct model_graph owns its op array; free with
 * model_graph_free().
 */
#ifndef GPUPLAN_MODEL_MODEL_GRAPH_H
#define GPUPLAN_MODEL_MODEL_GRAPH_H

#include "op.h"

struct model_graph {
	struct op *ops;
	size_t n, cap;
	struct shape input, output;
	long seq;		/* tokens per sample; 0 for non-sequence models */
	long blocks;		/* checkpoint units: layers, top-level items,
				 * repeat iterations, residual blocks */
};

void model_graph_free(struct model_graph *g);

/* Appends an op with its shapes and parameters and computes its cost;
 * extra_elems as in op_cost().  Returns the op (valid until the next
 * append). */
struct op *model_graph_append(struct model_graph *g, enum op_kind kind,
			      const struct shape *in, const struct shape *out,
			      const struct op_params *p, double extra_elems,
			      const struct origin *at, const char *label);

#endif

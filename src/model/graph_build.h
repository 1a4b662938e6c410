/*
 * graph_build.h - expanding a graph description (kind: graph) into a flat,
 * shape-checked list of ops in a struct model_graph.
 *
 * Called by model_build() (graph.h) once it has checked the sequence
 * length; the op count is held to MODEL_MAX_OPS (op_count.h) before any op
 * is made.
 *
 * Ownership: the ops are appended to the caller's graph, which owns them
 * (model_graph_free()).
 */
#ifndef GPUPLAN_MODEL_GRAPH_BUILD_H
#define GPUPLAN_MODEL_GRAPH_BUILD_H

#include "core/error.h"
#include "model.h"
#include "model_graph.h"

/* Appends m's ops to g; shape problems go to errs at the op that found
 * them.  Returns 0, or -1 after the first. */
int build_graph_ops(const struct model *m, struct model_graph *g,
		    struct gp_errors *errs);

#endif

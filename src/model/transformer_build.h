/*
 * transformer_build.h - a transformer configuration (kind: transformer) as
 * a list of ops in a struct model_graph, layer by layer, and what the
 * reader and the op count know of that list before it is built: its
 * widest tensor and its length.
 *
 * Ownership: the ops are appended to the caller's graph, which owns them
 * (model_graph_free()); *what points to a static string.
 */
#ifndef GPUPLAN_MODEL_TRANSFORMER_BUILD_H
#define GPUPLAN_MODEL_TRANSFORMER_BUILD_H

#include <stdint.h>

#include "model.h"
#include "model_graph.h"

/* Appends m's ops for `seq` tokens per sample to g; returns 0. */
int build_transformer_ops(const struct model *m, long seq,
			  struct model_graph *g);
/* Features per token of tf's widest per-sample tensor; *what names it
 * ("the output head"). */
double transformer_widest(const struct transformer_config *tf,
			  const char **what);
/* The ops build_transformer_ops() appends for tf. */
uint64_t transformer_op_count(const struct transformer_config *tf);

#endif

/*
 * fusion.h - a model's graph as an inference engine runs it: which ops
 * fold into the kernel of an op before them, and what each op then still
 * computes and moves.
 *
 * A rule set belongs to an engine:
 *   FUSION_NONE      every op its own kernel (frameworks training op by op)
 *   FUSION_TENSORRT  TensorRT's layer fusions: a convolution takes the
 *                    batch norm after it into its weights and bias, and
 *                    the residual add and the activation after it into
 *                    its epilogue (fusion.c names the documentation)
 *   FUSION_RES2      the same, and ResNet-50's whole res2 stage as one
 *                    kernel: the RnRes2FullFusion plugin of NVIDIA's
 *                    MLPerf Inference ResNet-50 engines (not stock
 *                    TensorRT: trtexec builds without it)
 *
 * Ownership: fusion_apply() writes into arrays the caller owns.
 */
#ifndef GPUPLAN_HWMODEL_FUSION_H
#define GPUPLAN_HWMODEL_FUSION_H

#include <stdbool.h>

#include "catalog/catalog.h"
#include "model/graph.h"

enum fusion_rules {
	FUSION_NONE,
	FUSION_TENSORRT,
	FUSION_RES2,
	FUSION_RULES_COUNT
};

/* "none", "tensorrt", "tensorrt+res2" */
const char *fusion_rules_name(enum fusion_rules r);

/*
 * The engine name a record gives for NVIDIA's MLPerf Inference harness:
 * TensorRT with the graph surgery and plugins of its ResNet-50 code.
 */
#define FUSION_MLPERF_ENGINE "tensorrt-mlperf"

/*
 * The rules an engine applies when it serves a batch-served model at
 * precision p on accelerator a.  engine: as a record names it; NULL (the
 * planner) or any other name runs as stock TensorRT, as the serving
 * planner assumes every batch-served model does.  FUSION_MLPERF_ENGINE
 * gets the res2 plugin only where NVIDIA's code inserts it (INT8 on
 * Turing and Ampere parts, fusion.c), stock TensorRT's fusions elsewhere.
 */
enum fusion_rules fusion_rules_for(const char *engine,
				   const struct accelerator *a,
				   enum precision p);

/*
 * g's ops as rules r runs them: ops[i] a copy of g->ops[i] with the
 * FLOPs, parameters and activation elements the op still has of its own
 * (a fused op keeps only what its kernel must still read), launches[i]
 * true when op i starts a kernel rather than running inside the kernel
 * of an op before it.  ops and launches hold g->n entries.  Returns the
 * kernels one pass launches: ops that start one and do any work.
 */
long fusion_apply(const struct model_graph *g, enum fusion_rules r,
		  struct op *ops, bool *launches);

#endif

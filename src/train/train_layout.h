/*
 * train_layout.h - the layout search: for one instance type and cluster
 * size, the fastest way to split a training job that fits memory.
 *
 * Tried: tensor parallelism (powers of two inside a node, dividing the
 * attention heads), pipeline stages (divisors of the layers), the data
 * parallelism that is left, micro-batches (powers of two), interleaving
 * (v virtual stages per GPU, when the micro-batches divide among the
 * stages as Megatron-LM requires), and - where the workload leaves them to
 * the planner (`zero: auto`, `recompute: auto`) - the ZeRO stage and the
 * recomputation.  What the workload fixes (`layout:`, `parallelism:`
 * limits) is kept.  For each split, more ZeRO or more recomputation is
 * used only when less does not fit: neither makes a step faster.
 *
 * Ownership: the caller's context (workload, memory model, forward
 * rooflines) must outlive the call; results are plain values.
 */
#ifndef GPUPLAN_TRAIN_TRAIN_LAYOUT_H
#define GPUPLAN_TRAIN_TRAIN_LAYOUT_H

#include <stdbool.h>

#include "model/memory.h"
#include "train/train_step.h"

/* One layout the search looked at. */
struct layout_try {
	struct layout l;
	struct step st;		/* valid when fits */
	double memory;		/* bytes per GPU */
	double parts[MEM_PARTS];
	bool fits;
};

struct layout_ctx {
	const struct step_job *job;
	const struct memory_model *mm;
	double capacity;	/* bytes per GPU */
	/* one forward of `micro` samples at tensor parallelism tp, with or
	 * without sequence parallelism */
	const struct roofline *(*forward)(void *arg, long micro, long tp, bool sp);
	void *forward_arg;
	/* Called for every layout tried (fitting or not), when set; the
	 * search then prunes nothing, so every loser is seen. */
	void (*each)(void *arg, const struct layout_try *t);
	void *each_arg;
};

/*
 * The fastest fitting layout of `gpus` GPUs into *best (best->fits), or,
 * when none fits, the one that needs the least memory (best->fits false).
 * Returns false when no layout can use that many GPUs at all (more
 * data-parallel ranks than samples; a fixed layout that does not divide
 * them), with the reason in why.
 */
bool train_layout_search(const struct layout_ctx *c, long gpus,
			 struct layout_try *best, char *why, size_t whylen);

#endif

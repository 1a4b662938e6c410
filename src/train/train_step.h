/*
 * train_step.h - the time of one optimizer step of a training run, for one
 * layout on one cluster, from the mechanisms that make it up:
 *
 *   pipeline  (m + (p - 1) / v) micro-batch slots of one stage: its forward,
 *             backward (2x) and recomputation, the tensor-parallel
 *             collectives of its layers and the activation sends between
 *             stages (1F1B and interleaved 1F1B: Narayanan et al. 2021,
 *             bubble (p - 1) / (v m));
 *   + data-parallel traffic the backward pass does not hide: gradients
 *             reduced in buckets during the last micro-batch's backward
 *             (all-reduce, or ZeRO-1/2's reduce-scatter and the parameter
 *             all-gather after the optimizer), or ZeRO-3's per-micro-batch
 *             all-gathers and reduce-scatter, prefetched behind compute;
 *   + the optimizer step, bound by memory bandwidth;
 *   + data loading that compute does not hide.
 *
 * Every collective is priced by collective.h on the instance's topology.
 * Ownership: plain values.
 */
#ifndef GPUPLAN_TRAIN_TRAIN_STEP_H
#define GPUPLAN_TRAIN_TRAIN_STEP_H

#include <stdbool.h>

#include "catalog/catalog.h"
#include "hwmodel/collective.h"
#include "hwmodel/efficiency.h"
#include "model/memory.h"
#include "hwmodel/roofline.h"
#include "workload/framework.h"
#include "workload/workload.h"

/* How the work is split: one point of the layout search. */
struct layout {
	long tp, pp, dp;	/* tensor, pipeline, data parallel degrees */
	long micro;		/* samples per micro-batch */
	long v;			/* virtual stages per GPU (interleaving); 1: plain */
	long accumulation;	/* micro-batches per step per pipeline (m) */
	int zero;		/* ZeRO stage */
	enum recompute recompute;
	bool sp;		/* sequence parallelism (tp > 1) */
	bool overlap;		/* gradient reduction overlapped with backward */
};

/* What a step needs to know of the job and the machine, whatever the
 * layout. */
struct step_job {
	const struct workload *w;
	const struct instance *in;
	long nodes;
	const struct coll_fabric *fabric;
	const struct efficiency *eff;
	double params;		/* the whole model's */
	double edge_share;	/* share of the forward time in ops outside the
				 * repeated layers (embedding, output head):
				 * carried by the end stages of a pipeline */
	double kernels;		/* kernels of one whole-model forward */
	double straggler;	/* train_straggler_factor() of its GPUs */
};

/* The state accounting of w's framework (workload/framework.h) under
 * ZeRO stage zero, for model/memory.h. */
struct grad_rules train_grad_rules(const struct workload *w, int zero);

/* How much slower than its mean GPU a job of `gpus` GPUs steps: the
 * expected slowest of them (train_step.c). */
double train_straggler_factor(const struct efficiency *e, long gpus);

/* Seconds, per step unless said otherwise. */
struct step {
	struct roofline fwd;	/* one micro-batch, whole model, 1/tp of it */
	double stage_forward;	/* one micro-batch through one stage */
	double stage_compute;	/* forward + backward + recomputation, one
				 * stage, at the pace of the slowest GPU */
	double straggler;	/* that pace over the mean GPU's (>= 1) */
	double non_gemm;	/* of stage_compute: work the op graph leaves
				 * out (loss, rotary, launch gaps) */
	double tp_comm;		/* per micro-batch, one stage */
	double pp_comm;		/* per micro-batch, one stage */
	double pipeline;	/* the schedule, bubble included */
	double bubble;		/* the idle part of it */
	double dp_comm;		/* data-parallel traffic, before overlap */
	double dp_exposed;	/* what overlap does not hide, with
				 * overlap_extra */
	double overlap_extra;	/* compute slowed by the hidden part */
	double optimizer;
	double input, exposed_input;
	double total;
	/* the step split into what bounds it (sums to total) */
	double compute, memory, communication;
	double attention;	/* of compute + memory: attention's kernels */
};

/*
 * The step of layout l, given the forward roofline of one micro-batch
 * (whole model, tp share).  l->accumulation must be set.
 */
void train_step_time(const struct step_job *j, const struct layout *l,
		     const struct roofline *fwd, struct step *out);

/* What no step of layout l can beat: its pipeline's forward and backward
 * compute alone, without recomputation, communication or the optimizer. */
double train_step_lower_bound(const struct step_job *j, const struct layout *l,
			      const struct roofline *fwd);

#endif

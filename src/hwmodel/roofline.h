/*
 * roofline.h - how long a built model takes on one accelerator.
 *
 * Each op takes the larger of its compute time, FLOPs / (peak x compute
 * efficiency), and its memory time, bytes / (bandwidth x memory
 * efficiency) (Williams, Waterman and Patterson's roofline, per op).
 * Matrix ops (GEMM, convolution, attention products) run at the tensor
 * peak of the precision, at the large-GEMM ceiling times the shape factor
 * of their GEMMs (matrix_eff.h); the rest run at the fp32 (CUDA core)
 * peak.
 */
#ifndef GPUPLAN_HWMODEL_ROOFLINE_H
#define GPUPLAN_HWMODEL_ROOFLINE_H

#include "catalog/catalog.h"
#include "hwmodel/efficiency.h"
#include "hwmodel/fusion.h"
#include "model/graph.h"

struct roofline {
	double time;		/* s: sum over ops of max(compute, memory) */
	double compute_bound;	/* s spent in ops bounded by compute */
	double memory_bound;	/* s spent in ops bounded by memory */
	double flops, bytes;	/* what was counted */
	double class_time[OPC_COUNT];	/* s per op class */
};

/* The order in which a part's peaks stand in for precision `want` (want
 * first, then the next wider formats): ROOFLINE_FALLBACKS entries.  The
 * report's roofline looks peaks up in the same order as the planner. */
#define ROOFLINE_FALLBACKS 4
const enum precision *roofline_fallbacks(enum precision want);

/*
 * The tensor peak for matrix work at precision `want`, or the nearest the
 * part has when it lacks it (bf16 on a T4 runs as fp16; fp8 on an A100 as
 * bf16).  *used says which; 0 when the part has no usable peak.  It is
 * the peak the part sustains (accelerator_sustained_peak): the datasheet
 * peak times the catalog's sustained clock fraction where one is given.
 */
double roofline_matrix_peak(const struct accelerator *a, enum precision want,
			    enum precision *used);

/*
 * One forward pass of `batch` samples of g on a as an inference engine
 * with fusion rules `rules` runs it (fusion.h), with `share` of the work
 * (1/tp with tensor parallelism) and `fraction` of the device (1 for a
 * whole GPU; a MIG slice's share of compute and bandwidth otherwise).
 * The batch sets each GEMM's rows (or its count of products), the share
 * divides the dimension tensor parallelism splits, and the fraction the
 * SMs the tiles spread over.
 */
void roofline_forward(const struct model_graph *g, long batch,
		      const struct accelerator *a, enum precision p,
		      enum fusion_rules rules, double share, double fraction,
		      const struct efficiency *e, struct roofline *out);

/*
 * The same for one of tp tensor-parallel ranks of a training run (a whole
 * GPU): the matrix work and the element-wise work inside attention and the
 * MLP split over tp; the norms and residual adds split only with sequence
 * parallelism, else done whole by every rank.  Training in FP8 runs only
 * the linear layers of blocks 1 .. layers in FP8 (all of them when layers
 * is 0), everything else at 16 bits, and quantises their inputs
 * (roofline.c says why).  Each op is its own kernel: frameworks train op
 * by op (FUSION_NONE).
 */
void roofline_forward_tp(const struct model_graph *g, long layers, long batch,
			 const struct accelerator *a, enum precision p, long tp,
			 bool sequence_parallel, const struct efficiency *e,
			 struct roofline *out);

#endif

/*
 * efficiency.h - how much of a datasheet figure real work achieves.
 *
 * A datasheet peak is a ceiling; real kernels reach a fraction of it.
 * These defaults are assumptions, each stated with what it is anchored to,
 * and each is replaced by a measurement when `gpuplan bench` has one.  The
 * planner reports every option's figures with these provenance strings.
 */
#ifndef GPUPLAN_HWMODEL_EFFICIENCY_H
#define GPUPLAN_HWMODEL_EFFICIENCY_H

#include <stdbool.h>

#include "catalog/catalog.h"
#include "hwmodel/matrix_eff.h"

struct efficiency {
	/* The large-GEMM ceiling: the fraction of the dense tensor peak that
	 * cuBLAS sustains on large, well-shaped GEMMs.  A matrix op (GEMM,
	 * conv, attention products) runs at this times the shape factor of
	 * `matrix` (matrix_eff.h); the other ops' FLOPs run at this fraction
	 * of the fp32 peak.  A workload's `efficiency: {compute: X}`
	 * replaces this ceiling, not the shape factor. */
	double compute;
	/* How a matrix op's shape takes it below the ceiling; a fitted
	 * curve replaces the default here. */
	struct matrix_eff matrix;
	/* Fraction of datasheet memory bandwidth that streaming ops sustain. */
	double memory;
	/* Fraction of a GPU-to-GPU link's (NVLink, PCIe) rate collectives reach. */
	double link;
	/* Fraction of the instance network's line rate collectives reach,
	 * with and without RDMA (GPUDirect over EFA, InfiniBand, RoCE). */
	double network_rdma, network_tcp;
	/* Extra wall time on spot capacity for preemptions: restarts from the
	 * last checkpoint and lost work. */
	double spot_overhead;
	/* Share of the host link's rate host-to-device copies reach. */
	double host_link;
	const char *host_link_from;
	/* Attention runs as one fused kernel (FlashAttention, cuDNN's fused
	 * attention, PyTorch's scaled_dot_product_attention): the S x S
	 * scores never reach memory.  false: the unfused path of earlier
	 * frameworks, a score product, a softmax kernel and a value product
	 * one after another, the scores written and read between them. */
	bool fused_attention;
	/* What launching a kernel costs beyond its work, s per kernel: a
	 * serving engine's pass of N kernels (serve_prep.c) takes
	 *   captured in a CUDA graph (LLM engines' decode):  R + N graph_gap
	 *   launched one by one from the host (TensorRT under Triton):
	 *                                  max(R + N stream_gap, N stream_floor)
	 * for a roofline time R: the host issues kernels no faster than the
	 * floor, and each kernel leaves the GPU idle for the gap. */
	double graph_gap, stream_gap, stream_floor;
	const char *launch_from;
	/* An LLM engine's iteration also waits, s, for the host: scheduling
	 * the next batch, preparing its inputs and sampling the last one's
	 * tokens, before its CUDA graph is replayed. */
	double iteration_host;
	const char *iteration_from;
	const char *compute_from, *memory_from, *network_from, *spot_from;
	const char *link_from;	/* the GPU link's; the network's by default */
	/* Training (issue 27).  The fraction by which compute kernels slow
	 * while a collective runs beside them on other SMs (the share of a
	 * step that overlaps data-parallel communication pays it). */
	double overlap_slowdown;
	const char *overlap_from;
	/* The spread of one GPU's step time across the GPUs of a job, as a
	 * coefficient of variation: a synchronous step waits for the
	 * slowest of N. */
	double straggler_cv;
	const char *straggler_from;
};

void efficiency_default(struct efficiency *e);

/*
 * The large-GEMM ceiling of part a at precision p: the part's own
 * measured ceiling from the catalog (`matmul_ceiling:`, Bekman's MAMF
 * table) while e's ceiling is the default, else e->compute (a workload's
 * own figure or a calibration replaces every part's).
 */
double efficiency_ceiling(const struct efficiency *e,
			  const struct accelerator *a, enum precision p);
/* Whether e->compute is still the default (no workload or calibration
 * replaced it). */
bool efficiency_compute_is_default(const struct efficiency *e);

#endif

/*
 * efficiency.h - how much of a datasheet figure real work achieves.
 *
 * A datasheet peak is a ceiling; real kernels reach a fraction of it.
 * These defaults are assumptions, each stated with what it is anchored to,
 * and each is replaced by a measurement when `gpuplan bench` has one.  The
 * planner reports every option's figures with these provenance strings.
 */
#ifndef GPUPLAN_PLAN_EFFICIENCY_H
#define GPUPLAN_PLAN_EFFICIENCY_H

struct efficiency {
	/* Fraction of the dense tensor peak that matrix ops (GEMM, conv,
	 * attention products) sustain. */
	double compute;
	/* Fraction of datasheet memory bandwidth that streaming ops sustain. */
	double memory;
	/* Fraction of a GPU-to-GPU link's (NVLink, PCIe) rate collectives reach. */
	double link;
	/* Fraction of the instance network's line rate collectives reach,
	 * with and without RDMA (GPUDirect over EFA, InfiniBand, RoCE). */
	double network_rdma, network_tcp;
	/* Fraction of the backward pass that gradient all-reduce can hide
	 * behind (bucketed overlap, as PyTorch DDP and DeepSpeed do). */
	double overlap;
	/* Extra wall time on spot capacity for preemptions: restarts from the
	 * last checkpoint and lost work. */
	double spot_overhead;
	/* Share of the host link's rate host-to-device copies reach. */
	double host_link;
	const char *compute_from, *memory_from, *network_from, *spot_from;
};

void efficiency_default(struct efficiency *e);

#endif

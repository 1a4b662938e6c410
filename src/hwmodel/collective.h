/*
 * collective.h - how long NCCL-style collectives take on a cluster's real
 * topology: GPUs inside a node on NVLink/NVSwitch or PCIe, nodes joined by
 * N NICs of a rate, with or without (GPUDirect) RDMA.
 *
 * Every collective is priced with the alpha-beta model per level of the
 * topology (a latency per algorithm step plus bytes over the bandwidth the
 * level sustains), for the ring and the tree algorithm, and the faster of
 * the two is taken for the message size, as NCCL's tuner does.  Sizes are
 * nccl-tests' sizes (the per-rank buffer: for all-reduce the whole buffer,
 * for all-gather the gathered output, for reduce-scatter its input), and
 * bus bandwidth is nccl-tests' algbw x factor (coll_bus_factor()).
 *
 * The efficiencies and latencies are documented assumptions (collective.c
 * names each source) held in struct coll_fabric; this module is the one
 * place where measured collective curves (bench's allreduce suite, later
 * fitted) replace them: coll_fabric_measured().
 *
 * Ownership: plain values; a fabric points at nothing it does not own
 * except `from`, a static string.
 */
#ifndef GPUPLAN_HWMODEL_COLLECTIVE_H
#define GPUPLAN_HWMODEL_COLLECTIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog/catalog.h"
#include "hwmodel/efficiency.h"

enum coll_op {
	COLL_ALL_REDUCE,
	COLL_REDUCE_SCATTER,
	COLL_ALL_GATHER,
	COLL_BROADCAST,
	COLL_SEND_RECV,		/* point to point, one pair */
	COLL_ALL_TO_ALL,
	COLL_OP_COUNT
};

enum coll_algo { COLL_RING, COLL_TREE, COLL_DIRECT };

const char *coll_op_name(enum coll_op op);	/* "all-reduce", ... */
const char *coll_algo_name(enum coll_algo a);	/* "ring", "tree", "direct" */

/* nccl-tests' bus bandwidth factor for n ranks: all-reduce 2(n-1)/n;
 * reduce-scatter, all-gather and all-to-all (n-1)/n; broadcast and
 * point-to-point 1. */
double coll_bus_factor(enum coll_op op, long n);

/* One level of the topology. */
struct coll_level {
	double bandwidth;	/* B/s per direction: per GPU inside a node, per
				 * node (all its NICs together) across nodes */
	double efficiency;	/* share of it that collectives sustain */
	double latency;		/* s per ring step on this level */
	double tree_latency;	/* s per tree step on this level (NCCL's
				 * Simple-protocol tree step is a whole chunk) */
};

struct coll_fabric {
	long gpus_per_node;
	int nics;			/* NICs per node, >= 1 when nodes are joined */
	bool rdma, gpudirect;
	struct coll_level intra;	/* NVLink/NVSwitch or PCIe; bandwidth 0:
					 * one GPU per node */
	struct coll_level inter;	/* the node's network, all NICs */
	const char *from;		/* where the figures came from */
};

/* The fabric of instances like `in`, with the default efficiencies of e
 * (datasheet rates x documented assumptions). */
void coll_fabric_of(const struct instance *in, const struct efficiency *e,
		    struct coll_fabric *f);

/*
 * A communicator: `ranks` GPUs, `per_node` of them in each node they span
 * (ranks / per_node nodes), while `sharing` such communicators run the same
 * collective at the same time in each node and share its NICs (data
 * parallelism with tp x pp = 8 on 8-GPU nodes: per_node 1, sharing 8).
 */
struct coll_group {
	long ranks, per_node, sharing;
};

struct coll_cost {
	double time;		/* s */
	enum coll_algo algo;	/* the one chosen */
	double busbw;		/* B/s, nccl-tests' definition */
};

/* One collective of `bytes` (nccl-tests' size) on group g. */
void collective_time(const struct coll_fabric *f, enum coll_op op,
		     double bytes, const struct coll_group *g,
		     struct coll_cost *out);

/*
 * Measured all-reduce curve: points as bench's allreduce suite records them
 * (profile/figure.h: `bytes` is nccl-tests' size S per GPU, `busbw` the
 * figure's value in B/s, all at `gpus` GPUs of one node).
 */
struct coll_point {
	double bytes;		/* B per GPU */
	double busbw;		/* B/s, nccl-tests' bus bandwidth */
};

/*
 * Replaces the intra-node level's efficiency and latencies by a fit of the
 * measured curve: each point is turned back into a time,
 * t = S x 2(n-1)/n / busbw, and t = a + b S is fitted by least squares on
 * relative errors (weights 1/t^2, so the small sizes fix the latency and the
 * large ones the bandwidth).  Then efficiency = 2(n-1)/n / (b x bandwidth)
 * (above 1 where NVLink SHARP reduces inside the switch), latency =
 * (a - the ring's base latency) / 2(n-1) (not below 0), and tree_latency
 * moves in the same proportion.  The network level is left as it was.
 * `from` then names the measurement.  Returns 0, or -1 with a reason in why
 * (fewer than two distinct sizes, gpus < 2, a value not positive, a curve
 * that does not rise with size) and f unchanged.
 */
int coll_fabric_measured(struct coll_fabric *f, long gpus,
			 const struct coll_point *pts, size_t n, char *why,
			 size_t len);

#endif

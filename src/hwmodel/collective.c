/*
 * collective.c - NCCL-style collectives priced on a cluster's topology.
 *
 * The model (see collective.h) follows NCCL's own tuner, ncclTopoTuneModel()
 * and its tables in NVIDIA/nccl src/graph/tuning.cc (commit
 * b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2, read through the code search on
 * 2026-12-01): a base latency per algorithm, a latency per step per level
 * (NVLink, PCI, network), the ring's bandwidth as the per-channel bandwidth
 * times the channels, the tree's as 0.92 of that, and the faster of the two
 * taken for each size.  What NCCL does and this module does not: the LL and
 * LL128 protocols (lower latency for small messages, so small collectives
 * are priced at the Simple protocol's latency, an overestimate below some
 * hundreds of KiB), NVLS/CollNet (in-switch reduction), the tree's
 * correction factors for medium sizes.  A measured curve
 * (coll_fabric_measured) carries the real small-size latency in.
 *
 * Levels.  Inside a node, each GPU's link (NVLink/NVSwitch port or PCIe)
 * per direction: the catalog's intra_node_link bandwidth is the
 * bidirectional total, so half of it.  Across nodes, the node's NICs
 * together: NCCL opens one channel (ring or tree) per NIC or more, and each
 * channel crosses every node boundary once, so a node's total traffic is
 * that of one flat ring spread over all its NICs.
 *
 * Sharing.  `sharing` communicators that run at once in a node split its
 * NICs evenly; one communicator with p GPUs in a node reaches at most
 * p/gpus_per_node of the node's NICs, but never less than one NIC (NCCL
 * sends a GPU's traffic through the NIC nearest it; on p4d two GPUs share
 * one of four NICs, on p5 each GPU has four of 32).
 */
#include "hwmodel/collective.h"

#include <math.h>
#include <stdio.h>

/* NCCL tuning.cc (commit above), Simple protocol, in seconds:
 * baseLat Ring 8.4 us, Tree 0; hwLat per step: NVLink ring 3.4 us, PCI ring
 * 5.7 us, NET ring 14.0 us, tree 28 us on all three (the tree's Simple step
 * is the latency of a whole chunk).  The network figures are NCCL's for
 * InfiniBand/RoCE/EFA; NCCL has no separate table for TCP sockets, so they
 * serve for TCP too (an assumption: sockets add kernel overhead). */
#define NCCL_BASE_RING 8.4e-6
#define NCCL_BASE_TREE 0.0
#define NCCL_NVLINK_RING 3.4e-6
#define NCCL_PCI_RING 5.7e-6
#define NCCL_NET_RING 14.0e-6
#define NCCL_TREE_STEP 28e-6

/* NCCL tuning.cc: `if (a == NCCL_ALGO_TREE) busBw = min(busBw * .92, ...)`
 * and the tree's algorithm bandwidth is half its bus bandwidth, where the
 * ring's is n/(2(n-1)) of it: for the same links the tree moves all-reduce
 * data at 0.92 of the ring's rate (the per-channel cap perChMaxTreeBws is
 * not modelled). */
#define TREE_BW_FACTOR 0.92

/*
 * RDMA without GPUDirect: NCCL stages through host memory (GPU -> host
 * buffer -> NIC).  NVIDIA/nccl issue #1579 "Is GPUDirect on GH200/GB200
 * relevant?" (https://github.com/NVIDIA/nccl/issues/1579) reports on two
 * nodes with 4 x 200 Gbps ports all_reduce busbw 79.72 GB/s with the host
 * path and 96.07 GB/s with GPUDirect RDMA: 79.72 / 96.07 = 0.83 of the
 * GPUDirect efficiency, taken here (one system; an assumption beyond it).
 * The staged path is also bounded by the GPUs' host links (below).
 */
#define NO_GDR_FACTOR 0.83

/*
 * Efficiencies come from struct efficiency (efficiency.c, owned elsewhere):
 *   link 0.80 (intra level).  Anchor: NVIDIA/nccl issue #527 "Slow bus
 *     bandwidth w/ nccl 2.9.9 on EC2 instances"
 *     (https://github.com/NVIDIA/nccl/issues/527): one p4d node (8 x A100,
 *     NVLink 300 GB/s per direction) all_reduce busbw 230.77 GB/s at 1 GiB,
 *     0.77 of the link.  On H100 with NVLS nccl-tests shows more than the
 *     link (479.72 GB/s on 8 x H100, aigatech/vpbenchmarking,
 *     https://git.onestrm.cn/aigatech/vpbenchmarking): a measured curve is
 *     the way to carry that in.
 *   network_rdma 0.80 (GPUDirect RDMA).  Anchor: the same Voltage Park
 *     benchmark (aigatech/vpbenchmarking, above): 4 nodes x 8 H100, 3.2 Tbps
 *     InfiniBand per node (400 GB/s), all_reduce busbw 330.93 GB/s = 0.83
 *     of the node's aggregate NIC rate.
 *   network_tcp 0.50 (no RDMA).  Anchors: NVIDIA/nccl issue #209
 *     "Suboptimal performance with TCP over high bandwidth networks"
 *     (https://github.com/NVIDIA/nccl/issues/209): not more than 60% of wire
 *     speed over 32 Gbps; issue #450 "Optimize NCCL AllReduce performance in
 *     100Gbps TCP network" (https://github.com/NVIDIA/nccl/issues/450):
 *     4-6 GB/s busbw of 12.5 GB/s.  0.50 is the top of that range.
 *   host_link 0.80: the share of the GPU's host link the staged path gets.
 * This module adds NO_GDR_FACTOR and the NCCL latencies above.
 */

static const char from_gdr[] =
	"assumption: NCCL tuning.cc latencies; link and GPUDirect RDMA network at efficiency.c's shares (anchored to nccl-tests runs, collective.c)";
static const char from_rdma[] =
	"assumption: NCCL tuning.cc latencies; RDMA staged through host memory at 0.83 of GPUDirect (NVIDIA/nccl#1579), bounded by the GPUs' host links";
static const char from_tcp[] =
	"assumption: NCCL tuning.cc latencies; TCP network at efficiency.c's share (NVIDIA/nccl#209, #450), bounded by the GPUs' host links";
static const char from_measured[] =
	"measured: all-reduce curve inside the node (bench allreduce); network level: documented assumptions (collective.c)";

const char *coll_op_name(enum coll_op op)
{
	static const char *const names[COLL_OP_COUNT] = {
		"all-reduce", "reduce-scatter", "all-gather", "broadcast",
		"send-recv", "all-to-all",
	};
	return (unsigned)op < COLL_OP_COUNT ? names[op] : "unknown";
}

const char *coll_algo_name(enum coll_algo a)
{
	switch (a) {
	case COLL_RING: return "ring";
	case COLL_TREE: return "tree";
	case COLL_DIRECT: return "direct";
	}
	return "unknown";
}

double coll_bus_factor(enum coll_op op, long n)
{
	if (n < 1)
		return 0;
	double dn = (double)n;
	switch (op) {
	case COLL_ALL_REDUCE:
		return 2 * (dn - 1) / dn;
	case COLL_REDUCE_SCATTER:
	case COLL_ALL_GATHER:
	case COLL_ALL_TO_ALL:
		return (dn - 1) / dn;
	case COLL_BROADCAST:
	case COLL_SEND_RECV:
	case COLL_OP_COUNT:
		break;
	}
	return 1;
}

static void intra_level(const struct instance *in, const struct efficiency *e,
			struct coll_level *l)
{
	l->bandwidth = 0;
	l->efficiency = e->link;
	l->latency = NCCL_NVLINK_RING;
	l->tree_latency = NCCL_TREE_STEP;
	if (in->gpus < 2 || in->intra.kind == LINK_NONE)
		return;
	l->bandwidth = in->intra.bandwidth / 2;
	if (in->intra.kind == LINK_PCIE)
		l->latency = NCCL_PCI_RING;
}

/* The node's rate when every byte passes through host memory: each GPU's
 * host link one way at host_link's share (0 when unknown: no bound). */
static double host_path(const struct instance *in, const struct efficiency *e)
{
	if (!in->acc || in->acc->host_interface.bandwidth <= 0)
		return 0;
	return in->gpus * in->acc->host_interface.bandwidth / 2 * e->host_link;
}

void coll_fabric_of(const struct instance *in, const struct efficiency *e,
		    struct coll_fabric *f)
{
	f->gpus_per_node = in->gpus > 0 ? in->gpus : 1;
	f->nics = in->network_nics > 0 ? in->network_nics : 1;
	f->rdma = in->network_rdma;
	f->gpudirect = in->network_rdma && in->network_gpudirect;
	intra_level(in, e, &f->intra);

	struct coll_level *l = &f->inter;
	l->bandwidth = in->network_bandwidth;
	l->latency = NCCL_NET_RING;
	l->tree_latency = NCCL_TREE_STEP;
	if (f->gpudirect) {
		l->efficiency = e->network_rdma;
		f->from = from_gdr;
		return;
	}
	l->efficiency = f->rdma ? e->network_rdma * NO_GDR_FACTOR
				: e->network_tcp;
	f->from = f->rdma ? from_rdma : from_tcp;
	double host = host_path(in, e);
	if (host > 0 && l->bandwidth > 0 &&
	    host < l->bandwidth * l->efficiency)
		l->efficiency = host / l->bandwidth;
}

/* What a communicator sees of the fabric, B/s and s. */
struct view {
	long n, p, nodes;
	double intra_bw, net_bw;	/* per GPU; per communicator per node */
	double intra_lat, net_lat, intra_tree, net_tree;
};

static void view_of(const struct coll_fabric *f, const struct coll_group *g,
		    struct view *v)
{
	v->n = g->ranks;
	v->p = g->per_node < 1 ? 1 : g->per_node > v->n ? v->n : g->per_node;
	v->nodes = (v->n + v->p - 1) / v->p;
	long sharing = g->sharing < 1 ? 1 : g->sharing;
	double gpn = (double)(f->gpus_per_node > 0 ? f->gpus_per_node : 1);
	double nics = (double)(f->nics > 0 ? f->nics : 1);
	double reach = fmax((double)v->p / gpn, 1 / nics);
	double share = fmin(fmin(reach, 1.0), 1.0 / (double)sharing);
	v->net_bw = f->inter.bandwidth * f->inter.efficiency * share;
	v->net_lat = f->inter.latency;
	v->net_tree = f->inter.tree_latency;
	v->intra_bw = f->intra.bandwidth * f->intra.efficiency;
	v->intra_lat = f->intra.latency;
	v->intra_tree = f->intra.tree_latency;
	if (v->intra_bw <= 0) {	/* no GPU link: through the network */
		v->intra_bw = v->net_bw;
		v->intra_lat = v->net_lat;
		v->intra_tree = v->net_tree;
	}
}

/* Seconds to move `intra` bytes per GPU over its link and `net` bytes per
 * node over the communicator's share of the NICs, the two levels at once
 * (pipelined), so the slower one bounds; a level not crossed costs 0. */
static double level_time(const struct view *v, double intra, double net)
{
	double ti = v->p > 1 && intra > 0 ? intra / v->intra_bw : 0;
	double tn = v->nodes > 1 && net > 0 ? net / v->net_bw : 0;
	return fmax(ti, tn);
}

/* Ring: `steps` in all, `inter` of them crossing the network (NCCL:
 * all-reduce 2(n-1) steps, 2 x nodes of them inter; reduce-scatter and
 * all-gather n-1 and nodes-1; broadcast n-1 and nodes-1). */
static double ring_time(const struct view *v, double data, long steps,
			long inter)
{
	if (v->nodes < 2)
		inter = 0;
	if (inter > steps)
		inter = steps;
	double lat = NCCL_BASE_RING + (double)(steps - inter) * v->intra_lat +
		     (double)inter * v->net_lat;
	return lat + level_time(v, data, data);
}

static long log2_floor(long x)
{
	long r = 0;
	while (x > 1) {
		x >>= 1;
		r++;
	}
	return r;
}

/* NCCL's all-reduce tree: a chain inside each node, a double binary tree
 * across nodes; every GPU and every node sends S up and S down at 0.92 of
 * the link; latency 2((p-1) intra + log2(nodes) inter) (tuning.cc). */
static double tree_time(const struct view *v, double bytes)
{
	double lat = NCCL_BASE_TREE +
		     2 * ((double)(v->p - 1) * v->intra_tree +
			  (double)log2_floor(v->nodes) * v->net_tree);
	double data = 2 * bytes / TREE_BW_FACTOR;
	return lat + level_time(v, data, data);
}

static void all_reduce(const struct view *v, double bytes,
		       struct coll_cost *out)
{
	double dn = (double)v->n;
	double ring = ring_time(v, 2 * (dn - 1) / dn * bytes, 2 * (v->n - 1),
				2 * v->nodes);
	out->algo = COLL_RING;
	out->time = ring;
	if (v->nodes < 2)	/* NCCL's in-node tree is a chain: the ring */
		return;
	double tree = tree_time(v, bytes);
	if (tree < ring) {
		out->algo = COLL_TREE;
		out->time = tree;
	}
}

/* Point to point: one GPU to one GPU, over the link inside a node or the
 * pair's share of the NICs across (view_of with p = 1). */
static double send_recv(const struct view *v, double bytes)
{
	if (v->nodes < 2)
		return v->intra_lat + bytes / v->intra_bw;
	return v->net_lat + bytes / v->net_bw;
}

/* All-to-all: each rank sends S/n to each other rank; (p-1)/n S per GPU
 * stays in the node, p (n-p)/n S per node leaves it through the NICs. */
static double all_to_all(const struct view *v, double bytes)
{
	double dn = (double)v->n, dp = (double)v->p;
	double intra = (dp - 1) / dn * bytes;
	double net = dp * (dn - dp) / dn * bytes;
	double lat = v->intra_lat + (v->nodes > 1 ? v->net_lat : 0);
	return lat + level_time(v, intra, net);
}

void collective_time(const struct coll_fabric *f, enum coll_op op,
		     double bytes, const struct coll_group *g,
		     struct coll_cost *out)
{
	out->time = 0;
	out->algo = COLL_RING;
	out->busbw = 0;
	struct coll_group pair = *g;
	if (op == COLL_SEND_RECV) {
		pair.ranks = 2;
		pair.per_node = g->per_node >= 2 ? 2 : 1;
	}
	if (pair.ranks < 2 || !(bytes > 0))
		return;
	struct view v;
	view_of(f, &pair, &v);
	double dn = (double)v.n;
	switch (op) {
	case COLL_ALL_REDUCE:
		all_reduce(&v, bytes, out);
		break;
	case COLL_REDUCE_SCATTER:
	case COLL_ALL_GATHER:
		out->time = ring_time(&v, (dn - 1) / dn * bytes, v.n - 1,
				      v.nodes - 1);
		break;
	case COLL_BROADCAST:
		out->time = ring_time(&v, bytes, v.n - 1, v.nodes - 1);
		break;
	case COLL_SEND_RECV:
		out->algo = COLL_DIRECT;
		out->time = send_recv(&v, bytes);
		break;
	case COLL_ALL_TO_ALL:
		out->algo = COLL_DIRECT;
		out->time = all_to_all(&v, bytes);
		break;
	case COLL_OP_COUNT:
		return;
	}
	if (out->time > 0)
		out->busbw = bytes / out->time * coll_bus_factor(op, v.n);
}

/* Weighted least squares of t = a + b s with weights 1/t^2. */
static int fit_line(const double *s, const double *t, size_t n, double *a,
		    double *b)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
	for (size_t i = 0; i < n; i++) {
		double w = 1 / (t[i] * t[i]);
		sw += w;
		sx += w * s[i];
		sy += w * t[i];
		sxx += w * s[i] * s[i];
		sxy += w * s[i] * t[i];
	}
	double det = sw * sxx - sx * sx;
	if (!(det > 0))
		return -1;
	*b = (sw * sxy - sx * sy) / det;
	*a = (sy - *b * sx) / sw;
	return 0;
}

#define FIT_MAX 64

int coll_fabric_measured(struct coll_fabric *f, long gpus,
			 const struct coll_point *pts, size_t n, char *why,
			 size_t len)
{
	double s[FIT_MAX], t[FIT_MAX];
	if (gpus < 2) {
		snprintf(why, len, "a measured all-reduce needs 2 GPUs or more, found %ld", gpus);
		return -1;
	}
	if (n < 2 || n > FIT_MAX) {
		snprintf(why, len, "a measured all-reduce curve needs 2 to %d points, found %zu",
			 FIT_MAX, n);
		return -1;
	}
	double factor = coll_bus_factor(COLL_ALL_REDUCE, gpus);
	for (size_t i = 0; i < n; i++) {
		if (!(pts[i].bytes > 0) || !(pts[i].busbw > 0) ||
		    !isfinite(pts[i].bytes) || !isfinite(pts[i].busbw)) {
			snprintf(why, len, "measured point %zu is not positive", i + 1);
			return -1;
		}
		s[i] = pts[i].bytes;
		t[i] = s[i] * factor / pts[i].busbw;
	}
	double a, b;
	if (fit_line(s, t, n, &a, &b) < 0 || !(b > 0)) {
		snprintf(why, len, "the measured all-reduce curve has fewer than two sizes or does not grow with size");
		return -1;
	}
	struct coll_level *l = &f->intra;
	if (l->bandwidth > 0) {
		l->efficiency = factor / (b * l->bandwidth);
	} else {
		l->bandwidth = factor / b;
		l->efficiency = 1;
	}
	double lat = fmax(0, (a - NCCL_BASE_RING) / (2 * (double)(gpus - 1)));
	l->tree_latency = l->latency > 0 ? l->tree_latency * lat / l->latency
					 : NCCL_TREE_STEP;
	l->latency = lat;
	f->from = from_measured;
	return 0;
}

/*
 * test_collective.c - collective times on hand-computed cases.
 *
 * The node used throughout, unless a case says otherwise: 8 GPUs on
 * NVSwitch at 900 GB/s bidirectional (450e9 B/s per direction per GPU),
 * 8 NICs totalling 3200 Gbit/s (400e9 B/s), RDMA with GPUDirect; default
 * efficiencies link 0.80, network_rdma 0.80, network_tcp 0.50, host_link
 * 0.80.  So intra = 450e9 x 0.8 = 360e9 B/s per GPU and the node's
 * network = 400e9 x 0.8 = 320e9 B/s.  NCCL latencies (collective.c):
 * ring base 8.4 us, ring step 3.4 us NVLink, 5.7 us PCI, 14 us network;
 * tree step 28 us; tree bandwidth 0.92 of the ring's.
 */
#include <string.h>

#include "check.h"
#include "hwmodel/collective.h"

#define GIB 1073741824.0
#define MIB 1048576.0

static void node_h100(struct instance *in)
{
	memset(in, 0, sizeof(*in));
	in->gpus = 8;
	in->intra.kind = LINK_NVSWITCH;
	in->intra.bandwidth = 900e9;
	in->network_bandwidth = 400e9;
	in->network_nics = 8;
	in->network_rdma = true;
	in->network_gpudirect = true;
}

static void fabric(const struct instance *in, struct coll_fabric *f)
{
	struct efficiency e;
	efficiency_default(&e);
	coll_fabric_of(in, &e, f);
}

static struct coll_cost run(const struct coll_fabric *f, enum coll_op op,
			    double bytes, long ranks, long per_node,
			    long sharing)
{
	struct coll_group g = {ranks, per_node, sharing};
	struct coll_cost c;
	collective_time(f, op, bytes, &g, &c);
	return c;
}

static void test_bus_factors(void)
{
	static const struct {
		enum coll_op op;
		long n;
		double want;
	} cases[] = {
		{COLL_ALL_REDUCE, 8, 1.75},	/* 2 x 7/8 */
		{COLL_ALL_REDUCE, 2, 1.0},	/* 2 x 1/2 */
		{COLL_ALL_REDUCE, 1, 0.0},
		{COLL_REDUCE_SCATTER, 8, 0.875},	/* 7/8 */
		{COLL_ALL_GATHER, 4, 0.75},	/* 3/4 */
		{COLL_ALL_TO_ALL, 2, 0.5},	/* 1/2 */
		{COLL_BROADCAST, 8, 1.0},
		{COLL_SEND_RECV, 2, 1.0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK_NEAR(coll_bus_factor(cases[i].op, cases[i].n),
			   cases[i].want, 1e-15);
	CHECK_STR(coll_op_name(COLL_ALL_REDUCE), "all-reduce");
	CHECK_STR(coll_op_name(COLL_ALL_TO_ALL), "all-to-all");
	CHECK_STR(coll_algo_name(COLL_TREE), "tree");
}

static void test_fabric_of(void)
{
	struct instance in;
	struct coll_fabric f;
	node_h100(&in);
	fabric(&in, &f);
	CHECK(f.gpus_per_node == 8 && f.nics == 8 && f.gpudirect);
	CHECK_NEAR(f.intra.bandwidth, 450e9, 1e-15);	/* 900 / 2 */
	CHECK_NEAR(f.intra.efficiency, 0.8, 1e-15);
	CHECK_NEAR(f.inter.bandwidth, 400e9, 1e-15);
	CHECK_NEAR(f.inter.efficiency, 0.8, 1e-15);
	CHECK_NEAR(f.intra.latency, 3.4e-6, 1e-12);
	CHECK_NEAR(f.inter.latency, 14e-6, 1e-12);
	CHECK(f.from && strstr(f.from, "assumption"));
	/* one GPU, no link: no intra level; nics 0 read as 1 */
	in.gpus = 1;
	in.intra.kind = LINK_NONE;
	in.intra.bandwidth = 0;
	in.network_nics = 0;
	fabric(&in, &f);
	CHECK(f.intra.bandwidth == 0 && f.nics == 1);
}

/* Ring all-reduce of 1 GiB inside one node (8 ranks, per_node 8):
 * bytes per GPU 2 x 7/8 x S = 1.75 S over 360e9 B/s, plus 8.4 us +
 * 14 steps x 3.4 us = 56 us. */
static void test_ring_in_node(void)
{
	struct instance in;
	struct coll_fabric f;
	node_h100(&in);
	fabric(&in, &f);
	struct coll_cost c = run(&f, COLL_ALL_REDUCE, GIB, 8, 8, 1);
	double want = 56e-6 + 1.75 * GIB / 360e9;	/* 5.2756 ms */
	CHECK(c.algo == COLL_RING);
	CHECK_NEAR(c.time, want, 1e-12);
	CHECK_NEAR(c.busbw, 1.75 * GIB / want, 1e-12);	/* 356.2e9 */
	/* the network is not touched: TCP nodes give the same time */
	in.network_rdma = in.network_gpudirect = false;
	fabric(&in, &f);
	CHECK_NEAR(run(&f, COLL_ALL_REDUCE, GIB, 8, 8, 1).time, want, 1e-12);
}

/* 4 nodes x 8 GPUs (32 ranks, per_node 8), 1 GiB: each node sends
 * 2 x 31/32 S = 1.9375 S over all 8 NICs at 320e9 B/s (slower than the
 * 360e9 link).  Latency: 62 steps, 2 x 4 = 8 of them on the network:
 * 8.4 + 54 x 3.4 + 8 x 14 = 304 us.  Tree: 504 us (2 (7 x 28 + 2 x 28))
 * + 2 S / 0.92 / 320e9 = 7.80 ms > ring 6.81 ms.  busbw = 1.9375 S / t
 * = 305.7e9, within 5% of the node's 400e9 x 0.8. */
static void test_ring_across_nodes(void)
{
	struct instance in;
	struct coll_fabric f;
	node_h100(&in);
	fabric(&in, &f);
	struct coll_cost c = run(&f, COLL_ALL_REDUCE, GIB, 32, 8, 1);
	double want = 304e-6 + 1.9375 * GIB / 320e9;
	CHECK(c.algo == COLL_RING);
	CHECK_NEAR(c.time, want, 1e-12);
	CHECK_NEAR(c.busbw, 320e9, 0.05);
}

/* Data parallel over 4 nodes with tp x pp = 8: one rank per node,
 * 8 such groups at once in each node share its NICs: 320e9 / 8 = 40e9.
 * 1 GiB: 2 x 3/4 S = 1.5 S over 40e9; 6 steps, all on the network
 * (NCCL's 2 x 4 inter steps capped at 6): 8.4 + 6 x 14 = 92.4 us. */
static void test_sharing(void)
{
	struct instance in;
	struct coll_fabric f;
	node_h100(&in);
	fabric(&in, &f);
	struct coll_cost c = run(&f, COLL_ALL_REDUCE, GIB, 4, 1, 8);
	double want = 92.4e-6 + 1.5 * GIB / 40e9;
	CHECK(c.algo == COLL_RING);
	CHECK_NEAR(c.time, want, 1e-12);
	CHECK_NEAR(c.busbw, 40e9, 0.01);	/* 1/8 of 320e9 */
	/* alone (sharing 1) one rank reaches only its own NIC: 1/8 too */
	CHECK_NEAR(run(&f, COLL_ALL_REDUCE, GIB, 4, 1, 1).time, want, 1e-12);
	/* two groups of 4 per node share it by halves: 160e9 */
	c = run(&f, COLL_ALL_REDUCE, GIB, 16, 4, 2);
	CHECK_NEAR(c.busbw, 160e9, 0.05);
}

/* 16 nodes x 8 (128 ranks).  Ring latency: 254 steps, 32 inter:
 * 8.4 + 222 x 3.4 + 32 x 14 = 1211.2 us.  Tree latency:
 * 2 (7 x 28 + log2(16) x 28) = 616 us.  Bandwidth terms over 320e9:
 * ring 2 x 127/128 S = 1.984375 S, tree 2 S / 0.92 = 2.173913 S.
 * 64 KiB: tree 616.4 us < ring 1211.6 us.  4 GiB: ring 1211.2 us +
 * 26.63 ms = 27.84 ms < tree 616 us + 29.18 ms = 29.79 ms. */
static void test_tree_or_ring(void)
{
	struct instance in;
	struct coll_fabric f;
	node_h100(&in);
	fabric(&in, &f);
	double small = 65536;
	struct coll_cost c = run(&f, COLL_ALL_REDUCE, small, 128, 8, 1);
	CHECK(c.algo == COLL_TREE);
	CHECK_NEAR(c.time, 616e-6 + 2 * small / 0.92 / 320e9, 1e-12);
	c = run(&f, COLL_ALL_REDUCE, 4 * GIB, 128, 8, 1);
	CHECK(c.algo == COLL_RING);
	CHECK_NEAR(c.time, 1211.2e-6 + 1.984375 * 4 * GIB / 320e9, 1e-12);
	/* inside one node always the ring, whatever the size */
	CHECK(run(&f, COLL_ALL_REDUCE, 8, 8, 8, 1).algo == COLL_RING);
}

/* Reduce-scatter of S moves (n-1)/n S per GPU, half of all-reduce's
 * 2(n-1)/n S: in one node 7/8 S / 360e9 against 1.75 S / 360e9.
 * Latencies: 8.4 + 7 x 3.4 = 32.2 us and 8.4 + 14 x 3.4 = 56 us.
 * All-gather is priced the same. */
static void test_reduce_scatter_half(void)
{
	struct instance in;
	struct coll_fabric f;
	node_h100(&in);
	fabric(&in, &f);
	double s = 256 * MIB;
	double rs = run(&f, COLL_REDUCE_SCATTER, s, 8, 8, 1).time - 32.2e-6;
	double ar = run(&f, COLL_ALL_REDUCE, s, 8, 8, 1).time - 56e-6;
	CHECK_NEAR(2 * rs, ar, 1e-9);
	CHECK_NEAR(rs, 0.875 * s / 360e9, 1e-9);
	CHECK_NEAR(run(&f, COLL_ALL_GATHER, s, 8, 8, 1).time, rs + 32.2e-6,
		   1e-12);
	/* across 4 nodes: 31/32 S over 320e9, 31 steps, 3 on the network:
	 * 8.4 + 28 x 3.4 + 3 x 14 = 145.6 us */
	CHECK_NEAR(run(&f, COLL_REDUCE_SCATTER, s, 32, 8, 1).time,
		   145.6e-6 + 31.0 / 32 * s / 320e9, 1e-12);
}

/* Send/recv of 64 MiB: in a node 3.4 us + S / 360e9; across nodes one
 * GPU's share of the NICs, 8 NICs / 8 GPUs = one NIC = 320e9 / 8 = 40e9:
 * 14 us + S / 40e9.  On a node with 4 NICs for 8 GPUs (p4d) a lone pair
 * has one whole NIC, 1/4 of the node; with 8 pairs at once 1/8. */
static void test_send_recv(void)
{
	struct instance in;
	struct coll_fabric f;
	node_h100(&in);
	fabric(&in, &f);
	double s = 64 * MIB;
	struct coll_cost c = run(&f, COLL_SEND_RECV, s, 2, 2, 1);
	CHECK(c.algo == COLL_DIRECT);
	CHECK_NEAR(c.time, 3.4e-6 + s / 360e9, 1e-12);
	CHECK_NEAR(run(&f, COLL_SEND_RECV, s, 2, 1, 1).time, 14e-6 + s / 40e9,
		   1e-12);
	in.network_nics = 4;
	in.network_bandwidth = 50e9;	/* 4 x 100 Gbit/s */
	fabric(&in, &f);
	/* 50e9 x 0.8 / 4 = 10e9 */
	CHECK_NEAR(run(&f, COLL_SEND_RECV, s, 2, 1, 1).time, 14e-6 + s / 10e9,
		   1e-12);
	CHECK_NEAR(run(&f, COLL_SEND_RECV, s, 2, 1, 8).time, 14e-6 + s / 5e9,
		   1e-12);
}

/* All-to-all of 1 GiB over 2 nodes x 8: each GPU keeps 7/16 S inside the
 * node (over 360e9) and each node sends 8 x 8/16 S = 4 S through 320e9:
 * the network bounds, 3.4 + 14 us of latency.  Broadcast in one node:
 * S over 360e9, 7 steps: 8.4 + 7 x 3.4 = 32.2 us. */
static void test_all_to_all_broadcast(void)
{
	struct instance in;
	struct coll_fabric f;
	node_h100(&in);
	fabric(&in, &f);
	struct coll_cost c = run(&f, COLL_ALL_TO_ALL, GIB, 16, 8, 1);
	CHECK(c.algo == COLL_DIRECT);
	CHECK_NEAR(c.time, 17.4e-6 + 4 * GIB / 320e9, 1e-12);
	CHECK_NEAR(run(&f, COLL_BROADCAST, GIB, 8, 8, 1).time,
		   32.2e-6 + GIB / 360e9, 1e-12);
}

/* The same 4 x 8 all-reduce on three networks, bandwidth terms only
 * (1.9375 S over the node's rate): GPUDirect 400e9 x 0.8 = 320e9;
 * RDMA staged through the host 400e9 x 0.8 x 0.83 = 265.6e9; TCP
 * 400e9 x 0.5 = 200e9.  With PCIe Gen3 host links (32 GB/s, 16e9 one
 * way) the staged paths are bounded by 8 x 16e9 x 0.8 = 102.4e9. */
static void test_networks(void)
{
	struct instance in;
	struct coll_fabric f;
	struct accelerator acc;
	node_h100(&in);
	double lat = 304e-6, s = GIB;
	fabric(&in, &f);
	double gdr = run(&f, COLL_ALL_REDUCE, s, 32, 8, 1).time;
	CHECK_NEAR(gdr, lat + 1.9375 * s / 320e9, 1e-12);
	in.network_gpudirect = false;
	fabric(&in, &f);
	double rdma = run(&f, COLL_ALL_REDUCE, s, 32, 8, 1).time;
	CHECK_NEAR(rdma, lat + 1.9375 * s / 265.6e9, 1e-12);
	CHECK(strstr(f.from, "host memory") != NULL);
	in.network_rdma = false;
	fabric(&in, &f);
	double tcp = run(&f, COLL_ALL_REDUCE, s, 32, 8, 1).time;
	CHECK_NEAR(tcp, lat + 1.9375 * s / 200e9, 1e-12);
	CHECK(gdr < rdma && rdma < tcp);
	/* gpudirect without rdma is not GPUDirect RDMA */
	in.network_gpudirect = true;
	fabric(&in, &f);
	CHECK(!f.gpudirect);
	memset(&acc, 0, sizeof(acc));
	acc.host_interface.kind = LINK_PCIE;
	acc.host_interface.bandwidth = 32e9;
	in.acc = &acc;
	in.network_rdma = true;
	in.network_gpudirect = false;
	fabric(&in, &f);
	CHECK_NEAR(f.inter.bandwidth * f.inter.efficiency, 102.4e9, 1e-12);
	in.network_gpudirect = true;	/* GPUDirect skips the host */
	fabric(&in, &f);
	CHECK_NEAR(f.inter.bandwidth * f.inter.efficiency, 320e9, 1e-12);
}

/* A measured curve made from a known line: 8 GPUs, efficiency 0.9 of
 * 450e9 and 2 us a step, so t = a + b S with a = 8.4 + 14 x 2 = 36.4 us
 * and b = 1.75 / (450e9 x 0.9) = 1.75 / 405e9; busbw = 1.75 S / t.  The
 * fit gives both back, and the in-node all-reduce then lands on the
 * measured times; the network level is untouched. */
static void test_measured(void)
{
	struct instance in;
	struct coll_fabric f;
	node_h100(&in);
	fabric(&in, &f);
	double a = 36.4e-6, b = 1.75 / 405e9;
	double sizes[] = {MIB, 16 * MIB, 256 * MIB, GIB};
	struct coll_point pts[4];
	for (int i = 0; i < 4; i++) {
		pts[i].bytes = sizes[i];
		pts[i].busbw = 1.75 * sizes[i] / (a + b * sizes[i]);
	}
	char why[160];
	CHECK(coll_fabric_measured(&f, 8, pts, 4, why, sizeof(why)) == 0);
	CHECK_NEAR(f.intra.efficiency, 0.9, 1e-9);
	CHECK_NEAR(f.intra.latency, 2e-6, 1e-6);
	CHECK_NEAR(f.inter.efficiency, 0.8, 1e-15);
	CHECK(strncmp(f.from, "measured", 8) == 0);
	for (int i = 0; i < 4; i++) {
		struct coll_cost c = run(&f, COLL_ALL_REDUCE, sizes[i], 8, 8, 1);
		CHECK_NEAR(c.busbw, pts[i].busbw, 1e-6);
	}
	/* refused, f unchanged */
	struct coll_fabric g = f;
	CHECK(coll_fabric_measured(&g, 1, pts, 4, why, sizeof(why)) < 0);
	CHECK_HAS(why, "2 GPUs");
	CHECK(coll_fabric_measured(&g, 8, pts, 1, why, sizeof(why)) < 0);
	pts[1].busbw = 0;
	CHECK(coll_fabric_measured(&g, 8, pts, 4, why, sizeof(why)) < 0);
	CHECK_HAS(why, "point 2");
	CHECK(g.intra.efficiency == f.intra.efficiency);
}

/* Degenerate groups cost nothing and say so with busbw 0. */
static void test_degenerate(void)
{
	struct instance in;
	struct coll_fabric f;
	node_h100(&in);
	fabric(&in, &f);
	struct coll_cost c = run(&f, COLL_ALL_REDUCE, GIB, 1, 1, 1);
	CHECK(c.time == 0 && c.busbw == 0);
	c = run(&f, COLL_ALL_REDUCE, 0, 8, 8, 1);
	CHECK(c.time == 0);
	/* per_node 0 and sharing 0 are read as 1 */
	c = run(&f, COLL_ALL_REDUCE, GIB, 4, 0, 0);
	CHECK_NEAR(c.time, 92.4e-6 + 1.5 * GIB / 40e9, 1e-12);
}

int main(void)
{
	test_bus_factors();
	test_fabric_of();
	test_ring_in_node();
	test_ring_across_nodes();
	test_sharing();
	test_tree_or_ring();
	test_reduce_scatter_half();
	test_send_recv();
	test_all_to_all_broadcast();
	test_networks();
	test_measured();
	test_degenerate();
	return check_summary("collective");
}

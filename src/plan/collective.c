/* TEMPORARY local stand-in (not committed): ring only, until the collectives module lands. */
#include "collective.h"
double coll_bus_factor(enum coll_op op, long n)
{
	if (n <= 1) return 1;
	switch (op) {
	case COLL_ALL_REDUCE: return 2.0 * (n - 1) / n;
	case COLL_REDUCE_SCATTER: case COLL_ALL_GATHER: case COLL_ALL_TO_ALL: return (double)(n - 1) / n;
	default: return 1;
	}
}
void coll_fabric_of(const struct instance *in, const struct efficiency *e, struct coll_fabric *f)
{
	f->gpus_per_node = in->gpus;
	f->nics = in->network_nics > 0 ? in->network_nics : 1;
	f->rdma = in->network_rdma;
	f->gpudirect = in->network_gpudirect;
	f->intra.bandwidth = in->intra.kind == LINK_NONE ? 0 : in->intra.bandwidth / 2;
	f->intra.efficiency = e->link;
	f->intra.latency = 5e-6;
	f->inter.bandwidth = in->network_bandwidth;
	f->inter.efficiency = in->network_rdma ? e->network_rdma : e->network_tcp;
	f->inter.latency = 10e-6;
	f->from = "temporary";
}
void collective_time(const struct coll_fabric *f, enum coll_op op, double bytes, const struct coll_group *g, struct coll_cost *out)
{
	long n = g->ranks;
	double factor = op == COLL_SEND_RECV ? 1 : coll_bus_factor(op, n);
	double intra = f->intra.bandwidth * f->intra.efficiency;
	double t;
	if (g->per_node >= n) {
		t = intra > 0 ? factor * bytes / intra : 0;
	} else {
		double inter = f->inter.bandwidth * f->inter.efficiency / (g->sharing > 0 ? g->sharing : 1);
		t = factor * bytes / inter;
		if (intra > 0 && factor * bytes / intra > t) t = factor * bytes / intra;
	}
	t += 2.0 * (n - 1) * f->inter.latency;
	out->time = t; out->algo = COLL_RING; out->busbw = t > 0 ? factor * bytes / t : 0;
}

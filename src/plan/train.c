/*
 * train.c - a training run on one instance type: how many, how to split
 * the work, how long each step takes and what the run costs.
 *
 * For each cluster size (1, 2, 4, ... instances) the smallest tensor-
 * parallel degree inside a node (then pipeline stages, where the workload
 * allows them) at which the model fits is chosen, with the largest
 * power-of-two micro-batch that fits; data parallelism takes the rest.
 * A step is then:
 *   accumulation x micro-step (3 forward passes, 4 with full
 *       recomputation, plus the attention core again with selective; each
 *       forward by the roofline), plus tensor-parallel all-reduces,
 *   x the 1F1B pipeline bubble (1 + (pp - 1) / accumulation; Narayanan
 *       et al. 2021),
 *   + the gradient all-reduce that the last backward pass does not hide,
 *   + data loading that compute does not hide.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/xalloc.h"
#include "model/memory.h"
#include "plan.h"
#include "roofline.h"

#define LOG_MICRO_SLOTS 16	/* micro-batches 1 .. 32768 */
#define LOG_TP_SLOTS 4		/* tensor parallelism 1 .. 8 */

struct cached_roofline {
	bool valid;
	struct roofline r;
};

struct split {
	long tp, pp, dp, micro, accumulation, local;
	double memory;		/* bytes per GPU */
	double parts[MEM_PARTS];	/* memory by part */
	bool fits;
};

struct cached_split {
	bool valid;
	struct split sp;
};

/* The split depends only on the accelerator, the GPUs per instance and the
 * instance count: computed once for the many instance types that share
 * them. */
#define CACHED_GPUS_PER_NODE 17		/* 0 .. 16 */
#define CACHED_NODE_SLOTS 10		/* 1 .. 512 instances */


/*
 * What a step takes on a machine depends on its hardware, not on its name,
 * region or price.  A large catalog repeats the same machine in many
 * regions, so steps are kept per hardware signature and cluster size.
 */
struct signature {
	const struct accelerator *acc;
	long gpus, vcpus, nodes;
	int intra_kind;
	double intra_bandwidth, network_bandwidth;
	bool rdma;
};

struct step {
	double micro_compute;		/* s, one micro-batch fwd + bwd */
	double tp_comm;			/* s per micro-batch */
	double dp_comm;			/* s per step, before overlap */
	double exposed_comm;
	double input, exposed_input;
	double compute_step;		/* accumulation x micro x bubble */
	double total;
	struct roofline fwd;
};

struct cached_step {
	bool used;
	struct signature sig;
	struct split sp;
	struct step st;
};

struct train_prep {
	const struct catalog *c;
	const struct workload *w;
	struct model_graph g;
	struct memory_model mm;
	double forward_flops;		/* per sample */
	struct cached_roofline *cache;	/* accelerators x micro x tp */
	struct cached_split *splits;	/* accelerators x GPUs x nodes */
	struct cached_step *steps;	/* open addressing, by signature */
	size_t n_steps, cap_steps;	/* cap: a power of two */
};

struct train_prep *train_prepare(const struct catalog *c,
				 const struct workload *w,
				 struct gp_errors *errs)
{
	struct train_prep *p = xcalloc(1, sizeof(*p));
	p->c = c;
	p->w = w;
	long seq = w->model->kind == MODEL_TRANSFORMER ? w->train.seq : 0;
	if (model_build(w->model, seq, &p->g, errs) < 0) {
		train_prep_free(p);
		return NULL;
	}
	memory_model_init(&p->mm, w->model, &p->g);
	for (size_t i = 0; i < p->g.n; i++)
		p->forward_flops += p->g.ops[i].flops;
	p->cache = xcalloc(c->n_acc * LOG_MICRO_SLOTS * LOG_TP_SLOTS + 1,
			   sizeof(*p->cache));
	p->splits = xcalloc(c->n_acc * CACHED_GPUS_PER_NODE * CACHED_NODE_SLOTS + 1,
			    sizeof(*p->splits));
	return p;
}

const struct model_graph *train_prep_graph(const struct train_prep *p)
{
	return &p->g;
}

void train_prep_free(struct train_prep *p)
{
	if (!p)
		return;
	model_graph_free(&p->g);
	free(p->cache);
	free(p->splits);
	free(p->steps);
	free(p);
}

static int log2_of(long v)
{
	int k = 0;
	while ((1L << (k + 1)) <= v)
		k++;
	return k;
}

/* One forward pass of `micro` samples on a, split over tp: computed once
 * per accelerator, micro-batch and tp, whatever instance carries it. */
static const struct roofline *forward(struct train_prep *p,
				      const struct accelerator *a, long micro,
				      long tp, const struct plan_settings *s)
{
	size_t ai = (size_t)(a - p->c->acc);
	size_t k = (ai * LOG_MICRO_SLOTS + (size_t)log2_of(micro)) * LOG_TP_SLOTS +
		   (size_t)log2_of(tp);
	struct cached_roofline *cr = &p->cache[k];
	if (!cr->valid) {
		roofline_forward(&p->g, micro, a, p->w->precision, 1.0 / tp, 1.0,
				 &s->eff, &cr->r);
		cr->valid = true;
	}
	return &cr->r;
}

/* ---- the split ---- */

static struct train_setup setup_of(const struct workload *w, const struct split *sp)
{
	return (struct train_setup){w->precision, w->train.optimizer, w->train.zero,
				    sp->dp, sp->tp, sp->pp, sp->micro,
				    w->train.recompute};
}

/* The largest power-of-two micro-batch <= local that fits memory. */
static bool fit_micro(struct train_prep *p, double capacity, struct split *sp)
{
	long m = 1L << log2_of(sp->local);
	if (m > (1L << (LOG_MICRO_SLOTS - 1)))
		m = 1L << (LOG_MICRO_SLOTS - 1);
	for (; m >= 1; m /= 2) {
		sp->micro = m;
		struct train_setup t = setup_of(p->w, sp);
		struct memory_breakdown mb;
		memory_training_of(&p->mm, &t, false, &mb);
		sp->memory = mb.total;
		memcpy(sp->parts, mb.bytes, sizeof(sp->parts));
		if (sp->memory <= capacity) {
			sp->accumulation = (sp->local + m - 1) / m;
			return true;
		}
	}
	sp->micro = 1;
	sp->accumulation = sp->local;
	return false;
}

/* Smallest tp (then pp) that fits: less splitting, less communication. */
static void choose_split(struct train_prep *p, const struct instance *in,
			 long gpus, struct split *best)
{
	const struct workload *w = p->w;
	long global = w->train.global_batch;
	long max_tp = w->model->kind == MODEL_TRANSFORMER ? in->gpus : 1;
	if (w->train.max_tp && w->train.max_tp < max_tp)
		max_tp = w->train.max_tp;
	if (max_tp > (1L << (LOG_TP_SLOTS - 1)))
		max_tp = 1L << (LOG_TP_SLOTS - 1);
	long max_pp = w->model->kind == MODEL_TRANSFORMER && w->train.max_pp
			      ? w->train.max_pp : 1;
	double capacity = in->acc->memory;
	memset(best, 0, sizeof(*best));
	for (long pp = 1; pp <= max_pp && pp <= gpus; pp *= 2)
		for (long tp = 1; tp <= max_tp; tp *= 2) {
			struct split sp = {.tp = tp, .pp = pp};
			if (gpus % (tp * pp))
				continue;
			sp.dp = gpus / (tp * pp);
			if (sp.dp > global)
				continue;
			sp.local = (global + sp.dp - 1) / sp.dp;
			sp.fits = fit_micro(p, capacity, &sp);
			if (sp.fits || best->tp == 0 || sp.memory < best->memory)
				*best = sp;
			if (sp.fits)
				return;
		}
}

/* ---- time per step ---- */

/* Ring all-reduce (Patarasuk and Yuan 2009; nccl-tests' bus bandwidth):
 * each of n ranks sends and receives 2 (n - 1) / n of the data. */
static double ring_allreduce(double bytes, long n, double bandwidth)
{
	if (n <= 1 || bandwidth <= 0)
		return 0;
	return 2.0 * (n - 1) / n * bytes / bandwidth;
}

/* Per direction: catalogs give links' bidirectional totals. */
static double intra_bandwidth(const struct instance *in, const struct efficiency *e)
{
	return in->intra.kind == LINK_NONE ? 0 : in->intra.bandwidth / 2 * e->link;
}

/* A GPU's share of the instance network. */
static double network_share(const struct instance *in, const struct efficiency *e)
{
	double eff = in->network_rdma ? e->network_rdma : e->network_tcp;
	return in->network_bandwidth * eff / in->gpus;
}


static double passes(enum recompute r)
{
	return r == RECOMPUTE_FULL ? 4 : 3;
}

/* Megatron's tensor parallelism all-reduces the activations twice per
 * layer forward and twice backward (Shoeybi et al. 2019). */
static double tp_comm_time(const struct train_prep *p, const struct instance *in,
			   const struct split *sp, const struct efficiency *e)
{
	const struct model *m = p->w->model;
	if (sp->tp == 1 || m->kind != MODEL_TRANSFORMER)
		return 0;
	double bytes = (double)p->g.seq * sp->micro * m->tf.hidden *
		       precision_bytes(p->w->precision);
	return 4.0 * m->tf.layers *
	       ring_allreduce(bytes, sp->tp, intra_bandwidth(in, e));
}

static double dp_comm_time(const struct train_prep *p, const struct instance *in,
			   long nodes, const struct split *sp,
			   const struct efficiency *e)
{
	bool full = p->w->precision == PREC_FP32 || p->w->precision == PREC_TF32;
	double grads = p->mm.params / (sp->tp * sp->pp) * (full ? 4 : 2);
	/* ZeRO-3 gathers weights again for backward: 1.5x the traffic
	 * (Rajbhandari et al. 2020, section 7). */
	if (p->w->train.zero == 3)
		grads *= 1.5;
	double bw = intra_bandwidth(in, e);
	if (nodes > 1 && (bw == 0 || network_share(in, e) < bw))
		bw = network_share(in, e);
	return ring_allreduce(grads, sp->dp, bw);
}

/* Decoding on all vCPUs of a node and copying each GPU's share over its
 * host link, overlapped with compute; only what is left over stalls. */
static double input_time(const struct train_prep *p, const struct instance *in,
			 long nodes, const struct split *sp,
			 const struct efficiency *e)
{
	const struct training *t = &p->w->train;
	if (!t->has_input)
		return 0;
	double per_node = (double)t->global_batch / nodes;
	double decode = per_node * t->decode_time_per_sample / in->vcpus;
	double link = in->acc->host_interface.bandwidth / 2 * e->host_link;
	double copy = link > 0 ? sp->local * t->bytes_per_sample / link : 0;
	return decode > copy ? decode : copy;
}

static void step_time(struct train_prep *p, const struct instance *in,
		      long nodes, const struct split *sp,
		      const struct plan_settings *s, struct step *st)
{
	const struct efficiency *e = &s->eff;
	memset(st, 0, sizeof(*st));
	st->fwd = *forward(p, in->acc, sp->micro, sp->tp, s);
	double f = st->fwd.time;
	st->micro_compute = passes(p->w->train.recompute) * f;
	if (p->w->train.recompute == RECOMPUTE_SELECTIVE)
		st->micro_compute += st->fwd.class_time[OPC_ATTENTION];
	st->tp_comm = tp_comm_time(p, in, sp, e);
	double bubble = 1 + (double)(sp->pp - 1) / sp->accumulation;
	st->compute_step = sp->accumulation * (st->micro_compute + st->tp_comm) * bubble;
	st->dp_comm = dp_comm_time(p, in, nodes, sp, e);
	double hidden = e->overlap * 2 * f;	/* the last backward pass */
	st->exposed_comm = st->dp_comm > hidden ? st->dp_comm - hidden : 0;
	st->input = input_time(p, in, nodes, sp, e);
	st->exposed_input = st->input > st->compute_step ? st->input - st->compute_step : 0;
	st->total = st->compute_step + st->exposed_comm + st->exposed_input;
}

/* ---- one option ---- */

static void note_memory(struct plan_option *o, const struct instance *in,
			const struct split *sp)
{
	struct plan_reason r = {.code = REASON_MEMORY, .a = sp->memory,
				.b = in->acc->memory, .n1 = sp->tp, .n2 = sp->pp,
				.s1 = in->acc->name};
	plan_option_code(o, &r);
}

/* An instance's prices per hour in the plan currency, converted once for
 * all its options. */
struct prices {
	bool ok, has_spot;
	double on_demand, spot;
};

static struct prices prices_of(const struct catalog *c, const struct instance *in,
			       const struct plan_settings *s)
{
	struct prices pr = {0};
	char why[256];
	struct money m;
	if (catalog_convert(c, &in->on_demand, s->currency, &m, why, sizeof(why)) < 0)
		return pr;
	pr.ok = true;
	pr.on_demand = m.amount;
	if (in->has_spot &&
	    catalog_convert(c, &in->spot, s->currency, &m, why, sizeof(why)) == 0) {
		pr.has_spot = true;
		pr.spot = m.amount;
	}
	return pr;
}

static void price_option(const struct instance *in, const struct prices *pr,
			 long nodes, double hours, const struct plan_settings *s,
			 struct plan_option *o)
{
	if (!pr->ok) {
		struct plan_reason r = {.code = REASON_NO_RATE};
		plan_reason_currency(&r, 0, in->on_demand.currency);
		plan_reason_currency(&r, 1, s->currency);
		o->feasible = false;
		plan_option_code(o, &r);
		return;
	}
	o->cost = pr->on_demand * nodes * hours;
	if (pr->has_spot) {
		o->has_spot = true;
		o->cost_spot = pr->spot * nodes * hours * (1 + s->eff.spot_overhead);
	}
	if (in->illustrative) {
		struct plan_reason r = {.code = REASON_ILLUSTRATIVE};
		plan_option_code(o, &r);
	}
}

static void check_limits(const struct workload *w, const struct plan_settings *s,
			 const struct plan_result *r, struct plan_option *o)
{
	const struct training *t = &w->train;
	if (t->deadline > 0 && o->time_s > t->deadline) {
		struct plan_reason r = {.code = REASON_DEADLINE, .a = o->time_s,
					.b = t->deadline};
		o->feasible = false;
		plan_option_code(o, &r);
	}
	if (t->has_budget) {
		double cost = s->spot && t->spot && o->has_spot ? o->cost_spot : o->cost;
		double budget = r->budget;	/* in the plan currency */
		if (budget > 0 && cost > budget) {
			struct plan_reason rr = {.code = REASON_BUDGET, .a = cost,
						 .b = budget};
			plan_reason_currency(&rr, 0, s->currency);
			o->feasible = false;
			plan_option_code(o, &rr);
		}
	}
}

static void fill_option(struct train_prep *p, const struct instance *in,
			const struct prices *pr, long nodes,
			const struct split *sp, const struct step *st,
			const struct plan_settings *s, struct plan_option *o)
{
	const struct workload *w = p->w;
	long gpus = nodes * in->gpus;
	o->dp = sp->dp;
	o->tp = sp->tp;
	o->pp = sp->pp;
	o->zero = w->train.zero;
	o->micro_batch = sp->micro;
	o->accumulation = sp->accumulation;
	o->step_s = st->total;
	o->time_s = st->total * w->train.steps;
	o->per_step.compute = st->compute_step * st->fwd.compute_bound /
			      (st->fwd.time > 0 ? st->fwd.time : 1);
	o->per_step.memory = st->compute_step - o->per_step.compute;
	o->per_step.communication = st->exposed_comm;
	o->per_step.input = st->exposed_input;
	double hours = o->time_s / 3600;
	o->gpu_hours = gpus * hours;
	o->energy_kwh = gpus * in->acc->tdp * hours / 1000;
	o->memory_per_gpu = sp->memory;
	memcpy(o->memory_parts, sp->parts, sizeof(o->memory_parts));
	double peak = roofline_matrix_peak(in->acc, w->precision, &o->precision_used);
	double model_flops = 3 * p->forward_flops * w->train.global_batch;
	o->mfu = st->total > 0 && peak > 0 ? model_flops / (st->total * gpus * peak) : 0;
	price_option(in, pr, nodes, hours, s, o);
	if (o->precision_used != w->precision) {
		struct plan_reason r = {.code = REASON_PRECISION,
					.p_used = (int)o->precision_used,
					.p_wanted = (int)w->precision,
					.s1 = in->acc->name};
		plan_option_code(o, &r);
	}
	if (st->exposed_input > 0) {
		struct plan_reason r = {.code = REASON_STARVE, .a = st->input,
					.b = st->compute_step,
					.c = st->exposed_input / st->total};
		plan_option_code(o, &r);
	}
}

static void cached_split(struct train_prep *p, const struct instance *in,
			 long nodes, struct split *sp)
{
	int slot = log2_of(nodes);
	if (in->gpus >= CACHED_GPUS_PER_NODE || slot >= CACHED_NODE_SLOTS) {
		choose_split(p, in, nodes * in->gpus, sp);
		return;
	}
	size_t ai = (size_t)(in->acc - p->c->acc);
	struct cached_split *cs =
		&p->splits[(ai * CACHED_GPUS_PER_NODE + (size_t)in->gpus) *
				   CACHED_NODE_SLOTS + (size_t)slot];
	if (!cs->valid) {
		choose_split(p, in, nodes * in->gpus, &cs->sp);
		cs->valid = true;
	}
	*sp = cs->sp;
}

static struct signature signature_of(const struct instance *in, long nodes)
{
	struct signature g;
	memset(&g, 0, sizeof(g));	/* padding too: signatures are compared bytewise */
	g.acc = in->acc;
	g.gpus = in->gpus;
	g.vcpus = in->vcpus;
	g.nodes = nodes;
	g.intra_kind = (int)in->intra.kind;
	g.intra_bandwidth = in->intra.bandwidth;
	g.network_bandwidth = in->network_bandwidth;
	g.rdma = in->network_rdma;
	return g;
}

/* A double's bits: hashing them needs no conversion to an integer, which
 * would be undefined for a value past 2^64. */
static uint64_t bits_of(double x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof(b));
	return b;
}

/* A cheap mix of the fields that vary most; equality is still checked
 * on every field. */
static uint64_t signature_hash(const struct signature *g)
{
	uint64_t h = (uint64_t)(uintptr_t)g->acc * 0x9E3779B97F4A7C15ull;
	h ^= (uint64_t)g->gpus * 0xC2B2AE3D27D4EB4Full + (uint64_t)g->nodes;
	h ^= (uint64_t)g->vcpus * 0x165667B19E3779F9ull;
	h ^= bits_of(g->network_bandwidth) * 0x27D4EB2F165667C5ull;
	h ^= bits_of(g->intra_bandwidth) * 0x9E3779B97F4A7C15ull + (uint64_t)g->rdma;
	return h ^ (h >> 29);
}

static struct cached_step *find_slot(struct cached_step *v, size_t cap,
				     const struct signature *g)
{
	size_t i = (size_t)signature_hash(g) & (cap - 1);
	while (v[i].used && memcmp(&v[i].sig, g, sizeof(*g)) != 0)
		i = (i + 1) & (cap - 1);
	return &v[i];
}

static void grow_steps(struct train_prep *p)
{
	size_t cap = p->cap_steps ? 2 * p->cap_steps : 64;
	struct cached_step *v = xcalloc(cap, sizeof(*v));
	for (size_t i = 0; i < p->cap_steps; i++)
		if (p->steps[i].used)
			*find_slot(v, cap, &p->steps[i].sig) = p->steps[i];
	free(p->steps);
	p->steps = v;
	p->cap_steps = cap;
}

/* The split and step of `nodes` instances like `in`, computed once per
 * hardware signature. */
static const struct cached_step *cached_step(struct train_prep *p,
					     const struct instance *in,
					     long nodes,
					     const struct plan_settings *s)
{
	struct signature g = signature_of(in, nodes);
	if (2 * (p->n_steps + 1) > p->cap_steps)
		grow_steps(p);
	struct cached_step *c = find_slot(p->steps, p->cap_steps, &g);
	if (c->used)
		return c;
	c->used = true;
	c->sig = g;
	p->n_steps++;
	cached_split(p, in, nodes, &c->sp);
	if (c->sp.tp != 0)
		step_time(p, in, nodes, &c->sp, s, &c->st);
	return c;
}

static void add_option(struct train_prep *p, const struct instance *in,
		       const struct prices *pr, long nodes,
		       const struct plan_settings *s, struct plan_result *r)
{
	const struct cached_step *cs = cached_step(p, in, nodes, s);
	struct split sp = cs->sp;
	if (sp.tp == 0)
		return;		/* more data-parallel ranks than the batch has samples */
	struct plan_option *o = plan_result_add(r);
	o->inst = in;
	o->nodes = nodes;
	o->gpus = nodes * in->gpus;
	o->memory_capacity = in->acc->memory;
	o->feasible = true;
	fill_option(p, in, pr, nodes, &sp, &cs->st, s, o);
	if (!sp.fits) {
		o->feasible = false;
		note_memory(o, in, &sp);
		return;
	}
	o->runnable = o->feasible;	/* false only if the price did not convert */
	check_limits(p->w, s, r, o);
}

void plan_training(struct train_prep *p, const struct instance *in,
		   const struct plan_settings *s, struct plan_result *r)
{
	const struct training *t = &p->w->train;
	struct prices pr = prices_of(p->c, in, s);
	for (long nodes = 1; nodes <= PLAN_MAX_NODES; nodes *= 2) {
		long gpus = nodes * in->gpus;
		if (t->max_gpus && gpus > t->max_gpus)
			break;
		/* every rank needs a sample: past that, more GPUs cannot help */
		long max_split = (t->max_tp ? t->max_tp : in->gpus) *
				 (t->max_pp ? t->max_pp : 1);
		if (gpus > t->global_batch * max_split)
			break;
		add_option(p, in, &pr, nodes, s, r);
	}
}

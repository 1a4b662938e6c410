/*
 * train.c - a training run on one instance type: how many, how to split
 * the work, how long each step takes and what the run costs.
 *
 * For each cluster size (1, 2, 4, ... instances, or the one the workload
 * fixes) the layout search (train_layout.h) finds the fastest split that
 * fits memory, timing each with the step model (train_step.h) on the
 * instance's topology (collective.h).  Steps are kept per hardware
 * signature: a large catalog repeats the same machine in many regions.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwmodel/collective.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "model/memory.h"
#include "option/reason.h"
#include "option/settings.h"
#include "train/goodput.h"
#include "train/train.h"
#include "hwmodel/roofline.h"
#include "train/train_layout.h"
#include "train/train_range.h"
#include "train/train_step.h"

#define LOG_MICRO_SLOTS 16	/* micro-batches 1 .. 32768 */
#define LOG_TP_SLOTS 11		/* tensor parallelism 1 .. 1024 */

struct cached_roofline {
	bool valid;
	struct roofline r;
};

/*
 * What a step takes on a machine depends on its hardware, not on its name,
 * region or price.  A large catalog repeats the same machine in many
 * regions, so layouts and steps are kept per hardware signature and
 * cluster size.
 */
struct signature {
	const struct accelerator *acc;
	long gpus, vcpus, nodes;
	int intra_kind, nics;
	double intra_bandwidth, network_bandwidth;
	bool rdma, gpudirect;
};

/* A goodput already worked out for a cluster size: valid while the
 * preparation plans the workload it was made for (gen) and the run is as
 * long. */
struct goodput_memo {
	unsigned long gen;		/* 0: none */
	double productive;		/* s */
	struct goodput g;
};

struct cached_step {
	bool used, ok;
	struct signature sig;
	struct layout_try best;
	struct goodput_memo goodput;
};

struct train_prep {
	const struct catalog *c;
	const struct workload *w;
	struct model_graph g;
	struct memory_model mm;
	double forward_flops;		/* per sample */
	double edge_share;		/* of the forward FLOPs outside the layers */
	double kernels;			/* the forward's kernels, one sample */
	/* train_range_scale() of range_level: one quantile per workload,
	 * not one per option */
	double range_level, range_scale;
	struct cached_roofline *cache;	/* accelerators x micro x tp x sp */
	struct roofline scratch;	/* a micro-batch or tp not a power of 2 */
	struct cached_step *steps;	/* open addressing, by signature */
	size_t n_steps, cap_steps;	/* cap: a power of two */
	/* the workload's goodput inputs (goodput.h), and which workload they
	 * are of: a rebind makes a new generation */
	struct goodput_model goodput;
	unsigned long gen;
};

/* The embedding and the output head sit outside the repeated layers: a
 * pipeline's end stages carry them on top of their layers.  Counted by
 * FLOPs; a transformer's layers are its blocks 1 .. layers
 * (transformer_build.c), the embedding block 0 and the head the last. */
static double edge_share_of(const struct model_graph *g, long layers, double total)
{
	double edge = 0;
	for (size_t i = 0; i < g->n; i++)
		if (g->ops[i].block < 1 || g->ops[i].block > layers)
			edge += g->ops[i].flops;
	return total > 0 ? edge / total : 0;
}

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
	p->kernels = (double)p->g.n;
	p->edge_share = w->model->kind == MODEL_TRANSFORMER
				? edge_share_of(&p->g, w->model->tf.layers,
						p->forward_flops) : 0;
	p->cache = xcalloc(c->n_acc * LOG_MICRO_SLOTS * LOG_TP_SLOTS * 2 + 1,
			   sizeof(*p->cache));
	goodput_model_for(&w->train.goodput, &p->goodput);
	p->gen = 1;
	return p;
}

const struct model_graph *train_prep_graph(const struct train_prep *p)
{
	return &p->g;
}

void train_prep_rebind(struct train_prep *p, const struct workload *w)
{
	p->w = w;
	goodput_model_for(&w->train.goodput, &p->goodput);
	p->gen++;
}

double train_prep_forward_flops(const struct train_prep *p)
{
	return p->forward_flops;
}

void train_prep_free(struct train_prep *p)
{
	if (!p)
		return;
	model_graph_free(&p->g);
	free(p->cache);
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

static bool power_of_two(long v)
{
	return v > 0 && (v & (v - 1)) == 0;
}

struct forward_arg {
	struct train_prep *p;
	const struct accelerator *a;
	struct efficiency eff;	/* the settings', with the workload's kernels */
};

static struct forward_arg forward_arg_of(struct train_prep *p,
					 const struct accelerator *a,
					 const struct plan_settings *s)
{
	struct forward_arg fa = {p, a, s->eff};
	fa.eff.fused_attention = p->w->train.fused_attention;
	return fa;
}

/* One forward pass of `micro` samples on a, split over tp (with or
 * without sequence parallelism): computed once per accelerator,
 * micro-batch and split, whatever instance carries it. */
static const struct roofline *forward(void *arg, long micro, long tp, bool sp)
{
	struct forward_arg *f = arg;
	struct train_prep *p = f->p;
	bool cacheable = power_of_two(micro) && power_of_two(tp) &&
			 log2_of(micro) < LOG_MICRO_SLOTS && log2_of(tp) < LOG_TP_SLOTS;
	struct cached_roofline *cr = NULL;
	if (cacheable) {
		size_t ai = (size_t)(f->a - p->c->acc);
		size_t k = ((ai * LOG_MICRO_SLOTS + (size_t)log2_of(micro)) *
				    LOG_TP_SLOTS + (size_t)log2_of(tp)) * 2 + sp;
		cr = &p->cache[k];
		if (cr->valid)
			return &cr->r;
	}
	struct roofline *r = cr ? &cr->r : &p->scratch;
	long layers = p->w->model->kind == MODEL_TRANSFORMER ? p->w->model->tf.layers : 0;
	roofline_forward_tp(&p->g, layers, micro, f->a, p->w->precision, tp, sp,
			    &f->eff, r);
	if (cr)
		cr->valid = true;
	return r;
}

/* What one layout search on nodes x in reads: the fabric, the job, the
 * forward rooflines.  Its pointers point into itself: it stays where it
 * was set up. */
struct search_env {
	struct coll_fabric fabric;
	struct step_job job;
	struct forward_arg fa;
	struct layout_ctx ctx;
};

static void search_env_init(struct search_env *e, struct train_prep *p,
			    const struct instance *in, long nodes,
			    const struct plan_settings *s,
			    void (*each)(void *, const struct layout_try *),
			    void *each_arg)
{
	coll_fabric_of(in, &s->eff, &e->fabric);
	e->job = (struct step_job){p->w, in, nodes, &e->fabric, &s->eff,
				   p->mm.params, p->edge_share, p->kernels,
				   train_straggler_factor(&s->eff, nodes * in->gpus)};
	e->fa = forward_arg_of(p, in->acc, s);
	e->ctx = (struct layout_ctx){&e->job, &p->mm,
				     accelerator_memory_capacity(in->acc), forward,
				     &e->fa, each, each_arg};
}

/* The fastest fitting layout of nodes x in, or the smallest that does not
 * fit; false when none can use that many GPUs. */
static bool search_layout(struct train_prep *p, const struct instance *in,
			  long nodes, const struct plan_settings *s,
			  struct layout_try *best, char *why, size_t whylen)
{
	struct search_env e;
	search_env_init(&e, p, in, nodes, s, NULL, NULL);
	return train_layout_search(&e.ctx, nodes * in->gpus, best, why, whylen);
}

static void note_memory(struct plan_option *o, const struct instance *in,
			const struct layout_try *t)
{
	struct plan_reason r = {.code = REASON_MEMORY, .a = t->memory,
				.b = accelerator_memory_capacity(in->acc), .n1 = t->l.tp, .n2 = t->l.pp,
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
		/* hours are the wall clock: the hardware failures, restarts
		 * and checkpoints of goodput.h are in them; spot_overhead (an
		 * assumption) adds the reclaims of spot capacity on top, a
		 * second cause of restarts the failure rate does not count */
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
		double cost = plan_compared_cost(s, w, o);	/* the spot rule */
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

/* The goodput of `productive` s on `gpus` GPUs, from memo when it holds
 * it (a large catalog repeats each machine in many regions), else worked
 * out and kept there (memo may be NULL). */
static const struct goodput *goodput_for(const struct train_prep *p,
					 struct goodput_memo *memo, long gpus,
					 double productive, struct goodput *scratch)
{
	if (memo && memo->gen == p->gen && memo->productive == productive)
		return &memo->g;
	struct goodput *g = memo ? &memo->g : scratch;
	goodput_of(&p->goodput, gpus, productive, g);
	if (memo) {
		memo->gen = p->gen;
		memo->productive = productive;
	}
	return g;
}

/*
 * The step's range at the settings' level (train_range.h), carried to the
 * run's time with the goodput's own (goodput.h: its inputs' stated ends,
 * read as the step's assumptions are and added in quadrature), and to the
 * cost, which is paid by the hour.  A cluster whose pessimistic inputs
 * make no progress has its goodput reason; its range is the step's.
 */
static void step_ranges(struct train_prep *p, const struct step *st,
			const struct plan_settings *s, struct plan_option *o)
{
	if (p->range_level != s->range_level) {
		p->range_level = s->range_level;
		p->range_scale = train_range_scale(s->range_level);
	}
	double scale = p->range_scale;
	double lo, hi;
	train_step_range(st, &s->eff, scale, &lo, &hi);
	o->has_range = true;
	o->range_level = s->range_level;
	o->step_low_s = o->step_s * lo;
	o->step_high_s = o->step_s * hi;
	double g_down = o->goodput_high > 0 ? 1 - o->goodput / o->goodput_high : 0;
	double g_up = o->goodput_low > 0 ? o->goodput / o->goodput_low - 1 : 0;
	double down = sqrt((1 - lo) * (1 - lo) + (scale * g_down) * (scale * g_down));
	double up = sqrt((hi - 1) * (hi - 1) + (scale * g_up) * (scale * g_up));
	o->time_low_s = o->time_s * (1 - down);
	o->time_high_s = o->time_s * (1 + up);
	o->cost_low = o->cost * (1 - down);
	o->cost_high = o->cost * (1 + up);
}

/*
 * The run's wall clock on `gpus` GPUs (goodput.h): its productive time
 * over the share of the wall clock that trains.  A cluster too large to
 * make progress keeps the productive time, to stay a finite figure, and
 * is infeasible with its reason.
 */
static void wall_clock(const struct train_prep *p, struct goodput_memo *memo,
		       long gpus, double productive, struct plan_option *o)
{
	struct goodput scratch;
	const struct goodput *g = goodput_for(p, memo, gpus, productive, &scratch);
	o->goodput = g->mid.fraction;
	o->goodput_low = g->low;
	o->goodput_high = g->high;
	o->checkpoint_interval_s = g->mid.interval;
	o->mtbf_s = g->mid.mtbf;
	o->time_s = g->mid.feasible ? productive / g->mid.fraction : productive;
	if (g->mid.feasible)
		return;
	struct plan_reason r = {.code = REASON_GOODPUT, .a = g->mid.mtbf,
				.b = p->goodput.in[GOODPUT_CHECKPOINT_WRITE].value,
				.c = p->goodput.in[GOODPUT_RESTART].value, .n1 = gpus};
	o->feasible = false;
	plan_option_code(o, &r);
}

static void fill_option(struct train_prep *p, const struct instance *in,
			const struct prices *pr, long nodes,
			const struct layout_try *t, struct goodput_memo *memo,
			const struct plan_settings *s, struct plan_option *o)
{
	const struct workload *w = p->w;
	const struct layout *l = &t->l;
	const struct step *st = &t->st;
	long gpus = nodes * in->gpus;
	o->dp = l->dp;
	o->tp = l->tp;
	o->pp = l->pp;
	o->zero = l->zero;
	o->recompute = l->recompute;
	o->interleave = l->v;
	o->sequence_parallel = l->sp;
	o->micro_batch = l->micro;
	o->accumulation = l->accumulation;
	o->step_s = st->total;
	double productive = st->total * w->train.steps;
	wall_clock(p, memo, gpus, productive, o);
	o->per_step.compute = st->compute;
	o->per_step.memory = st->memory;
	o->per_step.communication = st->communication;
	o->per_step.input = st->exposed_input;
	double hours = o->time_s / 3600;
	o->gpu_hours = gpus * hours;
	o->gpu_hours_compute = gpus * productive / 3600;
	o->energy_kwh = gpus * in->acc->tdp * hours / 1000;
	o->memory_per_gpu = t->memory;
	memcpy(o->memory_parts, t->parts, sizeof(o->memory_parts));
	/* MFU is against the datasheet peak, as papers report it, not the
	 * clock a power-limited part holds (the roofline's) */
	roofline_matrix_peak(in->acc, w->precision, &o->precision_used);
	double peak = in->acc->peak[o->precision_used];
	double model_flops = 3 * p->forward_flops * w->train.global_batch;
	o->mfu = st->total > 0 && peak > 0 ? model_flops / (st->total * gpus * peak) : 0;
	price_option(in, pr, nodes, hours, s, o);
	step_ranges(p, st, s, o);
	if (o->precision_used != w->precision) {
		struct plan_reason r = {.code = REASON_PRECISION,
					.p_used = (int)o->precision_used,
					.p_wanted = (int)w->precision,
					.n1 = in->acc->lacks[w->precision],
					.s1 = in->acc->name};
		plan_option_code(o, &r);
	}
	if (st->exposed_input > 0) {
		struct plan_reason r = {.code = REASON_STARVE, .a = st->input,
					.b = st->pipeline,
					.c = st->exposed_input / st->total};
		plan_option_code(o, &r);
	}
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
	g.nics = in->network_nics;
	g.intra_bandwidth = in->intra.bandwidth;
	g.network_bandwidth = in->network_bandwidth;
	g.rdma = in->network_rdma;
	g.gpudirect = in->network_gpudirect;
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
	h ^= (uint64_t)g->vcpus * 0x165667B19E3779F9ull + (uint64_t)g->nics;
	h ^= bits_of(g->network_bandwidth) * 0x27D4EB2F165667C5ull;
	h ^= bits_of(g->intra_bandwidth) * 0x9E3779B97F4A7C15ull +
	     (uint64_t)g->rdma + 2 * (uint64_t)g->gpudirect;
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

/* The layout and step of `nodes` instances like `in`, searched once per
 * hardware signature. */
static struct cached_step *cached_step(struct train_prep *p,
				       const struct instance *in, long nodes,
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
	char why[256];
	c->ok = search_layout(p, in, nodes, s, &c->best, why, sizeof(why));
	return c;
}

static struct plan_option *add_option(struct train_prep *p,
				      const struct instance *in,
				      const struct prices *pr, long nodes,
				      const struct layout_try *t,
				      struct goodput_memo *memo,
				      const struct plan_settings *s,
				      struct plan_result *r)
{
	struct plan_option *o = plan_result_add(r);
	o->inst = in;
	o->nodes = nodes;
	o->gpus = nodes * in->gpus;
	o->memory_capacity = accelerator_memory_capacity(in->acc);
	o->feasible = true;
	fill_option(p, in, pr, nodes, t, memo, s, o);
	if (!t->fits) {
		o->feasible = false;
		note_memory(o, in, t);
		return o;
	}
	o->runnable = o->feasible;	/* false if the price did not convert or
					 * the cluster makes no progress */
	check_limits(p->w, s, r, o);
	return o;
}

/* The cluster sizes a workload allows on instances of `gpus` GPUs:
 * [*first, *last] in powers of two, or the one it fixes (0 and 0 when
 * that is not a whole number of these instances). */
static void node_range(const struct training *t, long gpus, long *first,
		       long *last)
{
	*first = 1;
	*last = PLAN_MAX_NODES;
	if (t->fixed_nodes) {
		*first = *last = t->fixed_nodes;
	} else if (t->fixed_gpus) {
		bool whole = t->fixed_gpus % gpus == 0;
		*first = *last = whole ? t->fixed_gpus / gpus : 0;
	}
}

/* The most GPUs one data-parallel rank can be spread over: its tensor
 * and pipeline degrees at their largest (the layout's, the workload's
 * limits, a node's GPUs, the model's layers). */
static long most_split(const struct workload *w, const struct instance *in)
{
	const struct training *t = &w->train;
	bool tf = w->model->kind == MODEL_TRANSFORMER;
	long tp = t->layout.tp ? t->layout.tp : t->max_tp ? t->max_tp : tf ? in->gpus : 1;
	long pp = t->layout.pp ? t->layout.pp : t->max_pp ? t->max_pp : tf ? w->model->tf.layers : 1;
	return tp * pp;
}

void plan_training(struct train_prep *p, const struct instance *in,
		   const struct plan_settings *s, struct plan_result *r)
{
	const struct training *t = &p->w->train;
	struct prices pr = prices_of(p->c, in, s);
	long first, last;
	node_range(t, in->gpus, &first, &last);
	for (long nodes = first; nodes > 0 && nodes <= last; nodes *= 2) {
		if (t->max_gpus && nodes * in->gpus > t->max_gpus && !t->fixed_gpus &&
		    !t->fixed_nodes)
			break;
		if (nodes * in->gpus > t->global_batch * most_split(p->w, in))
			break;	/* every rank needs a sample: more cannot help */
		struct cached_step *cs = cached_step(p, in, nodes, s);
		if (cs->ok)	/* else no layout uses this many (a fixed one
				 * may need more GPUs) */
			add_option(p, in, &pr, nodes, &cs->best, &cs->goodput, s, r);
	}
}

struct plan_option *plan_training_at(struct train_prep *p,
				     const struct instance *in, long nodes,
				     const struct plan_settings *s,
				     struct plan_result *r, char *why,
				     size_t whylen)
{
	struct prices pr = prices_of(p->c, in, s);
	struct layout_try best;
	if (!search_layout(p, in, nodes, s, &best, why, whylen))
		return NULL;
	return add_option(p, in, &pr, nodes, &best, NULL, s, r);
}

/* ---- the layouts weighed for the recommendation ---- */

struct layout_list {
	struct plan_layout *v;
	size_t n, cap;
};

static struct plan_layout layout_row(const struct layout_try *t)
{
	const struct layout *l = &t->l;
	const struct step *st = &t->st;
	double m = (double)l->accumulation;
	struct plan_layout row = {
		.tp = l->tp, .pp = l->pp, .dp = l->dp, .micro_batch = l->micro,
		.interleave = l->v, .zero = l->zero, .recompute = l->recompute,
		.sequence_parallel = l->sp, .fits = t->fits,
		.memory_per_gpu = t->memory,
	};
	if (!t->fits)
		return row;
	row.step_s = st->total;
	row.compute = m * st->stage_compute;
	row.tp_comm = m * st->tp_comm;
	row.pp_comm = m * st->pp_comm;
	row.bubble = st->bubble;
	row.dp_comm = st->dp_exposed;
	row.optimizer = st->optimizer;
	row.input = st->exposed_input;
	return row;
}

static bool row_better(const struct plan_layout *a, const struct plan_layout *b)
{
	if (a->fits != b->fits)
		return a->fits;
	return a->fits ? a->step_s < b->step_s : a->memory_per_gpu < b->memory_per_gpu;
}

/* Keeps the best of each tp x pp x interleaving split. */
static void collect_layout(void *arg, const struct layout_try *t)
{
	struct layout_list *list = arg;
	struct plan_layout row = layout_row(t);
	for (size_t i = 0; i < list->n; i++) {
		struct plan_layout *o = &list->v[i];
		if (o->tp == row.tp && o->pp == row.pp && o->interleave == row.interleave) {
			if (row_better(&row, o))
				*o = row;
			return;
		}
	}
	if (list->n == list->cap)
		list->v = xrealloc(list->v, (list->cap = list->cap ? 2 * list->cap : 16) *
						    sizeof(*list->v));
	list->v[list->n++] = row;
}

static int compare_rows(const void *a, const void *b)
{
	const struct plan_layout *x = a, *y = b;
	if (row_better(x, y))
		return -1;
	if (row_better(y, x))
		return 1;
	/* ties in enumeration order: fewer splits first */
	if (x->tp != y->tp)
		return x->tp < y->tp ? -1 : 1;
	if (x->pp != y->pp)
		return x->pp < y->pp ? -1 : 1;
	return x->interleave < y->interleave ? -1 : x->interleave > y->interleave;
}

void plan_training_layouts(struct train_prep *p, const struct plan_settings *s,
			   struct plan_result *r)
{
	if (r->recommended < 0)
		return;
	const struct plan_option *o = &r->v[r->recommended];
	struct layout_list list = {0};
	struct search_env e;
	search_env_init(&e, p, o->inst, o->nodes, s, collect_layout, &list);
	struct layout_try best;
	char why[256];
	train_layout_search(&e.ctx, o->gpus, &best, why, sizeof(why));
	qsort(list.v, list.n, sizeof(*list.v), compare_rows);
	r->layouts = list.v;
	r->n_layouts = list.n;
}

/*
 * serve.c - plan_inference(): replicas, batch size and monthly cost of an
 * inference service on one instance type.
 *
 * Per placement (whole GPUs, tensor parallel where the model needs it, or
 * one MIG profile) and per maximum batch that fits memory, the service
 * time S(b) comes from the roofline (serve_prep.c).  Image and encoder
 * models are served as Triton's dynamic batcher serves them (dbatch.h):
 * a free replica takes every waiting request up to the maximum batch, at
 * once; the p99 comes from simulating each replica's share of the
 * traffic (requests spread evenly, so Poisson at lambda / replicas).  The
 * option is the maximum batch needing the fewest instances (ties: the
 * lower p99), with the fewest replicas that meet the target.
 * Token-generating models go to serve_llm.c (continuous batching).
 *
 * None of that depends on the price, so it is done once per hardware
 * signature (serve_prep.h) and kept with its reasons, all coded: per
 * instance an option is a copy, the instance's notes and a multiplication
 * (price_option()).  10,000 instances that repeat 29 machines cost 29
 * sizings.
 */
#include "serve/serve.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "serve/dbatch.h"
#include "hwmodel/roofline.h"
#include "option/reason.h"
#include "serve/serve_llm.h"

/*
 * What every option of one workload on one hardware signature shares.
 * Only the hardware of `in` is read (accelerator, GPUs, intra-node link),
 * and of s only the efficiencies: the options found are those of every
 * instance with the same hardware, before price.
 */
struct serve_ctx {
	const struct instance *in;
	const struct accelerator *a;
	const struct workload *w;
	const struct serve_prep *sp;
	const struct plan_settings *s;
	struct plan_result *r;	/* where options go: sp's cache */
	double hours;		/* served a month */
};

/* The best one placement does. */
struct sizing {
	bool ok;		/* some batch size meets the p99 target */
	int bi;			/* batch 2^bi */
	long replicas, instances;
	double p99;		/* s */
	double memory;		/* B per GPU at that batch */
	struct serve_time t;
	double s1;		/* S(1), s */
	double mean_batch;	/* requests per batch the batcher forms */
};

/* ---- the dynamic batcher ---- */

/* S(b) at the powers of two up to the maximum batch; between them the
 * pass is priced by straight lines (a batch of 3 as 2 and 4 suggest). */
struct batch_curve {
	double s[SERVE_BATCHES];
	int top;		/* s[0..top] are known */
	const struct serve_prep *sp;	/* whose traffic (a trace?) */
};

static double batch_cost(long b, void *ctx)
{
	const struct batch_curve *c = ctx;
	int i = 0;
	while (i < c->top && (1L << (i + 1)) <= b)
		i++;
	if (i == c->top || (1L << i) == b)
		return c->s[i];
	double lo = (double)(1L << i), hi = (double)(1L << (i + 1));
	return c->s[i] + (c->s[i + 1] - c->s[i]) * ((double)b - lo) / (hi - lo);
}

/* S(b) at batches 1, 2, ..., 2^top on d. */
static void batch_curve_fill(struct batch_curve *c, const struct serve_prep *sp,
			     const struct serve_device *d, int top)
{
	for (int bi = 0; bi <= top; bi++) {
		struct serve_time t;
		serve_batch_time(sp, d, bi, &t);
		c->s[bi] = t.total;
	}
	c->top = top;
}

int serve_simulate_batched(const struct serve_prep *sp,
			   const struct serve_device *d, long max_batch,
			   const struct dbatch_load *l, double *full,
			   struct dbatch_result *out)
{
	int top = 0;
	while (top + 1 < SERVE_BATCHES && (1L << top) < max_batch)
		top++;
	struct batch_curve c = {{0}, 0, sp};
	batch_curve_fill(&c, sp, d, top);
	struct dbatch_config cfg = {max_batch, 0};
	*full = batch_cost(max_batch, &c);
	return dbatch_simulate(&cfg, l, batch_cost, &c, out);
}

/* One replica's traffic when `replicas` share `lambda` requests a second:
 * Poisson at its share, or its share of the workload's trace in *t. */
static struct dbatch_load replica_load(const struct serve_prep *sp,
				       double lambda, long replicas,
				       struct sim_trace *t)
{
	const struct sim_trace *trace = serve_trace(sp, lambda, replicas, t);
	return (struct dbatch_load){
		.rate = lambda / (double)replicas,
		.requests = serve_sim_count(trace, SERVE_SIM_REQUESTS),
		.seed = SERVE_SIM_SEED, .trace = trace};
}

/* Whether `replicas` replicas, each with a share of the traffic, meet the
 * target with a maximum batch of 2^c->top (serve.h: SERVE_SIM_*). */
static bool meets_at(struct batch_curve *c, double lambda, long replicas,
		     double target, struct dbatch_result *r)
{
	struct dbatch_config cfg = {1L << c->top, 0};
	struct sim_trace t;
	struct dbatch_load l = replica_load(c->sp, lambda, replicas, &t);
	l.p99_target = target;
	return dbatch_simulate(&cfg, &l, batch_cost, c, r) == 0 &&
	       !r->saturated && !r->missed && r->latency.p99 <= target;
}

/*
 * The fewest replicas, from the fewest whose queues are stable up to
 * `most`, that meet the target; 0 when none does.  More replicas never
 * lengthen the p99, so the count is found by doubling the step from the
 * stable count and then halving the gap: a few simulations, whatever the
 * traffic.  *r gets the simulation of the count returned.
 */
static long fewest_replicas(struct batch_curve *c, double lambda,
			    double target, long most, struct dbatch_result *r)
{
	double b = (double)(1L << c->top);
	/* in doubles: the load may be past what a long holds, or not a
	 * number for inputs out of range (and then compares false) */
	double load = lambda * c->s[c->top] / b;
	if (!(load >= 0 && load < (double)most))
		return 0;
	long lo = (long)floor(load), hi = 0;
	struct dbatch_result t;
	for (long step = 1; hi == 0; step *= 2) {
		long n = lo + step < most ? lo + step : most;
		if (meets_at(c, lambda, n, target, &t)) {
			hi = n;
			*r = t;
		} else if (n == most) {
			return 0;
		} else {
			lo = n;
		}
	}
	while (hi - lo > 1) {
		long mid = lo + (hi - lo) / 2;
		if (meets_at(c, lambda, mid, target, &t)) {
			hi = mid;
			*r = t;
		} else {
			lo = mid;
		}
	}
	return hi;
}

/* ---- one placement ---- */

/*
 * Maximum batches 1, 2, 4, ... while they fit memory and S(b) is within
 * the target (a batch any longer can only be slower than the target once
 * the queue fills it); per batch the fewest replicas that meet the
 * target.  The fewest instances win, then the lower p99.  When none
 * meets it, the closest: batch 1 on the fewest replicas at which 99% of
 * requests never wait, so the option still shows what the lowest latency
 * the placement reaches costs.
 */
static void size_placement(const struct serve_ctx *x,
			   const struct serve_device *d, int ti,
			   double capacity, long per_instance, struct sizing *z)
{
	double target = x->w->infer.target[TARGET_P99];
	double lambda = x->w->infer.request_rate;
	long most = PLAN_MAX_NODES * per_instance;
	struct batch_curve c = {{0}, 0, x->sp};
	memset(z, 0, sizeof(*z));
	serve_batch_time(x->sp, d, 0, &z->t);
	z->s1 = c.s[0] = z->t.total;
	z->memory = serve_memory(x->sp, ti, 0, d->elem);
	for (int bi = 0; bi < SERVE_BATCHES; bi++) {
		double mem = serve_memory(x->sp, ti, bi, d->elem);
		if (mem > capacity)
			break;		/* memory grows with the batch */
		struct serve_time t;
		serve_batch_time(x->sp, d, bi, &t);
		if (t.total > target)
			break;		/* so does S(b) */
		c.s[bi] = t.total;
		c.top = bi;
		/* the stable count alone rents more than the best so far */
		double stable = floor(lambda * t.total / (double)(1L << bi)) + 1;
		if (z->ok && !(ceil(stable / (double)per_instance) <=
			       (double)z->instances))
			continue;
		struct dbatch_result r;
		long n = fewest_replicas(&c, lambda, target, most, &r);
		if (n == 0)
			continue;
		long inst = (n + per_instance - 1) / per_instance;
		if (!z->ok || inst < z->instances ||
		    (inst == z->instances && r.latency.p99 < z->p99))
			*z = (struct sizing){true, bi, n, inst, r.latency.p99,
					     mem, t, z->s1, r.mean_batch};
		/* one instance is the fewest there is, and when no batch was
		 * cut short a larger maximum runs the same batches */
		if (inst == 1 && !r.capped)
			break;
	}
	if (z->ok) {
		/* the instances rented serve with every replica they hold:
		 * the same rent, shorter queues */
		long all = z->instances * per_instance;
		struct dbatch_result r;
		c.top = z->bi;
		if (all > z->replicas && meets_at(&c, lambda, all, target, &r)) {
			z->replicas = all;
			z->p99 = r.latency.p99;
			z->mean_batch = r.mean_batch;
		}
		return;
	}
	struct dbatch_result r;
	c.top = 0;
	z->replicas = fewest_replicas(&c, lambda, z->s1 * (1 + 1e-9), most, &r);
	z->p99 = z->replicas ? r.latency.p99 : 0;
	z->instances = (z->replicas + per_instance - 1) / per_instance;
}

/* ---- options ---- */

static struct plan_option *option_new(const struct serve_ctx *x,
				      const struct serve_device *d,
				      const char *sharing, double capacity)
{
	struct plan_option *o = plan_result_add(x->r);
	o->inst = x->in;
	o->tp = d->tp;
	o->pp = d->pp > 1 ? d->pp : 1;
	o->precision_used = d->used;
	o->memory_capacity = capacity;
	snprintf(o->sharing, sizeof(o->sharing), "%s", sharing);
	return o;
}

/* The notes any instance of the hardware gets (instance_notes() adds
 * the rest). */
static void notes(const struct serve_ctx *x, struct plan_option *o)
{
	if (o->precision_used != x->w->precision) {
		struct plan_reason r = {.code = REASON_PRECISION,
					.p_used = o->precision_used,
					.p_wanted = x->w->precision,
					.n1 = x->a->lacks[x->w->precision],
					.s1 = x->a->name};
		plan_option_code(o, &r);
	}
	if (o->sharing[0]) {
		struct plan_reason r = {.code = REASON_MIG_ISOLATED};
		plan_option_code(o, &r);
	}
}

/*
 * Fills o from a sizing: replicas, batch, latency, GPU-hours and energy,
 * which count every GPU rented (a MIG GPU draws power whatever its slices
 * do), at TDP.  The money is price_option()'s.  profile: the MIG profile
 * (catalog-owned), NULL for whole GPUs.
 */
static void fill(const struct serve_ctx *x, struct plan_option *o,
		 const struct sizing *z, long gpus_per_replica,
		 const char *profile)
{
	const struct inference *inf = &x->w->infer;
	o->feasible = z->ok;
	o->runnable = z->replicas > 0;
	if (!z->ok && z->replicas == 0) {
		struct plan_reason r = {.code = REASON_SERVE_RATE,
					.n1 = PLAN_MAX_NODES,
					.a = inf->request_rate};
		plan_option_code(o, &r);
		return;
	}
	if (!z->ok && z->s1 > inf->target[TARGET_P99]) {
		struct plan_reason r = {.code = REASON_SERVE_SLOW, .a = z->s1,
					.b = inf->target[TARGET_P99], .n1 = o->tp,
					.s1 = x->a->name, .s2 = profile};
		plan_option_code(o, &r);
	} else if (!z->ok) {
		struct plan_reason r = {.code = REASON_SERVE_P99,
					.n1 = PLAN_MAX_NODES,
					.a = inf->target[TARGET_P99]};
		plan_option_code(o, &r);
	}
	o->batch = 1L << z->bi;
	o->replicas = o->dp = z->replicas;
	o->gpus = z->replicas * gpus_per_replica;
	o->nodes = z->instances;
	o->batch_latency_s = z->t.total;
	o->step_s = z->t.total;
	o->p99_latency_s = z->p99;
	o->per_step = z->t.split;
	o->memory_per_gpu = z->memory;
	double rented = (double)z->instances * x->in->gpus;
	o->gpu_hours = rented * x->hours;
	o->energy_kwh = rented * x->a->tdp * x->hours / 1000;
	o->has_spot = false;
}

/* ---- latency against load ---- */

static double mig_compute_share(const char *profile);

/* The device option o was sized on: its accelerator whole, split tp ways,
 * or its MIG slice; false when the slice is not the accelerator's. */
static bool device_of(const struct serve_prep *sp, const struct plan_option *o,
		      const struct plan_settings *s, struct serve_device *d)
{
	const struct accelerator *a = o->inst->acc;
	if (!o->sharing[0]) {
		serve_device_init(d, a, sp->w->precision, &s->eff, o->tp, 1, 1,
				  &o->inst->intra);
		d->pp = o->pp > 1 ? o->pp : 1;
		return true;
	}
	for (size_t i = 0; i < a->n_mig; i++)
		if (!strcmp(a->mig[i].profile, o->sharing) && a->memory > 0) {
			serve_device_init(d, a, sp->w->precision, &s->eff, 1,
					  mig_compute_share(o->sharing),
					  a->mig[i].memory / a->memory, NULL);
			return true;
		}
	return false;
}

/* One point: the deployment's replicas share `rate` evenly. */
static void load_point(const struct serve_prep *sp, const struct plan_option *o,
		       const struct serve_device *d, struct batch_curve *c,
		       double rate, struct load_point *p)
{
	memset(p, 0, sizeof(*p));
	p->rate = rate;
	if (o->has_llm) {
		struct cb_result r;
		p->saturated = llm_simulate_rate(sp, d, o->llm.max_seqs,
						 o->llm.token_budget,
						 o->llm.kv_tokens, rate,
						 o->replicas, &r) < 0 ||
			       r.saturated || r.never_fits;
		p->e2e_p50 = r.e2e.p50;
		p->e2e_p99 = r.e2e.p99;
		p->ttft_p99 = r.ttft.p99;
		p->tpot_p99 = r.tpot.p99;
		return;
	}
	struct dbatch_config cfg = {1L << c->top, 0};
	struct sim_trace t;
	struct dbatch_load l = replica_load(sp, rate, o->replicas, &t);
	struct dbatch_result r;
	p->saturated = dbatch_simulate(&cfg, &l, batch_cost, c, &r) < 0 ||
		       r.saturated;
	p->e2e_p50 = r.latency.p50;
	p->e2e_p99 = r.latency.p99;
}

/*
 * The option's deployment at 0.25 to 4 times the workload's rate, up to
 * the first rate it cannot hold: where the latency stands at the planned
 * load, and how much headroom the deployment has before it breaks.
 */
static void load_curve(const struct serve_prep *sp, const struct plan_option *o,
		       const struct plan_settings *s, struct load_curve *out)
{
	static const double factor[LOAD_FACTORS] = {0.25, 0.5, 0.75, 1, 1.25,
						    1.5, 2, 3, 4};
	struct serve_device d;
	out->n = 0;
	if (!device_of(sp, o, s, &d))
		return;
	struct batch_curve c = {{0}, 0, sp};
	if (!o->has_llm) {
		int top = 0;
		while (top + 1 < SERVE_BATCHES && (1L << (top + 1)) <= o->batch)
			top++;
		batch_curve_fill(&c, sp, &d, top);
	}
	for (size_t i = 0; i < LOAD_FACTORS; i++) {
		struct load_point *p = &out->p[out->n++];
		load_point(sp, o, &d, &c, sp->w->infer.request_rate * factor[i], p);
		if (p->saturated)
			break;
	}
}

void plan_serving_curves(struct serve_prep *sp, const struct plan_settings *s,
			 struct plan_result *r)
{
	long pick[2] = {r->recommended, r->runner_up};
	r->n_curves = 0;
	for (int k = 0; k < 2; k++) {
		if (pick[k] < 0)
			continue;
		const struct plan_option *o = &r->v[pick[k]];
		if (!o->runnable || o->replicas < 1)
			continue;
		struct load_curve *lc = &r->curves[r->n_curves];
		lc->option = pick[k];
		load_curve(sp, o, s, lc);
		r->n_curves += lc->n > 0;
	}
}

/* ---- whole GPUs ---- */

/* Tensor parallelism splits attention heads: transformers only, over a
 * degree that divides the heads (Megatron-LM's constraint). */
static bool tp_allowed(const struct serve_prep *sp, long t)
{
	return t == 1 ||
	       (sp->transformer && sp->w->model->tf.heads % t == 0);
}

/* The smallest allowed power of two up to the GPU count whose memory at
 * batch 1 fits a GPU; -1 when none does (*last: the largest tried). */
static int smallest_tp(const struct serve_ctx *x, int elem, int *last)
{
	*last = 0;
	for (int ti = 0; ti < SERVE_TPS && (1L << ti) <= x->in->gpus; ti++) {
		if (!tp_allowed(x->sp, 1L << ti))
			break;
		*last = ti;
		if (serve_memory(x->sp, ti, 0, elem) <=
		    accelerator_memory_capacity(x->a))
			return ti;
	}
	return -1;
}

static void too_big(const struct serve_ctx *x, const struct serve_device *d,
		    int last)
{
	struct plan_option *o = option_new(x, d, "",
					   accelerator_memory_capacity(x->a));
	o->tp = 1L << last;
	o->memory_per_gpu = serve_memory(x->sp, last, 0, d->elem);
	struct plan_reason r = {.code = REASON_SERVE_MEMORY,
				.a = o->memory_per_gpu, .b = accelerator_memory_capacity(x->a),
				.n1 = o->tp, .s1 = x->a->name};
	plan_option_code(o, &r);
	notes(x, o);
}

/* ---- token-generating services ---- */

/* The reason an LLM deployment misses its targets: the first target an
 * idle replica misses, or the one the closest deployment misses. */
static void llm_miss(const struct serve_ctx *x, struct plan_option *o,
		     const struct llm_sizing *z, const char *profile)
{
	const struct inference *inf = &x->w->infer;
	double got = 0, want = 0;
	const char *name = llm_missed_target(inf, z->too_slow ? &z->alone
							       : &z->sim,
					     &got, &want);
	bool e2e = !name || strcmp(name, "end-to-end p99") == 0;
	if (!name)
		name = "latency";	/* the traffic outruns every deployment */
	if (z->too_slow && e2e) {
		struct plan_reason r = {.code = REASON_SERVE_SLOW,
					.a = z->alone_e2e, .b = inf->target[TARGET_P99],
					.n1 = o->tp, .s1 = x->a->name,
					.s2 = profile};
		plan_option_code(o, &r);
	} else if (e2e && inf->target[TARGET_P99] > 0) {
		struct plan_reason r = {.code = REASON_SERVE_P99,
					.n1 = PLAN_MAX_NODES,
					.a = inf->target[TARGET_P99]};
		plan_option_code(o, &r);
	} else {
		struct plan_reason r = {.code = REASON_LLM_TARGET, .s1 = name,
					.a = got, .b = want,
					.n1 = z->too_slow, .n2 = PLAN_MAX_NODES};
		plan_option_code(o, &r);
	}
}

/*
 * Fills o from an LLM sizing: the engine's limits, the simulated latency
 * and throughput, the memory at the busiest moment; GPU-hours and energy
 * as fill() counts them.
 */
static void fill_llm(const struct serve_ctx *x, struct plan_option *o,
		     const struct llm_sizing *z, long gpus_per_replica,
		     const char *profile)
{
	double engines = o->pp > 1 ? (double)o->pp : 1;
	o->has_llm = true;
	o->feasible = z->ok;
	o->runnable = z->replicas > 0;
	o->batch_latency_s = z->alone_e2e;
	o->p99_latency_s = z->sim.e2e.p99;
	if (!z->ok)
		llm_miss(x, o, z, profile);
	if (!o->runnable)
		return;
	const struct cb_result *r = &z->sim;
	o->memory_per_gpu = z->memory;
	memcpy(o->memory_parts, z->parts, sizeof(o->memory_parts));
	o->batch = z->max_seqs;
	o->replicas = o->dp = z->replicas;
	o->gpus = z->replicas * gpus_per_replica;
	o->nodes = z->instances;
	o->per_step = z->iteration;
	o->step_s = z->iteration.compute + z->iteration.memory +
		    z->iteration.communication;
	o->llm.ttft_p50 = r->ttft.p50;
	o->llm.ttft_p99 = r->ttft.p99;
	o->llm.tpot_p50 = r->tpot.p50;
	o->llm.tpot_p99 = r->tpot.p99;
	o->llm.e2e_p50 = r->e2e.p50;
	o->llm.e2e_p99_lo = r->e2e.p99_lo;
	o->llm.e2e_p99_hi = r->e2e.p99_hi;
	/* the simulation ran one of the replica's engines */
	o->llm.tokens_per_s_per_gpu = r->tokens_per_s * engines /
				      (double)gpus_per_replica;
	o->llm.max_seqs = z->max_seqs;
	o->llm.token_budget = z->token_budget;
	o->llm.peak_concurrency = r->peak_concurrency;
	o->llm.kv_tokens = z->kv_tokens;
	o->llm.kv_peak = r->kv_peak;
	o->llm.prefill_share = r->iterations > 0 ? r->prefill_share : -1;
	double rented = (double)z->instances * x->in->gpus;
	o->gpu_hours = rented * x->hours;
	o->energy_kwh = rented * x->a->tdp * x->hours / 1000;
}

/* Pipeline stages a replica may have: equal shares of the layers (an
 * uneven cut makes its busiest stage the replica's pace and memory, which
 * the engines' model of pp equal stages does not price). */
static bool pp_allowed(const struct serve_prep *sp, long pp)
{
	return pp == 1 || (sp->transformer && sp->w->model->tf.layers % pp == 0);
}

#define LLM_SPLITS 28	/* 1 + 2 + ... + 7: every width up to 64 GPUs */

/*
 * The splits of an LLM replica over g = tp x pp GPUs, g a power of two up
 * to `gpus`, narrowest first and the widest tensor split first within a
 * width (it answers sooner): tensor parallel where the heads divide,
 * pipeline stages of a layer or more.  Returns how many, into tp[], pp[].
 */
static size_t llm_splits(const struct serve_prep *sp, long gpus, long *tp,
			 long *pp)
{
	size_t n = 0;
	for (int gi = 0; gi < SERVE_TPS && (1L << gi) <= gpus; gi++)
		for (int ti = gi; ti >= 0; ti--) {
			long t = 1L << ti, p = 1L << (gi - ti);
			if (!tp_allowed(sp, t) || !pp_allowed(sp, p))
				continue;
			tp[n] = t;
			pp[n++] = p;
		}
	return n;
}

/* One split sized on the instance: z, with d set for it. */
static void size_split(const struct serve_prep *sp, const struct instance *in,
		       const struct plan_settings *s, long tp, long pp,
		       struct serve_device *d, struct llm_sizing *z)
{
	serve_device_init(d, in->acc, sp->w->precision, &s->eff, tp, 1, 1,
			  &in->intra);
	d->pp = pp;
	llm_size_placement(sp, d, accelerator_memory_capacity(in->acc),
			   in->gpus / (tp * pp),
			   PLAN_MAX_NODES * in->gpus, z);
}

/*
 * Every split of a replica over the instance's GPUs that holds the model,
 * each sized; the one needing the fewest instances wins, then the lower
 * p99: not the narrowest that fits, as a wider split can serve more per
 * GPU, and at the same rent the split that answers sooner (a 70B model on
 * one 8-GPU instance: tensor parallel over all 8, not two replicas of 2
 * with the other GPUs idle).
 */
static void llm_whole_gpus(const struct serve_ctx *x)
{
	struct serve_device d;
	struct llm_sizing best = {0}, z;
	long best_tp = 0, best_pp = 1, tp[LLM_SPLITS], pp[LLM_SPLITS];
	size_t n = llm_splits(x->sp, x->in->gpus, tp, pp);
	for (size_t i = 0; i < n; i++) {
		size_split(x->sp, x->in, x->s, tp[i], pp[i], &d, &z);
		if (!z.fits)
			continue;
		bool wins = z.ok && (!best.ok || z.instances < best.instances ||
				     (z.instances == best.instances &&
				      z.sim.e2e.p99 < best.sim.e2e.p99));
		if (wins || (!best.ok && best_tp == 0)) {
			best = z;
			best_tp = tp[i];
			best_pp = pp[i];
		}
	}
	serve_device_init(&d, x->a, x->w->precision, &x->s->eff, 1, 1, 1, NULL);
	if (best_tp == 0) {
		int last, first = smallest_tp(x, d.elem, &last);
		(void)first;
		too_big(x, &d, last);
		return;
	}
	serve_device_init(&d, x->a, x->w->precision, &x->s->eff, best_tp, 1, 1,
			  &x->in->intra);
	d.pp = best_pp;
	struct plan_option *o = option_new(x, &d, "",
					   accelerator_memory_capacity(x->a));
	fill_llm(x, o, &best, best_tp * best_pp, NULL);
	notes(x, o);
}

/* ---- the splits weighed ---- */

/* The chosen first, then fitting before not, meeting the targets before
 * not, fewer instances, lower p99. */
static int split_order(const void *pa, const void *pb)
{
	const struct plan_split *a = pa, *b = pb;
	if (a->fits != b->fits)
		return a->fits ? -1 : 1;
	if (a->ok != b->ok)
		return a->ok ? -1 : 1;
	if (a->instances != b->instances)
		return a->instances < b->instances ? -1 : 1;
	return (a->p99 > b->p99) - (a->p99 < b->p99);
}

void plan_serving_splits(struct serve_prep *sp, const struct plan_settings *s,
			 struct plan_result *r)
{
	r->n_splits = 0;
	if (r->recommended < 0)
		return;
	const struct plan_option *o = &r->v[r->recommended];
	if (!o->has_llm || o->sharing[0])
		return;
	long tp[LLM_SPLITS], pp[LLM_SPLITS];
	size_t n = llm_splits(sp, o->inst->gpus, tp, pp);
	r->splits = xcalloc(n, sizeof(*r->splits));
	for (size_t i = 0; i < n; i++) {
		struct serve_device d;
		struct llm_sizing z;
		size_split(sp, o->inst, s, tp[i], pp[i], &d, &z);
		struct plan_split *p = &r->splits[r->n_splits++];
		*p = (struct plan_split){
			.tp = tp[i], .pp = pp[i], .fits = z.fits, .ok = z.ok,
			.replicas = z.replicas, .instances = z.instances,
			.max_seqs = z.max_seqs, .p99 = z.sim.e2e.p99,
			.ttft_p99 = z.sim.ttft.p99, .tpot_p99 = z.sim.tpot.p99,
			.memory_per_gpu = z.memory};
		if (tp[i] == o->tp && pp[i] == o->pp && r->n_splits > 1) {
			struct plan_split t = r->splits[0];
			r->splits[0] = *p;
			*p = t;
		}
	}
	if (r->n_splits > 2)
		qsort(r->splits + 1, r->n_splits - 1, sizeof(*r->splits),
		      split_order);
}

void plan_split_why(const struct plan_split *s, const struct plan_split *chosen,
		    char *buf, size_t len)
{
	if (s == chosen) {
		snprintf(buf, len, "chosen");
		return;
	}
	if (!s->fits) {
		snprintf(buf, len, "the weights and one request's KV cache do not fit %ld GPU%s",
			 s->tp * s->pp, s->tp * s->pp == 1 ? "" : "s");
		return;
	}
	if (!s->ok) {
		snprintf(buf, len, "no deployment of it meets the targets (closest p99 %.3g s)",
			 s->p99);
		return;
	}
	if (s->instances != chosen->instances) {
		snprintf(buf, len, "needs %ld instance%s where the chosen needs %ld",
			 s->instances, s->instances == 1 ? "" : "s",
			 chosen->instances);
		return;
	}
	snprintf(buf, len, "the same %ld instance%s, end-to-end p99 %.3g s against the chosen's %.3g s",
		 s->instances, s->instances == 1 ? "" : "s", s->p99, chosen->p99);
}

/*
 * A replica on the fewest GPUs that hold it; when even batch 1 is slower
 * than the target there, a wider tensor-parallel split is tried before
 * giving up.  The instance hosts gpus / t replicas.
 */
static void whole_gpus(const struct serve_ctx *x)
{
	if (x->sp->decoder && x->sp->output > 0) {
		llm_whole_gpus(x);
		return;
	}
	struct serve_device d;
	serve_device_init(&d, x->a, x->w->precision, &x->s->eff, 1, 1, 1, NULL);
	int last, first = smallest_tp(x, d.elem, &last);
	if (first < 0) {
		too_big(x, &d, last);
		return;
	}
	struct sizing z, keep = {0};
	int keep_ti = first;
	for (int ti = first; ti < SERVE_TPS && (1L << ti) <= x->in->gpus &&
			     tp_allowed(x->sp, 1L << ti); ti++) {
		serve_device_init(&d, x->a, x->w->precision, &x->s->eff, 1L << ti,
				  1, 1, &x->in->intra);
		size_placement(x, &d, ti, accelerator_memory_capacity(x->a),
			       x->in->gpus >> ti, &z);
		if (ti == first || z.ok) {
			keep = z;
			keep_ti = ti;
		}
		if (z.ok || z.s1 <= x->w->infer.target[TARGET_P99])
			break;
	}
	serve_device_init(&d, x->a, x->w->precision, &x->s->eff, 1L << keep_ti,
			  1, 1, &x->in->intra);
	struct plan_option *o = option_new(x, &d, "",
					   accelerator_memory_capacity(x->a));
	fill(x, o, &keep, 1L << keep_ti, NULL);
	notes(x, o);
}

/* ---- MIG slices ---- */

/* The compute share of a MIG profile: the leading g of "3g.40gb" of the 7
 * compute slices of an A100/H100/H200; 0 when it does not parse. */
static double mig_compute_share(const char *profile)
{
	char *end;
	long g = strtol(profile, &end, 10);
	return *end == 'g' && g >= 1 && g <= 7 ? g / 7.0 : 0;
}

/* A MIG option's counts: a replica per slice, and the physical GPUs
 * they occupy (slices packed max_instances to a GPU), so that GPUs are
 * never counted as slices. */
static void count_slices(struct plan_option *o, const struct mig_profile *p)
{
	o->slices = o->replicas;
	o->slices_per_gpu = p->max_instances;
	o->gpus = (o->slices + p->max_instances - 1) / p->max_instances;
}

/*
 * One option per MIG profile that holds the model at batch 1, a replica
 * per slice and max_instances slices per GPU.  Profiles of one slice per
 * GPU are skipped: the whole GPU serves the same replica with more compute.
 */
static void mig_slices(const struct serve_ctx *x)
{
	const struct accelerator *a = x->a;
	for (size_t i = 0; i < a->n_mig; i++) {
		const struct mig_profile *p = &a->mig[i];
		double fc = mig_compute_share(p->profile);
		if (fc <= 0 || p->max_instances < 2 || a->memory <= 0)
			continue;
		struct serve_device d;
		serve_device_init(&d, a, x->w->precision, &x->s->eff, 1, fc,
				  p->memory / a->memory, NULL);
		if (x->sp->decoder && x->sp->output > 0) {
			struct llm_sizing lz;
			long per = (long)x->in->gpus * p->max_instances;
			llm_size_placement(x->sp, &d, p->memory, per,
					   PLAN_MAX_NODES * per, &lz);
			if (!lz.fits)
				continue;
			struct plan_option *o = option_new(x, &d, p->profile,
							   p->memory);
			fill_llm(x, o, &lz, 1, p->profile);
			count_slices(o, p);
			notes(x, o);
			continue;
		}
		if (serve_memory(x->sp, 0, 0, d.elem) > p->memory)
			continue;
		struct sizing z;
		size_placement(x, &d, 0, p->memory, (long)x->in->gpus *
			       p->max_instances, &z);
		struct plan_option *o = option_new(x, &d, p->profile, p->memory);
		fill(x, o, &z, 1, p->profile);
		count_slices(o, p);
		notes(x, o);
	}
}

/* ---- the estimator ---- */

/*
 * Finds the options of in's hardware, unpriced, into sp's cache: whole
 * GPUs, then each MIG profile.
 */
static const struct serve_hw *find_options(struct serve_prep *sp,
					   const struct instance *in,
					   const struct workload *w,
					   const struct plan_settings *s)
{
	struct serve_ctx x = {in, in->acc, w, sp, s, &sp->cache.options,
			      w->infer.serving_per_month / 3600};
	size_t first = sp->cache.options.n;
	whole_gpus(&x);
	mig_slices(&x);
	return serve_cache_add(sp, in, first, sp->cache.options.n - first);
}

/* The notes that depend on the instance or the settings, not the
 * hardware: after notes()'s, as the reader expects them. */
static void instance_notes(const struct instance *in,
			   const struct plan_settings *s, struct plan_option *o)
{
	if (in->illustrative) {
		struct plan_reason r = {.code = REASON_ILLUSTRATIVE};
		plan_option_code(o, &r);
	}
	if (s->spot) {
		struct plan_reason r = {.code = REASON_SERVE_ON_DEMAND};
		plan_option_code(o, &r);
	}
}

/*
 * Appends cached option t to r as in's, at price per hour (plan
 * currency): monthly cost = instances x price x hours served; per million
 * requests = that / (rate x seconds served) x 1e6.  Options that cannot
 * run (they do not fit, or would need too many instances) have no cost.
 */
static void price_option(const struct plan_option *t, const struct instance *in,
			 const struct workload *w, const struct plan_settings *s,
			 double price, struct plan_result *r)
{
	const struct inference *inf = &w->infer;
	struct plan_option *o = plan_result_add(r);
	*o = *t;
	o->owner = r;
	o->inst = in;
	o->n_reasons = 0;
	o->first_reason = 0;
	/* the hardware's reasons, in order; a free-text one (none today)
	 * must be copied into r's own pool */
	const struct plan_reason *all = t->owner->reasons;
	for (long k = t->n_reasons ? t->first_reason : -1; k >= 0;
	     k = all[k].next) {
		const struct plan_reason *why = &all[k];
		if (why->code == REASON_TEXT)
			plan_option_reason(o, "%s", t->owner->text + why->text);
		else
			plan_option_code(o, why);
	}
	instance_notes(in, s, o);
	if (!o->runnable)
		return;
	o->cost = o->nodes * price * (inf->serving_per_month / 3600);
	o->cost_per_million = o->cost /
			      (inf->request_rate * inf->serving_per_month) * 1e6;
}

/* An option for an instance that cannot be sized at all, for its reason. */
static struct plan_option *unsized(const struct instance *in,
				   const struct workload *w,
				   struct plan_result *r)
{
	struct plan_option *o = plan_result_add(r);
	o->inst = in;
	o->tp = o->pp = 1;
	o->precision_used = w->precision;
	o->memory_capacity = accelerator_memory_capacity(in->acc);
	return o;
}

/*
 * Per instance: the price converted, then the options of its hardware,
 * found once per signature (serve_prep.h) and priced here.
 */
void plan_inference(const struct catalog *c, const struct instance *in,
		    const struct workload *w, struct serve_prep *sp,
		    const struct plan_settings *s, struct plan_result *r)
{
	struct money price;
	char why[256];
	if (catalog_convert(c, &in->on_demand, s->currency, &price, why,
			    sizeof(why)) < 0) {
		struct plan_option *o = unsized(in, w, r);
		struct plan_reason code = {.code = REASON_NO_RATE};
		plan_reason_currency(&code, 0, in->on_demand.currency);
		plan_reason_currency(&code, 1, s->currency);
		plan_option_code(o, &code);
		return;
	}
	enum precision used;
	if (roofline_matrix_peak(in->acc, w->precision, &used) <= 0) {
		struct plan_option *o = unsized(in, w, r);
		plan_option_reason(o, "%s has no usable peak for %s in the catalog",
				   in->acc->name, precision_name(w->precision));
		return;
	}
	const struct serve_hw *h = serve_cache_find(sp, in, &s->eff);
	if (!h)
		h = find_options(sp, in, w, s);
	for (size_t i = 0; i < h->n; i++)
		price_option(&sp->cache.options.v[h->first + i], in, w, s,
			     price.amount, r);
}

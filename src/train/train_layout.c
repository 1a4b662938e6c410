#include "train/train_layout.h"

#include <stdio.h>
#include <string.h>

#define MAX_MICRO 32768		/* samples per micro-batch tried at most */
#define MAX_INTERLEAVE 16	/* virtual stages per GPU tried at most */
#define MAX_CHOICES 64

/* The degrees to try for one dimension: the fixed one, or a list. */
struct choices {
	long v[MAX_CHOICES];
	int n;
};

static void add_choice(struct choices *c, long v)
{
	if (c->n < MAX_CHOICES)
		c->v[c->n++] = v;
}

static const struct training *train_of(const struct layout_ctx *c)
{
	return &c->job->w->train;
}

static const struct framework *framework_of(const struct layout_ctx *c)
{
	return framework_or_generic(train_of(c)->framework);
}

static bool is_transformer(const struct layout_ctx *c)
{
	return c->job->w->model->kind == MODEL_TRANSFORMER;
}

/* Powers of two inside a node that divide the attention heads. */
static void tp_choices(const struct layout_ctx *c, struct choices *out)
{
	const struct training *t = train_of(c);
	out->n = 0;
	if (t->layout.tp) {
		add_choice(out, t->layout.tp);
		return;
	}
	if (!is_transformer(c) || !framework_of(c)->model_parallel) {
		add_choice(out, 1);
		return;
	}
	long limit = c->job->in->gpus;
	if (t->max_tp && t->max_tp < limit)
		limit = t->max_tp;
	long heads = c->job->w->model->tf.heads;
	for (long tp = 1; tp <= limit; tp *= 2)
		if (heads % tp == 0)
			add_choice(out, tp);
}

/* Divisors of the layers: stages of equal depth. */
static void pp_choices(const struct layout_ctx *c, struct choices *out)
{
	const struct training *t = train_of(c);
	out->n = 0;
	if (t->layout.pp) {
		add_choice(out, t->layout.pp);
		return;
	}
	if (!is_transformer(c) || !framework_of(c)->model_parallel) {
		add_choice(out, 1);
		return;
	}
	long layers = c->job->w->model->tf.layers;
	long limit = t->max_pp ? t->max_pp : layers;
	for (long pp = 1; pp <= layers && pp <= limit; pp++)
		if (layers % pp == 0)
			add_choice(out, pp);
}

static void micro_choices(const struct layout_ctx *c, long local,
			  struct choices *out)
{
	const struct training *t = train_of(c);
	out->n = 0;
	if (t->layout.micro_batch) {
		if (t->layout.micro_batch <= local)
			add_choice(out, t->layout.micro_batch);
		return;
	}
	for (long m = 1; m <= local && m <= MAX_MICRO; m *= 2)
		add_choice(out, m);
}

/* Megatron-LM interleaves only when the micro-batches divide among the
 * stages, and each stage's layers divide into the chunks. */
static void v_choices(const struct layout_ctx *c, long pp, long m,
		      struct choices *out)
{
	const struct training *t = train_of(c);
	out->n = 0;
	if (t->layout.interleave) {
		add_choice(out, t->layout.interleave);
		return;
	}
	add_choice(out, 1);
	if (pp <= 1 || m % pp != 0)
		return;
	long per_stage = c->job->w->model->tf.layers / pp;
	for (long v = 2; v <= per_stage && v <= MAX_INTERLEAVE; v++)
		if (per_stage % v == 0)
			add_choice(out, v);
}

static void zero_choices(const struct layout_ctx *c, long dp, struct choices *out)
{
	const struct training *t = train_of(c);
	out->n = 0;
	if (!t->zero_auto) {
		add_choice(out, t->zero);
		return;
	}
	for (int z = 0; z <= (dp > 1 ? 3 : 0); z++)
		if (framework_of(c)->zero_stage[z])
			add_choice(out, z);
}

static void recompute_choices(const struct layout_ctx *c, struct choices *out)
{
	const struct training *t = train_of(c);
	out->n = 0;
	if (!t->recompute_auto) {
		add_choice(out, t->recompute);
		return;
	}
	add_choice(out, RECOMPUTE_NONE);
	add_choice(out, RECOMPUTE_SELECTIVE);
	add_choice(out, RECOMPUTE_FULL);
}

static void measure_memory(const struct layout_ctx *c, struct layout_try *t)
{
	const struct layout *l = &t->l;
	struct train_setup s = {c->job->w->precision, c->job->w->train.optimizer,
				l->zero, l->dp, l->tp, l->pp, l->micro,
				l->recompute, l->v, l->sp,
				c->job->w->train.fused_attention,
				train_grad_rules(c->job->w, l->zero)};
	struct memory_breakdown mb;
	memory_training_of(c->mm, &s, false, &mb);
	t->memory = mb.total;
	memcpy(t->parts, mb.bytes, sizeof(t->parts));
	t->fits = t->memory <= c->capacity;
}

struct search {
	const struct layout_ctx *c;
	struct layout_try *best;
	bool any;		/* best holds something */
};

/* A split that the compute alone makes no faster than the best so far
 * cannot win: skipped unless every loser is being reported. */
static bool cannot_win(const struct search *s, const struct layout *l,
		       const struct roofline *fwd)
{
	if (s->c->each || !s->any || !s->best->fits)
		return false;
	return train_step_lower_bound(s->c->job, l, fwd) >= s->best->st.total;
}

static void consider(struct search *s, struct layout_try *t)
{
	if (s->c->each)
		s->c->each(s->c->each_arg, t);
	struct layout_try *b = s->best;
	bool better;
	if (!s->any)
		better = true;
	else if (t->fits != b->fits)
		better = t->fits;
	else if (t->fits)
		better = t->st.total < b->st.total;
	else
		better = t->memory < b->memory;
	if (better) {
		*b = *t;
		s->any = true;
	}
}

/* For one split: the least ZeRO and recomputation that fit (each the
 * fastest of its kind), or the split's smallest footprint. */
static void try_split(struct search *s, struct layout l)
{
	const struct layout_ctx *c = s->c;
	const struct roofline *fwd = c->forward(c->forward_arg, l.micro, l.tp, l.sp);
	if (cannot_win(s, &l, fwd))
		return;
	struct choices zeros, recomputes;
	zero_choices(c, l.dp, &zeros);
	recompute_choices(c, &recomputes);
	for (int zi = 0; zi < zeros.n; zi++) {
		for (int ri = 0; ri < recomputes.n; ri++) {
			struct layout_try t = {.l = l};
			t.l.zero = (int)zeros.v[zi];
			t.l.recompute = (enum recompute)recomputes.v[ri];
			measure_memory(c, &t);
			if (t.fits)
				train_step_time(c->job, &t.l, fwd, &t.st);
			consider(s, &t);
			if (t.fits && !c->each)
				break;
		}
	}
}

static void try_pipeline(struct search *s, long tp, long pp, long dp)
{
	const struct layout_ctx *c = s->c;
	const struct training *t = train_of(c);
	long local = (t->global_batch + dp - 1) / dp;
	struct choices micros;
	micro_choices(c, local, &micros);
	for (int mi = micros.n - 1; mi >= 0; mi--) {
		struct layout l = {.tp = tp, .pp = pp, .dp = dp, .micro = micros.v[mi]};
		l.accumulation = (local + l.micro - 1) / l.micro;
		l.sp = tp > 1 && (t->layout.sequence_parallel == LAYOUT_ON ||
				  (t->layout.sequence_parallel == LAYOUT_UNSET &&
				   framework_of(c)->sequence_parallel));
		l.overlap = t->layout.overlap_grad_reduce == LAYOUT_ON ||
			    (t->layout.overlap_grad_reduce == LAYOUT_UNSET &&
			     framework_of(c)->overlap_default);
		struct choices vs;
		v_choices(c, pp, l.accumulation, &vs);
		for (int vi = 0; vi < vs.n; vi++) {
			l.v = vs.v[vi];
			try_split(s, l);
		}
	}
}

bool train_layout_search(const struct layout_ctx *c, long gpus,
			 struct layout_try *best, char *why, size_t whylen)
{
	const struct training *t = train_of(c);
	struct search s = {c, best, false};
	struct choices tps, pps;
	memset(best, 0, sizeof(*best));
	tp_choices(c, &tps);
	pp_choices(c, &pps);
	snprintf(why, whylen, "no split of %ld GPUs gives every data-parallel rank a sample of the batch of %ld",
		 gpus, t->global_batch);
	for (int ti = 0; ti < tps.n; ti++)
		for (int pi = 0; pi < pps.n; pi++) {
			long tp = tps.v[ti], pp = pps.v[pi];
			if (gpus % (tp * pp))
				continue;
			long dp = gpus / (tp * pp);
			if (dp > t->global_batch || (t->layout.dp && dp != t->layout.dp))
				continue;
			try_pipeline(&s, tp, pp, dp);
		}
	if (!s.any && (t->layout.tp || t->layout.pp || t->layout.dp ||
		       t->layout.micro_batch))
		snprintf(why, whylen, "the layout the workload fixes (tp %ld, pp %ld, dp %ld, micro-batch %ld) does not fit %ld GPUs and a batch of %ld",
			 t->layout.tp, t->layout.pp, t->layout.dp,
			 t->layout.micro_batch, gpus, t->global_batch);
	return s.any;
}

/*
 * serve_prep.c - what sizing an inference service needs, prepared once per
 * workload, and the service time of one batch on one accelerator.
 *
 * The per-op roofline (roofline.h) charges each op max(F / P, E e / B):
 * F its FLOPs, E the elements it moves, e bytes per element, P the peak
 * and B the bandwidth.  An op is compute-bound exactly when its intensity
 * F / E is at least the ridge P e / B.  So with the ops of one peak class
 * (matrix or vector) sorted by F / E and prefix sums of F and E, the whole
 * graph's roofline on any accelerator is one binary search per class:
 * ops below the ridge cost their elements, ops at or above it their FLOPs.
 * That is the same sum roofline_forward() computes op by op, in O(log n)
 * instead of O(n), which is what lets the planner evaluate every instance
 * type of a large catalog (tests/unit/test_serve.c holds the two equal).
 *
 * It also keeps the options found per hardware signature (serve_prep.h):
 * an open-addressing table keyed by a hash of the signature, compared
 * field by field, so a repeated machine is looked up in O(1).
 */
#include "serve/serve_prep.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "hwmodel/roofline.h"
#include "workload/trace.h"

/* ---- ops sorted by intensity ---- */

struct op_point {
	double x, f, e;		/* intensity, FLOPs, elements */
};

static int by_intensity(const void *pa, const void *pb)
{
	const struct op_point *a = pa, *b = pb;
	return (a->x > b->x) - (a->x < b->x);
}

static bool is_matrix(const struct op *o)
{
	enum op_class c = op_kind_class(o->kind);
	return c == OPC_GEMM || c == OPC_ATTENTION;
}

/* How a matrix curve's FLOPs are shaped: NULL for the vector ops. */
struct shaping {
	const struct matrix_eff *p;
	double share;		/* 1 / tp */
	long sms;
};

/*
 * The ops[0..n) for `batch` samples, FLOPs and elements as
 * roofline_forward() counts them, before the element size and the
 * tensor-parallel share; a matrix op's FLOPs divided by its shape factor
 * (sh) so that FLOPs / (peak x ceiling) is its compute time.
 */
static void curve_build(struct op_curve *cv, const struct op *ops, size_t n_ops,
			long batch, enum serve_sizes sizes,
			const struct shaping *sh, struct op_point *tmp)
{
	size_t n = 0;
	struct matrix_eff_memo memo = {0};
	for (size_t i = 0; i < n_ops; i++) {
		const struct op *o = &ops[i];
		double f = o->flops * batch;
		/* serving engines run attention fused (vLLM's paged attention,
		 * TensorRT-LLM's fused MHA): the scores stay on chip, as
		 * roofline_forward() counts them with fused_attention */
		double scratch = o->kind == OP_ATTENTION ? 0 : o->scratch;
		double acts = (o->act_read + o->act_written + scratch) * batch;
		double e = op_weight_reads(o) +
			   acts * (sizes == SERVE_WIDE_ACTS ? 2 : 1);
		if (f <= 0 && e <= 0)
			continue;
		if (sh)
			f /= matrix_eff_op_memo(&memo, sh->p, o, batch, sh->share,
						sh->sms);
		tmp[n++] = (struct op_point){e > 0 ? f / e : HUGE_VAL, f, e};
	}
	qsort(tmp, n, sizeof(*tmp), by_intensity);
	cv->x = xmalloc((n ? n : 1) * sizeof(double));
	cv->cf = xmalloc((n + 1) * sizeof(double));
	cv->ce = xmalloc((n + 1) * sizeof(double));
	cv->cf[0] = cv->ce[0] = 0;
	/* Ops of equal intensity fall on the same side of every ridge, so
	 * they merge into one point: a transformer's identical layers
	 * become one entry per op kind, and the search a few steps. */
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m == 0 || tmp[i].x != cv->x[m - 1]) {
			cv->x[m] = tmp[i].x;
			cv->cf[m + 1] = cv->cf[m];
			cv->ce[m + 1] = cv->ce[m];
			m++;
		}
		cv->cf[m] += tmp[i].f;
		cv->ce[m] += tmp[i].e;
	}
	cv->n = m;
}

static void curve_free(struct op_curve *cv)
{
	free(cv->x);
	free(cv->cf);
	free(cv->ce);
}

/* The first index whose intensity is at least r (n when none is). */
static size_t lower_bound(const double *x, size_t n, double r)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (x[mid] < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Adds the curve's roofline time at peak P (FLOP/s) and `rate` elements
 * per second to *compute and *memory.  As roofline_forward(): no peak
 * charges nothing for FLOPs (every op is then memory-bound), no bandwidth
 * nothing for bytes.
 */
static void curve_time(const struct op_curve *cv, double peak, double rate,
		       double *compute, double *memory)
{
	size_t n = cv->n;
	if (peak <= 0) {
		*memory += rate > 0 ? cv->ce[n] / rate : 0;
		return;
	}
	if (rate <= 0) {
		*compute += cv->cf[n] / peak;
		return;
	}
	size_t j = lower_bound(cv->x, n, peak / rate);
	*compute += (cv->cf[n] - cv->cf[j]) / peak;
	*memory += cv->ce[j] / rate;
}

/*
 * The vector ops' curves per element-size kind and batch size (the wide
 * kind only when wide_acts), and a copy of the matrix ops, of g as the
 * engine's fusion rules run it (fusion.h): a fused op keeps only the
 * traffic its kernel still has, and launches nothing.
 */
static void pass_build(struct serve_pass *p, const struct model_graph *g,
		       enum fusion_rules rules, bool wide_acts)
{
	size_t n = g->n ? g->n : 1;
	struct op_point *tmp = xmalloc(n * sizeof(*tmp));
	struct op *ops = xmalloc(n * sizeof(*ops));
	bool *launches = xmalloc(n * sizeof(*launches));
	struct op *vec = xmalloc(n * sizeof(*vec));
	size_t nv = 0;
	p->mops = xmalloc(n * sizeof(*p->mops));
	p->n_mops = 0;
	p->kernels = fusion_apply(g, rules, ops, launches);
	for (size_t i = 0; i < g->n; i++) {
		if (is_matrix(&ops[i]))
			p->mops[p->n_mops++] = ops[i];
		else
			vec[nv++] = ops[i];
	}
	for (int k = 0; k < SERVE_SIZES; k++)
		for (int b = 0; b < SERVE_TOKENS; b++)
			curve_build(&p->vector[k][b], vec,
				    k == SERVE_ONE_SIZE || wide_acts ? nv : 0,
				    1L << b, (enum serve_sizes)k, NULL, tmp);
	free(vec);
	free(launches);
	free(ops);
	free(tmp);
}

static void pass_free(struct serve_pass *p)
{
	for (int k = 0; k < SERVE_SIZES; k++)
		for (int b = 0; b < SERVE_TOKENS; b++)
			curve_free(&p->vector[k][b]);
	free(p->mops);
}

/* ---- matrix curves per SM count ---- */

static void shaped_build(struct serve_shaped *set, const struct serve_prep *sp,
			 const struct matrix_eff *params, long sms)
{
	const struct serve_pass *pass[2] = {&sp->prefill, &sp->decode};
	set->sms = sms;
	for (int k = 0; k < 2; k++) {
		const struct serve_pass *p = pass[k];
		bool used = k == 0 || sp->decoder;
		struct op_point *tmp = xmalloc((p->n_mops ? p->n_mops : 1) *
					       sizeof(*tmp));
		for (int z = 0; z < SERVE_SIZES; z++) {
			bool built = used && (z == SERVE_ONE_SIZE || sp->wide_acts);
			for (int t = 0; t < SERVE_TPS; t++)
				for (int b = 0; b < SERVE_TOKENS; b++) {
					struct shaping sh = {params,
							     1.0 / (1L << t), sms};
					curve_build(&set->curve[z][k][t][b],
						    p->mops, built ? p->n_mops : 0,
						    1L << b, (enum serve_sizes)z,
						    &sh, tmp);
				}
		}
		free(tmp);
	}
}

static void shaped_free(struct serve_shaped *set)
{
	for (int z = 0; z < SERVE_SIZES; z++)
		for (int k = 0; k < 2; k++)
			for (int t = 0; t < SERVE_TPS; t++)
				for (int b = 0; b < SERVE_TOKENS; b++)
					curve_free(&set->curve[z][k][t][b]);
}

static void shapes_clear(struct serve_shapes *sh)
{
	for (size_t i = 0; i < sh->n; i++)
		shaped_free(&sh->sets[i]);
	sh->n = 0;
}

/*
 * The matrix curves for d's SM count and curve, built the first time they
 * are asked for (a catalog has a handful of SM counts: whole parts and
 * their MIG slices).  Curves built with other parameters are dropped.
 */
static const struct serve_shaped *shaped_for(const struct serve_prep *sp,
					     const struct serve_device *d)
{
	struct serve_shapes *sh = sp->shapes;
	if (!matrix_eff_equal(&sh->params, d->shape)) {
		shapes_clear(sh);
		sh->params = *d->shape;
	}
	for (size_t i = 0; i < sh->n; i++)
		if (sh->sets[i].sms == d->sms)
			return &sh->sets[i];
	xgrow((void **)&sh->sets, &sh->cap, sh->n + 1, sizeof(*sh->sets));
	struct serve_shaped *set = &sh->sets[sh->n++];
	shaped_build(set, sp, &sh->params, d->sms);
	return set;
}

/* The index t with 2^t = tp (the largest below, for another tp). */
static int tp_index(long tp)
{
	int t = 0;
	while (t + 1 < SERVE_TPS && (1L << (t + 1)) <= tp)
		t++;
	return t;
}

int serve_act_bytes(const struct serve_prep *sp, const struct serve_device *d)
{
	return sp->wide_acts && d->elem == 1 ? 2 : d->elem;
}

void serve_pass_time(const struct serve_prep *sp, int k, int b,
		      const struct serve_device *d, double *compute,
		      double *memory)
{
	const struct serve_pass *p = k == 0 ? &sp->prefill : &sp->decode;
	const struct serve_shaped *set = shaped_for(sp, d);
	/* wide activations: the curves count bytes at one byte a weight */
	enum serve_sizes z = serve_act_bytes(sp, d) > d->elem
				     ? SERVE_WIDE_ACTS : SERVE_ONE_SIZE;
	double c = 0, m = 0, rate = d->bandwidth / d->elem;
	curve_time(&set->curve[z][k][tp_index(d->tp)][b], d->matrix, rate, &c, &m);
	curve_time(&p->vector[z][b], d->vector, rate, &c, &m);
	*compute = c / d->tp;
	*memory = m / d->tp;
}

/* ---- memory ---- */

/* Element sizes 1, 2, 4 and 8 bytes, as indices 0..3. */
static int elem_index(int elem)
{
	return elem <= 1 ? 0 : elem == 2 ? 1 : elem == 4 ? 2 : 3;
}

static const enum precision elem_precision[4] = {
	PREC_INT8, PREC_BF16, PREC_FP32, PREC_FP64,
};

/* memory_serving_of() for every element size, tensor-parallel degree and
 * batch size: a few hundred evaluations once, table lookups after. */
static void memory_table(struct serve_prep *sp, const struct model_graph *g)
{
	const struct workload *w = sp->w;
	struct memory_model mm;
	memory_model_init(&mm, w->model, g);
	sp->params = mm.params;
	sp->peak_elements = mm.serve_peak;
	struct memory_breakdown out;
	for (int k = 0; k < 4; k++)
		for (int t = 0; t < SERVE_TPS; t++)
			for (int b = 0; b < SERVE_BATCHES; b++) {
				struct serve_setup s = {
					.precision = elem_precision[k],
					.kv_precision = sp->kv_precision,
					.batch = 1L << b,
					.context = sp->context,
					.tp = 1L << t,
				};
				memory_serving_of(&mm, &s, false, &out);
				sp->memory[k][t][b] = out.total;
			}
}

double serve_memory(const struct serve_prep *sp, int tp_index,
		    int batch_index, int elem)
{
	return sp->memory[elem_index(elem)][tp_index][batch_index];
}

/* ---- preparing ---- */

static int build(const struct workload *w, long seq, struct model_graph *g,
		 char *why, size_t whylen)
{
	struct gp_errors errs;
	gp_errors_init(&errs);
	memset(g, 0, sizeof(*g));
	int rc = model_build(w->model, seq, g, &errs);
	if (rc < 0)
		snprintf(why, whylen, "%s: model %s does not build at %ld tokens",
			 w->name, w->model_file, seq);
	gp_errors_free(&errs);
	return rc;
}

/*
 * The elements live in the largest op of the repeated layers, per token:
 * what an iteration of an LLM engine holds per token it runs (attention
 * fused, so no score matrix; the output head's logits are counted apart,
 * for the last token of each sequence only).  0 for other models.
 */
static double layer_peak_per_token(const struct model_graph *g,
				   const struct model *m)
{
	if (m->kind != MODEL_TRANSFORMER || g->seq < 1)
		return 0;
	double peak = 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct op *o = &g->ops[i];
		if (o->block < 1 || o->block > m->tf.layers)
			continue;
		double e = o->act_read + o->act_written;
		if (e > peak)
			peak = e;
	}
	return peak / (double)g->seq;
}

/*
 * Token-generating decoders get two graphs: the prompt (seq = prompt
 * tokens) and one decode step (seq 1, the KV cache read added by
 * serve_batch_time()).  Everything else is one forward pass at the prompt
 * length (0: the model's own length, or an image model).
 */

struct serve_prep *serve_prepare(const struct workload *w, char *why,
				 size_t whylen)
{
	return serve_prepare_fused(w, FUSION_TENSORRT, why, whylen);
}

struct serve_prep *serve_prepare_fused(const struct workload *w,
				       enum fusion_rules rules, char *why,
				       size_t whylen)
{
	const struct model *m = w->model;
	struct serve_prep *sp = xcalloc(1, sizeof(*sp));
	sp->shapes = xcalloc(1, sizeof(*sp->shapes));
	matrix_eff_default(&sp->shapes->params);
	sp->w = w;
	sp->decoder = m->kind == MODEL_TRANSFORMER && m->tf.arch == TF_DECODER;
	sp->transformer = m->kind == MODEL_TRANSFORMER;
	sp->prompt = w->infer.prompt_tokens;
	sp->output = sp->decoder ? w->infer.output_tokens : 0;
	sp->prompt_lo = w->infer.prompt_range[0];
	sp->prompt_hi = w->infer.prompt_range[1];
	sp->output_lo = sp->decoder ? w->infer.output_range[0] : 0;
	sp->output_hi = sp->decoder ? w->infer.output_range[1] : 0;
	/* memory holds the longest request */
	sp->context = sp->decoder ? w->infer.longest : sp->prompt_hi;
	sp->kv_precision = w->infer.has_kv ? w->infer.kv_precision : w->precision;
	sp->kv_per_token = kv_cache_bytes_per_token(
		m, precision_bytes(sp->kv_precision));
	struct model_graph g;
	if (build(w, sp->prompt, &g, why, whylen) < 0) {
		model_graph_free(&g);
		free(sp->shapes);
		free(sp);
		return NULL;
	}
	sp->seq = g.seq;
	sp->token_peak_elements = layer_peak_per_token(&g, m);
	sp->wide_acts = sp->decoder && precision_bytes(w->precision) == 1;
	pass_build(&sp->prefill, &g, rules, sp->wide_acts);
	memory_table(sp, &g);
	model_graph_free(&g);
	if (sp->decoder) {
		if (build(w, 1, &g, why, whylen) < 0) {
			model_graph_free(&g);
			serve_prep_free(sp);
			return NULL;
		}
		pass_build(&sp->decode, &g, rules, sp->wide_acts);
		model_graph_free(&g);
	}
	return sp;
}

/* ---- options per hardware signature ---- */

static uint64_t mix(uint64_t h)
{
	/* splitmix64's finalizer: every input bit moves every output bit */
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9u;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebu;
	return h ^ (h >> 31);
}

static uint64_t bits_of(double x)
{
	uint64_t b;
	memcpy(&b, &x, sizeof(b));
	return b;
}

static uint64_t hw_hash(const struct instance *in)
{
	uint64_t h = mix((uint64_t)(uintptr_t)in->acc);
	h = mix(h ^ (uint64_t)in->gpus);
	h = mix(h ^ (uint64_t)in->intra.kind);
	return mix(h ^ bits_of(in->intra.bandwidth));
}

static bool same_hw(const struct serve_hw *h, uint64_t hash,
		    const struct instance *in)
{
	return h->hash == hash && h->acc == in->acc && h->gpus == in->gpus &&
	       h->link == in->intra.kind &&
	       bits_of(h->link_bandwidth) == bits_of(in->intra.bandwidth);
}

/* The slot holding in's signature (hash: hw_hash(in)), or the empty one
 * where it would go; c->cap > 0 and the table is never full. */
static struct serve_hw *slot_of(const struct serve_cache *c, uint64_t hash,
				const struct instance *in)
{
	size_t mask = c->cap - 1, i = (size_t)hash & mask;
	while (c->slots[i].acc && !same_hw(&c->slots[i], hash, in))
		i = (i + 1) & mask;
	return &c->slots[i];
}

static void cache_clear(struct serve_cache *c)
{
	free(c->slots);
	plan_result_free(&c->options);
	memset(c, 0, sizeof(*c));
}

/* The same engine at the same settings (NAN defaults compare by their
 * bits). */
static bool same_engine(const struct engine_config *a,
			const struct engine_config *b)
{
	return a->e == b->e && memcmp(a->v, b->v, sizeof(a->v)) == 0 &&
	       memcmp(a->given, b->given, sizeof(a->given)) == 0;
}

/* The traffic, targets and engine the kept options were sized for:
 * another workload's are sized anew. */
static bool same_traffic(const struct inference *a, const struct inference *b)
{
	if (!same_engine(&a->engine, &b->engine))
		return false;
	for (int t = 0; t < TARGET_COUNT; t++)
		if (a->target[t] != b->target[t])
			return false;
	return a->request_rate == b->request_rate &&
	       a->serving_per_month == b->serving_per_month &&
	       a->trace == b->trace;
}

void serve_prep_rebind(struct serve_prep *sp, const struct workload *w)
{
	if (!same_traffic(&sp->w->infer, &w->infer))
		cache_clear(&sp->cache);
	sp->w = w;
}

const struct serve_hw *serve_cache_find(struct serve_prep *sp,
					const struct instance *in,
					const struct efficiency *e)
{
	struct serve_cache *c = &sp->cache;
	if (c->compute != e->compute || c->memory != e->memory ||
	    c->compute_default != efficiency_compute_is_default(e) ||
	    c->link != e->link || c->graph_gap != e->graph_gap ||
	    c->stream_gap != e->stream_gap || c->stream_floor != e->stream_floor ||
	    c->iteration_host != e->iteration_host ||
	    !matrix_eff_equal(&c->matrix, &e->matrix)) {
		cache_clear(c);
		c->compute = e->compute;
		c->compute_default = efficiency_compute_is_default(e);
		c->memory = e->memory;
		c->link = e->link;
		c->graph_gap = e->graph_gap;
		c->stream_gap = e->stream_gap;
		c->stream_floor = e->stream_floor;
		c->iteration_host = e->iteration_host;
		c->matrix = e->matrix;
	}
	if (c->cap == 0)
		return NULL;
	const struct serve_hw *h = slot_of(c, hw_hash(in), in);
	return h->acc ? h : NULL;
}

/* Doubles the table (from 64 slots), re-placing every signature by its
 * stored hash. */
static void cache_grow(struct serve_cache *c)
{
	struct serve_hw *old = c->slots;
	size_t n = c->cap;
	c->cap = n ? 2 * n : 64;
	c->slots = xcalloc(c->cap, sizeof(*c->slots));
	for (size_t i = 0; i < n; i++) {
		if (!old[i].acc)
			continue;
		size_t j = (size_t)old[i].hash & (c->cap - 1);
		while (c->slots[j].acc)
			j = (j + 1) & (c->cap - 1);
		c->slots[j] = old[i];
	}
	free(old);
}

const struct serve_hw *serve_cache_add(struct serve_prep *sp,
				       const struct instance *in, size_t first,
				       size_t n)
{
	struct serve_cache *c = &sp->cache;
	if (2 * (c->used + 1) > c->cap)
		cache_grow(c);
	uint64_t hash = hw_hash(in);
	struct serve_hw *h = slot_of(c, hash, in);
	if (!h->acc)
		c->used++;
	*h = (struct serve_hw){hash, in->acc, in->gpus, in->intra.kind,
			       in->intra.bandwidth, first, n};
	return h;
}

void serve_prep_free(struct serve_prep *sp)
{
	if (!sp)
		return;
	cache_clear(&sp->cache);
	shapes_clear(sp->shapes);
	free(sp->shapes->sets);
	free(sp->shapes);
	pass_free(&sp->prefill);
	if (sp->decoder)
		pass_free(&sp->decode);
	free(sp);
}

/* ---- one accelerator ---- */

/*
 * As roofline_forward(): the matrix peak of the precision (or the nearest
 * the part has), the fp32 peak for the rest, both at the compute
 * efficiency (the large-GEMM ceiling; matrix ops' shape factors are in
 * their curves); the bandwidth at the memory efficiency.  A MIG slice has its
 * own shares of compute and bandwidth.  The GPU-to-GPU link: a catalog
 * bandwidth is the bidirectional total, so one direction carries half,
 * at the link efficiency.
 */
void serve_device_init(struct serve_device *d, const struct accelerator *a,
		       enum precision want, const struct efficiency *e,
		       long tp, double compute_fraction,
		       double bandwidth_fraction, const struct link *intra)
{
	enum precision fp32;
	memset(d, 0, sizeof(*d));
	d->acc = a;
	double peak = roofline_matrix_peak(a, want, &d->used);
	d->matrix = peak * efficiency_ceiling(e, a, d->used) * compute_fraction;
	d->vector = roofline_matrix_peak(a, PREC_FP32, &fp32) * e->compute *
		    compute_fraction;
	d->sms = matrix_eff_sms(&e->matrix, a, compute_fraction);
	d->shape = &e->matrix;
	d->elem = precision_bytes(d->used);
	d->bandwidth = a->memory_bandwidth * e->memory * bandwidth_fraction;
	d->tp = tp;
	d->pp = 1;
	double link = intra && intra->bandwidth > 0 ? intra->bandwidth
						     : a->interconnect.bandwidth;
	d->link = link / 2 * e->link;
	d->graph_gap = e->graph_gap;
	d->iteration_host = e->iteration_host;
	d->stream_gap = e->stream_gap;
	d->stream_floor = e->stream_floor;
}

double serve_launch_time(const struct serve_prep *sp, int pass,
			 const struct serve_device *d, bool graph, double r)
{
	double n = (double)(pass == 0 ? sp->prefill.kernels : sp->decode.kernels);
	if (graph)
		return n * d->graph_gap;
	return fmax(n * d->stream_gap, n * d->stream_floor - r);
}

/*
 * Tensor parallelism (Megatron-LM, Shoeybi et al. 2019) splits each
 * layer's matrices over tp GPUs and joins them with two all-reduces of the
 * layer's activations (after attention and after the MLP).  A ring
 * all-reduce of S bytes moves 2 (n - 1) / n x S over each GPU's link
 * (nccl-tests' bus-bandwidth factor), plus a fixed start-up latency.
 */
double serve_allreduce_time(const struct serve_prep *sp,
			    const struct serve_device *d, double tokens)
{
	if (d->tp <= 1 || !sp->transformer)
		return 0;
	const struct transformer_config *tf = &sp->w->model->tf;
	double bytes = tokens * tf->hidden * serve_act_bytes(sp, d);
	double one = 2.0 * (d->tp - 1) / d->tp * bytes /
		     (d->link > 0 ? d->link : HUGE_VAL) + SERVE_ALLREDUCE_LATENCY;
	return 2.0 * tf->layers * one;
}

/*
 * Pipeline parallelism (vLLM's pipeline_parallel_size) cuts the layers
 * into pp stages on pp GPUs; a stage hands the next one its activations,
 * tokens x hidden elements, point to point over the GPU-to-GPU link, with
 * the all-reduce's start-up latency (SERVE_ALLREDUCE_LATENCY, an
 * assumption) for each send.
 */
double serve_stage_send_time(const struct serve_prep *sp,
			     const struct serve_device *d, double tokens)
{
	if (d->pp <= 1 || !sp->transformer)
		return 0;
	double bytes = tokens * sp->w->model->tf.hidden * serve_act_bytes(sp, d);
	return (double)(d->pp - 1) *
	       (bytes / (d->link > 0 ? d->link : HUGE_VAL) +
		SERVE_ALLREDUCE_LATENCY);
}

/*
 * S(b): the prompt's forward pass for b sequences, then output_tokens
 * decode steps, each a forward pass at seq 1 for b sequences plus reading
 * the KV cache of the average context (prompt + output / 2) of all b,
 * split over min(tp, kv heads) GPUs as memory_serving() splits it.
 */
void serve_batch_time(const struct serve_prep *sp, const struct serve_device *d,
		      int bi, struct serve_time *out)
{
	double b = (double)(1L << bi), pc, pm;
	memset(out, 0, sizeof(*out));
	serve_pass_time(sp, 0, bi, d, &pc, &pm);
	/* batch-served models run as TensorRT engines under Triton, their
	 * kernels launched from the host one by one */
	pc += serve_launch_time(sp, 0, d, false, pc + pm);
	out->prefill = pc + pm;
	out->comm = serve_allreduce_time(sp, d, b * (sp->seq > 0 ? sp->seq : 1));
	out->split.compute = pc;
	out->split.memory = pm;
	if (sp->decoder && sp->output > 0) {
		double dc, dm;
		serve_pass_time(sp, 1, bi, d, &dc, &dm);
		dc += serve_launch_time(sp, 1, d, false, dc + dm);
		long kv_split = d->tp;
		if (kv_split > sp->w->model->tf.kv_heads)
			kv_split = sp->w->model->tf.kv_heads;
		double context = sp->prompt + sp->output / 2.0;
		out->kv_read = sp->kv_per_token * context * b /
			       (d->bandwidth * kv_split);
		out->decode_step = dc + dm + out->kv_read;
		out->comm += sp->output * serve_allreduce_time(sp, d, b);
		out->split.compute += sp->output * dc;
		out->split.memory += sp->output * (dm + out->kv_read);
	}
	out->split.communication = out->comm;
	out->total = out->prefill + sp->output * out->decode_step + out->comm;
}

const struct sim_trace *serve_trace(const struct serve_prep *sp, double rate,
				    long replicas, struct sim_trace *t)
{
	const struct request_trace *rt = sp->w->infer.trace;
	if (!rt)
		return NULL;
	*t = (struct sim_trace){
		.arrival = rt->arrival, .n = rt->n, .span = rt->span,
		.prompt = sp->decoder || sp->transformer ? rt->prompt : NULL,
		.output = sp->decoder ? rt->output : NULL,
		.stride = replicas > 1 ? replicas : 1,
		/* the trace's own rate over the one asked for */
		.time_scale = rt->arrival && rate > 0 ? rt->rate / rate : 1,
	};
	return t;
}

long serve_sim_count(const struct sim_trace *t, long usual)
{
	if (!t || !t->arrival)
		return usual;
	long share = sim_trace_share(t);
	return share > usual ? share : usual;
}

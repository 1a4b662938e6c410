/*
 * serve_llm.c - a decoder LLM's service sized as continuous-batching
 * engines run it (serve_llm.h).
 *
 * The iteration cost.  One iteration is one forward pass over the tokens
 * it runs (a decode's one token, a prompt chunk's tokens), so:
 *   tokens  the linear layers, norms and activations of T tokens: the
 *           decode graph's roofline at T samples (serve_prep.c: weights
 *           read once, FLOPs and activations per token), interpolated
 *           between powers of two;
 *   KV      every token of context a decode or a chunk attends to, read
 *           from the paged cache: its bytes per token over the GPUs that
 *           split the KV heads, at the memory bandwidth;
 *   prompt  a chunk's causal attention, 4 x head_dim FLOPs per query-key
 *           pair per head and layer, at the matrix peak and the shape of
 *           a chunk's score product (attention fused: FlashAttention's
 *           memory is linear in the sequence);
 *   TP      two all-reduces per layer of the iteration's activations;
 *   PP      each pipeline stage's hand-off of the activations to the next;
 *   launch  the gap each kernel of the pass leaves on the GPU inside a
 *           CUDA graph, as engines capture their forward pass;
 *   host    the wait for the host between iterations (scheduling,
 *           input preparation, sampling) before the graph is replayed
 *           (efficiency.h says whose measurement).
 *
 * Memory.  LLM_MEMORY_FRACTION of the GPU, less the weights, the largest
 * layer's activations for a full token budget, fp32 logits of each live
 * sequence's last token and the fixed workspace (model/memory.h), is the
 * KV cache, in LLM_KV_BLOCK-token pages.
 *
 * Pipeline stages.  A replica of pp stages (vLLM's pipeline parallelism)
 * holds 1/pp of the layers, and their KV cache, on each of its pp x tp
 * GPUs and keeps pp batches in flight, one per stage (vLLM's virtual
 * engines), each scheduled on its own: it serves as pp engines would, each
 * iterating through every stage in turn (the whole model's work, plus the
 * hand-offs) with the cache one GPU's free memory holds, and requests are
 * dealt to them round robin.  The simulation runs one of them.
 *
 * The search.  For token budgets of 512, 2,048 and 8,192 and live-sequence
 * limits of powers of two up to what the cache holds, from the largest:
 * the fewest replicas whose share of the traffic (requests spread evenly,
 * so each replica sees Poisson arrivals at rate / replicas, or every
 * replicas-th request of a trace, dealt round robin) meets every
 * target in the simulation, starting from the count the engine's
 * saturated throughput needs.  The deployment with the fewest instances
 * wins, then the lower end-to-end p99; the instances it rents then serve
 * with every replica they hold.
 */
#include "serve/serve_llm.h"

#include <math.h>
#include <string.h>

#include "hwmodel/matrix_eff.h"

/* ---- the engine ---- */

/* A setting as given, else the engine's default on this GPU (NAN when
 * neither is known). */
static double setting(const struct engine_config *c, enum engine_setting s,
		      double capacity)
{
	return c->given[s] ? c->v[s] : engine_default_for(c->e, s, capacity);
}

/* A switch: on unless the setting says off (NAN: the assumption `dflt`). */
static bool switch_on(double v, bool dflt)
{
	return isnan(v) ? dflt : v != 0;
}

void llm_engine_resolve(const struct serve_prep *sp, double capacity,
			struct llm_engine_use *u)
{
	const struct engine_config *c = &sp->w->infer.engine;
	memset(u, 0, sizeof(*u));
	u->block = LLM_KV_BLOCK;
	u->kv_fraction = LLM_MEMORY_FRACTION;
	u->max_seqs = 1024;
	u->graphs = true;
	if (!c->e)
		return;
	double v = setting(c, ES_TOKEN_BUDGET, capacity);
	if (isnan(v) && c->e->budget_is_context && sp->transformer)
		v = (double)sp->w->model->tf.max_seq;	/* its session_len */
	u->budget = isnan(v) ? 0 : (long)v;
	v = setting(c, ES_MAX_SEQS, capacity);
	if (!isnan(v))
		u->max_seqs = (long)v;
	u->seqs_given = c->given[ES_MAX_SEQS];
	v = setting(c, ES_KV_FRACTION, capacity);
	if (!isnan(v)) {
		u->kv_fraction = v;
		u->kv_base = c->e->kv_base;
	}
	v = setting(c, ES_KV_BLOCK, capacity);
	if (!isnan(v))
		u->block = (long)v;
	u->no_evict = !switch_on(setting(c, ES_PREEMPTION, capacity), true);
	u->overlap = switch_on(setting(c, ES_HOST_OVERLAP, capacity), false);
	u->graphs = switch_on(setting(c, ES_CUDA_GRAPHS, capacity), true);
	u->separate_prefill = c->e->separate_prefill != NULL;
	u->whole_prompts = u->separate_prefill ||
			   !switch_on(setting(c, ES_CHUNKED_PREFILL, capacity),
				      true);
	v = setting(c, ES_PREFIX_CACHING, capacity);
	if (switch_on(v, false)) {
		v = setting(c, ES_PREFIX_HIT_RATE, capacity);
		u->prefix_hit = isnan(v) ? 0 : v;
	}
}

void llm_engine_at(const struct serve_prep *sp, double capacity,
		   long max_seqs, long token_budget, double kv_tokens,
		   struct cb_engine *e)
{
	struct llm_engine_use u;
	llm_engine_resolve(sp, capacity, &u);
	*e = (struct cb_engine){
		.max_seqs = max_seqs, .token_budget = token_budget,
		.kv_tokens = kv_tokens, .block = u.block,
		.no_evict = u.no_evict, .whole_prompts = u.whole_prompts,
		.prefix_hit = u.prefix_hit,
		.separate_prefill = u.separate_prefill,
	};
}

/* ---- the iteration cost ---- */

struct llm_cost {
	const struct serve_prep *sp;
	const struct serve_device *d;
	bool overlap;			/* the host's work hides behind the GPU's */
	double token[SERVE_TOKENS];	/* s for 2^i tokens */
	double kv_per_token;		/* s per token of context read */
	double attn_per_pair;		/* s per query-key pair of a chunk */
	/* the output head (pipeline stages, below): s to read its
	 * weights, and s of product per token sampled */
	double head_weights, head_per_token;
};

/* The output head over n sampled tokens: its weights read once, its
 * product per token, whichever bounds it (a roofline of the one GEMM). */
static double head_time(const struct llm_cost *k, double n)
{
	return fmax(k->head_weights, k->head_per_token * n);
}

/*
 * Pipeline stages are not equal: the last holds the output head besides
 * its share of the layers (the vocabulary's GEMM, 128,256 x 4,096 in
 * Llama 3 8B: 7% of its weights).  With pp batches in flight the pipeline
 * runs at its slowest stage, so each engine's iteration takes pp periods
 * of the last stage: the layers' time plus pp heads, where equal stages
 * would take one.  The extra (pp - 1) heads, for the tokens sampled (the
 * decodes, and a prompt's last chunk).
 */
static double stage_imbalance(const struct llm_cost *k,
			      const struct cb_iteration *it)
{
	if (k->d->pp <= 1)
		return 0;
	double sampled = (double)it->decodes + (it->prefill_tokens > 0);
	return (double)(k->d->pp - 1) * head_time(k, sampled);
}

static double token_time(const struct llm_cost *k, double n)
{
	if (n <= 0)
		return 0;
	int i = 0;
	while (i + 2 < SERVE_TOKENS && (double)(1L << (i + 1)) < n)
		i++;
	double lo = (double)(1L << i), hi = (double)(1L << (i + 1));
	return k->token[i] + (k->token[i + 1] - k->token[i]) * (n - lo) / (hi - lo);
}

static double iteration_time(const struct cb_iteration *it, void *ctx)
{
	const struct llm_cost *k = ctx;
	double n = (double)(it->decodes + it->prefill_tokens);
	double gpu = token_time(k, n) +
		     k->kv_per_token * (it->decode_context + it->prefill_context) +
		     k->attn_per_pair * it->prefill_pairs +
		     serve_allreduce_time(k->sp, k->d, n) +
		     serve_stage_send_time(k->sp, k->d, n) + stage_imbalance(k, it);
	/* an overlap scheduler prepares the next iteration while the GPU
	 * runs this one: the longer of the two bounds it */
	return k->overlap ? fmax(k->d->iteration_host, gpu)
			  : k->d->iteration_host + gpu;
}

/* GPUs that split the KV heads (memory_serving_of() splits them so). */
static long kv_split(const struct serve_prep *sp, const struct serve_device *d)
{
	long heads = sp->w->model->tf.kv_heads;
	return d->tp < heads ? d->tp : heads;
}

static void cost_init(struct llm_cost *k, const struct serve_prep *sp,
		      const struct serve_device *d, long budget)
{
	const struct transformer_config *tf = &sp->w->model->tf;
	memset(k, 0, sizeof(*k));
	k->sp = sp;
	k->d = d;
	struct llm_engine_use u;
	llm_engine_resolve(sp, d->acc ? accelerator_memory_capacity(d->acc) : 0, &u);
	k->overlap = u.overlap;
	for (int i = 0; i < SERVE_TOKENS; i++) {
		double c, m;
		serve_pass_time(sp, 1, i, d, &c, &m);
		k->token[i] = c + m + serve_launch_time(sp, 1, d, u.graphs, c + m);
	}
	k->kv_per_token = sp->kv_per_token / ((double)kv_split(sp, d) *
					      d->bandwidth);
	long head_dim = tf->hidden / tf->heads;
	double heads = (double)tf->heads / (double)d->tp;
	double flops = 4.0 * (double)head_dim * heads * (double)tf->layers;
	double chunk = budget < sp->prompt ? (double)budget : (double)sp->prompt;
	double shape = matrix_eff_gemm(d->shape, MATRIX_ATTENTION, chunk,
				       (double)sp->prompt, (double)head_dim,
				       heads > 1 ? heads : 1, d->sms, NULL);
	double rate = d->matrix * shape;
	k->attn_per_pair = rate > 0 ? flops / rate : HUGE_VAL;
	double head = (double)tf->hidden * (double)tf->vocab / (double)d->tp;
	k->head_weights = head * serve_act_bytes(sp, d) / d->bandwidth;
	k->head_per_token = d->matrix > 0 ? 2 * head / d->matrix : HUGE_VAL;
}

/*
 * One decode iteration of n sequences at the mean context, split as the
 * roofline splits it: the token pass's compute-bound and memory-bound
 * time at the nearest power of two, scaled to n, the KV read (memory)
 * and the all-reduces.
 */
static void iteration_split(const struct llm_cost *k, double n,
			    struct time_breakdown *out)
{
	const struct serve_prep *sp = k->sp;
	memset(out, 0, sizeof(*out));
	if (n < 1)
		n = 1;
	int b = 0;
	while (b + 1 < SERVE_TOKENS && (double)(1L << (b + 1)) <= n)
		b++;
	double c, m;
	serve_pass_time(sp, 1, b, k->d, &c, &m);
	c += serve_launch_time(sp, 1, k->d, true, c + m);
	double whole = token_time(k, n), at_b = c + m;
	out->compute = k->d->iteration_host;
	double scale = at_b > 0 ? whole / at_b : 0;
	out->compute += c * scale;
	out->memory = m * scale + k->kv_per_token * n *
				  ((double)sp->prompt + sp->output / 2.0);
	out->communication = serve_allreduce_time(sp, k->d, n) +
			     serve_stage_send_time(sp, k->d, n);
}

/* Engines one replica runs at once: one per pipeline stage. */
static long engines(const struct serve_device *d)
{
	return d->pp > 1 ? d->pp : 1;
}

/* ---- memory ---- */

/* What a GPU holds besides the KV cache, by part, for a token budget and
 * a live-sequence limit. */
static double fixed_memory(const struct serve_prep *sp,
			   const struct serve_device *d, long budget,
			   long max_seqs, double *parts)
{
	double elem = (double)d->elem, act = (double)serve_act_bytes(sp, d);
	double tp = (double)d->tp;
	const struct transformer_config *tf = &sp->w->model->tf;
	double vocab = (double)tf->vocab;
	/* 8-bit weights: the embedding and the output head are not Linear
	 * layers an engine quantizes; they stay at the activations' width */
	double wide = act > elem ? vocab * (double)tf->hidden *
					   (tf->tied_embeddings ? 1 : 2) * (act - elem)
				 : 0;
	parts[MEM_WEIGHTS] = (sp->params * elem + wide) / (tp * (double)engines(d));
	parts[MEM_ACTIVATIONS] = sp->token_peak_elements * (double)budget *
				 act / tp + (double)max_seqs * vocab * 4.0;
	parts[MEM_WORKSPACE] = WORKSPACE_FIXED_BYTES;
	return parts[MEM_WEIGHTS] + parts[MEM_ACTIVATIONS] + parts[MEM_WORKSPACE];
}

/* Tokens of KV cache the engine u's share of capacity holds beside the
 * fixed bytes, for one engine: with pp stages each GPU holds 1/pp of every
 * token's layers for pp engines, which comes to the same count. */
static double kv_capacity(const struct serve_prep *sp,
			  const struct serve_device *d,
			  const struct llm_engine_use *u, double capacity,
			  double fixed)
{
	/* vLLM and SGLang take their share of all the memory, weights
	 * included; TensorRT-LLM and later LMDeploy a share of what is free
	 * once the weights and buffers are in */
	double free_bytes = u->kv_base == KV_OF_FREE
				    ? (capacity - fixed) * u->kv_fraction
			    : u->kv_base == KV_CACHE_OF_TOTAL
				    ? fmin(capacity * u->kv_fraction, capacity - fixed)
				    : capacity * u->kv_fraction - fixed;
	if (free_bytes <= 0 || sp->kv_per_token <= 0)
		return 0;
	return free_bytes * (double)kv_split(sp, d) / sp->kv_per_token;
}

double llm_kv_tokens(const struct serve_prep *sp, const struct serve_device *d,
		     double capacity, long budget, long max_seqs,
		     double *parts)
{
	struct llm_engine_use u;
	llm_engine_resolve(sp, capacity, &u);
	return kv_capacity(sp, d, &u, capacity,
			   fixed_memory(sp, d, budget, max_seqs, parts));
}

double llm_iteration_time(const struct serve_prep *sp,
			  const struct serve_device *d, long budget,
			  const struct cb_iteration *it)
{
	struct llm_cost k;
	cost_init(&k, sp, d, budget);
	return iteration_time(it, &k);
}

int llm_simulate(const struct serve_prep *sp, const struct serve_device *d,
		 const struct cb_engine *e, const struct cb_load *l,
		 struct cb_result *out)
{
	struct llm_cost k;
	cost_init(&k, sp, d, e->token_budget);
	return cb_simulate(e, l, iteration_time, &k, out);
}

static long sim_requests(const struct serve_prep *sp, long budget);

/* One of n engines' traffic (replicas x their pipeline stages) when the
 * service takes `rate` requests a second: Poisson at its share with the
 * service's lengths (drawn from their range when they vary), or its share
 * of the trace (kept in *t); as many requests as a trial simulates. */
static struct cb_load replica_load(const struct serve_prep *sp, double rate,
				   long n, long budget, struct sim_trace *t)
{
	const struct sim_trace *trace = serve_trace(sp, rate, n, t);
	return (struct cb_load){
		.rate = rate / (double)n,
		.prompt = sp->prompt_hi, .output = sp->output_hi,
		.prompt_lo = sp->prompt_lo < sp->prompt_hi ? sp->prompt_lo : 0,
		.output_lo = sp->output_lo < sp->output_hi ? sp->output_lo : 0,
		.requests = serve_sim_count(trace, sim_requests(sp, budget)),
		.seed = LLM_SIM_SEED, .trace = trace};
}

int llm_simulate_rate(const struct serve_prep *sp, const struct serve_device *d,
		      long max_seqs, long token_budget, double kv_tokens,
		      double rate, long replicas, struct cb_result *out)
{
	struct cb_engine e;
	llm_engine_at(sp, d->acc ? accelerator_memory_capacity(d->acc) : 0, max_seqs, token_budget,
		      kv_tokens, &e);
	struct sim_trace t;
	struct cb_load l = replica_load(sp, rate, replicas * engines(d),
					token_budget, &t);
	return llm_simulate(sp, d, &e, &l, out);
}

/* ---- targets ---- */

/* What r reaches of target t. */
static double reached(const struct cb_result *r, enum latency_target t)
{
	switch (t) {
	case TARGET_P99: return r->e2e.p99;
	case TARGET_TTFT_P99: return r->ttft.p99;
	case TARGET_TPOT_P99: return r->tpot.p99;
	case TARGET_TTFT_P50: return r->ttft.p50;
	case TARGET_TPOT_P50: return r->tpot.p50;
	case TARGET_COUNT: break;
	}
	return 0;
}

const char *llm_missed_target(const struct inference *in,
			      const struct cb_result *r, double *got,
			      double *want)
{
	for (int t = 0; t < TARGET_COUNT; t++) {
		double v = reached(r, (enum latency_target)t);
		if (in->target[t] > 0 && v > in->target[t]) {
			*got = v;
			*want = in->target[t];
			return t == TARGET_P99 ? "end-to-end p99"
					       : target_name((enum latency_target)t)->label;
		}
	}
	return NULL;
}

static bool meets(const struct inference *in, const struct cb_result *r)
{
	double got, want;
	return llm_missed_target(in, r, &got, &want) == NULL;
}

/* One request on an idle engine: its prompt in budget-sized chunks, then
 * output - 1 decodes alone. */
static void alone(const struct llm_cost *k, long budget, double *ttft,
		  double *tpot)
{
	const struct serve_prep *sp = k->sp;
	double t = 0;
	for (long p = 0; p < sp->prompt; p += budget) {
		long c = sp->prompt - p < budget ? sp->prompt - p : budget;
		struct cb_iteration it = {
			.prefill_tokens = c, .prefill_context = (double)p,
			.prefill_pairs = (double)c * ((double)p + ((double)c + 1) / 2),
		};
		t += iteration_time(&it, (void *)k);
	}
	*ttft = t;
	struct cb_iteration d = {.decodes = 1,
				 .decode_context = (double)sp->prompt + sp->output / 2.0};
	*tpot = iteration_time(&d, (void *)k);
}

/*
 * Requests per second one engine serves flat out with n sequences live:
 * the steady iteration cb_steady_iteration() defines (the simulation's own
 * units), priced by the same cost the simulation runs, and the iterations
 * one request takes through it.  It seeds the replica search (the
 * simulation decides).
 */
static double saturated_rate(const struct llm_cost *k, long n, long budget)
{
	struct cb_iteration it;
	double iterations;
	cb_steady_iteration(n, k->sp->prompt, k->sp->output, budget, &it,
			    &iterations);
	double t = iteration_time(&it, (void *)k);
	return t > 0 ? (double)n / (iterations * t) : HUGE_VAL;
}

/* ---- the search ---- */

struct trial {
	long budget, max_seqs, replicas;
	long kv_split;		/* GPUs the KV heads split over */
	double kv_tokens;
	double parts[MEM_PARTS];
};

static bool better(const struct llm_sizing *z, long instances, double p99)
{
	return !z->ok || instances < z->instances ||
	       (instances == z->instances && p99 < z->sim.e2e.p99);
}

static void keep(struct llm_sizing *z, const struct trial *t,
		 const struct cb_result *r, long per_instance,
		 const struct serve_prep *sp)
{
	z->ok = true;
	z->replicas = t->replicas;
	z->instances = (t->replicas + per_instance - 1) / per_instance;
	z->max_seqs = t->max_seqs;
	z->token_budget = t->budget;
	z->kv_tokens = t->kv_tokens;
	z->sim = *r;
	memcpy(z->parts, t->parts, sizeof(z->parts));
	z->parts[MEM_KV_CACHE] = r->kv_peak * t->kv_tokens * sp->kv_per_token /
				 (double)t->kv_split;
	z->memory = 0;
	for (int p = 0; p < MEM_PARTS; p++)
		z->memory += z->parts[p];
}

/* Requests per trial (serve_llm.h): fewer when one request alone takes
 * many iterations. */
static long sim_requests(const struct serve_prep *sp, long budget)
{
	double alone = (double)sp->output + ceil((double)sp->prompt / (double)budget);
	double n = fmin(LLM_SIM_REQUESTS, LLM_SIM_ITERATIONS / alone);
	return n > LLM_SIM_FEWEST ? (long)n : LLM_SIM_FEWEST;
}

/* Whether c replicas of this engine meet the targets; *r their
 * simulation.  -1 when the request can never run (its cache does not
 * hold it). */
static int replicas_meet(const struct llm_cost *k, const struct cb_engine *e,
			 long c, struct cb_result *r)
{
	const struct serve_prep *sp = k->sp;
	const struct inference *in = &sp->w->infer;
	struct sim_trace tr;
	struct cb_load l = replica_load(sp, in->request_rate, c * engines(k->d),
					e->token_budget, &tr);
	l.e2e_p99 = in->target[TARGET_P99];
	l.ttft_p99 = in->target[TARGET_TTFT_P99];
	l.tpot_p99 = in->target[TARGET_TPOT_P99];
	if (cb_simulate(e, &l, iteration_time, (void *)k, r) < 0 || r->never_fits)
		return -1;
	return !r->saturated && !r->missed && meets(in, r);
}

/* What the search knows: the most replicas known to miss and the fewest
 * known to meet (0: none yet), with the simulation at the latter. */
struct bracket {
	long bad, good;
	struct cb_result at_good;
};

/* Simulates c replicas and narrows br; -1 when the request never fits. */
static int probe(const struct llm_cost *k, const struct cb_engine *e, long c,
		 struct bracket *br)
{
	struct cb_result r;
	int m = replicas_meet(k, e, c, &r);
	if (m > 0) {
		br->good = c;
		br->at_good = r;
	} else if (m == 0) {
		br->bad = c;
	}
	return m;
}

/*
 * The fewest replicas (1 to `most`) at which this engine meets the
 * targets, 0 when none does; *r the simulation at that count.  The
 * analytic count `seed` only starts the search: the simulation decides in
 * both directions.  More replicas never serve worse (each takes a smaller
 * share of the same traffic), so the answer is the edge between counts
 * that miss and counts that meet: from the seed, steps of 1, 2, 4, ...
 * down while they meet (or up while they miss), then bisection between
 * the last two counts tried.
 */
static long replicas_for(const struct llm_cost *k, const struct cb_engine *e,
			 long seed, long most, struct cb_result *r)
{
	struct bracket br = {0};
	long c = seed < 1 ? 1 : seed > most ? most : seed;
	int ok = probe(k, e, c, &br);
	if (ok < 0)
		return 0;
	/* gallop away from the seed until the edge is crossed */
	for (long step = 1; ok ? br.good > 1 && br.bad == 0 : br.good == 0;
	     step *= 2) {
		long t = ok ? br.good - step : br.bad + step;
		t = t < 1 ? 1 : t > most ? most : t;
		if (t == br.good || t == br.bad)
			break;	/* at 1 or at `most`: nothing further */
		if (probe(k, e, t, &br) < 0)
			return 0;
	}
	if (br.good == 0)
		return 0;
	while (br.good - br.bad > 1)	/* bad misses, good meets */
		if (probe(k, e, br.bad + (br.good - br.bad) / 2, &br) < 0)
			return 0;
	*r = br.at_good;
	return br.good;
}

/*
 * For one token budget: live-sequence limits from the largest down.  The
 * first that meets the targets at the replica count its saturated
 * throughput needs is kept for this budget: a smaller limit cannot need
 * fewer replicas, and at the same count it queues more.
 */
static void search_budget(const struct serve_prep *sp,
			  const struct serve_device *d, double capacity,
			  long budget, long per_instance, long most,
			  struct llm_sizing *z)
{
	const struct inference *in = &sp->w->infer;
	struct llm_cost k;
	cost_init(&k, sp, d, budget);
	long context = sp->prompt + sp->output;	/* the mean request's */
	struct llm_engine_use u;
	llm_engine_resolve(sp, capacity, &u);
	long top = budget < u.max_seqs ? budget : u.max_seqs;
	long last = u.seqs_given ? top : 1;	/* given: only it */
	for (long n = top; n >= last; n /= 2) {
		struct trial t = {.budget = budget, .max_seqs = n,
				  .kv_split = kv_split(sp, d)};
		double fixed = fixed_memory(sp, d, budget, n, t.parts);
		t.kv_tokens = kv_capacity(sp, d, &u, capacity, fixed);
		if (t.kv_tokens < (double)sp->context)
			continue;	/* the longest request must fit */
		z->fits = true;
		/* a limit above what the cache holds admits no more */
		double held = t.kv_tokens / (double)context;
		if (n > 1 && (double)(n / 2) >= held)
			continue;
		double rate = saturated_rate(&k, (long)fmin((double)n, held), budget) *
			      (double)engines(d);
		double need = ceil(in->request_rate / rate);
		double least = floor(need / LLM_SEED_SLACK);
		if (!(least <= (double)most))
			return;	/* nor will a smaller limit do */
		long from = need < (double)most ? (need >= 1 ? (long)need : 1) : most;
		if (z->ok && ((long)least + per_instance - 1) / per_instance >
				     z->instances)
			return;
		struct cb_engine e;
		llm_engine_at(sp, capacity, n, budget, t.kv_tokens, &e);
		struct cb_result r;
		t.replicas = replicas_for(&k, &e, from, most, &r);
		if (t.replicas == 0)
			continue;
		long inst = (t.replicas + per_instance - 1) / per_instance;
		if (better(z, inst, r.e2e.p99))
			keep(z, &t, &r, per_instance, sp);
		return;
	}
}

/* The fewest instances any deployment of this placement could need: the
 * traffic over the most one replica serves at the largest limit. */
static long instances_floor(const struct serve_prep *sp,
			    const struct serve_device *d, double capacity,
			    long per_instance)
{
	struct llm_engine_use u;
	llm_engine_resolve(sp, capacity, &u);
	long budget = u.budget > 0 ? u.budget : 8192;
	long seqs = u.max_seqs < budget ? u.max_seqs : budget;
	struct llm_cost k;
	cost_init(&k, sp, d, budget);
	double parts[MEM_PARTS] = {0};
	double kv = kv_capacity(sp, d, &u, capacity,
				fixed_memory(sp, d, budget, seqs, parts));
	double held = fmax(1, fmin((double)seqs,
				   kv / (double)(sp->prompt + sp->output)));
	double need = ceil(sp->w->infer.request_rate /
			   (saturated_rate(&k, (long)held, budget) * (double)engines(d)));
	need = floor(need / LLM_SEED_SLACK);
	long c = need >= 1 && need < 1e15 ? (long)need : 1;
	return (c + per_instance - 1) / per_instance;
}

/*
 * No deployment meets the targets: the closest is the largest engine at
 * the fewest replicas that keep up with the traffic, whatever its
 * latency (the floor alone when even that is not found).
 */
static void closest(const struct serve_prep *sp, const struct serve_device *d,
		    double capacity, long per_instance, long most,
		    const struct cb_result *floor_r, struct llm_sizing *z)
{
	z->sim = *floor_r;
	struct llm_engine_use u;
	llm_engine_resolve(sp, capacity, &u);
	long budget = u.budget > 0 ? u.budget : 2048;
	struct llm_cost k;
	cost_init(&k, sp, d, budget);
	long seqs = u.max_seqs < 256 || u.seqs_given ? u.max_seqs : 256;
	struct trial t = {.budget = budget, .max_seqs = seqs < budget ? seqs : budget,
			  .kv_split = kv_split(sp, d)};
	double fixed = fixed_memory(sp, d, budget, t.max_seqs, t.parts);
	t.kv_tokens = kv_capacity(sp, d, &u, capacity, fixed);
	double held = t.kv_tokens / (double)(sp->prompt + sp->output);
	if (held < 1)
		return;
	double rate = saturated_rate(&k, (long)fmin((double)t.max_seqs, held), budget) *
		      (double)engines(d);
	double need = ceil(sp->w->infer.request_rate / rate);
	if (!(need <= (double)most))
		return;
	struct cb_engine e;
	llm_engine_at(sp, capacity, t.max_seqs, budget, t.kv_tokens, &e);
	for (long c = need >= 1 ? (long)need : 1; c <= most && c < need + 4; c++) {
		struct sim_trace tr;
		struct cb_load l = replica_load(sp, sp->w->infer.request_rate,
						c * engines(d), budget, &tr);
		struct cb_result r;
		if (cb_simulate(&e, &l, iteration_time, &k, &r) < 0 ||
		    r.never_fits)
			return;
		if (r.saturated)
			continue;
		t.replicas = c;
		keep(z, &t, &r, per_instance, sp);
		z->ok = false;
		return;
	}
}

/*
 * The instances rented hold more replicas than the targets need: all of
 * them serve, for the same rent and shorter queues (a load balancer deals
 * the traffic over every replica).
 */
static void fill_instances(const struct serve_prep *sp,
			   const struct serve_device *d, long per_instance,
			   struct llm_sizing *z)
{
	long all = z->instances * per_instance;
	if (!z->ok || all <= z->replicas)
		return;
	struct llm_cost k;
	cost_init(&k, sp, d, z->token_budget);
	struct cb_engine e;
	llm_engine_at(sp, d->acc ? accelerator_memory_capacity(d->acc) : 0, z->max_seqs,
		      z->token_budget, z->kv_tokens, &e);
	struct sim_trace tr;
	struct cb_load l = replica_load(sp, sp->w->infer.request_rate,
					all * engines(d), z->token_budget, &tr);
	struct cb_result r;
	if (cb_simulate(&e, &l, iteration_time, &k, &r) < 0 || r.never_fits ||
	    r.saturated || r.missed || !meets(&sp->w->infer, &r))
		return;		/* more replicas never do worse: kept as is */
	z->replicas = all;
	z->sim = r;
	z->memory -= z->parts[MEM_KV_CACHE];
	z->parts[MEM_KV_CACHE] = r.kv_peak * z->kv_tokens * sp->kv_per_token /
				 (double)kv_split(sp, d);
	z->memory += z->parts[MEM_KV_CACHE];
}

void llm_size_placement(const struct serve_prep *sp,
			const struct serve_device *d, double capacity,
			long per_instance, long most, struct llm_sizing *z)
{
	memset(z, 0, sizeof(*z));
	struct llm_engine_use u;
	llm_engine_resolve(sp, capacity, &u);
	/* the engine's budget, or the three searched (an assumption); a
	 * prompt that must run whole needs a budget that holds it */
	long budgets[3] = {512, 2048, 8192};
	size_t n_budgets = 3;
	if (u.budget > 0) {
		budgets[0] = budgets[1] = budgets[2] = u.budget;
		n_budgets = 1;
	}
	struct llm_cost k;
	cost_init(&k, sp, d, budgets[1]);
	double ttft, tpot;
	alone(&k, budgets[1], &ttft, &tpot);
	z->alone_e2e = ttft + (double)(sp->output - 1) * tpot;
	struct cb_result floor_r = {.ttft = {ttft, ttft, ttft, ttft},
				    .tpot = {tpot, tpot, tpot, tpot},
				    .e2e = {z->alone_e2e, z->alone_e2e,
					    z->alone_e2e, z->alone_e2e}};
	z->too_slow = !meets(&sp->w->infer, &floor_r);
	z->alone = floor_r;
	/* the default budget first; the others only while the instance
	 * count can still fall */
	static const int order[] = {1, 2, 0};
	long floor_inst = instances_floor(sp, d, capacity, per_instance);
	for (size_t b = 0; b < (n_budgets == 1 ? 1 : 3); b++) {
		if (u.whole_prompts && budgets[order[b]] < sp->prompt_hi)
			continue;
		if (z->ok && z->instances <= floor_inst)
			break;
		search_budget(sp, d, capacity, budgets[order[b]], per_instance,
			      most, z);
	}
	if (!z->ok)
		closest(sp, d, capacity, per_instance, most, &floor_r, z);
	fill_instances(sp, d, per_instance, z);
	iteration_split(&k, z->sim.mean_decodes, &z->iteration);
}

#include "serve/cbatch.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "serve/sim_stats.h"

/*
 * A live (or preempted) sequence: its request, the prompt it must run
 * through the model (the request's prompt, or after a preemption the
 * prompt and every token generated so far, recomputed), how much of that
 * is done, the tokens generated, the tokens whose KV is in the cache and
 * the blocks holding them, and what this iteration gives it.
 */
struct seq {
	long req;
	long target, prefilled, generated;
	long cached, blocks;
	long chunk;		/* prompt tokens this iteration */
	bool decoding;		/* generating a token this iteration */
};

struct sim {
	const struct cb_engine *e;
	const struct cb_load *l;
	double *arrive, *first, *finish;	/* per request, s */
	long *prompt, *output;			/* per request, tokens */
	struct seq *live;
	long n_live, next_arrival, next_admit, finished;
	struct seq *resume;	/* preempted, the latest last: first back in */
	long n_resume;
	long blocks_total, blocks_free, blocks_peak;
	long peak_live, preemptions;
	double t;
	double decodes_sum;
	double busy, prefill_busy;	/* s iterating; s of it on prompts */
	long iterations;
	bool saturated;
	long misses, allowed;	/* measured requests past a p99 target */
};

/* ---- arrivals ---- */

/* Poisson times, all at zero, or the clients' first requests at zero and
 * the rest unknown (infinite) until a client's request ends. */
static void start_arrivals(struct sim *s)
{
	const struct cb_load *l = s->l;
	long n = l->requests;
	for (long i = 0; i < n; i++) {
		if (l->arrivals == CB_OFFLINE ||
		    (l->arrivals == CB_CLOSED && i < l->clients))
			s->arrive[i] = 0;
		else if (l->arrivals == CB_CLOSED)
			s->arrive[i] = HUGE_VAL;
	}
	if (l->arrivals == CB_POISSON && l->trace && l->trace->arrival)
		sim_trace_arrivals(s->arrive, n, l->trace);
	else if (l->arrivals == CB_POISSON)
		sim_poisson_arrivals(s->arrive, n, l->rate, l->seed);
}

/* Each request's lengths: fixed, uniform in their range, or a trace's. */
static void draw_lengths(struct sim *s)
{
	const struct cb_load *l = s->l;
	long n = l->requests;
	sim_uniform_lengths(s->prompt, n, l->prompt_lo ? l->prompt_lo : l->prompt,
			    l->prompt, l->seed);
	sim_uniform_lengths(s->output, n, l->output_lo ? l->output_lo : l->output,
			    l->output, l->seed + 1);
	if (l->trace)
		sim_trace_lengths(s->prompt, s->output, n, l->trace, l->seed);
}

/* The most tokens of context any request holds at its end. */
static long longest_request(const struct sim *s)
{
	long most = 0;
	for (long i = 0; i < s->l->requests; i++)
		if (s->prompt[i] + s->output[i] > most)
			most = s->prompt[i] + s->output[i];
	return most;
}

/* ---- the paged cache ---- */

static long blocks_for(const struct sim *s, long tokens)
{
	return (tokens + s->e->block - 1) / s->e->block;
}

/* Blocks for q to hold `more` tokens beyond those cached, taken from the
 * free ones; false (nothing taken) when there are too few. */
static bool grow(struct sim *s, struct seq *q, long more)
{
	long need = blocks_for(s, q->cached + more) - q->blocks;
	if (need > s->blocks_free)
		return false;
	if (need > 0) {
		q->blocks += need;
		s->blocks_free -= need;
	}
	return true;
}

/*
 * vLLM's recompute preemption: the newest live sequence gives up its
 * blocks and waits, first in line, to run its prompt and the tokens it
 * has generated through the model again ("Preempted requests are
 * recomputed when sufficient KV cache space becomes available again",
 * vLLM's optimization guide).
 */
static void preempt(struct sim *s, long i)
{
	struct seq q = s->live[i];
	s->blocks_free += q.blocks;
	s->resume[s->n_resume++] = (struct seq){
		.req = q.req, .generated = q.generated,
		.target = s->prompt[q.req] + q.generated,
	};
	memmove(&s->live[i], &s->live[i + 1],
		(size_t)(s->n_live - i - 1) * sizeof(*s->live));
	s->n_live--;
	s->preemptions++;
}

/* ---- one iteration ---- */

static void take_chunk(struct sim *s, struct seq *q, long *budget,
		       struct cb_iteration *it)
{
	long left = q->target - q->prefilled;
	if (s->e->whole_prompts && left > *budget)
		return;		/* waits for an iteration with room for it */
	long c = left < *budget ? left : *budget;
	/* as much of the chunk as free blocks hold */
	long room = (q->blocks + s->blocks_free) * s->e->block - q->cached;
	if (c > room)
		c = room;
	if (c <= 0 || !grow(s, q, c))
		return;
	q->chunk = c;
	*budget -= c;
	double p = (double)q->prefilled;
	it->prefill_tokens += c;
	it->prefill_context += p;
	it->prefill_pairs += (double)c * (p + ((double)c + 1) / 2);
}

/* The next sequence to admit: a preempted one first, then the next new
 * request that has arrived; false when none waits or the limit is met. */
static bool next_waiting(const struct sim *s, struct seq *q)
{
	if (s->n_live >= s->e->max_seqs)
		return false;
	if (s->n_resume > 0) {
		*q = s->resume[s->n_resume - 1];
		return true;
	}
	if (s->next_admit >= s->next_arrival)
		return false;
	*q = (struct seq){.req = s->next_admit,
			  .target = s->prompt[s->next_admit]};
	return true;
}

/* Blocks a sequence takes on admission: none until its chunks come, or
 * with no eviction its whole request's at once. */
static long admission_blocks(const struct sim *s, const struct seq *q)
{
	if (!s->e->no_evict)
		return 0;
	return blocks_for(s, s->prompt[q->req] + s->output[q->req]);
}

/* A new request's prompt prefix found in the prefix cache: taken as
 * cached (its blocks held), at most all but the last token, which must
 * run to sample the first output. */
static long prefix_cached(const struct sim *s, const struct seq *q)
{
	if (s->e->prefix_hit <= 0 || q->generated > 0)
		return 0;
	long hit = (long)floor(s->e->prefix_hit * (double)q->target);
	return hit < q->target ? hit : q->target - 1;
}

/* Whether a waiting sequence would be admitted now (its first chunk's
 * blocks free). */
static bool can_admit(const struct sim *s)
{
	struct seq q;
	if (!next_waiting(s, &q))
		return false;
	long first = q.target < s->e->token_budget || s->e->whole_prompts
			     ? q.target : s->e->token_budget;
	long need = blocks_for(s, prefix_cached(s, &q) + first);
	long whole = admission_blocks(s, &q);
	return s->blocks_free >= (whole > need ? whole : need);
}

/* Decodes, oldest first; a decode that needs a block when none is free
 * preempts the newest sequence (itself, when it is the newest). */
static void plan_decodes(struct sim *s, long *budget, struct cb_iteration *it)
{
	for (long i = 0; i < s->n_live; i++) {
		struct seq *q = &s->live[i];
		q->chunk = 0;
		q->decoding = q->prefilled == q->target;
	}
	for (long i = 0; i < s->n_live; i++) {
		struct seq *q = &s->live[i];
		if (!q->decoding)
			continue;
		while (!grow(s, q, 1) && s->n_live - 1 > i)
			preempt(s, s->n_live - 1);
		if (!grow(s, q, 1)) {
			preempt(s, i--);	/* itself: the newest */
			continue;
		}
		it->decodes++;
		it->decode_context += (double)(q->cached + 1);	/* and itself */
		(*budget)--;
	}
}

/*
 * The work of the next iteration: decodes first, then the prompts already
 * started, then waiting sequences (preempted ones first) while the
 * budget, max_seqs and the cache allow.  A prompt that finds no block
 * free when nothing decodes preempts the newest sequence, so that the
 * oldest always moves.
 */
static void plan_iteration(struct sim *s, struct cb_iteration *it)
{
	/* separate prefill passes: the budget bounds each pass, and every
	 * admitted prompt runs this iteration */
	long budget = s->e->separate_prefill ? LONG_MAX / 2 : s->e->token_budget;
	memset(it, 0, sizeof(*it));
	plan_decodes(s, &budget, it);
	for (long i = 0; i < s->n_live && budget > 0; i++) {
		struct seq *q = &s->live[i];
		if (q->decoding)
			continue;
		take_chunk(s, q, &budget, it);
		while (q->chunk == 0 && it->decodes == 0 && it->prefill_tokens == 0 &&
		       s->n_live - 1 > i) {
			preempt(s, s->n_live - 1);
			take_chunk(s, q, &budget, it);
		}
	}
	struct seq q;
	while (budget > 0 && can_admit(s) && next_waiting(s, &q)) {
		if (s->n_resume > 0)
			s->n_resume--;
		else
			s->next_admit++;
		struct seq *live = &s->live[s->n_live++];
		*live = q;
		long hit = prefix_cached(s, live);
		grow(s, live, admission_blocks(s, live) * s->e->block);
		if (hit > 0) {
			grow(s, live, hit);
			live->prefilled = live->cached = hit;
		}
		take_chunk(s, live, &budget, it);
	}
	long used = s->blocks_total - s->blocks_free;
	if (used > s->blocks_peak)
		s->blocks_peak = used;
	if (s->n_live > s->peak_live)
		s->peak_live = s->n_live;
}

/* Whether request r, measured and just finished, misses a p99 target. */
static bool misses_target(const struct sim *s, long r)
{
	const struct cb_load *l = s->l;
	double ttft = s->first[r] - s->arrive[r];
	double e2e = s->finish[r] - s->arrive[r];
	double tpot = s->output[r] > 1 ? (s->finish[r] - s->first[r]) /
						 (double)(s->output[r] - 1)
				       : 0;
	return (l->e2e_p99 > 0 && e2e > l->e2e_p99) ||
	       (l->ttft_p99 > 0 && ttft > l->ttft_p99) ||
	       (l->tpot_p99 > 0 && tpot > l->tpot_p99);
}

static void request_done(struct sim *s, const struct seq *q)
{
	s->finish[q->req] = s->t;
	if (s->l->arrivals == CB_CLOSED && q->req + s->l->clients < s->l->requests)
		s->arrive[q->req + s->l->clients] = s->t;
	if (q->req >= s->l->requests / 10 && misses_target(s, q->req))
		s->misses++;
	s->blocks_free += q->blocks;
	s->finished++;
}

/*
 * Tokens out at the end of the iteration: a decode adds one (its input's
 * KV now cached); a chunk that completes a prompt samples the next token
 * (the first, unless the sequence is resuming after a preemption).
 * Finished requests leave.
 */
static void finish_iteration(struct sim *s)
{
	long kept = 0;
	for (long i = 0; i < s->n_live; i++) {
		struct seq q = s->live[i];
		if (q.decoding) {
			q.generated++;
			q.cached++;
		}
		if (q.chunk > 0) {
			q.prefilled += q.chunk;
			q.cached += q.chunk;
			if (q.prefilled == q.target) {
				if (q.generated == 0)
					s->first[q.req] = s->t;
				q.generated++;
			}
		}
		if (q.generated >= s->output[q.req]) {
			request_done(s, &q);
			continue;
		}
		s->live[kept++] = q;
	}
	s->n_live = kept;
}

static void arrive_until(struct sim *s, double t)
{
	long n = s->l->requests;
	while (s->next_arrival < n && s->arrive[s->next_arrival] <= t)
		s->next_arrival++;
}

/*
 * A queue that holds more than the engine's live sequences plus a tenth of
 * all requests, and at least five standard deviations of a Poisson count
 * of them (5 sqrt(n)), has fallen behind by more than a burst of arrivals
 * explains: the replica is past what it serves.  Stopping there keeps an
 * overloaded run short; whether a run that ends is keeping up is
 * served_short()'s test.
 */
static bool backlog_overflowed(const struct sim *s)
{
	if (s->l->arrivals != CB_POISSON)
		return false;	/* the backlog is bounded by construction */
	double n = (double)s->l->requests;
	double slack = fmax(n / 10, 5 * sqrt(n));
	return (double)(s->next_arrival - s->finished) >
	       (double)s->e->max_seqs + slack;
}

/* Time of the first j iterations of a pure-decode run whose first costs
 * c0 and whose cost grows by `slope` an iteration. */
static double run_time(long j, double c0, double slope)
{
	double jj = (double)j;
	return jj * c0 + slope * jj * (jj - 1) / 2;
}

/* Blocks the live sequences need beyond their own to decode k more
 * tokens each. */
static long blocks_to_decode(const struct sim *s, long k)
{
	long need = 0;
	for (long i = 0; i < s->n_live; i++) {
		const struct seq *q = &s->live[i];
		need += blocks_for(s, q->cached + k) - q->blocks;
	}
	return need;
}

/*
 * When every live sequence is decoding and nothing can be admitted, the
 * iterations until the first of them finishes differ only in the context
 * they read, one token more per sequence each time: with a cost affine in
 * decode_context (cbatch.h), they are run at once, when the free blocks
 * hold what they write.  An arrival that could be admitted ends the run
 * at the iteration it falls in.  Returns false when the iteration is not
 * such a run (it is then run alone).  The iteration's own blocks were
 * taken by plan_iteration().
 */
static bool fast_forward(struct sim *s, const struct cb_iteration *it,
			 cb_cost_fn cost, void *ctx)
{
	if (it->prefill_tokens > 0 || it->decodes != s->n_live ||
	    s->n_live == 0 || s->n_resume > 0)
		return false;
	long k = LONG_MAX;
	for (long i = 0; i < s->n_live; i++) {
		long left = s->output[s->live[i].req] - s->live[i].generated;
		if (left < k)
			k = left;
	}
	if (k < 2 || blocks_to_decode(s, k) > s->blocks_free)
		return false;
	double c0 = cost(it, ctx);
	struct cb_iteration next = *it;
	next.decode_context += (double)it->decodes;
	double slope = cost(&next, ctx) - c0;
	long j = k;
	if (s->next_arrival < s->l->requests && s->n_live < s->e->max_seqs) {
		double gap = s->arrive[s->next_arrival] - s->t;
		if (run_time(k, c0, slope) >= gap) {
			long lo = 1, hi = k;	/* smallest j with time >= gap */
			while (lo < hi) {
				long mid = lo + (hi - lo) / 2;
				if (run_time(mid, c0, slope) >= gap)
					hi = mid;
				else
					lo = mid + 1;
			}
			j = lo;
		}
	}
	s->t += run_time(j, c0, slope);
	s->busy += run_time(j, c0, slope);
	for (long i = 0; i < s->n_live; i++) {
		struct seq *q = &s->live[i];
		q->generated += j - 1;	/* the last one below */
		q->cached += j - 1;
		grow(s, q, 1);	/* the last iteration's block */
	}
	s->decodes_sum += (double)(j * it->decodes);
	s->iterations += j;
	finish_iteration(s);
	return true;
}

/* After an iteration (or a run of them): the arrivals up to now, and
 * whether to stop (saturated, or a p99 target already missed). */
static bool carry_on(struct sim *s)
{
	arrive_until(s, s->t);
	if (backlog_overflowed(s)) {
		s->saturated = true;
		return false;
	}
	return s->misses <= s->allowed;
}

/*
 * The share of an iteration's time its prompt chunks take: all of it, none,
 * or for a mix, what the chunks would cost alone over what the chunks and
 * the decodes would cost each alone (the iteration's weights, read once,
 * are so charged to both in proportion).
 */
static double prefill_part(const struct cb_iteration *it, cb_cost_fn cost,
			   void *ctx)
{
	if (it->prefill_tokens == 0)
		return 0;
	if (it->decodes == 0)
		return 1;
	struct cb_iteration p = *it, d = *it;
	p.decodes = 0;
	p.decode_context = 0;
	d.prefill_tokens = 0;
	d.prefill_context = d.prefill_pairs = 0;
	double cp = cost(&p, ctx), cd = cost(&d, ctx);
	return cp + cd > 0 ? cp / (cp + cd) : 0;
}

/*
 * The prefill passes of an engine that runs prompts apart from decodes:
 * this iteration's chunks in admission order, as many to a pass as keep
 * the pass's longest prompt times its count within the token budget (the
 * kernels pad every prompt of a pass to the longest); each pass its own
 * forward pass.  Returns their cost.
 */
static double prefill_passes(const struct sim *s, cb_cost_fn cost, void *ctx)
{
	double total = 0;
	struct cb_iteration pass = {0};
	long count = 0, longest = 0;
	for (long i = 0; i < s->n_live; i++) {
		long c = s->live[i].chunk;
		if (c <= 0)
			continue;
		long wider = c > longest ? c : longest;
		if (count > 0 && wider * (count + 1) > s->e->token_budget) {
			total += cost(&pass, ctx);
			pass = (struct cb_iteration){0};
			count = 0;
			wider = c;
		}
		double p = (double)s->live[i].prefilled;
		pass.prefill_tokens += c;
		pass.prefill_context += p;
		pass.prefill_pairs += (double)c * (p + ((double)c + 1) / 2);
		longest = wider;
		count++;
	}
	return count > 0 ? total + cost(&pass, ctx) : total;
}

/* An iteration's cost, and in *prompts the part of it prompt chunks take
 * (prefill_part()'s split for a mixed pass; the prefill passes' own cost
 * for an engine that runs them apart). */
static double iteration_cost(const struct sim *s, const struct cb_iteration *it,
			     cb_cost_fn cost, void *ctx, double *prompts)
{
	if (!s->e->separate_prefill || it->prefill_tokens == 0) {
		double c = cost(it, ctx);
		*prompts = c * prefill_part(it, cost, ctx);
		return c;
	}
	struct cb_iteration d = *it;
	d.prefill_tokens = 0;
	d.prefill_context = d.prefill_pairs = 0;
	*prompts = prefill_passes(s, cost, ctx);
	return *prompts + (d.decodes > 0 ? cost(&d, ctx) : 0);
}

static void run(struct sim *s, cb_cost_fn cost, void *ctx)
{
	long n = s->l->requests;
	while (s->finished < n) {
		struct cb_iteration it;
		plan_iteration(s, &it);
		if (fast_forward(s, &it, cost, ctx)) {
			if (!carry_on(s))
				return;
			continue;
		}
		if (it.decodes == 0 && it.prefill_tokens == 0) {
			/* idle: nothing live, nothing waiting */
			if (s->next_arrival >= n ||
			    !isfinite(s->arrive[s->next_arrival]))
				break;
			s->t = s->arrive[s->next_arrival];
			arrive_until(s, s->t);
			continue;
		}
		double prompts;
		double c = iteration_cost(s, &it, cost, ctx, &prompts);
		s->t += c;
		s->busy += c;
		s->prefill_busy += prompts;
		s->decodes_sum += (double)it.decodes;
		s->iterations++;
		finish_iteration(s);
		if (!carry_on(s))
			return;
	}
}

/* ---- statistics ---- */

/* Completions per second (cb_result says over which window). */
static double throughput(const struct sim *s, long from)
{
	long n = s->l->requests;
	if (s->l->arrivals == CB_OFFLINE) {
		double end = 0;
		for (long r = 0; r < n; r++)
			end = fmax(end, s->finish[r]);
		return end > 0 ? (double)n / end : 0;
	}
	if (s->l->arrivals == CB_CLOSED) {
		double t0 = s->finish[from], t1 = s->finish[n - 1];
		return t1 > t0 ? (double)(n - 1 - from) / (t1 - t0) : 0;
	}
	double t0 = s->arrive[from], t1 = s->arrive[n - 1];
	long done = 0;
	for (long r = 0; r < n; r++)
		done += s->finish[r] > t0 && s->finish[r] <= t1;
	return t1 > t0 ? (double)done / (t1 - t0) : 0;
}

static void statistics(const struct sim *s, struct cb_result *out)
{
	long n = s->l->requests, from = s->l->keep_warmup ? 0 : n / 10;
	long m = n - from;
	double *ttft = xmalloc((size_t)m * sizeof(double));
	double *tpot = xmalloc((size_t)m * sizeof(double));
	double *e2e = xmalloc((size_t)m * sizeof(double));
	double out_tokens = 0;
	for (long i = 0; i < m; i++) {
		long r = from + i, o = s->output[r];
		ttft[i] = s->first[r] - s->arrive[r];
		e2e[i] = s->finish[r] - s->arrive[r];
		tpot[i] = o > 1 ? (s->finish[r] - s->first[r]) / (double)(o - 1)
				: 0;
		out_tokens += (double)o / (double)m;
	}
	sim_quantiles(ttft, m, &out->ttft);
	sim_quantiles(tpot, m, &out->tpot);
	sim_quantiles(e2e, m, &out->e2e);
	free(ttft);
	free(tpot);
	free(e2e);
	out->requests_per_s = throughput(s, from);
	out->tokens_per_s = out->requests_per_s * out_tokens;
	out->measured = m;
}

/*
 * The saturation test: a replica offered Poisson arrivals (or a trace's)
 * keeps up when it serves them as fast as they come.  Over the measured
 * requests (the warm-up tenth aside), the offered rate is their count over
 * the span of their arrivals, the served rate their count over the span
 * of their completions; a replica that keeps up completes them over the
 * same span shifted by its latency, one that falls behind over a longer
 * one, as its queue and latency grow through the run.  It is saturated
 * when it serves less than it is offered by more than three standard
 * deviations of a Poisson count of that many arrivals (3 / sqrt(m): 7% at
 * 1,800 measured requests).  Closed-loop and offline loads are bounded by
 * construction and never saturate.
 */
static bool served_short(const struct sim *s, double *offered,
			 double *served)
{
	long n = s->l->requests, from = n / 10, m = n - from;
	*offered = *served = 0;
	if (s->l->arrivals != CB_POISSON || m < 2)
		return false;
	double a0 = s->arrive[from], a1 = s->arrive[n - 1];
	double f0 = HUGE_VAL, f1 = -HUGE_VAL;
	for (long r = from; r < n; r++) {
		f0 = fmin(f0, s->finish[r]);
		f1 = fmax(f1, s->finish[r]);
	}
	if (!(a1 > a0) || !(f1 > f0))
		return false;	/* all at one instant: nothing to compare */
	*offered = (double)(m - 1) / (a1 - a0);
	*served = (double)(m - 1) / (f1 - f0);
	return *served < *offered * (1 - 3 / sqrt((double)m));
}

/* ---- the analytic steady state ---- */

void cb_steady_iteration(long n, long prompt, long output, long budget,
			 struct cb_iteration *it, double *iterations)
{
	memset(it, 0, sizeof(*it));
	double p = (double)(prompt > 0 ? prompt : 1);
	double out = (double)(output > 0 ? output : 1);
	/* decodes take their tokens first; a full budget still leaves the
	 * one token a finishing sequence frees */
	double room = budget > n ? (double)(budget - n) : 1;
	/* requests through per iteration: a slot is held for `out`
	 * iterations (the prompt's last chunk samples the first token, then
	 * out - 1 decodes), unless the prompts' tokens do not fit the room */
	double through = fmin((double)n / out, room / p);
	double chunk = fmin(p, room);
	double chunks = ceil(p / chunk);
	it->decodes = (long)ceil(through * (out - 1));
	it->decode_context = (double)it->decodes * (p + out / 2);
	it->prefill_tokens = (long)ceil(through * p);
	it->prefill_context = through * chunk * chunks * (chunks - 1) / 2;
	it->prefill_pairs = through * p * (p + 1) / 2;
	*iterations = (double)n / through;
}

/* ---- entry ---- */

static bool valid(const struct cb_engine *e, const struct cb_load *l)
{
	bool traffic = l->arrivals == CB_POISSON ? l->rate > 0 && isfinite(l->rate)
		       : l->arrivals == CB_CLOSED ? l->clients >= 1
		       : l->arrivals == CB_OFFLINE;
	bool lengths = l->prompt_lo >= 0 && l->prompt_lo <= l->prompt &&
		       l->output_lo >= 0 && l->output_lo <= l->output;
	return traffic && lengths && l->prompt >= 1 &&
	       l->output >= 1 && l->requests >= 20 && e->max_seqs >= 1 &&
	       e->token_budget >= e->max_seqs && e->block >= 1 &&
	       e->kv_tokens >= 0 && isfinite(e->kv_tokens);
}

int cb_simulate(const struct cb_engine *e, const struct cb_load *l,
		cb_cost_fn cost, void *ctx, struct cb_result *out)
{
	memset(out, 0, sizeof(*out));
	if (!valid(e, l))
		return -1;
	struct sim s = {.e = e, .l = l};
	long n = l->requests;
	s.prompt = xmalloc((size_t)n * sizeof(long));
	s.output = xmalloc((size_t)n * sizeof(long));
	draw_lengths(&s);
	double blocks = floor(e->kv_tokens / (double)e->block);
	s.blocks_total = blocks < 1e15 ? (long)blocks : (long)1e15;
	if ((longest_request(&s) + e->block - 1) / e->block > s.blocks_total) {
		out->never_fits = true;
		free(s.prompt);
		free(s.output);
		return 0;
	}
	s.blocks_free = s.blocks_total;
	s.arrive = xmalloc((size_t)n * sizeof(double));
	s.first = xmalloc((size_t)n * sizeof(double));
	s.finish = xmalloc((size_t)n * sizeof(double));
	long cap = e->max_seqs < n ? e->max_seqs : n;
	s.live = xmalloc((size_t)cap * sizeof(*s.live));
	s.resume = xmalloc((size_t)cap * sizeof(*s.resume));
	start_arrivals(&s);
	/* the p99 of m measured requests is the ceil(0.99 m)-th: it misses
	 * once more than m - ceil(0.99 m) of them do */
	long m = n - n / 10;
	s.allowed = m - (long)ceil(0.99 * (double)m);
	run(&s, cost, ctx);
	if (!s.saturated && s.misses <= s.allowed && s.finished == n)
		s.saturated = served_short(&s, &out->offered_per_s,
					   &out->served_per_s);
	out->saturated = s.saturated;
	out->missed = !s.saturated && s.misses > s.allowed;
	out->iterations = s.iterations;
	out->peak_concurrency = s.peak_live;
	out->preemptions = s.preemptions;
	out->mean_decodes = s.iterations ? s.decodes_sum / (double)s.iterations : 0;
	out->prefill_share = s.busy > 0 ? s.prefill_busy / s.busy : 0;
	out->kv_peak = (double)s.blocks_peak / (double)s.blocks_total;
	if (!s.saturated && !out->missed)
		statistics(&s, out);
	free(s.arrive);
	free(s.first);
	free(s.finish);
	free(s.prompt);
	free(s.output);
	free(s.live);
	free(s.resume);
	return 0;
}

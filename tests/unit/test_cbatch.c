/*
 * test_cbatch.c - the continuous-batching simulation (src/serve/cbatch.h)
 * against cases worked by hand with a linear iteration cost: a fixed
 * a seconds, plus b per prompt token, plus c per decode.
 */
#include <math.h>

#include "check.h"
#include "serve/cbatch.h"

struct linear_cost {
	double a, b, c;
};

static double linear(const struct cb_iteration *it, void *ctx)
{
	const struct linear_cost *k = ctx;
	return k->a + k->b * (double)it->prefill_tokens +
	       k->c * (double)it->decodes;
}

static const struct cb_engine roomy = {
	.max_seqs = 64, .token_budget = 2048, .kv_tokens = 1e9, .block = 16,
};

/*
 * Requests so rare that each finds the engine idle: the prompt in one
 * iteration, a + 512 b = 1 ms + 0.512 ms; then 127 decodes of a + c.
 * TTFT 1.512 ms, TPOT 1.1 ms, end to end 1.512 + 127 x 1.1 = 141.212 ms,
 * at the median and the p99 alike.  (Clock times reach 1e5 s at this
 * rate, so the differences hold to about 1e-11 s: compared at 1e-6.)
 */
static void alone(void)
{
	struct linear_cost k = {1e-3, 1e-6, 0.1e-3};
	struct cb_load l = {.rate = 1e-3, .prompt = 512, .output = 128,
			    .requests = 200, .seed = 1};
	struct cb_result r;
	CHECK(cb_simulate(&roomy, &l, linear, &k, &r) == 0);
	CHECK(!r.saturated && !r.never_fits);
	CHECK_NEAR(r.ttft.p50, 1.512e-3, 1e-6);
	CHECK_NEAR(r.ttft.p99, 1.512e-3, 1e-6);
	CHECK_NEAR(r.tpot.p50, 1.1e-3, 1e-6);
	CHECK_NEAR(r.e2e.p99, 1.512e-3 + 127 * 1.1e-3, 1e-6);
	CHECK(r.peak_concurrency == 1);
	CHECK(r.measured == 180);
	/* prompts take 1.512 ms of every 1.512 + 127 x 1.1 ms busy */
	CHECK_NEAR(r.prefill_share, 1.512 / (1.512 + 127 * 1.1), 1e-9);
}

/*
 * The share of busy time prompts take, when iterations mix prompt chunks
 * and decodes (a busy engine): a cost of prompt tokens only puts all of
 * it on prompts, a cost of decodes only none, whatever the mix; a cost
 * of both splits each mixed iteration by what its parts cost alone.
 */
static void prefill_share(void)
{
	struct cb_load l = {.rate = 50, .prompt = 512, .output = 64,
			    .requests = 400, .seed = 2};
	struct cb_result r;
	struct linear_cost prompts = {0, 1e-6, 0}, decodes = {0, 0, 1e-4};
	CHECK(cb_simulate(&roomy, &l, linear, &prompts, &r) == 0);
	CHECK_NEAR(r.prefill_share, 1, 1e-12);
	CHECK(cb_simulate(&roomy, &l, linear, &decodes, &r) == 0);
	CHECK_NEAR(r.prefill_share, 0, 0);
	struct linear_cost both = {1e-3, 1e-6, 0.1e-3};
	CHECK(cb_simulate(&roomy, &l, linear, &both, &r) == 0);
	CHECK(r.mean_decodes > 1);	/* mixed iterations happened */
	CHECK(r.prefill_share > 0 && r.prefill_share < 1);
}

/*
 * Output lengths drawn from 2..4 for requests that each find the engine
 * idle: TTFT a + 512 b = 1.512 ms whatever the length; then 1, 2 or 3
 * decodes of a + c = 1.1 ms, so the TPOT is 1.1 ms for all, the end to
 * end 2.612, 3.712 or 4.812 ms: the median 3.712 ms and the p99 4.812 ms
 * (a third of the requests each, give or take); output tokens a second
 * are completions a second x about 3.
 */
static void drawn_lengths(void)
{
	struct linear_cost k = {1e-3, 1e-6, 0.1e-3};
	struct cb_load l = {.rate = 1e-3, .prompt = 512, .output = 4,
			    .output_lo = 2, .requests = 3000, .seed = 5};
	struct cb_result r;
	CHECK(cb_simulate(&roomy, &l, linear, &k, &r) == 0);
	CHECK_NEAR(r.ttft.p99, 1.512e-3, 1e-6);
	CHECK_NEAR(r.tpot.p50, 1.1e-3, 1e-6);
	CHECK_NEAR(r.tpot.p99, 1.1e-3, 1e-6);
	CHECK_NEAR(r.e2e.p50, 3.712e-3, 1e-6);
	CHECK_NEAR(r.e2e.p99, 4.812e-3, 1e-6);
	CHECK(fabs(r.tokens_per_s / r.requests_per_s - 3) < 0.1);
	/* a low end above the high one is refused */
	l.output_lo = 5;
	CHECK(cb_simulate(&roomy, &l, linear, &k, &r) == -1);
}

/*
 * Chunked prefill: a 1,000-token prompt under a 256-token budget takes
 * four iterations (256, 256, 256, 232): TTFT 4 a + 1000 b = 5 ms.
 */
static void chunked(void)
{
	struct cb_engine e = roomy;
	e.token_budget = 256;
	struct linear_cost k = {1e-3, 1e-6, 0};
	struct cb_load l = {.rate = 1e-3, .prompt = 1000, .output = 2,
			    .requests = 50, .seed = 2};
	struct cb_result r;
	CHECK(cb_simulate(&e, &l, linear, &k, &r) == 0);
	CHECK_NEAR(r.ttft.p50, 4e-3 + 1000e-6, 1e-6);
	CHECK_NEAR(r.tpot.p50, 1e-3, 1e-6);
}

/* Every iteration costs a: however many requests share it, a token
 * takes a, so the TPOT is a at the p99 too (the batching is free). */
static void batching_is_free_here(void)
{
	struct linear_cost k = {2e-3, 0, 0};
	struct cb_load l = {.rate = 50, .prompt = 100, .output = 200,
			    .requests = 2000, .seed = 3};
	struct cb_result r;
	CHECK(cb_simulate(&roomy, &l, linear, &k, &r) == 0);
	CHECK(!r.saturated);
	CHECK_NEAR(r.tpot.p99, 2e-3, 1e-9);
	/* Little's law: about rate x (TTFT + 199 a) = 50 x ~0.4 s live */
	CHECK(r.peak_concurrency > 10 && r.peak_concurrency <= 64);
	/* completions keep up with arrivals (within sampling noise) */
	CHECK_NEAR(r.requests_per_s, 50, 0.1);
	CHECK_NEAR(r.tokens_per_s, 50 * 200, 0.1);
}

/* One sequence at a time of 11 iterations of 1 s serves 1/11 request
 * a second: 10 a second saturates it. */
static void saturated(void)
{
	struct cb_engine e = roomy;
	e.max_seqs = 1;
	struct linear_cost k = {1, 0, 0};
	struct cb_load l = {.rate = 10, .prompt = 10, .output = 11,
			    .requests = 400, .seed = 4};
	struct cb_result r;
	CHECK(cb_simulate(&e, &l, linear, &k, &r) == 0);
	CHECK(r.saturated);
}

/* The cache must hold one whole request: 16-token blocks, 512 + 128
 * tokens need 40 blocks; 639 tokens of cache are 39. */
static void cache_limits(void)
{
	struct cb_engine e = roomy;
	e.kv_tokens = 639;
	struct linear_cost k = {1e-3, 0, 0};
	struct cb_load l = {.rate = 1, .prompt = 512, .output = 128,
			    .requests = 100, .seed = 5};
	struct cb_result r;
	CHECK(cb_simulate(&e, &l, linear, &k, &r) == 0);
	CHECK(r.never_fits);
	/* 1,280 tokens: two requests at once at most, whatever max_seqs */
	e.kv_tokens = 1280;
	l.rate = 100;
	CHECK(cb_simulate(&e, &l, linear, &k, &r) == 0);
	CHECK(r.peak_concurrency == 2);
	CHECK_NEAR(r.kv_peak, 1, 0);
}

/* A decode's cost grows with the context it reads: d per token.  Alone,
 * decode j (j = 1 .. 99, context 200 + j) costs a + d (200 + j), so the
 * 99 decodes take 99 a + d (99 x 200 + 4950) = 99 ms + 24.75 ms; the
 * prompt's iteration a + 200 b (the context term counts only decodes
 * here).  Runs of decodes are summed at once in the simulation; this
 * holds them to the iteration-by-iteration sum. */
struct context_cost {
	double a, b, d;
};

static double with_context(const struct cb_iteration *it, void *ctx)
{
	const struct context_cost *k = ctx;
	return k->a + k->b * (double)it->prefill_tokens +
	       k->d * it->decode_context;
}

static void context_grows(void)
{
	struct context_cost k = {1e-3, 1e-6, 1e-6};
	struct cb_load l = {.rate = 1e-3, .prompt = 200, .output = 100,
			    .requests = 100, .seed = 6};
	struct cb_result r;
	CHECK(cb_simulate(&roomy, &l, with_context, &k, &r) == 0);
	double ttft = 1e-3 + 200e-6;
	double decodes = 99e-3 + 1e-6 * (99 * 200 + 4950);
	CHECK_NEAR(r.ttft.p50, ttft, 1e-6);
	CHECK_NEAR(r.e2e.p50, ttft + decodes, 1e-6);
	CHECK_NEAR(r.tpot.p50, decodes / 99, 1e-6);
}

/* A p99 target the traffic misses stops the run early. */
static void stops_on_a_miss(void)
{
	struct linear_cost k = {2e-3, 0, 0};
	struct cb_load l = {.rate = 50, .prompt = 100, .output = 200,
			    .requests = 2000, .seed = 3, .e2e_p99 = 0.2};
	struct cb_result r;
	CHECK(cb_simulate(&roomy, &l, linear, &k, &r) == 0);
	CHECK(r.missed && !r.saturated);
	/* every request takes at least 200 iterations of 2 ms: 0.4 s */
	l.e2e_p99 = 10;
	CHECK(cb_simulate(&roomy, &l, linear, &k, &r) == 0);
	CHECK(!r.missed && r.e2e.p99 <= 10 && r.e2e.p50 >= 0.4);
}

/* Offline: 40 requests at t = 0, all admitted in the first iteration
 * (400 prompt tokens within the 2,048 budget): every first token at a,
 * every last at 50 a = 50 ms; 40 requests in 50 ms is 800 a second. */
static void offline(void)
{
	struct linear_cost k = {1e-3, 0, 0};
	struct cb_load l = {.arrivals = CB_OFFLINE, .prompt = 10, .output = 50,
			    .requests = 40, .keep_warmup = true};
	struct cb_result r;
	CHECK(cb_simulate(&roomy, &l, linear, &k, &r) == 0);
	CHECK_NEAR(r.ttft.p99, 1e-3, 1e-12);
	CHECK_NEAR(r.e2e.mean, 50e-3, 1e-12);
	CHECK_NEAR(r.requests_per_s, 800, 1e-9);
	CHECK(r.measured == 40 && r.peak_concurrency == 40);
}

/* One closed-loop client: requests one after another, each a + 100 b to
 * its first token (1.1 ms) and 49 decodes of a more: 50.1 ms a request,
 * 19.96 requests a second. */
static void one_client(void)
{
	struct linear_cost k = {1e-3, 1e-6, 0};
	struct cb_load l = {.arrivals = CB_CLOSED, .clients = 1, .prompt = 100,
			    .output = 50, .requests = 50, .keep_warmup = true};
	struct cb_result r;
	CHECK(cb_simulate(&roomy, &l, linear, &k, &r) == 0);
	CHECK_NEAR(r.ttft.mean, 1.1e-3, 1e-9);
	CHECK_NEAR(r.e2e.p99, 50.1e-3, 1e-9);
	CHECK_NEAR(r.requests_per_s, 1 / 50.1e-3, 1e-9);
	CHECK(r.peak_concurrency == 1);
	/* eight clients share iterations: more requests a second */
	l.clients = 8;
	struct cb_result r8;
	CHECK(cb_simulate(&roomy, &l, linear, &k, &r8) == 0);
	CHECK(r8.requests_per_s > 6 * r.requests_per_s);
	CHECK(r8.peak_concurrency == 8);
}

/*
 * Preemption by hand (16-token blocks, every iteration a, two clients,
 * 16 tokens in and 33 out).  Iteration 1 runs both prompts (a block
 * each); decodes 1-16 fill a second block each; decode 17 needs a third.
 * With 6 blocks both get it and every request ends 33 iterations after it
 * starts.  With 5, the newer (B) is preempted at iteration 18, having
 * generated 17 tokens, and comes back at once to recompute its 33 tokens:
 * 32 fit its 2 blocks (iteration 19), the last waits for A to end at 33 a;
 * iteration 34 completes it and samples token 18, and 15 decodes later,
 * at 49 a, it ends: the slowest request of the run.
 */
static void preemption(void)
{
	struct cb_engine e = {.max_seqs = 2, .token_budget = 64, .block = 16,
			      .kv_tokens = 96};
	struct linear_cost k = {1e-3, 0, 0};
	struct cb_load c = {.arrivals = CB_CLOSED, .clients = 2, .prompt = 16,
			    .output = 33, .requests = 20, .keep_warmup = true};
	struct cb_result r;
	CHECK(cb_simulate(&e, &c, linear, &k, &r) == 0);
	CHECK(r.preemptions == 0);
	CHECK_NEAR(r.e2e.p99, 33e-3, 1e-9);
	e.kv_tokens = 80;
	CHECK(cb_simulate(&e, &c, linear, &k, &r) == 0);
	CHECK(r.preemptions > 0);
	CHECK_NEAR(r.e2e.p99, 49e-3, 1e-9);
	CHECK(r.measured == 20);	/* every request ended */
}

/* Same seed, same numbers; another seed, other arrivals. */
static void deterministic(void)
{
	struct linear_cost k = {1e-3, 1e-6, 1e-4};
	struct cb_load l = {.rate = 20, .prompt = 300, .output = 50,
			    .requests = 500, .seed = 7};
	struct cb_result a, b, c;
	cb_simulate(&roomy, &l, linear, &k, &a);
	cb_simulate(&roomy, &l, linear, &k, &b);
	l.seed = 8;
	cb_simulate(&roomy, &l, linear, &k, &c);
	CHECK(a.e2e.p99 == b.e2e.p99 && a.iterations == b.iterations);
	CHECK(a.iterations != c.iterations || a.e2e.p99 != c.e2e.p99);
	CHECK(a.e2e.p99_lo <= a.e2e.p99 && a.e2e.p99 <= a.e2e.p99_hi);
}

/*
 * The steady iteration by hand (cbatch.h).  2,048 tokens in, 128 out,
 * 64 live:
 *  - budget 8,192: room 8,128; through = min(64 / 128, 8,128 / 2,048)
 *    = 0.5 requests an iteration; decodes ceil(0.5 x 127) = 64 at
 *    2,048 + 64 tokens of context (135,168 in all); prompt tokens 1,024,
 *    each prompt one chunk, so no cached context is read; pairs
 *    0.5 x 2,048 x 2,049 / 2 = 1,049,088; iterations 64 / 0.5 = 128.
 *  - budget 512: room 448; through = 448 / 2,048 = 0.21875; chunks of
 *    448, 5 to a prompt, reading 448 x 5 x 4 / 2 = 4,480 cached tokens
 *    a prompt, 0.21875 x 4,480 = 980 an iteration (counting it per
 *    prompt token, prompt / 2 each, would give 448 x 1,024 = 458,752);
 *    decodes ceil(0.21875 x 127) = 28; pairs 0.21875 x 2,098,176
 *    = 458,976; iterations 64 / 0.21875 = 292.571...
 */
static void steady_by_hand(void)
{
	struct cb_iteration it;
	double iters;
	cb_steady_iteration(64, 2048, 128, 8192, &it, &iters);
	CHECK(it.decodes == 64 && it.prefill_tokens == 1024);
	CHECK_NEAR(it.decode_context, 135168, 1e-6);
	CHECK_NEAR(it.prefill_context, 0, 1e-9);
	CHECK_NEAR(it.prefill_pairs, 1049088, 1e-6);
	CHECK_NEAR(iters, 128, 1e-9);
	cb_steady_iteration(64, 2048, 128, 512, &it, &iters);
	CHECK(it.decodes == 28 && it.prefill_tokens == 448);
	CHECK_NEAR(it.prefill_context, 980, 1e-6);
	CHECK_NEAR(it.prefill_pairs, 458976, 1e-6);
	CHECK_NEAR(iters, 64 / 0.21875, 1e-9);
}

/* An iteration cost linear in each of its quantities. */
struct weights {
	double fixed, prefill, decodes, context, pairs;
};

static double weighted(const struct cb_iteration *it, void *ctx)
{
	const struct weights *w = ctx;
	return w->fixed + w->prefill * (double)it->prefill_tokens +
	       w->decodes * (double)it->decodes +
	       w->context * it->prefill_context + w->pairs * it->prefill_pairs;
}

/* Requests a second by the steady iteration at cost w. */
static double steady_rate(const struct weights *w, long n, long prompt,
			  long output, long budget)
{
	struct cb_iteration it;
	double iters;
	cb_steady_iteration(n, prompt, output, budget, &it, &iters);
	return (double)n / (iters * weighted(&it, (void *)w));
}

/*
 * Both definitions agree: 64 closed-loop clients kept busy through 3,000
 * requests of 2,048 in and 128 out, chunked at a 512-token budget, served
 * by the simulation as fast as the steady iteration says, within 10% (the
 * simulation's chunks start wherever the budget left off, and its first
 * and last iterations are not steady), with each term of the cost in
 * turn dominant: a fixed cost per iteration, per prompt token, per decode,
 * per cached token a chunk reads, per query-key pair.  Under the old
 * units (prompt / 2 of context per prompt token) the context-bound rate
 * would come out some 470 times too low.
 */
static void steady_matches_simulation(void)
{
	struct cb_engine e = {.max_seqs = 64, .token_budget = 512,
			      .kv_tokens = 1e9, .block = 16};
	struct cb_load l = {.arrivals = CB_CLOSED, .clients = 64,
			    .prompt = 2048, .output = 128, .requests = 3000,
			    .keep_warmup = true, .seed = 3};
	const struct weights costs[] = {
		{1e-3, 0, 0, 0, 0}, {1e-5, 1e-5, 0, 0, 0},
		{1e-5, 0, 1e-4, 0, 0}, {1e-5, 0, 0, 1e-5, 0},
		{1e-5, 0, 0, 0, 1e-8},
	};
	for (size_t i = 0; i < sizeof(costs) / sizeof(costs[0]); i++) {
		struct cb_result r;
		CHECK(cb_simulate(&e, &l, weighted, (void *)&costs[i], &r) == 0);
		CHECK_NEAR(r.requests_per_s /
				   steady_rate(&costs[i], 64, 2048, 128, 512),
			   1, 0.1);
	}
}

/*
 * Offered against served (cbatch.c's test).  One token in, one out, a
 * cost of 1/23 s a token: the replica serves 23 requests a second however
 * it batches them.  Offered 33 a second with room for 512 live, its
 * backlog reaches only about 0.3 x 2,000 = 600 by the end, under the
 * overflow bound (512 + 2,000 / 10): the run ends and the test finds it
 * serving about 23 of the 33 offered (0.70 < 1 - 3 / sqrt(1,800) =
 * 0.929): saturated.  Offered 18 a second (78% busy) it keeps up.
 */
static void offered_against_served(void)
{
	struct linear_cost k = {0, 1.0 / 23, 1.0 / 23};
	struct cb_engine e = {.max_seqs = 512, .token_budget = 512,
			      .kv_tokens = 1e9, .block = 16};
	struct cb_load l = {.rate = 33, .prompt = 1, .output = 1,
			    .requests = 2000, .seed = 5};
	struct cb_result r;
	CHECK(cb_simulate(&e, &l, linear, &k, &r) == 0);
	CHECK(r.saturated);
	CHECK_NEAR(r.served_per_s, 23, 1.5);
	CHECK_NEAR(r.offered_per_s, 33, 2.5);
	l.rate = 18;
	CHECK(cb_simulate(&e, &l, linear, &k, &r) == 0);
	CHECK(!r.saturated);
	CHECK_NEAR(r.served_per_s / r.offered_per_s, 1, 0.07);
}

/* The forward passes a simulation prices, in order (the first few). */
struct passes {
	int n;
	long tokens[8], decodes[8];
};

static double logged(const struct cb_iteration *it, void *ctx)
{
	struct passes *p = ctx;
	if (p->n < 8) {
		p->tokens[p->n] = it->prefill_tokens;
		p->decodes[p->n] = it->decodes;
	}
	p->n++;
	return 1e-3;
}

/*
 * TurboMind v0.1's loop (separate_prefill): 4 clients' 2,048-token prompts
 * arrive at once with a 4,104-token budget; the first loop runs them as
 * two prefill passes of two prompts each (3 x 2,048 padded would exceed
 * the budget), all four in the same iteration, and no decode pass (none
 * is live yet).  The mixed engine with the same budget takes two prompts
 * into its first iteration, one pass.
 */
static void separate_prefill(void)
{
	struct cb_engine e = {.max_seqs = 4, .token_budget = 4104,
			      .kv_tokens = 1e9, .block = 128,
			      .whole_prompts = true, .separate_prefill = true};
	struct cb_load l = {.arrivals = CB_CLOSED, .clients = 4,
			    .prompt = 2048, .output = 4, .requests = 20,
			    .keep_warmup = true, .seed = 6};
	struct passes p = {0};
	struct cb_result r;
	CHECK(cb_simulate(&e, &l, logged, &p, &r) == 0);
	CHECK(p.tokens[0] == 4096 && p.decodes[0] == 0);
	CHECK(p.tokens[1] == 4096 && p.decodes[1] == 0);
	CHECK(p.tokens[2] == 0 && p.decodes[2] == 4);	/* next loop's decode */
	e.separate_prefill = false;
	struct passes q = {0};
	CHECK(cb_simulate(&e, &l, logged, &q, &r) == 0);
	CHECK(q.tokens[0] == 4096 && q.decodes[0] == 0);
}

static void refused(void)
{
	struct linear_cost k = {1, 0, 0};
	struct cb_load l = {.rate = 0, .prompt = 1, .output = 1,
			    .requests = 100};
	struct cb_result r;
	CHECK(cb_simulate(&roomy, &l, linear, &k, &r) == -1);
	struct cb_engine e = roomy;
	e.token_budget = 8;	/* below max_seqs: decodes would not fit */
	l.rate = 1;
	CHECK(cb_simulate(&e, &l, linear, &k, &r) == -1);
}

int main(void)
{
	alone();
	prefill_share();
	drawn_lengths();
	chunked();
	batching_is_free_here();
	saturated();
	cache_limits();
	context_grows();
	offline();
	one_client();
	preemption();
	stops_on_a_miss();
	deterministic();
	refused();
	steady_by_hand();
	steady_matches_simulation();
	offered_against_served();
	separate_prefill();
	return check_summary("cbatch");
}

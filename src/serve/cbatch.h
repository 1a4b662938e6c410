/*
 * cbatch.h - an LLM service as continuous-batching engines run it (vLLM,
 * TensorRT-LLM's in-flight batching, SGLang): iteration by iteration.
 *
 * Each iteration runs one token of every live sequence that has its
 * prompt in the cache (a decode), then spends what is left of the
 * iteration's token budget on prompts, in arrival order, a chunk at a time
 * (chunked prefill): first the prompts already started, then waiting
 * sequences, admitted while fewer than max_seqs are live and the paged KV
 * cache has free blocks for their first chunk.  Blocks are taken as the
 * tokens come (a block of `block` tokens at a time); a decode that finds
 * none free preempts the newest live sequence, which gives its blocks back
 * and later runs its prompt and the tokens it generated through the model
 * again before it goes on (vLLM's recompute preemption).  A prompt's last
 * chunk yields its first token at the end of that iteration; each decode
 * yields one more; a request leaves with its last token and frees its
 * blocks.  The iteration's time comes from the caller (cb_cost_fn: the
 * roofline of that mix of tokens, serve_llm.c).
 *
 * Arrivals are Poisson at `rate`, from a seeded generator (sim_stats.h):
 * the same inputs give the same numbers; or a recorded trace's; or
 * closed-loop clients, or all at once, as serving benchmarks send them.  The first tenth of the
 * requests (the empty system filling up) is left out of the statistics
 * unless keep_warmup.
 *
 * Ownership: plain values; cb_simulate() allocates and frees its own.
 */
#ifndef GPUPLAN_SERVE_CBATCH_H
#define GPUPLAN_SERVE_CBATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "serve/sim_stats.h"

/* The engine's limits. */
struct cb_engine {
	long max_seqs;		/* sequences live at once (max_num_seqs) */
	long token_budget;	/* tokens per iteration (max_num_batched_tokens) */
	double kv_tokens;	/* KV cache, tokens of context it holds */
	long block;		/* KV page size, tokens */
	/* the engine's scheduling (engine.h says whose defaults):
	 * no_evict: a sequence is admitted only with blocks for its whole
	 *   request (prompt and output) free, taken at once, and is never
	 *   preempted (TensorRT-LLM's GUARANTEED_NO_EVICT);
	 * whole_prompts: a prompt runs in one iteration, never split
	 *   (chunked prefill off; the budget must hold the longest);
	 * prefix_hit: share of each new prompt found in the prefix cache,
	 *   its KV taken as cached on admission (0: none) */
	bool no_evict, whole_prompts;
	double prefix_hit;
	/* separate_prefill: each iteration first runs every admitted prompt,
	 *   whole, in prefill passes of their own (as many prompts to a pass
	 *   as fit token_budget padded to the pass's longest), then one
	 *   decode pass over every live sequence; the budget bounds a pass,
	 *   not the iteration (LMDeploy 0.1's TurboMind, engine.h) */
	bool separate_prefill;
};

/* What one iteration runs, for its cost. */
struct cb_iteration {
	long decodes;		/* sequences generating a token */
	double decode_context;	/* tokens of context those decodes read */
	long prefill_tokens;	/* prompt tokens of the chunks run */
	double prefill_context;	/* tokens already cached before each chunk,
				 * summed over chunks (read by attention) */
	double prefill_pairs;	/* query x key pairs of the chunks' causal
				 * attention: sum of c (p + (c + 1) / 2) */
};

/* Seconds one iteration takes; affine in decode_context (the simulation
 * runs stretches of pure-decode iterations at once on that basis). */
typedef double (*cb_cost_fn)(const struct cb_iteration *it, void *ctx);

/* How requests arrive. */
enum cb_arrivals {
	CB_POISSON,		/* at `rate` a second, independently */
	CB_CLOSED,		/* `clients` clients, each sending its next
				 * request as its last one ends (a benchmark's
				 * max concurrency) */
	CB_OFFLINE,		/* all at once (a throughput benchmark) */
};

/* The traffic.  Lengths are fixed (prompt, output), or drawn per request
 * uniformly from prompt_lo..prompt and output_lo..output when a low end
 * below the high one is given (vLLM's random dataset draws them so). */
struct cb_load {
	enum cb_arrivals arrivals;
	double rate;		/* requests per second (CB_POISSON) */
	long clients;		/* CB_CLOSED */
	bool keep_warmup;	/* count the first tenth too (benchmarks
				 * average over every request) */
	long prompt, output;	/* tokens per request (output >= 1); the
				 * longest when drawn */
	long prompt_lo, output_lo;	/* 0: fixed; else the shortest */
	long requests;		/* simulated (>= 20) */
	uint64_t seed;
	/* p99 targets, s (0: none): a run stops as soon as more of the
	 * measured requests miss one than its p99 allows */
	double e2e_p99, ttft_p99, tpot_p99;
	/* a recorded trace (sim_stats.h) or NULL: its arrivals replace the
	 * Poisson ones (CB_POISSON; `rate` is then its mean rate), its
	 * columns the lengths (prompt and output stay the longest) */
	const struct sim_trace *trace;
};

struct cb_result {
	bool saturated;		/* it serves less than it is offered (Poisson
				 * or trace arrivals; cbatch.c says the test),
				 * or its queue overflowed before the run ended */
	double offered_per_s, served_per_s;	/* the test's two rates,
						 * measured requests (0
						 * when not tested) */
	bool never_fits;	/* one request needs more cache than there is */
	bool missed;		/* stopped early: a p99 target is missed */
	struct sim_quantiles ttft;	/* arrival to first token, s */
	struct sim_quantiles tpot;	/* per output token after the first, s */
	struct sim_quantiles e2e;	/* arrival to last token, s */
	double tokens_per_s;	/* output tokens per second, measured window */
	double requests_per_s;	/* completions per second, same window: while
				 * requests still arrive (Poisson), from the
				 * first measured completion to the last
				 * (closed loop), or over the whole run
				 * (offline) */
	long peak_concurrency;	/* sequences live at once, most */
	long preemptions;	/* sequences sent back to wait for blocks */
	double kv_peak;		/* most of the cache reserved, fraction */
	double mean_decodes;	/* decodes per iteration, mean */
	double prefill_share;	/* of the time iterating, the share spent on
				 * prompts: a mixed iteration is split by what
				 * its chunks and its decodes would each cost
				 * alone (cost per input and output token) */
	long iterations;
	long measured;		/* requests in the statistics */
};

/*
 * The iteration an engine runs flat out with n sequences live, each of
 * `prompt` tokens in and `output` out, at most `budget` tokens an
 * iteration: what cb_simulate() runs on average once every slot is taken,
 * in the same units.  Requests pass through at r = min(n / output,
 * room / prompt) an iteration (room: the budget the decodes leave): a slot
 * is held for `output` iterations, unless prompts are what the budget
 * cannot keep up with.  So it decodes r (output - 1) sequences at the mean
 * context prompt + output / 2 and runs r x prompt prompt tokens, each
 * prompt in chunks of c = min(prompt, room) (take_chunk()'s rule); a chunk
 * reads the prompt cached before it, so a prompt of m chunks reads
 * c m (m - 1) / 2 tokens of context in all, and its chunks' causal
 * attention covers prompt (prompt + 1) / 2 query-key pairs whatever the
 * chunking.  *iterations = n / r, so that n / (*iterations x cost) is the
 * requests served per second.  The analytic capacity (serve_llm.c) and
 * the simulation share these units.
 */
void cb_steady_iteration(long n, long prompt, long output, long budget,
			 struct cb_iteration *it, double *iterations);

/*
 * Runs l->requests requests through engine e; 0 on success, -1 when the
 * inputs are out of range (rate not positive, lengths or limits below 1),
 * with *out zeroed.
 */
int cb_simulate(const struct cb_engine *e, const struct cb_load *l,
		cb_cost_fn cost, void *ctx, struct cb_result *out);

#endif

/*
 * serve_llm.h - sizing a token-generating service (a decoder LLM) as
 * continuous-batching engines run it: per placement, the paged KV cache
 * the GPU memory leaves, an iteration cost from the roofline of the
 * tokens each iteration runs, and the engine's limits and the replicas
 * that meet the latency targets at the lowest cost, each checked by
 * simulating the traffic (cbatch.h).
 *
 * Internal to the serving planner (serve.c); serve_prep.h is its input.
 */
#ifndef GPUPLAN_SERVE_SERVE_LLM_H
#define GPUPLAN_SERVE_SERVE_LLM_H

#include <stdbool.h>

#include "serve/cbatch.h"
#include "serve/serve_prep.h"

/*
 * Assumption, from the engines' own defaults: the share of GPU memory an
 * engine takes for weights, activations and KV cache (vLLM's
 * gpu_memory_utilization defaults to 0.90; TensorRT-LLM's
 * free_gpu_memory_fraction to 0.9 of what the weights leave).
 */
#define LLM_MEMORY_FRACTION 0.90

/* KV page size, tokens (vLLM's default block size, 16). */
#define LLM_KV_BLOCK 16

/* Requests simulated per trial: the p99 rests on the slowest 1% of the
 * 90% kept, some 18 requests.  Fewer (down to LLM_SIM_FEWEST) when one
 * request alone would take more than LLM_SIM_ITERATIONS / LLM_SIM_REQUESTS
 * iterations (very long prompts or outputs), so that a trial stays within
 * about LLM_SIM_ITERATIONS iterations even without batching. */
#define LLM_SIM_REQUESTS 2000
#define LLM_SIM_FEWEST 200
#define LLM_SIM_ITERATIONS 2e6

/* The analytic capacity (saturated_rate(), from cb_steady_iteration())
 * only seeds the replica search; where it prunes (a limit or a budget that
 * cannot beat the best found), it is trusted to within this factor of the
 * simulated capacity (test_serve_llm holds the two within it).  A search
 * bound, not a model constant. */
#define LLM_SEED_SLACK 1.25

/* Seed of the simulated arrivals: fixed, so a plan is reproducible. */
#define LLM_SIM_SEED 20261201u

/* When no deployment meets the targets, the sizing still reports the
 * closest: the replicas at which the largest engine stops saturating,
 * with ok false. */

/*
 * The serving engine as the workload names it (workload/engine.h),
 * resolved for a GPU of `capacity` bytes: each setting as given, else the
 * engine's documented default (for this GPU where the engine's rule
 * depends on it), else gpuplan's assumption above (from_default false).
 */
struct llm_engine_use {
	long budget;		/* tokens an iteration; 0: searched (512,
				 * 2,048 and 8,192, an assumption) */
	long max_seqs;		/* live sequences: the most the search tries */
	bool seqs_given;	/* the workload fixes it: only it is tried */
	double kv_fraction;	/* the KV cache's share of memory */
	enum kv_fraction_base kv_base;	/* of what (engine.h) */
	long block;		/* KV page, tokens */
	bool no_evict, whole_prompts, overlap, graphs, separate_prefill;
	double prefix_hit;
};

void llm_engine_resolve(const struct serve_prep *sp, double capacity,
			struct llm_engine_use *u);

/* The simulation's engine: these limits with the workload's engine's
 * scheduling (llm_engine_resolve()). */
void llm_engine_at(const struct serve_prep *sp, double capacity,
		   long max_seqs, long token_budget, double kv_tokens,
		   struct cb_engine *e);

/* The best deployment of one placement (a device of tp GPUs, or a MIG
 * slice). */
struct llm_sizing {
	bool fits;		/* one request's KV cache fits beside the weights */
	bool ok;		/* the targets are met */
	bool too_slow;		/* even alone a request misses the targets */
	struct cb_result alone;	/* that request, alone, as a result */
	long replicas, instances;
	long max_seqs, token_budget;
	double kv_tokens;	/* cache capacity, tokens */
	double memory;		/* B per GPU in use at the busiest moment */
	double parts[MEM_PARTS];	/* memory by part */
	double alone_e2e;	/* one request on an idle replica, s */
	struct cb_result sim;	/* the traffic at the chosen deployment */
	struct time_breakdown iteration;	/* a decode iteration at the
						 * simulated mean batch: what
						 * bounds it */
};

/*
 * Sizes the service of sp's workload on device d (its tensor-parallel
 * degree is d->tp; capacity bytes per GPU or slice, per_instance replicas
 * on one instance, at most `most` replicas).
 */
void llm_size_placement(const struct serve_prep *sp,
			const struct serve_device *d, double capacity,
			long per_instance, long most, struct llm_sizing *z);

/* Tokens of KV cache a GPU of `capacity` bytes holds beside the weights,
 * the activations of a full token budget, the logits of max_seqs
 * sequences and the workspace (serve_llm.c); the other parts into parts
 * (MEM_PARTS entries). */
double llm_kv_tokens(const struct serve_prep *sp, const struct serve_device *d,
		     double capacity, long budget, long max_seqs,
		     double *parts);

/* Seconds one iteration `it` takes on d for an engine of this token
 * budget: the cost the simulation and the analytic capacity both charge
 * (serve_llm.c says its terms). */
double llm_iteration_time(const struct serve_prep *sp,
			  const struct serve_device *d, long budget,
			  const struct cb_iteration *it);

/* Traffic l through engine e on device d with this service's iteration
 * cost (cb_simulate()'s return). */
int llm_simulate(const struct serve_prep *sp, const struct serve_device *d,
		 const struct cb_engine *e, const struct cb_load *l,
		 struct cb_result *out);

/* One of `replicas` replicas of an engine with these limits on d when the
 * service takes `rate` requests a second (Poisson, or its trace at that
 * rate), simulated as the search simulates its trials. */
int llm_simulate_rate(const struct serve_prep *sp, const struct serve_device *d,
		      long max_seqs, long token_budget, double kv_tokens,
		      double rate, long replicas, struct cb_result *out);

/* The first target r misses ("end-to-end p99", "TTFT p99", "TPOT p99",
 * "TTFT p50", "TPOT p50"), with what r reaches and the target; NULL when
 * r meets every target in. */
const char *llm_missed_target(const struct inference *in,
			      const struct cb_result *r, double *got,
			      double *want);

#endif

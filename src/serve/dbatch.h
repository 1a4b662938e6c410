/*
 * dbatch.h - a batch-level service as Triton Inference Server's dynamic
 * batcher runs it: image and encoder models, whose requests are one
 * forward pass each.
 *
 * Requests wait in one queue per replica.  When the replica is free and a
 * request waits, the batcher takes every waiting request up to the
 * maximum batch; with a maximum queue delay D it first waits, while the
 * batch is short of the maximum, until the oldest request has waited D
 * (Triton's max_queue_delay_microseconds; 0, its default, never delays:
 * "By default the dynamic batcher will create batches as large as
 * possible up to the maximum batch size and will not delay when forming
 * batches", Triton user guide, Batchers).  A batch of b takes S(b), from
 * the caller (dbatch_cost_fn: the roofline of the pass at b samples); its
 * requests all finish at its end.
 *
 * Arrivals are Poisson at `rate` from a seeded generator (sim_stats.h):
 * the same inputs give the same numbers; or a recorded trace's; or
 * closed-loop clients, each
 * sending its next request the moment its last one is answered (a
 * benchmark's concurrency, perf_analyzer's --concurrency-range).  A
 * request may carry several samples (perf_analyzer's -b): the batcher
 * packs whole requests while their samples fit the maximum batch.  The
 * first tenth of the requests (the empty queue filling up) is left out of
 * the statistics.
 *
 * Ownership: plain values; dbatch_simulate() allocates and frees its own.
 */
#ifndef GPUPLAN_SERVE_DBATCH_H
#define GPUPLAN_SERVE_DBATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "serve/sim_stats.h"

struct dbatch_config {
	long max_batch;		/* max_batch_size, >= 1 */
	double max_delay;	/* max_queue_delay, s, >= 0 */
};

/* Seconds a batch of b samples takes (b >= 1); not decreasing in b. */
typedef double (*dbatch_cost_fn)(long b, void *ctx);

struct dbatch_load {
	double rate;		/* requests per second to this replica, or */
	long clients;		/* closed-loop clients (rate 0) */
	long samples;		/* per request (0 or 1: one) */
	long requests;		/* simulated (>= 20) */
	uint64_t seed;
	double p99_target;	/* s (0: none): a run stops as soon as more of
				 * the measured requests miss it than a p99
				 * allows */
	/* a recorded trace whose arrivals replace the Poisson ones (rate is
	 * then its mean rate), or NULL (sim_stats.h) */
	const struct sim_trace *trace;
};

struct dbatch_result {
	bool saturated;		/* rate x S(max) >= max: no queue holds it */
	bool missed;		/* stopped early: the p99 target is missed */
	struct sim_quantiles latency;	/* arrival to answer, s */
	double mean_batch;	/* requests per batch, mean over the run */
	bool capped;		/* some batch left requests waiting: a larger
				 * maximum would have taken them (without, a
				 * larger maximum gives the same run) */
	double busy;		/* share of the run the replica computed */
	double samples_per_s;	/* served, over the measured requests' span */
	long measured;		/* requests in the statistics */
};

/* 0 on success; -1 when the inputs are out of range, *out zeroed. */
int dbatch_simulate(const struct dbatch_config *c, const struct dbatch_load *l,
		    dbatch_cost_fn cost, void *ctx, struct dbatch_result *out);

#endif

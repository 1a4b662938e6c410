/*
 * sim_stats.h - what the serving simulations share: seeded Poisson
 * arrival times and the quantiles of a sample with the p99's interval.
 *
 * The generator is splitmix64, so the same seed gives the same arrivals
 * on every machine; cbatch.c (continuous batching) and dbatch.c (Triton's
 * dynamic batcher) draw from it and summarise with sim_quantiles().
 */
#ifndef GPUPLAN_SERVE_SIM_STATS_H
#define GPUPLAN_SERVE_SIM_STATS_H

#include <stdint.h>

struct sim_quantiles {
	double mean, p50, p99;
	double p99_lo, p99_hi;	/* 95% interval of the p99 (order statistics) */
};

/* at[0..n): Poisson arrival times at `rate` a second from time 0. */
void sim_poisson_arrivals(double *at, long n, double rate, uint64_t seed);

/* v[0..n): lengths drawn uniformly from lo..hi (inclusive; all lo when
 * hi <= lo), from their own seeded stream. */
void sim_uniform_lengths(long *v, long n, long lo, long hi, uint64_t seed);

/*
 * A recorded trace one replica replays (workload `trace:`, trace.h).  The
 * trace is looped, as a load generator loops one (each lap one mean gap
 * after the last one's end), and a load balancer deals its requests round
 * robin, so replica 0 of `stride` gets requests 0, stride, 2 stride, ...
 * of the looped sequence (row g mod n of lap g / n for the g-th); its
 * arrivals are stretched by time_scale.
 */
struct sim_trace {
	const double *arrival;		/* s from the first row; NULL: none */
	const long *prompt, *output;	/* tokens per row; NULL: none */
	long n;				/* rows */
	double span;			/* arrival[n - 1] - arrival[0], s */
	long stride;			/* replicas dealt to (>= 1) */
	double time_scale;		/* > 0 */
};

/* Rows of t one replica gets (at least 1). */
long sim_trace_share(const struct sim_trace *t);

/* at[0..n): the replica's arrivals (t->arrival must be set). */
void sim_trace_arrivals(double *at, long n, const struct sim_trace *t);

/* The replica's lengths of n requests from t's columns (an absent column
 * leaves its array as it is): with arrivals, each request keeps its own
 * row's; without, rows are drawn at random (the trace is then an
 * empirical distribution of lengths), from a stream seeded by seed. */
void sim_trace_lengths(long *prompt, long *output, long n,
		       const struct sim_trace *t, uint64_t seed);

/* Mean, p50 and p99 of v[0..n) (n >= 1; v is reordered in place). */
void sim_quantiles(double *v, long n, struct sim_quantiles *out);

#endif

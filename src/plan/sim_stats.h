/*
 * sim_stats.h - what the serving simulations share: seeded Poisson
 * arrival times and the quantiles of a sample with the p99's interval.
 *
 * The generator is splitmix64, so the same seed gives the same arrivals
 * on every machine; cbatch.c (continuous batching) and dbatch.c (Triton's
 * dynamic batcher) draw from it and summarise with sim_quantiles().
 */
#ifndef GPUPLAN_PLAN_SIM_STATS_H
#define GPUPLAN_PLAN_SIM_STATS_H

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

/* Mean, p50 and p99 of v[0..n) (n >= 1; v is reordered in place). */
void sim_quantiles(double *v, long n, struct sim_quantiles *out);

#endif

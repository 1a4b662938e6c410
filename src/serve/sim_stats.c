#include "serve/sim_stats.h"

#include <math.h>
#include <stdlib.h>

#include "core/sort_doubles.h"

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Exponential gaps of mean 1 / rate, from u in (0, 1]. */
void sim_poisson_arrivals(double *at, long n, double rate, uint64_t seed)
{
	uint64_t s = seed;
	double t = 0;
	for (long i = 0; i < n; i++) {
		double u = ((double)(splitmix64(&s) >> 11) + 1) * 0x1.0p-53;
		t += -log(u) / rate;
		at[i] = t;
	}
}

void sim_uniform_lengths(long *v, long n, long lo, long hi, uint64_t seed)
{
	/* a stream apart from the arrivals' (which start at `seed`) */
	uint64_t s = seed ^ 0x6c656e67746873u;
	uint64_t span = hi > lo ? (uint64_t)(hi - lo) + 1 : 1;
	for (long i = 0; i < n; i++)
		v[i] = lo + (long)(span > 1 ? splitmix64(&s) % span : 0);
}

long sim_trace_share(const struct sim_trace *t)
{
	long k = t->stride > 1 ? t->stride : 1;
	long share = (t->n + k - 1) / k;
	return share > 0 ? share : 1;
}

void sim_trace_arrivals(double *at, long n, const struct sim_trace *t)
{
	long k = t->stride > 1 ? t->stride : 1;
	/* each replay starts one mean gap of the whole trace after the last
	 * one's first row plus the trace's span */
	double period = t->n > 1 ? t->span * (double)t->n / (double)(t->n - 1)
				 : 1;
	for (long i = 0; i < n; i++) {
		/* the i-th request this replica is dealt is the (i k)-th of
		 * the looped trace */
		long g = i * k, row = g % t->n, lap = g / t->n;
		at[i] = (t->arrival[row] + (double)lap * period) * t->time_scale;
	}
}

void sim_trace_lengths(long *prompt, long *output, long n,
		       const struct sim_trace *t, uint64_t seed)
{
	long k = t->stride > 1 ? t->stride : 1;
	uint64_t s = seed ^ 0x7472616365u;	/* its own stream */
	for (long i = 0; i < n; i++) {
		long row = t->arrival ? (i * k) % t->n
				      : (long)(splitmix64(&s) % (uint64_t)t->n);
		if (t->prompt)
			prompt[i] = t->prompt[row];
		if (t->output)
			output[i] = t->output[row];
	}
}

static void swap(double *v, long i, long j)
{
	double t = v[i];
	v[i] = v[j];
	v[j] = t;
}

/*
 * Puts the k-th smallest of v[0..n) at v[k], the smaller ones before it
 * and the others after (Hoare's selection, median-of-three pivots):
 * linear time on average, where sorting every latency of a simulation
 * took most of its time.
 */
static void select_kth(double *v, long n, long k)
{
	long lo = 0, hi = n - 1;
	while (hi > lo) {
		long mid = lo + (hi - lo) / 2;
		if (v[mid] < v[lo])
			swap(v, mid, lo);
		if (v[hi] < v[lo])
			swap(v, hi, lo);
		if (v[hi] < v[mid])
			swap(v, hi, mid);
		double pivot = v[mid];
		long i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j)
				swap(v, i++, j--);
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

/* The index of nearest-rank quantile q of n values. */
static long rank_of(long n, double q)
{
	long k = (long)ceil(q * (double)n) - 1;
	return k < 0 ? 0 : k >= n ? n - 1 : k;
}

/*
 * The p99's 95% interval comes from the binomial count of samples below
 * it: ranks n q -+ 1.96 sqrt(n q (1 - q)).  Only the tail from the
 * interval's low end up is sorted (about 2% of the values); the median is
 * selected in the rest.
 */
void sim_quantiles(double *v, long n, struct sim_quantiles *out)
{
	double sum = 0;
	for (long i = 0; i < n; i++)
		sum += v[i];
	out->mean = sum / (double)n;
	double half = 1.96 * sqrt((double)n * 0.99 * 0.01);
	long lo = rank_of(n, (0.99 * (double)n - half) / (double)n);
	long p99 = rank_of(n, 0.99);
	long hi = rank_of(n, (0.99 * (double)n + half) / (double)n);
	long p50 = rank_of(n, 0.50);
	select_kth(v, n, lo);
	sort_doubles(v + lo, (size_t)(n - lo));
	out->p99_lo = v[lo];
	out->p99 = v[p99];
	out->p99_hi = v[hi];
	if (p50 < lo)
		select_kth(v, lo, p50);
	out->p50 = v[p50];
}

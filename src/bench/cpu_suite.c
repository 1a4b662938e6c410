/*
 * cpu_suite.c - options, policy and the measuring loop shared by the CPU
 * suites; see cpu_suite.h.
 */
#include "cpu_suite.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "bench/host_quiet.h"
#include <omp.h>
#include <stdio.h>
#include <time.h>

/* Longest kernel-call count a calibration may reach: 2^24 calls of the
 * smallest kernel (about 100 ns) is well past any repetition target. */
#define MAX_ITERATIONS (1L << 24)

struct measure_policy cpu_suite_policy(bool quick)
{
	if (quick)
		return (struct measure_policy){1, 6, 200, 0.02, 0.05, NULL};
	return (struct measure_policy){1, 10, 1000, 0.02, 0.25, NULL};
}

struct measure_policy cpu_suite_effective_policy(const struct cpu_suite_options *o)
{
	return o->policy ? *o->policy : cpu_suite_policy(o->quick);
}

int cpu_suite_threads(const struct cpu_suite_options *o)
{
	return o->threads > 0 ? o->threads : omp_get_max_threads();
}

void cpu_suite_size_name(double bytes, char *buf, size_t len)
{
	static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	size_t u = 0;
	while (u + 1 < sizeof(units) / sizeof(units[0]) && bytes >= 1024 &&
	       fmod(bytes, 1024) == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, "%.0f %s", bytes, units[u]);
}

double cpu_suite_uniform(uint64_t i, uint64_t seed)
{
	/* splitmix64 (Steele, Lea and Flood, 2014) of the index and seed */
	uint64_t z = i + seed * 0x9E3779B97F4A7C15ULL + 0x9E3779B97F4A7C15ULL;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	z ^= z >> 31;
	return (double)(z >> 11) * 0x1p-52 - 1.0;
}

double cpu_suite_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

struct timed {
	cpu_kernel_fn kernel;
	void *ctx;
	long iterations;
};

static int timed_rep(void *ctx, double *seconds, char *why, size_t len)
{
	struct timed *t = ctx;
	double start = cpu_suite_now();
	if (t->kernel(t->ctx, t->iterations, why, len) < 0)
		return -1;
	*seconds = cpu_suite_now() - start;
	return 0;
}

/*
 * Doubles t->iterations until a repetition lasts target / 2 three times
 * running (one slow run, a thread descheduled on a busy machine, must not
 * settle the count at 1 for a kernel that takes a microsecond), and twice
 * the count takes at least 1.5 times as long: a fixed cost (an OpenMP
 * team still spinning up took 8 ms whatever the count) is not the
 * kernel, and settling on it once gave a 16 KiB copy at 1.4 MB/s.  A run
 * past 50 x target settles it at once: nothing that long is a fluke.
 */
static int calibrate(struct timed *t, double target_s, char *why, size_t len)
{
	double s = 0;
	/* one untimed call: the thread team and the pages exist before any
	 * timing decides anything */
	t->iterations = 1;
	if (timed_rep(t, &s, why, len) < 0)
		return -1;
	for (; t->iterations < MAX_ITERATIONS; t->iterations *= 2) {
		int long_runs = 0;
		while (long_runs < 3) {
			if (timed_rep(t, &s, why, len) < 0)
				return -1;
			if (s < target_s / 2 || s > 50 * target_s)
				break;
			long_runs++;
		}
		if (s > 50 * target_s)
			return 0;
		if (long_runs < 3)
			continue;
		double twice;
		t->iterations *= 2;
		int rc = timed_rep(t, &twice, why, len);
		t->iterations /= 2;
		if (rc < 0)
			return -1;
		if (twice >= 1.5 * s)
			return 0;
	}
	return 0;
}

/* Waking the team: an empty parallel region, median of 101. */
static double team_wake(int threads)
{
	double t[101];
	for (int i = -5; i < 101; i++) {	/* 5 untimed: the team exists */
		double s = cpu_suite_now();
#pragma omp parallel num_threads(threads)
		{
			atomic_signal_fence(memory_order_seq_cst);
		}
		if (i >= 0)
			t[i] = cpu_suite_now() - s;
	}
	for (int i = 1; i < 101; i++)	/* insertion sort: 101 values */
		for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
			double x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	return t[50];
}

double cpu_suite_repetition_floor(const struct cpu_suite_options *o,
				  double *resolution, double *wake)
{
	/* measured once per thread count: the clock and the team do not
	 * change within a run */
	static int seen_threads = -1;
	static double seen_res, seen_wake;
	int threads = cpu_suite_threads(o);
	if (threads != seen_threads) {
		struct timespec r;
		seen_res = clock_getres(CLOCK_MONOTONIC, &r) == 0
			? (double)r.tv_sec + (double)r.tv_nsec * 1e-9 : 1e-6;
		seen_wake = team_wake(threads);
		seen_threads = threads;
	}
	if (resolution)
		*resolution = seen_res;
	if (wake)
		*wake = seen_wake;
	/* calibrate() settles at half the target: twice the multiples */
	double target = o->quick ? 1e-3 : 2e-3;
	return fmax(target, fmax(2000 * seen_res, 200 * seen_wake));
}

int cpu_suite_measure_sustained(const struct cpu_suite_options *o,
				cpu_kernel_fn kernel, void *ctx,
				double work_per_call, double sustain_s,
				struct bench_figure *f, char *why, size_t len)
{
	struct sustain_policy p = sustain_policy_of(sustain_s);
	struct timed t = {kernel, ctx, 1};
	if (calibrate(&t, cpu_suite_repetition_floor(o, NULL, NULL), why, len) < 0)
		return -1;
	f->iterations = t.iterations;
	f->threads = cpu_suite_threads(o);
	f->work = work_per_call * (double)t.iterations;
	int rc = host_quiet_sustained(&p, timed_rep, &t, f->threads, &f->time,
				      f->disturbed, sizeof(f->disturbed), why,
				      len);
	bench_figure_rate(f);
	return rc;
}

int cpu_suite_measure(const struct cpu_suite_options *o, cpu_kernel_fn kernel,
		      void *ctx, double work_per_call, struct bench_figure *f,
		      char *why, size_t len)
{
	struct measure_policy p = cpu_suite_effective_policy(o);
	struct timed t = {kernel, ctx, 1};
	if (calibrate(&t, cpu_suite_repetition_floor(o, NULL, NULL), why, len) < 0)
		return -1;
	f->iterations = t.iterations;
	f->threads = cpu_suite_threads(o);
	f->work = work_per_call * (double)t.iterations;
	int rc = host_quiet_measure(&p, timed_rep, &t, f->threads, &f->time,
				    f->disturbed, sizeof(f->disturbed), why, len);
	bench_figure_rate(f);
	return rc;
}

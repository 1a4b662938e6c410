/*
 * cpu_suite.c - options, policy and the measuring loop shared by the CPU
 * suites; see cpu_suite.h.
 */
#include "cpu_suite.h"

#include <math.h>
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

int cpu_suite_measure(const struct cpu_suite_options *o, cpu_kernel_fn kernel,
		      void *ctx, double work_per_call, struct bench_figure *f,
		      char *why, size_t len)
{
	struct measure_policy p = cpu_suite_effective_policy(o);
	struct timed t = {kernel, ctx, 1};
	if (calibrate(&t, o->quick ? 1e-3 : 2e-3, why, len) < 0)
		return -1;
	f->iterations = t.iterations;
	f->threads = cpu_suite_threads(o);
	f->work = work_per_call * (double)t.iterations;
	int rc = host_quiet_measure(&p, timed_rep, &t, f->threads, &f->time,
				    f->disturbed, sizeof(f->disturbed), why, len);
	bench_figure_rate(f);
	return rc;
}

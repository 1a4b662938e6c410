/*
 * cpu_suite.h - what the CPU backend's suites (cpu_gemm, cpu_membw,
 * cpu_transfer) share: their options, their default repetition policy and
 * the loop that turns a kernel into a measured figure.
 *
 * A suite appends one struct bench_figure per size it measures to a
 * caller's struct bench_figures; on an error it returns -1 with a reason
 * and keeps the figures measured before it.  A kernel whose output is
 * wrong after timing is an error, not a figure.
 *
 * Ownership: nothing here allocates; figures are owned by the list they
 * are pushed to (see profile/figure.h).
 */
#ifndef GPUPLAN_BENCH_CPU_SUITE_H
#define GPUPLAN_BENCH_CPU_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/measure.h"
#include "profile/figure.h"

struct cpu_suite_options {
	int threads;	/* <= 0: as many as OpenMP would use (online CPUs) */
	bool quick;	/* fewer sizes, shorter repetitions and time caps */
	const struct measure_policy *policy;	/* NULL: cpu_suite_policy(quick) */
};

/*
 * The suites' default policy.  Full: 1 warm-up, 10 to 1000 repetitions,
 * 2%, 0.25 s per figure; quick: 1 warm-up, 6 to 200, 2%, 0.05 s.  The cap
 * is per figure and tighter than measure_policy_default()'s 5 s because a
 * suite measures dozens of figures and the whole CPU suite has a minute.
 */
struct measure_policy cpu_suite_policy(bool quick);

/* The policy the options select. */
struct measure_policy cpu_suite_effective_policy(const struct cpu_suite_options *o);

/* What the suites' measure functions (cpu_gemm_measure,
 * cpu_membw_measure, cpu_transfer_measure) return besides 0: a fault the
 * backend records and goes on from (profile/fault.h), or CPU_MEASURE_FAILED,
 * which ends the suite. */
enum {
	CPU_MEASURE_FAILED = -1,	/* anything else; why says what */
	CPU_MEASURE_NO_MEMORY = -2,	/* the buffers could not be allocated */
	CPU_MEASURE_WRONG = -3,		/* the kernel's output did not check out */
};

/* Threads the kernels will run on: o->threads, or OpenMP's default. */
int cpu_suite_threads(const struct cpu_suite_options *o);

/* "16 KiB", "256 MiB", "1 GiB": bytes in the largest binary unit that
 * divides them exactly (bytes below 1 KiB or not a whole KiB: "B"). */
void cpu_suite_size_name(double bytes, char *buf, size_t len);

/* Element i of a seeded uniform draw in [-1, 1), 53 bits of it (a
 * splitmix64 hash of i and seed): GEMM inputs whose every mantissa bit
 * varies, as real activations and weights do, and the same on every run. */
double cpu_suite_uniform(uint64_t i, uint64_t seed);

/* Seconds on the monotonic clock. */
double cpu_suite_now(void);

/* Runs the kernel `iterations` times back to back.  Returns 0, or -1
 * with why. */
typedef int (*cpu_kernel_fn)(void *ctx, long iterations, char *why,
			     size_t len);

/*
 * The repetition target: 1 ms quick, 2 ms full, or more where the clock or
 * the thread team needs it: a thousand times the monotonic clock's
 * resolution (clock_getres) and a hundred times what waking the OpenMP
 * team costs (an empty parallel region, the median of 101), so that
 * neither is more than 0.1% or 1% of a repetition.  *resolution and *wake
 * (either may be NULL) get those two, s; they are measured once per
 * thread count.
 */
double cpu_suite_repetition_floor(const struct cpu_suite_options *o,
				  double *resolution, double *wake);

/*
 * Measures one figure: first doubles the kernel calls per repetition until
 * a repetition lasts at least half the repetition target
 * (cpu_suite_repetition_floor(): short kernels are otherwise lost in the
 * clock's resolution and the OpenMP fork), then runs the policy, each repetition timed with the
 * monotonic clock.  Fills f->iterations, f->threads, f->work (work_per_call
 * times iterations), f->time and the rate, and f->disturbed when the host
 * kept disturbing it (host_quiet_measure()); the rest of f is the
 * caller's.
 * Returns 0, or -1 with why (f->time then holds what ran).
 */
int cpu_suite_measure(const struct cpu_suite_options *o, cpu_kernel_fn kernel,
		      void *ctx, double work_per_call, struct bench_figure *f,
		      char *why, size_t len);

/*
 * The same with the sustained loop (measure.h): the calibration above,
 * then `sustain_s` seconds, the first half settling, each repetition of
 * the second kept.  For the training suites.
 */
int cpu_suite_measure_sustained(const struct cpu_suite_options *o,
				cpu_kernel_fn kernel, void *ctx,
				double work_per_call, double sustain_s,
				struct bench_figure *f, char *why, size_t len);

#endif

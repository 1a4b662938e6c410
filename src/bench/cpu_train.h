/*
 * cpu_train.h - the CPU's side of the training suites (train_suite.h):
 * one of the model's GEMMs as cuBLAS would be called with it
 * (train_shapes.h: column-major, the framework's transposes) through
 * OpenBLAS at fp32 or fp64, on inputs drawn uniform in [-1, 1), sustained
 * (cpu_suite_measure_sustained); optionally beside a thread that copies
 * memory the whole time, the CPU's stand-in for a collective running
 * beside a GPU's GEMM (it contends for memory bandwidth and a core, not
 * for SMs).
 *
 * After timing, five elements of C are compared with a dot product in
 * double, within k ulps of the precision times the sum of the terms'
 * magnitudes (cpu_gemm_check's bound).
 *
 * Ownership: figures go to the caller's list; a copier is the caller's to
 * stop.
 */
#ifndef GPUPLAN_BENCH_CPU_TRAIN_H
#define GPUPLAN_BENCH_CPU_TRAIN_H

#include <stddef.h>

#include "bench/cpu_gemm.h"
#include "bench/cpu_suite.h"
#include "bench/train_shapes.h"
#include "profile/figure.h"

/* A thread copying between two buffers of `bytes` until stopped. */
struct cpu_copier;

/* Starts one; NULL with why when its buffers cannot be had. */
struct cpu_copier *cpu_copier_start(size_t bytes, char *why, size_t len);

/* Stops and frees c; returns the rate it copied at, B/s (bytes copied
 * once per copy, as the transfer suite counts them). */
double cpu_copier_stop(struct cpu_copier *c);

/*
 * Measures g at precision p into f (named by the caller; this fills the
 * timing, rate and threads) for sustain_s seconds and appends it to out.
 * Returns 0, or CPU_MEASURE_NO_MEMORY, CPU_MEASURE_WRONG or
 * CPU_MEASURE_FAILED with why (cpu_suite.h).
 */
int cpu_train_gemm(enum gemm_precision p, const struct train_gemm *g,
		   const struct cpu_suite_options *o, double sustain_s,
		   struct bench_figure *f, struct bench_figures *out,
		   char *why, size_t len);

/* The check above on column-major C = op(A) op(B) as g describes it (a
 * and b as stored); 0, or -1 naming the element. */
int cpu_train_check(enum gemm_precision p, const struct train_gemm *g,
		    const void *a, const void *b, const void *c, char *why,
		    size_t len);

#endif

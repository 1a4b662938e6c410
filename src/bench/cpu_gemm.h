/*
 * cpu_gemm.h - the CPU backend's GEMM suite: C = A B through OpenBLAS
 * (cblas_dgemm for fp64, cblas_sgemm for fp32), square, row-major,
 * alpha 1, beta 0.
 *
 * Work is 2*m*n*k FLOPs per call, whatever the library does inside.  The
 * sweep doubles the size from 256 up to 4096 (quick: 1024) and stops
 * early once the rate stops growing (a size within 3% of the one before,
 * from the third size on: fit's saturating curve needs three points) or
 * the next size would need more than 0.5 s a call (quick: 0.1 s),
 * since a 2-core machine cannot afford 12 repetitions of a 4096 GEMM
 * within the suite's minute.  The thread count goes to OpenBLAS with
 * openblas_set_num_threads, which is process-wide: the suite leaves it set.
 * After timing, a few elements of C are compared with a dot product
 * computed here in double.
 *
 * Ownership: figures go to the caller's list.
 */
#ifndef GPUPLAN_BENCH_CPU_GEMM_H
#define GPUPLAN_BENCH_CPU_GEMM_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/cpu_suite.h"
#include "profile/figure.h"

enum gemm_precision { GEMM_FP64, GEMM_FP32 };

/* "fp64", "fp32". */
const char *gemm_precision_name(enum gemm_precision p);

/* The sweep's sizes, smallest first: 256, 512, ... 4096 (quick: 1024).
 * Returns how many. */
size_t cpu_gemm_sizes(bool quick, long *sizes, size_t max);

/* Measures one n x n x n GEMM and appends its figure.  Returns 0, or with
 * why CPU_MEASURE_NO_MEMORY (allocation failed), CPU_MEASURE_WRONG (the
 * result is wrong) or CPU_MEASURE_FAILED (cpu_suite.h). */
int cpu_gemm_measure(enum gemm_precision p, long n,
		     const struct cpu_suite_options *o,
		     struct bench_figures *out, char *why, size_t len);

/* True when a sweep ends after figure f, the sweep's `measured`th, whose
 * rate follows last_rate (0 for the first size): the plateau (from the
 * third size on) or the per-call cap above. */
bool cpu_gemm_sweep_stops(const struct cpu_suite_options *o,
			  const struct bench_figure *f, double last_rate,
			  size_t measured);

/* fp64 then fp32, each swept as above. */
int cpu_gemm_suite(const struct cpu_suite_options *o,
		   struct bench_figures *out, char *why, size_t len);

/*
 * The spot check: five elements of c (n x n, row-major, double or float
 * as p says, like a and b) against the dot product of A's row and B's
 * column in double, within n ulps of the precision times the sum of the
 * terms' magnitudes (the worst-case bound of any summation order).
 * Returns 0, or -1 with the element in why.
 */
int cpu_gemm_check(enum gemm_precision p, long n, const void *a,
		   const void *b, const void *c, char *why, size_t len);

#endif

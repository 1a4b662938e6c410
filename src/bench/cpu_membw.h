/*
 * cpu_membw.h - the CPU backend's memory bandwidth suite: STREAM's four
 * kernels swept from inside the L1 cache to well past the last level.
 *
 *   copy   a[i] = b[i]             2 arrays x 8 B x n per call
 *   scale  a[i] = s * b[i]         2 arrays x 8 B x n
 *   add    a[i] = b[i] + c[i]      3 arrays x 8 B x n
 *   triad  a[i] = b[i] + s * c[i]  3 arrays x 8 B x n
 *
 * Bytes are counted as STREAM counts them: each array read or written once
 * per element, 8-byte doubles; write-allocate traffic (the read of a line
 * about to be written, which most caches do) is not counted, so a figure
 * past the last-level cache understates the bus traffic by up to a third
 * for copy and scale and a quarter for add and triad, exactly as STREAM's.
 *
 * A size in the sweep is the footprint of the three arrays of n doubles
 * allocated for it (n = footprint / 24): that, not one array, is what has
 * to fit in a cache for a kernel to run from it.  The kernels run on the
 * options' thread count with OpenMP, static schedule; the arrays are
 * first touched by the same threads in the same layout, so on a NUMA
 * machine each thread's part lies in its own node.  After timing, every
 * element of the output is checked against the kernel's definition.
 *
 * Ownership: figures go to the caller's list; nothing else is returned.
 */
#ifndef GPUPLAN_BENCH_CPU_MEMBW_H
#define GPUPLAN_BENCH_CPU_MEMBW_H

#include <stddef.h>
#include <stdint.h>

#include "bench/cpu_info.h"
#include "bench/cpu_suite.h"
#include "profile/figure.h"

enum membw_kernel { MEMBW_COPY, MEMBW_SCALE, MEMBW_ADD, MEMBW_TRIAD, MEMBW_KERNELS };

/* The scalar s of scale and triad (STREAM's 3.0). */
#define MEMBW_SCALAR 3.0

/* "copy", "scale", "add", "triad". */
const char *membw_kernel_name(enum membw_kernel k);

/* Arrays a call reads or writes: 2 for copy and scale, 3 for add and triad. */
int membw_kernel_arrays(enum membw_kernel k);

/*
 * The sweep's footprints, bytes, smallest first, into sizes[0..max):
 * 16 KiB times powers of 4 up to the smallest footprint resident in
 * memory (profile/stream_rule.h, for a last-level cache of llc_bytes, 0
 * when unknown), that footprint, then twice and four times it: three
 * footprints in memory, so that fit can draw the memory's rate through
 * them alone.  A footprint of the tail above a quarter of mem_bytes (the
 * machine's memory; 0 when unknown drops the tail) is left out: room for
 * the rest of the machine, an assumption.  Quick keeps three: 16 KiB (in
 * L1), 1 MiB (in L2 or L3) and the first footprint in memory.  Returns
 * how many were written.
 */
size_t cpu_membw_sizes(bool quick, uint64_t llc_bytes, uint64_t mem_bytes,
		       uint64_t *sizes, size_t max);

/*
 * Measures the given kernels (bit 1 << enum membw_kernel each) at one
 * footprint, appending one figure per kernel.  Returns 0, or with why
 * CPU_MEASURE_NO_MEMORY (the arrays could not be allocated: no kernel
 * ran), CPU_MEASURE_WRONG (a kernel failed its check: the kernels before
 * it have their figures) or CPU_MEASURE_FAILED (cpu_suite.h).
 */
int cpu_membw_measure(unsigned kernels, uint64_t footprint,
		      const struct cpu_suite_options *o,
		      struct bench_figures *out, char *why, size_t len);

/* The whole suite: every kernel at every footprint of cpu_membw_sizes
 * for this machine's last-level cache and memory (cpu_info). */
int cpu_membw_suite(const struct cpu_suite_options *o,
		    struct bench_figures *out, char *why, size_t len);

/*
 * The self-check: a[i] against kernel k's definition over b and c for
 * every i < n (the arithmetic is exact for the values the suite uses, so
 * the comparison is exact).  Returns 0, or -1 with the first wrong
 * element in why.
 */
int cpu_membw_check(enum membw_kernel k, const double *a, const double *b,
		    const double *c, size_t n, char *why, size_t len);

#endif

/*
 * cpu_transfer.h - the CPU backend's transfer suite: memcpy within host
 * memory, swept 4 KiB to 1 GiB in powers of 4 (quick: 4 KiB, 1 MiB,
 * 256 MiB).
 *
 * Bytes are counted as the bytes copied, once: a 64 MiB copy is 64 MiB of
 * work, though the memory system reads 64 MiB and writes 64 MiB (plus
 * write-allocate reads); this is how memcpy and host-to-device figures are
 * usually quoted, so the CPU's figure reads against a GPU's transfers.
 *
 * With several threads each copies its own contiguous part (static
 * layout, first touched by the same thread).  The destination is compared
 * with the source after timing.
 *
 * Ownership: figures go to the caller's list.
 */
#ifndef GPUPLAN_BENCH_CPU_TRANSFER_H
#define GPUPLAN_BENCH_CPU_TRANSFER_H

#include <stddef.h>
#include <stdint.h>

#include "bench/cpu_suite.h"
#include "profile/figure.h"

/* The sweep's sizes, bytes, smallest first; returns how many. */
size_t cpu_transfer_sizes(bool quick, uint64_t *sizes, size_t max);

/* Measures memcpy of `bytes` and appends its figure.  Returns 0, or with
 * why CPU_MEASURE_NO_MEMORY (allocation failed), CPU_MEASURE_WRONG (the
 * copy is wrong) or CPU_MEASURE_FAILED (cpu_suite.h). */
int cpu_transfer_measure(uint64_t bytes, const struct cpu_suite_options *o,
			 struct bench_figures *out, char *why, size_t len);

/* Every size of cpu_transfer_sizes. */
int cpu_transfer_suite(const struct cpu_suite_options *o,
		       struct bench_figures *out, char *why, size_t len);

/* The self-check: dst[0..n) equals src.  Returns 0, or -1 with the first
 * differing byte in why. */
int cpu_transfer_check(const unsigned char *dst, const unsigned char *src,
		       size_t n, char *why, size_t len);

#endif

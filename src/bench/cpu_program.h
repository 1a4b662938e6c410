/*
 * cpu_program.h - runs a lowered model step (program_abi.h) on the CPU:
 * GEMMs through OpenBLAS (cblas_sgemm, or dgemm for fp64), STREAM and
 * ROWNORM kernels as OpenMP loops.  The CUDA plugin runs the same programs
 * on a GPU; timing is the caller's (bench/cpu_suite.h), as for every CPU
 * figure.
 *
 * Memory: prepare adds up every buffer (and nothing else: the kernels need
 * no workspace) and refuses with BENCH_OUT_OF_MEMORY, allocating nothing,
 * when that exceeds memory_limit; a malloc that fails below the limit is
 * also BENCH_OUT_OF_MEMORY.  Every page is written at prepare (by the
 * threads that will use it), so the bytes counted are resident.
 *
 * Ownership: a struct cpu_program owns its buffers and a copy of the
 * kernels; the bench_program passed to prepare is not kept.
 */
#ifndef GPUPLAN_BENCH_CPU_PROGRAM_H
#define GPUPLAN_BENCH_CPU_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "bench/program_abi.h"

struct cpu_program;

/*
 * Checks p (precision fp32 or fp64, every buffer index in range, every
 * kernel's reads and writes inside its buffers, positive sizes, at most
 * one writer per buffer, no kernel reading the buffer it writes or one a
 * later kernel writes), then allocates and fills the buffers.  threads:
 * the OpenMP team and OpenBLAS thread count; <= 0 means OpenMP's default.
 * Returns an enum bench_status: BENCH_OK with *out and *bytes (the
 * buffers' total), BENCH_OUT_OF_MEMORY, BENCH_UNSUPPORTED (a
 * precision other than fp32/fp64, or a GEMM dimension over cblas's int),
 * or BENCH_ERROR with why (a malformed program names the kernel's label).
 */
int cpu_program_prepare(const struct bench_program *p, uint64_t memory_limit,
			int threads, struct cpu_program **out, uint64_t *bytes,
			char *why, size_t len);

/* Runs every kernel in order, `iterations` times.  BENCH_OK or
 * BENCH_ERROR with why. */
int cpu_program_run(struct cpu_program *c, long iterations, char *why,
		    size_t len);

/* After a run: recomputes sampled output elements of the last kernel of
 * each kind directly (a program is single-assignment, program_abi.h) and
 * compares (relative 1e-4 for fp32, 1e-10 for fp64).  BENCH_OK, or
 * BENCH_ERROR naming the kernel's label and the element. */
int cpu_program_check(struct cpu_program *c, char *why, size_t len);

/* Buffer `index` of a prepared program (NULL when out of range): elements
 * of the program's precision (float or double), owned by c.  For tests:
 * reading outputs after a run, writing known inputs before one, or
 * corrupting an output to see cpu_program_check refuse it. */
void *cpu_program_buffer(struct cpu_program *c, uint32_t index);

void cpu_program_free(struct cpu_program *c);

#endif

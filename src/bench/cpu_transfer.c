/*
 * cpu_transfer.c - memcpy sweep; see cpu_transfer.h.
 */
#include "cpu_transfer.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_SIZE (4ull << 10)	/* 4 KiB */
#define LAST_SIZE (1ull << 30)	/* 1 GiB */
#define ALIGN 64

size_t cpu_transfer_sizes(bool quick, uint64_t *sizes, size_t max)
{
	static const uint64_t q[] = {FIRST_SIZE, 1ull << 20, 256ull << 20};
	size_t n = 0;
	if (quick) {
		for (; n < 3 && n < max; n++)
			sizes[n] = q[n];
		return n;
	}
	for (uint64_t s = FIRST_SIZE; s <= LAST_SIZE && n < max; s *= 4)
		sizes[n++] = s;
	return n;
}

int cpu_transfer_check(const unsigned char *dst, const unsigned char *src,
		       size_t n, char *why, size_t len)
{
	if (memcmp(dst, src, n) == 0)
		return 0;
	size_t i = 0;
	while (dst[i] == src[i])
		i++;
	snprintf(why, len, "memcpy: byte %zu is %u after timing, want %u", i,
		 dst[i], src[i]);
	return -1;
}

struct buffers {
	unsigned char *src, *dst;
	size_t n;
	int threads;
};

/* Thread t's part of n bytes: [*lo, *hi), contiguous, in thread order. */
static void part(size_t n, int t, int threads, size_t *lo, size_t *hi)
{
	size_t q = n / (size_t)threads, r = n % (size_t)threads, ut = (size_t)t;
	*lo = q * ut + (ut < r ? ut : r);
	*hi = *lo + q + (ut < r);
}

static void init_buffers(struct buffers *w)
{
#pragma omp parallel num_threads(w->threads)
	{
		size_t lo, hi;
		part(w->n, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
		for (size_t i = lo; i < hi; i++)
			w->src[i] = (unsigned char)(i * 131 + 7);
		memset(w->dst + lo, 0, hi - lo);
	}
}

static int run_copy(void *ctx, long iterations, char *why, size_t len)
{
	(void)why;
	(void)len;
	struct buffers *w = ctx;
#pragma omp parallel num_threads(w->threads)
	{
		size_t lo, hi;
		part(w->n, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
		for (long it = 0; it < iterations; it++) {
			memcpy(w->dst + lo, w->src + lo, hi - lo);
			atomic_signal_fence(memory_order_seq_cst);
		}
	}
	return 0;
}

int cpu_transfer_measure(uint64_t bytes, const struct cpu_suite_options *o,
			 struct bench_figures *out, char *why, size_t len)
{
	struct buffers w = {.n = (size_t)bytes, .threads = cpu_suite_threads(o)};
	size_t alloc = (w.n + ALIGN - 1) / ALIGN * ALIGN;
	w.src = aligned_alloc(ALIGN, alloc ? alloc : ALIGN);
	w.dst = aligned_alloc(ALIGN, alloc ? alloc : ALIGN);
	struct bench_figure f = {.suite = "transfer", .kernel = "memcpy",
				 .unit = "B/s", .bytes = (double)bytes};
	char size[32];
	int rc = -1;
	if (!w.src || !w.dst) {
		snprintf(why, len, "memcpy: cannot allocate 2 buffers of %zu bytes", w.n);
		rc = CPU_MEASURE_NO_MEMORY;
		goto out;
	}
	init_buffers(&w);
	cpu_suite_size_name((double)bytes, size, sizeof(size));
	snprintf(f.name, sizeof(f.name), "memcpy %s", size);
	rc = cpu_suite_measure(o, run_copy, &w, (double)bytes, &f, why, len);
	if (rc == 0 && cpu_transfer_check(w.dst, w.src, w.n, why, len) < 0)
		rc = CPU_MEASURE_WRONG;
	if (rc == 0)
		bench_figures_push(out, &f);
	else
		measure_result_free(&f.time);
out:
	free(w.src);
	free(w.dst);
	return rc;
}

int cpu_transfer_suite(const struct cpu_suite_options *o,
		       struct bench_figures *out, char *why, size_t len)
{
	uint64_t sizes[16];
	size_t n = cpu_transfer_sizes(o->quick, sizes, 16);
	for (size_t i = 0; i < n; i++)
		if (cpu_transfer_measure(sizes[i], o, out, why, len) < 0)
			return -1;
	return 0;
}

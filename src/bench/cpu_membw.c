/*
 * cpu_membw.c - STREAM's kernels swept over cache and memory sizes; see
 * cpu_membw.h.
 */
#include "cpu_membw.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cpu_info.h"
#include "profile/stream_rule.h"

#define MEMBW_FIRST_SIZE (16u << 10)	/* 16 KiB: inside any L1d */
#define MEMBW_QUICK_MID (1u << 20)	/* 1 MiB */
#define ALIGN 64			/* a cache line */

static const char *const names[MEMBW_KERNELS] = {"copy", "scale", "add", "triad"};

const char *membw_kernel_name(enum membw_kernel k)
{
	return k < MEMBW_KERNELS ? names[k] : NULL;
}

int membw_kernel_arrays(enum membw_kernel k)
{
	return k == MEMBW_ADD || k == MEMBW_TRIAD ? 3 : 2;
}

size_t cpu_membw_sizes(bool quick, uint64_t llc_bytes, uint64_t mem_bytes,
		       uint64_t *sizes, size_t max)
{
	uint64_t top = stream_memory_footprint(llc_bytes);
	size_t n = 0;
	if (quick) {
		uint64_t q[] = {MEMBW_FIRST_SIZE, MEMBW_QUICK_MID, top};
		for (size_t i = 0; i < 3 && n < max; i++)
			sizes[n++] = q[i];
		return n;
	}
	for (uint64_t s = MEMBW_FIRST_SIZE; s < top && n < max; s *= 4)
		sizes[n++] = s;
	for (uint64_t s = top; s <= 4 * top && n < max; s *= 2)
		if (s == top || s <= mem_bytes / 4)
			sizes[n++] = s;
	return n;
}

/* The suite's input values: small integers and quarters, so that s * b,
 * b + c and b + s * c are exact in double and the check can be exact. */
static double b_value(size_t i) { return (double)(i % 1000); }
static double c_value(size_t i) { return (double)(i % 997) * 0.25; }

static double expected(enum membw_kernel k, double b, double c)
{
	switch (k) {
	case MEMBW_COPY:	return b;
	case MEMBW_SCALE:	return MEMBW_SCALAR * b;
	case MEMBW_ADD:		return b + c;
	default:		return b + MEMBW_SCALAR * c;
	}
}

int cpu_membw_check(enum membw_kernel k, const double *a, const double *b,
		    const double *c, size_t n, char *why, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		double want = expected(k, b[i], c[i]);
		if (a[i] != want) {
			snprintf(why, len, "%s: a[%zu] = %g after timing, want %g",
				 names[k], i, a[i], want);
			return -1;
		}
	}
	return 0;
}

struct arrays {
	double *a, *b, *c;
	size_t n;
	int threads;		/* asked for */
	int ran;		/* the team OpenMP gave (OMP_THREAD_LIMIT may cap it) */
	enum membw_kernel k;
};

/* Rounded up to whole lines, as aligned_alloc requires. */
static double *alloc_array(size_t n)
{
	size_t bytes = (n * sizeof(double) + ALIGN - 1) / ALIGN * ALIGN;
	return aligned_alloc(ALIGN, bytes ? bytes : ALIGN);
}

/* First touch: each thread writes the part the kernels will give it. */
static void init_arrays(struct arrays *w)
{
	double *a = w->a, *b = w->b, *c = w->c;
	size_t n = w->n;
#pragma omp parallel for simd schedule(simd: static) num_threads(w->threads)
	for (size_t i = 0; i < n; i++) {
		a[i] = -1;
		b[i] = b_value(i);
		c[i] = c_value(i);
	}
}

/*
 * The kernel `iterations` times in one parallel region.  Every call gives
 * each thread the same elements (same n, same static schedule), so no
 * barrier is needed between calls (nowait); the fence keeps the compiler
 * from merging calls that store the same values.
 */
static int run_kernel(void *ctx, long iterations, char *why, size_t len)
{
	(void)why;
	(void)len;
	struct arrays *w = ctx;
	double *restrict a = w->a;
	const double *restrict b = w->b, *restrict c = w->c;
	const double s = MEMBW_SCALAR;
	size_t n = w->n;
	enum membw_kernel k = w->k;
#pragma omp parallel num_threads(w->threads)
	{
#pragma omp single nowait
	w->ran = omp_get_num_threads();
	for (long it = 0; it < iterations; it++) {
		switch (k) {
		case MEMBW_COPY:
#pragma omp for simd schedule(simd: static) nowait
			for (size_t i = 0; i < n; i++)
				a[i] = b[i];
			break;
		case MEMBW_SCALE:
#pragma omp for simd schedule(simd: static) nowait
			for (size_t i = 0; i < n; i++)
				a[i] = s * b[i];
			break;
		case MEMBW_ADD:
#pragma omp for simd schedule(simd: static) nowait
			for (size_t i = 0; i < n; i++)
				a[i] = b[i] + c[i];
			break;
		default:
#pragma omp for simd schedule(simd: static) nowait
			for (size_t i = 0; i < n; i++)
				a[i] = b[i] + s * c[i];
			break;
		}
		atomic_signal_fence(memory_order_seq_cst);
	}
	}
	return 0;
}

static int measure_kernel(struct arrays *w, enum membw_kernel k,
			  uint64_t footprint, const struct cpu_suite_options *o,
			  struct bench_figures *out, char *why, size_t len)
{
	struct bench_figure f = {.suite = "membw", .unit = "B/s",
				 .bytes = (double)footprint,
				 .elements = (double)w->n};
	char size[32];
	cpu_suite_size_name((double)footprint, size, sizeof(size));
	snprintf(f.name, sizeof(f.name), "%s %s", names[k], size);
	snprintf(f.kernel, sizeof(f.kernel), "%s", names[k]);
	w->k = k;
	double bytes_per_call = (double)membw_kernel_arrays(k) * sizeof(double) * (double)w->n;
	int rc = cpu_suite_measure(o, run_kernel, w, bytes_per_call, &f, why, len);
	if (rc == 0 && cpu_membw_check(k, w->a, w->b, w->c, w->n, why, len) < 0)
		rc = CPU_MEASURE_WRONG;
	f.threads = w->ran;	/* the threads that ran, not the ask */
	if (rc < 0) {
		measure_result_free(&f.time);
		return rc;
	}
	bench_figures_push(out, &f);
	return 0;
}

int cpu_membw_measure(unsigned kernels, uint64_t footprint,
		      const struct cpu_suite_options *o,
		      struct bench_figures *out, char *why, size_t len)
{
	struct arrays w = {.n = footprint / (3 * sizeof(double)),
			   .threads = cpu_suite_threads(o)};
	w.a = alloc_array(w.n);
	w.b = alloc_array(w.n);
	w.c = alloc_array(w.n);
	int rc = 0;
	if (!w.a || !w.b || !w.c) {
		snprintf(why, len, "membw: cannot allocate 3 arrays of %zu bytes",
			 w.n * sizeof(double));
		rc = CPU_MEASURE_NO_MEMORY;
		goto out;
	}
	init_arrays(&w);
	/* a kernel whose output is wrong costs its own figure: the others
	 * still run (each writes a from b and c afresh), the first reason is
	 * kept */
	for (int k = 0; k < MEMBW_KERNELS && rc != CPU_MEASURE_FAILED; k++) {
		if (!(kernels & (1u << k)))
			continue;
		char said[256];
		int st = measure_kernel(&w, (enum membw_kernel)k, footprint, o,
					out, rc ? said : why, rc ? sizeof(said) : len);
		if (st == CPU_MEASURE_FAILED && rc)
			snprintf(why, len, "%s", said);
		if (st != 0 && (rc == 0 || st == CPU_MEASURE_FAILED))
			rc = st;
	}
out:
	free(w.a);
	free(w.b);
	free(w.c);
	return rc;
}

int cpu_membw_suite(const struct cpu_suite_options *o,
		    struct bench_figures *out, char *why, size_t len)
{
	struct cpu_info ci;
	cpu_info_read(&ci);
	uint64_t sizes[32];
	size_t n = cpu_membw_sizes(o->quick, stream_llc_bytes(&ci),
				   (ci.valid & CPU_INFO_HAS_MEMORY) ? ci.memory_bytes : 0,
				   sizes, 32);
	for (size_t i = 0; i < n; i++)
		if (cpu_membw_measure((1u << MEMBW_KERNELS) - 1, sizes[i], o, out,
				      why, len) < 0)
			return -1;
	return 0;
}

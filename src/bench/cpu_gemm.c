/*
 * cpu_gemm.c - GEMM through OpenBLAS, swept to the plateau; see
 * cpu_gemm.h.
 */
#include "cpu_gemm.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define FIRST_SIZE 256
#define LAST_SIZE 4096
#define QUICK_LAST_SIZE 1024
#define PLATEAU 1.03		/* a size no more than 3% faster than the last: stop */
#define PLATEAU_FROM 3	/* sizes before a plateau may stop the sweep */
#define MAX_CALL_S 0.5		/* the next size's predicted call time cap, s */
#define QUICK_MAX_CALL_S 0.1
#define ALIGN 64

/* Declared by OpenBLAS's cblas.h; repeated so that a cblas.h from another
 * BLAS still compiles against libopenblas. */
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);

const char *gemm_precision_name(enum gemm_precision p)
{
	return p == GEMM_FP64 ? "fp64" : "fp32";
}

size_t cpu_gemm_sizes(bool quick, long *sizes, size_t max)
{
	long last = quick ? QUICK_LAST_SIZE : LAST_SIZE;
	size_t n = 0;
	for (long s = FIRST_SIZE; s <= last && n < max; s *= 2)
		sizes[n++] = s;
	return n;
}

/* Inputs uniform in [-1, 1), every mantissa bit drawn (cpu_suite.h): a
 * GEMM of zeros or of a few repeated values runs faster on parts that
 * are power limited than one of real data (measure.h). */
static double input_value(size_t i, unsigned seed)
{
	return cpu_suite_uniform(i, seed);
}

static double element(enum gemm_precision p, const void *m, size_t i)
{
	return p == GEMM_FP64 ? ((const double *)m)[i] : ((const float *)m)[i];
}

int cpu_gemm_check(enum gemm_precision p, long n, const void *a,
		   const void *b, const void *c, char *why, size_t len)
{
	size_t un = (size_t)n;
	size_t at[5][2] = {{0, 0}, {un - 1, un - 1}, {un / 2, un / 3},
			   {un / 3, un - 1}, {un - 1, 0}};
	double eps = p == GEMM_FP64 ? DBL_EPSILON : FLT_EPSILON;
	for (int e = 0; e < 5; e++) {
		size_t i = at[e][0], j = at[e][1];
		double want = 0, mag = 0;
		for (size_t k = 0; k < un; k++) {
			double t = element(p, a, i * un + k) * element(p, b, k * un + j);
			want += t;
			mag += fabs(t);
		}
		double got = element(p, c, i * un + j);
		if (!(fabs(got - want) <= (double)n * eps * mag)) {
			snprintf(why, len, "%s gemm n=%ld: C[%zu][%zu] = %.9g, want %.9g",
				 gemm_precision_name(p), n, i, j, got, want);
			return -1;
		}
	}
	return 0;
}

struct matrices {
	enum gemm_precision p;
	long n;
	void *a, *b, *c;
};

static void *alloc_matrix(enum gemm_precision p, long n)
{
	size_t bytes = (size_t)n * (size_t)n * (p == GEMM_FP64 ? sizeof(double) : sizeof(float));
	return aligned_alloc(ALIGN, (bytes + ALIGN - 1) / ALIGN * ALIGN);
}

/* Filled by the OpenMP team rather than one thread: each page is then
 * first touched, and so placed, on the NUMA node of a thread that works
 * on it, as OpenBLAS's threads will (on one socket it changes nothing). */
static void fill(struct matrices *m, int threads)
{
	size_t count = (size_t)m->n * (size_t)m->n;
#pragma omp parallel for schedule(static) num_threads(threads)
	for (size_t i = 0; i < count; i++) {
		double x = input_value(i, 1), y = input_value(i, 2);
		if (m->p == GEMM_FP64) {
			((double *)m->a)[i] = x;
			((double *)m->b)[i] = y;
			((double *)m->c)[i] = -1;
		} else {
			((float *)m->a)[i] = (float)x;
			((float *)m->b)[i] = (float)y;
			((float *)m->c)[i] = -1;
		}
	}
}

static int run_gemm(void *ctx, long iterations, char *why, size_t len)
{
	(void)why;
	(void)len;
	struct matrices *m = ctx;
	int n = (int)m->n;
	for (long it = 0; it < iterations; it++) {
		if (m->p == GEMM_FP64)
			cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n,
				    1.0, m->a, n, m->b, n, 0.0, m->c, n);
		else
			cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n,
				    1.0f, m->a, n, m->b, n, 0.0f, m->c, n);
	}
	return 0;
}

int cpu_gemm_measure(enum gemm_precision p, long n,
		     const struct cpu_suite_options *o,
		     struct bench_figures *out, char *why, size_t len)
{
	struct matrices m = {p, n, alloc_matrix(p, n), alloc_matrix(p, n),
			     alloc_matrix(p, n)};
	struct bench_figure f = {.suite = "gemm", .unit = "FLOP/s",
				 .m = n, .n = n, .k = n};
	int rc = -1;
	if (!m.a || !m.b || !m.c) {
		snprintf(why, len, "%s gemm: cannot allocate 3 matrices of %ld x %ld",
			 gemm_precision_name(p), n, n);
		rc = CPU_MEASURE_NO_MEMORY;
		goto out;
	}
	fill(&m, cpu_suite_threads(o));
	openblas_set_num_threads(cpu_suite_threads(o));
	snprintf(f.precision, sizeof(f.precision), "%s", gemm_precision_name(p));
	snprintf(f.kernel, sizeof(f.kernel), "%s", p == GEMM_FP64 ? "dgemm" : "sgemm");
	snprintf(f.name, sizeof(f.name), "%s m=n=k=%ld", f.precision, n);
	rc = cpu_suite_measure(o, run_gemm, &m, 2.0 * (double)n * (double)n * (double)n,
			       &f, why, len);
	/* what OpenBLAS runs with, which its build may cap below the ask */
	f.threads = openblas_get_num_threads();
	if (rc == 0 && cpu_gemm_check(p, n, m.a, m.b, m.c, why, len) < 0)
		rc = CPU_MEASURE_WRONG;
	if (rc == 0)
		bench_figures_push(out, &f);
	else
		measure_result_free(&f.time);
out:
	free(m.a);
	free(m.b);
	free(m.c);
	return rc;
}

bool cpu_gemm_sweep_stops(const struct cpu_suite_options *o,
			  const struct bench_figure *f, double last_rate,
			  size_t measured)
{
	double cap = o->quick ? QUICK_MAX_CALL_S : MAX_CALL_S;
	double call_s = f->time.median / (double)f->iterations;
	return (measured >= PLATEAU_FROM && f->value <= last_rate * PLATEAU) ||
	       8 * call_s > cap;
}

/* One precision's sweep, stopping at the plateau or the time cap. */
static int sweep(enum gemm_precision p, const struct cpu_suite_options *o,
		 struct bench_figures *out, char *why, size_t len)
{
	long sizes[16];
	size_t count = cpu_gemm_sizes(o->quick, sizes, 16);
	double last_rate = 0;
	for (size_t i = 0; i < count; i++) {
		if (cpu_gemm_measure(p, sizes[i], o, out, why, len) < 0)
			return -1;
		const struct bench_figure *f = &out->v[out->n - 1];
		if (cpu_gemm_sweep_stops(o, f, last_rate, i + 1))
			break;
		last_rate = f->value;
	}
	return 0;
}

int cpu_gemm_suite(const struct cpu_suite_options *o,
		   struct bench_figures *out, char *why, size_t len)
{
	if (sweep(GEMM_FP64, o, out, why, len) < 0)
		return -1;
	return sweep(GEMM_FP32, o, out, why, len);
}

/*
 * cpu_train.c - the model's GEMMs through OpenBLAS, sustained, and the
 * copier that runs beside them; see cpu_train.h.
 */
#include "bench/cpu_train.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN 64
#define SEED_A 11
#define SEED_B 12

/* Declared by OpenBLAS's cblas.h; repeated as cpu_gemm.c does. */
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);

/* ---- the copier ---- */

struct cpu_copier {
	pthread_t thread;
	atomic_bool stop;
	char *from, *to;
	size_t bytes;
	double copies, start, end;
};

static void *copy_loop(void *arg)
{
	struct cpu_copier *c = arg;
	while (!atomic_load_explicit(&c->stop, memory_order_relaxed)) {
		memcpy(c->to, c->from, c->bytes);
		c->copies++;
	}
	return NULL;
}

struct cpu_copier *cpu_copier_start(size_t bytes, char *why, size_t len)
{
	struct cpu_copier *c = calloc(1, sizeof(*c));
	if (c) {
		c->bytes = bytes;
		c->from = aligned_alloc(ALIGN, bytes);
		c->to = aligned_alloc(ALIGN, bytes);
	}
	if (!c || !c->from || !c->to) {
		snprintf(why, len, "cannot allocate two %zu MiB buffers for the copy thread",
			 bytes >> 20);
		goto fail;
	}
	/* written once, so the copies read resident pages */
	memset(c->from, 0x5a, bytes);
	memset(c->to, 0, bytes);
	atomic_init(&c->stop, false);
	c->start = cpu_suite_now();
	if (pthread_create(&c->thread, NULL, copy_loop, c) != 0) {
		snprintf(why, len, "cannot start the copy thread");
		goto fail;
	}
	return c;
fail:
	if (c) {
		free(c->from);
		free(c->to);
	}
	free(c);
	return NULL;
}

double cpu_copier_stop(struct cpu_copier *c)
{
	if (!c)
		return 0;
	atomic_store(&c->stop, true);
	pthread_join(c->thread, NULL);
	c->end = cpu_suite_now();
	double rate = c->end > c->start ? c->copies * (double)c->bytes / (c->end - c->start) : 0;
	free(c->from);
	free(c->to);
	free(c);
	return rate;
}

/* ---- the GEMM ---- */

struct matrices {
	enum gemm_precision p;
	struct train_gemm g;
	void *a, *b, *c;
};

static size_t elem(enum gemm_precision p)
{
	return p == GEMM_FP64 ? sizeof(double) : sizeof(float);
}

static void *alloc_matrix(enum gemm_precision p, long rows, long cols)
{
	size_t bytes = (size_t)rows * (size_t)cols * elem(p);
	return aligned_alloc(ALIGN, (bytes + ALIGN - 1) / ALIGN * ALIGN);
}

static void fill(enum gemm_precision p, void *m, size_t count, uint64_t seed,
		 int threads)
{
#pragma omp parallel for schedule(static) num_threads(threads)
	for (size_t i = 0; i < count; i++) {
		double x = seed ? cpu_suite_uniform(i, seed) : -1;
		if (p == GEMM_FP64)
			((double *)m)[i] = x;
		else
			((float *)m)[i] = (float)x;
	}
}

static int run(void *ctx, long iterations, char *why, size_t len)
{
	(void)why;
	(void)len;
	struct matrices *x = ctx;
	const struct train_gemm *g = &x->g;
	int m = (int)g->m, n = (int)g->n, k = (int)g->k;
	int lda = g->trans_a ? k : m, ldb = g->trans_b ? n : k;
	enum CBLAS_TRANSPOSE ta = g->trans_a ? CblasTrans : CblasNoTrans;
	enum CBLAS_TRANSPOSE tb = g->trans_b ? CblasTrans : CblasNoTrans;
	for (long it = 0; it < iterations; it++) {
		if (x->p == GEMM_FP64)
			cblas_dgemm(CblasColMajor, ta, tb, m, n, k, 1.0, x->a, lda,
				    x->b, ldb, 0.0, x->c, m);
		else
			cblas_sgemm(CblasColMajor, ta, tb, m, n, k, 1.0f, x->a, lda,
				    x->b, ldb, 0.0f, x->c, m);
	}
	return 0;
}

static double at(enum gemm_precision p, const void *v, size_t i)
{
	return p == GEMM_FP64 ? ((const double *)v)[i] : ((const float *)v)[i];
}

int cpu_train_check(enum gemm_precision p, const struct train_gemm *g,
		    const void *a, const void *b, const void *c, char *why,
		    size_t len)
{
	size_t m = (size_t)g->m, n = (size_t)g->n, k = (size_t)g->k;
	size_t cells[5][2] = {{0, 0}, {m - 1, n - 1}, {m / 2, n / 3},
			      {m / 3, n - 1}, {m - 1, 0}};
	double eps = p == GEMM_FP64 ? DBL_EPSILON : FLT_EPSILON;
	for (int e = 0; e < 5; e++) {
		size_t i = cells[e][0], j = cells[e][1];
		double want = 0, mag = 0;
		for (size_t l = 0; l < k; l++) {
			double x = at(p, a, g->trans_a ? l + i * k : i + l * m);
			double y = at(p, b, g->trans_b ? j + l * n : l + j * k);
			want += x * y;
			mag += fabs(x * y);
		}
		double got = at(p, c, i + j * m);
		if (!(fabs(got - want) <= (double)k * eps * mag)) {
			snprintf(why, len, "%s gemm %ldx%ldx%ld: C[%zu][%zu] = %.9g, want %.9g",
				 gemm_precision_name(p), g->m, g->n, g->k, i, j, got, want);
			return -1;
		}
	}
	return 0;
}

int cpu_train_gemm(enum gemm_precision p, const struct train_gemm *g,
		   const struct cpu_suite_options *o, double sustain_s,
		   struct bench_figure *f, struct bench_figures *out,
		   char *why, size_t len)
{
	int threads = cpu_suite_threads(o);
	struct matrices x = {p, *g, NULL, NULL, NULL};
	x.a = alloc_matrix(p, g->m, g->k);
	x.b = alloc_matrix(p, g->k, g->n);
	x.c = alloc_matrix(p, g->m, g->n);
	int rc = -1;
	if (!x.a || !x.b || !x.c) {
		snprintf(why, len, "%s gemm %ldx%ldx%ld: cannot allocate its matrices",
			 gemm_precision_name(p), g->m, g->n, g->k);
		rc = CPU_MEASURE_NO_MEMORY;
		goto done;
	}
	fill(p, x.a, (size_t)g->m * (size_t)g->k, SEED_A, threads);
	fill(p, x.b, (size_t)g->k * (size_t)g->n, SEED_B, threads);
	fill(p, x.c, (size_t)g->m * (size_t)g->n, 0, threads);
	openblas_set_num_threads(threads);
	rc = cpu_suite_measure_sustained(o, run, &x, 2.0 * (double)g->m *
					 (double)g->n * (double)g->k,
					 sustain_s, f, why, len);
	f->threads = openblas_get_num_threads();
	f->memory_bytes = ((double)g->m * g->k + (double)g->k * g->n +
			   (double)g->m * g->n) * (double)elem(p);
	if (rc == 0 && cpu_train_check(p, g, x.a, x.b, x.c, why, len) < 0)
		rc = CPU_MEASURE_WRONG;
	if (rc == 0)
		bench_figures_push(out, f);
	else
		measure_result_free(&f->time);
done:
	free(x.a);
	free(x.b);
	free(x.c);
	return rc;
}

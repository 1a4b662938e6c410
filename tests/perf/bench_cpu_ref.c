/*
 * bench_cpu_ref - the references tests/perf/bench-accuracy.sh holds the
 * cpu backend against, written as plainly as possible and built with the
 * same flags as gpuplan (same compiler options, -fopenmp, OpenBLAS):
 *
 *   bench_cpu_ref triad FOOTPRINT_BYTES THREADS
 *       STREAM's triad loop (a[j] = b[j] + q*c[j], `omp parallel for`,
 *       static schedule, arrays first touched in parallel), n =
 *       FOOTPRINT / 24 per array, one untimed call then 20 timed calls;
 *       prints the median and the best rate, bytes = 3 x 8 x n per call.
 *   bench_cpu_ref copy FOOTPRINT_BYTES THREADS
 *       STREAM's copy loop (c[j] = a[j]), the same way: bytes = 2 x 8 x n
 *       per call, n = FOOTPRINT / 24 as the backend's membw sizes it.
 *   bench_cpu_ref gemm fp64|fp32 N THREADS
 *       cblas_dgemm/cblas_sgemm called directly in a plain loop: one
 *       untimed call then 10 timed; prints the median rate, 2 N^3 FLOPs.
 *
 * Not a test.
 */
#include <cblas.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void openblas_set_num_threads(int num_threads);

#define TRIAD_CALLS 20
#define GEMM_CALLS 10

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof(double), by_value);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

/* STREAM's triad (a[j] = b[j] + q*c[j], 3 x 8 bytes an element) or copy
 * (c[j] = a[j], 2 x 8): one untimed call, then TRIAD_CALLS timed. */
static int stream(bool is_copy, size_t footprint, int threads)
{
	size_t n = footprint / 24;
	double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)),
	       *c = malloc(n * sizeof(double));
	const double q = 3.0;
	double t[TRIAD_CALLS];
	if (!a || !b || !c)
		return 1;
#pragma omp parallel for schedule(static) num_threads(threads)
	for (size_t j = 0; j < n; j++) {
		a[j] = 1.0;
		b[j] = 2.0;
		c[j] = 0.0;
	}
	for (int k = -1; k < TRIAD_CALLS; k++) {
		double s = now();
		if (is_copy) {
#pragma omp parallel for schedule(static) num_threads(threads)
			for (size_t j = 0; j < n; j++)
				c[j] = a[j];
		} else {
#pragma omp parallel for schedule(static) num_threads(threads)
			for (size_t j = 0; j < n; j++)
				a[j] = b[j] + q * c[j];
		}
		if (k >= 0)
			t[k] = now() - s;
	}
	double bytes = (is_copy ? 2.0 : 3.0) * 8 * (double)n, med = median(t, TRIAD_CALLS);
	printf("ref %s n=%zu: median %.6g s  %.2f GB/s  best %.2f GB/s\n",
	       is_copy ? "copy" : "triad", n, med, bytes / med / 1e9, bytes / t[0] / 1e9);
	int bad = is_copy ? c[n / 2] != 1.0 : a[n / 2] != 2.0;
	free(a);
	free(b);
	free(c);
	return bad;
}

static int gemm(int fp32, int n, int threads)
{
	size_t count = (size_t)n * (size_t)n, size = fp32 ? sizeof(float) : sizeof(double);
	void *a = malloc(count * size), *b = malloc(count * size), *c = malloc(count * size);
	double t[GEMM_CALLS];
	if (!a || !b || !c)
		return 1;
	for (size_t i = 0; i < count; i++) {
		double x = (double)(i % 1000) / 1000, y = (double)(i % 997) / 997;
		if (fp32) {
			((float *)a)[i] = (float)x;
			((float *)b)[i] = (float)y;
		} else {
			((double *)a)[i] = x;
			((double *)b)[i] = y;
		}
	}
	openblas_set_num_threads(threads);
	for (int k = -1; k < GEMM_CALLS; k++) {
		double s = now();
		if (fp32)
			cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n,
				    1.0f, a, n, b, n, 0.0f, c, n);
		else
			cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n,
				    1.0, a, n, b, n, 0.0, c, n);
		if (k >= 0)
			t[k] = now() - s;
	}
	double flops = 2.0 * n * (double)n * n, med = median(t, GEMM_CALLS);
	printf("ref %s n=%d: median %.6g s  %.2f GFLOP/s\n", fp32 ? "fp32" : "fp64",
	       n, med, flops / med / 1e9);
	free(a);
	free(b);
	free(c);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && (strcmp(argv[1], "triad") == 0 || strcmp(argv[1], "copy") == 0))
		return stream(strcmp(argv[1], "copy") == 0, strtoull(argv[2], NULL, 10),
			      atoi(argv[3]));
	if (argc == 5 && strcmp(argv[1], "gemm") == 0)
		return gemm(strcmp(argv[2], "fp32") == 0, atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: bench_cpu_ref triad|copy BYTES THREADS | gemm fp64|fp32 N THREADS\n");
	return 2;
}

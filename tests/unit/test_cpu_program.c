/*
 * test_cpu_program.c - the CPU executor of lowered programs
 * (bench/cpu_program.h): results of tiny GEMM, STREAM and ROWNORM kernels
 * against values computed by hand, the fill, the memory limit, the
 * precisions it refuses, a corpus of malformed programs each refused with
 * its kernel's label, and the check catching a corrupted output.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/cpu_program.h"
#include "check.h"

#define LIMIT (1ull << 30)	/* bytes: far above every program here */
#define THREADS 2

static struct bench_kernel gemm(int a, int b, int c, int64_t m, int64_t n,
				int64_t k, const char *label)
{
	struct bench_kernel g = {.kind = BENCH_KERNEL_GEMM, .a = a, .b = b,
				 .c = c, .m = m, .n = n, .k = k, .count = 1};
	snprintf(g.label, sizeof(g.label), "%s", label);
	return g;
}

static struct bench_kernel stream(int a, int b, int c, int64_t elements,
				  const char *label)
{
	struct bench_kernel s = {.kind = BENCH_KERNEL_STREAM, .a = a, .b = b,
				 .c = c, .elements = elements, .flops = 1};
	snprintf(s.label, sizeof(s.label), "%s", label);
	return s;
}

static struct bench_kernel rownorm(int a, int c, int64_t rows, int64_t cols,
				   const char *label)
{
	struct bench_kernel r = {.kind = BENCH_KERNEL_ROWNORM, .a = a, .b = -1,
				 .c = c, .rows = rows, .cols = cols, .flops = 5};
	snprintf(r.label, sizeof(r.label), "%s", label);
	return r;
}

static struct bench_program program(uint32_t precision, const uint64_t *sizes,
				    uint32_t n_buffers,
				    const struct bench_kernel *kernels,
				    uint64_t n_kernels)
{
	struct bench_program p = {precision, n_buffers, sizes, n_kernels, kernels};
	return p;
}

/* Element i of buffer b as a double, whatever the precision. */
static double get(struct cpu_program *c, uint32_t precision, uint32_t b,
		  size_t i)
{
	void *x = cpu_program_buffer(c, b);
	return precision == BENCH_FP64 ? ((double *)x)[i] : ((float *)x)[i];
}

static void set(struct cpu_program *c, uint32_t precision, uint32_t b,
		const double *v, size_t n)
{
	void *x = cpu_program_buffer(c, b);
	for (size_t i = 0; i < n; i++) {
		if (precision == BENCH_FP64)
			((double *)x)[i] = v[i];
		else
			((float *)x)[i] = (float)v[i];
	}
}

/*
 * C = A B with A 2x4 and B 4x3, stored plain or transposed; the same
 * matrices every way, so one hand-computed answer:
 *   A = [1 2 3 4; 5 6 7 8], B = [1 0 0; 0 1 0; 0 0 1; 1 1 1]
 *   C = [1+4 2+4 3+4; 5+8 6+8 7+8] = [5 6 7; 13 14 15]
 */
static void gemm_by_hand(void)
{
	static const double a[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	static const double at[8] = {1, 5, 2, 6, 3, 7, 4, 8};		/* 4x2 */
	static const double b[12] = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
	static const double bt[12] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};	/* 3x4 */
	static const double want[6] = {5, 6, 7, 13, 14, 15};
	static const uint64_t sizes[3] = {8, 12, 6};
	static const uint32_t precisions[2] = {BENCH_FP32, BENCH_FP64};
	for (int pi = 0; pi < 2; pi++)
		for (int t = 0; t < 4; t++) {
			uint32_t prec = precisions[pi];
			struct bench_kernel k = gemm(0, 1, 2, 2, 3, 4, "tiny gemm");
			k.trans_a = t & 1;
			k.trans_b = (t >> 1) & 1;
			struct bench_program p = program(prec, sizes, 3, &k, 1);
			struct cpu_program *c = NULL;
			uint64_t bytes = 0;
			char why[256] = "";
			int rc = cpu_program_prepare(&p, LIMIT, THREADS, &c, &bytes,
						     why, sizeof(why));
			CHECK(rc == BENCH_OK);
			if (rc != BENCH_OK) {
				fprintf(stderr, "%s\n", why);
				continue;
			}
			CHECK(bytes == 26 * (prec == BENCH_FP64 ? 8u : 4u));
			set(c, prec, 0, k.trans_a ? at : a, 8);
			set(c, prec, 1, k.trans_b ? bt : b, 12);
			CHECK(cpu_program_run(c, 1, why, sizeof(why)) == BENCH_OK);
			for (size_t i = 0; i < 6; i++)
				CHECK(get(c, prec, 2, i) == want[i]);
			CHECK(cpu_program_check(c, why, sizeof(why)) == BENCH_OK);
			cpu_program_free(c);
		}
}

/*
 * The split over threads (run_gemm): whole products (count >= threads),
 * blocks of rows (m >= 8 x threads) and blocks of columns (a C a few rows
 * high), each with every transpose, at 4 threads; every element of C
 * against a plain triple loop over the same (filled) inputs.
 */
static void gemm_split(void)
{
	static const struct { int64_t m, n, k, count; } shapes[] = {
		{5, 7, 3, 6},		/* by product */
		{67, 9, 5, 2},		/* by rows, uneven blocks */
		{2, 45, 6, 1},		/* by columns */
	};
	for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++)
		for (int t = 0; t < 4; t++) {
			int64_t m = shapes[si].m, n = shapes[si].n, kk = shapes[si].k,
				cnt = shapes[si].count;
			uint64_t sizes[3] = {(uint64_t)(m * kk * cnt),
					     (uint64_t)(kk * n * cnt),
					     (uint64_t)(m * n * cnt)};
			struct bench_kernel k = gemm(0, 1, 2, m, n, kk, "split");
			k.count = cnt;
			k.a_stride = m * kk;
			k.b_stride = kk * n;
			k.c_stride = m * n;
			k.trans_a = t & 1;
			k.trans_b = (t >> 1) & 1;
			struct bench_program p = program(BENCH_FP64, sizes, 3, &k, 1);
			struct cpu_program *c = NULL;
			char why[256] = "";
			CHECK(cpu_program_prepare(&p, LIMIT, 4, &c, NULL, why,
						  sizeof(why)) == BENCH_OK);
			if (!c)
				continue;
			CHECK(cpu_program_run(c, 1, why, sizeof(why)) == BENCH_OK);
			int bad = 0;
			for (int64_t q = 0; q < cnt; q++)
				for (int64_t i = 0; i < m; i++)
					for (int64_t j = 0; j < n; j++) {
						double want = 0;
						for (int64_t l = 0; l < kk; l++) {
							size_t ia = (size_t)(q * m * kk + (k.trans_a ? l * m + i : i * kk + l));
							size_t ib = (size_t)(q * kk * n + (k.trans_b ? j * kk + l : l * n + j));
							want += get(c, BENCH_FP64, 0, ia) *
								get(c, BENCH_FP64, 1, ib);
						}
						double got = get(c, BENCH_FP64, 2, (size_t)(q * m * n + i * n + j));
						bad += fabs(got - want) > 1e-12;
					}
			CHECK(bad == 0);
			cpu_program_free(c);
		}
}

/*
 * Two products of 2x2 matrices: A_i at 4*i, one B shared (stride 0), C_i
 * at 5*i so that element 4 of c lies between the products and must keep
 * its fill value.
 *   A_0 = [1 2; 3 4], A_1 = [0 1; 1 0], B = [1 1; 0 2]
 *   C_0 = [1 5; 3 11], C_1 = [0 2; 1 1]
 */
static void gemm_batched(void)
{
	static const double a[8] = {1, 2, 3, 4, 0, 1, 1, 0};
	static const double b[4] = {1, 1, 0, 2};
	static const double want[9] = {1, 5, 3, 11, NAN, 0, 2, 1, 1};
	static const uint64_t sizes[3] = {8, 4, 9};
	struct bench_kernel k = gemm(0, 1, 2, 2, 2, 2, "attention scores");
	k.count = 2;
	k.a_stride = 4;
	k.b_stride = 0;
	k.c_stride = 5;
	struct bench_program p = program(BENCH_FP32, sizes, 3, &k, 1);
	struct cpu_program *c = NULL;
	char why[256] = "";
	CHECK(cpu_program_prepare(&p, LIMIT, THREADS, &c, NULL, why,
				  sizeof(why)) == BENCH_OK);
	if (!c)
		return;
	set(c, BENCH_FP32, 0, a, 8);
	set(c, BENCH_FP32, 1, b, 4);
	double gap = get(c, BENCH_FP32, 2, 4);
	CHECK(cpu_program_run(c, 2, why, sizeof(why)) == BENCH_OK);
	for (size_t i = 0; i < 9; i++)
		CHECK(get(c, BENCH_FP32, 2, i) == (i == 4 ? gap : want[i]));
	CHECK(cpu_program_check(c, why, sizeof(why)) == BENCH_OK);
	cpu_program_free(c);
}

/*
 * c[i] = (a[i % 8] + b[i % 2]) / 2 over 8 elements (a bias of 2), and a
 * one-input pass c[i] = a[i % 3] over 7: inputs shorter than the output
 * repeat.
 */
static void stream_broadcast(void)
{
	static const double a[8] = {0, 1, 2, 3, 4, 5, 6, 7};
	static const double bias[2] = {10, 20};
	static const double want2[8] = {5, 10.5, 6, 11.5, 7, 12.5, 8, 13.5};
	static const double three[3] = {-1, 0.5, 2};
	static const uint64_t sizes[5] = {8, 2, 8, 3, 7};
	struct bench_kernel k[2] = {stream(0, 1, 2, 8, "bias add"),
				    stream(3, -1, 4, 7, "gather")};
	struct bench_program p = program(BENCH_FP64, sizes, 5, k, 2);
	struct cpu_program *c = NULL;
	char why[256] = "";
	CHECK(cpu_program_prepare(&p, LIMIT, THREADS, &c, NULL, why,
				  sizeof(why)) == BENCH_OK);
	if (!c)
		return;
	set(c, BENCH_FP64, 0, a, 8);
	set(c, BENCH_FP64, 1, bias, 2);
	set(c, BENCH_FP64, 3, three, 3);
	CHECK(cpu_program_run(c, 1, why, sizeof(why)) == BENCH_OK);
	for (size_t i = 0; i < 8; i++)
		CHECK(get(c, BENCH_FP64, 2, i) == want2[i]);
	for (size_t i = 0; i < 7; i++)
		CHECK(get(c, BENCH_FP64, 4, i) == three[i % 3]);
	CHECK(cpu_program_check(c, why, sizeof(why)) == BENCH_OK);
	cpu_program_free(c);
}

/*
 * Row 0 by hand: [1 2 3 4] has mean 2.5 and population variance 1.25, so
 * (x - 2.5) / sqrt(1.25) = [-3 -1 1 3] / sqrt(5).  A wide row of fill
 * values: mean ~0 and variance ~1 (the executor's epsilon, 1e-6, is 1%
 * of the fill's variance, (1/64)^2 / 3).
 */
static void rownorm_rows(void)
{
	static const double row[4] = {1, 2, 3, 4};
	static const uint64_t sizes[4] = {8, 8, 4096, 4096};
	struct bench_kernel k[2] = {rownorm(0, 1, 2, 4, "ln tiny"),
				    rownorm(2, 3, 4, 1024, "ln wide")};
	struct bench_program p = program(BENCH_FP32, sizes, 4, k, 2);
	struct cpu_program *c = NULL;
	char why[256] = "";
	CHECK(cpu_program_prepare(&p, LIMIT, THREADS, &c, NULL, why,
				  sizeof(why)) == BENCH_OK);
	if (!c)
		return;
	set(c, BENCH_FP32, 0, row, 4);
	CHECK(cpu_program_run(c, 3, why, sizeof(why)) == BENCH_OK);
	for (size_t i = 0; i < 4; i++)
		CHECK_NEAR(get(c, BENCH_FP32, 1, i), (2.0 * (double)i - 3) / sqrt(5),
			   1e-5);
	for (int r = 0; r < 4; r++) {
		double s = 0, ss = 0;
		for (size_t j = 0; j < 1024; j++) {
			double x = get(c, BENCH_FP32, 3, (size_t)r * 1024 + j);
			s += x;
			ss += x * x;
		}
		CHECK(fabs(s / 1024) < 1e-5);
		CHECK(fabs(ss / 1024 - 1) < 0.03);
	}
	CHECK(cpu_program_check(c, why, sizeof(why)) == BENCH_OK);
	cpu_program_free(c);
}

/* Every element small and finite, buffers not constant and not alike. */
static void fill_values(void)
{
	static const uint64_t sizes[2] = {1000, 1000};
	struct bench_kernel k = stream(0, -1, 1, 1000, "copy");
	static const uint32_t precisions[2] = {BENCH_FP32, BENCH_FP64};
	for (int pi = 0; pi < 2; pi++) {
		struct bench_program p = program(precisions[pi], sizes, 2, &k, 1);
		struct cpu_program *c = NULL;
		char why[256] = "";
		CHECK(cpu_program_prepare(&p, LIMIT, 3, &c, NULL, why,
					  sizeof(why)) == BENCH_OK);
		if (!c)
			continue;
		bool small = true, varied = false, differ = false;
		for (size_t i = 0; i < 1000; i++) {
			double x = get(c, precisions[pi], 0, i);
			small = small && isfinite(x) && fabs(x) <= 1.0 / 64;
			varied = varied || x != get(c, precisions[pi], 0, 0);
			differ = differ || x != get(c, precisions[pi], 1, i);
		}
		CHECK(small && varied && differ);
		CHECK(cpu_program_buffer(c, 2) == NULL);
		cpu_program_free(c);
	}
}

/* 3 buffers of 1024 fp32 = 12288 bytes: refused under 12288, nothing
 * allocated; accepted at exactly 12288.  A buffer no malloc can give
 * (2^50 fp32 = 4 PiB) under an unlimited limit: out of memory, with the
 * small buffer allocated before it freed again (the sanitizer build
 * checks for the leak). */
static void memory_limit(void)
{
	static const uint64_t sizes[3] = {1024, 1024, 1024};
	struct bench_kernel k = stream(0, 1, 2, 1024, "residual");
	struct bench_program p = program(BENCH_FP32, sizes, 3, &k, 1);
	struct cpu_program *c = (struct cpu_program *)&p;	/* not NULL */
	uint64_t bytes = 7;
	char why[256] = "";
	CHECK(cpu_program_prepare(&p, 12287, THREADS, &c, &bytes, why,
				  sizeof(why)) == BENCH_OUT_OF_MEMORY);
	CHECK(c == NULL);
	CHECK(strstr(why, "12288") && strstr(why, "12287"));
	CHECK(cpu_program_prepare(&p, 12288, THREADS, &c, &bytes, why,
				  sizeof(why)) == BENCH_OK);
	CHECK(bytes == 12288);
	cpu_program_free(c);

	static const uint64_t huge[3] = {1024, 1ull << 50, 1024};
	p.buffer_elements = huge;
	c = NULL;
	CHECK(cpu_program_prepare(&p, UINT64_MAX, THREADS, &c, NULL, why,
				  sizeof(why)) == BENCH_OUT_OF_MEMORY);
	CHECK(c == NULL);
	CHECK(strstr(why, "buffer 1") != NULL);
}

/* Only fp32 and fp64 run on the CPU; a GEMM dimension over cblas's int
 * cannot run there either (refused before any allocation). */
static void unsupported(void)
{
	static const uint64_t sizes[3] = {8, 8, 8};
	struct bench_kernel k = stream(0, 1, 2, 8, "add");
	static const uint32_t refused[] = {BENCH_FP16, BENCH_BF16, BENCH_TF32,
					   BENCH_INT8, BENCH_FP8_E4M3, 0, 99};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct bench_program p = program(refused[i], sizes, 3, &k, 1);
		struct cpu_program *c = NULL;
		char why[256] = "";
		CHECK(cpu_program_prepare(&p, LIMIT, THREADS, &c, NULL, why,
					  sizeof(why)) == BENCH_UNSUPPORTED);
		CHECK(c == NULL && strstr(why, "fp32 or fp64") != NULL);
	}

	static const uint64_t big[3] = {1ull << 31, 1, 1ull << 31};
	struct bench_kernel g = gemm(0, 1, 2, 1ll << 31, 1, 1, "tall gemm");
	struct bench_program p = program(BENCH_FP32, big, 3, &g, 1);
	struct cpu_program *c = NULL;
	char why[256] = "";
	CHECK(cpu_program_prepare(&p, UINT64_MAX, THREADS, &c, NULL, why,
				  sizeof(why)) == BENCH_UNSUPPORTED);
	CHECK(c == NULL && strstr(why, "tall gemm") != NULL);
}

/*
 * Malformed programs over five buffers of 16 elements: a good first
 * kernel (so the bad one is not always kernel 0), then the bad one,
 * labelled "bad", whose label every message must carry with the words
 * that say what is wrong.
 */
static void malformed(void)
{
	static const uint64_t sizes[5] = {16, 16, 16, 16, 16};
	const int64_t big = 1ll << 40;
	struct bad_case {
		const char *name;
		struct bench_kernel k;
		const char *says;
	} cases[] = {
		{"a out of range", gemm(7, 1, 3, 2, 2, 2, "bad"), "out of range"},
		{"c negative", gemm(0, 1, -1, 2, 2, 2, "bad"), "out of range"},
		{"gemm without b", gemm(0, -1, 3, 2, 2, 2, "bad"), "out of range"},
		{"stream b -2", stream(0, -2, 3, 16, "bad"), "out of range"},
		{"a past its buffer", gemm(0, 1, 3, 4, 4, 8, "bad"), "gemm a needs 32"},
		{"b past its buffer", gemm(0, 1, 3, 2, 8, 4, "bad"), "gemm b needs 32"},
		{"c past its buffer", gemm(0, 1, 3, 8, 4, 1, "bad"), "gemm c needs 32"},
		{"m negative", gemm(0, 1, 3, -2, 2, 2, "bad"), "positive"},
		{"k zero", gemm(0, 1, 3, 2, 2, 0, "bad"), "positive"},
		{"self-read gemm", gemm(0, 3, 3, 2, 2, 2, "bad"), "reads buffer 3, which it writes"},
		{"self-read stream", stream(3, -1, 3, 16, "bad"), "reads buffer 3"},
		{"m*k overflows", gemm(0, 1, 3, big, 2, big, "bad"), "overflows"},
		{"m = 2^40", gemm(0, 1, 3, big, 1, 1, "bad"), "gemm a needs 1099511627776"},
		{"stream past c", stream(0, 1, 3, 17, "bad"), "stream c needs 17"},
		{"stream elements 0", stream(0, 1, 3, 0, "bad"), "positive"},
		{"rownorm past a", rownorm(0, 3, 3, 6, "bad"), "rownorm a needs 18"},
		{"rownorm overflows", rownorm(0, 3, big, big, "bad"), "overflows"},
		{"rownorm cols -1", rownorm(0, 3, 2, -1, "bad"), "positive"},
		{"double write", stream(0, 1, 2, 16, "bad"), "which kernel 0 'good' writes too"},
	};
	struct bench_kernel kind0 = gemm(0, 1, 3, 2, 2, 2, "bad");
	kind0.kind = 0;
	struct bench_kernel rownorm_b = rownorm(0, 3, 2, 2, "bad");
	rownorm_b.b = 1;
	struct bench_kernel batched = gemm(0, 1, 3, 2, 2, 2, "bad");
	batched.count = 3;
	batched.a_stride = 8;		/* 2 * 8 + 4 = 20 > 16 */
	batched.c_stride = 4;
	struct bench_kernel overlap = gemm(0, 1, 3, 2, 2, 2, "bad");
	overlap.count = 2;
	overlap.c_stride = 3;		/* < m*n = 4 */
	struct bench_kernel stride_overflow = gemm(0, 1, 3, 2, 2, 2, "bad");
	stride_overflow.count = big;
	stride_overflow.b_stride = big;
	stride_overflow.c_stride = 4;
	struct bench_kernel negative_stride = gemm(0, 1, 3, 2, 2, 2, "bad");
	negative_stride.a_stride = -4;
	struct bench_kernel trans = gemm(0, 1, 3, 2, 2, 2, "bad");
	trans.trans_b = 2;
	struct bench_kernel nan_flops = stream(0, 1, 3, 16, "bad");
	nan_flops.flops = NAN;
	struct bad_case more[] = {
		{"rownorm with b", rownorm_b, "rownorm takes no b"},
		{"batched a past its buffer", batched, "gemm a needs 20"},
		{"products overlap in c", overlap, "overlap"},
		{"count * stride overflows", stride_overflow, "gemm b: extent overflows"},
		{"negative stride", negative_stride, "negative"},
		{"trans_b 2", trans, "trans"},
		{"flops NaN", nan_flops, "flops"},
		{"kind 0", kind0, "unknown kernel kind 0"},
	};
	struct bad_case *all[2] = {cases, more};
	size_t counts[2] = {sizeof(cases) / sizeof(cases[0]),
			    sizeof(more) / sizeof(more[0])};
	for (int t = 0; t < 2; t++)
		for (size_t i = 0; i < counts[t]; i++) {
			const struct bad_case *bc = &all[t][i];
			struct bench_kernel k[2] = {stream(0, 1, 2, 16, "good"), bc->k};
			struct bench_program p = program(BENCH_FP32, sizes, 5, k, 2);
			struct cpu_program *c = NULL;
			char why[256] = "";
			int rc = cpu_program_prepare(&p, LIMIT, THREADS, &c, NULL,
						     why, sizeof(why));
			bool ok = rc == BENCH_ERROR && c == NULL &&
				  strstr(why, "kernel 1 'bad'") &&
				  strstr(why, bc->says);
			if (!ok)
				fprintf(stderr, "%s: rc %d, '%s'\n", bc->name, rc, why);
			CHECK(ok);
		}
}

/* Refusals that involve the order of kernels or the whole program. */
static void malformed_programs(void)
{
	static const uint64_t sizes[3] = {16, 16, 16};
	char why[256] = "";
	struct cpu_program *c = NULL;

	/* kernel 0 reads buffer 1 before kernel 1 writes it */
	struct bench_kernel early[2] = {stream(1, -1, 2, 16, "early"),
					stream(0, -1, 1, 16, "late")};
	struct bench_program p = program(BENCH_FP32, sizes, 3, early, 2);
	CHECK(cpu_program_prepare(&p, LIMIT, THREADS, &c, NULL, why,
				  sizeof(why)) == BENCH_ERROR);
	CHECK(strstr(why, "kernel 0 'early': reads buffer 1 before kernel 1 "
		     "'late' writes it") != NULL);

	/* a label of 64 characters with no terminator, printed whole */
	struct bench_kernel full = stream(0, -1, 0, 16, "");
	memset(full.label, 'x', sizeof(full.label));
	p = program(BENCH_FP32, sizes, 3, &full, 1);
	CHECK(cpu_program_prepare(&p, LIMIT, THREADS, &c, NULL, why,
				  sizeof(why)) == BENCH_ERROR);
	CHECK(strstr(why, "xxxxxxxx'") && strlen(why) > 64);

	/* no label: the index alone */
	struct bench_kernel anon = stream(0, -1, 0, 16, "");
	p = program(BENCH_FP32, sizes, 3, &anon, 1);
	CHECK(cpu_program_prepare(&p, LIMIT, THREADS, &c, NULL, why,
				  sizeof(why)) == BENCH_ERROR);
	CHECK(strncmp(why, "kernel 0: ", 10) == 0);

	static const uint64_t empty[3] = {16, 0, 16};
	struct bench_kernel ok = stream(0, -1, 2, 16, "ok");
	p = program(BENCH_FP32, empty, 3, &ok, 1);
	CHECK(cpu_program_prepare(&p, LIMIT, THREADS, &c, NULL, why,
				  sizeof(why)) == BENCH_ERROR);
	CHECK(strstr(why, "buffer 1 has no elements") != NULL);
	p = program(BENCH_FP32, sizes, 0, &ok, 1);
	CHECK(cpu_program_prepare(&p, LIMIT, THREADS, &c, NULL, why,
				  sizeof(why)) == BENCH_ERROR);
	p = program(BENCH_FP32, sizes, 3, &ok, 0);
	CHECK(cpu_program_prepare(&p, LIMIT, THREADS, &c, NULL, why,
				  sizeof(why)) == BENCH_ERROR);
	CHECK(c == NULL);
}

/*
 * A small layer (norm, projection, batched product, residual add) run
 * and checked with 1 and 4 threads; then each checked kernel's output
 * corrupted in turn: the check names it, and another run repairs it.
 */
static void check_catches_corruption(void)
{
	enum { X, NORMED, W, H, Q, SCORES, OUT, NB };
	static const uint64_t sizes[NB] = {
		[X] = 64 * 96, [NORMED] = 64 * 96, [W] = 96 * 96, [H] = 64 * 96,
		[Q] = 64 * 96, [SCORES] = 4 * 16 * 16, [OUT] = 64 * 96};
	struct bench_kernel k[5] = {
		rownorm(X, NORMED, 64, 96, "ln"),
		gemm(NORMED, W, H, 64, 96, 96, "proj"),
		gemm(H, Q, SCORES, 16, 16, 96, "scores"),
		stream(H, X, OUT, 64 * 96, "residual"),
		stream(W, -1, Q, 64 * 96, "copy"),	/* a writer of Q after its read */
	};
	k[2].count = 4;
	k[2].a_stride = 16 * 96;
	k[2].b_stride = 16 * 96;
	k[2].c_stride = 256;
	k[2].trans_b = 1;
	/* Q is read by "scores" and written by "copy" later: refused */
	struct bench_program p = program(BENCH_FP32, sizes, NB, k, 5);
	struct cpu_program *c = NULL;
	char why[256] = "";
	CHECK(cpu_program_prepare(&p, LIMIT, 1, &c, NULL, why, sizeof(why)) ==
	      BENCH_ERROR);
	p.n_kernels = 4;	/* without it, Q is an input */
	static const int threads[2] = {1, 4};
	for (int t = 0; t < 2; t++) {
		CHECK(cpu_program_prepare(&p, LIMIT, threads[t], &c, NULL, why,
					  sizeof(why)) == BENCH_OK);
		if (!c)
			return;
		CHECK(cpu_program_check(c, why, sizeof(why)) == BENCH_ERROR);
		CHECK(strstr(why, "not run") != NULL);
		CHECK(cpu_program_run(c, 2, why, sizeof(why)) == BENCH_OK);
		CHECK(cpu_program_check(c, why, sizeof(why)) == BENCH_OK);
		static const struct { int buffer; const char *says; } pokes[] = {
			{SCORES, "kernel 2 'scores': check failed: gemm product 0 C[0][0]"},
			{OUT, "kernel 3 'residual': check failed: stream c[0]"},
			{NORMED, "kernel 0 'ln': check failed: rownorm row 0 col 0"},
		};
		for (int i = 0; i < 3; i++) {
			float *x = cpu_program_buffer(c, (uint32_t)pokes[i].buffer);
			x[0] += 0.5f;
			CHECK(cpu_program_check(c, why, sizeof(why)) == BENCH_ERROR);
			if (!strstr(why, pokes[i].says))
				fprintf(stderr, "poke %d: '%s'\n", i, why);
			CHECK(strstr(why, pokes[i].says) != NULL);
			CHECK(cpu_program_run(c, 1, why, sizeof(why)) == BENCH_OK);
			CHECK(cpu_program_check(c, why, sizeof(why)) == BENCH_OK);
		}
		CHECK(cpu_program_run(c, 0, why, sizeof(why)) == BENCH_ERROR);
		cpu_program_free(c);
		c = NULL;
	}
}

int main(void)
{
	gemm_split();
	gemm_by_hand();
	gemm_batched();
	stream_broadcast();
	rownorm_rows();
	fill_values();
	memory_limit();
	unsupported();
	malformed();
	malformed_programs();
	check_catches_corruption();
	return check_summary("cpu_program");
}

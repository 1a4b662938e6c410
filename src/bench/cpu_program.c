/*
 * cpu_program.c - a lowered model step on the CPU; see cpu_program.h.
 *
 * prepare checks the whole program before it allocates a single buffer:
 * programs come from user model files through the host's lowering, so a
 * bad one must come back as an error naming the kernel, never as a write
 * past a buffer.  Every size is computed in uint64_t with explicit
 * overflow checks.  Beyond what program_abi.h states (indices in range,
 * reads and writes inside their buffers, at most one writer per buffer,
 * no kernel reading what it writes) prepare also refuses a kernel that
 * reads a buffer a later kernel writes: with that, the program is a
 * dependency-ordered graph, so one step computes every value from the
 * fill alone, repeated steps compute the same values, and the check can
 * recompute any output from its inputs as they stand after the run.
 *
 * What the kernels compute (the check recomputes exactly this):
 *   GEMM     C_i = op(A_i) op(B_i), cblas_sgemm/dgemm per product
 *   STREAM   c[i] = (a[i % len_a] + b[i % len_b]) / 2, or c[i] = a[i % len_a]
 *            without b: an average neither grows nor decays along a chain
 *            of residual adds, so deep programs stay far from overflow and
 *            from denormals
 *   ROWNORM  per row: mean and population variance (accumulated in
 *            double), then (x - mean) / sqrt(var + ROWNORM_EPS)
 */
#include "bench/cpu_program.h"

#include <cblas.h>
#include <limits.h>
#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALIGN 64		/* bytes: one cache line per buffer start */
#define ROWNORM_EPS 1e-6	/* small next to the fill's variance, ~8e-5 */
#define TOL_FP32 1e-4		/* the check's relative tolerances */
#define TOL_FP64 1e-10

/* Declared by OpenBLAS's cblas.h; repeated as cpu_gemm.c does. */
void openblas_set_num_threads(int num_threads);

struct cpu_program {
	enum bench_precision precision;	/* BENCH_FP32 or BENCH_FP64 */
	int threads;			/* OpenMP team and OpenBLAS threads */
	bool ran;			/* a run has completed since prepare */
	uint32_t n_buffers;
	uint64_t *elements;		/* per buffer, elements */
	void **buffers;			/* per buffer, ALIGN-aligned */
	uint64_t n_kernels;
	struct bench_kernel *kernels;	/* a copy of the program's */
};

/* ---- messages ------------------------------------------------------------ */

static void say(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *why, size_t len, const char *fmt, ...)
{
	if (!why || !len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

/* "kernel 3 'layer 0 attention fwd'"; the label need not be terminated. */
static void kernel_name(const struct bench_kernel *k, uint64_t i, char *buf,
			size_t len)
{
	int n = (int)strnlen(k->label, sizeof(k->label));
	if (n)
		snprintf(buf, len, "kernel %llu '%.*s'", (unsigned long long)i,
			 n, k->label);
	else
		snprintf(buf, len, "kernel %llu", (unsigned long long)i);
}

static int kernel_fail(int status, char *why, size_t len,
		       const struct bench_kernel *k, uint64_t i,
		       const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Writes "<kernel name>: <message>" to why and returns status. */
static int kernel_fail(int status, char *why, size_t len,
		       const struct bench_kernel *k, uint64_t i,
		       const char *fmt, ...)
{
	char name[112], msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	kernel_name(k, i, name, sizeof(name));
	say(why, len, "%s: %s", name, msg);
	return status;
}


/* ---- overflow-safe sizes ------------------------------------------------- */

static bool mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a && b > UINT64_MAX / a)
		return false;
	*out = a * b;
	return true;
}

/* (count - 1) * stride + size: the elements `count` blocks of `size`
 * elements, `stride` apart, reach from the first one's start. */
static bool span_u64(uint64_t count, uint64_t stride, uint64_t size,
		     uint64_t *out)
{
	uint64_t reach;
	if (!mul_u64(count - 1, stride, &reach) || reach > UINT64_MAX - size)
		return false;
	*out = reach + size;
	return true;
}

/* ---- validation ---------------------------------------------------------- */

static bool index_ok(const struct bench_program *p, int32_t b)
{
	return b >= 0 && (uint64_t)b < p->n_buffers;
}

/* The program-wide fields, and the buffers' total in bytes (saturating at
 * UINT64_MAX, which no memory limit admits). */
static int check_buffers(const struct bench_program *p, size_t elem,
			 uint64_t *total, char *why, size_t len)
{
	if (p->n_buffers == 0 || !p->buffer_elements) {
		say(why, len, "program has no buffers");
		return BENCH_ERROR;
	}
	if (p->n_kernels == 0 || !p->kernels) {
		say(why, len, "program has no kernels");
		return BENCH_ERROR;
	}
	*total = 0;
	for (uint32_t b = 0; b < p->n_buffers; b++) {
		uint64_t bytes;
		if (p->buffer_elements[b] == 0) {
			say(why, len, "buffer %u has no elements", b);
			return BENCH_ERROR;
		}
		if (!mul_u64(p->buffer_elements[b], elem, &bytes) ||
		    bytes > UINT64_MAX - *total)
			*total = UINT64_MAX;
		else
			*total += bytes;
	}
	return BENCH_OK;
}

/* `count` blocks of `size` elements, `stride` apart, inside buffer b. */
static int check_extent(const struct bench_program *p,
			const struct bench_kernel *k, uint64_t i,
			const char *what, int32_t b, int64_t count,
			int64_t stride, uint64_t size, char *why, size_t len)
{
	uint64_t need;
	if (!span_u64((uint64_t)count, (uint64_t)stride, size, &need))
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "%s: extent overflows 64 bits", what);
	if (need > p->buffer_elements[b])
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "%s needs %llu elements, buffer %d holds %llu",
				   what, (unsigned long long)need, b,
				   (unsigned long long)p->buffer_elements[b]);
	return BENCH_OK;
}

static int validate_gemm(const struct bench_program *p,
			 const struct bench_kernel *k, uint64_t i, char *why,
			 size_t len)
{
	if (k->m <= 0 || k->n <= 0 || k->k <= 0 || k->count <= 0)
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "gemm m, n, k and count must be positive "
				   "(m=%lld n=%lld k=%lld count=%lld)",
				   (long long)k->m, (long long)k->n,
				   (long long)k->k, (long long)k->count);
	if (k->a_stride < 0 || k->b_stride < 0 || k->c_stride < 0)
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "gemm strides must not be negative "
				   "(a_stride=%lld b_stride=%lld c_stride=%lld)",
				   (long long)k->a_stride, (long long)k->b_stride,
				   (long long)k->c_stride);
	if (k->trans_a > 1 || k->trans_b > 1)
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "gemm trans flags must be 0 or 1 "
				   "(trans_a=%u trans_b=%u)", k->trans_a, k->trans_b);
	uint64_t sa, sb, sc;
	if (!mul_u64((uint64_t)k->m, (uint64_t)k->k, &sa) ||
	    !mul_u64((uint64_t)k->k, (uint64_t)k->n, &sb) ||
	    !mul_u64((uint64_t)k->m, (uint64_t)k->n, &sc))
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "gemm m=%lld n=%lld k=%lld: a matrix's size "
				   "overflows 64 bits", (long long)k->m,
				   (long long)k->n, (long long)k->k);
	if (k->count > 1 && (uint64_t)k->c_stride < sc)
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "gemm products overlap in c (c_stride %lld < "
				   "m*n %llu)", (long long)k->c_stride,
				   (unsigned long long)sc);
	int rc = check_extent(p, k, i, "gemm a", k->a, k->count, k->a_stride,
			      sa, why, len);
	if (rc == BENCH_OK)
		rc = check_extent(p, k, i, "gemm b", k->b, k->count,
				  k->b_stride, sb, why, len);
	if (rc == BENCH_OK)
		rc = check_extent(p, k, i, "gemm c", k->c, k->count,
				  k->c_stride, sc, why, len);
	return rc;
}

static int check_flops(const struct bench_kernel *k, uint64_t i, char *why,
		       size_t len)
{
	if (!(k->flops >= 0) || isinf(k->flops))
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "flops per element must be finite and not "
				   "negative (%g)", k->flops);
	return BENCH_OK;
}

/* Inputs may be any length (element i reads i % length); c must hold
 * every element written. */
static int validate_stream(const struct bench_program *p,
			   const struct bench_kernel *k, uint64_t i, char *why,
			   size_t len)
{
	if (k->elements <= 0)
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "stream elements must be positive (%lld)",
				   (long long)k->elements);
	int rc = check_flops(k, i, why, len);
	if (rc == BENCH_OK)
		rc = check_extent(p, k, i, "stream c", k->c, 1, 0,
				  (uint64_t)k->elements, why, len);
	return rc;
}

static int validate_rownorm(const struct bench_program *p,
			    const struct bench_kernel *k, uint64_t i, char *why,
			    size_t len)
{
	uint64_t size;
	if (k->rows <= 0 || k->cols <= 0)
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "rownorm rows and cols must be positive "
				   "(rows=%lld cols=%lld)", (long long)k->rows,
				   (long long)k->cols);
	if (!mul_u64((uint64_t)k->rows, (uint64_t)k->cols, &size))
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "rownorm rows=%lld x cols=%lld overflows 64 bits",
				   (long long)k->rows, (long long)k->cols);
	int rc = check_flops(k, i, why, len);
	if (rc == BENCH_OK)
		rc = check_extent(p, k, i, "rownorm a", k->a, 1, 0, size,
				  why, len);
	if (rc == BENCH_OK)
		rc = check_extent(p, k, i, "rownorm c", k->c, 1, 0, size,
				  why, len);
	return rc;
}

/* The kind, the buffer indices (b: GEMM needs one, STREAM may have one,
 * ROWNORM has none), no self-read, then the kind's own shape. */
static int validate_kernel(const struct bench_program *p, uint64_t i,
			   char *why, size_t len)
{
	const struct bench_kernel *k = &p->kernels[i];
	if (k->kind < BENCH_KERNEL_GEMM || k->kind > BENCH_KERNEL_ROWNORM)
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "unknown kernel kind %u", k->kind);
	bool b_used = k->kind == BENCH_KERNEL_GEMM ||
		      (k->kind == BENCH_KERNEL_STREAM && k->b != -1);
	if (!index_ok(p, k->a) || !index_ok(p, k->c) ||
	    (b_used && !index_ok(p, k->b)))
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "buffer index out of range (a=%d b=%d c=%d, "
				   "%u buffers)", k->a, k->b, k->c, p->n_buffers);
	if (k->kind == BENCH_KERNEL_ROWNORM && k->b != -1)
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "rownorm takes no b (b=%d, want -1)", k->b);
	if (k->a == k->c || (b_used && k->b == k->c))
		return kernel_fail(BENCH_ERROR, why, len, k, i,
				   "reads buffer %d, which it writes", k->c);
	if (k->kind == BENCH_KERNEL_GEMM)
		return validate_gemm(p, k, i, why, len);
	if (k->kind == BENCH_KERNEL_STREAM)
		return validate_stream(p, k, i, why, len);
	return validate_rownorm(p, k, i, why, len);
}

/* One writer per buffer, and every read after its buffer's writer.
 * writer[b] is 1 + the index of the kernel that writes buffer b, 0 for
 * none. */
static int check_order(const struct bench_program *p, uint64_t *writer,
		       char *why, size_t len)
{
	char other[112];
	for (uint64_t i = 0; i < p->n_kernels; i++) {
		const struct bench_kernel *k = &p->kernels[i];
		uint64_t w = writer[k->c];
		if (w) {
			kernel_name(&p->kernels[w - 1], w - 1, other, sizeof(other));
			return kernel_fail(BENCH_ERROR, why, len, k, i,
					   "writes buffer %d, which %s writes too",
					   k->c, other);
		}
		writer[k->c] = i + 1;
	}
	for (uint64_t i = 0; i < p->n_kernels; i++) {
		const struct bench_kernel *k = &p->kernels[i];
		int32_t reads[2] = {k->a, k->b};
		for (int r = 0; r < 2; r++) {
			if (reads[r] < 0)
				continue;
			uint64_t w = writer[reads[r]];
			if (w > i + 1) {
				kernel_name(&p->kernels[w - 1], w - 1, other,
					    sizeof(other));
				return kernel_fail(BENCH_ERROR, why, len, k, i,
						   "reads buffer %d before %s "
						   "writes it", reads[r], other);
			}
		}
	}
	return BENCH_OK;
}

/* What OpenBLAS cannot do: its cblas takes int dimensions. */
static int check_blas_limits(const struct bench_program *p, char *why,
			     size_t len)
{
	for (uint64_t i = 0; i < p->n_kernels; i++) {
		const struct bench_kernel *k = &p->kernels[i];
		if (k->kind == BENCH_KERNEL_GEMM &&
		    (k->m > INT_MAX || k->n > INT_MAX || k->k > INT_MAX))
			return kernel_fail(BENCH_UNSUPPORTED, why, len, k, i,
					   "gemm m=%lld n=%lld k=%lld: cblas takes "
					   "dimensions up to %d", (long long)k->m,
					   (long long)k->n, (long long)k->k,
					   INT_MAX);
	}
	return BENCH_OK;
}

/* Everything but the memory limit; *total is the buffers' bytes. */
static int validate(const struct bench_program *p, size_t elem,
		    uint64_t *total, char *why, size_t len)
{
	int rc = check_buffers(p, elem, total, why, len);
	for (uint64_t i = 0; rc == BENCH_OK && i < p->n_kernels; i++)
		rc = validate_kernel(p, i, why, len);
	if (rc != BENCH_OK)
		return rc;
	uint64_t *writer = calloc(p->n_buffers, sizeof(*writer));
	if (!writer) {
		say(why, len, "cannot allocate the writer table of %u buffers",
		    p->n_buffers);
		return BENCH_OUT_OF_MEMORY;
	}
	rc = check_order(p, writer, why, len);
	free(writer);
	return rc == BENCH_OK ? check_blas_limits(p, why, len) : rc;
}

/* ---- buffers ------------------------------------------------------------- */

/* Thread t's share of n elements under a static schedule of nt threads:
 * the fill and the STREAM kernels split a buffer the same way, so each
 * page is first touched by the thread that streams it. */
static void share(uint64_t n, int t, int nt, uint64_t *lo, uint64_t *hi)
{
	uint64_t q = n / (uint64_t)nt, r = n % (uint64_t)nt, ut = (uint64_t)t;
	*lo = q * ut + (ut < r ? ut : r);
	*hi = *lo + q + (ut < r);
}

/* A cheap hash of (buffer, element) to a multiple of 2^-21 in
 * [-1/64, 1/64): exact in fp32, different in every buffer. */
static double fill_value(uint32_t buffer, uint64_t i)
{
	uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull ^
		     ((uint64_t)buffer + 1) * 0xc2b2ae3d27d4eb4full;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	return (double)((int64_t)(x >> 48) - 32768) / (32768.0 * 64);
}

static void fill(struct cpu_program *c)
{
#pragma omp parallel num_threads(c->threads)
	{
		int t = omp_get_thread_num(), nt = omp_get_num_threads();
		for (uint32_t b = 0; b < c->n_buffers; b++) {
			uint64_t lo, hi;
			share(c->elements[b], t, nt, &lo, &hi);
			if (c->precision == BENCH_FP64) {
				double *x = c->buffers[b];
				for (uint64_t i = lo; i < hi; i++)
					x[i] = fill_value(b, i);
			} else {
				float *x = c->buffers[b];
				for (uint64_t i = lo; i < hi; i++)
					x[i] = (float)fill_value(b, i);
			}
		}
	}
}

/* Every buffer, rounded up to whole lines as aligned_alloc requires.  On
 * failure everything allocated so far is freed. */
static int allocate(const struct bench_program *p, size_t elem, int threads,
		    struct cpu_program **out, char *why, size_t len)
{
	struct cpu_program *c = calloc(1, sizeof(*c));
	if (!c || p->n_kernels > SIZE_MAX / sizeof(struct bench_kernel))
		goto oom;
	c->precision = (enum bench_precision)p->precision;
	c->threads = threads;
	c->n_buffers = p->n_buffers;
	c->n_kernels = p->n_kernels;
	c->elements = calloc(p->n_buffers, sizeof(*c->elements));
	c->buffers = calloc(p->n_buffers, sizeof(*c->buffers));
	c->kernels = calloc((size_t)p->n_kernels, sizeof(*c->kernels));
	if (!c->elements || !c->buffers || !c->kernels)
		goto oom;
	memcpy(c->elements, p->buffer_elements,
	       p->n_buffers * sizeof(*c->elements));
	memcpy(c->kernels, p->kernels, (size_t)p->n_kernels * sizeof(*c->kernels));
	for (uint32_t b = 0; b < p->n_buffers; b++) {
		/* each buffer's bytes <= the total <= SIZE_MAX - ALIGN */
		size_t bytes = (size_t)p->buffer_elements[b] * elem;
		c->buffers[b] = aligned_alloc(ALIGN, (bytes + ALIGN - 1) / ALIGN * ALIGN);
		if (!c->buffers[b]) {
			say(why, len, "cannot allocate buffer %u (%zu bytes)", b, bytes);
			cpu_program_free(c);
			return BENCH_OUT_OF_MEMORY;
		}
	}
	*out = c;
	return BENCH_OK;
oom:
	say(why, len, "cannot allocate the program's tables (%llu kernels)",
	    (unsigned long long)p->n_kernels);
	cpu_program_free(c);
	return BENCH_OUT_OF_MEMORY;
}

int cpu_program_prepare(const struct bench_program *p, uint64_t memory_limit,
			int threads, struct cpu_program **out, uint64_t *bytes,
			char *why, size_t len)
{
	if (out)
		*out = NULL;
	if (!p || !out) {
		say(why, len, "no program to prepare");
		return BENCH_ERROR;
	}
	if (p->precision != BENCH_FP32 && p->precision != BENCH_FP64) {
		const char *name = bench_precision_label(p->precision);
		if (name)
			say(why, len, "the cpu runs programs in fp32 or fp64, "
			    "not %s", name);
		else
			say(why, len, "the cpu runs programs in fp32 or fp64, "
			    "not precision %u", p->precision);
		return BENCH_UNSUPPORTED;
	}
	size_t elem = p->precision == BENCH_FP64 ? sizeof(double) : sizeof(float);
	uint64_t total;
	int rc = validate(p, elem, &total, why, len);
	if (rc != BENCH_OK)
		return rc;
	if (total > memory_limit || total > SIZE_MAX - ALIGN) {
		say(why, len, "program buffers need %llu bytes (%.3g GiB), over "
		    "the limit of %llu bytes (%.3g GiB)",
		    (unsigned long long)total, (double)total / (1u << 30),
		    (unsigned long long)memory_limit,
		    (double)memory_limit / (1u << 30));
		return BENCH_OUT_OF_MEMORY;
	}
	rc = allocate(p, elem, threads > 0 ? threads : omp_get_max_threads(),
		      out, why, len);
	if (rc != BENCH_OK)
		return rc;
	fill(*out);
	if (bytes)
		*bytes = total;
	return BENCH_OK;
}

/* ---- kernels ------------------------------------------------------------- */

/* One product's block: rows [r0, r1) and columns [c0, c1) of C. */
static void gemm_block(const struct cpu_program *c, const struct bench_kernel *k,
		       int64_t i, int r0, int r1, int c0, int c1)
{
	int m = (int)k->m, n = (int)k->n, kk = (int)k->k;
	int lda = k->trans_a ? m : kk, ldb = k->trans_b ? kk : n;
	enum CBLAS_TRANSPOSE ta = k->trans_a ? CblasTrans : CblasNoTrans;
	enum CBLAS_TRANSPOSE tb = k->trans_b ? CblasTrans : CblasNoTrans;
	/* row r of op(A) starts at r * lda stored, or column r when A is
	 * stored transposed; column j of op(B) likewise */
	size_t oa = (size_t)(i * k->a_stride) + (size_t)r0 * (k->trans_a ? 1 : (size_t)lda);
	size_t ob = (size_t)(i * k->b_stride) + (size_t)c0 * (k->trans_b ? (size_t)ldb : 1);
	size_t oc = (size_t)(i * k->c_stride) + (size_t)r0 * (size_t)n + (size_t)c0;
	if (r1 <= r0 || c1 <= c0)
		return;
	if (c->precision == BENCH_FP64)
		cblas_dgemm(CblasRowMajor, ta, tb, r1 - r0, c1 - c0, kk, 1.0,
			    (const double *)c->buffers[k->a] + oa, lda,
			    (const double *)c->buffers[k->b] + ob, ldb, 0.0,
			    (double *)c->buffers[k->c] + oc, n);
	else
		cblas_sgemm(CblasRowMajor, ta, tb, r1 - r0, c1 - c0, kk, 1.0f,
			    (const float *)c->buffers[k->a] + oa, lda,
			    (const float *)c->buffers[k->b] + ob, ldb, 0.0f,
			    (float *)c->buffers[k->c] + oc, n);
}

/*
 * The products split over the OpenMP team, each piece a single-threaded
 * OpenBLAS call: whole products when there are enough of them, else
 * blocks of rows (or of columns, when C is a few rows wide).  One thread
 * pool for every kernel of a step: OpenBLAS's own pthreads next to the
 * OpenMP team of the elementwise kernels spin against each other between
 * kernels (ResNet-50 at batch 1 ran at a quarter of its speed that way on
 * 2 cores), which is why frameworks build their BLAS on OpenMP.
 */
static void run_gemm(const struct cpu_program *c, const struct bench_kernel *k)
{
	int t = c->threads, m = (int)k->m, n = (int)k->n;
	bool by_product = k->count >= t;
	bool by_rows = !by_product && m >= 8 * t;
#pragma omp parallel num_threads(t)
	{
		int me = omp_get_thread_num(), all = omp_get_num_threads();
		if (by_product) {
			for (int64_t i = me; i < k->count; i += all)
				gemm_block(c, k, i, 0, m, 0, n);
		} else {
			for (int64_t i = 0; i < k->count; i++) {
				int len = by_rows ? m : n;
				int lo = (int)((int64_t)len * me / all);
				int hi = (int)((int64_t)len * (me + 1) / all);
				if (by_rows)
					gemm_block(c, k, i, lo, hi, 0, n);
				else
					gemm_block(c, k, i, 0, m, lo, hi);
			}
		}
	}
}

/*
 * STREAM over elements [lo, hi) of c, in segments where neither input
 * wraps, so the inner loop is a plain vector loop with no division.
 * b is NULL when the kernel has one input.
 */
#define DEFINE_STREAM_SHARE(T)						\
static void stream_share_##T(const T *a, uint64_t la, const T *b,	\
			     uint64_t lb, T *c, uint64_t lo, uint64_t hi) \
{									\
	uint64_t ia = lo % la, ib = b ? lo % lb : 0;			\
	for (uint64_t i = lo; i < hi;) {				\
		uint64_t seg = hi - i;					\
		if (la - ia < seg)					\
			seg = la - ia;					\
		if (b && lb - ib < seg)					\
			seg = lb - ib;					\
		T *restrict o = c + i;					\
		const T *restrict x = a + ia;				\
		if (b) {						\
			const T *restrict y = b + ib;			\
			_Pragma("omp simd")				\
			for (uint64_t j = 0; j < seg; j++)		\
				o[j] = (T)0.5 * (x[j] + y[j]);		\
			ib = (ib + seg) % lb;				\
		} else {						\
			_Pragma("omp simd")				\
			for (uint64_t j = 0; j < seg; j++)		\
				o[j] = x[j];				\
		}							\
		ia = (ia + seg) % la;					\
		i += seg;						\
	}								\
}
DEFINE_STREAM_SHARE(float)
DEFINE_STREAM_SHARE(double)

static void run_stream(const struct cpu_program *c, const struct bench_kernel *k)
{
	uint64_t n = (uint64_t)k->elements, la = c->elements[k->a];
	uint64_t lb = k->b >= 0 ? c->elements[k->b] : 0;
	const void *a = c->buffers[k->a], *b = k->b >= 0 ? c->buffers[k->b] : NULL;
	void *out = c->buffers[k->c];
#pragma omp parallel num_threads(c->threads)
	{
		uint64_t lo, hi;
		share(n, omp_get_thread_num(), omp_get_num_threads(), &lo, &hi);
		if (c->precision == BENCH_FP64)
			stream_share_double(a, la, b, lb, out, lo, hi);
		else
			stream_share_float(a, la, b, lb, out, lo, hi);
	}
}

/* One row: sums in double (one read), then the normalised row (the
 * second read and the write). */
#define DEFINE_ROWNORM(T)						\
static void rownorm_##T(const T *a, T *c, int64_t rows, int64_t cols,	\
			int threads)					\
{									\
	_Pragma("omp parallel for schedule(static) num_threads(threads)") \
	for (int64_t r = 0; r < rows; r++) {				\
		const T *restrict x = a + r * cols;			\
		T *restrict y = c + r * cols;				\
		double s = 0, ss = 0;					\
		_Pragma("omp simd reduction(+: s, ss)")			\
		for (int64_t j = 0; j < cols; j++) {			\
			s += x[j];					\
			ss += (double)x[j] * x[j];			\
		}							\
		double mean = s / (double)cols;				\
		double var = fmax(ss / (double)cols - mean * mean, 0);	\
		double rstd = 1 / sqrt(var + ROWNORM_EPS);		\
		_Pragma("omp simd")					\
		for (int64_t j = 0; j < cols; j++)			\
			y[j] = (T)((x[j] - mean) * rstd);		\
	}								\
}
DEFINE_ROWNORM(float)
DEFINE_ROWNORM(double)

static void run_rownorm(const struct cpu_program *c,
			const struct bench_kernel *k)
{
	if (c->precision == BENCH_FP64)
		rownorm_double(c->buffers[k->a], c->buffers[k->c], k->rows,
			       k->cols, c->threads);
	else
		rownorm_float(c->buffers[k->a], c->buffers[k->c], k->rows,
			      k->cols, c->threads);
}

int cpu_program_run(struct cpu_program *c, long iterations, char *why,
		    size_t len)
{
	if (!c || iterations < 1) {
		say(why, len, "run needs a prepared program and at least one "
		    "iteration (%ld)", iterations);
		return BENCH_ERROR;
	}
	/* every GEMM piece runs on one OpenMP thread (run_gemm); per run, as
	 * another suite may have changed OpenBLAS's count */
	openblas_set_num_threads(1);
	for (long it = 0; it < iterations; it++) {
		for (uint64_t i = 0; i < c->n_kernels; i++) {
			const struct bench_kernel *k = &c->kernels[i];
			if (k->kind == BENCH_KERNEL_GEMM)
				run_gemm(c, k);
			else if (k->kind == BENCH_KERNEL_STREAM)
				run_stream(c, k);
			else
				run_rownorm(c, k);
		}
	}
	c->ran = true;
	return BENCH_OK;
}

/* ---- the check ----------------------------------------------------------- */

static double element(const struct cpu_program *c, int32_t b, uint64_t i)
{
	if (c->precision == BENCH_FP64)
		return ((const double *)c->buffers[b])[i];
	return ((const float *)c->buffers[b])[i];
}

/* got against want, where `scale` bounds the magnitudes that went into
 * want: |got - want| <= tol * (|want| + scale), so an output near 0 made
 * of large terms that cancel is judged against the terms.  NaN fails. */
static bool close_enough(const struct cpu_program *c, double got, double want,
			 double scale)
{
	double tol = c->precision == BENCH_FP64 ? TOL_FP64 : TOL_FP32;
	return fabs(got - want) <= tol * (fabs(want) + scale);
}

static int check_gemm_at(const struct cpu_program *c,
			 const struct bench_kernel *k, uint64_t ki,
			 int64_t p, int64_t r, int64_t col, char *why,
			 size_t len)
{
	double want = 0, mag = 0;
	uint64_t ao = (uint64_t)(p * k->a_stride), bo = (uint64_t)(p * k->b_stride);
	for (int64_t l = 0; l < k->k; l++) {
		uint64_t ai = ao + (uint64_t)(k->trans_a ? l * k->m + r : r * k->k + l);
		uint64_t bi = bo + (uint64_t)(k->trans_b ? col * k->k + l : l * k->n + col);
		double t = element(c, k->a, ai) * element(c, k->b, bi);
		want += t;
		mag += fabs(t);
	}
	double got = element(c, k->c, (uint64_t)(p * k->c_stride + r * k->n + col));
	if (close_enough(c, got, want, mag))
		return BENCH_OK;
	return kernel_fail(BENCH_ERROR, why, len, k, ki,
			   "check failed: gemm product %lld C[%lld][%lld] = %.9g, "
			   "want %.9g", (long long)p, (long long)r,
			   (long long)col, got, want);
}

/* Three products (first, middle, last), five elements of each: the
 * corners and two inner points. */
static int check_gemm(const struct cpu_program *c, uint64_t ki, char *why,
		      size_t len)
{
	const struct bench_kernel *k = &c->kernels[ki];
	int64_t m = k->m, n = k->n;
	int64_t prods[3] = {0, k->count / 2, k->count - 1};
	int64_t at[5][2] = {{0, 0}, {m - 1, n - 1}, {m / 2, n / 3},
			    {m / 3, n - 1}, {m - 1, 0}};
	for (int p = 0; p < 3; p++)
		for (int e = 0; e < 5; e++) {
			int rc = check_gemm_at(c, k, ki, prods[p], at[e][0],
					       at[e][1], why, len);
			if (rc != BENCH_OK)
				return rc;
		}
	return BENCH_OK;
}

static int check_stream(const struct cpu_program *c, uint64_t ki, char *why,
			size_t len)
{
	const struct bench_kernel *k = &c->kernels[ki];
	uint64_t n = (uint64_t)k->elements, la = c->elements[k->a];
	uint64_t at[6] = {0, n - 1, n / 2, n / 3, 2 * (n / 3), n / 7 * 5};
	for (int e = 0; e < 6; e++) {
		uint64_t i = at[e];
		double x = element(c, k->a, i % la), want = x, scale = fabs(x);
		if (k->b >= 0) {
			double y = element(c, k->b, i % c->elements[k->b]);
			want = 0.5 * (x + y);
			scale = 0.5 * (fabs(x) + fabs(y));
		}
		double got = element(c, k->c, i);
		if (!close_enough(c, got, want, scale))
			return kernel_fail(BENCH_ERROR, why, len, k, ki,
					   "check failed: stream c[%llu] = %.9g, "
					   "want %.9g", (unsigned long long)i,
					   got, want);
	}
	return BENCH_OK;
}

/* Rows first, middle and last, recomputed with a two-pass variance;
 * three elements of each. */
static int check_rownorm(const struct cpu_program *c, uint64_t ki, char *why,
			 size_t len)
{
	const struct bench_kernel *k = &c->kernels[ki];
	int64_t rows[3] = {0, k->rows / 2, k->rows - 1};
	int64_t cols[3] = {0, k->cols / 2, k->cols - 1};
	for (int r = 0; r < 3; r++) {
		uint64_t base = (uint64_t)(rows[r] * k->cols);
		double mean = 0, var = 0;
		for (int64_t j = 0; j < k->cols; j++)
			mean += element(c, k->a, base + (uint64_t)j);
		mean /= (double)k->cols;
		for (int64_t j = 0; j < k->cols; j++) {
			double d = element(c, k->a, base + (uint64_t)j) - mean;
			var += d * d;
		}
		double rstd = 1 / sqrt(var / (double)k->cols + ROWNORM_EPS);
		for (int e = 0; e < 3; e++) {
			uint64_t i = base + (uint64_t)cols[e];
			double x = element(c, k->a, i);
			double want = (x - mean) * rstd, got = element(c, k->c, i);
			if (!close_enough(c, got, want, (fabs(x) + fabs(mean)) * rstd))
				return kernel_fail(BENCH_ERROR, why, len, k, ki,
						   "check failed: rownorm row %lld "
						   "col %lld = %.9g, want %.9g",
						   (long long)rows[r],
						   (long long)cols[e], got, want);
		}
	}
	return BENCH_OK;
}

int cpu_program_check(struct cpu_program *c, char *why, size_t len)
{
	if (!c || !c->ran) {
		say(why, len, "nothing to check: the program has not run");
		return BENCH_ERROR;
	}
	uint64_t last[4] = {0, 0, 0, 0};	/* 1 + index, by kind */
	for (uint64_t i = 0; i < c->n_kernels; i++)
		last[c->kernels[i].kind] = i + 1;
	int rc = BENCH_OK;
	if (last[BENCH_KERNEL_GEMM])
		rc = check_gemm(c, last[BENCH_KERNEL_GEMM] - 1, why, len);
	if (rc == BENCH_OK && last[BENCH_KERNEL_STREAM])
		rc = check_stream(c, last[BENCH_KERNEL_STREAM] - 1, why, len);
	if (rc == BENCH_OK && last[BENCH_KERNEL_ROWNORM])
		rc = check_rownorm(c, last[BENCH_KERNEL_ROWNORM] - 1, why, len);
	return rc;
}

void *cpu_program_buffer(struct cpu_program *c, uint32_t index)
{
	return c && index < c->n_buffers ? c->buffers[index] : NULL;
}

void cpu_program_free(struct cpu_program *c)
{
	if (!c)
		return;
	if (c->buffers)
		for (uint32_t b = 0; b < c->n_buffers; b++)
			free(c->buffers[b]);
	free(c->buffers);
	free(c->elements);
	free(c->kernels);
	free(c);
}

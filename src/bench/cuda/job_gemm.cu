/*
 * job_gemm.cu - the GEMM job: C = op(A) op(B) through cuBLASLt at any
 * bench_precision, m x n x k.
 *
 * Layout: column-major, C m x n; TN by default (A stored k x m and
 * transposed, B k x n), the one layout fp8 and int8 accept in cuBLASLt
 * and the square suite's for every precision; the training suite asks
 * for NN and NT too (GPUPLAN_JOB_A_PLAIN, GPUPLAN_JOB_B_TRANSPOSED), as a
 * framework's data- and weight-gradient GEMMs are called.
 *
 * Inputs are drawn uniform in [-1, 1) (int8: integers in [-64, 64]),
 * seeded (jobs.h: uniform_value): a GEMM of -1, 0 and 1, or of zeros,
 * flips fewer bits and draws less power, and on a power-limited part runs
 * faster than one of real data.  The check rebuilds the inputs of each
 * sampled element on the host, rounded as the device stored them, sums
 * them in double, and allows what the device's arithmetic may differ by
 * (gemm_bound); int8's int32 sums are exact.
 *
 * A GEMM job also serves the overlap job (job_overlap.cu), which runs one
 * per GPU beside a collective: gemm_enqueue and gemm_stream.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"

/* "The fastest of the heuristic's first few": timing more costs prepare
 * time on big shapes and rarely wins. */
#define GEMM_CANDIDATES 4
/* Timed launches per candidate, after one warm-up. */
#define GEMM_TRIALS 3
/* Checked elements of C. */
#define GEMM_SAMPLES 64

#define SEED_A 0x0a0a0a0au
#define SEED_B 0x0b0b0b0bu

struct gemm_job {
	struct job base;
	int device;
	uint32_t precision;
	uint64_t m, n, k;		/* op(A) m x k, op(B) k x n */
	cudaStream_t stream;
	cublasLtHandle_t lt;
	int have_gemm;			/* g holds descriptors */
	struct lt_gemm g;
	struct job_timer timer;
	void *a, *b, *c, *ws;
	size_t ws_bytes;
};

static void gemm_release(struct job *j)
{
	struct gemm_job *g = (struct gemm_job *)j;

	if (!g)
		return;
	cudaSetDevice(g->device);
	if (g->stream)
		cudaStreamSynchronize(g->stream);
	job_timer_free(&g->timer);
	if (g->have_gemm)
		lt_gemm_free(&g->g);
	if (g->lt)
		cublasLtDestroy(g->lt);
	cudaFree(g->ws);
	cudaFree(g->c);
	cudaFree(g->b);
	cudaFree(g->a);
	if (g->stream)
		cudaStreamDestroy(g->stream);
	/* Frees fail too after a fault; the error worth reporting came
	 * earlier, and the next job must not see these. */
	(void)cudaGetLastError();
	free(g);
}

int gemm_enqueue(struct job *j, int64_t iterations, char *err, size_t errlen)
{
	struct gemm_job *g = (struct gemm_job *)j;
	cublasStatus_t st;
	cudaError_t rc;
	int64_t i;

	if ((rc = cudaSetDevice(g->device)) != cudaSuccess) {
		cuda_status(rc, "cudaSetDevice", err, errlen);
		return BENCH_ERROR;
	}
	for (i = 0; i < iterations; i++) {
		st = lt_gemm_enqueue(g->lt, &g->g, NULL, g->a, g->b, g->c, g->ws,
				     g->ws_bytes, g->stream);
		if (st != CUBLAS_STATUS_SUCCESS) {
			cublas_status(st, "cublasLtMatmul", err, errlen);
			cudaStreamSynchronize(g->stream);
			(void)cudaGetLastError();
			return BENCH_ERROR;
		}
	}
	j->ran = 1;
	return BENCH_OK;
}

/* Poison C (NaN, or -1 for int32) so a check after a run that did
 * nothing cannot pass on the results of runs before it. */
int gemm_poison(struct job *j, char *err, size_t errlen)
{
	struct gemm_job *g = (struct gemm_job *)j;
	cudaError_t rc;

	if ((rc = cudaSetDevice(g->device)) != cudaSuccess ||
	    (rc = cudaMemsetAsync(g->c, 0xff, g->m * g->n * elem_size(g->g.shape.c_type),
				  g->stream)) != cudaSuccess ||
	    (rc = cudaStreamSynchronize(g->stream)) != cudaSuccess)
		return cuda_status(rc, "poisoning the gemm's output", err, errlen);
	return BENCH_OK;
}

cudaStream_t gemm_stream(struct job *j)
{
	return ((struct gemm_job *)j)->stream;
}

static int gemm_run(struct job *j, int64_t iterations, double *seconds,
		    char *err, size_t errlen)
{
	struct gemm_job *g = (struct gemm_job *)j;
	cudaError_t rc;

	if ((rc = cudaSetDevice(g->device)) != cudaSuccess) {
		cuda_status(rc, "cudaSetDevice", err, errlen);
		return BENCH_ERROR;
	}
	if (job_timer_start(&g->timer, g->stream, err, errlen) ||
	    gemm_enqueue(j, iterations, err, errlen))
		return BENCH_ERROR;
	return job_timer_stop(&g->timer, g->stream, seconds, err, errlen);
}

/* Where element (i, l) of op(A) and (l, j) of op(B) are stored,
 * column-major: A k x m (ld k) when transposed, else m x k (ld m); B n x k
 * (ld n) when transposed, else k x n (ld k). */
static uint64_t a_index(const struct gemm_job *g, uint64_t i, uint64_t l)
{
	return g->g.shape.trans_a ? l + i * g->k : i + l * g->m;
}

static uint64_t b_index(const struct gemm_job *g, uint64_t l, uint64_t j)
{
	return g->g.shape.trans_b ? j + l * g->n : l + j * g->k;
}

/* Element (i, j) of C from the stored inputs, in double: the sum, and the
 * sum of the terms' magnitudes and of their squares (for the bound). */
struct gemm_want {
	double sum, abs_sum, sq_sum;
};

static void gemm_want(const struct gemm_job *g, uint64_t i, uint64_t j,
		      struct gemm_want *w)
{
	cudaDataType_t t = g->g.shape.ab_type;
	uint64_t l;

	memset(w, 0, sizeof(*w));
	for (l = 0; l < g->k; l++) {
		double p = uniform_stored(t, a_index(g, i, l), SEED_A, 1.0f) *
			   uniform_stored(t, b_index(g, l, j), SEED_B, 1.0f);

		w->sum += p;
		w->abs_sum += fabs(p);
		w->sq_sum += p * p;
	}
}

/* Relative error of one rounding to the output type, doubled (fp8's
 * output is bf16); 0 for outputs that hold the integer sums exactly. */
static double gemm_out_tol(uint32_t precision)
{
	switch (precision) {
	case BENCH_FP32:
	case BENCH_TF32:
		return ldexp(1.0, -23);
	case BENCH_FP16:
		return ldexp(1.0, -10);
	case BENCH_BF16:
	case BENCH_FP8_E4M3:	/* bf16 output */
		return ldexp(1.0, -7);
	case BENCH_FP64:
		return ldexp(1.0, -52);
	default:		/* int8: int32, exact */
		return 0.0;
	}
}

/*
 * How far the device's C(i, j) may be from the double sum of its own
 * stored inputs:
 *   the output's rounding              out |want|
 *   the accumulation (fp32, or fp64)   8 sqrt(k) u_acc sum |ab|
 *   tf32's rounding of every input,
 *   and split-k partial sums rounded
 *   to the output type                 8 (u_in + out) sqrt(sum (ab)^2)
 * The last two are random walks over the terms: with random data, rounding
 * errors of random sign grow as sqrt(k), not k (N. Higham and T. Mary, "A
 * New Approach to Probabilistic Rounding Error Analysis", 2018-11-22,
 * https://nla-group.org/2018/11/22/a-new-approach-to-probabilistic-rounding-error-analysis/:
 * the constants of the worst-case bounds can be replaced by their square
 * roots); 8 is this check's margin over that scale.  A wrong element (a
 * layout read the wrong way, a stale output) is another sum of random
 * terms, about sqrt(2 sum (ab)^2) away: some ten times the bound.
 */
static double gemm_bound(uint32_t precision, uint64_t k,
			 const struct gemm_want *w)
{
	double out = gemm_out_tol(precision), rk = sqrt((double)k);
	double u_acc = precision == BENCH_FP64 ? ldexp(1.0, -53) : ldexp(1.0, -24);
	double u_in = precision == BENCH_TF32 ? ldexp(1.0, -10) : 0.0;

	if (precision == BENCH_INT8)
		return 0.0;
	return out * fabs(w->sum) + 8.0 * rk * u_acc * w->abs_sum +
	       8.0 * (u_in + out) * sqrt(w->sq_sum);
}

/* Sample s of GEMM_SAMPLES: the four corners, then spread by the pattern. */
static void gemm_sample(const struct gemm_job *g, unsigned int s, uint64_t *i,
			uint64_t *j)
{
	if (s < 4) {
		*i = (s & 1) ? g->m - 1 : 0;
		*j = (s & 2) ? g->n - 1 : 0;
		return;
	}
	*i = pattern_word(2 * s, 0x5a) % g->m;
	*j = pattern_word(2 * s + 1, 0x5a) % g->n;
}

static int gemm_check(struct job *j, char *err, size_t errlen)
{
	struct gemm_job *g = (struct gemm_job *)j;
	unsigned char cell[8];
	cudaError_t rc;
	unsigned int s;

	if ((rc = cudaSetDevice(g->device)) != cudaSuccess ||
	    (rc = cudaStreamSynchronize(g->stream)) != cudaSuccess) {
		cuda_status(rc, "gemm check", err, errlen);
		return BENCH_ERROR;
	}
	for (s = 0; s < GEMM_SAMPLES; s++) {
		struct gemm_want w;
		uint64_t r, c;
		double got, want;

		gemm_sample(g, s, &r, &c);
		if (download(cell, g->c, r + c * g->m, 1, g->g.shape.c_type, err,
			     errlen))
			return BENCH_ERROR;
		got = elem_to_double(cell, g->g.shape.c_type);
		gemm_want(g, r, c, &w);
		want = w.sum;
		/* NaN (the poison prepare left) fails this comparison */
		if (!(fabs(got - want) <= gemm_bound(g->precision, g->k, &w))) {
			set_err(err, errlen,
				"%s gemm %llux%llux%llu wrong at C(%llu,%llu): got %.9g, want %.9g",
				precision_name(g->precision), (unsigned long long)g->m,
				(unsigned long long)g->n, (unsigned long long)g->k,
				(unsigned long long)r, (unsigned long long)c, got, want);
			return BENCH_ERROR;
		}
	}
	return BENCH_OK;
}

static const struct job_ops gemm_ops = { gemm_run, gemm_check, gemm_release };

/* fp8 tensor cores start at sm_89 (Ada); cuBLASLt would only say
 * "not supported" without saying why. */
static int gemm_device_supports(int device, uint32_t precision, char *err,
				size_t errlen)
{
	int major = 0, minor = 0;
	cudaError_t rc;

	if (precision != BENCH_FP8_E4M3)
		return BENCH_OK;
	if ((rc = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
					 device)) != cudaSuccess ||
	    (rc = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor,
					 device)) != cudaSuccess)
		return cuda_status(rc, "cudaDeviceGetAttribute", err, errlen);
	if (major * 10 + minor < 89) {
		set_err(err, errlen,
			"fp8 e4m3 gemm needs compute capability 8.9 or newer (cuda:%d is %d.%d)",
			device, major, minor);
		return BENCH_UNSUPPORTED;
	}
	return BENCH_OK;
}

/* Shape and types; BENCH_ERROR for sizes cuBLASLt cannot take. */
static int gemm_shape(const struct gpuplan_cuda_job *spec, struct lt_shape *s,
		      char *err, size_t errlen)
{
	int ret;

	memset(s, 0, sizeof(*s));
	if (spec->m <= 0 || spec->n <= 0 || spec->k <= 0 ||
	    spec->m > INT32_MAX || spec->n > INT32_MAX || spec->k > INT32_MAX) {
		set_err(err, errlen, "gemm size %lldx%lldx%lld out of range",
			(long long)spec->m, (long long)spec->n, (long long)spec->k);
		return BENCH_ERROR;
	}
	/* Each matrix under 2^56 elements, so byte counts cannot wrap. */
	if ((uint64_t)spec->m * (uint64_t)spec->k > (1ull << 56) ||
	    (uint64_t)spec->k * (uint64_t)spec->n > (1ull << 56) ||
	    (uint64_t)spec->m * (uint64_t)spec->n > (1ull << 56)) {
		set_err(err, errlen, "gemm size %lldx%lldx%lld too large",
			(long long)spec->m, (long long)spec->n, (long long)spec->k);
		return BENCH_OUT_OF_MEMORY;
	}
	if ((ret = lt_types(spec->precision, s, err, errlen)) != BENCH_OK)
		return ret;
	s->trans_a = !(spec->flags & GPUPLAN_JOB_A_PLAIN);
	s->trans_b = (spec->flags & GPUPLAN_JOB_B_TRANSPOSED) != 0;
	if ((spec->precision == BENCH_INT8 || spec->precision == BENCH_FP8_E4M3) &&
	    (!s->trans_a || s->trans_b)) {
		set_err(err, errlen, "%s gemm takes the TN layout only (cuBLASLt)",
			precision_name(spec->precision));
		return BENCH_UNSUPPORTED;
	}
	s->m = (uint64_t)spec->m;
	s->n = (uint64_t)spec->n;
	s->k = (uint64_t)spec->k;
	s->lda = s->trans_a ? spec->k : spec->m;
	s->ldb = s->trans_b ? spec->n : spec->k;
	s->ldc = spec->m;
	s->batch = 1;
	return BENCH_OK;
}

/* Times each candidate and keeps the fastest in g->g.algo. */
static int gemm_choose(struct gemm_job *g, cublasLtMatmulHeuristicResult_t *res,
		       int n, struct gpuplan_cuda_job_info *info, char *err,
		       size_t errlen)
{
	cublasStatus_t st, last = CUBLAS_STATUS_SUCCESS;
	double best = 0.0, t;
	int i, r, chosen = -1;

	for (i = 0; i < n; i++) {
		/* One warm-up, then the timed launches. */
		st = lt_gemm_enqueue(g->lt, &g->g, &res[i].algo, g->a, g->b, g->c,
				     g->ws, g->ws_bytes, g->stream);
		if (st == CUBLAS_STATUS_SUCCESS &&
		    job_timer_start(&g->timer, g->stream, err, errlen))
			return BENCH_ERROR;
		for (r = 0; r < GEMM_TRIALS && st == CUBLAS_STATUS_SUCCESS; r++)
			st = lt_gemm_enqueue(g->lt, &g->g, &res[i].algo, g->a, g->b,
					     g->c, g->ws, g->ws_bytes, g->stream);
		if (st != CUBLAS_STATUS_SUCCESS) {
			/* This candidate would not run; try the next. */
			cudaError_t rc = cudaStreamSynchronize(g->stream);

			if (rc != cudaSuccess)
				return cuda_status(rc, "gemm trial", err, errlen);
			last = st;
			continue;
		}
		if (job_timer_stop(&g->timer, g->stream, &t, err, errlen))
			return BENCH_ERROR;
		if (chosen < 0 || t < best) {
			best = t;
			chosen = i;
		}
	}
	if (chosen < 0)
		return cublas_status(last, "cublasLtMatmul", err, errlen);
	g->g.algo = res[chosen].algo;
	g->g.workspace = res[chosen].workspaceSize;
	snprintf(info->note, sizeof(info->note), "cublasLt algorithm %d of %d chosen",
		 chosen + 1, n);
	return BENCH_OK;
}

/* Matrices and workspace, the inputs filled; largest workspace of the
 * candidates, so any of them can be timed. */
static int gemm_buffers(struct gemm_job *g, const cublasLtMatmulHeuristicResult_t *res,
			int n, char *err, size_t errlen)
{
	size_t ab = elem_size(g->g.shape.ab_type), cs = elem_size(g->g.shape.c_type);
	int i, ret;

	for (i = 0; i < n; i++)
		if (res[i].workspaceSize > g->ws_bytes)
			g->ws_bytes = res[i].workspaceSize;
	if ((ret = dev_alloc(&g->a, g->m * g->k * ab, "gemm A", err, errlen)) ||
	    (ret = dev_alloc(&g->b, g->k * g->n * ab, "gemm B", err, errlen)) ||
	    (ret = dev_alloc(&g->c, g->m * g->n * cs, "gemm C", err, errlen)))
		return ret;
	if (g->ws_bytes &&
	    (ret = dev_alloc(&g->ws, g->ws_bytes, "cublasLt workspace", err, errlen)))
		return ret;
	if ((ret = fill_uniform(g->a, g->g.shape.ab_type, g->m * g->k, SEED_A, 1.0f,
				g->stream, err, errlen)) ||
	    (ret = fill_uniform(g->b, g->g.shape.ab_type, g->k * g->n, SEED_B, 1.0f,
				g->stream, err, errlen)))
		return ret;
	return BENCH_OK;
}

/* Steps of prepare after the job struct exists; g is released on failure
 * by the caller. */
static int gemm_setup(struct gemm_job *g, const struct lt_shape *shape,
		      struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	cublasLtMatmulHeuristicResult_t res[GEMM_CANDIDATES];
	cublasStatus_t st;
	cudaError_t rc;
	int n = 0, ret;

	if ((rc = cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking)) != cudaSuccess) {
		g->stream = NULL;
		return cuda_status(rc, "cudaStreamCreate", err, errlen);
	}
	if ((st = cublasLtCreate(&g->lt)) != CUBLAS_STATUS_SUCCESS) {
		g->lt = NULL;
		return cublas_status(st, "cublasLtCreate", err, errlen);
	}
	if ((ret = job_timer_init(&g->timer, err, errlen)))
		return ret;
	if ((ret = lt_gemm_init(&g->g, shape, err, errlen)))
		return ret;
	g->have_gemm = 1;
	memset(res, 0, sizeof(res));
	ret = lt_gemm_candidates(g->lt, &g->g, LT_WORKSPACE_BYTES, res,
				 GEMM_CANDIDATES, &n, err, errlen);
	if (ret == BENCH_UNSUPPORTED)
		set_err(err, errlen, "cublasLt has no %s gemm algorithm for %llux%llux%llu on cuda:%d",
			precision_name(g->precision), (unsigned long long)g->m,
			(unsigned long long)g->n, (unsigned long long)g->k, g->device);
	if (ret)
		return ret;
	if ((ret = gemm_buffers(g, res, n, err, errlen)) ||
	    (ret = gemm_choose(g, res, n, info, err, errlen)))
		return ret;
	return gemm_poison(&g->base, err, errlen);
}

int gemm_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		 struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	struct gemm_job *g;
	struct lt_shape shape;
	cudaError_t rc;
	int ret;

	if ((ret = gemm_shape(spec, &shape, err, errlen)) ||
	    (ret = gemm_device_supports(spec->device, spec->precision, err, errlen)))
		return ret;
	if ((rc = cudaSetDevice(spec->device)) != cudaSuccess)
		return cuda_status(rc, "cudaSetDevice", err, errlen);
	g = (struct gemm_job *)calloc(1, sizeof(*g));
	if (!g) {
		set_err(err, errlen, "out of host memory for a gemm job");
		return BENCH_OUT_OF_MEMORY;
	}
	g->base.ops = &gemm_ops;
	g->device = spec->device;
	g->precision = spec->precision;
	g->m = shape.m;
	g->n = shape.n;
	g->k = shape.k;
	ret = gemm_setup(g, &shape, info, err, errlen);
	if (ret != BENCH_OK) {
		gemm_release(&g->base);
		return ret;
	}
	*out = &g->base;
	return BENCH_OK;
}

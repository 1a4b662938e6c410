/*
 * job_program.cu - the PROGRAM job: every kernel of a struct bench_program
 * (program_abi.h), in order, on one stream.
 *
 * GEMM kernels go to cuBLASLt, strided-batched when count > 1, with the
 * heuristic's first algorithm (a program holds many GEMMs; timing each
 * one's candidates would make prepare slower than the step).  The program
 * is row-major and cuBLASLt column-major, so each GEMM is given to it
 * transposed: C^T = op(B)^T op(A)^T, i.e. A and B swap places and a
 * row-major matrix is read as its column-major transpose.
 *
 * STREAM and ROWNORM are the plugin's own kernels.  What they compute
 * (program_abi.h leaves it to the executor) is chosen to keep values small
 * and finite however long a chain of kernels is:
 *   STREAM   c = (a + b) / 2, or c = a / 2 + 1/128 without b;
 *   ROWNORM  c = (a - mean) / sqrt(var + 1e-5) per row (a layer norm);
 * with float arithmetic and `flops` only counted by the host.
 *
 * Buffers hold values drawn uniform in [-1/64, 1/64) (jobs.h:
 * uniform_value; |x| <= 1/64, as program_abi.h asks), every mantissa bit
 * varying as in real activations and weights: a program of a few
 * repeated values would draw less power than a real step.  The check
 * reads back what a kernel's inputs hold.  After a warm-up step in prepare
 * (module loading, cuBLASLt's first calls) every written buffer is filled
 * again, so the check sees what the timed run wrote, not the warm-up.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"

#define ROWNORM_EPS 1e-5f
#define ROWNORM_THREADS 256
#define GEMM_SAMPLES 8
#define STREAM_SAMPLES 32
#define ROWNORM_ROWS 4		/* checked rows; every element of each */
#define FILL_SCALE (1.0f / 64.0f)

struct prog_job {
	struct job base;
	int device;
	uint32_t precision;
	cudaDataType_t type;		/* of every buffer */
	cudaStream_t stream;
	cublasLtHandle_t lt;
	struct job_timer timer;
	void *ws;
	size_t ws_bytes;
	uint32_t n_buffers;
	uint64_t *elements;		/* copied from the program */
	int64_t *writer;		/* kernel writing each buffer, or -1 */
	void **bufs;
	uint64_t n_kernels;
	struct bench_kernel *kernels;	/* copied from the program */
	struct lt_gemm *gemms;		/* per kernel; desc NULL unless GEMM */
	unsigned int *grids;		/* per kernel: blocks of STREAM, ROWNORM */
};

/* "kernel 3 (layer 3 attention fwd)" for messages; label may fill its
 * array without a NUL. */
#define KFMT "kernel %llu (%.64s)"
#define KARG(p, i) (unsigned long long)(i), (p)->kernels[i].label

/* ---- kernels ------------------------------------------------------------- */

template <typename T>
static __global__ void stream_kernel(T *__restrict__ c, const T *__restrict__ a,
				     uint64_t la, const T *__restrict__ b,
				     uint64_t lb, uint64_t n)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	/* i % la, kept by stepping instead of a 64-bit division per element. */
	uint64_t ia = i % la, sa = stride % la;
	uint64_t ib = b ? i % lb : 0, sb = b ? stride % lb : 0;

	for (; i < n; i += stride) {
		float x = to_float<T>(a[ia]);

		c[i] = from_float<T>(b ? 0.5f * (x + to_float<T>(b[ib]))
				       : 0.5f * x + (1.0f / 128.0f));
		ia += sa;
		if (ia >= la)
			ia -= la;
		if (b) {
			ib += sb;
			if (ib >= lb)
				ib -= lb;
		}
	}
}

/* Block-wide sum of two values; every thread gets the result. */
static __device__ void block_sum2(float *s1, float *s2)
{
	__shared__ float part1[ROWNORM_THREADS / 32], part2[ROWNORM_THREADS / 32];
	unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32, w;
	float a = *s1, b = *s2;
	int off;

	for (off = 16; off > 0; off /= 2) {
		a += __shfl_down_sync(0xffffffffu, a, off);
		b += __shfl_down_sync(0xffffffffu, b, off);
	}
	if (lane == 0) {
		part1[warp] = a;
		part2[warp] = b;
	}
	__syncthreads();
	a = b = 0.0f;
	for (w = 0; w < ROWNORM_THREADS / 32; w++) {
		a += part1[w];
		b += part2[w];
	}
	*s1 = a;
	*s2 = b;
	/* The parts are reused by the next row. */
	__syncthreads();
}

/*
 * One block per row (grid-stride over rows).  Mean and variance come from
 * sums shifted by the row's first element, which keeps the one-pass
 * variance accurate when the mean is large against the spread.
 */
template <typename T>
static __global__ void rownorm_kernel(T *__restrict__ c, const T *__restrict__ a,
				      uint64_t rows, uint64_t cols)
{
	uint64_t row, j;

	for (row = blockIdx.x; row < rows; row += gridDim.x) {
		const T *in = a + row * cols;
		T *out = c + row * cols;
		float shift = to_float<T>(in[0]), s1 = 0.0f, s2 = 0.0f, mean, var, inv;

		for (j = threadIdx.x; j < cols; j += blockDim.x) {
			float d = to_float<T>(in[j]) - shift;

			s1 += d;
			s2 += d * d;
		}
		block_sum2(&s1, &s2);
		mean = s1 / (float)cols;
		var = fmaxf(s2 / (float)cols - mean * mean, 0.0f);
		inv = rsqrtf(var + ROWNORM_EPS);
		mean += shift;
		for (j = threadIdx.x; j < cols; j += blockDim.x)
			out[j] = from_float<T>((to_float<T>(in[j]) - mean) * inv);
	}
}

/*
 * The grids are worked out once in prepare (prog_grids): an occupancy query
 * per launch would put microseconds of host work between the kernels of
 * the timed step, and a step of short kernels would time the host.
 */
template <typename T>
static unsigned int stream_blocks(const struct bench_kernel *k)
{
	return stream_grid((const void *)stream_kernel<T>, STREAM_THREADS,
			   (uint64_t)k->elements);
}

template <typename T>
static unsigned int rownorm_blocks(const struct bench_kernel *k)
{
	return stream_grid((const void *)rownorm_kernel<T>, ROWNORM_THREADS,
			   (k->rows > (1ll << 40) ? (1ull << 40) : (uint64_t)k->rows) *
				   ROWNORM_THREADS);
}

template <typename T>
static void launch_stream(const struct prog_job *p, const struct bench_kernel *k,
			  unsigned int grid)
{
	stream_kernel<T><<<grid, STREAM_THREADS, 0, p->stream>>>(
		(T *)p->bufs[k->c], (const T *)p->bufs[k->a], p->elements[k->a],
		k->b >= 0 ? (const T *)p->bufs[k->b] : NULL,
		k->b >= 0 ? p->elements[k->b] : 1, (uint64_t)k->elements);
}

template <typename T>
static void launch_rownorm(const struct prog_job *p, const struct bench_kernel *k,
			   unsigned int grid)
{
	rownorm_kernel<T><<<grid, ROWNORM_THREADS, 0, p->stream>>>(
		(T *)p->bufs[k->c], (const T *)p->bufs[k->a], (uint64_t)k->rows,
		(uint64_t)k->cols);
}

/* ---- running --------------------------------------------------------------- */

static int prog_kernel(struct prog_job *p, uint64_t i, char *err, size_t errlen)
{
	const struct bench_kernel *k = &p->kernels[i];
	unsigned int grid = p->grids[i];
	cublasStatus_t st;
	cudaError_t rc;

	if (k->kind == BENCH_KERNEL_GEMM) {
		/* A and B swap places: see the top of the file. */
		st = lt_gemm_enqueue(p->lt, &p->gemms[i], NULL, p->bufs[k->b], p->bufs[k->a],
				     p->bufs[k->c], p->ws, p->ws_bytes, p->stream);
		if (st != CUBLAS_STATUS_SUCCESS) {
			set_err(err, errlen, KFMT ": cublasLtMatmul: %s", KARG(p, i),
				cublasLtGetStatusString(st));
			return BENCH_ERROR;
		}
		return BENCH_OK;
	}
	switch (p->type) {
	case CUDA_R_16F:
		if (k->kind == BENCH_KERNEL_STREAM)
			launch_stream<__half>(p, k, grid);
		else
			launch_rownorm<__half>(p, k, grid);
		break;
	case CUDA_R_16BF:
		if (k->kind == BENCH_KERNEL_STREAM)
			launch_stream<__nv_bfloat16>(p, k, grid);
		else
			launch_rownorm<__nv_bfloat16>(p, k, grid);
		break;
	default:
		if (k->kind == BENCH_KERNEL_STREAM)
			launch_stream<float>(p, k, grid);
		else
			launch_rownorm<float>(p, k, grid);
		break;
	}
	if ((rc = cudaGetLastError()) != cudaSuccess) {
		set_err(err, errlen, KFMT ": launch: %s", KARG(p, i), cudaGetErrorString(rc));
		return rc == cudaErrorNoKernelImageForDevice ? BENCH_UNSUPPORTED : BENCH_ERROR;
	}
	return BENCH_OK;
}

/* One step: every kernel once, enqueued. */
static int prog_step(struct prog_job *p, char *err, size_t errlen)
{
	uint64_t i;
	int ret;

	for (i = 0; i < p->n_kernels; i++)
		if ((ret = prog_kernel(p, i, err, errlen)))
			return ret;
	return BENCH_OK;
}

static int prog_run(struct job *j, int64_t iterations, double *seconds,
		    char *err, size_t errlen)
{
	struct prog_job *p = (struct prog_job *)j;
	cudaError_t rc;
	int64_t i;

	if ((rc = cudaSetDevice(p->device)) != cudaSuccess) {
		cuda_status(rc, "cudaSetDevice", err, errlen);
		return BENCH_ERROR;
	}
	if (job_timer_start(&p->timer, p->stream, err, errlen))
		return BENCH_ERROR;
	for (i = 0; i < iterations; i++)
		if (prog_step(p, err, errlen)) {
			cudaStreamSynchronize(p->stream);
			(void)cudaGetLastError();
			return BENCH_ERROR;
		}
	return job_timer_stop(&p->timer, p->stream, seconds, err, errlen);
}

/* ---- checking ------------------------------------------------------------ */

/* n elements of buffer buf from element `start`, `stride` apart, as
 * doubles into out. */
static int fetch(const struct prog_job *p, int32_t buf, uint64_t start,
		 uint64_t n, uint64_t stride, double *out, char *err, size_t errlen)
{
	size_t es = elem_size(p->type);
	unsigned char *tmp = (unsigned char *)malloc((size_t)n * es);
	const unsigned char *src = (const unsigned char *)p->bufs[buf] + start * es;
	cudaError_t rc;
	uint64_t i;

	if (!tmp) {
		set_err(err, errlen, "out of host memory for the program check");
		return BENCH_ERROR;
	}
	if (stride == 1)
		rc = cudaMemcpy(tmp, src, (size_t)(n * es), cudaMemcpyDeviceToHost);
	else
		rc = cudaMemcpy2D(tmp, es, src, (size_t)(stride * es), es, (size_t)n,
				  cudaMemcpyDeviceToHost);
	if (rc != cudaSuccess) {
		free(tmp);
		cuda_status(rc, "cudaMemcpy for the program check", err, errlen);
		return BENCH_ERROR;
	}
	for (i = 0; i < n; i++)
		out[i] = elem_to_double(tmp + i * es, p->type);
	free(tmp);
	return BENCH_OK;
}

/* Relative error allowed against sum |a||b| for a GEMM of depth k: the
 * input rounding (tf32) or output rounding (fp16, bf16), plus fp32
 * accumulation's worst case. */
static double gemm_tol(uint32_t precision, int64_t k)
{
	double acc = (double)k * ldexp(1.0, -24) + 1e-6;

	switch (precision) {
	case BENCH_TF32: return acc + ldexp(1.0, -9);
	case BENCH_FP16: return acc + ldexp(1.0, -10);
	case BENCH_BF16: return acc + ldexp(1.0, -7);
	default: return acc;
	}
}

/* Relative error of one rounding to the buffers' type, doubled. */
static double type_tol(cudaDataType_t type)
{
	switch (type) {
	case CUDA_R_16F: return ldexp(1.0, -10);
	case CUDA_R_16BF: return ldexp(1.0, -7);
	default: return ldexp(1.0, -23);
	}
}

static int check_gemm(struct prog_job *p, uint64_t ki, double *ra, double *cb,
		      char *err, size_t errlen)
{
	const struct bench_kernel *k = &p->kernels[ki];
	double tol = gemm_tol(p->precision, k->k);
	unsigned int s;

	for (s = 0; s < GEMM_SAMPLES; s++) {
		uint64_t bt = s ? pattern_word(3 * s, 7) % (uint64_t)k->count : 0;
		uint64_t i = s ? pattern_word(3 * s + 1, 7) % (uint64_t)k->m : 0;
		uint64_t j = s ? pattern_word(3 * s + 2, 7) % (uint64_t)k->n : 0;
		uint64_t ao = bt * (uint64_t)k->a_stride, bo = bt * (uint64_t)k->b_stride;
		uint64_t co = bt * (uint64_t)k->c_stride, m = k->m, n = k->n, kk = k->k, l;
		double got, want = 0.0, mag = 0.0;

		/* Row i of op(A) and column j of op(B), as stored. */
		if (fetch(p, k->a, ao + (k->trans_a ? i : i * kk), kk, k->trans_a ? m : 1, ra,
			  err, errlen) ||
		    fetch(p, k->b, bo + (k->trans_b ? j * kk : j), kk, k->trans_b ? 1 : n, cb,
			  err, errlen) ||
		    fetch(p, k->c, co + i * n + j, 1, 1, &got, err, errlen))
			return BENCH_ERROR;
		for (l = 0; l < kk; l++) {
			want += ra[l] * cb[l];
			mag += fabs(ra[l] * cb[l]);
		}
		if (!isfinite(want)) {
			set_err(err, errlen, KFMT ": inputs overflowed %s at product %llu (%llu,%llu)",
				KARG(p, ki), precision_name(p->precision),
				(unsigned long long)bt, (unsigned long long)i, (unsigned long long)j);
			return BENCH_ERROR;
		}
		if (!(fabs(got - want) <= tol * mag + 1e-30)) {
			set_err(err, errlen, KFMT ": gemm wrong at product %llu (%llu,%llu): got %.9g, want %.9g",
				KARG(p, ki), (unsigned long long)bt, (unsigned long long)i,
				(unsigned long long)j, got, want);
			return BENCH_ERROR;
		}
	}
	return BENCH_OK;
}

/* The STREAM formula on the host, rounded as the device rounds it. */
static double stream_want(cudaDataType_t type, double a, int has_b, double b)
{
	float x = (float)a;
	float r = has_b ? 0.5f * (x + (float)b) : 0.5f * x + (1.0f / 128.0f);

	switch (type) {
	case CUDA_R_16F: return __half2float(__float2half_rn(r));
	case CUDA_R_16BF: return __bfloat162float(__float2bfloat16_rn(r));
	default: return r;
	}
}

static int check_stream(struct prog_job *p, uint64_t ki, char *err, size_t errlen)
{
	const struct bench_kernel *k = &p->kernels[ki];
	double tol = type_tol(p->type);
	unsigned int s;

	for (s = 0; s < STREAM_SAMPLES; s++) {
		uint64_t n = (uint64_t)k->elements;
		uint64_t i = s == 0 ? 0 : s == 1 ? n - 1 : pattern_word(s, 11) % n;
		double a, b = 0.0, got, want;

		if (fetch(p, k->a, i % p->elements[k->a], 1, 1, &a, err, errlen) ||
		    (k->b >= 0 && fetch(p, k->b, i % p->elements[k->b], 1, 1, &b, err, errlen)) ||
		    fetch(p, k->c, i, 1, 1, &got, err, errlen))
			return BENCH_ERROR;
		want = stream_want(p->type, a, k->b >= 0, b);
		if (!(fabs(got - want) <= tol * fabs(want))) {
			set_err(err, errlen, KFMT ": stream wrong at element %llu: got %.9g, want %.9g",
				KARG(p, ki), (unsigned long long)i, got, want);
			return BENCH_ERROR;
		}
	}
	return BENCH_OK;
}

static int check_rownorm(struct prog_job *p, uint64_t ki, double *in, double *out,
			 char *err, size_t errlen)
{
	const struct bench_kernel *k = &p->kernels[ki];
	uint64_t cols = (uint64_t)k->cols, rows = (uint64_t)k->rows, j;
	double tol = 4.0 * type_tol(p->type) + 1e-4;
	unsigned int s;

	for (s = 0; s < ROWNORM_ROWS; s++) {
		uint64_t r = s == 0 ? 0 : s == 1 ? rows - 1 : pattern_word(s, 13) % rows;
		double mean = 0.0, var = 0.0, inv;

		if (fetch(p, k->a, r * cols, cols, 1, in, err, errlen) ||
		    fetch(p, k->c, r * cols, cols, 1, out, err, errlen))
			return BENCH_ERROR;
		for (j = 0; j < cols; j++)
			mean += in[j];
		mean /= (double)cols;
		for (j = 0; j < cols; j++)
			var += (in[j] - mean) * (in[j] - mean);
		inv = 1.0 / sqrt(var / (double)cols + ROWNORM_EPS);
		for (j = 0; j < cols; j++) {
			double want = (in[j] - mean) * inv;

			if (!(fabs(out[j] - want) <= tol * (1.0 + fabs(want)))) {
				set_err(err, errlen,
					KFMT ": rownorm wrong at row %llu col %llu: got %.9g, want %.9g",
					KARG(p, ki), (unsigned long long)r, (unsigned long long)j,
					out[j], want);
				return BENCH_ERROR;
			}
		}
	}
	return BENCH_OK;
}

/* Scratch rows for the check: the longest GEMM depth or norm row. */
static uint64_t scratch_len(const struct prog_job *p)
{
	uint64_t i, len = 1;

	for (i = 0; i < p->n_kernels; i++) {
		const struct bench_kernel *k = &p->kernels[i];
		uint64_t l = k->kind == BENCH_KERNEL_GEMM ? (uint64_t)k->k :
			     k->kind == BENCH_KERNEL_ROWNORM ? (uint64_t)k->cols : 1;

		if (l > len)
			len = l;
	}
	return len;
}

static int prog_check(struct job *j, char *err, size_t errlen)
{
	struct prog_job *p = (struct prog_job *)j;
	uint64_t len = scratch_len(p), i;
	double *x = (double *)malloc(len * sizeof(double));
	double *y = (double *)malloc(len * sizeof(double));
	cudaError_t rc;
	int ret = BENCH_OK;

	if (!x || !y) {
		free(x);
		free(y);
		set_err(err, errlen, "out of host memory for the program check");
		return BENCH_ERROR;
	}
	if ((rc = cudaSetDevice(p->device)) != cudaSuccess ||
	    (rc = cudaStreamSynchronize(p->stream)) != cudaSuccess)
		ret = cuda_status(rc, "program check", err, errlen);
	for (i = 0; i < p->n_kernels && ret == BENCH_OK; i++) {
		switch (p->kernels[i].kind) {
		case BENCH_KERNEL_GEMM: ret = check_gemm(p, i, x, y, err, errlen); break;
		case BENCH_KERNEL_STREAM: ret = check_stream(p, i, err, errlen); break;
		default: ret = check_rownorm(p, i, x, y, err, errlen); break;
		}
	}
	free(x);
	free(y);
	return ret == BENCH_OK ? BENCH_OK : BENCH_ERROR;
}

static void prog_release(struct job *j)
{
	struct prog_job *p = (struct prog_job *)j;
	uint64_t i;

	if (!p)
		return;
	cudaSetDevice(p->device);
	if (p->stream)
		cudaStreamSynchronize(p->stream);
	job_timer_free(&p->timer);
	if (p->gemms)
		for (i = 0; i < p->n_kernels; i++)
			lt_gemm_free(&p->gemms[i]);
	if (p->lt)
		cublasLtDestroy(p->lt);
	if (p->bufs)
		for (i = 0; i < p->n_buffers; i++)
			cudaFree(p->bufs[i]);
	cudaFree(p->ws);
	if (p->stream)
		cudaStreamDestroy(p->stream);
	(void)cudaGetLastError();
	free(p->gemms);
	free(p->grids);
	free(p->bufs);
	free(p->writer);
	free(p->elements);
	free(p->kernels);
	free(p);
}

static const struct job_ops prog_ops = { prog_run, prog_check, prog_release };

/* ---- preparing ----------------------------------------------------------- */

/* a * b, or 0 when it does not fit in 63 bits. */
static int mul_fits(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a && b > (uint64_t)INT64_MAX / a)
		return 0;
	*out = a * b;
	return 1;
}

/* Elements a matrix of `size` per product spans over `count` products
 * `stride` apart; 0 when that overflows. */
static uint64_t span(uint64_t size, uint64_t count, uint64_t stride)
{
	uint64_t s;

	if (!mul_fits(count - 1, stride, &s) || s > (uint64_t)INT64_MAX - size)
		return 0;
	return s + size;
}

static int valid_buffer(const struct bench_program *pg, int32_t b, int optional)
{
	return (optional && b == -1) || (b >= 0 && (uint32_t)b < pg->n_buffers);
}

/* The GEMM's sizes and extents; NULL when fine, else what is wrong. */
static const char *bad_gemm(const struct bench_program *pg, const struct bench_kernel *k)
{
	uint64_t mk, kn, mn, a, b, c;

	if (k->m < 1 || k->n < 1 || k->k < 1 || k->count < 1 || k->m > INT32_MAX ||
	    k->n > INT32_MAX || k->k > INT32_MAX || k->count > INT32_MAX ||
	    k->a_stride < 0 || k->b_stride < 0 || k->c_stride < 0)
		return "gemm sizes out of range";
	if (!mul_fits(k->m, k->k, &mk) || !mul_fits(k->k, k->n, &kn) ||
	    !mul_fits(k->m, k->n, &mn))
		return "gemm matrices too large";
	if (k->count > 1 && (uint64_t)k->c_stride < mn)
		return "gemm products overlap in c";
	a = span(mk, k->count, k->a_stride);
	b = span(kn, k->count, k->b_stride);
	c = span(mn, k->count, k->c_stride);
	if (!a || a > pg->buffer_elements[k->a] || !b || b > pg->buffer_elements[k->b] ||
	    !c || c > pg->buffer_elements[k->c])
		return "gemm reaches past the end of a buffer";
	return NULL;
}

/* What is wrong with kernel k of pg, or NULL. */
static const char *bad_kernel(const struct bench_program *pg, const struct bench_kernel *k)
{
	uint64_t rc;

	if (!valid_buffer(pg, k->a, 0) || !valid_buffer(pg, k->c, 0) ||
	    !valid_buffer(pg, k->b, k->kind != BENCH_KERNEL_GEMM))
		return "buffer index out of range";
	if (k->c == k->a || k->c == k->b)
		return "reads the buffer it writes";
	switch (k->kind) {
	case BENCH_KERNEL_GEMM:
		return bad_gemm(pg, k);
	case BENCH_KERNEL_STREAM:
		if (k->elements < 1 || (uint64_t)k->elements > pg->buffer_elements[k->c])
			return "stream writes past the end of c";
		return NULL;
	case BENCH_KERNEL_ROWNORM:
		if (k->rows < 1 || k->cols < 1 || !mul_fits(k->rows, k->cols, &rc) ||
		    rc > pg->buffer_elements[k->a] || rc > pg->buffer_elements[k->c])
			return "rownorm reaches past the end of a buffer";
		return NULL;
	default:
		return "unknown kernel kind";
	}
}

/*
 * program_abi.h: one writer per buffer, and no read before it has run.
 * The check depends on it: an input it fetches must still hold what the
 * kernel read.  writer[] is scratch of n_buffers entries.
 */
static const char *bad_order(const struct bench_program *pg, uint64_t i, int64_t *writer)
{
	const struct bench_kernel *k = &pg->kernels[i];

	if (writer[k->c] >= 0)
		return "writes a buffer another kernel writes";
	writer[k->c] = (int64_t)i;
	return NULL;
}

static int reads_unwritten(const struct bench_program *pg, const int64_t *writer,
			   uint64_t *bad)
{
	uint64_t i;

	for (i = 0; i < pg->n_kernels; i++) {
		const struct bench_kernel *k = &pg->kernels[i];

		if (writer[k->a] > (int64_t)i || (k->b >= 0 && writer[k->b] > (int64_t)i)) {
			*bad = i;
			return 1;
		}
	}
	return 0;
}

static int validate_order(const struct bench_program *pg, char *err, size_t errlen)
{
	int64_t *writer = (int64_t *)malloc(pg->n_buffers * sizeof(*writer));
	const char *why = NULL;
	uint64_t i;

	if (!writer) {
		set_err(err, errlen, "out of host memory for a program job");
		return BENCH_OUT_OF_MEMORY;
	}
	for (i = 0; i < pg->n_buffers; i++)
		writer[i] = -1;
	for (i = 0; i < pg->n_kernels && !why; i++)
		why = bad_order(pg, i, writer);
	if (why)
		i--;
	else if (reads_unwritten(pg, writer, &i))
		why = "reads a buffer before the kernel that writes it";
	free(writer);
	if (why) {
		set_err(err, errlen, "kernel %llu (%.64s): %s", (unsigned long long)i,
			pg->kernels[i].label, why);
		return BENCH_ERROR;
	}
	return BENCH_OK;
}

static int validate(const struct bench_program *pg, cudaDataType_t *type, char *err,
		    size_t errlen)
{
	uint64_t i;
	const char *why;

	switch (pg->precision) {
	case BENCH_FP32: case BENCH_TF32: *type = CUDA_R_32F; break;
	case BENCH_FP16: *type = CUDA_R_16F; break;
	case BENCH_BF16: *type = CUDA_R_16BF; break;
	default:
		set_err(err, errlen, "programs run at fp32, tf32, fp16 or bf16 on a gpu, not %s",
			precision_name(pg->precision));
		return BENCH_UNSUPPORTED;
	}
	if (pg->n_buffers < 1 || !pg->buffer_elements || (pg->n_kernels && !pg->kernels)) {
		set_err(err, errlen, "program without buffers or kernels");
		return BENCH_ERROR;
	}
	for (i = 0; i < pg->n_buffers; i++)
		if (pg->buffer_elements[i] == 0 || pg->buffer_elements[i] > (1ull << 56)) {
			set_err(err, errlen, "program buffer %llu has %llu elements",
				(unsigned long long)i, (unsigned long long)pg->buffer_elements[i]);
			return BENCH_ERROR;
		}
	for (i = 0; i < pg->n_kernels; i++)
		if ((why = bad_kernel(pg, &pg->kernels[i]))) {
			set_err(err, errlen, "kernel %llu (%.64s): %s", (unsigned long long)i,
				pg->kernels[i].label, why);
			return BENCH_ERROR;
		}
	return validate_order(pg, err, errlen);
}

/* The program copied: bench_program is read during prepare only. */
static int prog_copy(struct prog_job *p, const struct bench_program *pg, char *err,
		     size_t errlen)
{
	uint64_t i;

	p->n_buffers = pg->n_buffers;
	p->n_kernels = pg->n_kernels;
	p->elements = (uint64_t *)calloc(p->n_buffers, sizeof(*p->elements));
	p->writer = (int64_t *)calloc(p->n_buffers, sizeof(*p->writer));
	p->bufs = (void **)calloc(p->n_buffers, sizeof(*p->bufs));
	p->kernels = (struct bench_kernel *)calloc(p->n_kernels + 1, sizeof(*p->kernels));
	p->gemms = (struct lt_gemm *)calloc(p->n_kernels + 1, sizeof(*p->gemms));
	p->grids = (unsigned int *)calloc(p->n_kernels + 1, sizeof(*p->grids));
	if (!p->elements || !p->writer || !p->bufs || !p->kernels || !p->gemms ||
	    !p->grids) {
		set_err(err, errlen, "out of host memory for a program job");
		return BENCH_OUT_OF_MEMORY;
	}
	memcpy(p->elements, pg->buffer_elements, p->n_buffers * sizeof(*p->elements));
	if (p->n_kernels)
		memcpy(p->kernels, pg->kernels, p->n_kernels * sizeof(*p->kernels));
	for (i = 0; i < p->n_buffers; i++)
		p->writer[i] = -1;
	for (i = 0; i < p->n_kernels; i++)
		p->writer[p->kernels[i].c] = (int64_t)i;
	return BENCH_OK;
}

/* cuBLASLt descriptors and algorithm of GEMM kernel i; row-major C = op(A)
 * op(B) is column-major C^T = op(B)^T op(A)^T (see the top). */
static int prog_gemm(struct prog_job *p, uint64_t i, char *err, size_t errlen)
{
	const struct bench_kernel *k = &p->kernels[i];
	cublasLtMatmulHeuristicResult_t res;
	struct lt_shape s;
	int got = 0, ret;

	memset(&s, 0, sizeof(s));
	if ((ret = lt_types(p->precision, &s, err, errlen)))
		return ret;
	s.m = (uint64_t)k->n;
	s.n = (uint64_t)k->m;
	s.k = (uint64_t)k->k;
	s.trans_a = k->trans_b;
	s.trans_b = k->trans_a;
	s.lda = k->trans_b ? k->k : k->n;
	s.ldb = k->trans_a ? k->m : k->k;
	s.ldc = k->n;
	s.batch = (int32_t)k->count;
	s.stride_a = k->b_stride;
	s.stride_b = k->a_stride;
	s.stride_c = k->c_stride;
	if ((ret = lt_gemm_init(&p->gemms[i], &s, err, errlen)))
		return ret;
	memset(&res, 0, sizeof(res));
	ret = lt_gemm_candidates(p->lt, &p->gemms[i], LT_WORKSPACE_BYTES, &res, 1, &got,
				 err, errlen);
	if (ret == BENCH_UNSUPPORTED)
		set_err(err, errlen, KFMT ": cublasLt has no %s algorithm for %lldx%lldx%lld x %lld",
			KARG(p, i), precision_name(p->precision), (long long)k->m,
			(long long)k->n, (long long)k->k, (long long)k->count);
	if (ret)
		return ret;
	p->gemms[i].algo = res.algo;
	p->gemms[i].workspace = res.workspaceSize;
	if (res.workspaceSize > p->ws_bytes)
		p->ws_bytes = res.workspaceSize;
	return BENCH_OK;
}

/* Blocks of each STREAM and ROWNORM kernel, on the current device. */
static void prog_grids(struct prog_job *p)
{
	const struct bench_kernel *k;
	uint64_t i;

	for (i = 0; i < p->n_kernels; i++) {
		k = &p->kernels[i];
		if (k->kind == BENCH_KERNEL_GEMM)
			continue;
		switch (p->type) {
		case CUDA_R_16F:
			p->grids[i] = k->kind == BENCH_KERNEL_STREAM ? stream_blocks<__half>(k)
								     : rownorm_blocks<__half>(k);
			break;
		case CUDA_R_16BF:
			p->grids[i] = k->kind == BENCH_KERNEL_STREAM
					      ? stream_blocks<__nv_bfloat16>(k)
					      : rownorm_blocks<__nv_bfloat16>(k);
			break;
		default:
			p->grids[i] = k->kind == BENCH_KERNEL_STREAM ? stream_blocks<float>(k)
								     : rownorm_blocks<float>(k);
			break;
		}
	}
}

/* Every buffer, or every written one when only_written: small values. */
static int prog_fill(struct prog_job *p, int only_written, char *err, size_t errlen)
{
	cudaError_t rc;
	uint32_t b;
	int ret;

	for (b = 0; b < p->n_buffers; b++)
		if ((!only_written || p->writer[b] >= 0) &&
		    (ret = fill_uniform(p->bufs[b], p->type, p->elements[b], 0xb0f0000u + b,
					FILL_SCALE, p->stream, err, errlen)))
			return ret;
	if ((rc = cudaStreamSynchronize(p->stream)) != cudaSuccess)
		return cuda_status(rc, "filling the program's buffers", err, errlen);
	return BENCH_OK;
}

static int prog_setup(struct prog_job *p, const struct bench_program *pg, char *err,
		      size_t errlen)
{
	cublasStatus_t st;
	cudaError_t rc;
	uint64_t i;
	int ret;

	if ((ret = prog_copy(p, pg, err, errlen)))
		return ret;
	if ((rc = cudaStreamCreateWithFlags(&p->stream, cudaStreamNonBlocking)) != cudaSuccess) {
		p->stream = NULL;
		return cuda_status(rc, "cudaStreamCreate", err, errlen);
	}
	if ((st = cublasLtCreate(&p->lt)) != CUBLAS_STATUS_SUCCESS) {
		p->lt = NULL;
		return cublas_status(st, "cublasLtCreate", err, errlen);
	}
	if ((ret = job_timer_init(&p->timer, err, errlen)))
		return ret;
	prog_grids(p);
	for (i = 0; i < p->n_kernels; i++)
		if (p->kernels[i].kind == BENCH_KERNEL_GEMM &&
		    (ret = prog_gemm(p, i, err, errlen)))
			return ret;
	for (i = 0; i < p->n_buffers; i++)
		if ((ret = dev_alloc(&p->bufs[i], p->elements[i] * elem_size(p->type),
				     "program buffer", err, errlen)))
			return ret;
	if (p->ws_bytes &&
	    (ret = dev_alloc(&p->ws, p->ws_bytes, "cublasLt workspace", err, errlen)))
		return ret;
	if ((ret = prog_fill(p, 0, err, errlen)) || (ret = prog_step(p, err, errlen)))
		return ret;
	if ((rc = cudaStreamSynchronize(p->stream)) != cudaSuccess)
		return cuda_status(rc, "warm-up step", err, errlen);
	return prog_fill(p, 1, err, errlen);
}

int program_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		    struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	struct prog_job *p;
	cudaDataType_t type;
	cudaError_t rc;
	int ret;

	(void)info;
	if ((ret = validate(spec->program, &type, err, errlen)))
		return ret;
	if ((rc = cudaSetDevice(spec->device)) != cudaSuccess)
		return cuda_status(rc, "cudaSetDevice", err, errlen);
	p = (struct prog_job *)calloc(1, sizeof(*p));
	if (!p) {
		set_err(err, errlen, "out of host memory for a program job");
		return BENCH_OUT_OF_MEMORY;
	}
	p->base.ops = &prog_ops;
	p->device = spec->device;
	p->precision = spec->program->precision;
	p->type = type;
	ret = prog_setup(p, spec->program, err, errlen);
	if (ret != BENCH_OK) {
		prog_release(&p->base);
		return ret;
	}
	*out = &p->base;
	return BENCH_OK;
}

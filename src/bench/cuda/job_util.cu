/*
 * job_util.cu - what every job needs: error text and status codes,
 * allocation that tells out-of-memory apart, event timing, and the fill
 * patterns the checks compare against.  See jobs.h.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"

void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int cuda_fail(char *err, size_t errlen, const char *what, cudaError_t rc)
{
	set_err(err, errlen, "%s: %s", what, cudaGetErrorString(rc));
	return -1;
}

int cuda_status(cudaError_t rc, const char *what, char *err, size_t errlen)
{
	set_err(err, errlen, "%s: %s", what, cudaGetErrorString(rc));
	/* Resets the thread's last error; a sticky fault stays, which is
	 * right: nothing on that context can work any more. */
	(void)cudaGetLastError();
	return rc == cudaErrorMemoryAllocation ? BENCH_OUT_OF_MEMORY
					       : BENCH_ERROR;
}

int cublas_status(cublasStatus_t st, const char *what, char *err,
		  size_t errlen)
{
	set_err(err, errlen, "%s: %s", what, cublasLtGetStatusString(st));
	(void)cudaGetLastError();
	switch (st) {
	case CUBLAS_STATUS_ALLOC_FAILED:
		return BENCH_OUT_OF_MEMORY;
	case CUBLAS_STATUS_NOT_SUPPORTED:
	case CUBLAS_STATUS_ARCH_MISMATCH:
		return BENCH_UNSUPPORTED;
	default:
		return BENCH_ERROR;
	}
}

const char *precision_name(uint32_t precision)
{
	const char *name = bench_precision_label(precision);
	return name ? name : "unknown precision";
}

int dev_alloc(void **p, uint64_t bytes, const char *what, char *err,
	      size_t errlen)
{
	char msg[96];
	cudaError_t rc;

	*p = NULL;
	if (bytes > SIZE_MAX) {
		set_err(err, errlen, "%s: %llu bytes do not fit in size_t", what,
			(unsigned long long)bytes);
		return BENCH_OUT_OF_MEMORY;
	}
	rc = cudaMalloc(p, (size_t)bytes);
	if (rc == cudaSuccess)
		return BENCH_OK;
	*p = NULL;
	snprintf(msg, sizeof(msg), "cudaMalloc of %llu bytes for %s",
		 (unsigned long long)bytes, what);
	return cuda_status(rc, msg, err, errlen);
}

int host_alloc(void **p, uint64_t bytes, int pinned, const char *what,
	       char *err, size_t errlen)
{
	char msg[96];
	cudaError_t rc;

	*p = NULL;
	if (bytes > SIZE_MAX || bytes == 0) {
		set_err(err, errlen, "%s: %llu bytes of host memory is out of range",
			what, (unsigned long long)bytes);
		return bytes ? BENCH_OUT_OF_MEMORY : BENCH_ERROR;
	}
	if (pinned) {
		rc = cudaHostAlloc(p, (size_t)bytes, cudaHostAllocDefault);
		if (rc == cudaSuccess)
			return BENCH_OK;
		*p = NULL;
		snprintf(msg, sizeof(msg), "cudaHostAlloc of %llu bytes for %s",
			 (unsigned long long)bytes, what);
		return cuda_status(rc, msg, err, errlen);
	}
	*p = malloc((size_t)bytes);
	if (!*p) {
		set_err(err, errlen, "out of host memory for %llu bytes (%s)",
			(unsigned long long)bytes, what);
		return BENCH_OUT_OF_MEMORY;
	}
	memset(*p, 0, (size_t)bytes);
	return BENCH_OK;
}

void host_free(void *p, int pinned)
{
	if (!p)
		return;
	if (pinned)
		cudaFreeHost(p);
	else
		free(p);
}

int job_timer_init(struct job_timer *t, char *err, size_t errlen)
{
	cudaError_t rc;

	t->start = t->stop = NULL;
	if ((rc = cudaEventCreate(&t->start)) != cudaSuccess ||
	    (rc = cudaEventCreate(&t->stop)) != cudaSuccess) {
		job_timer_free(t);
		return cuda_status(rc, "cudaEventCreate", err, errlen);
	}
	return BENCH_OK;
}

void job_timer_free(struct job_timer *t)
{
	if (t->stop)
		cudaEventDestroy(t->stop);
	if (t->start)
		cudaEventDestroy(t->start);
	t->start = t->stop = NULL;
}

int job_timer_start(struct job_timer *t, cudaStream_t s, char *err, size_t errlen)
{
	cudaError_t rc = cudaEventRecord(t->start, s);

	if (rc != cudaSuccess) {
		cuda_status(rc, "cudaEventRecord", err, errlen);
		return BENCH_ERROR;
	}
	return BENCH_OK;
}

int job_timer_stop(struct job_timer *t, cudaStream_t s, double *seconds,
	       char *err, size_t errlen)
{
	cudaError_t rc;
	float ms = 0.0f;

	if ((rc = cudaEventRecord(t->stop, s)) != cudaSuccess) {
		cuda_status(rc, "cudaEventRecord", err, errlen);
		return BENCH_ERROR;
	}
	/* A fault in the timed work surfaces here. */
	if ((rc = cudaEventSynchronize(t->stop)) != cudaSuccess) {
		cuda_status(rc, "timed run", err, errlen);
		return BENCH_ERROR;
	}
	if ((rc = cudaEventElapsedTime(&ms, t->start, t->stop)) != cudaSuccess) {
		cuda_status(rc, "cudaEventElapsedTime", err, errlen);
		return BENCH_ERROR;
	}
	if (!(ms > 0.0f)) {
		set_err(err, errlen,
			"run finished below the event timer's resolution; use more iterations");
		return BENCH_ERROR;
	}
	*seconds = ms / 1000.0;
	return BENCH_OK;
}

/* Word-wide writes for the body, byte writes for a tail of < 4 bytes. */
static __global__ void pattern_kernel(uint8_t *p, uint64_t bytes, uint32_t seed)
{
	uint64_t words = bytes / 4;
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	uint64_t j;

	for (j = i; j < words; j += stride)
		((uint32_t *)p)[j] = pattern_word(j, seed);
	if (i < bytes % 4)
		p[words * 4 + i] = pattern_byte(words * 4 + i, seed);
}

unsigned int stream_grid(const void *kernel, int threads, uint64_t items)
{
	int dev = 0, sms = 1, per_sm = 0;
	uint64_t blocks, need = (items + threads - 1) / threads;

	/* Fallbacks keep the grid sane if a query fails; the launch itself
	 * is checked by the caller. */
	if (cudaGetDevice(&dev) != cudaSuccess ||
	    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
	    sms < 1)
		sms = 1;
	if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0) !=
		    cudaSuccess || per_sm < 1)
		per_sm = 1;
	(void)cudaGetLastError();
	blocks = (uint64_t)sms * (uint64_t)per_sm;
	if (need < blocks)
		blocks = need;
	return blocks ? (unsigned int)blocks : 1u;
}

int fill_pattern(void *dev, uint64_t bytes, uint32_t seed, cudaStream_t s,
		 char *err, size_t errlen)
{
	unsigned int grid = stream_grid((const void *)pattern_kernel,
					STREAM_THREADS, bytes / 4 + 4);
	cudaError_t rc;

	pattern_kernel<<<grid, STREAM_THREADS, 0, s>>>((uint8_t *)dev, bytes, seed);
	if ((rc = cudaGetLastError()) != cudaSuccess)
		return cuda_status(rc, "fill kernel launch", err, errlen);
	return BENCH_OK;
}

void fill_pattern_host(void *host, uint64_t bytes, uint32_t seed)
{
	uint8_t *p = (uint8_t *)host;
	uint64_t i;

	for (i = 0; i < bytes; i++)
		p[i] = pattern_byte(i, seed);
}

/* Sampled blocks of 64 KiB for the byte checks. */
#define SAMPLE_BLOCK_BYTES (64u << 10)

uint64_t sample_offset(uint64_t total, uint64_t block, unsigned int b)
{
	uint64_t span;

	if (total <= (uint64_t)SAMPLE_BLOCKS * block)
		return (uint64_t)b * block;
	/* Evenly spread, the last one ending at the last unit. */
	span = total - block;
	return span / (SAMPLE_BLOCKS - 1) * b +
	       span % (SAMPLE_BLOCKS - 1) * b / (SAMPLE_BLOCKS - 1);
}

static int compare_block(const uint8_t *got, uint64_t off, uint64_t len,
			 uint32_t seed, const char *what, char *err,
			 size_t errlen)
{
	uint64_t i;

	for (i = 0; i < len; i++) {
		uint8_t want = pattern_byte(off + i, seed);

		if (got[i] != want) {
			set_err(err, errlen,
				"%s wrong at byte %llu: got 0x%02x, want 0x%02x",
				what, (unsigned long long)(off + i), got[i], want);
			return BENCH_ERROR;
		}
	}
	return BENCH_OK;
}

int check_pattern_dev(const void *dev, uint64_t bytes, uint32_t seed,
		      const char *what, char *err, size_t errlen)
{
	uint8_t *buf;
	cudaError_t rc;
	unsigned int b;
	int ret = BENCH_OK;

	if ((rc = cudaDeviceSynchronize()) != cudaSuccess) {
		cuda_status(rc, "cudaDeviceSynchronize", err, errlen);
		return BENCH_ERROR;
	}
	buf = (uint8_t *)malloc(SAMPLE_BLOCK_BYTES);
	if (!buf) {
		set_err(err, errlen, "out of host memory for the check of %s", what);
		return BENCH_ERROR;
	}
	for (b = 0; b < SAMPLE_BLOCKS && ret == BENCH_OK; b++) {
		uint64_t off = sample_offset(bytes, SAMPLE_BLOCK_BYTES, b);
		uint64_t len;

		if (off >= bytes)
			break;
		len = bytes - off < SAMPLE_BLOCK_BYTES ? bytes - off : SAMPLE_BLOCK_BYTES;
		rc = cudaMemcpy(buf, (const uint8_t *)dev + off, (size_t)len,
				cudaMemcpyDeviceToHost);
		if (rc != cudaSuccess) {
			cuda_status(rc, "cudaMemcpy for the check", err, errlen);
			ret = BENCH_ERROR;
			break;
		}
		ret = compare_block(buf, off, len, seed, what, err, errlen);
	}
	free(buf);
	return ret;
}

int check_pattern_host(const void *host, uint64_t bytes, uint32_t seed,
		       const char *what, char *err, size_t errlen)
{
	unsigned int b;

	for (b = 0; b < SAMPLE_BLOCKS; b++) {
		uint64_t off = sample_offset(bytes, SAMPLE_BLOCK_BYTES, b);
		uint64_t len;

		if (off >= bytes)
			break;
		len = bytes - off < SAMPLE_BLOCK_BYTES ? bytes - off : SAMPLE_BLOCK_BYTES;
		if (compare_block((const uint8_t *)host + off, off, len, seed,
				  what, err, errlen))
			return BENCH_ERROR;
	}
	return BENCH_OK;
}

template <typename T>
static __global__ void small_kernel(T *p, uint64_t n, uint32_t seed, int range,
				    float scale)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	uint64_t i;

	for (i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		p[i] = from_float<T>((float)small_int(i, seed, range) * scale);
}

template <typename T>
static void launch_small(void *dev, uint64_t n, uint32_t seed, int range,
			float scale, cudaStream_t s)
{
	unsigned int grid = stream_grid((const void *)small_kernel<T>,
					STREAM_THREADS, n);

	small_kernel<T><<<grid, STREAM_THREADS, 0, s>>>((T *)dev, n, seed, range,
							scale);
}

int fill_small(void *dev, cudaDataType_t type, uint64_t n, uint32_t seed,
	       int range, float scale, cudaStream_t s, char *err,
	       size_t errlen)
{
	cudaError_t rc;

	switch (type) {
	case CUDA_R_64F: launch_small<double>(dev, n, seed, range, scale, s); break;
	case CUDA_R_32F: launch_small<float>(dev, n, seed, range, scale, s); break;
	case CUDA_R_16F: launch_small<__half>(dev, n, seed, range, scale, s); break;
	case CUDA_R_16BF: launch_small<__nv_bfloat16>(dev, n, seed, range, scale, s); break;
	case CUDA_R_8I: launch_small<int8_t>(dev, n, seed, range, scale, s); break;
	case CUDA_R_8F_E4M3: launch_small<__nv_fp8_e4m3>(dev, n, seed, range, scale, s); break;
	default:
		set_err(err, errlen, "fill of data type %d not supported", (int)type);
		return BENCH_ERROR;
	}
	if ((rc = cudaGetLastError()) != cudaSuccess)
		return cuda_status(rc, "fill kernel launch", err, errlen);
	return BENCH_OK;
}

/* uniform_value (or uniform_int8) at element i, as T. */
template <typename T>
__host__ __device__ static inline T uniform_as(uint64_t i, uint32_t seed, float scale)
{
	return from_float<T>(uniform_value(i, seed) * scale);
}

template <>
__host__ __device__ inline int8_t uniform_as<int8_t>(uint64_t i, uint32_t seed, float scale)
{
	(void)scale;
	return (int8_t)uniform_int8(i, seed);
}

template <typename T>
static __global__ void uniform_kernel(T *p, uint64_t n, uint32_t seed, float scale)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	uint64_t i;

	for (i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		p[i] = uniform_as<T>(i, seed, scale);
}

template <typename T>
static void launch_uniform(void *dev, uint64_t n, uint32_t seed, float scale,
			   cudaStream_t s)
{
	unsigned int grid = stream_grid((const void *)uniform_kernel<T>,
					STREAM_THREADS, n);

	uniform_kernel<T><<<grid, STREAM_THREADS, 0, s>>>((T *)dev, n, seed, scale);
}

int fill_uniform(void *dev, cudaDataType_t type, uint64_t n, uint32_t seed,
		 float scale, cudaStream_t s, char *err, size_t errlen)
{
	cudaError_t rc;

	switch (type) {
	case CUDA_R_64F: launch_uniform<double>(dev, n, seed, scale, s); break;
	case CUDA_R_32F: launch_uniform<float>(dev, n, seed, scale, s); break;
	case CUDA_R_16F: launch_uniform<__half>(dev, n, seed, scale, s); break;
	case CUDA_R_16BF: launch_uniform<__nv_bfloat16>(dev, n, seed, scale, s); break;
	case CUDA_R_8I: launch_uniform<int8_t>(dev, n, seed, scale, s); break;
	case CUDA_R_8F_E4M3: launch_uniform<__nv_fp8_e4m3>(dev, n, seed, scale, s); break;
	default:
		set_err(err, errlen, "fill of data type %d not supported", (int)type);
		return BENCH_ERROR;
	}
	if ((rc = cudaGetLastError()) != cudaSuccess)
		return cuda_status(rc, "fill kernel launch", err, errlen);
	return BENCH_OK;
}

double uniform_stored(cudaDataType_t type, uint64_t i, uint32_t seed, float scale)
{
	switch (type) {
	case CUDA_R_64F: return uniform_as<double>(i, seed, scale);
	case CUDA_R_32F: return uniform_as<float>(i, seed, scale);
	case CUDA_R_16F: return __half2float(uniform_as<__half>(i, seed, scale));
	case CUDA_R_16BF: return __bfloat162float(uniform_as<__nv_bfloat16>(i, seed, scale));
	case CUDA_R_8I: return uniform_as<int8_t>(i, seed, scale);
	case CUDA_R_8F_E4M3: return (float)uniform_as<__nv_fp8_e4m3>(i, seed, scale);
	default: return NAN;
	}
}

size_t elem_size(cudaDataType_t type)
{
	switch (type) {
	case CUDA_R_64F: return 8;
	case CUDA_R_32F: case CUDA_R_32I: return 4;
	case CUDA_R_16F: case CUDA_R_16BF: return 2;
	case CUDA_R_8I: case CUDA_R_8F_E4M3: return 1;
	default: return 0;
	}
}

double elem_to_double(const void *p, cudaDataType_t type)
{
	switch (type) {
	case CUDA_R_64F: { double v; memcpy(&v, p, sizeof(v)); return v; }
	case CUDA_R_32F: { float v; memcpy(&v, p, sizeof(v)); return v; }
	case CUDA_R_32I: { int32_t v; memcpy(&v, p, sizeof(v)); return v; }
	case CUDA_R_16F: { __half v; memcpy(&v, p, sizeof(v)); return __half2float(v); }
	case CUDA_R_16BF: { __nv_bfloat16 v; memcpy(&v, p, sizeof(v)); return __bfloat162float(v); }
	case CUDA_R_8I: { int8_t v; memcpy(&v, p, sizeof(v)); return v; }
	case CUDA_R_8F_E4M3: { __nv_fp8_e4m3 v; memcpy(&v, p, sizeof(v)); return (float)v; }
	default: return NAN;
	}
}

int download(void *host, const void *src, uint64_t index, uint64_t n,
	     cudaDataType_t type, char *err, size_t errlen)
{
	size_t sz = elem_size(type);
	cudaError_t rc = cudaMemcpy(host, (const uint8_t *)src + index * sz,
				    (size_t)(n * sz), cudaMemcpyDeviceToHost);

	if (rc != cudaSuccess) {
		cuda_status(rc, "cudaMemcpy for the check", err, errlen);
		return BENCH_ERROR;
	}
	return BENCH_OK;
}

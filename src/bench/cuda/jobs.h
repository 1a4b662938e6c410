/*
 * jobs.h - what the files of libgpuplan-cuda.so share; internal, never
 * installed.  plugin_abi.h is the contract with gpuplan; this header only
 * splits the plugin into files along its seams:
 *
 *   plugin.cu          the table, init, device info, self-test
 *   jobs.cu            the job hooks: checks, dispatch, device_bytes
 *   job_util.cu        errors, allocation, events, fill patterns, checks
 *   lt_gemm.cu         cuBLASLt descriptors shared by GEMM and PROGRAM
 *   job_gemm.cu        GEMM (every bench_precision)
 *   job_memory.cu      COPY, TRIAD, LAUNCH kernels
 *   job_transfer.cu    H2D, D2H, D2D, P2P
 *   job_allreduce.cu   ALLREDUCE through a dlopen()ed NCCL
 *   job_overlap.cu     GEMM beside a collective (GPUPLAN_JOB_BESIDE_COMM)
 *   job_program.cu     PROGRAM (program_abi.h)
 *
 * Every job is a struct that starts with struct job, whose ops say how to
 * run, check and release it.  A *_prepare function returns an enum
 * bench_status and, unless it is BENCH_OK, has freed everything it
 * allocated and cleared the CUDA error it met (plugin_abi.h: "a failed
 * prepare holds nothing").
 *
 * Everything here has hidden visibility (the target's preset): the .so
 * exports gpuplan_cuda_plugin_entry alone.
 */
#ifndef GPUPLAN_BENCH_CUDA_JOBS_H
#define GPUPLAN_BENCH_CUDA_JOBS_H

#include <stddef.h>
#include <stdint.h>

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include "plugin_abi.h"

/* Variadic: __CUDA_ARCH_LIST__ expands to "750,800,..." with commas. */
#define STR_(...) #__VA_ARGS__
#define STR(...) STR_(__VA_ARGS__)
#ifdef __CUDA_ARCH_LIST__
#define ARCH_LIST STR(__CUDA_ARCH_LIST__)
#else
#define ARCH_LIST "unknown"
#endif

/* Threads per block for the streaming kernels: a multiple of the warp size
 * that keeps every architecture we build for at full occupancy. */
#define STREAM_THREADS 256

/* ---- errors (job_util.cu) ------------------------------------------------ */

void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "what: reason" for a failed CUDA call; returns -1 (the ABI 1 hooks). */
int cuda_fail(char *err, size_t errlen, const char *what, cudaError_t rc);

/*
 * "what: reason" for a failed CUDA call, as an enum bench_status:
 * BENCH_OUT_OF_MEMORY for cudaErrorMemoryAllocation, else BENCH_ERROR.
 * Clears the thread's last CUDA error either way, so a job that failed
 * does not make the next one fail.
 */
int cuda_status(cudaError_t rc, const char *what, char *err, size_t errlen);

/* The same for cuBLASLt: ALLOC_FAILED is BENCH_OUT_OF_MEMORY,
 * NOT_SUPPORTED and ARCH_MISMATCH are BENCH_UNSUPPORTED. */
int cublas_status(cublasStatus_t st, const char *what, char *err,
		  size_t errlen);

/* plugin.cu: 0 when init ran and dev is one of its devices, else -1 with
 * the reason. */
int plugin_check_device(int dev, char *err, size_t errlen);

const char *precision_name(uint32_t precision);

/* ---- memory (job_util.cu) ------------------------------------------------ */

/* cudaMalloc on the current device; an enum bench_status, *p NULL unless
 * BENCH_OK. */
int dev_alloc(void **p, uint64_t bytes, const char *what, char *err,
	      size_t errlen);

/* Host memory: pinned with cudaHostAlloc, else malloc'ed and every page
 * written, so a pageable copy does not time first-touch faults.  An enum
 * bench_status; host_free takes the same pinned flag. */
int host_alloc(void **p, uint64_t bytes, int pinned, const char *what,
	       char *err, size_t errlen);
void host_free(void *p, int pinned);

/* ---- timing (job_util.cu) ------------------------------------------------ */

struct job_timer {
	cudaEvent_t start, stop;	/* on the device current at create */
};

int job_timer_init(struct job_timer *t, char *err, size_t errlen);
void job_timer_free(struct job_timer *t);
int job_timer_start(struct job_timer *t, cudaStream_t s, char *err,
		size_t errlen);
/* Records stop on s, waits for it and stores start..stop in seconds.
 * BENCH_OK or BENCH_ERROR (a run below the timer's resolution is one). */
int job_timer_stop(struct job_timer *t, cudaStream_t s, double *seconds,
	       char *err, size_t errlen);

/* ---- fill patterns and checks (job_util.cu) ------------------------------ */

/* A 32-bit mix of a word index: the byte pattern copies carry, so a byte
 * that lands in the wrong place (or not at all) is seen. */
__host__ __device__ static inline uint32_t pattern_word(uint64_t word,
							uint32_t seed)
{
	uint64_t x = (word + 1) * 0x9E3779B97F4A7C15ull ^ seed;

	x ^= x >> 29;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 32;
	return (uint32_t)x;
}

/* Byte i of the pattern: byte i % 4 of word i / 4, little-endian. */
__host__ __device__ static inline uint8_t pattern_byte(uint64_t i,
						       uint32_t seed)
{
	return (uint8_t)(pattern_word(i >> 2, seed) >> ((i & 3) * 8));
}

/*
 * A small integer in [-range, range] for element i: GEMM inputs made of
 * these give sums every precision holds exactly (or nearly, once rounded
 * to a 16-bit output), so a host check can be strict.
 */
__host__ __device__ static inline int small_int(uint64_t i, uint32_t seed,
						int range)
{
	return (int)(pattern_word(i, seed) % (uint32_t)(2 * range + 1)) - range;
}

/*
 * Element i of a seeded uniform draw in [-1, 1) with 24 random bits
 * (exact in float), and the integers the int8 GEMM is filled with,
 * uniform in [-64, 64] (a sum of k products stays within int32 for k up
 * to 2^19).  Host and device compute the same values, so a check can
 * rebuild any input; every mantissa bit varies, as in real activations
 * and weights (a GEMM of zeros or of a few values draws less power and
 * runs faster on a power-limited part).
 */
__host__ __device__ static inline float uniform_value(uint64_t i, uint32_t seed)
{
	return (float)(pattern_word(i, seed) >> 8) * (1.0f / 8388608.0f) - 1.0f;
}

#define UNIFORM_INT8_RANGE 64
__host__ __device__ static inline int uniform_int8(uint64_t i, uint32_t seed)
{
	return (int)(pattern_word(i, seed) % (2u * UNIFORM_INT8_RANGE + 1)) -
	       UNIFORM_INT8_RANGE;
}

/*
 * Where sampled block b (0..SAMPLE_BLOCKS-1) of `block` units starts in
 * `total` units: the first at 0, the last ending at the end, the rest
 * evenly between; all of a buffer of at most SAMPLE_BLOCKS blocks (a start
 * >= total means no such block).
 */
#define SAMPLE_BLOCKS 16
uint64_t sample_offset(uint64_t total, uint64_t block, unsigned int b);

/* Element conversions both sides use, so host and device agree on every
 * stored value (C++ templates: every file here is CUDA C++). */
template <typename T> __host__ __device__ inline T from_float(float v);
template <> __host__ __device__ inline double from_float<double>(float v) { return v; }
template <> __host__ __device__ inline float from_float<float>(float v) { return v; }
template <> __host__ __device__ inline __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __host__ __device__ inline __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }
template <> __host__ __device__ inline int8_t from_float<int8_t>(float v) { return (int8_t)v; }
template <> __host__ __device__ inline __nv_fp8_e4m3 from_float<__nv_fp8_e4m3>(float v) { return __nv_fp8_e4m3(v); }

template <typename T> __host__ __device__ inline float to_float(T v);
template <> __host__ __device__ inline float to_float<float>(float v) { return v; }
template <> __host__ __device__ inline float to_float<__half>(__half v) { return __half2float(v); }
template <> __host__ __device__ inline float to_float<__nv_bfloat16>(__nv_bfloat16 v) { return __bfloat162float(v); }

/* Writes the byte pattern over bytes of device memory, on stream s. */
int fill_pattern(void *dev, uint64_t bytes, uint32_t seed, cudaStream_t s,
		 char *err, size_t errlen);
/* Writes the byte pattern into host memory. */
void fill_pattern_host(void *host, uint64_t bytes, uint32_t seed);

/*
 * Compares sampled blocks of device (or host) memory with the pattern,
 * exactly: the first and last blocks and blocks spread between them.
 * BENCH_OK, or BENCH_ERROR naming `what` and the first wrong byte.  The
 * device version waits for the whole device first.
 */
int check_pattern_dev(const void *dev, uint64_t bytes, uint32_t seed,
		      const char *what, char *err, size_t errlen);
int check_pattern_host(const void *host, uint64_t bytes, uint32_t seed,
		       const char *what, char *err, size_t errlen);

/* Element i = small_int(i, seed, range) * scale, stored as `type`
 * (double, float, half, bf16, int8, fp8 e4m3), on stream s. */
int fill_small(void *dev, cudaDataType_t type, uint64_t n, uint32_t seed,
	       int range, float scale, cudaStream_t s, char *err,
	       size_t errlen);

/* Element i = uniform_value(i, seed) * scale stored as `type` (double,
 * float, half, bf16, fp8 e4m3; int8 takes uniform_int8 and no scale), on
 * stream s. */
int fill_uniform(void *dev, cudaDataType_t type, uint64_t n, uint32_t seed,
		 float scale, cudaStream_t s, char *err, size_t errlen);

/* What fill_uniform stores at element i, read back as a double: the host
 * side of the same rounding. */
double uniform_stored(cudaDataType_t type, uint64_t i, uint32_t seed,
		      float scale);

/* Bytes of one element of a cudaDataType_t we use; 0 for any other. */
size_t elem_size(cudaDataType_t type);
/* One element of `type` at p (host memory) as a double. */
double elem_to_double(const void *p, cudaDataType_t type);

/* Copies n elements of `type` from device element `index` of src to host. */
int download(void *host, const void *src, uint64_t index, uint64_t n,
	     cudaDataType_t type, char *err, size_t errlen);

/* Grid for a grid-stride streaming kernel: as many blocks of `threads` as
 * the device keeps resident at once, fewer when the work is smaller. */
unsigned int stream_grid(const void *kernel, int threads, uint64_t items);

/* ---- the ABI 2 hooks (jobs.cu), for plugin.cu's table --------------------- */

int hook_job_prepare(const struct gpuplan_cuda_job *job, void **handle,
		     struct gpuplan_cuda_job_info *info, char *err,
		     size_t errlen);
int hook_job_run(void *handle, int64_t iterations, double *seconds,
		 char *err, size_t errlen);
int hook_job_check(void *handle, char *err, size_t errlen);
void hook_job_release(void *handle);
int hook_can_access_peer(int device, int peer, char *err, size_t errlen);

/* ---- jobs ---------------------------------------------------------------- */

struct job;

struct job_ops {
	/* iterations >= 1; BENCH_OK with seconds, or BENCH_ERROR */
	int (*run)(struct job *j, int64_t iterations, double *seconds,
		   char *err, size_t errlen);
	/* BENCH_OK, or BENCH_ERROR naming the first mismatch */
	int (*check)(struct job *j, char *err, size_t errlen);
	/* frees everything, including j; takes a half-built job too */
	void (*release)(struct job *j);
};

struct job {
	const struct job_ops *ops;
	int ran;			/* job_run succeeded at least once */
};

/* Each returns an enum bench_status with *out set only on BENCH_OK; the
 * caller (jobs.cu) has checked the device numbers and fills device_bytes. */
int gemm_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		 struct gpuplan_cuda_job_info *info, char *err, size_t errlen);
int memory_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		   struct gpuplan_cuda_job_info *info, char *err, size_t errlen);
int transfer_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		     struct gpuplan_cuda_job_info *info, char *err,
		     size_t errlen);
int allreduce_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		      struct gpuplan_cuda_job_info *info, char *err,
		      size_t errlen);
int program_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		    struct gpuplan_cuda_job_info *info, char *err,
		    size_t errlen);

/* job_allreduce.cu: closes NCCL if it was opened; from shutdown. */
void allreduce_unload(void);

/* A GEMM beside a collective (job_overlap.cu); jobs.cu sends GEMM jobs
 * with GPUPLAN_JOB_BESIDE_COMM here. */
int overlap_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		    struct gpuplan_cuda_job_info *info, char *err,
		    size_t errlen);

/* What the overlap job drives of the others, untimed.  A prepared GEMM job
 * (job_gemm.cu): `iterations` GEMMs enqueued on its stream.  A prepared
 * ALLREDUCE job (job_allreduce.cu): `times` all-reduces enqueued on every
 * GPU's stream; the stream of GPU `device`; every stream waited for.  Each
 * an enum bench_status. */
int gemm_enqueue(struct job *j, int64_t iterations, char *err, size_t errlen);
cudaStream_t gemm_stream(struct job *j);
/* Its output overwritten with NaN (int32: -1), as prepare leaves it. */
int gemm_poison(struct job *j, char *err, size_t errlen);
int allreduce_enqueue(struct job *j, int64_t times, char *err, size_t errlen);
cudaStream_t allreduce_stream(struct job *j, int device);
int allreduce_wait(struct job *j, char *err, size_t errlen);

/* ---- cuBLASLt (lt_gemm.cu) ----------------------------------------------- */

/*
 * One matmul as cuBLASLt sees it: column-major, D = alpha op(A) op(B)
 * (beta 0, C and D the same buffer and layout).  op(A) is m x k, op(B)
 * k x n, D m x n; ld* are the stored leading dimensions; batch > 1 makes
 * it strided-batched with the given element strides (0 shares a matrix).
 */
struct lt_shape {
	cudaDataType_t ab_type, c_type, scale_type;
	cublasComputeType_t compute;
	int trans_a, trans_b;		/* 1: op is the transpose */
	uint64_t m, n, k;
	int64_t lda, ldb, ldc;
	int32_t batch;
	int64_t stride_a, stride_b, stride_c;
};

struct lt_gemm {
	struct lt_shape shape;
	cublasLtMatmulDesc_t desc;
	cublasLtMatrixLayout_t a, b, c;
	cublasLtMatmulAlgo_t algo;	/* valid once chosen */
	size_t workspace;		/* bytes the chosen algorithm needs */
};

/* Data, compute and scale types for a precision; BENCH_UNSUPPORTED with
 * the reason for one cuBLASLt cannot do (or the plugin does not know). */
int lt_types(uint32_t precision, struct lt_shape *s, char *err,
	     size_t errlen);
/* Creates the descriptors; an enum bench_status, nothing held unless OK. */
int lt_gemm_init(struct lt_gemm *g, const struct lt_shape *s, char *err,
		 size_t errlen);
void lt_gemm_free(struct lt_gemm *g);
/* Up to `want` heuristic candidates needing at most max_workspace bytes;
 * BENCH_UNSUPPORTED when there is none. */
int lt_gemm_candidates(cublasLtHandle_t h, struct lt_gemm *g,
		       size_t max_workspace,
		       cublasLtMatmulHeuristicResult_t *res, int want,
		       int *got, char *err, size_t errlen);
/* Enqueues one matmul with algorithm algo (g->algo when NULL); the scalars
 * are host values of the scale type, alpha 1 and beta 0. */
cublasStatus_t lt_gemm_enqueue(cublasLtHandle_t h, const struct lt_gemm *g,
			       const cublasLtMatmulAlgo_t *algo,
			       const void *A, const void *B, void *C,
			       void *workspace, size_t workspace_bytes,
			       cudaStream_t s);

/* cuBLAS's recommended workspace for Hopper; enough on older parts too. */
#define LT_WORKSPACE_BYTES (32u << 20)

#endif

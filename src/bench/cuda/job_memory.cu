/*
 * job_memory.cu - the device-memory kernels: COPY (a = b), TRIAD
 * (a = b + s*c over doubles) and LAUNCH (an empty kernel).
 *
 * COPY and TRIAD move 16 bytes per load and store (uint4, double2) and are
 * grid-stride with a grid the size of what the device keeps resident, so
 * the figure is the memory system's, not the launch's.  cudaMalloc aligns
 * to 256 bytes, so the vector accesses are aligned; a tail shorter than a
 * vector is done element by element.
 *
 * Each kernel runs once in prepare: with lazy module loading (the default
 * since CUDA 12) the first launch loads the module, which must not land in
 * a timed run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"

#define SEED_COPY 0xc0c0c0c0u
/* b + 3c over small integers is exact, so the check is exact. */
#define TRIAD_SCALAR 3.0
/* Doubles per sampled block of the triad check. */
#define TRIAD_BLOCK 8192

struct mem_job {
	struct job base;
	uint32_t kind;
	int device;
	uint64_t bytes;		/* per array */
	uint64_t n;		/* TRIAD: doubles per array */
	unsigned int grid;
	cudaStream_t stream;
	struct job_timer timer;
	void *a, *b, *c;
};

static __global__ void copy_kernel(uint8_t *__restrict__ a,
				   const uint8_t *__restrict__ b, uint64_t bytes)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	uint64_t id = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	uint64_t vecs = bytes / 16, i;

	for (i = id; i < vecs; i += stride)
		((uint4 *)a)[i] = ((const uint4 *)b)[i];
	if (id < bytes % 16)
		a[vecs * 16 + id] = b[vecs * 16 + id];
}

static __global__ void triad_kernel(double *__restrict__ a,
				    const double *__restrict__ b,
				    const double *__restrict__ c, double s,
				    uint64_t n)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	uint64_t id = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
	uint64_t pairs = n / 2, i;

	for (i = id; i < pairs; i += stride) {
		double2 vb = ((const double2 *)b)[i], vc = ((const double2 *)c)[i];

		((double2 *)a)[i] = make_double2(vb.x + s * vc.x, vb.y + s * vc.y);
	}
	if (id == 0 && (n & 1))
		a[n - 1] = b[n - 1] + s * c[n - 1];
}

static __global__ void empty_kernel(void)
{
}

/* The triad's inputs, as in the self-test: small integers, exact sums. */
__host__ __device__ static inline double triad_b(uint64_t i)
{
	return (double)(i & 0xfffff);
}

__host__ __device__ static inline double triad_c(uint64_t i)
{
	return (double)((i * 7) & 0xffff);
}

static __global__ void triad_inputs(double *b, double *c, uint64_t n)
{
	uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	uint64_t i;

	for (i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		b[i] = triad_b(i);
		c[i] = triad_c(i);
	}
}

/* One launch of the job's kernel on its stream; the launch is checked. */
static int mem_launch(struct mem_job *m, char *err, size_t errlen)
{
	cudaError_t rc;

	switch (m->kind) {
	case GPUPLAN_JOB_COPY:
		copy_kernel<<<m->grid, STREAM_THREADS, 0, m->stream>>>(
			(uint8_t *)m->a, (const uint8_t *)m->b, m->bytes);
		break;
	case GPUPLAN_JOB_TRIAD:
		triad_kernel<<<m->grid, STREAM_THREADS, 0, m->stream>>>(
			(double *)m->a, (const double *)m->b, (const double *)m->c,
			TRIAD_SCALAR, m->n);
		break;
	default:
		empty_kernel<<<1, 1, 0, m->stream>>>();
		break;
	}
	rc = cudaGetLastError();
	if (rc == cudaErrorNoKernelImageForDevice) {
		set_err(err, errlen,
			"kernel launch: %s (plugin built for compute capabilities " ARCH_LIST ")",
			cudaGetErrorString(rc));
		return BENCH_UNSUPPORTED;
	}
	if (rc != cudaSuccess)
		return cuda_status(rc, "kernel launch", err, errlen);
	return BENCH_OK;
}

static int mem_run(struct job *j, int64_t iterations, double *seconds,
		   char *err, size_t errlen)
{
	struct mem_job *m = (struct mem_job *)j;
	cudaError_t rc;
	int64_t i;

	if ((rc = cudaSetDevice(m->device)) != cudaSuccess) {
		cuda_status(rc, "cudaSetDevice", err, errlen);
		return BENCH_ERROR;
	}
	if (job_timer_start(&m->timer, m->stream, err, errlen))
		return BENCH_ERROR;
	for (i = 0; i < iterations; i++)
		if (mem_launch(m, err, errlen)) {
			cudaStreamSynchronize(m->stream);
			(void)cudaGetLastError();
			return BENCH_ERROR;
		}
	return job_timer_stop(&m->timer, m->stream, seconds, err, errlen);
}

/* Sampled blocks of a, exactly against b + 3c. */
static int triad_check(struct mem_job *m, char *err, size_t errlen)
{
	double *buf = (double *)malloc(TRIAD_BLOCK * sizeof(double));
	unsigned int b;
	int ret = BENCH_OK;

	if (!buf) {
		set_err(err, errlen, "out of host memory for the triad check");
		return BENCH_ERROR;
	}
	for (b = 0; b < SAMPLE_BLOCKS && ret == BENCH_OK; b++) {
		uint64_t off = sample_offset(m->n, TRIAD_BLOCK, b), len, i;

		if (off >= m->n)
			break;
		len = m->n - off < TRIAD_BLOCK ? m->n - off : TRIAD_BLOCK;
		if ((ret = download(buf, m->a, off, len, CUDA_R_64F, err, errlen)))
			break;
		for (i = 0; i < len; i++) {
			double want = triad_b(off + i) + TRIAD_SCALAR * triad_c(off + i);

			if (buf[i] != want) {
				set_err(err, errlen,
					"triad wrong at element %llu: got %.17g, want %.17g",
					(unsigned long long)(off + i), buf[i], want);
				ret = BENCH_ERROR;
				break;
			}
		}
	}
	free(buf);
	return ret;
}

static int mem_check(struct job *j, char *err, size_t errlen)
{
	struct mem_job *m = (struct mem_job *)j;
	cudaError_t rc;

	if ((rc = cudaSetDevice(m->device)) != cudaSuccess ||
	    (rc = cudaStreamSynchronize(m->stream)) != cudaSuccess) {
		cuda_status(rc, "check", err, errlen);
		return BENCH_ERROR;
	}
	switch (m->kind) {
	case GPUPLAN_JOB_COPY:
		return check_pattern_dev(m->a, m->bytes, SEED_COPY, "copy", err, errlen);
	case GPUPLAN_JOB_TRIAD:
		return triad_check(m, err, errlen);
	default:
		/* The empty kernel has no output: that the last run's
		 * launches completed (the synchronise above) is the check. */
		return BENCH_OK;
	}
}

static void mem_release(struct job *j)
{
	struct mem_job *m = (struct mem_job *)j;

	if (!m)
		return;
	cudaSetDevice(m->device);
	if (m->stream)
		cudaStreamSynchronize(m->stream);
	job_timer_free(&m->timer);
	cudaFree(m->c);
	cudaFree(m->b);
	cudaFree(m->a);
	if (m->stream)
		cudaStreamDestroy(m->stream);
	(void)cudaGetLastError();
	free(m);
}

static const struct job_ops mem_ops = { mem_run, mem_check, mem_release };

/* Arrays, inputs, the warm-up launch, then a poisoned output. */
static int mem_setup(struct mem_job *m, char *err, size_t errlen)
{
	uint64_t array = m->kind == GPUPLAN_JOB_TRIAD ? m->n * sizeof(double) : m->bytes;
	cudaError_t rc;
	int ret;

	if ((rc = cudaStreamCreateWithFlags(&m->stream, cudaStreamNonBlocking)) != cudaSuccess) {
		m->stream = NULL;
		return cuda_status(rc, "cudaStreamCreate", err, errlen);
	}
	if ((ret = job_timer_init(&m->timer, err, errlen)))
		return ret;
	if (m->kind == GPUPLAN_JOB_LAUNCH)
		return mem_launch(m, err, errlen);
	if ((ret = dev_alloc(&m->a, array, "array a", err, errlen)) ||
	    (ret = dev_alloc(&m->b, array, "array b", err, errlen)))
		return ret;
	if (m->kind == GPUPLAN_JOB_TRIAD) {
		if ((ret = dev_alloc(&m->c, array, "array c", err, errlen)))
			return ret;
		m->grid = stream_grid((const void *)triad_kernel, STREAM_THREADS,
				      m->n / 2 + 1);
		triad_inputs<<<stream_grid((const void *)triad_inputs, STREAM_THREADS, m->n),
			       STREAM_THREADS, 0, m->stream>>>((double *)m->b,
							       (double *)m->c, m->n);
		if ((rc = cudaGetLastError()) != cudaSuccess)
			return cuda_status(rc, "triad input launch", err, errlen);
	} else {
		m->grid = stream_grid((const void *)copy_kernel, STREAM_THREADS,
				      m->bytes / 16 + 16);
		if ((ret = fill_pattern(m->b, m->bytes, SEED_COPY, m->stream, err, errlen)))
			return ret;
	}
	if ((ret = mem_launch(m, err, errlen)))
		return ret;
	if ((rc = cudaMemsetAsync(m->a, 0xff, array, m->stream)) != cudaSuccess ||
	    (rc = cudaStreamSynchronize(m->stream)) != cudaSuccess)
		return cuda_status(rc, "memory job setup", err, errlen);
	return BENCH_OK;
}

int memory_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		   struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	struct mem_job *m;
	cudaError_t rc;
	int ret;

	(void)info;
	if (spec->kind == GPUPLAN_JOB_COPY && spec->bytes == 0) {
		set_err(err, errlen, "copy of 0 bytes");
		return BENCH_ERROR;
	}
	if (spec->kind == GPUPLAN_JOB_TRIAD && spec->bytes < sizeof(double)) {
		set_err(err, errlen, "triad of %llu bytes holds no double",
			(unsigned long long)spec->bytes);
		return BENCH_ERROR;
	}
	if ((rc = cudaSetDevice(spec->device)) != cudaSuccess)
		return cuda_status(rc, "cudaSetDevice", err, errlen);
	m = (struct mem_job *)calloc(1, sizeof(*m));
	if (!m) {
		set_err(err, errlen, "out of host memory for a job");
		return BENCH_OUT_OF_MEMORY;
	}
	m->base.ops = &mem_ops;
	m->kind = spec->kind;
	m->device = spec->device;
	m->bytes = spec->bytes;
	m->n = spec->bytes / sizeof(double);
	ret = mem_setup(m, err, errlen);
	if (ret != BENCH_OK) {
		mem_release(&m->base);
		return ret;
	}
	*out = &m->base;
	return BENCH_OK;
}

/*
 * jobs.cu - the ABI 2 hooks: check a job's devices, hand it to the file
 * that knows its kind, and measure the device memory it holds.
 *
 * device_bytes is the drop in cudaMemGetInfo's free memory across prepare,
 * summed over the job's GPUs: it counts what the job and the libraries it
 * uses (cuBLASLt, NCCL) took, at the driver's page granularity, and is
 * only as exact as the GPUs are otherwise idle.
 */
#include <stdlib.h>
#include <string.h>

#include "jobs.h"

/* The GPUs a job touches: first..first+n-1, or device and peer. */
struct job_gpus {
	int dev[2];
	int first, n;			/* a range when range is 1 */
	int range;
};

static int gpu_at(const struct job_gpus *g, int i)
{
	return g->range ? g->first + i : g->dev[i];
}

static int job_gpus(const struct gpuplan_cuda_job *job, struct job_gpus *g,
		    char *err, size_t errlen)
{
	memset(g, 0, sizeof(*g));
	g->dev[0] = job->device;
	g->n = 1;
	if (plugin_check_device(job->device, err, errlen))
		return -1;
	if (job->kind == GPUPLAN_JOB_P2P) {
		g->dev[1] = job->peer;
		g->n = 2;
		return plugin_check_device(job->peer, err, errlen);
	}
	if (job->kind == GPUPLAN_JOB_GEMM && (job->flags & GPUPLAN_JOB_BESIDE_COMM) &&
	    job->n_devices >= 2) {
		/* every GPU of the collective, 0..n-1, runs the gemm */
		g->range = 1;
		g->first = 0;
		g->n = job->n_devices;
		return plugin_check_device(job->n_devices - 1, err, errlen);
	}
	if (job->kind != GPUPLAN_JOB_ALLREDUCE)
		return 0;
	if (job->n_devices < 1) {
		set_err(err, errlen, "all-reduce over %d gpus", (int)job->n_devices);
		return -1;
	}
	g->range = 1;
	g->first = job->device;
	g->n = job->n_devices;
	/* The range is in bounds when its last GPU is. */
	if ((int64_t)job->device + job->n_devices - 1 > INT32_MAX) {
		set_err(err, errlen, "all-reduce over gpus %d.. out of range", (int)job->device);
		return -1;
	}
	return plugin_check_device(job->device + job->n_devices - 1, err, errlen);
}

/* Free device memory of each GPU, bytes; 0 on success. */
static int free_memory(const struct job_gpus *g, uint64_t *free_bytes, char *err,
		       size_t errlen)
{
	size_t fr, total;
	cudaError_t rc;
	int i;

	for (i = 0; i < g->n; i++) {
		if ((rc = cudaSetDevice(gpu_at(g, i))) != cudaSuccess ||
		    (rc = cudaMemGetInfo(&fr, &total)) != cudaSuccess)
			return cuda_status(rc, "cudaMemGetInfo", err, errlen);
		free_bytes[i] = fr;
	}
	return BENCH_OK;
}

static int dispatch(const struct gpuplan_cuda_job *job, struct job **out,
		    struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	switch (job->kind) {
	case GPUPLAN_JOB_GEMM:
		if (job->flags & GPUPLAN_JOB_BESIDE_COMM)
			return overlap_prepare(job, out, info, err, errlen);
		return gemm_prepare(job, out, info, err, errlen);
	case GPUPLAN_JOB_COPY:
	case GPUPLAN_JOB_TRIAD:
	case GPUPLAN_JOB_LAUNCH:
		return memory_prepare(job, out, info, err, errlen);
	case GPUPLAN_JOB_H2D:
	case GPUPLAN_JOB_D2H:
	case GPUPLAN_JOB_D2D:
	case GPUPLAN_JOB_P2P:
		return transfer_prepare(job, out, info, err, errlen);
	case GPUPLAN_JOB_ALLREDUCE:
		return allreduce_prepare(job, out, info, err, errlen);
	case GPUPLAN_JOB_PROGRAM:
		if (!job->program) {
			set_err(err, errlen, "program job without a program");
			return BENCH_ERROR;
		}
		return program_prepare(job, out, info, err, errlen);
	default:
		set_err(err, errlen, "job kind %u unknown to the cuda plugin",
			(unsigned)job->kind);
		return BENCH_UNSUPPORTED;
	}
}

int hook_job_prepare(const struct gpuplan_cuda_job *job, void **handle,
		     struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	uint64_t *before = NULL, *after = NULL;
	struct job *j = NULL;
	struct job_gpus g;
	int i, ret;

	*handle = NULL;
	memset(info, 0, sizeof(*info));
	/* The jobs check launches with cudaGetLastError: start clean of what
	 * a call outside them (a refused attribute query) left behind. */
	(void)cudaGetLastError();
	if (job_gpus(job, &g, err, errlen))
		return BENCH_ERROR;
	before = (uint64_t *)calloc((size_t)g.n, sizeof(*before));
	after = (uint64_t *)calloc((size_t)g.n, sizeof(*after));
	if (!before || !after) {
		free(before);
		free(after);
		set_err(err, errlen, "out of host memory for a job");
		return BENCH_OUT_OF_MEMORY;
	}
	ret = free_memory(&g, before, err, errlen);
	if (ret == BENCH_OK)
		ret = dispatch(job, &j, info, err, errlen);
	if (ret == BENCH_OK && (ret = free_memory(&g, after, err, errlen)) != BENCH_OK) {
		j->ops->release(j);
		j = NULL;
	}
	if (ret == BENCH_OK) {
		for (i = 0; i < g.n; i++)
			if (before[i] > after[i])
				info->device_bytes += before[i] - after[i];
		*handle = j;
	}
	free(before);
	free(after);
	return ret;
}

int hook_job_run(void *handle, int64_t iterations, double *seconds, char *err,
		 size_t errlen)
{
	struct job *j = (struct job *)handle;

	*seconds = 0.0;
	if (!j) {
		set_err(err, errlen, "job_run without a prepared job");
		return BENCH_ERROR;
	}
	if (iterations < 1) {
		set_err(err, errlen, "job_run of %lld iterations", (long long)iterations);
		return BENCH_ERROR;
	}
	(void)cudaGetLastError();	/* as in prepare */
	if (j->ops->run(j, iterations, seconds, err, errlen) != BENCH_OK)
		return BENCH_ERROR;
	j->ran = 1;
	return BENCH_OK;
}

int hook_job_check(void *handle, char *err, size_t errlen)
{
	struct job *j = (struct job *)handle;

	if (!j) {
		set_err(err, errlen, "job_check without a prepared job");
		return BENCH_ERROR;
	}
	if (!j->ran) {
		set_err(err, errlen, "job_check before a successful job_run");
		return BENCH_ERROR;
	}
	return j->ops->check(j, err, errlen) == BENCH_OK ? BENCH_OK : BENCH_ERROR;
}

void hook_job_release(void *handle)
{
	struct job *j = (struct job *)handle;

	if (j)
		j->ops->release(j);
}

int hook_can_access_peer(int device, int peer, char *err, size_t errlen)
{
	cudaError_t rc;
	int can = 0;

	if (plugin_check_device(device, err, errlen) ||
	    plugin_check_device(peer, err, errlen))
		return -1;
	if ((rc = cudaDeviceCanAccessPeer(&can, device, peer)) != cudaSuccess) {
		cuda_status(rc, "cudaDeviceCanAccessPeer", err, errlen);
		return -1;
	}
	return can ? 1 : 0;
}

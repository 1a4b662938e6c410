/*
 * job_overlap.cu - a GEMM beside a collective (GPUPLAN_JOB_BESIDE_COMM):
 * how much a compute kernel slows while communication runs beside it on
 * other streams, as data-parallel training overlaps its gradient
 * reduction with the backward pass.
 *
 * With n_devices >= 2 every GPU 0..n-1 runs the same GEMM (a GEMM job of
 * its own, job_gemm.cu) while an NCCL all-reduce of `bytes` per GPU, fp32,
 * runs over all of them (an ALLREDUCE job, job_allreduce.cu, driven from
 * here).  With n_devices 1 a device-to-device copy of `bytes` on the
 * copy engines runs beside the one GEMM instead: memory traffic, not
 * NCCL's kernels on the SMs.
 *
 * A run enqueues the collectives first, enough of them to outlast the
 * run's GEMMs (per_comm collectives per GEMM, from one of each timed
 * alone in prepare, with half again to spare), then the GEMMs, and times
 * the GEMMs on `device`'s stream.  The collectives' end is recorded too:
 * if they finished before the GEMMs did (they slow under the GEMMs more
 * than the margin allowed), the next runs enqueue twice as many, so the
 * sustained loop's settling runs find the count that covers.  Each run
 * waits for the last one's collectives first, outside its timed window.
 * The check is the timed GEMM's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"

/* Collectives to spare beyond those one GEMM's time holds. */
#define COMM_MARGIN 1.5

struct overlap_job {
	struct job base;
	int device;			/* the GPU whose GEMMs are timed */
	int n;				/* GPUs of the collective; 1: a copy */
	int n_gemms;
	struct job **gemms;		/* GPU i's GEMM (n == 1: device's alone) */
	int timed;			/* gemms[timed] runs on device */
	struct job *ar;			/* n >= 2: the all-reduce */
	void *src, *dst;		/* n == 1: the copy's ends */
	uint64_t bytes;
	cudaStream_t copy;		/* n == 1: the copy's stream */
	cudaEvent_t comm_done;		/* on device: a run's last collective */
	int have_comm_done;
	struct job_timer timer;		/* on device */
	double per_comm;		/* collectives per GEMM */
};

/* ---- the collective ---- */

/* The collective's stream on `device`. */
static cudaStream_t comm_stream(const struct overlap_job *o)
{
	return o->n >= 2 ? allreduce_stream(o->ar, o->device) : o->copy;
}

/* `times` collectives, enqueued. */
static int comm_enqueue(struct overlap_job *o, int64_t times, char *err,
			size_t errlen)
{
	cudaError_t rc;
	int64_t i;

	if (o->n >= 2)
		return allreduce_enqueue(o->ar, times, err, errlen);
	if ((rc = cudaSetDevice(o->device)) != cudaSuccess) {
		cuda_status(rc, "cudaSetDevice", err, errlen);
		return BENCH_ERROR;
	}
	for (i = 0; i < times; i++)
		if ((rc = cudaMemcpyAsync(o->dst, o->src, o->bytes, cudaMemcpyDeviceToDevice,
					  o->copy)) != cudaSuccess) {
			cuda_status(rc, "cudaMemcpyAsync beside the gemm", err, errlen);
			return BENCH_ERROR;
		}
	return BENCH_OK;
}

/* Every GPU's collective and GEMMs done. */
static int wait_all(struct overlap_job *o, char *err, size_t errlen)
{
	cudaError_t rc;
	int i;

	if (o->n >= 2 && allreduce_wait(o->ar, err, errlen))
		return BENCH_ERROR;
	if (o->n == 1 && ((rc = cudaSetDevice(o->device)) != cudaSuccess ||
			  (rc = cudaStreamSynchronize(o->copy)) != cudaSuccess)) {
		cuda_status(rc, "the copy beside the gemm", err, errlen);
		return BENCH_ERROR;
	}
	for (i = 0; i < o->n_gemms; i++) {
		int dev = o->n >= 2 ? i : o->device;

		if ((rc = cudaSetDevice(dev)) != cudaSuccess ||
		    (rc = cudaStreamSynchronize(gemm_stream(o->gemms[i]))) != cudaSuccess) {
			cuda_status(rc, "the gemms beside the collective", err, errlen);
			return BENCH_ERROR;
		}
	}
	return BENCH_OK;
}

/* ---- run, check, release ---- */

/* After a run: when the collectives ended before the GEMMs, twice as many
 * from the next run on. */
static int cover_next(struct overlap_job *o, double gemm_s, char *err,
		      size_t errlen)
{
	cudaError_t rc;
	float ms = 0.0f;

	if ((rc = cudaEventSynchronize(o->comm_done)) != cudaSuccess ||
	    (rc = cudaEventElapsedTime(&ms, o->timer.start, o->comm_done)) != cudaSuccess) {
		cuda_status(rc, "the collective beside the gemm", err, errlen);
		return BENCH_ERROR;
	}
	if (ms / 1000.0 < gemm_s)
		o->per_comm *= 2;
	return BENCH_OK;
}

static int overlap_run(struct job *j, int64_t iterations, double *seconds,
		       char *err, size_t errlen)
{
	struct overlap_job *o = (struct overlap_job *)j;
	cudaStream_t timed = gemm_stream(o->gemms[o->timed]);
	int64_t comms = (int64_t)ceil((double)iterations * o->per_comm) + 1;
	cudaError_t rc;
	int i;

	if (wait_all(o, err, errlen) || comm_enqueue(o, comms, err, errlen))
		return BENCH_ERROR;
	if ((rc = cudaSetDevice(o->device)) != cudaSuccess ||
	    (rc = cudaEventRecord(o->comm_done, comm_stream(o))) != cudaSuccess) {
		cuda_status(rc, "cudaEventRecord beside the gemm", err, errlen);
		return BENCH_ERROR;
	}
	if (job_timer_start(&o->timer, timed, err, errlen))
		return BENCH_ERROR;
	for (i = 0; i < o->n_gemms; i++)
		if (gemm_enqueue(o->gemms[i], iterations, err, errlen))
			return BENCH_ERROR;
	if ((rc = cudaSetDevice(o->device)) != cudaSuccess) {
		cuda_status(rc, "cudaSetDevice", err, errlen);
		return BENCH_ERROR;
	}
	if (job_timer_stop(&o->timer, timed, seconds, err, errlen))
		return BENCH_ERROR;
	return cover_next(o, *seconds, err, errlen);
}

static int overlap_check(struct job *j, char *err, size_t errlen)
{
	struct overlap_job *o = (struct overlap_job *)j;

	if (wait_all(o, err, errlen))
		return BENCH_ERROR;
	return o->gemms[o->timed]->ops->check(o->gemms[o->timed], err, errlen);
}

static void overlap_release(struct job *j)
{
	struct overlap_job *o = (struct overlap_job *)j;
	int i;

	if (!o)
		return;
	if (o->ar)
		o->ar->ops->release(o->ar);
	for (i = 0; o->gemms && i < o->n_gemms; i++)
		if (o->gemms[i])
			o->gemms[i]->ops->release(o->gemms[i]);
	cudaSetDevice(o->device);
	if (o->copy) {
		cudaStreamSynchronize(o->copy);
		cudaStreamDestroy(o->copy);
	}
	cudaFree(o->src);
	cudaFree(o->dst);
	if (o->have_comm_done)
		cudaEventDestroy(o->comm_done);
	job_timer_free(&o->timer);
	(void)cudaGetLastError();
	free(o->gemms);
	free(o);
}

static const struct job_ops overlap_ops = { overlap_run, overlap_check, overlap_release };

/* ---- prepare ---- */

/* The GEMMs: one per GPU of the collective, or device's alone. */
static int make_gemms(struct overlap_job *o, const struct gpuplan_cuda_job *spec,
		      char *err, size_t errlen)
{
	struct gpuplan_cuda_job_info info;
	int i, ret;

	o->n_gemms = o->n >= 2 ? o->n : 1;
	o->timed = o->n >= 2 ? o->device : 0;
	o->gemms = (struct job **)calloc((size_t)o->n_gemms, sizeof(*o->gemms));
	if (!o->gemms) {
		set_err(err, errlen, "out of host memory for the gemms beside a collective");
		return BENCH_OUT_OF_MEMORY;
	}
	for (i = 0; i < o->n_gemms; i++) {
		struct gpuplan_cuda_job g = *spec;

		g.flags &= ~(uint32_t)GPUPLAN_JOB_BESIDE_COMM;
		g.device = o->n >= 2 ? i : o->device;
		memset(&info, 0, sizeof(info));
		if ((ret = gemm_prepare(&g, &o->gemms[i], &info, err, errlen)))
			return ret;
	}
	return BENCH_OK;
}

/* The all-reduce over GPUs 0..n-1, or the copy's buffers and stream. */
static int make_comm(struct overlap_job *o, char *err, size_t errlen)
{
	struct gpuplan_cuda_job_info info;
	cudaError_t rc;
	int ret;

	if (o->n >= 2) {
		struct gpuplan_cuda_job a;

		memset(&a, 0, sizeof(a));
		a.kind = GPUPLAN_JOB_ALLREDUCE;
		a.precision = BENCH_FP32;
		a.device = 0;
		a.n_devices = o->n;
		a.bytes = o->bytes;
		memset(&info, 0, sizeof(info));
		return allreduce_prepare(&a, &o->ar, &info, err, errlen);
	}
	if ((rc = cudaSetDevice(o->device)) != cudaSuccess)
		return cuda_status(rc, "cudaSetDevice", err, errlen);
	if ((ret = dev_alloc(&o->src, o->bytes, "copy beside the gemm", err, errlen)) ||
	    (ret = dev_alloc(&o->dst, o->bytes, "copy beside the gemm", err, errlen)))
		return ret;
	if ((rc = cudaStreamCreateWithFlags(&o->copy, cudaStreamNonBlocking)) != cudaSuccess) {
		o->copy = NULL;
		return cuda_status(rc, "cudaStreamCreate", err, errlen);
	}
	if ((rc = cudaMemsetAsync(o->src, 0, o->bytes, o->copy)) != cudaSuccess)
		return cuda_status(rc, "cudaMemsetAsync", err, errlen);
	return BENCH_OK;
}

/* One collective and one GEMM timed alone: per_comm, and the note. */
static int calibrate(struct overlap_job *o, struct gpuplan_cuda_job_info *info,
		     char *err, size_t errlen)
{
	struct job *g = o->gemms[o->timed];
	double gemm_s = 0.0, comm_s = 0.0;

	if (g->ops->run(g, 4, &gemm_s, err, errlen))
		return BENCH_ERROR;
	if (o->n >= 2) {
		if (o->ar->ops->run(o->ar, 2, &comm_s, err, errlen))
			return BENCH_ERROR;
	} else {
		if (job_timer_start(&o->timer, o->copy, err, errlen) ||
		    comm_enqueue(o, 2, err, errlen) ||
		    job_timer_stop(&o->timer, o->copy, &comm_s, err, errlen))
			return BENCH_ERROR;
	}
	o->per_comm = COMM_MARGIN * (gemm_s / 4) / (comm_s / 2);
	snprintf(info->note, sizeof(info->note),
		 "beside %s: %.3g ms per collective and %.3g ms per gemm, each alone",
		 o->n >= 2 ? "an nccl all-reduce" : "a device-to-device copy",
		 comm_s / 2 * 1e3, gemm_s / 4 * 1e3);
	return BENCH_OK;
}

static int overlap_setup(struct overlap_job *o, const struct gpuplan_cuda_job *spec,
			 struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	cudaError_t rc;
	int ret;

	if ((ret = make_gemms(o, spec, err, errlen)) || (ret = make_comm(o, err, errlen)))
		return ret;
	if ((rc = cudaSetDevice(o->device)) != cudaSuccess)
		return cuda_status(rc, "cudaSetDevice", err, errlen);
	if ((ret = job_timer_init(&o->timer, err, errlen)))
		return ret;
	if ((rc = cudaEventCreate(&o->comm_done)) != cudaSuccess)
		return cuda_status(rc, "cudaEventCreate", err, errlen);
	o->have_comm_done = 1;
	if ((ret = calibrate(o, info, err, errlen)) || (ret = wait_all(o, err, errlen)))
		return ret;
	/* the calibration's results must not pass a check of timed runs */
	return gemm_poison(o->gemms[o->timed], err, errlen);
}

int overlap_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		    struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	struct overlap_job *o;
	int ret;

	if (spec->n_devices < 1 || spec->bytes == 0 ||
	    (spec->n_devices >= 2 && spec->device >= spec->n_devices)) {
		set_err(err, errlen,
			"a gemm beside a collective over %d gpus (cuda:%d timed) of %llu bytes",
			(int)spec->n_devices, (int)spec->device,
			(unsigned long long)spec->bytes);
		return BENCH_ERROR;
	}
	o = (struct overlap_job *)calloc(1, sizeof(*o));
	if (!o) {
		set_err(err, errlen, "out of host memory for a gemm beside a collective");
		return BENCH_OUT_OF_MEMORY;
	}
	o->base.ops = &overlap_ops;
	o->device = spec->device;
	o->n = spec->n_devices;
	o->bytes = spec->bytes;
	ret = overlap_setup(o, spec, info, err, errlen);
	if (ret != BENCH_OK) {
		overlap_release(&o->base);
		return ret;
	}
	*out = &o->base;
	return BENCH_OK;
}

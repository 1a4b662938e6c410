/*
 * job_transfer.cu - copies through the copy engines: H2D and D2H (pinned
 * or pageable host memory), D2D, and P2P between two devices, one way or
 * both ways at once.
 *
 * Every source holds the byte pattern (jobs.h) and every destination is
 * poisoned after one warm-up transfer in prepare, so the check (sampled
 * blocks, exact) sees what the last timed run wrote.  The warm-up also
 * keeps one-time costs, such as the driver mapping a peer's memory, out of
 * the first timed run.
 *
 * P2P both ways runs the return direction on a stream of the peer, started
 * by the job's start event and joined back before the stop event, so one
 * start..stop interval covers both directions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"

#define SEED_OUT 0x0d0d0d0du	/* device -> peer, host -> device, ... */
#define SEED_BACK 0x0e0e0e0eu	/* peer -> device, the return direction */

struct xfer_job {
	struct job base;
	uint32_t kind;
	int device, peer;
	int both;			/* P2P in both directions */
	int pinned;
	uint64_t bytes;
	cudaStream_t s0;		/* on device */
	cudaStream_t s1;		/* on peer, P2P both ways only */
	cudaEvent_t joined;		/* on peer: s1 finished its copies */
	struct job_timer timer;		/* on device */
	void *host;
	void *dev_src, *dev_dst;	/* on device */
	void *peer_src, *peer_dst;	/* on peer */
};

/* One iteration's copies, enqueued. */
static int xfer_enqueue(struct xfer_job *x, char *err, size_t errlen)
{
	cudaError_t rc;

	switch (x->kind) {
	case GPUPLAN_JOB_H2D:
		rc = cudaMemcpyAsync(x->dev_dst, x->host, x->bytes,
				     cudaMemcpyHostToDevice, x->s0);
		break;
	case GPUPLAN_JOB_D2H:
		rc = cudaMemcpyAsync(x->host, x->dev_src, x->bytes,
				     cudaMemcpyDeviceToHost, x->s0);
		break;
	case GPUPLAN_JOB_D2D:
		rc = cudaMemcpyAsync(x->dev_dst, x->dev_src, x->bytes,
				     cudaMemcpyDeviceToDevice, x->s0);
		break;
	default:
		rc = cudaMemcpyPeerAsync(x->peer_dst, x->peer, x->dev_src, x->device,
					 x->bytes, x->s0);
		if (rc == cudaSuccess && x->both)
			rc = cudaMemcpyPeerAsync(x->dev_dst, x->device, x->peer_src,
						 x->peer, x->bytes, x->s1);
		break;
	}
	if (rc != cudaSuccess)
		return cuda_status(rc, "copy", err, errlen);
	return BENCH_OK;
}

static int xfer_run(struct job *j, int64_t iterations, double *seconds,
		    char *err, size_t errlen)
{
	struct xfer_job *x = (struct xfer_job *)j;
	cudaError_t rc;
	int64_t i;

	if ((rc = cudaSetDevice(x->device)) != cudaSuccess) {
		cuda_status(rc, "cudaSetDevice", err, errlen);
		return BENCH_ERROR;
	}
	if (job_timer_start(&x->timer, x->s0, err, errlen))
		return BENCH_ERROR;
	if (x->both && (rc = cudaStreamWaitEvent(x->s1, x->timer.start, 0)) != cudaSuccess) {
		cuda_status(rc, "cudaStreamWaitEvent", err, errlen);
		return BENCH_ERROR;
	}
	for (i = 0; i < iterations; i++)
		if (xfer_enqueue(x, err, errlen))
			goto fail;
	if (x->both && ((rc = cudaEventRecord(x->joined, x->s1)) != cudaSuccess ||
			(rc = cudaStreamWaitEvent(x->s0, x->joined, 0)) != cudaSuccess)) {
		cuda_status(rc, "joining the return stream", err, errlen);
		goto fail;
	}
	return job_timer_stop(&x->timer, x->s0, seconds, err, errlen);
fail:
	cudaStreamSynchronize(x->s0);
	if (x->s1)
		cudaStreamSynchronize(x->s1);
	(void)cudaGetLastError();
	return BENCH_ERROR;
}

/* check_pattern_dev waits for the current device, so set it first. */
static int check_on(int dev, const void *p, uint64_t bytes, uint32_t seed,
		    const char *what, char *err, size_t errlen)
{
	cudaError_t rc = cudaSetDevice(dev);

	if (rc != cudaSuccess) {
		cuda_status(rc, "cudaSetDevice", err, errlen);
		return BENCH_ERROR;
	}
	return check_pattern_dev(p, bytes, seed, what, err, errlen);
}

static int xfer_check(struct job *j, char *err, size_t errlen)
{
	struct xfer_job *x = (struct xfer_job *)j;
	cudaError_t rc;

	switch (x->kind) {
	case GPUPLAN_JOB_H2D:
		return check_on(x->device, x->dev_dst, x->bytes, SEED_OUT,
				"host-to-device copy", err, errlen);
	case GPUPLAN_JOB_D2H:
		if ((rc = cudaSetDevice(x->device)) != cudaSuccess ||
		    (rc = cudaStreamSynchronize(x->s0)) != cudaSuccess) {
			cuda_status(rc, "check", err, errlen);
			return BENCH_ERROR;
		}
		return check_pattern_host(x->host, x->bytes, SEED_OUT,
					  "device-to-host copy", err, errlen);
	case GPUPLAN_JOB_D2D:
		return check_on(x->device, x->dev_dst, x->bytes, SEED_OUT,
				"device-to-device copy", err, errlen);
	default:
		if (check_on(x->peer, x->peer_dst, x->bytes, SEED_OUT,
			     "peer copy to the peer", err, errlen))
			return BENCH_ERROR;
		if (x->both)
			return check_on(x->device, x->dev_dst, x->bytes, SEED_BACK,
					"peer copy back from the peer", err, errlen);
		return BENCH_OK;
	}
}

static void xfer_release(struct job *j)
{
	struct xfer_job *x = (struct xfer_job *)j;

	if (!x)
		return;
	if (x->s1 || x->joined || x->peer_src || x->peer_dst) {
		cudaSetDevice(x->peer);
		if (x->s1)
			cudaStreamSynchronize(x->s1);
		if (x->joined)
			cudaEventDestroy(x->joined);
		cudaFree(x->peer_src);
		cudaFree(x->peer_dst);
		if (x->s1)
			cudaStreamDestroy(x->s1);
	}
	cudaSetDevice(x->device);
	if (x->s0)
		cudaStreamSynchronize(x->s0);
	job_timer_free(&x->timer);
	cudaFree(x->dev_src);
	cudaFree(x->dev_dst);
	host_free(x->host, x->pinned);
	if (x->s0)
		cudaStreamDestroy(x->s0);
	(void)cudaGetLastError();
	free(x);
}

static const struct job_ops xfer_ops = { xfer_run, xfer_check, xfer_release };

/* Lets `from` address `to`'s memory directly when the pair can; 1 when
 * enabled (now or before), 0 when the pair cannot. */
static int enable_peer(int from, int to, int *enabled, char *err, size_t errlen)
{
	int can = 0;
	cudaError_t rc;

	*enabled = 0;
	if ((rc = cudaDeviceCanAccessPeer(&can, from, to)) != cudaSuccess)
		return cuda_status(rc, "cudaDeviceCanAccessPeer", err, errlen);
	if (!can)
		return BENCH_OK;
	if ((rc = cudaSetDevice(from)) != cudaSuccess)
		return cuda_status(rc, "cudaSetDevice", err, errlen);
	rc = cudaDeviceEnablePeerAccess(to, 0);
	/* Left enabled on release: later jobs on the pair want it too. */
	if (rc == cudaErrorPeerAccessAlreadyEnabled) {
		(void)cudaGetLastError();
		rc = cudaSuccess;
	}
	if (rc != cudaSuccess)
		return cuda_status(rc, "cudaDeviceEnablePeerAccess", err, errlen);
	*enabled = 1;
	return BENCH_OK;
}

/* The peer's half of P2P: buffers, the return stream and its event. */
static int xfer_peer_setup(struct xfer_job *x, struct gpuplan_cuda_job_info *info,
			   char *err, size_t errlen)
{
	int out = 0, back = 0, ret;
	cudaError_t rc;

	if ((ret = enable_peer(x->device, x->peer, &out, err, errlen)))
		return ret;
	back = out;
	if (x->both && (ret = enable_peer(x->peer, x->device, &back, err, errlen)))
		return ret;
	if (!out || !back)
		snprintf(info->note, sizeof(info->note),
			 "peer access unsupported%s: staged through the host",
			 out == back ? "" : (out ? " from the peer" : " to the peer"));
	if ((rc = cudaSetDevice(x->peer)) != cudaSuccess)
		return cuda_status(rc, "cudaSetDevice", err, errlen);
	if ((ret = dev_alloc(&x->peer_dst, x->bytes, "p2p destination", err, errlen)))
		return ret;
	if (!x->both)
		return BENCH_OK;
	if ((ret = dev_alloc(&x->peer_src, x->bytes, "p2p return source", err, errlen)))
		return ret;
	if ((rc = cudaStreamCreateWithFlags(&x->s1, cudaStreamNonBlocking)) != cudaSuccess) {
		x->s1 = NULL;
		return cuda_status(rc, "cudaStreamCreate", err, errlen);
	}
	if ((rc = cudaEventCreateWithFlags(&x->joined, cudaEventDisableTiming)) != cudaSuccess) {
		x->joined = NULL;
		return cuda_status(rc, "cudaEventCreate", err, errlen);
	}
	return fill_pattern(x->peer_src, x->bytes, SEED_BACK, x->s1, err, errlen);
}

/* Poisons every destination of the job. */
static int xfer_poison(struct xfer_job *x, char *err, size_t errlen)
{
	cudaError_t rc = cudaSuccess;

	if (x->host && x->kind == GPUPLAN_JOB_D2H)
		memset(x->host, 0xff, x->bytes);
	if (x->dev_dst && (rc = cudaSetDevice(x->device)) == cudaSuccess)
		rc = cudaMemset(x->dev_dst, 0xff, x->bytes);
	if (rc == cudaSuccess && x->peer_dst && (rc = cudaSetDevice(x->peer)) == cudaSuccess)
		rc = cudaMemset(x->peer_dst, 0xff, x->bytes);
	if (rc == cudaSuccess && x->peer_dst)
		rc = cudaDeviceSynchronize();
	if (rc == cudaSuccess && (rc = cudaSetDevice(x->device)) == cudaSuccess)
		rc = cudaDeviceSynchronize();
	if (rc != cudaSuccess)
		return cuda_status(rc, "poisoning the destination", err, errlen);
	return BENCH_OK;
}

/* Buffers for the job's kind, sources filled, one warm-up transfer. */
static int xfer_setup(struct xfer_job *x, struct gpuplan_cuda_job_info *info,
		      char *err, size_t errlen)
{
	int needs_src = x->kind != GPUPLAN_JOB_H2D;
	int needs_dst = x->kind == GPUPLAN_JOB_H2D || x->kind == GPUPLAN_JOB_D2D || x->both;
	int needs_host = x->kind == GPUPLAN_JOB_H2D || x->kind == GPUPLAN_JOB_D2H;
	cudaError_t rc;
	int ret;

	if ((rc = cudaStreamCreateWithFlags(&x->s0, cudaStreamNonBlocking)) != cudaSuccess) {
		x->s0 = NULL;
		return cuda_status(rc, "cudaStreamCreate", err, errlen);
	}
	if ((ret = job_timer_init(&x->timer, err, errlen)))
		return ret;
	if (needs_host &&
	    (ret = host_alloc(&x->host, x->bytes, x->pinned, "host buffer", err, errlen)))
		return ret;
	if (x->kind == GPUPLAN_JOB_H2D)
		fill_pattern_host(x->host, x->bytes, SEED_OUT);
	if ((needs_src && (ret = dev_alloc(&x->dev_src, x->bytes, "copy source", err, errlen))) ||
	    (needs_dst && (ret = dev_alloc(&x->dev_dst, x->bytes, "copy destination", err, errlen))))
		return ret;
	if (needs_src &&
	    (ret = fill_pattern(x->dev_src, x->bytes, SEED_OUT, x->s0, err, errlen)))
		return ret;
	if (x->kind == GPUPLAN_JOB_P2P && (ret = xfer_peer_setup(x, info, err, errlen)))
		return ret;
	if ((rc = cudaSetDevice(x->device)) != cudaSuccess)
		return cuda_status(rc, "cudaSetDevice", err, errlen);
	/* The fills must be done before the warm-up reads them. */
	if ((rc = cudaStreamSynchronize(x->s0)) != cudaSuccess ||
	    (x->s1 && (rc = cudaStreamSynchronize(x->s1)) != cudaSuccess))
		return cuda_status(rc, "filling the source", err, errlen);
	if ((ret = xfer_enqueue(x, err, errlen)))
		return ret;
	if ((rc = cudaStreamSynchronize(x->s0)) != cudaSuccess ||
	    (x->s1 && (rc = cudaStreamSynchronize(x->s1)) != cudaSuccess))
		return cuda_status(rc, "warm-up copy", err, errlen);
	return xfer_poison(x, err, errlen);
}

int transfer_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		     struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	struct xfer_job *x;
	cudaError_t rc;
	int ret;

	if (spec->bytes == 0) {
		set_err(err, errlen, "transfer of 0 bytes");
		return BENCH_ERROR;
	}
	if (spec->kind == GPUPLAN_JOB_P2P && spec->peer == spec->device) {
		set_err(err, errlen, "p2p from cuda:%d to itself; use d2d", spec->device);
		return BENCH_ERROR;
	}
	if ((rc = cudaSetDevice(spec->device)) != cudaSuccess)
		return cuda_status(rc, "cudaSetDevice", err, errlen);
	x = (struct xfer_job *)calloc(1, sizeof(*x));
	if (!x) {
		set_err(err, errlen, "out of host memory for a job");
		return BENCH_OUT_OF_MEMORY;
	}
	x->base.ops = &xfer_ops;
	x->kind = spec->kind;
	x->device = spec->device;
	x->peer = spec->kind == GPUPLAN_JOB_P2P ? spec->peer : spec->device;
	x->both = spec->kind == GPUPLAN_JOB_P2P &&
		  (spec->flags & GPUPLAN_JOB_BIDIRECTIONAL);
	x->pinned = (spec->flags & GPUPLAN_JOB_PINNED) != 0;
	x->bytes = spec->bytes;
	ret = xfer_setup(x, info, err, errlen);
	if (ret != BENCH_OK) {
		xfer_release(&x->base);
		return ret;
	}
	*out = &x->base;
	return BENCH_OK;
}

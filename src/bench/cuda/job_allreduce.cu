/*
 * job_allreduce.cu - ALLREDUCE: ncclAllReduce (sum, in place) over GPUs
 * device..device+n_devices-1, one communicator per GPU from
 * ncclCommInitAll, driven from this one thread inside a group.
 *
 * NCCL is not part of the CUDA Toolkit, so the plugin neither includes
 * nccl.h nor links it: libnccl.so.2 is dlopen()ed on the first ALLREDUCE
 * and the few entry points are declared here with their C types (enums
 * are ints in the C ABI).  The enum values are NCCL's, checked against
 * nccl.h 2.28; NCCL keeps them stable.  Without NCCL, prepare answers
 * BENCH_UNSUPPORTED.
 *
 * The timed runs reduce zeros (the sum of zeros stays zero, however many
 * runs, and NCCL's speed does not depend on the values).  The check fills
 * each GPU with its own small integers, runs one more all-reduce and
 * compares sampled elements on every GPU with the host's sum.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"

/* From nccl.h (ncclResult_t, ncclDataType_t, ncclRedOp_t). */
enum {
	NCCL_SUCCESS = 0,
	NCCL_INT8 = 0,
	NCCL_FLOAT16 = 6,
	NCCL_FLOAT32 = 7,
	NCCL_FLOAT64 = 8,
	NCCL_BFLOAT16 = 9,	/* NCCL 2.10 and newer */
	NCCL_FLOAT8E4M3 = 10,	/* NCCL 2.24 and newer, sm_90 and newer */
	NCCL_SUM = 0,
};
#define NCCL_BF16_VERSION 21000
#define NCCL_FP8_VERSION 22400

typedef void *nccl_comm;
struct nccl_api {
	int (*comm_init_all)(nccl_comm *comms, int ndev, const int *devlist);
	int (*all_reduce)(const void *send, void *recv, size_t count, int type,
			  int op, nccl_comm comm, cudaStream_t stream);
	int (*group_start)(void);
	int (*group_end)(void);
	int (*comm_destroy)(nccl_comm comm);
	const char *(*error_string)(int result);
	int (*get_version)(int *version);
	const char *(*last_error)(nccl_comm comm);	/* optional, 2.13+ */
	int (*comm_finalize)(nccl_comm comm);		/* optional, 2.14+ */
	int (*comm_abort)(nccl_comm comm);		/* optional, 2.4+ */
};

/* Process-wide, like the library itself; closed by allreduce_unload. */
static void *g_nccl;
static struct nccl_api g_api;
static int g_nccl_version;

/* dlsym into a function pointer without a pedantic cast warning. */
static int bind(void *dl, const char *name, void *slot, size_t size)
{
	void *sym = dlsym(dl, name);

	if (!sym)
		return -1;
	memcpy(slot, &sym, size);
	return 0;
}

#define BIND(field, name) bind(g_nccl, name, &g_api.field, sizeof(g_api.field))

static int nccl_load(char *err, size_t errlen)
{
	const char *why;

	if (g_nccl)
		return BENCH_OK;
	g_nccl = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
	if (!g_nccl) {
		why = dlerror();
		set_err(err, errlen, "all-reduce needs NCCL: %s",
			why ? why : "libnccl.so.2 not found");
		return BENCH_UNSUPPORTED;
	}
	memset(&g_api, 0, sizeof(g_api));
	if (BIND(comm_init_all, "ncclCommInitAll") || BIND(all_reduce, "ncclAllReduce") ||
	    BIND(group_start, "ncclGroupStart") || BIND(group_end, "ncclGroupEnd") ||
	    BIND(comm_destroy, "ncclCommDestroy") ||
	    BIND(error_string, "ncclGetErrorString") ||
	    BIND(get_version, "ncclGetVersion")) {
		set_err(err, errlen, "libnccl.so.2 lacks an entry point the all-reduce needs");
		allreduce_unload();
		return BENCH_UNSUPPORTED;
	}
	if (BIND(last_error, "ncclGetLastError"))
		g_api.last_error = NULL;
	if (BIND(comm_finalize, "ncclCommFinalize"))
		g_api.comm_finalize = NULL;
	if (BIND(comm_abort, "ncclCommAbort"))
		g_api.comm_abort = NULL;
	if (g_api.get_version(&g_nccl_version) != NCCL_SUCCESS)
		g_nccl_version = 0;
	return BENCH_OK;
}

void allreduce_unload(void)
{
	if (g_nccl)
		dlclose(g_nccl);
	g_nccl = NULL;
	memset(&g_api, 0, sizeof(g_api));
	g_nccl_version = 0;
}

/* "what: NCCL's reason"; out of memory when NCCL's last error says so. */
static int nccl_status(int rc, const char *what, char *err, size_t errlen)
{
	const char *last = g_api.last_error ? g_api.last_error(NULL) : NULL;

	set_err(err, errlen, "%s: %s%s%s", what, g_api.error_string(rc),
		last && *last ? ": " : "", last ? last : "");
	(void)cudaGetLastError();
	if (last && strstr(last, "out of memory"))
		return BENCH_OUT_OF_MEMORY;
	return BENCH_ERROR;
}

struct ar_job {
	struct job base;
	int first, n;			/* GPUs first..first+n-1 */
	uint32_t precision;
	int nccl_type;
	cudaDataType_t type;
	uint64_t count;			/* elements per GPU */
	nccl_comm *comms;
	int have_comms;
	int broken;			/* an NCCL call or its stream failed */
	cudaStream_t *streams;		/* one per GPU */
	cudaEvent_t *done;		/* one per GPU: its stream's work is in */
	void **bufs;
	struct job_timer timer;		/* on the first GPU */
};

/* One all-reduce on every GPU, enqueued. */
static int ar_enqueue(struct ar_job *a, char *err, size_t errlen)
{
	int g, rc, end;

	if ((rc = g_api.group_start()) != NCCL_SUCCESS)
		return nccl_status(rc, "ncclGroupStart", err, errlen);
	for (g = 0, rc = NCCL_SUCCESS; g < a->n && rc == NCCL_SUCCESS; g++)
		rc = g_api.all_reduce(a->bufs[g], a->bufs[g], a->count, a->nccl_type,
				      NCCL_SUM, a->comms[g], a->streams[g]);
	/* The group is closed even after a failure, or NCCL stays in it. */
	end = g_api.group_end();
	if (rc != NCCL_SUCCESS)
		return nccl_status(rc, "ncclAllReduce", err, errlen);
	if (end != NCCL_SUCCESS)
		return nccl_status(end, "ncclGroupEnd", err, errlen);
	return BENCH_OK;
}

static int ar_sync_all(struct ar_job *a, const char *what, char *err, size_t errlen)
{
	cudaError_t rc;
	int g;

	for (g = 0; g < a->n; g++)
		if ((rc = cudaSetDevice(a->first + g)) != cudaSuccess ||
		    (rc = cudaStreamSynchronize(a->streams[g])) != cudaSuccess) {
			cuda_status(rc, what, err, errlen);
			return BENCH_ERROR;
		}
	return BENCH_OK;
}

/* Start: the other streams wait for the timer's start; end: the first
 * stream waits for theirs, so start..stop spans every GPU's work. */
static int ar_fan(struct ar_job *a, int join, char *err, size_t errlen)
{
	cudaError_t rc = cudaSuccess;
	int g;

	for (g = 1; g < a->n && rc == cudaSuccess; g++) {
		if (!join) {
			rc = cudaStreamWaitEvent(a->streams[g], a->timer.start, 0);
			continue;
		}
		rc = cudaEventRecord(a->done[g], a->streams[g]);
		if (rc == cudaSuccess)
			rc = cudaStreamWaitEvent(a->streams[0], a->done[g], 0);
	}
	if (rc != cudaSuccess) {
		cuda_status(rc, join ? "joining the gpus' streams" : "starting the gpus' streams",
			    err, errlen);
		return BENCH_ERROR;
	}
	return BENCH_OK;
}

static int ar_run(struct job *j, int64_t iterations, double *seconds,
		  char *err, size_t errlen)
{
	struct ar_job *a = (struct ar_job *)j;
	cudaError_t rc;
	int64_t i;

	if ((rc = cudaSetDevice(a->first)) != cudaSuccess) {
		cuda_status(rc, "cudaSetDevice", err, errlen);
		return BENCH_ERROR;
	}
	if (job_timer_start(&a->timer, a->streams[0], err, errlen) ||
	    ar_fan(a, 0, err, errlen))
		return BENCH_ERROR;
	for (i = 0; i < iterations; i++)
		if (ar_enqueue(a, err, errlen)) {
			a->broken = 1;
			ar_sync_all(a, "all-reduce", NULL, 0);
			(void)cudaGetLastError();
			return BENCH_ERROR;
		}
	if (ar_fan(a, 1, err, errlen))
		return BENCH_ERROR;
	if ((rc = cudaSetDevice(a->first)) != cudaSuccess) {
		cuda_status(rc, "cudaSetDevice", err, errlen);
		return BENCH_ERROR;
	}
	if (job_timer_stop(&a->timer, a->streams[0], seconds, err, errlen)) {
		a->broken = 1;
		return BENCH_ERROR;
	}
	return BENCH_OK;
}

#define AR_SEED(g) (0xa11ce000u + (uint32_t)(g))
/* Elements per sampled block of the check. */
#define AR_BLOCK 4096

static int ar_fill(struct ar_job *a, int zero, char *err, size_t errlen)
{
	cudaError_t rc;
	int g, ret;

	for (g = 0; g < a->n; g++) {
		if ((rc = cudaSetDevice(a->first + g)) != cudaSuccess)
			return cuda_status(rc, "cudaSetDevice", err, errlen);
		if (zero)
			rc = cudaMemsetAsync(a->bufs[g], 0, a->count * elem_size(a->type),
					     a->streams[g]);
		else if ((ret = fill_small(a->bufs[g], a->type, a->count, AR_SEED(g), 1,
					   1.0f, a->streams[g], err, errlen)))
			return ret;
		if (rc != cudaSuccess)
			return cuda_status(rc, "cudaMemsetAsync", err, errlen);
	}
	return ar_sync_all(a, "filling the all-reduce buffers", err, errlen);
}

/* The sum of n values in [-1, 1] is exact while it fits the type's
 * mantissa; past that, allow the rounding of every partial sum. */
static double ar_tolerance(const struct ar_job *a)
{
	double n = a->n;

	switch (a->type) {
	case CUDA_R_8F_E4M3: return n > 16 ? n * n * ldexp(1.0, -3) : 0.0;
	case CUDA_R_16BF: return n > 256 ? n * n * ldexp(1.0, -8) : 0.0;
	case CUDA_R_16F: return n > 2048 ? n * n * ldexp(1.0, -11) : 0.0;
	default: return 0.0;
	}
}

static int ar_compare(struct ar_job *a, int g, unsigned char *buf, char *err,
		      size_t errlen)
{
	size_t es = elem_size(a->type);
	double tol = ar_tolerance(a);
	unsigned int b;

	for (b = 0; b < SAMPLE_BLOCKS; b++) {
		uint64_t off = sample_offset(a->count, AR_BLOCK, b), len, i;

		if (off >= a->count)
			break;
		len = a->count - off < AR_BLOCK ? a->count - off : AR_BLOCK;
		if (download(buf, a->bufs[g], off, len, a->type, err, errlen))
			return BENCH_ERROR;
		for (i = 0; i < len; i++) {
			double got = elem_to_double(buf + i * es, a->type), want = 0.0;
			int h;

			for (h = 0; h < a->n; h++)
				want += small_int(off + i, AR_SEED(h), 1);
			if (!(fabs(got - want) <= tol)) {
				set_err(err, errlen,
					"%s all-reduce wrong on cuda:%d at element %llu: got %g, want %g",
					precision_name(a->precision), a->first + g,
					(unsigned long long)(off + i), got, want);
				return BENCH_ERROR;
			}
		}
	}
	return BENCH_OK;
}

int allreduce_enqueue(struct job *j, int64_t times, char *err, size_t errlen)
{
	struct ar_job *a = (struct ar_job *)j;
	int64_t i;

	for (i = 0; i < times; i++)
		if (ar_enqueue(a, err, errlen)) {
			a->broken = 1;
			return BENCH_ERROR;
		}
	j->ran = 1;
	return BENCH_OK;
}

cudaStream_t allreduce_stream(struct job *j, int device)
{
	struct ar_job *a = (struct ar_job *)j;

	return a->streams[device - a->first];
}

int allreduce_wait(struct job *j, char *err, size_t errlen)
{
	struct ar_job *a = (struct ar_job *)j;

	if (ar_sync_all(a, "all-reduce", err, errlen)) {
		a->broken = 1;
		return BENCH_ERROR;
	}
	return BENCH_OK;
}

static int ar_check(struct job *j, char *err, size_t errlen)
{
	struct ar_job *a = (struct ar_job *)j;
	unsigned char *buf;
	int g, ret;

	if ((ret = ar_sync_all(a, "all-reduce", err, errlen)) ||
	    (ret = ar_fill(a, 0, err, errlen)) || (ret = ar_enqueue(a, err, errlen)) ||
	    (ret = ar_sync_all(a, "all-reduce for the check", err, errlen))) {
		a->broken = 1;
		return BENCH_ERROR;
	}
	buf = (unsigned char *)malloc(AR_BLOCK * 8);
	if (!buf) {
		set_err(err, errlen, "out of host memory for the all-reduce check");
		return BENCH_ERROR;
	}
	for (g = 0, ret = BENCH_OK; g < a->n && ret == BENCH_OK; g++) {
		cudaError_t rc = cudaSetDevice(a->first + g);

		if (rc != cudaSuccess)
			ret = cuda_status(rc, "cudaSetDevice", err, errlen);
		else
			ret = ar_compare(a, g, buf, err, errlen);
	}
	free(buf);
	/* Back to zeros, so later timed runs stay finite. */
	if (ret == BENCH_OK)
		ret = ar_fill(a, 1, err, errlen);
	return ret == BENCH_OK ? BENCH_OK : BENCH_ERROR;
}

/*
 * ncclCommDestroy finalizes a communicator that was not, and finalizing is
 * collective over the clique: one thread destroying n communicators one
 * after the other can wait in the first for the others.  So finalize them
 * all in one group first, as NCCL's own single-thread example does, and
 * destroy them after.  After a failure a peer may never get there:
 * ncclCommAbort does not wait for it.
 */
static void ar_close_comms(struct ar_job *a)
{
	int g;

	if (a->broken && g_api.comm_abort) {
		for (g = 0; g < a->n; g++)
			if (a->comms[g])
				g_api.comm_abort(a->comms[g]);
		return;
	}
	if (g_api.comm_finalize && g_api.group_start() == NCCL_SUCCESS) {
		for (g = 0; g < a->n; g++)
			if (a->comms[g])
				g_api.comm_finalize(a->comms[g]);
		g_api.group_end();
	}
	for (g = 0; g < a->n; g++)
		if (a->comms[g])
			g_api.comm_destroy(a->comms[g]);
}

static void ar_release(struct job *j)
{
	struct ar_job *a = (struct ar_job *)j;
	int g;

	if (!a)
		return;
	for (g = 0; g < a->n; g++) {
		cudaSetDevice(a->first + g);
		if (a->streams && a->streams[g] &&
		    cudaStreamSynchronize(a->streams[g]) != cudaSuccess)
			a->broken = 1;
	}
	if (a->have_comms)
		ar_close_comms(a);
	for (g = 0; g < a->n; g++) {
		cudaSetDevice(a->first + g);
		if (g == 0)
			job_timer_free(&a->timer);
		if (a->done && a->done[g])
			cudaEventDestroy(a->done[g]);
		if (a->bufs)
			cudaFree(a->bufs[g]);
		if (a->streams && a->streams[g])
			cudaStreamDestroy(a->streams[g]);
	}
	(void)cudaGetLastError();
	free(a->comms);
	free(a->streams);
	free(a->done);
	free(a->bufs);
	free(a);
}

static const struct job_ops ar_ops = { ar_run, ar_check, ar_release };

/* NCCL's type for a precision; BENCH_UNSUPPORTED for one this NCCL or
 * these GPUs cannot reduce. */
static int ar_type(struct ar_job *a, char *err, size_t errlen)
{
	int g, major = 0;

	switch (a->precision) {
	case BENCH_FP64: a->nccl_type = NCCL_FLOAT64; a->type = CUDA_R_64F; return BENCH_OK;
	case BENCH_FP32:
	case BENCH_TF32: a->nccl_type = NCCL_FLOAT32; a->type = CUDA_R_32F; return BENCH_OK;
	case BENCH_FP16: a->nccl_type = NCCL_FLOAT16; a->type = CUDA_R_16F; return BENCH_OK;
	case BENCH_INT8: a->nccl_type = NCCL_INT8; a->type = CUDA_R_8I; return BENCH_OK;
	case BENCH_BF16:
		a->nccl_type = NCCL_BFLOAT16;
		a->type = CUDA_R_16BF;
		if (g_nccl_version >= NCCL_BF16_VERSION)
			return BENCH_OK;
		set_err(err, errlen, "bf16 all-reduce needs NCCL 2.10 or newer (found %d)",
			g_nccl_version);
		return BENCH_UNSUPPORTED;
	case BENCH_FP8_E4M3:
		a->nccl_type = NCCL_FLOAT8E4M3;
		a->type = CUDA_R_8F_E4M3;
		if (g_nccl_version < NCCL_FP8_VERSION) {
			set_err(err, errlen, "fp8 all-reduce needs NCCL 2.24 or newer (found %d)",
				g_nccl_version);
			return BENCH_UNSUPPORTED;
		}
		for (g = 0; g < a->n; g++)
			if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
						   a->first + g) != cudaSuccess || major < 9) {
				(void)cudaGetLastError();
				set_err(err, errlen,
					"fp8 all-reduce needs compute capability 9.0 or newer on every gpu (cuda:%d is not)",
					a->first + g);
				return BENCH_UNSUPPORTED;
			}
		return BENCH_OK;
	default:
		set_err(err, errlen, "precision %u unknown to the cuda plugin",
			(unsigned)a->precision);
		return BENCH_UNSUPPORTED;
	}
}

/* Per-GPU streams, events and buffers. */
static int ar_per_gpu(struct ar_job *a, char *err, size_t errlen)
{
	cudaError_t rc;
	int g, ret;

	for (g = 0; g < a->n; g++) {
		if ((rc = cudaSetDevice(a->first + g)) != cudaSuccess)
			return cuda_status(rc, "cudaSetDevice", err, errlen);
		if ((rc = cudaStreamCreateWithFlags(&a->streams[g], cudaStreamNonBlocking)) !=
		    cudaSuccess) {
			a->streams[g] = NULL;
			return cuda_status(rc, "cudaStreamCreate", err, errlen);
		}
		if ((rc = cudaEventCreateWithFlags(&a->done[g], cudaEventDisableTiming)) !=
		    cudaSuccess) {
			a->done[g] = NULL;
			return cuda_status(rc, "cudaEventCreate", err, errlen);
		}
		if (g == 0 && (ret = job_timer_init(&a->timer, err, errlen)))
			return ret;
		if ((ret = dev_alloc(&a->bufs[g], a->count * elem_size(a->type),
				     "all-reduce buffer", err, errlen)))
			return ret;
	}
	return BENCH_OK;
}

/* The per-GPU arrays and one NCCL communicator per GPU. */
static int ar_setup(struct ar_job *a, char *err, size_t errlen)
{
	int *devs, g, rc;

	a->comms = (nccl_comm *)calloc((size_t)a->n, sizeof(*a->comms));
	a->streams = (cudaStream_t *)calloc((size_t)a->n, sizeof(*a->streams));
	a->done = (cudaEvent_t *)calloc((size_t)a->n, sizeof(*a->done));
	a->bufs = (void **)calloc((size_t)a->n, sizeof(*a->bufs));
	devs = (int *)calloc((size_t)a->n, sizeof(*devs));
	if (!a->comms || !a->streams || !a->done || !a->bufs || !devs) {
		free(devs);
		set_err(err, errlen, "out of host memory for an all-reduce job");
		return BENCH_OUT_OF_MEMORY;
	}
	for (g = 0; g < a->n; g++)
		devs[g] = a->first + g;
	rc = g_api.comm_init_all(a->comms, a->n, devs);
	free(devs);
	if (rc != NCCL_SUCCESS) {
		memset(a->comms, 0, (size_t)a->n * sizeof(*a->comms));
		return nccl_status(rc, "ncclCommInitAll", err, errlen);
	}
	a->have_comms = 1;
	return BENCH_OK;
}

int allreduce_prepare(const struct gpuplan_cuda_job *spec, struct job **out,
		      struct gpuplan_cuda_job_info *info, char *err, size_t errlen)
{
	struct ar_job *a;
	int ret;

	if ((ret = nccl_load(err, errlen)))
		return ret;
	/* NCCL's version code: 1000*major + 100*minor + patch before 2.9,
	 * 10000*major + 100*minor + patch since. */
	if (g_nccl_version >= 20900)
		snprintf(info->note, sizeof(info->note), "nccl %d.%d.%d",
			 g_nccl_version / 10000, g_nccl_version / 100 % 100,
			 g_nccl_version % 100);
	a = (struct ar_job *)calloc(1, sizeof(*a));
	if (!a) {
		set_err(err, errlen, "out of host memory for an all-reduce job");
		return BENCH_OUT_OF_MEMORY;
	}
	a->base.ops = &ar_ops;
	a->first = spec->device;
	a->n = spec->n_devices;
	a->precision = spec->precision;
	ret = ar_type(a, err, errlen);
	if (ret == BENCH_OK) {
		a->count = spec->bytes / elem_size(a->type);
		if (a->count == 0) {
			set_err(err, errlen, "all-reduce of %llu bytes holds no %s element",
				(unsigned long long)spec->bytes, precision_name(a->precision));
			ret = BENCH_ERROR;
		}
	}
	if (ret == BENCH_OK)
		ret = ar_setup(a, err, errlen);
	if (ret == BENCH_OK)
		ret = ar_per_gpu(a, err, errlen);
	/* One all-reduce first: NCCL connects its channels on the first
	 * collective, which must not land in a timed run. */
	if (ret == BENCH_OK && (ret = ar_fill(a, 1, err, errlen)) == BENCH_OK &&
	    (ret = ar_enqueue(a, err, errlen)) == BENCH_OK)
		ret = ar_sync_all(a, "warm-up all-reduce", err, errlen);
	if (ret != BENCH_OK) {
		a->broken = 1;
		ar_release(&a->base);
		return ret;
	}
	*out = &a->base;
	return BENCH_OK;
}

/*
 * plugin.cu - libgpuplan-cuda.so, the CUDA backend gpuplan loads with dlopen.
 *
 * The CUDA runtime is linked statically (cudart_static), so at run time the
 * plugin needs only the NVIDIA driver, libcuda.so.1.  The driver is looked
 * for explicitly in init, so a machine without one gets a plain reason
 * instead of a runtime error code.
 *
 * This file holds the table and the ABI 1 hooks; the jobs of ABI 2 start in
 * jobs.cu (jobs.h lists the files).  cuBLASLt is linked dynamically (it is
 * part of every toolkit install but too big to link statically); NCCL is
 * dlopen()ed when an all-reduce asks for it.
 *
 * Global state (the device count found by init) is acceptable here and only
 * here: the plugin is a process-wide singleton by nature (see STYLE.md).
 * No hook prints or exits; every failure is a nonzero return and a reason in
 * the caller's buffer.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "jobs.h"

#define GPUPLAN_EXPORT extern "C" __attribute__((visibility("default")))

/* Threads per block for the triad: a multiple of the warp size that keeps
 * every architecture we build for at full occupancy for a streaming kernel. */
#define TRIAD_THREADS 256
/* Grid cap; the kernel is grid-stride, so any n is covered. */
#define TRIAD_MAX_BLOCKS (1u << 30)

static int g_initialised;
static int g_device_count;

/*
 * Look for the driver ourselves before the runtime does: the runtime would
 * only say "CUDA driver version is insufficient", which reads as "update
 * your driver" on a machine that has none at all.
 */
static int probe_driver(char *err, size_t errlen)
{
	void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
	const char *why;

	if (h) {
		/* The runtime opens it again itself; this was only a probe. */
		dlclose(h);
		return 0;
	}
	why = dlerror();
	if (!why || strstr(why, "No such file"))
		set_err(err, errlen, "no NVIDIA driver: libcuda.so.1 not found");
	else
		set_err(err, errlen, "cannot load the NVIDIA driver: %s", why);
	return -1;
}

/* Turn a cudaGetDeviceCount failure into what the user should check. */
static int explain_count_error(cudaError_t rc, char *err, size_t errlen)
{
	int drv = 0;

	switch (rc) {
	case cudaErrorNoDevice:
		set_err(err, errlen, "no CUDA device");
		break;
	case cudaErrorInsufficientDriver:
		if (cudaDriverGetVersion(&drv) == cudaSuccess && drv > 0)
			set_err(err, errlen,
				"driver too old for CUDA %d.%d runtime (driver supports CUDA %d.%d)",
				CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10,
				drv / 1000, drv % 1000 / 10);
		else
			set_err(err, errlen, "driver too old for CUDA %d.%d runtime",
				CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
		break;
	case cudaErrorStubLibrary:
		set_err(err, errlen,
			"libcuda.so.1 is the CUDA Toolkit's stub, not a driver (take lib64/stubs off the library path)");
		break;
	case cudaErrorSystemDriverMismatch:
		set_err(err, errlen,
			"NVIDIA driver library and kernel module versions differ (reboot or reinstall the driver)");
		break;
	case cudaErrorCompatNotSupportedOnDevice:
		set_err(err, errlen,
			"CUDA forward-compatibility driver is not supported on this GPU");
		break;
	case cudaErrorDevicesUnavailable:
		set_err(err, errlen,
			"all CUDA devices are busy or unavailable (check the compute mode)");
		break;
	case cudaErrorSystemNotReady:
		set_err(err, errlen,
			"CUDA system not ready (is the fabric manager running?)");
		break;
	default:
		return cuda_fail(err, errlen, "cudaGetDeviceCount", rc);
	}
	return -1;
}

static int plugin_init(char *err, size_t errlen)
{
	cudaError_t rc;
	int n = 0;

	g_initialised = 0;
	g_device_count = 0;
	if (probe_driver(err, errlen))
		return -1;
	rc = cudaGetDeviceCount(&n);
	if (rc != cudaSuccess)
		return explain_count_error(rc, err, errlen);
	if (n < 1) {
		set_err(err, errlen, "no CUDA device");
		return -1;
	}
	g_device_count = n;
	g_initialised = 1;
	return 0;
}

static int plugin_device_count(void)
{
	return g_device_count;
}

int plugin_check_device(int dev, char *err, size_t errlen)
{
	if (!g_initialised) {
		set_err(err, errlen, "cuda plugin used before init");
		return -1;
	}
	if (dev < 0 || dev >= g_device_count) {
		set_err(err, errlen, "cuda device %d out of range (%d found)",
			dev, g_device_count);
		return -1;
	}
	return 0;
}

/* nvidia-smi's form: GPU-8-4-4-4-12 hex digits. */
static void format_uuid(const cudaUUID_t *u, char *out, size_t len)
{
	const unsigned char *b = (const unsigned char *)u->bytes;

	snprintf(out, len,
		 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
		 b[10], b[11], b[12], b[13], b[14], b[15]);
}

/*
 * Clocks and bus width.  CUDA 13 dropped clockRate and memoryClockRate from
 * cudaDeviceProp, so they come from attributes; an attribute the driver
 * will not give (or gives as 0) leaves its field marked absent.
 */
static void read_memory_and_clocks(int dev, struct gpuplan_cuda_device_info *out)
{
	int v;

	if (cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, dev) == cudaSuccess && v > 0) {
		out->sm_clock_max_hz = (uint64_t)v * 1000;	/* kHz -> Hz */
		out->valid |= GPUPLAN_CUDA_HAS_SM_CLOCK;
	}
	if (cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, dev) == cudaSuccess && v > 0) {
		out->mem_clock_hz = (uint64_t)v * 1000;	/* kHz -> Hz */
		out->valid |= GPUPLAN_CUDA_HAS_MEM_CLOCK;
	}
	if (cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess && v > 0) {
		out->mem_bus_width_bits = v;
		out->valid |= GPUPLAN_CUDA_HAS_MEM_BUS_WIDTH;
	}
	if ((out->valid & GPUPLAN_CUDA_HAS_MEM_CLOCK) &&
	    (out->valid & GPUPLAN_CUDA_HAS_MEM_BUS_WIDTH)) {
		/* Double data rate: two transfers per reported clock. */
		out->mem_bandwidth_bytes_per_s = 2.0 * (double)out->mem_clock_hz *
						 out->mem_bus_width_bits / 8.0;
		out->valid |= GPUPLAN_CUDA_HAS_MEM_BANDWIDTH;
	}
}

static void read_versions(struct gpuplan_cuda_device_info *out)
{
	int v = 0;

	if (cudaDriverGetVersion(&v) == cudaSuccess && v > 0) {
		out->driver_version = v;
		out->valid |= GPUPLAN_CUDA_HAS_DRIVER_VERSION;
	}
	v = 0;
	if (cudaRuntimeGetVersion(&v) == cudaSuccess && v > 0) {
		out->runtime_version = v;
		out->valid |= GPUPLAN_CUDA_HAS_RUNTIME_VERSION;
	}
}

static int plugin_device_info(int dev, struct gpuplan_cuda_device_info *out,
			      char *err, size_t errlen)
{
	cudaDeviceProp p;
	cudaError_t rc;

	memset(out, 0, sizeof(*out));
	if (plugin_check_device(dev, err, errlen))
		return -1;
	rc = cudaGetDeviceProperties(&p, dev);
	if (rc != cudaSuccess) {
		(void)cudaGetLastError();
		return cuda_fail(err, errlen, "cudaGetDeviceProperties", rc);
	}

	snprintf(out->name, sizeof(out->name), "%s", p.name);
	out->cc_major = p.major;
	out->cc_minor = p.minor;
	out->sm_count = p.multiProcessorCount;
	out->total_mem_bytes = p.totalGlobalMem;
	format_uuid(&p.uuid, out->uuid, sizeof(out->uuid));
	out->valid |= GPUPLAN_CUDA_HAS_UUID;
	if (cudaDeviceGetPCIBusId(out->pci_bus_id, (int)sizeof(out->pci_bus_id),
				  dev) == cudaSuccess)
		out->valid |= GPUPLAN_CUDA_HAS_PCI_BUS_ID;
	else
		out->pci_bus_id[0] = '\0';
	read_memory_and_clocks(dev, out);
	read_versions(out);
	/* An attribute or bus id the driver refused is still the thread's
	 * last error; a job's launch check must not find it. */
	(void)cudaGetLastError();
	return 0;
}

/* STREAM triad, grid-stride so any n works with a capped grid. */
static __global__ void triad(double *__restrict__ a,
			     const double *__restrict__ b,
			     const double *__restrict__ c, double s, size_t n)
{
	size_t stride = (size_t)gridDim.x * blockDim.x;
	size_t i;

	for (i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
		a[i] = b[i] + s * c[i];
}

/*
 * Inputs are small integers and s is 3, so b + s*c is exact in double with
 * or without FMA contraction: the device result must equal the host's bit
 * for bit, and any difference is a real fault, not rounding.
 */
#define TRIAD_SCALAR 3.0

static double input_b(size_t i)
{
	return (double)(i & 0xfffff);
}

static double input_c(size_t i)
{
	return (double)((i * 7) & 0xffff);
}

/* Compare a[] with the exact expectation; returns the number of mismatches. */
static size_t verify_triad(const double *a, size_t n, double *max_abs_error,
			   size_t *first_bad)
{
	size_t i, bad = 0;
	double worst = 0.0;

	for (i = 0; i < n; i++) {
		double want = input_b(i) + TRIAD_SCALAR * input_c(i);
		double diff = fabs(a[i] - want);

		if (a[i] == want)
			continue;
		if (!bad)
			*first_bad = i;
		bad++;
		/* NaN (an element never written) fails this test and counts
		 * as infinitely wrong. */
		if (!(diff < INFINITY))
			worst = INFINITY;
		else if (diff > worst)
			worst = diff;
	}
	*max_abs_error = worst;
	return bad;
}

static unsigned int triad_blocks(size_t n)
{
	size_t blocks = (n + TRIAD_THREADS - 1) / TRIAD_THREADS;

	return blocks > TRIAD_MAX_BLOCKS ? TRIAD_MAX_BLOCKS : (unsigned int)blocks;
}

/* Launch the triad once and check the launch itself was accepted. */
static int launch_triad(double *a, const double *b, const double *c, size_t n,
			char *err, size_t errlen)
{
	cudaError_t rc;

	triad<<<triad_blocks(n), TRIAD_THREADS>>>(a, b, c, TRIAD_SCALAR, n);
	rc = cudaGetLastError();
	if (rc == cudaErrorNoKernelImageForDevice) {
		set_err(err, errlen,
			"triad launch: %s (plugin built for compute capabilities " ARCH_LIST ")",
			cudaGetErrorString(rc));
		return -1;
	}
	if (rc != cudaSuccess)
		return cuda_fail(err, errlen, "triad launch", rc);
	return 0;
}

/* Copy host inputs to the device, using one host buffer for both arrays. */
static int upload_inputs(double *host, double *d_b, double *d_c, size_t n,
			 char *err, size_t errlen)
{
	size_t i, bytes = n * sizeof(double);
	cudaError_t rc;

	for (i = 0; i < n; i++)
		host[i] = input_b(i);
	rc = cudaMemcpy(d_b, host, bytes, cudaMemcpyHostToDevice);
	if (rc != cudaSuccess)
		return cuda_fail(err, errlen, "cudaMemcpy of b to device", rc);
	for (i = 0; i < n; i++)
		host[i] = input_c(i);
	rc = cudaMemcpy(d_c, host, bytes, cudaMemcpyHostToDevice);
	if (rc != cudaSuccess)
		return cuda_fail(err, errlen, "cudaMemcpy of c to device", rc);
	return 0;
}

/*
 * Warm-up launch (first-launch and clock ramp costs stay out of the
 * figure), then a[] is poisoned with NaN so a timed launch that did not run
 * cannot pass on the warm-up's results, then one launch timed by events.
 */
static int timed_triad(double *d_a, const double *d_b, const double *d_c,
		       size_t n, cudaEvent_t start, cudaEvent_t stop,
		       double *seconds, char *err, size_t errlen)
{
	cudaError_t rc;
	float ms = 0.0f;

	if (launch_triad(d_a, d_b, d_c, n, err, errlen))
		return -1;
	rc = cudaMemset(d_a, 0xff, n * sizeof(double));
	if (rc != cudaSuccess)
		return cuda_fail(err, errlen, "cudaMemset", rc);
	rc = cudaEventRecord(start, 0);
	if (rc != cudaSuccess)
		return cuda_fail(err, errlen, "cudaEventRecord", rc);
	if (launch_triad(d_a, d_b, d_c, n, err, errlen))
		return -1;
	rc = cudaEventRecord(stop, 0);
	if (rc != cudaSuccess)
		return cuda_fail(err, errlen, "cudaEventRecord", rc);
	rc = cudaEventSynchronize(stop);
	if (rc != cudaSuccess)
		return cuda_fail(err, errlen, "triad kernel", rc);
	rc = cudaEventElapsedTime(&ms, start, stop);
	if (rc != cudaSuccess)
		return cuda_fail(err, errlen, "cudaEventElapsedTime", rc);
	if (ms <= 0.0f) {
		set_err(err, errlen,
			"triad of %zu elements finished below the event timer's resolution; use more elements",
			n);
		return -1;
	}
	*seconds = ms / 1000.0;
	return 0;
}

static int plugin_self_test(int dev, size_t n, struct gpuplan_cuda_self_test *out,
			    char *err, size_t errlen)
{
	double *d_a = NULL, *d_b = NULL, *d_c = NULL, *host = NULL;
	cudaEvent_t start = NULL, stop = NULL;
	size_t bytes, bad, first_bad = 0;
	cudaError_t rc;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (plugin_check_device(dev, err, errlen))
		return -1;
	if (n == 0 || n > SIZE_MAX / (3 * sizeof(double))) {
		set_err(err, errlen, "self-test size of %zu elements is out of range", n);
		return -1;
	}
	bytes = n * sizeof(double);
	out->elements = n;
	out->bytes_moved = (uint64_t)3 * bytes;

	if ((rc = cudaSetDevice(dev)) != cudaSuccess) {
		cuda_fail(err, errlen, "cudaSetDevice", rc);
		goto out;
	}
	host = (double *)malloc(bytes);
	if (!host) {
		set_err(err, errlen, "out of host memory for %zu bytes", bytes);
		goto out;
	}
	if ((rc = cudaMalloc((void **)&d_a, bytes)) != cudaSuccess ||
	    (rc = cudaMalloc((void **)&d_b, bytes)) != cudaSuccess ||
	    (rc = cudaMalloc((void **)&d_c, bytes)) != cudaSuccess) {
		set_err(err, errlen, "cudaMalloc of 3 x %zu bytes: %s", bytes,
			cudaGetErrorString(rc));
		goto out;
	}
	if ((rc = cudaEventCreate(&start)) != cudaSuccess ||
	    (rc = cudaEventCreate(&stop)) != cudaSuccess) {
		cuda_fail(err, errlen, "cudaEventCreate", rc);
		goto out;
	}
	if (upload_inputs(host, d_b, d_c, n, err, errlen))
		goto out;
	if (timed_triad(d_a, d_b, d_c, n, start, stop, &out->kernel_seconds,
			err, errlen))
		goto out;
	out->bytes_per_s = (double)out->bytes_moved / out->kernel_seconds;
	if ((rc = cudaMemcpy(host, d_a, bytes, cudaMemcpyDeviceToHost)) != cudaSuccess) {
		cuda_fail(err, errlen, "cudaMemcpy of a to host", rc);
		goto out;
	}
	bad = verify_triad(host, n, &out->max_abs_error, &first_bad);
	if (bad) {
		set_err(err, errlen,
			"triad wrong in %zu of %zu elements (first at %zu: got %.17g, want %.17g)",
			bad, n, first_bad, host[first_bad],
			input_b(first_bad) + TRIAD_SCALAR * input_c(first_bad));
		goto out;
	}
	out->passed = 1;
	ret = 0;
out:
	/* Frees are unchecked: after a kernel fault they fail too, and the
	 * first error is the one worth reporting. */
	if (stop)
		cudaEventDestroy(stop);
	if (start)
		cudaEventDestroy(start);
	cudaFree(d_c);
	cudaFree(d_b);
	cudaFree(d_a);
	free(host);
	/* A failed cudaMalloc or launch stays the thread's last error, and
	 * the next job's launch check would report it as its own. */
	(void)cudaGetLastError();
	return ret;
}

/*
 * Nothing CUDA to release: self_test frees what it allocates, jobs are
 * released by the host before shutdown, and the static runtime tears down
 * its contexts when the library is unloaded or the process exits.  NCCL,
 * if a job opened it, is closed here.
 */
static void plugin_shutdown(void)
{
	allreduce_unload();
	g_initialised = 0;
	g_device_count = 0;
}

static const struct gpuplan_cuda_plugin plugin_table = {
	GPUPLAN_CUDA_ABI_VERSION,
	sizeof(struct gpuplan_cuda_plugin),
	"gpuplan-cuda abi " STR(GPUPLAN_CUDA_ABI_VERSION)
	", cuda runtime " STR(CUDART_VERSION) " (static)"
	", compute capabilities " ARCH_LIST,
	plugin_init,
	plugin_device_count,
	plugin_device_info,
	plugin_self_test,
	plugin_shutdown,
	hook_job_prepare,
	hook_job_run,
	hook_job_check,
	hook_job_release,
	hook_can_access_peer,
};

GPUPLAN_EXPORT const struct gpuplan_cuda_plugin *gpuplan_cuda_plugin_entry(void)
{
	return &plugin_table;
}

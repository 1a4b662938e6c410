/*
 * fake_plugin.c - a stand-in for libgpuplan-cuda.so, built once per defect
 * so test_plugin_loader can check that each one is caught with its own
 * message.  Exactly one FAKE_* macro is defined per build:
 *
 *   FAKE_BAD_ABI	abi_version is not GPUPLAN_CUDA_ABI_VERSION
 *   FAKE_SHORT_TABLE	struct_size smaller than the host's table
 *   FAKE_NULL_HOOK	one required hook is NULL: the one named by
 *			$FAKE_PLUGIN_NULL_HOOK, self_test when it is unset
 *   FAKE_NO_ENTRY	the entry symbol is missing
 *   FAKE_INIT_FAILS	everything valid, init fails with a reason
 *   FAKE_OK		everything valid: one fake device that passes
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cuda/plugin_abi.h"

#define EXPORT __attribute__((visibility("default")))

static int fake_init(char *err, size_t errlen)
{
#ifdef FAKE_INIT_FAILS
	snprintf(err, errlen, "fake init failure");
	return -1;
#else
	(void)err;
	(void)errlen;
	return 0;
#endif
}

static int fake_device_count(void)
{
	return 1;
}

static int fake_device_info(int dev, struct gpuplan_cuda_device_info *out,
			    char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (dev != 0) {
		snprintf(err, errlen, "cuda device %d out of range (1 found)", dev);
		return -1;
	}
	snprintf(out->name, sizeof(out->name), "fake gpu");
	out->sm_count = 1;
	return 0;
}

static int fake_self_test(int dev, size_t elements,
			  struct gpuplan_cuda_self_test *out, char *err,
			  size_t errlen)
{
	(void)dev;
	(void)err;
	(void)errlen;
	memset(out, 0, sizeof(*out));
	out->elements = elements;
	out->bytes_moved = 3 * 8 * (uint64_t)elements;
	out->kernel_seconds = 1.0;
	out->bytes_per_s = (double)out->bytes_moved;
	out->passed = 1;
	return 0;
}

static void fake_shutdown(void)
{
}

/* ABI 2 jobs: one static job that "runs" in a second per iteration. */
static int fake_job;

static int fake_job_prepare(const struct gpuplan_cuda_job *job, void **handle,
			    struct gpuplan_cuda_job_info *info, char *err,
			    size_t errlen)
{
	memset(info, 0, sizeof(*info));
	*handle = NULL;
	if (job->kind == GPUPLAN_JOB_ALLREDUCE) {
		snprintf(err, errlen, "fake plugin has no all-reduce");
		return BENCH_UNSUPPORTED;
	}
	info->device_bytes = job->bytes;
	*handle = &fake_job;
	return BENCH_OK;
}

static int fake_job_run(void *handle, int64_t iterations, double *seconds,
			char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	if (handle != &fake_job)
		return BENCH_ERROR;
	*seconds = (double)iterations;
	return BENCH_OK;
}

static int fake_job_check(void *handle, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	return handle == &fake_job ? BENCH_OK : BENCH_ERROR;
}

static void fake_job_release(void *handle)
{
	(void)handle;
}

static int fake_can_access_peer(int device, int peer, char *err, size_t errlen)
{
	if (device != 0 || peer != 0) {
		snprintf(err, errlen, "cuda device out of range (1 found)");
		return -1;
	}
	return 0;
}

static const struct gpuplan_cuda_plugin table = {
#ifdef FAKE_BAD_ABI
	.abi_version = GPUPLAN_CUDA_ABI_VERSION + 98,
#else
	.abi_version = GPUPLAN_CUDA_ABI_VERSION,
#endif
#ifdef FAKE_SHORT_TABLE
	.struct_size = offsetof(struct gpuplan_cuda_plugin, shutdown),
#else
	.struct_size = sizeof(struct gpuplan_cuda_plugin),
#endif
	.build_info = "fake plugin for unit tests",
	.init = fake_init,
	.device_count = fake_device_count,
	.device_info = fake_device_info,
	.self_test = fake_self_test,
	.shutdown = fake_shutdown,
	.job_prepare = fake_job_prepare,
	.job_run = fake_job_run,
	.job_check = fake_job_check,
	.job_release = fake_job_release,
	.can_access_peer = fake_can_access_peer,
};

#ifdef FAKE_NULL_HOOK
/* The table with the hook $FAKE_PLUGIN_NULL_HOOK names taken out, so one
 * build covers every required hook.  Rebuilt on each call: the loader
 * closes the library after refusing it, and the test loads it again. */
static struct gpuplan_cuda_plugin null_table;

static const struct gpuplan_cuda_plugin *table_without_hook(void)
{
	const char *name = getenv("FAKE_PLUGIN_NULL_HOOK");

	null_table = table;
	if (!name)
		name = "self_test";
#define DROP(hook)                                   \
	if (strcmp(name, #hook) == 0)                \
		null_table.hook = NULL;
	DROP(init) DROP(device_count) DROP(device_info) DROP(self_test)
	DROP(shutdown) DROP(job_prepare) DROP(job_run) DROP(job_check)
	DROP(job_release) DROP(can_access_peer)
#undef DROP
	return &null_table;
}
#endif

#ifndef FAKE_NO_ENTRY
EXPORT const struct gpuplan_cuda_plugin *gpuplan_cuda_plugin_entry(void)
{
#ifdef FAKE_NULL_HOOK
	return table_without_hook();
#else
	return &table;
#endif
}
#else
/* Keep the table referenced so the build does not warn it is unused. */
EXPORT const void *fake_plugin_without_entry(void)
{
	return &table;
}
#endif

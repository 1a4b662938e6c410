/*
 * fake_plugin.c - a stand-in for libgpuplan-cuda.so, built once per defect
 * so test_plugin_loader can check that each one is caught with its own
 * message.  Exactly one FAKE_* macro is defined per build:
 *
 *   FAKE_BAD_ABI	abi_version is not GPUPLAN_CUDA_ABI_VERSION
 *   FAKE_SHORT_TABLE	struct_size smaller than the host's table
 *   FAKE_NULL_HOOK	self_test is NULL
 *   FAKE_NO_ENTRY	the entry symbol is missing
 *   FAKE_INIT_FAILS	everything valid, init fails with a reason
 *   FAKE_OK		everything valid: one fake device that passes
 */
#include <stdio.h>
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

#ifndef FAKE_NULL_HOOK
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
#endif

static void fake_shutdown(void)
{
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
#ifndef FAKE_NULL_HOOK
	.self_test = fake_self_test,
#endif
	.shutdown = fake_shutdown,
};

#ifndef FAKE_NO_ENTRY
EXPORT const struct gpuplan_cuda_plugin *gpuplan_cuda_plugin_entry(void)
{
	return &table;
}
#else
/* Keep the table referenced so the build does not warn it is unused. */
EXPORT const void *fake_plugin_without_entry(void)
{
	return &table;
}
#endif

/*
 * test_sim_plugin.c - the simulated CUDA plugin (tests/sim/sim_plugin.c),
 * loaded through the real loader from the directory ctest passes as the one
 * argument.  Every expected time below is worked out by hand from the sim's
 * roofline constants (the comment at the top of sim_plugin.c):
 *   peak fp64/fp32 60e12, tf32 400e12, fp16/bf16 800e12, int8/fp8 1600e12
 *   FLOP/s; memory 3e12 B/s; PCIe 50e9 pinned, 20e9 pageable; peer 300e9;
 *   launch 3e-6 s; 5e-6 s per run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/plugin_loader.h"
#include "check.h"

#define MIB (1024ull * 1024)

static const char *plugin_dir;
static struct cuda_plugin_handle h;
static const struct gpuplan_cuda_plugin *api;
static char load_why[1024];	/* why the last load_sim failed */

/* Reload the sim with every switch unset but the ones given (or none;
 * a second with load_sim2); 0 with api set, or -1 with load_why. */
static int load_sim2(const char *name, const char *value, const char *name2,
		     const char *value2)
{
	static const char *const vars[] = {
		"GPUPLAN_SIM_DEVICES", "GPUPLAN_SIM_CC", "GPUPLAN_SIM_MEMORY",
		"GPUPLAN_SIM_NO_NCCL", "GPUPLAN_SIM_NO_PEER", "GPUPLAN_SIM_JITTER",
		"GPUPLAN_SIM_BAD_CHECK", "GPUPLAN_SIM_FAIL_JOB",
		"GPUPLAN_SIM_LOSE_AFTER", "GPUPLAN_SIM_LOSE_DEVICE",
		"GPUPLAN_SIM_OOM_RUN", "GPUPLAN_SIM_TIMER",
	};
	size_t i;

	cuda_plugin_unload(&h);
	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
	if (name)
		setenv(name, value, 1);
	if (name2)
		setenv(name2, value2, 1);
	setenv("GPUPLAN_PLUGIN_DIR", plugin_dir, 1);
	load_why[0] = '\0';
	api = cuda_plugin_load(&h, load_why, sizeof(load_why)) ? NULL : h.api;
	return api ? 0 : -1;
}

static int load_sim(const char *name, const char *value)
{
	return load_sim2(name, value, NULL, NULL);
}

/* load_sim that must succeed; 1 when it did. */
static int sim_ready(const char *name, const char *value)
{
	int rc = load_sim(name, value);

	CHECK(rc == 0);
	if (rc)
		fprintf(stderr, "  sim did not load: %s\n", load_why);
	return rc == 0;
}

/* Prepare, run `iterations` times, check; returns the status of the first
 * step that fails.  *seconds and *info hold what the steps said. */
static int run_job(const struct gpuplan_cuda_job *job, int64_t iterations,
		   double *seconds, struct gpuplan_cuda_job_info *info,
		   char *err, size_t errlen)
{
	void *handle = NULL;
	int rc;

	*seconds = 0.0;
	err[0] = '\0';
	rc = api->job_prepare(job, &handle, info, err, errlen);
	if (rc != BENCH_OK) {
		CHECK(handle == NULL);
		return rc;
	}
	rc = api->job_run(handle, iterations, seconds, err, errlen);
	if (rc == BENCH_OK)
		rc = api->job_check(handle, err, errlen);
	api->job_release(handle);
	return rc;
}

static void test_device_info(void)
{
	struct gpuplan_cuda_device_info info;
	struct gpuplan_cuda_self_test st;
	char err[256] = "";

	if (!sim_ready(NULL, NULL))
		return;
	CHECK(api->device_count() == 2);
	CHECK(api->device_info(1, &info, err, sizeof(err)) == 0);
	CHECK_STR(info.name, "gpuplan simulated GPU");
	CHECK_STR(info.uuid, "GPU-00000000-0000-4000-8000-000000000001");
	CHECK(info.cc_major == 9 && info.cc_minor == 0 && info.sm_count > 0);
	CHECK(info.total_mem_bytes == 1024 * MIB);
	CHECK(info.valid == 0xffu);
	/* 2 * 2619 MHz * 5120 bits / 8 = 3.35232e12 B/s, the header's formula. */
	CHECK(info.mem_bandwidth_bytes_per_s ==
	      2.0 * (double)info.mem_clock_hz * info.mem_bus_width_bits / 8.0);
	CHECK_NEAR(info.mem_bandwidth_bytes_per_s, 3.35232e12, 1e-12);
	CHECK(api->device_info(2, &info, err, sizeof(err)) != 0);
	CHECK_HAS(err, "cuda device 2 out of range (2 found)");

	/* 24 B * 2^20 = 25165824 B at 3e12 B/s: 8.388608e-6 s. */
	CHECK(api->self_test(0, 1u << 20, &st, err, sizeof(err)) == 0);
	CHECK(st.passed == 1 && st.max_abs_error == 0.0);
	CHECK(st.bytes_moved == 25165824);
	CHECK_NEAR(st.kernel_seconds, 8.388608e-6, 1e-12);

	if (sim_ready("GPUPLAN_SIM_DEVICES", "4"))
		CHECK(api->device_count() == 4);
	if (sim_ready("GPUPLAN_SIM_MEMORY", "2147483648"))
		CHECK(api->device_info(0, &info, err, sizeof(err)) == 0 &&
		      info.total_mem_bytes == 2048 * MIB);
}

/* A program of five 1 Mi-element fp16 buffers (10 MiB), per iteration:
 *   GEMM 1024^3: 2^31 FLOP / 800e12 = 2.68435456e-6 s (bytes 6 MiB / 3e12 =
 *                2.097152e-6 s, less)
 *   STREAM 2 -> 3 of 2^20: 4 MiB / 3e12 = 1.398101333e-6 s
 *   ROWNORM 1024 x 1024, 3 -> 4: 6 MiB / 3e12 = 2.097152e-6 s
 * sum 6.179607893e-6 s; two iterations: 5e-6 + 1.2359215787e-5. */
static const uint64_t prog_buffers[5] = { MIB, MIB, MIB, MIB, MIB };
static const struct bench_kernel prog_kernels[3] = {
	{ .kind = BENCH_KERNEL_GEMM, .a = 0, .b = 1, .c = 2, .m = 1024, .n = 1024,
	  .k = 1024, .count = 1, .label = "gemm" },
	{ .kind = BENCH_KERNEL_STREAM, .a = 2, .b = -1, .c = 3, .elements = MIB,
	  .flops = 1, .label = "gelu" },
	{ .kind = BENCH_KERNEL_ROWNORM, .a = 3, .b = -1, .c = 4, .rows = 1024,
	  .cols = 1024, .flops = 5, .label = "layernorm" },
};
static const struct bench_program prog = { BENCH_FP16, 5, prog_buffers, 3, prog_kernels };

static const struct {
	struct gpuplan_cuda_job job;
	int64_t iterations;
	double seconds;		/* hand-computed, see each comment */
	uint64_t device_bytes;
} roofline_cases[] = {
	/* 2*4096^3 = 1.37438953472e11 FLOP / 800e12 = 1.7179869184e-4 s
	 * (96 MiB / 3e12 = 3.36e-5 s, less); 5e-6 + 10 * that */
	{ { .kind = GPUPLAN_JOB_GEMM, .precision = BENCH_FP16, .m = 4096, .n = 4096, .k = 4096 },
	  10, 1.7229869184e-3, 96 * MIB },
	/* 2^31 / 60e12 = 3.5791394133e-5 s, compute bound at fp64 */
	{ { .kind = GPUPLAN_JOB_GEMM, .precision = BENCH_FP64, .m = 1024, .n = 1024, .k = 1024 },
	  1, 4.0791394133e-5, 24 * MIB },
	/* int8: A, B 64 MiB each, C int32 256 MiB; 2*8192^3 / 1600e12 = 6.8719476736e-4 s */
	{ { .kind = GPUPLAN_JOB_GEMM, .precision = BENCH_INT8, .m = 8192, .n = 8192, .k = 8192 },
	  1, 6.9219476736e-4, 384 * MIB },
	/* k = 1 is memory bound: (8192 + 8192 + 8192^2) * 4 B = 268500992 B / 3e12 */
	{ { .kind = GPUPLAN_JOB_GEMM, .precision = BENCH_FP32, .m = 8192, .n = 8192, .k = 1 },
	  1, 9.45003306667e-5, 268500992 },
	/* copy: 2 * 256 MiB / 3e12 = 1.78956970667e-4 s per iteration */
	{ { .kind = GPUPLAN_JOB_COPY, .bytes = 256 * MIB }, 4, 7.20827882667e-4, 512 * MIB },
	/* triad: 3 * 64 MiB / 3e12 = 6.7108864e-5 s per iteration */
	{ { .kind = GPUPLAN_JOB_TRIAD, .bytes = 64 * MIB }, 5, 3.4054432e-4, 192 * MIB },
	/* 256 MiB / 50e9 pinned = 5.36870912e-3 s; / 20e9 pageable = 1.34217728e-2 s */
	{ { .kind = GPUPLAN_JOB_H2D, .flags = GPUPLAN_JOB_PINNED, .bytes = 256 * MIB },
	  1, 5.37370912e-3, 256 * MIB },
	{ { .kind = GPUPLAN_JOB_D2H, .device = 1, .bytes = 256 * MIB }, 1, 1.34267728e-2, 256 * MIB },
	{ { .kind = GPUPLAN_JOB_D2D, .bytes = 256 * MIB }, 1, 1.83956970667e-4, 512 * MIB },
	/* p2p both ways at once: 256 MiB / 300e9 = 8.9478485333e-4 s per
	 * iteration; each GPU holds 512 MiB */
	{ { .kind = GPUPLAN_JOB_P2P, .flags = GPUPLAN_JOB_BIDIRECTIONAL, .peer = 1,
	    .bytes = 256 * MIB }, 2, 1.79456970667e-3, 1024 * MIB },
	/* ring over 2: 2 * 1/2 * 256 MiB / 300e9 = 8.9478485333e-4 s */
	{ { .kind = GPUPLAN_JOB_ALLREDUCE, .precision = BENCH_FP32, .n_devices = 2,
	    .bytes = 256 * MIB }, 1, 8.9978485333e-4, 512 * MIB },
	/* 5e-6 + 1000 * 3e-6 */
	{ { .kind = GPUPLAN_JOB_LAUNCH }, 1000, 3.005e-3, 0 },
	{ { .kind = GPUPLAN_JOB_PROGRAM, .precision = BENCH_FP16, .program = &prog },
	  2, 1.7359215787e-5, 10 * MIB },
};

static void test_roofline(void)
{
	struct gpuplan_cuda_job_info info;
	char err[256];
	double s;
	size_t i;

	if (!sim_ready(NULL, NULL))
		return;
	for (i = 0; i < sizeof(roofline_cases) / sizeof(roofline_cases[0]); i++) {
		CHECK(run_job(&roofline_cases[i].job, roofline_cases[i].iterations, &s,
			      &info, err, sizeof(err)) == BENCH_OK);
		CHECK_NEAR(s, roofline_cases[i].seconds, 1e-10);
		CHECK(info.device_bytes == roofline_cases[i].device_bytes);
		if (info.device_bytes != roofline_cases[i].device_bytes || err[0])
			fprintf(stderr, "  case %zu: %llu bytes, '%s'\n", i,
				(unsigned long long)info.device_bytes, err);
	}
}

static int prepare(const struct gpuplan_cuda_job *job, void **handle, char *err,
		   size_t errlen)
{
	struct gpuplan_cuda_job_info info;
	int rc = api->job_prepare(job, handle, &info, err, errlen);

	CHECK(rc == BENCH_OK || (*handle == NULL && info.device_bytes == 0));
	return rc;
}

/* Two 384 MiB copies hold 768 MiB each: one device of 1 GiB fits only one. */
static void test_out_of_memory(void)
{
	struct gpuplan_cuda_job copy = { .kind = GPUPLAN_JOB_COPY, .bytes = 384 * MIB };
	struct gpuplan_cuda_job rest = { .kind = GPUPLAN_JOB_H2D, .bytes = 256 * MIB };
	struct gpuplan_cuda_job huge = { .kind = GPUPLAN_JOB_GEMM, .precision = BENCH_FP32,
					 .m = 1ll << 40, .n = 1ll << 40, .k = 1ll << 40 };
	void *first, *second, *third, *other;
	char err[256];

	if (!sim_ready(NULL, NULL))
		return;
	CHECK(prepare(&copy, &first, err, sizeof(err)) == BENCH_OK);
	CHECK(prepare(&copy, &second, err, sizeof(err)) == BENCH_OUT_OF_MEMORY);
	CHECK_HAS(err, "out of memory on cuda:0: job needs 805306368 bytes, 268435456 of");
	/* The failed prepare held nothing: the last 256 MiB still fit. */
	CHECK(prepare(&rest, &third, err, sizeof(err)) == BENCH_OK);
	CHECK(prepare(&huge, &second, err, sizeof(err)) == BENCH_OUT_OF_MEMORY);
	copy.device = 1;	/* the other device has its own memory */
	CHECK(prepare(&copy, &other, err, sizeof(err)) == BENCH_OK);
	copy.device = 0;
	api->job_release(first);
	CHECK(prepare(&copy, &second, err, sizeof(err)) == BENCH_OK);
	api->job_release(second);
	api->job_release(third);
	api->job_release(other);
}

static void test_unsupported(void)
{
	struct gpuplan_cuda_job fp8 = { .kind = GPUPLAN_JOB_GEMM, .precision = BENCH_FP8_E4M3,
					.m = 256, .n = 256, .k = 256 };
	struct gpuplan_cuda_job ar = { .kind = GPUPLAN_JOB_ALLREDUCE, .precision = BENCH_BF16,
				       .n_devices = 2, .bytes = MIB };
	struct gpuplan_cuda_job p2p = { .kind = GPUPLAN_JOB_P2P, .peer = 1, .bytes = 256 * MIB };
	struct bench_program fp64_prog = prog;
	struct gpuplan_cuda_job program = { .kind = GPUPLAN_JOB_PROGRAM, .program = &fp64_prog };
	struct gpuplan_cuda_job_info info;
	char err[256];
	double s;

	if (!sim_ready(NULL, NULL))
		return;
	CHECK(run_job(&fp8, 1, &s, &info, err, sizeof(err)) == BENCH_OK);
	CHECK(api->can_access_peer(0, 1, err, sizeof(err)) == 1);
	CHECK(api->can_access_peer(1, 1, err, sizeof(err)) == 0);
	CHECK(api->can_access_peer(0, 2, err, sizeof(err)) == -1);
	CHECK(run_job(&p2p, 1, &s, &info, err, sizeof(err)) == BENCH_OK);
	CHECK_STR(info.note, "");
	fp64_prog.precision = BENCH_FP64;
	CHECK(run_job(&program, 1, &s, &info, err, sizeof(err)) == BENCH_UNSUPPORTED);

	if (!sim_ready("GPUPLAN_SIM_CC", "8.0"))
		return;
	CHECK(run_job(&fp8, 1, &s, &info, err, sizeof(err)) == BENCH_UNSUPPORTED);
	CHECK_STR(err, "fp8 gemm needs compute capability 8.9 or newer, cuda:0 is 8.0");
	fp8.precision = BENCH_BF16;
	CHECK(run_job(&fp8, 1, &s, &info, err, sizeof(err)) == BENCH_OK);

	if (!sim_ready("GPUPLAN_SIM_NO_NCCL", "1"))
		return;
	CHECK(run_job(&ar, 1, &s, &info, err, sizeof(err)) == BENCH_UNSUPPORTED);
	CHECK_STR(err, "libnccl.so.2 not found");

	/* Staged through pinned host memory: 256 MiB / 50e9 = 5.36870912e-3 s. */
	if (!sim_ready("GPUPLAN_SIM_NO_PEER", "1"))
		return;
	CHECK(api->can_access_peer(0, 1, err, sizeof(err)) == 0);
	CHECK(run_job(&p2p, 1, &s, &info, err, sizeof(err)) == BENCH_OK);
	CHECK_STR(info.note, "peer access unsupported: staged through the host");
	CHECK_NEAR(s, 5.37370912e-3, 1e-10);
}

static void test_bad_check(void)
{
	struct gpuplan_cuda_job triad = { .kind = GPUPLAN_JOB_TRIAD, .bytes = MIB };
	struct gpuplan_cuda_job copy = { .kind = GPUPLAN_JOB_COPY, .bytes = MIB };
	struct gpuplan_cuda_job_info info;
	void *handle;
	char err[256];
	double s;

	if (!sim_ready("GPUPLAN_SIM_BAD_CHECK", "3"))	/* GPUPLAN_JOB_TRIAD */
		return;
	CHECK(run_job(&triad, 1, &s, &info, err, sizeof(err)) == BENCH_ERROR);
	CHECK_STR(err, "simulated wrong result at element 7");
	CHECK(run_job(&copy, 1, &s, &info, err, sizeof(err)) == BENCH_OK);
	/* A check before any run is the host's mistake. */
	CHECK(prepare(&copy, &handle, err, sizeof(err)) == BENCH_OK);
	CHECK(api->job_check(handle, err, sizeof(err)) == BENCH_ERROR);
	CHECK(api->job_run(handle, 0, &s, err, sizeof(err)) == BENCH_ERROR);
	api->job_release(handle);
}

static const uint64_t small_buffers[3] = { 16, 16, 8 };
static const struct bench_kernel gemm_4x4 = {
	.kind = BENCH_KERNEL_GEMM, .a = 0, .b = 1, .c = 2, .m = 4, .n = 4, .k = 4, .count = 1,
};
static struct bench_kernel bad_kernels[4];
static const struct bench_program bad_progs[4] = {
	{ BENCH_FP32, 3, small_buffers, 1, &bad_kernels[0] },
	{ BENCH_FP32, 3, small_buffers, 1, &bad_kernels[1] },
	{ BENCH_FP32, 3, small_buffers, 1, &bad_kernels[2] },
	{ BENCH_FP32, 3, small_buffers, 1, &bad_kernels[3] },
};

static const struct {
	struct gpuplan_cuda_job job;
	const char *why;	/* part of the reason */
} invalid_cases[] = {
	{ { .kind = GPUPLAN_JOB_COPY, .device = 2, .bytes = 1 }, "cuda device 2 out of range" },
	{ { .kind = GPUPLAN_JOB_COPY, .device = -1, .bytes = 1 }, "cuda device -1 out of range" },
	{ { .kind = GPUPLAN_JOB_H2D }, "needs bytes > 0" },
	{ { .kind = GPUPLAN_JOB_GEMM, .precision = BENCH_FP32, .m = 4, .n = 0, .k = 4 },
	  "gemm needs m, n and k > 0" },
	{ { .kind = GPUPLAN_JOB_GEMM, .precision = 99, .m = 4, .n = 4, .k = 4 },
	  "unknown precision 99" },
	{ { .kind = GPUPLAN_JOB_P2P, .peer = 0, .bytes = 1 }, "p2p peer 0 must be another" },
	{ { .kind = GPUPLAN_JOB_P2P, .peer = 2, .bytes = 1 }, "p2p peer 2 must be another" },
	{ { .kind = GPUPLAN_JOB_ALLREDUCE, .precision = BENCH_FP32, .n_devices = 1, .bytes = 1 },
	  "all-reduce over 1 devices" },
	{ { .kind = GPUPLAN_JOB_ALLREDUCE, .precision = BENCH_FP32, .device = 1,
	    .n_devices = 2, .bytes = 1 }, "does not fit 2 devices" },
	{ { .kind = GPUPLAN_JOB_PROGRAM, .precision = BENCH_FP32 }, "program job without" },
	{ { .kind = GPUPLAN_JOB_PROGRAM, .program = &bad_progs[0] }, "program kernel 0" },
	{ { .kind = GPUPLAN_JOB_PROGRAM, .program = &bad_progs[1] }, "program kernel 0" },
	{ { .kind = GPUPLAN_JOB_PROGRAM, .program = &bad_progs[2] }, "program kernel 0" },
	{ { .kind = GPUPLAN_JOB_PROGRAM, .program = &bad_progs[3] }, "program kernel 0" },
	{ { .kind = 42 }, "unknown job kind 42" },
};

static void test_invalid(void)
{
	struct gpuplan_cuda_job_info info;
	char err[256];
	double s;
	size_t i;

	/* A 4x4 product whose C (8 elements) is too small, one reading a
	 * buffer that does not exist, one writing its input, one GEMM
	 * without B. */
	for (i = 0; i < 4; i++)
		bad_kernels[i] = gemm_4x4;
	bad_kernels[1].a = 3;
	bad_kernels[2].c = 0;
	bad_kernels[3].b = -1;
	if (!sim_ready(NULL, NULL))
		return;
	for (i = 0; i < sizeof(invalid_cases) / sizeof(invalid_cases[0]); i++) {
		CHECK(run_job(&invalid_cases[i].job, 1, &s, &info, err, sizeof(err)) ==
		      BENCH_ERROR);
		CHECK_HAS(err, invalid_cases[i].why);
	}
}

/* Launch jobs of one iteration (8e-6 s) run through the +-1% pattern. */
static void test_jitter(void)
{
	struct gpuplan_cuda_job launch = { .kind = GPUPLAN_JOB_LAUNCH };
	static const double want[] = { 8e-6, 8.08e-6, 7.92e-6, 8.04e-6, 7.96e-6, 8e-6 };
	void *handle;
	char err[256];
	double s;
	size_t i;

	if (!sim_ready("GPUPLAN_SIM_JITTER", "1") ||
	    prepare(&launch, &handle, err, sizeof(err)) != BENCH_OK)
		return;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK(api->job_run(handle, 1, &s, err, sizeof(err)) == BENCH_OK);
		CHECK_NEAR(s, want[i], 1e-12);
	}
	api->job_release(handle);
}

/* One launch job run once: its status, the time it reported in *s. */
static int launch_once(int device, double *s, char *err, size_t len)
{
	struct gpuplan_cuda_job launch = { .kind = GPUPLAN_JOB_LAUNCH, .device = device };
	struct gpuplan_cuda_job_info info;

	return run_job(&launch, 1, s, &info, err, len);
}

static int healthy(int dev)
{
	struct gpuplan_cuda_self_test t;
	char err[256];

	return api->self_test(dev, 1024, &t, err, sizeof(err)) == 0;
}

/* The fault switches: a job that fails and one that does not, a device
 * lost for good (all, or one), memory out at run, a timer that lies. */
static void test_faults(void)
{
	struct gpuplan_cuda_job copy = { .kind = GPUPLAN_JOB_COPY, .bytes = MIB };
	struct gpuplan_cuda_job small = { .kind = GPUPLAN_JOB_COPY, .bytes = MIB / 4 };
	struct gpuplan_cuda_job p2p = { .kind = GPUPLAN_JOB_P2P, .device = 0,
					.peer = 1, .bytes = MIB };
	struct gpuplan_cuda_job_info info;
	char err[256];
	double s;

	/* job 2 fails; jobs 1 and 3 and the self-test do not */
	if (sim_ready("GPUPLAN_SIM_FAIL_JOB", "2")) {
		CHECK(launch_once(0, &s, err, sizeof(err)) == BENCH_OK);
		CHECK(launch_once(0, &s, err, sizeof(err)) == BENCH_ERROR);
		CHECK_STR(err, "unspecified launch failure (simulated, job 2)");
		CHECK(launch_once(0, &s, err, sizeof(err)) == BENCH_OK && healthy(0));
	}
	/* lost after 1 job: job 2 dies running, then everything fails */
	if (sim_ready("GPUPLAN_SIM_LOSE_AFTER", "1")) {
		CHECK(launch_once(0, &s, err, sizeof(err)) == BENCH_OK && healthy(0));
		CHECK(launch_once(0, &s, err, sizeof(err)) == BENCH_ERROR);
		CHECK_HAS(err, "an illegal memory access was encountered");
		CHECK(launch_once(0, &s, err, sizeof(err)) == BENCH_ERROR);	/* at prepare */
		CHECK(!healthy(0) && !healthy(1));
	}
	/* only cuda:1 lost, by the first job on it */
	if (load_sim2("GPUPLAN_SIM_LOSE_AFTER", "0", "GPUPLAN_SIM_LOSE_DEVICE", "1") == 0) {
		CHECK(launch_once(0, &s, err, sizeof(err)) == BENCH_OK);
		CHECK(run_job(&p2p, 1, &s, &info, err, sizeof(err)) == BENCH_ERROR);
		CHECK(healthy(0) && !healthy(1));
		CHECK(launch_once(0, &s, err, sizeof(err)) == BENCH_OK);
		CHECK(launch_once(1, &s, err, sizeof(err)) == BENCH_ERROR);
	} else {
		CHECK(0);
	}
	/* out of memory at run for a job holding 1 MiB or more (a copy of
	 * 1 MiB per array holds 2 MiB; of 256 KiB, 512 KiB) */
	if (sim_ready("GPUPLAN_SIM_OOM_RUN", "1048576")) {
		CHECK(run_job(&copy, 1, &s, &info, err, sizeof(err)) == BENCH_OUT_OF_MEMORY);
		CHECK_HAS(err, "the job holds 2097152 bytes, GPUPLAN_SIM_OOM_RUN is 1048576");
		CHECK(run_job(&small, 1, &s, &info, err, sizeof(err)) == BENCH_OK);
	}
	/* the timer's pattern, one letter per run, cycling */
	if (sim_ready("GPUPLAN_SIM_TIMER", "gbzni")) {
		static const char want[] = "gbznig";
		for (size_t i = 0; i < sizeof(want) - 1; i++) {
			CHECK(launch_once(0, &s, err, sizeof(err)) == BENCH_OK);
			switch (want[i]) {
			case 'g': CHECK_NEAR(s, 8e-6, 1e-12); break;
			case 'b': CHECK_NEAR(s, -8e-6, 1e-12); break;
			case 'z': CHECK(s == 0.0); break;
			case 'n': CHECK(isnan(s)); break;
			case 'i': CHECK(isinf(s) && s > 0); break;
			}
		}
	}
}

/* init refuses a switch it cannot read, so the loader says why. */
static void test_bad_switches(void)
{
	CHECK(load_sim("GPUPLAN_SIM_DEVICES", "17") == -1);
	CHECK_STR(load_why, "GPUPLAN_SIM_DEVICES must be 0 to 16");
	CHECK(load_sim("GPUPLAN_SIM_CC", "nine") == -1);
	CHECK_STR(load_why, "GPUPLAN_SIM_CC must look like 8.0, not 'nine'");
	CHECK(load_sim("GPUPLAN_SIM_MEMORY", "-1") == -1);
	CHECK(load_sim("GPUPLAN_SIM_TIMER", "gx") == -1);
	CHECK_STR(load_why, "GPUPLAN_SIM_TIMER must be up to 64 of the letters g, b, z, n, i");
	CHECK(load_sim("GPUPLAN_SIM_LOSE_DEVICE", "17") == -1);
	CHECK_STR(load_why, "GPUPLAN_SIM_LOSE_DEVICE must be a device number");
	CHECK(load_sim("GPUPLAN_SIM_FAIL_JOB", "one") == -1);
	CHECK_STR(load_why, "GPUPLAN_SIM_FAIL_JOB must be a job number");
	CHECK(load_sim("GPUPLAN_SIM_DEVICES", "0") == 0 && api->device_count() == 0);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_sim_plugin PLUGIN_DIR\n");
		return 2;
	}
	plugin_dir = argv[1];
	test_device_info();
	test_roofline();
	test_out_of_memory();
	test_unsupported();
	test_bad_check();
	test_faults();
	test_invalid();
	test_jitter();
	test_bad_switches();
	cuda_plugin_unload(&h);
	return check_summary("sim_plugin");
}

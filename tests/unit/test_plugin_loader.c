/*
 * test_plugin_loader.c - the CUDA plugin loader, on any machine.
 *
 * Arguments are NAME=DIR pairs from ctest, naming where each fake plugin
 * (tests/unit/fake_plugin.c) was built and, when the build made one, where
 * the real plugin is ("real=DIR").  The real-plugin check holds on a
 * machine without a driver (load must fail and say so) and on one with a
 * GPU (load, list and self-test must succeed).
 */

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/plugin_loader.h"
#include "check.h"

static int argc_;
static char **argv_;

/* The DIR of a NAME=DIR argument, or NULL if ctest did not pass it. */
static const char *arg_dir(const char *name)
{
	size_t len = strlen(name);
	int i;

	for (i = 1; i < argc_; i++)
		if (strncmp(argv_[i], name, len) == 0 && argv_[i][len] == '=')
			return argv_[i] + len + 1;
	return NULL;
}

/* Load with GPUPLAN_PLUGIN_DIR=dir; returns the rc, why holds the reason. */
static int load_from(const char *dir, struct cuda_plugin_handle *h, char *why,
		     size_t whylen)
{
	setenv("GPUPLAN_PLUGIN_DIR", dir, 1);
	why[0] = '\0';
	return cuda_plugin_load(h, why, whylen);
}

static void test_search_dirs(void)
{
	struct cuda_plugin_dirs dirs;
	char exe[PATH_MAX], want[PATH_MAX + 16];
	ssize_t n;

	setenv("GPUPLAN_PLUGIN_DIR", "/some/where", 1);
	CHECK(cuda_plugin_search_dirs(&dirs) == 1);
	CHECK_STR(dirs.dir[0], "/some/where");

	/* An empty variable counts as unset. */
	setenv("GPUPLAN_PLUGIN_DIR", "", 1);
	CHECK(cuda_plugin_search_dirs(&dirs) == 2);

	unsetenv("GPUPLAN_PLUGIN_DIR");
	CHECK(cuda_plugin_search_dirs(&dirs) == 2);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	CHECK(n > 0);
	if (n <= 0)
		return;
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	CHECK_STR(dirs.dir[0], exe);
	*strrchr(exe, '/') = '\0';
	snprintf(want, sizeof(want), "%s/lib/gpuplan", exe);
	CHECK_STR(dirs.dir[1], want);
}

static void test_not_found(const char *empty_dir)
{
	struct cuda_plugin_handle h;
	char why[1024], want[PATH_MAX + 64];

	CHECK(load_from(empty_dir, &h, why, sizeof(why)) == -1);
	snprintf(want, sizeof(want), "cuda plugin not found (looked in %s)",
		 empty_dir);
	CHECK_HAS(why, want);
	CHECK(h.dl == NULL && h.api == NULL && h.path[0] == '\0');
	/* Unloading a failed handle is harmless. */
	cuda_plugin_unload(&h);
	printf("not found: %s\n", why);
}

static void test_not_elf(const char *dir)
{
	struct cuda_plugin_handle h;
	char why[1024], path[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/libgpuplan-cuda.so", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	/* Longer than an ELF header, so dlopen reads and rejects it. */
	fputs("this is not an ELF file, only text standing in for one; "
	      "the loader must pass on dlopen's complaint about it\n", f);
	fclose(f);
	CHECK(load_from(dir, &h, why, sizeof(why)) == -1);
	CHECK_HAS(why, "cannot load cuda plugin: ");
	CHECK_HAS(why, path);
	printf("not elf: %s\n", why);
	unlink(path);
}

static const struct {
	const char *arg;	/* NAME of the NAME=DIR argument */
	const char *want;	/* part of the loader's message */
} fake_cases[] = {
	/* The version numbers are checked in test_fake_rejected. */
	{ "fake-bad-abi", "; rebuild the plugin with this gpuplan" },
	{ "fake-short-table", "-byte plugin table, this gpuplan needs at least" },
	{ "fake-null-hook", "lacks the required hook self_test" },
	{ "fake-no-entry", "has no entry point gpuplan_cuda_plugin_entry" },
	{ "fake-init-fails", "fake init failure" },
};

static void test_fake_rejected(void)
{
	struct cuda_plugin_handle h;
	char why[1024];
	size_t i;

	for (i = 0; i < sizeof(fake_cases) / sizeof(fake_cases[0]); i++) {
		const char *dir = arg_dir(fake_cases[i].arg);

		CHECK(dir != NULL);
		if (!dir)
			continue;
		CHECK(load_from(dir, &h, why, sizeof(why)) == -1);
		CHECK_HAS(why, fake_cases[i].want);
		CHECK(h.dl == NULL && h.api == NULL);
		printf("%s: %s\n", fake_cases[i].arg, why);
	}
	{
		const char *dir = arg_dir("fake-bad-abi");
		char want[96];

		snprintf(want, sizeof(want), "has ABI version %d, this gpuplan needs %d",
			 GPUPLAN_CUDA_ABI_VERSION + 98, GPUPLAN_CUDA_ABI_VERSION);
		if (dir) {
			CHECK(load_from(dir, &h, why, sizeof(why)) == -1);
			CHECK_HAS(why, want);
		}
	}
}

/* Every required hook, taken out of the fake one at a time. */
static const char *const required_hooks[] = {
	"init", "device_count", "device_info", "self_test", "shutdown",
	"job_prepare", "job_run", "job_check", "job_release", "can_access_peer",
};

static void test_each_hook_required(void)
{
	const char *dir = arg_dir("fake-null-hook");
	struct cuda_plugin_handle h;
	char why[1024], want[128];
	size_t i;

	CHECK(dir != NULL);
	if (!dir)
		return;
	for (i = 0; i < sizeof(required_hooks) / sizeof(required_hooks[0]); i++) {
		setenv("FAKE_PLUGIN_NULL_HOOK", required_hooks[i], 1);
		snprintf(want, sizeof(want), "lacks the required hook %s",
			 required_hooks[i]);
		CHECK(load_from(dir, &h, why, sizeof(why)) == -1);
		CHECK_HAS(why, want);
		CHECK(h.dl == NULL && h.api == NULL);
	}
	unsetenv("FAKE_PLUGIN_NULL_HOOK");
}

static void test_fake_ok(void)
{
	const char *dir = arg_dir("fake-ok");
	struct gpuplan_cuda_self_test st;
	struct cuda_plugin_handle h;
	char why[1024], err[256], want[PATH_MAX + 32];

	CHECK(dir != NULL);
	if (!dir)
		return;
	CHECK(load_from(dir, &h, why, sizeof(why)) == 0);
	if (!h.api) {
		fprintf(stderr, "  fake-ok did not load: %s\n", why);
		return;
	}
	snprintf(want, sizeof(want), "%s/libgpuplan-cuda.so", dir);
	CHECK_STR(h.path, want);
	CHECK(h.api->device_count() == 1);
	CHECK(h.api->self_test(0, 1024, &st, err, sizeof(err)) == 0);
	CHECK(st.passed == 1 && st.bytes_moved == 3 * 8 * 1024);
	{
		struct gpuplan_cuda_job job = { .kind = GPUPLAN_JOB_COPY, .bytes = 4096 };
		struct gpuplan_cuda_job_info info;
		void *handle = NULL;
		double secs = 0.0;

		CHECK(h.api->job_prepare(&job, &handle, &info, err, sizeof(err)) == BENCH_OK);
		CHECK(handle != NULL && info.device_bytes == 4096);
		CHECK(h.api->job_run(handle, 3, &secs, err, sizeof(err)) == BENCH_OK);
		CHECK(secs == 3.0);
		CHECK(h.api->job_check(handle, err, sizeof(err)) == BENCH_OK);
		h.api->job_release(handle);
		job.kind = GPUPLAN_JOB_ALLREDUCE;
		CHECK(h.api->job_prepare(&job, &handle, &info, err, sizeof(err)) ==
		      BENCH_UNSUPPORTED);
		CHECK(handle == NULL);
		CHECK(h.api->can_access_peer(0, 0, err, sizeof(err)) == 0);
	}
	cuda_plugin_unload(&h);
	CHECK(h.dl == NULL && h.api == NULL && h.path[0] == '\0');
}

static int driver_present(void)
{
	void *d = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);

	if (d)
		dlclose(d);
	return d != NULL;
}

/* Prepare, run, check and release one job; UNSUPPORTED is an answer
 * only where `may_be_unsupported`.  Twice, so a release that leaves
 * something behind shows up as a second prepare that fails. */
static void exercise_job(const struct gpuplan_cuda_plugin *api,
			 const struct gpuplan_cuda_job *job, const char *name,
			 int may_be_unsupported)
{
	struct gpuplan_cuda_job_info info;
	char err[512] = "";
	double secs = 0.0;
	void *handle;
	int round, rc;

	for (round = 0; round < 2; round++) {
		handle = NULL;
		rc = api->job_prepare(job, &handle, &info, err, sizeof(err));
		if (rc == BENCH_UNSUPPORTED && may_be_unsupported) {
			CHECK(handle == NULL);
			printf("job %s: unsupported: %s\n", name, err);
			return;
		}
		CHECK(rc == BENCH_OK);
		if (rc != BENCH_OK) {
			fprintf(stderr, "  job %s: prepare %d: %s\n", name, rc, err);
			return;
		}
		rc = api->job_run(handle, 3, &secs, err, sizeof(err));
		CHECK(rc == BENCH_OK && secs > 0.0);
		if (rc == BENCH_OK) {
			rc = api->job_check(handle, err, sizeof(err));
			CHECK(rc == BENCH_OK);
		}
		if (rc != BENCH_OK)
			fprintf(stderr, "  job %s: %s\n", name, err);
		else if (round == 0)
			printf("job %s: 3 runs %.3f ms, %llu device bytes%s%s\n", name,
			       secs * 1e3, (unsigned long long)info.device_bytes,
			       info.note[0] ? ", " : "", info.note);
		api->job_release(handle);
	}
}

/* A small step: C = A B, D = stream(C), E = rownorm(D). */
static void exercise_program(const struct gpuplan_cuda_plugin *api, uint32_t precision,
			     const char *name)
{
	static const uint64_t elements[] = { 64 * 96, 96 * 128, 64 * 128, 64 * 128, 64 * 128 };
	struct bench_kernel k[3];
	struct bench_program prog;
	struct gpuplan_cuda_job job;

	memset(k, 0, sizeof(k));
	k[0] = (struct bench_kernel){ .kind = BENCH_KERNEL_GEMM, .a = 0, .b = 1, .c = 2,
				      .m = 64, .n = 128, .k = 96, .count = 1 };
	k[1] = (struct bench_kernel){ .kind = BENCH_KERNEL_STREAM, .a = 2, .b = -1, .c = 3,
				      .elements = 64 * 128 };
	k[2] = (struct bench_kernel){ .kind = BENCH_KERNEL_ROWNORM, .a = 3, .b = -1, .c = 4,
				      .rows = 64, .cols = 128 };
	prog = (struct bench_program){ .precision = precision, .n_buffers = 5,
				       .buffer_elements = elements, .n_kernels = 3,
				       .kernels = k };
	job = (struct gpuplan_cuda_job){ .kind = GPUPLAN_JOB_PROGRAM, .program = &prog };
	exercise_job(api, &job, name, 0);
}

/* Every job kind once on cuda:0 (and cuda:1 for p2p). */
static void exercise_real_jobs(const struct gpuplan_cuda_plugin *api)
{
	struct gpuplan_cuda_device_info dev;
	static const struct { uint32_t p; const char *name; } gemm[] = {
		{ BENCH_FP64, "gemm fp64" }, { BENCH_FP32, "gemm fp32" },
		{ BENCH_TF32, "gemm tf32" }, { BENCH_FP16, "gemm fp16" },
		{ BENCH_BF16, "gemm bf16" }, { BENCH_INT8, "gemm int8" },
		{ BENCH_FP8_E4M3, "gemm fp8" },
	};
	struct gpuplan_cuda_job job;
	struct gpuplan_cuda_job_info info;
	char err[512];
	void *handle = NULL;
	size_t i;

	for (i = 0; i < sizeof(gemm) / sizeof(gemm[0]); i++) {
		job = (struct gpuplan_cuda_job){ .kind = GPUPLAN_JOB_GEMM,
						 .precision = gemm[i].p,
						 .m = 512, .n = 256, .k = 1024 };
		exercise_job(api, &job, gemm[i].name, gemm[i].p == BENCH_FP8_E4M3);
	}
	job = (struct gpuplan_cuda_job){ .kind = GPUPLAN_JOB_COPY, .bytes = (8u << 20) + 3 };
	exercise_job(api, &job, "copy", 0);
	job.kind = GPUPLAN_JOB_TRIAD;
	exercise_job(api, &job, "triad", 0);
	job.kind = GPUPLAN_JOB_LAUNCH;
	exercise_job(api, &job, "launch", 0);
	job.kind = GPUPLAN_JOB_D2D;
	exercise_job(api, &job, "d2d", 0);
	job.kind = GPUPLAN_JOB_H2D;
	exercise_job(api, &job, "h2d pageable", 0);
	job.flags = GPUPLAN_JOB_PINNED;
	exercise_job(api, &job, "h2d pinned", 0);
	job.kind = GPUPLAN_JOB_D2H;
	exercise_job(api, &job, "d2h pinned", 0);
	job = (struct gpuplan_cuda_job){ .kind = GPUPLAN_JOB_ALLREDUCE, .precision = BENCH_FP32,
					 .n_devices = 1, .bytes = 1u << 20 };
	exercise_job(api, &job, "all-reduce 1 gpu", 1);
	if (api->device_count() > 1) {
		CHECK(api->can_access_peer(0, 1, err, sizeof(err)) >= 0);
		job = (struct gpuplan_cuda_job){ .kind = GPUPLAN_JOB_P2P, .peer = 1,
						 .flags = GPUPLAN_JOB_BIDIRECTIONAL,
						 .bytes = 8u << 20 };
		exercise_job(api, &job, "p2p both ways", 0);
	}
	exercise_program(api, BENCH_FP32, "program fp32");
	exercise_program(api, BENCH_TF32, "program tf32");
	exercise_program(api, BENCH_FP16, "program fp16");
	exercise_program(api, BENCH_BF16, "program bf16");
	/* Two arrays of all the memory cannot fit: out of memory, holding
	 * nothing, and the next job still works. */
	CHECK(api->device_info(0, &dev, err, sizeof(err)) == 0);
	job = (struct gpuplan_cuda_job){ .kind = GPUPLAN_JOB_COPY,
					 .bytes = dev.total_mem_bytes };
	CHECK(api->job_prepare(&job, &handle, &info, err, sizeof(err)) ==
	      BENCH_OUT_OF_MEMORY);
	CHECK(handle == NULL);
	job.bytes = 1u << 20;
	exercise_job(api, &job, "copy after out of memory", 0);
}

/* With a driver: the device must list and pass the triad self-test. */
static void exercise_real_gpu(const struct cuda_plugin_handle *h)
{
	struct gpuplan_cuda_device_info info;
	struct gpuplan_cuda_self_test st;
	char err[512] = "";

	printf("real plugin: %s\n", h->api->build_info);
	CHECK(h->api->device_count() >= 1);
	CHECK(h->api->device_info(0, &info, err, sizeof(err)) == 0);
	CHECK(info.name[0] != '\0' && info.cc_major >= 7 && info.sm_count > 0);
	CHECK(info.total_mem_bytes > 0);
	printf("cuda:0 %s cc %d.%d, %d SMs, %.1f GiB, %s, peak %.0f GB/s\n",
	       info.name, info.cc_major, info.cc_minor, info.sm_count,
	       info.total_mem_bytes / 1073741824.0, info.uuid,
	       (info.valid & GPUPLAN_CUDA_HAS_MEM_BANDWIDTH) ?
		       info.mem_bandwidth_bytes_per_s / 1e9 : -1.0);
	CHECK(h->api->device_info(h->api->device_count(), &info, err,
				  sizeof(err)) != 0);
	CHECK(h->api->self_test(0, 1u << 20, &st, err, sizeof(err)) == 0);
	if (!st.passed)
		fprintf(stderr, "  self-test: %s\n", err);
	CHECK(st.passed == 1);
	CHECK(st.max_abs_error == 0.0);
	CHECK(st.bytes_moved == 3ull * 8 * (1u << 20));
	CHECK(st.kernel_seconds > 0.0 && st.bytes_per_s > 0.0);
	printf("triad 1<<20: %.3f us, %.1f GB/s\n", st.kernel_seconds * 1e6,
	       st.bytes_per_s / 1e9);
	exercise_real_jobs(h->api);
}

static void test_real_plugin(void)
{
	const char *dir = arg_dir("real");
	struct cuda_plugin_handle h;
	char why[1024];
	int rc;

	CHECK(cuda_plugin_was_built() == (dir != NULL));
	if (!dir) {
		printf("real plugin: not built, skipped\n");
		return;
	}
	rc = load_from(dir, &h, why, sizeof(why));
	if (!driver_present()) {
		CHECK(rc == -1);
		CHECK_STR(why, "no NVIDIA driver: libcuda.so.1 not found");
		printf("real plugin: %s\n", why);
		return;
	}
	CHECK(rc == 0);
	if (rc) {
		fprintf(stderr, "  driver present but load failed: %s\n", why);
		return;
	}
	exercise_real_gpu(&h);
	cuda_plugin_unload(&h);
}

int main(int argc, char **argv)
{
	char tmpl[] = "/tmp/gpuplan-loader-XXXXXX";
	char *dir;

	argc_ = argc;
	argv_ = argv;
	dir = mkdtemp(tmpl);
	CHECK(dir != NULL);
	if (dir) {
		test_not_found(dir);
		test_not_elf(dir);
		rmdir(dir);
	}
	test_search_dirs();
	test_fake_rejected();
	test_each_hook_required();
	test_fake_ok();
	test_real_plugin();
	return check_summary("plugin_loader");
}

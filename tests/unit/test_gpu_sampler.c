/*
 * test_gpu_sampler.c - the NVML sampler against tests/unit/fake_nvml.c.
 *
 * Usage: test_gpu_sampler FAKE_NVML FAKE_NVML_OLD_DRIVER (paths of the two
 * builds of the fake).  Each case sets the fake's behaviour in the
 * environment before gpu_sampler_start (the fake reads it in nvmlInit_v2).
 * No check depends on wall time: sample counts are only ">= 2" (the first
 * sample at start, the last at stop) except where the interval is an hour.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/gpu_sampler.h"
#include "check.h"

#define UUID "GPU-5e1f0c2a-0000-4000-8000-00000000abcd"

static const char *fake_lib, *fake_old_lib;

static const char *const fake_vars[] = {
	"FAKE_NVML_INIT_FAILS", "FAKE_NVML_UUID", "FAKE_NVML_SM_MHZ",
	"FAKE_NVML_MEM_MHZ", "FAKE_NVML_TEMP_C", "FAKE_NVML_POWER_MW",
	"FAKE_NVML_NO_POWER", "FAKE_NVML_NO_THROTTLE", "FAKE_NVML_THROTTLE",
	"FAKE_NVML_LEGACY_THROTTLE", "FAKE_NVML_NAME", "FAKE_NVML_UTIL_GPU",
	"FAKE_NVML_UTIL_MEM", "FAKE_NVML_MEM_USED", "FAKE_NVML_MEM_TOTAL",
	"FAKE_NVML_PROCESSES",
};

/* A fresh fake that knows UUID, with the library at lib. */
static void use_fake(const char *lib)
{
	for (size_t i = 0; i < sizeof(fake_vars) / sizeof(fake_vars[0]); i++)
		unsetenv(fake_vars[i]);
	setenv("GPUPLAN_NVML_LIBRARY", lib, 1);
	setenv("FAKE_NVML_UUID", UUID, 1);
}

static void sleep_s(double s)
{
	struct timespec t = {.tv_sec = (time_t)s,
			     .tv_nsec = (long)((s - (double)(time_t)s) * 1e9)};
	nanosleep(&t, NULL);
}

static void library_missing(void)
{
	char why[256] = "";
	const char *path = "/nonexistent/gpuplan-test/libnvidia-ml.so.1";

	setenv("GPUPLAN_NVML_LIBRARY", path, 1);
	CHECK(gpu_sampler_start(UUID, 0.1, why, sizeof(why)) == NULL);
	CHECK(strstr(why, path) != NULL);
	CHECK(strstr(why, "not found") != NULL);

	/* Empty means unset: the driver's library by its soname.  Only where
	 * it is absent is the message known. */
	setenv("GPUPLAN_NVML_LIBRARY", "", 1);
	void *real = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (real) {
		dlclose(real);
		return;
	}
	CHECK(gpu_sampler_start(UUID, 0.1, why, sizeof(why)) == NULL);
	CHECK_STR(why, "libnvidia-ml.so.1 not found (NVML comes with the NVIDIA driver)");
}

/* A library that is not NVML: the test's own executable has none of its
 * functions. */
static void not_nvml(void)
{
	char why[256] = "";

	setenv("GPUPLAN_NVML_LIBRARY", "libm.so.6", 1);
	CHECK(gpu_sampler_start(UUID, 0.1, why, sizeof(why)) == NULL);
	CHECK(strstr(why, "lacks nvmlInit_v2") != NULL);
}

static void init_fails(void)
{
	char why[256] = "";

	use_fake(fake_lib);
	setenv("FAKE_NVML_INIT_FAILS", "1", 1);
	CHECK(gpu_sampler_start(UUID, 0.1, why, sizeof(why)) == NULL);
	CHECK_STR(why, "nvmlInit_v2 failed: Driver Not Loaded");
}

static void unknown_uuid(void)
{
	char why[256] = "";

	use_fake(fake_lib);
	CHECK(gpu_sampler_start("GPU-nope", 0.1, why, sizeof(why)) == NULL);
	CHECK_STR(why, "no GPU with UUID GPU-nope in NVML");
}

static void bad_arguments(void)
{
	char why[256] = "";
	struct gpu_samples out;

	use_fake(fake_lib);
	CHECK(gpu_sampler_start(UUID, 0, why, sizeof(why)) == NULL);
	CHECK(strstr(why, "sampling interval") != NULL);
	CHECK(gpu_sampler_start(UUID, -1, why, sizeof(why)) == NULL);
	CHECK(gpu_sampler_start(UUID, 1.0 / 0.0, why, sizeof(why)) == NULL);
	CHECK(gpu_sampler_start(NULL, 0.1, why, sizeof(why)) == NULL);

	/* A start that works needs nowhere to say why. */
	struct gpu_sampler *s = gpu_sampler_start(UUID, 0.1, NULL, 0);
	CHECK(s != NULL);
	gpu_sampler_mark(s, NULL);
	gpu_sampler_stop(s, &out);
	CHECK(out.n >= 2 && out.v && strcmp(out.v[out.n - 1].during, "") == 0);
	gpu_samples_free(&out);
}

/* Index of during in the phases, or -1. */
static int phase(const char *during)
{
	static const char *const phases[] = {"", "gemm fp16", "copy h2d"};
	for (int i = 0; i < 3; i++)
		if (strcmp(during, phases[i]) == 0)
			return i;
	return -1;
}

/* The readings the fake gives by default, each converted. */
static void check_readings(const struct gpu_sample *x, uint32_t want_valid)
{
	/* the load readings (utilisation, memory, processes) are checked by
	 * by_index_and_load */
	CHECK((x->valid & ~(uint32_t)(GPU_SAMPLE_UTILIZATION | GPU_SAMPLE_MEMORY |
				    GPU_SAMPLE_PROCESSES)) == want_valid);
	if (x->valid & GPU_SAMPLE_SM_CLOCK)
		CHECK_NEAR(x->sm_clock_hz, 1.98e9, 1e-12);
	if (x->valid & GPU_SAMPLE_MEM_CLOCK)
		CHECK_NEAR(x->mem_clock_hz, 2.619e9, 1e-12);
	if (x->valid & GPU_SAMPLE_TEMPERATURE)
		CHECK_NEAR(x->temperature_c, 61, 1e-12);
	if (x->valid & GPU_SAMPLE_POWER)
		CHECK_NEAR(x->power_w, 312.345, 1e-12);
}

#define ALL_VALID (GPU_SAMPLE_SM_CLOCK | GPU_SAMPLE_MEM_CLOCK | \
		   GPU_SAMPLE_TEMPERATURE | GPU_SAMPLE_POWER | GPU_SAMPLE_THROTTLE)

/* Slowing reasons (sw_power_cap, sw_thermal); EventReasons is preferred
 * over the legacy name when the library has both. */
static void sampling_run(void)
{
	char why[256] = "";
	struct gpu_samples out;

	use_fake(fake_lib);
	setenv("FAKE_NVML_THROTTLE", "0x24", 1);
	setenv("FAKE_NVML_LEGACY_THROTTLE", "0x1", 1);
	struct gpu_sampler *s = gpu_sampler_start(UUID, 0.005, why, sizeof(why));
	CHECK(s != NULL);
	if (!s) {
		fprintf(stderr, "start: %s\n", why);
		return;
	}
	gpu_sampler_mark(s, "gemm fp16");
	sleep_s(0.03);
	gpu_sampler_mark(s, "copy h2d");
	sleep_s(0.03);
	gpu_sampler_stop(s, &out);

	CHECK(out.n >= 2);
	CHECK(out.interval_s == 0.005);
	CHECK_STR(out.v[0].during, "");		/* taken at start */
	CHECK_STR(out.v[out.n - 1].during, "copy h2d");	/* taken at stop */
	int last_phase = 0;
	double last_t = 0;
	for (size_t i = 0; i < out.n; i++) {
		const struct gpu_sample *x = &out.v[i];
		int p = phase(x->during);
		CHECK(p >= last_phase);		/* labels follow the marks */
		last_phase = p;
		CHECK(x->t_s >= last_t);
		last_t = x->t_s;
		check_readings(x, ALL_VALID);
		CHECK(x->throttle == 0x24);
	}
	CHECK(out.throttle_seen == 0x24);
	CHECK(out.throttled);
	gpu_samples_free(&out);
	CHECK(out.v == NULL && out.n == 0);
}

/* Idle, sync boost and display clocks lower clocks without making the
 * run throttled; power that fails is absent, not 0. */
static void non_slowing_and_absent(void)
{
	char why[256] = "";
	struct gpu_samples out;

	use_fake(fake_lib);
	setenv("FAKE_NVML_THROTTLE", "0x111", 1);
	setenv("FAKE_NVML_NO_POWER", "1", 1);
	struct gpu_sampler *s = gpu_sampler_start(UUID, 0.005, why, sizeof(why));
	CHECK(s != NULL);
	if (!s)
		return;
	sleep_s(0.02);
	gpu_sampler_stop(s, &out);
	CHECK(out.n >= 2);
	for (size_t i = 0; i < out.n; i++) {
		check_readings(&out.v[i], ALL_VALID & ~GPU_SAMPLE_POWER);
		CHECK(out.v[i].power_w == 0);
	}
	CHECK(out.throttle_seen == 0x111);
	CHECK(!out.throttled);
	gpu_samples_free(&out);

	/* No reasons at all: the bit is clear and nothing is seen. */
	use_fake(fake_lib);
	setenv("FAKE_NVML_NO_THROTTLE", "1", 1);
	s = gpu_sampler_start(UUID, 0.005, why, sizeof(why));
	CHECK(s != NULL);
	if (!s)
		return;
	gpu_sampler_stop(s, &out);
	CHECK(out.n >= 2);
	for (size_t i = 0; i < out.n; i++)
		check_readings(&out.v[i], ALL_VALID & ~GPU_SAMPLE_THROTTLE);
	CHECK(out.throttle_seen == 0 && !out.throttled);
	gpu_samples_free(&out);
}

/* A driver before R535 has only nvmlDeviceGetCurrentClocksThrottleReasons. */
static void old_driver(void)
{
	char why[256] = "";
	struct gpu_samples out;

	use_fake(fake_old_lib);
	setenv("FAKE_NVML_LEGACY_THROTTLE", "0x40", 1);
	struct gpu_sampler *s = gpu_sampler_start(UUID, 0.005, why, sizeof(why));
	CHECK(s != NULL);
	if (!s) {
		fprintf(stderr, "start: %s\n", why);
		return;
	}
	gpu_sampler_stop(s, &out);
	CHECK(out.n >= 2);
	for (size_t i = 0; i < out.n; i++) {
		check_readings(&out.v[i], ALL_VALID);
		CHECK(out.v[i].throttle == GPU_THROTTLE_HW_THERMAL);
	}
	CHECK(out.throttled);
	gpu_samples_free(&out);
}

/* Stop does not wait out the interval (an hour here: ctest's timeout would
 * catch a sampler that did), and marks are copied and truncated. */
static void prompt_stop_and_long_mark(void)
{
	char why[256] = "", long_mark[200];
	struct gpu_samples out;

	use_fake(fake_lib);
	struct gpu_sampler *s = gpu_sampler_start(UUID, 3600, why, sizeof(why));
	CHECK(s != NULL);
	if (!s)
		return;
	memset(long_mark, 'x', sizeof(long_mark) - 1);
	long_mark[sizeof(long_mark) - 1] = '\0';
	gpu_sampler_mark(s, long_mark);
	long_mark[0] = 'y';	/* the sampler keeps its own copy */
	gpu_sampler_stop(s, &out);
	CHECK(out.n == 2);	/* the first and the last, nothing between */
	CHECK(strlen(out.v[1].during) == sizeof(out.v[1].during) - 1);
	CHECK(out.v[1].during[0] == 'x');
	gpu_samples_free(&out);

	gpu_sampler_stop(NULL, &out);
	CHECK(out.n == 0 && out.v == NULL && !out.throttled);
}

static void throttle_names(void)
{
	static const struct { uint64_t reasons; const char *names; } cases[] = {
		{0, ""},
		{GPU_THROTTLE_SW_POWER_CAP, "sw_power_cap"},
		{GPU_THROTTLE_SW_POWER_CAP | GPU_THROTTLE_HW_THERMAL,
		 "sw_power_cap,hw_thermal"},
		{0x1ff, "gpu_idle,applications_clocks,sw_power_cap,hw_slowdown,"
			"sync_boost,sw_thermal,hw_thermal,hw_power_brake,display_clocks"},
		{0x200, "0x200"},
		{0x8000000000000001ULL, "gpu_idle,0x8000000000000000"},
	};
	char buf[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gpu_throttle_names(cases[i].reasons, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].names);
	}
	/* Every single bit goes to a name and back. */
	for (unsigned b = 0; b < 64; b++) {
		uint64_t bit = (uint64_t)1 << b;
		gpu_throttle_names(bit, buf, sizeof(buf));
		if (gpu_throttle_bit(buf) != bit)
			fprintf(stderr, "bit %u: '%s'\n", b, buf);
		CHECK(gpu_throttle_bit(buf) == bit);
	}
	CHECK(gpu_throttle_bit("hw_power_brake") == GPU_THROTTLE_HW_POWER_BRAKE);
	CHECK(gpu_throttle_bit("display_clocks") == GPU_THROTTLE_DISPLAY_CLOCKS);
	CHECK(gpu_throttle_bit("nope") == 0);
	CHECK(gpu_throttle_bit("") == 0);
	CHECK(gpu_throttle_bit(NULL) == 0);
	CHECK(gpu_throttle_bit("0x3") == 0);	/* not one bit */
	CHECK(gpu_throttle_bit("0x") == 0);
	CHECK(gpu_throttle_bit("0x-4") == 0);
	CHECK(gpu_throttle_bit("SW_POWER_CAP") == 0);

	/* A short buffer is still a string. */
	gpu_throttle_names(0x44, buf, 5);
	CHECK_STR(buf, "sw_p");
	gpu_throttle_names(0x44, buf, 1);
	CHECK_STR(buf, "");
}

/* By index (run and diagnose --live know no UUID): identity, utilisation,
 * memory and the process count come with every sample; a missing index
 * says how many GPUs NVML sees. */
static void by_index_and_load(void)
{
	char why[256] = "", name[96], uuid[96];
	struct gpu_samples out;

	use_fake(fake_lib);
	setenv("FAKE_NVML_NAME", "NVIDIA H100 80GB HBM3", 1);
	setenv("FAKE_NVML_UTIL_GPU", "37", 1);
	setenv("FAKE_NVML_MEM_USED", "1073741824", 1);
	setenv("FAKE_NVML_PROCESSES", "2", 1);
	CHECK(gpu_sampler_start_index(3, 0.1, why, sizeof(why)) == NULL);
	CHECK_STR(why, "no GPU with index 3 in NVML (it sees 1)");

	struct gpu_sampler *s = gpu_sampler_start_index(0, 0.05, why, sizeof(why));
	CHECK(s != NULL);
	if (!s)
		return;
	gpu_sampler_identity(s, name, sizeof(name), uuid, sizeof(uuid));
	CHECK_STR(name, "NVIDIA H100 80GB HBM3");
	CHECK_STR(uuid, UUID);
	gpu_sampler_stop(s, &out);
	CHECK(out.n >= 2);
	CHECK(out.wall_start_s > 1.6e9);	/* after 2020 */
	const struct gpu_sample *x = &out.v[0];
	CHECK(x->valid & GPU_SAMPLE_UTILIZATION);
	CHECK(x->valid & GPU_SAMPLE_MEMORY);
	CHECK(x->valid & GPU_SAMPLE_PROCESSES);
	CHECK(x->util_gpu_pct == 37 && x->util_mem_pct == 41);
	CHECK(x->mem_used_bytes == 1073741824.0);
	CHECK(x->mem_total_bytes == 85899345920.0);
	CHECK(x->processes == 2);
	gpu_samples_free(&out);
}

static void samples_push(void)
{
	struct gpu_samples s;
	struct gpu_sample x = {.valid = GPU_SAMPLE_THROTTLE,
			       .throttle = GPU_THROTTLE_GPU_IDLE};

	gpu_samples_init(&s);
	CHECK(s.n == 0 && s.throttle_seen == 0 && !s.throttled);
	gpu_samples_push(&s, &x);
	CHECK(s.n == 1 && s.throttle_seen == GPU_THROTTLE_GPU_IDLE && !s.throttled);

	/* Reasons NVML refused add nothing, whatever the field holds. */
	x.valid = GPU_SAMPLE_POWER;
	x.throttle = GPU_THROTTLE_HW_SLOWDOWN;
	gpu_samples_push(&s, &x);
	CHECK(s.throttle_seen == GPU_THROTTLE_GPU_IDLE && !s.throttled);

	x.valid = GPU_SAMPLE_THROTTLE;
	x.throttle = GPU_THROTTLE_HW_POWER_BRAKE;
	gpu_samples_push(&s, &x);
	CHECK(s.throttle_seen == (GPU_THROTTLE_GPU_IDLE | GPU_THROTTLE_HW_POWER_BRAKE));
	CHECK(s.throttled);

	/* Growth keeps every sample. */
	for (int i = 0; i < 1000; i++) {
		x.t_s = i;
		x.throttle = 0;
		snprintf(x.during, sizeof(x.during), "rep %d", i);
		gpu_samples_push(&s, &x);
	}
	CHECK(s.n == 1003 && s.cap >= s.n);
	CHECK(s.v[3].t_s == 0 && s.v[1002].t_s == 999);
	CHECK_STR(s.v[1002].during, "rep 999");
	CHECK(s.throttled);	/* once throttled, the run stays so */
	gpu_samples_free(&s);
	CHECK(s.v == NULL && s.n == 0 && s.cap == 0);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s FAKE_NVML FAKE_NVML_OLD_DRIVER\n", argv[0]);
		return 2;
	}
	fake_lib = argv[1];
	fake_old_lib = argv[2];

	library_missing();
	not_nvml();
	init_fails();
	unknown_uuid();
	bad_arguments();
	sampling_run();
	non_slowing_and_absent();
	old_driver();
	prompt_stop_and_long_mark();
	throttle_names();
	samples_push();
	by_index_and_load();
	return check_summary("gpu_sampler");
}

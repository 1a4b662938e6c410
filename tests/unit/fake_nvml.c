/*
 * fake_nvml.c - a stand-in for libnvidia-ml.so.1 with the few functions
 * bench/gpu_sampler.c looks up, for tests/unit/test_gpu_sampler.c.
 *
 * Built twice (tests/unit/gpu_sampler.cmake): as is, and with
 * FAKE_NVML_OLD_DRIVER defined, which leaves out
 * nvmlDeviceGetCurrentClocksEventReasons as drivers before R535 do.
 *
 * nvmlInit_v2 reads the behaviour from the environment once (the readings
 * come from the sampler's thread, which must not race a setenv):
 *   FAKE_NVML_INIT_FAILS=1      nvmlInit_v2 fails (Driver Not Loaded)
 *   FAKE_NVML_UUID              the one GPU it knows (GPU-fake-0)
 *   FAKE_NVML_SM_MHZ, FAKE_NVML_MEM_MHZ, FAKE_NVML_TEMP_C,
 *   FAKE_NVML_POWER_MW          the readings (1980, 2619, 61, 312345)
 *   FAKE_NVML_NO_POWER=1        nvmlDeviceGetPowerUsage fails
 *   FAKE_NVML_NO_THROTTLE=1     both reasons functions fail
 *   FAKE_NVML_THROTTLE          what ...ClocksEventReasons reports (0)
 *   FAKE_NVML_LEGACY_THROTTLE   what ...ClocksThrottleReasons reports
 *                               (FAKE_NVML_THROTTLE when unset), so a test
 *                               can tell which of the two was called
 *   FAKE_NVML_NAME              the device name (NVIDIA Fake GPU)
 *   FAKE_NVML_UTIL_GPU, FAKE_NVML_UTIL_MEM   utilisation, % (97, 41)
 *   FAKE_NVML_MEM_USED, FAKE_NVML_MEM_TOTAL  bytes (30 GiB, 80 GiB)
 *   FAKE_NVML_PROCESSES         compute processes on the GPU (1)
 * The one GPU is index 0 (nvmlDeviceGetCount_v2 says 1).
 * Every call checks its arguments as NVML does: a wrong clock or sensor
 * type, a foreign handle or a call before nvmlInit_v2 fails.
 */
#include <stdlib.h>
#include <string.h>

#define NVML_SUCCESS			0
#define NVML_ERROR_UNINITIALIZED	1
#define NVML_ERROR_INVALID_ARGUMENT	2
#define NVML_ERROR_NOT_SUPPORTED	3
#define NVML_ERROR_NOT_FOUND		6
#define NVML_ERROR_DRIVER_NOT_LOADED	9

#define EXPORT __attribute__((visibility("default")))

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st *nvmlDevice_t;

static struct {
	int initialised;	/* nvmlInit_v2 calls not yet shut down */
	char uuid[96], name[96];
	unsigned util_gpu, util_mem, processes;
	unsigned long long mem_used, mem_total;
	unsigned sm_mhz, mem_mhz, temp_c, power_mw;
	int no_power, no_throttle;
	unsigned long long throttle, legacy_throttle;
} fake;

/* The one device; its handle is this object's address. */
static int the_device;
#define THE_HANDLE ((nvmlDevice_t)(void *)&the_device)

static const char *env_or(const char *name, const char *dflt)
{
	const char *v = getenv(name);
	return v && *v ? v : dflt;
}

static unsigned long long env_num(const char *name, unsigned long long dflt)
{
	const char *v = getenv(name);
	return v && *v ? strtoull(v, NULL, 0) : dflt;
}

static void read_env(void)
{
	const char *uuid = env_or("FAKE_NVML_UUID", "GPU-fake-0");

	strncpy(fake.uuid, uuid, sizeof(fake.uuid) - 1);
	strncpy(fake.name, env_or("FAKE_NVML_NAME", "NVIDIA Fake GPU"),
		sizeof(fake.name) - 1);
	fake.util_gpu = (unsigned)env_num("FAKE_NVML_UTIL_GPU", 97);
	fake.util_mem = (unsigned)env_num("FAKE_NVML_UTIL_MEM", 41);
	fake.mem_used = env_num("FAKE_NVML_MEM_USED", 30ULL << 30);
	fake.mem_total = env_num("FAKE_NVML_MEM_TOTAL", 80ULL << 30);
	fake.processes = (unsigned)env_num("FAKE_NVML_PROCESSES", 1);
	fake.sm_mhz = (unsigned)env_num("FAKE_NVML_SM_MHZ", 1980);
	fake.mem_mhz = (unsigned)env_num("FAKE_NVML_MEM_MHZ", 2619);
	fake.temp_c = (unsigned)env_num("FAKE_NVML_TEMP_C", 61);
	fake.power_mw = (unsigned)env_num("FAKE_NVML_POWER_MW", 312345);
	fake.no_power = env_num("FAKE_NVML_NO_POWER", 0) != 0;
	fake.no_throttle = env_num("FAKE_NVML_NO_THROTTLE", 0) != 0;
	fake.throttle = env_num("FAKE_NVML_THROTTLE", 0);
	fake.legacy_throttle = env_num("FAKE_NVML_LEGACY_THROTTLE", fake.throttle);
}

EXPORT nvmlReturn_t nvmlInit_v2(void)
{
	if (env_num("FAKE_NVML_INIT_FAILS", 0))
		return NVML_ERROR_DRIVER_NOT_LOADED;
	if (!fake.initialised)
		read_env();
	fake.initialised++;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlShutdown(void)
{
	if (!fake.initialised)
		return NVML_ERROR_UNINITIALIZED;
	fake.initialised--;
	return NVML_SUCCESS;
}

EXPORT const char *nvmlErrorString(nvmlReturn_t rc)
{
	switch (rc) {
	case NVML_SUCCESS: return "Success";
	case NVML_ERROR_UNINITIALIZED: return "Uninitialized";
	case NVML_ERROR_INVALID_ARGUMENT: return "Invalid Argument";
	case NVML_ERROR_NOT_SUPPORTED: return "Not Supported";
	case NVML_ERROR_NOT_FOUND: return "Not Found";
	case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
	default: return "Unknown Error";
	}
}

EXPORT nvmlReturn_t nvmlDeviceGetHandleByUUID(const char *uuid, nvmlDevice_t *dev)
{
	if (!fake.initialised)
		return NVML_ERROR_UNINITIALIZED;
	if (!uuid || !dev)
		return NVML_ERROR_INVALID_ARGUMENT;
	if (strcmp(uuid, fake.uuid) != 0)
		return NVML_ERROR_NOT_FOUND;
	*dev = THE_HANDLE;
	return NVML_SUCCESS;
}

/* NVML_ERROR_UNINITIALIZED / INVALID_ARGUMENT, or success. */
static nvmlReturn_t check(nvmlDevice_t dev, const void *out)
{
	if (!fake.initialised)
		return NVML_ERROR_UNINITIALIZED;
	if (dev != THE_HANDLE || !out)
		return NVML_ERROR_INVALID_ARGUMENT;
	return NVML_SUCCESS;
}

/* type: NVML_CLOCK_SM is 1, NVML_CLOCK_MEM 2 (GRAPHICS 0, VIDEO 3 are
 * not faked, so a wrong constant in the sampler fails). */
EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t dev, int type,
					   unsigned int *mhz)
{
	nvmlReturn_t rc = check(dev, mhz);

	if (rc)
		return rc;
	if (type == 1)
		*mhz = fake.sm_mhz;
	else if (type == 2)
		*mhz = fake.mem_mhz;
	else
		return NVML_ERROR_INVALID_ARGUMENT;
	return NVML_SUCCESS;
}

/* sensor: NVML_TEMPERATURE_GPU is 0. */
EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t dev, int sensor,
					     unsigned int *c)
{
	nvmlReturn_t rc = check(dev, c);

	if (rc)
		return rc;
	if (sensor != 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	*c = fake.temp_c;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t dev, unsigned int *mw)
{
	nvmlReturn_t rc = check(dev, mw);

	if (rc)
		return rc;
	if (fake.no_power)
		return NVML_ERROR_NOT_SUPPORTED;
	*mw = fake.power_mw;
	return NVML_SUCCESS;
}

static nvmlReturn_t reasons(nvmlDevice_t dev, unsigned long long *out,
			    unsigned long long value)
{
	nvmlReturn_t rc = check(dev, out);

	if (rc)
		return rc;
	if (fake.no_throttle)
		return NVML_ERROR_NOT_SUPPORTED;
	*out = value;
	return NVML_SUCCESS;
}

#ifndef FAKE_NVML_OLD_DRIVER
EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksEventReasons(nvmlDevice_t dev,
							   unsigned long long *r)
{
	return reasons(dev, r, fake.throttle);
}
#endif

EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t dev,
							      unsigned long long *r)
{
	return reasons(dev, r, fake.legacy_throttle);
}

EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n)
{
	if (!fake.initialised)
		return NVML_ERROR_UNINITIALIZED;
	if (!n)
		return NVML_ERROR_INVALID_ARGUMENT;
	*n = 1;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index,
						  nvmlDevice_t *dev)
{
	if (!fake.initialised)
		return NVML_ERROR_UNINITIALIZED;
	if (!dev || index != 0)
		return NVML_ERROR_INVALID_ARGUMENT;
	*dev = THE_HANDLE;
	return NVML_SUCCESS;
}

static nvmlReturn_t text(nvmlDevice_t dev, char *out, unsigned int len,
			 const char *value)
{
	nvmlReturn_t rc = check(dev, out);

	if (rc)
		return rc;
	if (len <= strlen(value))
		return 7;	/* NVML_ERROR_INSUFFICIENT_SIZE */
	strcpy(out, value);
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t dev, char *out,
				      unsigned int len)
{
	return text(dev, out, len, fake.name);
}

EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t dev, char *out,
				      unsigned int len)
{
	return text(dev, out, len, fake.uuid);
}

struct fake_utilization { unsigned int gpu, memory; };
struct fake_memory { unsigned long long total, free, used; };

EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t dev,
						  struct fake_utilization *u)
{
	nvmlReturn_t rc = check(dev, u);

	if (rc)
		return rc;
	u->gpu = fake.util_gpu;
	u->memory = fake.util_mem;
	return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t dev,
					    struct fake_memory *m)
{
	nvmlReturn_t rc = check(dev, m);

	if (rc)
		return rc;
	m->total = fake.mem_total;
	m->used = fake.mem_used;
	m->free = fake.mem_total - fake.mem_used;
	return NVML_SUCCESS;
}

/* Asked for the count only (infos NULL): INSUFFICIENT_SIZE and the count
 * when there are processes, as NVML answers. */
EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t dev,
							    unsigned int *count,
							    void *infos)
{
	nvmlReturn_t rc = check(dev, count);

	if (rc)
		return rc;
	if (!infos || *count < fake.processes) {
		unsigned int want = fake.processes;
		rc = *count < want ? 7 : NVML_SUCCESS;
		*count = want;
		return rc;
	}
	*count = fake.processes;
	return NVML_SUCCESS;
}

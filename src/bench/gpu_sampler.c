/*
 * gpu_sampler.c - NVML opened with dlopen, read on a thread of its own;
 * see gpu_sampler.h.
 *
 * Threading: the sampler thread is the only one that calls NVML while it
 * runs (start takes the first sample before creating it, stop the last one
 * after joining it).  The mutex guards what both threads touch: the label,
 * the samples and the stop flag.  The thread waits on a condition variable
 * with an absolute CLOCK_MONOTONIC deadline, so stop wakes it at once and
 * a change of the wall clock does not bend the sampling period.
 */
#include "bench/gpu_sampler.h"

#include "core/xalloc.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- NVML, declared here: gpuplan compiles without nvml.h ---------------
 * Prototypes and values as nvml.h has them (NVML API Reference, "Device
 * Queries" and "NvmlClocksEventReasons"): nvmlReturn_t and the enums are C
 * enums, passed as int; nvmlDevice_t is an opaque struct pointer. */

typedef int nvml_return;			/* nvmlReturn_t */
typedef struct nvml_device_st *nvml_device;	/* nvmlDevice_t */

#define NVML_SUCCESS			0
#define NVML_ERROR_NOT_FOUND		6
#define NVML_ERROR_INSUFFICIENT_SIZE	7
#define NVML_CLOCK_SM			1	/* nvmlClockType_t */
#define NVML_CLOCK_MEM			2
#define NVML_TEMPERATURE_GPU		0	/* nvmlTemperatureSensors_t */

#define NVML_NAME_BUFFER		96	/* NVML_DEVICE_NAME_V2_BUFFER_SIZE */
#define NVML_UUID_BUFFER		96	/* NVML_DEVICE_UUID_V2_BUFFER_SIZE */

/* nvmlUtilization_t and nvmlMemory_t (v1), as nvml.h lays them out. */
struct nvml_utilization { unsigned int gpu, memory; };
struct nvml_memory { unsigned long long total, free, used; };

#define NVML_DEFAULT_LIBRARY		"libnvidia-ml.so.1"

/* A day: longer periods would sample nothing but the first and last. */
#define MAX_INTERVAL_S			86400.0

struct nvml {
	void *dl;
	nvml_return (*init)(void);			/* nvmlInit_v2 */
	nvml_return (*shutdown)(void);			/* nvmlShutdown */
	const char *(*error_string)(nvml_return);	/* nvmlErrorString */
	nvml_return (*by_uuid)(const char *, nvml_device *);
	/* nvmlDeviceGetHandleByIndex_v2 and nvmlDeviceGetCount_v2: only
	 * gpu_sampler_start_index needs them */
	nvml_return (*by_index)(unsigned int, nvml_device *);
	nvml_return (*count)(unsigned int *);
	nvml_return (*name)(nvml_device, char *, unsigned int);
	nvml_return (*uuid)(nvml_device, char *, unsigned int);
	/* Readings: any of these may be NULL (an old or partial library);
	 * the reading is then absent from every sample. */
	nvml_return (*clock)(nvml_device, int, unsigned int *);	/* MHz */
	nvml_return (*temperature)(nvml_device, int, unsigned int *); /* deg C */
	nvml_return (*power)(nvml_device, unsigned int *);	/* mW */
	/* nvmlDeviceGetCurrentClocksEventReasons (R535 and later), else the
	 * older name nvmlDeviceGetCurrentClocksThrottleReasons. */
	nvml_return (*reasons)(nvml_device, unsigned long long *);
	nvml_return (*utilization)(nvml_device, struct nvml_utilization *);
	nvml_return (*memory)(nvml_device, struct nvml_memory *);
	/* nvmlDeviceGetComputeRunningProcesses_v3, asked only for the count
	 * (no array: NVML then answers INSUFFICIENT_SIZE and the count) */
	nvml_return (*processes)(nvml_device, unsigned int *, void *);
};

/* POSIX makes dlsym's object pointer usable as a function pointer; this
 * copies it into one without a cast ISO C frowns on. */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
	       "function pointers are as wide as object pointers");

static int lookup(void *dl, const char *name, void *fn, size_t size)
{
	void *obj = dlsym(dl, name);

	if (!obj)
		return -1;
	memcpy(fn, &obj, size);
	return 0;
}
#define LOOKUP(api, name, field) \
	lookup((api)->dl, (name), &(api)->field, sizeof((api)->field))

static void set_why(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

static const char *nvml_strerror(const struct nvml *api, nvml_return rc)
{
	const char *s = api->error_string(rc);

	return s && *s ? s : "unknown error";
}

static void nvml_close(struct nvml *api)
{
	if (api->dl)
		dlclose(api->dl);
	api->dl = NULL;
}

/* Opens the library and finds its functions; 0, or -1 with why (nothing
 * left open). */
static int nvml_open(struct nvml *api, char *why, size_t len)
{
	const char *env = getenv("GPUPLAN_NVML_LIBRARY");
	const char *name = env && *env ? env : NVML_DEFAULT_LIBRARY;
	const struct { const char *sym; void *fn; size_t size; } required[] = {
		{"nvmlInit_v2", &api->init, sizeof(api->init)},
		{"nvmlShutdown", &api->shutdown, sizeof(api->shutdown)},
		{"nvmlErrorString", &api->error_string, sizeof(api->error_string)},
		{"nvmlDeviceGetHandleByUUID", &api->by_uuid, sizeof(api->by_uuid)},
	};

	memset(api, 0, sizeof(*api));
	api->dl = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!api->dl) {
		set_why(why, len, "%s not found (NVML comes with the NVIDIA driver)",
			name);
		return -1;
	}
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		if (lookup(api->dl, required[i].sym, required[i].fn,
			   required[i].size)) {
			set_why(why, len, "%s lacks %s: not an NVML library",
				name, required[i].sym);
			nvml_close(api);
			return -1;
		}
	}
	LOOKUP(api, "nvmlDeviceGetClockInfo", clock);
	LOOKUP(api, "nvmlDeviceGetTemperature", temperature);
	LOOKUP(api, "nvmlDeviceGetPowerUsage", power);
	LOOKUP(api, "nvmlDeviceGetHandleByIndex_v2", by_index);
	LOOKUP(api, "nvmlDeviceGetCount_v2", count);
	LOOKUP(api, "nvmlDeviceGetName", name);
	LOOKUP(api, "nvmlDeviceGetUUID", uuid);
	LOOKUP(api, "nvmlDeviceGetUtilizationRates", utilization);
	LOOKUP(api, "nvmlDeviceGetMemoryInfo", memory);
	LOOKUP(api, "nvmlDeviceGetComputeRunningProcesses_v3", processes);
	if (LOOKUP(api, "nvmlDeviceGetCurrentClocksEventReasons", reasons))
		LOOKUP(api, "nvmlDeviceGetCurrentClocksThrottleReasons", reasons);
	return 0;
}

/* Utilisation, memory in use and the processes on the GPU. */
static void read_load(const struct nvml *api, nvml_device dev,
		      struct gpu_sample *x)
{
	struct nvml_utilization u;
	struct nvml_memory m;
	unsigned int n = 0;
	nvml_return rc;

	if (api->utilization && api->utilization(dev, &u) == NVML_SUCCESS) {
		x->util_gpu_pct = u.gpu;
		x->util_mem_pct = u.memory;
		x->valid |= GPU_SAMPLE_UTILIZATION;
	}
	if (api->memory && api->memory(dev, &m) == NVML_SUCCESS) {
		x->mem_used_bytes = (double)m.used;
		x->mem_total_bytes = (double)m.total;
		x->valid |= GPU_SAMPLE_MEMORY;
	}
	if (api->processes) {
		rc = api->processes(dev, &n, NULL);
		if (rc == NVML_SUCCESS || rc == NVML_ERROR_INSUFFICIENT_SIZE) {
			x->processes = n;
			x->valid |= GPU_SAMPLE_PROCESSES;
		}
	}
}

/* One reading of every quantity; a refused one leaves its valid bit
 * clear and its value 0.  Takes no lock: only one thread reads at a time. */
static void read_gpu(const struct nvml *api, nvml_device dev,
		     struct gpu_sample *x)
{
	unsigned int v;
	unsigned long long r;

	if (api->clock && api->clock(dev, NVML_CLOCK_SM, &v) == NVML_SUCCESS) {
		x->sm_clock_hz = v * 1e6;
		x->valid |= GPU_SAMPLE_SM_CLOCK;
	}
	if (api->clock && api->clock(dev, NVML_CLOCK_MEM, &v) == NVML_SUCCESS) {
		x->mem_clock_hz = v * 1e6;
		x->valid |= GPU_SAMPLE_MEM_CLOCK;
	}
	if (api->temperature &&
	    api->temperature(dev, NVML_TEMPERATURE_GPU, &v) == NVML_SUCCESS) {
		x->temperature_c = v;
		x->valid |= GPU_SAMPLE_TEMPERATURE;
	}
	if (api->power && api->power(dev, &v) == NVML_SUCCESS) {
		x->power_w = v * 1e-3;
		x->valid |= GPU_SAMPLE_POWER;
	}
	if (api->reasons && api->reasons(dev, &r) == NVML_SUCCESS) {
		x->throttle = r;
		x->valid |= GPU_SAMPLE_THROTTLE;
	}
	read_load(api, dev, x);
}

/* ---- the sampler ----------------------------------------------------------- */

struct gpu_sampler {
	struct nvml api;
	nvml_device dev;
	double interval_s;
	struct timespec t0;	/* CLOCK_MONOTONIC at start */
	char name[NVML_NAME_BUFFER], uuid[NVML_UUID_BUFFER];
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	/* Guarded by lock: */
	bool stopping;
	char during[sizeof(((struct gpu_sample *)0)->during)];
	struct gpu_samples samples;
};

static double since(const struct timespec *t0, const struct timespec *t)
{
	return (double)(t->tv_sec - t0->tv_sec) +
	       (double)(t->tv_nsec - t0->tv_nsec) * 1e-9;
}

static void add_seconds(struct timespec *t, double s)
{
	double whole = floor(s);
	long ns = t->tv_nsec + (long)((s - whole) * 1e9);

	t->tv_sec += (time_t)whole + ns / 1000000000L;
	t->tv_nsec = ns % 1000000000L;
}

static bool before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Reads the GPU (unlocked), then labels and stores the sample (locked). */
static void take_sample(struct gpu_sampler *s)
{
	struct gpu_sample x;
	struct timespec now;

	memset(&x, 0, sizeof(x));
	clock_gettime(CLOCK_MONOTONIC, &now);
	x.t_s = since(&s->t0, &now);
	read_gpu(&s->api, s->dev, &x);
	pthread_mutex_lock(&s->lock);
	memcpy(x.during, s->during, sizeof(x.during));
	gpu_samples_push(&s->samples, &x);
	pthread_mutex_unlock(&s->lock);
}

/* Samples at t0 + k * interval until stop; a late sample does not make
 * the next ones come in a burst (the schedule restarts from now). */
static void *sampler_main(void *arg)
{
	struct gpu_sampler *s = arg;
	struct timespec next = s->t0, now;

	add_seconds(&next, s->interval_s);
	pthread_mutex_lock(&s->lock);
	while (!s->stopping) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (before(&now, &next)) {
			pthread_cond_timedwait(&s->wake, &s->lock, &next);
			continue;	/* recheck stopping and the time */
		}
		pthread_mutex_unlock(&s->lock);
		take_sample(s);
		add_seconds(&next, s->interval_s);
		if (before(&next, &now)) {
			next = now;
			add_seconds(&next, s->interval_s);
		}
		pthread_mutex_lock(&s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

/* The mutex and a condition variable timed on CLOCK_MONOTONIC. */
static int sync_init(struct gpu_sampler *s)
{
	pthread_condattr_t attr;
	int rc;

	rc = pthread_condattr_init(&attr);
	if (rc)
		return rc;
	rc = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!rc)
		rc = pthread_cond_init(&s->wake, &attr);
	pthread_condattr_destroy(&attr);
	if (rc)
		return rc;
	rc = pthread_mutex_init(&s->lock, NULL);
	if (rc)
		pthread_cond_destroy(&s->wake);
	return rc;
}

/* The GPU by UUID, or by index when uuid is NULL; 0 or -1 with why. */
static int find_gpu(struct gpu_sampler *s, const char *uuid, unsigned index,
		    char *why, size_t len)
{
	unsigned int n = 0;
	nvml_return rc;

	if (uuid) {
		rc = s->api.by_uuid(uuid, &s->dev);
		if (rc == NVML_SUCCESS)
			return 0;
		if (rc == NVML_ERROR_NOT_FOUND)
			set_why(why, len, "no GPU with UUID %s in NVML", uuid);
		else
			set_why(why, len, "no GPU with UUID %s in NVML (%s)",
				uuid, nvml_strerror(&s->api, rc));
		return -1;
	}
	if (!s->api.by_index) {
		set_why(why, len, "this NVML lacks nvmlDeviceGetHandleByIndex_v2");
		return -1;
	}
	rc = s->api.by_index(index, &s->dev);
	if (rc == NVML_SUCCESS)
		return 0;
	if (s->api.count && s->api.count(&n) == NVML_SUCCESS)
		set_why(why, len, "no GPU with index %u in NVML (it sees %u)",
			index, n);
	else
		set_why(why, len, "no GPU with index %u in NVML (%s)", index,
			nvml_strerror(&s->api, rc));
	return -1;
}

/* NVML open and initialised, the GPU found; 0 or -1 with why. */
static int attach(struct gpu_sampler *s, const char *uuid, unsigned index,
		  char *why, size_t len)
{
	nvml_return rc;

	if (nvml_open(&s->api, why, len))
		return -1;
	rc = s->api.init();
	if (rc != NVML_SUCCESS) {
		set_why(why, len, "nvmlInit_v2 failed: %s",
			nvml_strerror(&s->api, rc));
		nvml_close(&s->api);
		return -1;
	}
	if (find_gpu(s, uuid, index, why, len)) {
		s->api.shutdown();
		nvml_close(&s->api);
		return -1;
	}
	return 0;
}

static void read_identity(struct gpu_sampler *s);

static struct gpu_sampler *start(const char *uuid, unsigned index,
				  double interval_s, char *why, size_t len)
{
	struct gpu_sampler *s;
	struct timespec wall;
	int rc;

	if (!(interval_s > 0 && interval_s <= MAX_INTERVAL_S)) {
		set_why(why, len, "sampling interval %g s is not in (0, %g] s",
			interval_s, MAX_INTERVAL_S);
		return NULL;
	}
	s = xcalloc(1, sizeof(*s));
	gpu_samples_init(&s->samples);
	s->samples.interval_s = interval_s;
	s->interval_s = interval_s;
	if (attach(s, uuid, index, why, len))
		goto err_free;
	rc = sync_init(s);
	if (rc) {
		set_why(why, len, "cannot start the GPU sampler: %s", strerror(rc));
		goto err_detach;
	}
	read_identity(s);
	clock_gettime(CLOCK_MONOTONIC, &s->t0);
	clock_gettime(CLOCK_REALTIME, &wall);
	s->samples.wall_start_s = (double)wall.tv_sec + wall.tv_nsec * 1e-9;
	take_sample(s);
	rc = pthread_create(&s->thread, NULL, sampler_main, s);
	if (rc) {
		set_why(why, len, "cannot start the GPU sampler thread: %s",
			strerror(rc));
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->wake);
		goto err_detach;
	}
	return s;
err_detach:
	s->api.shutdown();
	nvml_close(&s->api);
err_free:
	gpu_samples_free(&s->samples);
	free(s);
	return NULL;
}

struct gpu_sampler *gpu_sampler_start(const char *uuid, double interval_s,
				      char *why, size_t len)
{
	if (!uuid || !*uuid) {
		set_why(why, len, "no GPU UUID to sample");
		return NULL;
	}
	return start(uuid, 0, interval_s, why, len);
}

struct gpu_sampler *gpu_sampler_start_index(unsigned index, double interval_s,
					    char *why, size_t len)
{
	return start(NULL, index, interval_s, why, len);
}

/* Name and UUID, read once before the thread starts (NVML is then called
 * from one thread only). */
static void read_identity(struct gpu_sampler *s)
{
	if (!s->api.name ||
	    s->api.name(s->dev, s->name, sizeof(s->name)) != NVML_SUCCESS)
		s->name[0] = '\0';
	if (!s->api.uuid ||
	    s->api.uuid(s->dev, s->uuid, sizeof(s->uuid)) != NVML_SUCCESS)
		s->uuid[0] = '\0';
	s->name[sizeof(s->name) - 1] = s->uuid[sizeof(s->uuid) - 1] = '\0';
}

void gpu_sampler_identity(const struct gpu_sampler *s, char *name,
			  size_t name_len, char *uuid, size_t uuid_len)
{
	snprintf(name, name_len, "%s", s ? s->name : "");
	snprintf(uuid, uuid_len, "%s", s ? s->uuid : "");
}

void gpu_sampler_mark(struct gpu_sampler *s, const char *during)
{
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	snprintf(s->during, sizeof(s->during), "%s", during ? during : "");
	pthread_mutex_unlock(&s->lock);
}

void gpu_sampler_stop(struct gpu_sampler *s, struct gpu_samples *out)
{
	gpu_samples_init(out);
	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stopping = true;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);

	take_sample(s);
	s->api.shutdown();
	nvml_close(&s->api);
	*out = s->samples;
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->wake);
	free(s);
}

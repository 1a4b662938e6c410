/*
 * live.c - see live.h.
 */
#include "live.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench/gpu_sampler.h"
#include "core/xalloc.h"

/* Sleeps s seconds, through signals that interrupt the sleep. */
static void sleep_for(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int diagnose_live(unsigned index, double duration_s, double interval_s,
		  struct smi_log *log, char *why, size_t len)
{
	smi_log_init(log);
	struct gpu_sampler *s = gpu_sampler_start_index(index, interval_s, why, len);
	if (!s)
		return -1;
	log->gpu = xcalloc(1, sizeof(*log->gpu));
	log->n = 1;
	struct smi_gpu *g = &log->gpu[0];
	gpu_sampler_identity(s, g->name, sizeof(g->name), g->uuid, sizeof(g->uuid));
	snprintf(g->key, sizeof(g->key), "%u", index);
	g->index = index;
	g->power_limit_w = NAN;		/* the sampler does not read it */
	g->sm_clock_max_hz = NAN;
	sleep_for(duration_s);
	struct gpu_samples taken;
	gpu_sampler_stop(s, &taken);
	/* NVML gives every reason at once when it gives any */
	g->reasons_read = taken.n && (taken.v[0].valid & GPU_SAMPLE_THROTTLE)
		? GPU_THROTTLE_SLOWING : 0;
	log->rows = taken.n;
	log->has_time = true;
	log->t0_s = taken.wall_start_s;
	series_from_samples(&g->s, &taken);
	gpu_samples_free(&taken);
	return 0;
}

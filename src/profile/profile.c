/*
 * profile.c - the measured profile itself: making it empty, freeing it,
 * and stamping it with the tool, the time and the host; see profile.h.
 * The writer is profile_write.c, the loader profile_load.c.
 */
#include "profile/profile.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

void bench_profile_init(struct bench_profile *p)
{
	memset(p, 0, sizeof(*p));
	bench_figures_init(&p->figures);
}

void bench_profile_free(struct bench_profile *p)
{
	bench_figures_free(&p->figures);
	gpu_samples_free(&p->samples);
	memset(p, 0, sizeof(*p));
}

void bench_profile_stamp(struct bench_profile *p)
{
	snprintf(p->tool_version, sizeof(p->tool_version), "%s", GPUPLAN_VERSION);
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(p->when, sizeof(p->when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (gethostname(p->hostname, sizeof(p->hostname)) != 0)
		snprintf(p->hostname, sizeof(p->hostname), "unknown");
	p->hostname[sizeof(p->hostname) - 1] = '\0';
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(p->kernel, sizeof(p->kernel), "%s %s %s", u.sysname,
			 u.release, u.machine);
	else
		snprintf(p->kernel, sizeof(p->kernel), "unknown");
}

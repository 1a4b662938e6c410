/*
 * samples.c - lists of GPU samples and the names of the throttle
 * reasons; see samples.h.  The sampler that takes them is
 * bench/gpu_sampler.c.
 */
#include "profile/samples.h"

#include "core/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- sample lists ---------------------------------------------------------- */

void gpu_samples_init(struct gpu_samples *s)
{
	memset(s, 0, sizeof(*s));
}

void gpu_samples_free(struct gpu_samples *s)
{
	free(s->v);
	gpu_samples_init(s);
}

/* A sample whose reasons NVML refused adds none. */
void gpu_samples_push(struct gpu_samples *s, const struct gpu_sample *x)
{
	xgrow((void **)&s->v, &s->cap, s->n + 1, sizeof(*s->v));
	s->v[s->n++] = *x;
	if (x->valid & GPU_SAMPLE_THROTTLE)
		s->throttle_seen |= x->throttle;
	s->throttled = (s->throttle_seen & GPU_THROTTLE_SLOWING) != 0;
}

/* ---- reason names ---------------------------------------------------------- */

/* Index i names bit 1 << i, as nvml.h numbers them. */
static const char *const throttle_name[] = {
	"gpu_idle", "applications_clocks", "sw_power_cap", "hw_slowdown",
	"sync_boost", "sw_thermal", "hw_thermal", "hw_power_brake",
	"display_clocks",
};
#define N_THROTTLE_NAMES (sizeof(throttle_name) / sizeof(throttle_name[0]))

void gpu_throttle_names(uint64_t reasons, char *buf, size_t len)
{
	size_t used = 0;

	if (!buf || !len)
		return;
	buf[0] = '\0';
	for (unsigned i = 0; i < 64 && used < len; i++) {
		uint64_t bit = (uint64_t)1 << i;
		int n;

		if (!(reasons & bit))
			continue;
		if (i < N_THROTTLE_NAMES)
			n = snprintf(buf + used, len - used, "%s%s",
				     used ? "," : "", throttle_name[i]);
		else
			n = snprintf(buf + used, len - used, "%s0x%" PRIx64,
				     used ? "," : "", bit);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* Also reads back the "0x..." that gpu_throttle_names writes for a bit it
 * has no name for, so a profile keeps every bit NVML reported. */
uint64_t gpu_throttle_bit(const char *name)
{
	if (!name)
		return 0;
	for (size_t i = 0; i < N_THROTTLE_NAMES; i++)
		if (strcmp(name, throttle_name[i]) == 0)
			return (uint64_t)1 << i;
	if (name[0] == '0' && (name[1] == 'x' || name[1] == 'X') && name[2]) {
		char *end;
		uint64_t v;

		errno = 0;
		v = strtoull(name + 2, &end, 16);
		if (isxdigit((unsigned char)name[2]) && !errno && !*end && v &&
		    !(v & (v - 1)))
			return v;
	}
	return 0;
}

/*
 * samples.c - lists of GPU samples and the names of the throttle
 * reasons; see samples.h.  The sampler that takes them is
 * bench/gpu_sampler.c.
 */
#include "profile/samples.h"

#include "core/sort_doubles.h"
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

/* ---- a figure's window ---------------------------------------------------- */

double gpu_median(double *v, size_t n)
{
	if (!n)
		return 0;
	sort_doubles(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The t_s of the last sample labelled `label`, or -1 when none is. */
static double last_of(const struct gpu_samples *s, const char *label)
{
	for (size_t i = s->n; i-- > 0;)
		if (!strcmp(s->v[i].during, label))
			return s->v[i].t_s;
	return -1;
}

void gpu_samples_window(const struct gpu_samples *s, const char *label,
			double window_s, struct gpu_window *out)
{
	memset(out, 0, sizeof(*out));
	double end = last_of(s, label);
	if (end < 0 || !label[0])
		return;
	double *clock = xcalloc(s->n, sizeof(double));
	double *power = xcalloc(s->n, sizeof(double));
	size_t nc = 0, np = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct gpu_sample *x = &s->v[i];
		if (strcmp(x->during, label) || x->t_s < end - window_s)
			continue;
		out->samples++;
		if (x->valid & GPU_SAMPLE_SM_CLOCK)
			clock[nc++] = x->sm_clock_hz;
		if (x->valid & GPU_SAMPLE_POWER)
			power[np++] = x->power_w;
		if ((x->valid & GPU_SAMPLE_TEMPERATURE) &&
		    (!out->has_temperature || x->temperature_c > out->temperature_max_c)) {
			out->temperature_max_c = x->temperature_c;
			out->has_temperature = true;
		}
		if (x->valid & GPU_SAMPLE_THROTTLE)
			out->throttle |= x->throttle;
	}
	out->has_sm_clock = nc > 0;
	out->sm_clock_median_hz = gpu_median(clock, nc);
	out->has_power = np > 0;
	out->power_median_w = gpu_median(power, np);
	free(clock);
	free(power);
}

bool gpu_window_equal(const struct gpu_window *a, const struct gpu_window *b)
{
	return a->samples == b->samples && a->has_sm_clock == b->has_sm_clock &&
	       a->has_power == b->has_power &&
	       a->has_temperature == b->has_temperature &&
	       a->sm_clock_median_hz == b->sm_clock_median_hz &&
	       a->power_median_w == b->power_median_w &&
	       a->temperature_max_c == b->temperature_max_c &&
	       a->throttle == b->throttle;
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

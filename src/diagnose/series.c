/*
 * series.c - see series.h.
 */
#include "series.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

void series_init(struct sample_series *s)
{
	memset(s, 0, sizeof(*s));
}

void series_free(struct sample_series *s)
{
	free(s->t_s);
	for (int c = 0; c < SC_COLUMNS; c++)
		free(s->col[c]);
	free(s->throttle);
	free(s->processes);
	memset(s, 0, sizeof(*s));
}

void series_row_clear(struct series_row *r, double t_s)
{
	memset(r, 0, sizeof(*r));
	r->t_s = t_s;
	for (int c = 0; c < SC_COLUMNS; c++)
		r->v[c] = NAN;
	r->processes = -1;
}

/* Room for one more sample in every column there is. */
static void grow(struct sample_series *s)
{
	if (s->n < s->cap)
		return;
	s->cap = s->cap ? 2 * s->cap : 256;
	s->t_s = xrealloc(s->t_s, s->cap * sizeof(double));
	for (int c = 0; c < SC_COLUMNS; c++)
		if (s->col[c])
			s->col[c] = xrealloc(s->col[c], s->cap * sizeof(float));
	if (s->throttle)
		s->throttle = xrealloc(s->throttle, s->cap * sizeof(uint16_t));
	if (s->processes)
		s->processes = xrealloc(s->processes, s->cap * sizeof(uint16_t));
}

/* A new column, absent for the samples before this one. */
static float *new_floats(const struct sample_series *s)
{
	float *v = xmalloc(s->cap * sizeof(float));
	for (size_t i = 0; i < s->n; i++)
		v[i] = NAN;
	return v;
}

static uint16_t *new_words(const struct sample_series *s, uint16_t absent)
{
	uint16_t *v = xmalloc(s->cap * sizeof(uint16_t));
	for (size_t i = 0; i < s->n; i++)
		v[i] = absent;
	return v;
}

void series_push(struct sample_series *s, const struct series_row *r)
{
	grow(s);
	size_t i = s->n;
	s->t_s[i] = r->t_s;
	for (int c = 0; c < SC_COLUMNS; c++) {
		if (!s->col[c] && isnan(r->v[c]))
			continue;
		if (!s->col[c])
			s->col[c] = new_floats(s);
		s->col[c][i] = isnan(r->v[c]) ? NAN
			: (float)(r->v[c] / series_scale((enum series_column)c));
	}
	if (r->throttle_read && !s->throttle)
		s->throttle = new_words(s, 0);
	if (s->throttle)
		s->throttle[i] = r->throttle_read
			? (uint16_t)(SERIES_THROTTLE_READ | (r->throttle & SERIES_THROTTLE_BITS)) : 0;
	if (r->processes >= 0 && !s->processes)
		s->processes = new_words(s, SERIES_NO_COUNT);
	if (s->processes)
		s->processes[i] = r->processes < 0 ? SERIES_NO_COUNT
			: r->processes >= SERIES_NO_COUNT ? SERIES_NO_COUNT - 1
			: (uint16_t)r->processes;
	s->n++;
}

/* One bench sample as a row: each reading its valid bit marks. */
static void row_of(const struct gpu_sample *x, struct series_row *r)
{
	static const struct {
		enum series_column c;
		unsigned bit;
		size_t at;	/* offsetof the reading in struct gpu_sample */
	} map[] = {
		{SC_UTIL, GPU_SAMPLE_UTILIZATION, offsetof(struct gpu_sample, util_gpu_pct)},
		{SC_SM_CLOCK, GPU_SAMPLE_SM_CLOCK, offsetof(struct gpu_sample, sm_clock_hz)},
		{SC_TEMP, GPU_SAMPLE_TEMPERATURE, offsetof(struct gpu_sample, temperature_c)},
		{SC_POWER, GPU_SAMPLE_POWER, offsetof(struct gpu_sample, power_w)},
		{SC_POWER_LIMIT, GPU_SAMPLE_POWER_LIMIT, offsetof(struct gpu_sample, power_limit_w)},
		{SC_MEM_USED, GPU_SAMPLE_MEMORY, offsetof(struct gpu_sample, mem_used_bytes)},
		{SC_MEM_TOTAL, GPU_SAMPLE_MEMORY, offsetof(struct gpu_sample, mem_total_bytes)},
	};
	series_row_clear(r, x->t_s);
	for (size_t k = 0; k < sizeof(map) / sizeof(map[0]); k++)
		if (x->valid & map[k].bit)
			memcpy(&r->v[map[k].c], (const char *)x + map[k].at, sizeof(double));
	r->throttle_read = (x->valid & GPU_SAMPLE_THROTTLE) != 0;
	r->throttle = x->throttle;
	if (x->valid & GPU_SAMPLE_PROCESSES)
		r->processes = (long)x->processes;
}

void series_from_samples(struct sample_series *out,
			 const struct gpu_samples *in)
{
	series_init(out);
	for (size_t i = 0; i < in->n; i++) {
		struct series_row r;
		row_of(&in->v[i], &r);
		series_push(out, &r);
	}
}

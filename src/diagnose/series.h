/*
 * series.h - one GPU's samples as `gpuplan diagnose` keeps them: column by
 * column, only the columns the log has, each reading a float in the unit
 * nvidia-smi writes it (%, MHz, C, W, MiB).
 *
 * Why not profile/samples.h's struct gpu_sample: it holds every reading a
 * bench records and a 96-byte label, about 200 bytes a sample, while a
 * log line can be 3 bytes ("95\n" from a noheader log of utilisation
 * alone): a 15 MB log took 1 GB and a 60 MB one 4 GB.  Here a sample of
 * such a log costs 12 bytes (its time and one float), one of the full
 * query about 38.
 *
 * What a float keeps: 24 bits, so whole percents, MHz, degrees and MiB
 * (to 16 TiB) exactly, and the two decimals nvidia-smi writes for watts
 * to 7 significant digits; a value read back is the float widened, then
 * scaled to SI (MHz to Hz, MiB to bytes) in double, so a whole number
 * reads back exactly as the log wrote it.
 *
 * An absent reading ([N/A]) is NaN, never 0; a column the log lacks is
 * NULL; series_has() tells both apart from a reading.
 *
 * Ownership: struct sample_series owns its columns; free with
 * series_free().
 */
#ifndef GPUPLAN_DIAGNOSE_SERIES_H
#define GPUPLAN_DIAGNOSE_SERIES_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/samples.h"

enum series_column {
	SC_UTIL,		/* utilization.gpu, % */
	SC_SM_CLOCK,		/* clocks.sm, MHz (read as Hz) */
	SC_TEMP,		/* temperature.gpu, C */
	SC_POWER,		/* power.draw, W */
	SC_POWER_LIMIT,		/* power.limit in force at the sample, W */
	SC_MEM_USED,		/* memory.used, MiB (read as bytes) */
	SC_MEM_TOTAL,		/* memory.total, MiB (read as bytes) */
	SC_COLUMNS
};

/* The throttle column: GPU_THROTTLE_* bits (NVML's nine named reasons;
 * unnamed bits are dropped, no detector reads them) and this bit when
 * the sample has a reading at all. */
#define SERIES_THROTTLE_READ 0x8000u
#define SERIES_THROTTLE_BITS 0x01ffu
#define SERIES_NO_COUNT 0xffffu	/* processes: absent */

/* One sample on its way in, in SI; NAN (throttle_read false, processes
 * -1) where absent. */
struct series_row {
	double t_s;
	double v[SC_COLUMNS];	/* Hz, bytes, W, C, % as enum series_column */
	uint64_t throttle;
	bool throttle_read;
	long processes;
};

struct sample_series {
	size_t n, cap;
	double *t_s;			/* s from the log's first timestamp */
	float *col[SC_COLUMNS];		/* NULL: no reading yet */
	uint16_t *throttle;		/* NULL: no reason read yet */
	uint16_t *processes;		/* NULL: none counted (live only) */
};

void series_init(struct sample_series *s);
void series_free(struct sample_series *s);

/* A row with every reading absent at time t_s. */
void series_row_clear(struct series_row *r, double t_s);

/* Appends one sample; a column comes into being with its first reading
 * (earlier samples read absent in it). */
void series_push(struct sample_series *s, const struct series_row *r);

/* The same samples as a bench's sampler gives them (live NVML). */
void series_from_samples(struct sample_series *out,
			 const struct gpu_samples *in);

/* The factor from a column's unit to SI. */
static inline double series_scale(enum series_column c)
{
	return c == SC_SM_CLOCK ? 1e6
	       : c == SC_MEM_USED || c == SC_MEM_TOTAL ? 1048576.0 : 1.0;
}

static inline bool series_has(const struct sample_series *s,
			      enum series_column c, size_t i)
{
	return s->col[c] && !isnan(s->col[c][i]);
}

/* The reading in SI (valid when series_has). */
static inline double series_get(const struct sample_series *s,
				enum series_column c, size_t i)
{
	return (double)s->col[c][i] * series_scale(c);
}

static inline bool series_has_throttle(const struct sample_series *s, size_t i)
{
	return s->throttle && (s->throttle[i] & SERIES_THROTTLE_READ);
}

static inline uint64_t series_throttle(const struct sample_series *s, size_t i)
{
	return s->throttle ? s->throttle[i] & SERIES_THROTTLE_BITS : 0;
}

static inline bool series_has_processes(const struct sample_series *s, size_t i)
{
	return s->processes && s->processes[i] != SERIES_NO_COUNT;
}

#endif

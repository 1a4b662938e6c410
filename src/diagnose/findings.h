/*
 * findings.h - why a GPU starves or throttles, from its samples: the
 * detectors of `gpuplan diagnose`.
 *
 * Each detector reads one GPU's series (series.h: times in seconds,
 * readings in SI as read back, absent readings marked absent) and gives at most
 * one finding: what it is, how bad, the evidence with times (seconds from
 * the log's start) and figures, and what to do about it.  The thresholds
 * are named constants in findings.c, each an assumption that says why it
 * has its value.
 *
 *   low_utilization     mean utilization.gpu below 50 %
 *   heartbeat           periodic short drops in utilisation: the GPU waits
 *                       for the next batch (input pipeline too slow)
 *   idle_gaps           stretches of 10 s or more at or under 5 %
 *   memory_headroom     the peak memory used is under half the total
 *   thermal_throttling  thermal reasons active, or clocks down while hot
 *   power_throttling    power-cap / power-brake reasons active with clocks
 *                       down, or clocks down at the power limit
 *   shared_gpu          more than one compute process (live only: an
 *                       nvidia-smi --query-gpu log does not show it)
 *
 * Ownership: struct gpu_diagnosis owns its findings; free with
 * gpu_diagnosis_free().
 */
#ifndef GPUPLAN_DIAGNOSE_FINDINGS_H
#define GPUPLAN_DIAGNOSE_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "profile/samples.h"
#include "series.h"

enum finding_kind {
	FIND_LOW_UTILIZATION,
	FIND_HEARTBEAT,
	FIND_IDLE_GAPS,
	FIND_MEMORY_HEADROOM,
	FIND_THERMAL_THROTTLING,
	FIND_POWER_THROTTLING,
	FIND_SHARED_GPU,
	FIND_KINDS
};

enum severity { SEV_INFO, SEV_WARNING, SEV_CRITICAL };

/* The throttle reasons counted in throttled_s, as the --prom labels
 * name them. */
enum throttle_reason {
	TR_SW_POWER_CAP, TR_HW_SLOWDOWN, TR_SW_THERMAL, TR_HW_THERMAL,
	TR_HW_POWER_BRAKE, TR_COUNT
};

struct finding {
	enum finding_kind kind;
	enum severity severity;
	double start_s, end_s;	/* the span it covers, s from the start */
	char from[48], to[48];	/* the same as the log's timestamps (or "+12.0 s") */
	double figure;		/* its headline, in `unit` */
	const char *unit;	/* "ratio", "s", "bytes" */
	double lost_s;		/* GPU time it wastes, s (0: not time) */
	char evidence[640];	/* with times and figures */
	char suggestion[400];
};

/* Where the samples came from: a log cannot show processes. */
struct diagnose_context {
	bool live;
	double power_limit_w;	/* NAN when unknown */
	double sm_clock_max_hz;	/* NAN when unknown */
	uint64_t reasons_read;	/* GPU_THROTTLE_* bits a field was read for */
	/* how a time prints in evidence: the caller's (a log's timestamps);
	 * NULL: "+12.0 s" */
	void (*when)(const void *ctx, double t_s, char *buf, size_t len);
	const void *when_ctx;
};

struct gpu_diagnosis {
	size_t samples;
	double duration_s;	/* the time the samples cover */
	double period_s;	/* the median spacing of samples */
	double util_mean;	/* mean utilization.gpu, 0..1; NAN: no readings */
	double idle_s;		/* time inside idle gaps */
	double heartbeat_period_s;	/* NAN: no heartbeat */
	double mem_peak_bytes, mem_total_bytes;	/* NAN: no readings */
	double throttled_s[TR_COUNT];	/* time each reason was active */
	bool reasons_known;	/* a reason field was read */
	double lost_s;		/* GPU time lost to what was found, s */
	/* what the samples hold: GPU_SAMPLE_* bits of the readings some
	 * sample has (utilisation, SM clock, temperature, power, memory,
	 * throttle), so a verdict claims only what they can show */
	uint32_t readings;
	double temperature_max_c;	/* the hottest reading; NAN: none */
	struct finding *f;	/* in enum finding_kind order */
	size_t n;
};

/* Runs every detector on s. */
void diagnose_series(const struct sample_series *s,
		     const struct diagnose_context *ctx, struct gpu_diagnosis *out);
/* The same for a bench sampler's samples (converted first). */
void diagnose_gpu(const struct gpu_samples *s,
		  const struct diagnose_context *ctx, struct gpu_diagnosis *out);
void gpu_diagnosis_free(struct gpu_diagnosis *d);

/*
 * What a GPU with no finding is, in words, claiming only what its
 * readings can show: "busy" and "well used" need utilisation, "cool" a
 * temperature under the hot mark; a reading the log lacks is named as
 * such ("utilisation: not in the log"), and a hot GPU is called hot even
 * when nothing shows it throttled.
 */
void diagnosis_verdict(const struct gpu_diagnosis *d, char *buf, size_t len);

const char *finding_kind_name(enum finding_kind k);	/* "heartbeat" */
const char *severity_name(enum severity s);		/* "warning" */
const char *throttle_reason_name(enum throttle_reason r);	/* "sw_thermal" */

/* v with one decimal ("71.6") below a million, three significant digits
 * from there ("9.31e+26"), into buf (24 bytes or more): a log's absurd
 * memory.total never pushes the unit or the rest out of a fixed-size
 * line. */
char *diag_number(double v, char *buf, size_t len);

/* Bytes in a GiB: nvidia-smi's MiB and the outputs' GiB are binary. */
#define DIAG_GIB 1073741824.0

#endif

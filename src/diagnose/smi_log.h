/*
 * smi_log.h - an nvidia-smi utilisation log read into one series of
 * samples per GPU.
 *
 * The log is what
 *
 *   nvidia-smi --query-gpu=timestamp,index,utilization.gpu,... --format=csv -l 1
 *
 * writes: a header of field names ("utilization.gpu [%]": the unit in
 * brackets, left out with `nounits`; no header at all with `noheader`,
 * when the caller passes the --query-gpu string instead), then one line
 * per GPU per period, fields separated by ", ".  Any subset of the fields
 * in any order is read; several GPUs interleave, told apart by `index`
 * (or `uuid`, or `pci.bus_id`).  Values carry their unit ("45 %",
 * "1234 MiB", "1410 MHz", "250.50 W") or not (nounits); "[N/A]",
 * "[Not Supported]" and the like read as absent, never 0.  Throttle
 * reasons come as the `clocks_event_reasons.*` fields or, from drivers
 * before R535, `clocks_throttle_reasons.*`: "Active"/"Not Active" each, or
 * `.active` as a hex bit mask.  A header repeated identically mid-file
 * (logs concatenated) is skipped.
 *
 * Each GPU's samples are a series.h column store (a few bytes a sample:
 * logs run to millions of lines): times in seconds from the log's first
 * timestamp, readings read back in SI (memory in bytes, clocks in Hz,
 * power in W), throttle reasons as profile/samples.h's GPU_THROTTLE_*
 * bits.  A field the log lacks, or a reading it gives as [N/A], reads
 * absent (series_has() false), never 0.
 *
 * Bad input (an unknown field, a value that is not what its field holds,
 * a line of the wrong length, a header unlike the first, a time going
 * back) adds a problem "file:line:column: expected X, found Y" and the
 * line is skipped; the rest is still read, so a caller can say what the
 * readable part shows.  Known fields gpuplan has no use for (fan.speed,
 * pstate, ...) are read past.
 *
 * Ownership: struct smi_log owns its GPUs and their samples; free with
 * smi_log_free().
 */
#ifndef GPUPLAN_DIAGNOSE_SMI_LOG_H
#define GPUPLAN_DIAGNOSE_SMI_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "series.h"

#define SMI_LOG_MAX_BYTES (512u << 20)	/* a log larger than this is refused */
#define SMI_LOG_MAX_GPUS 64		/* distinct GPUs one log may hold */

struct smi_gpu {
	char key[96];		/* what tells it apart: its index, UUID or bus id */
	long index;		/* nvidia-smi's index; -1 when the log has none */
	char uuid[96];		/* "" when the log has none */
	char name[96];		/* "" when the log has none */
	struct sample_series s;	/* t_s from the log's first timestamp */
	double power_limit_w;	/* the highest power.limit read; NAN: none */
	double sm_clock_max_hz;	/* the highest clocks.max.sm read; NAN: none */
	uint64_t reasons_read;	/* GPU_THROTTLE_* bits the log has a field for */
};

struct smi_log {
	struct smi_gpu *gpu;	/* in order of first appearance */
	size_t n;
	size_t rows;		/* data lines read */
	bool has_time;		/* a timestamp field (else times are k * interval) */
	char first_time[100];	/* the first timestamp as written, "" if none */
	double t0_s;		/* it, as seconds from 1970-01-01 on the log's
				 * own clock (nvidia-smi writes local time) */
};

void smi_log_init(struct smi_log *log);
void smi_log_free(struct smi_log *log);

/*
 * Reads text (len bytes) as the log `file` names (for messages).  query,
 * when not NULL, is nvidia-smi's --query-gpu string for a log without a
 * header ("timestamp,index,utilization.gpu"); a log with a header must
 * match it.  interval_s (> 0) gives the k-th sample of a GPU the time
 * k * interval_s when the log has no timestamp; 0: such a log is refused.
 * Returns 0, or -1 after adding each problem to errs (what could be read
 * is in log all the same).
 */
int smi_log_parse(struct smi_log *log, const char *text, size_t len,
		  const char *file, const char *query, double interval_s,
		  struct gp_errors *errs);

/* The same for a file (path; "-" is standard input). */
int smi_log_read(struct smi_log *log, const char *path, const char *query,
		 double interval_s, struct gp_errors *errs);

#endif

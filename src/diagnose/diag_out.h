/*
 * diag_out.h - a diagnosis (every GPU's findings) as JSON, the canonical
 * form, and drawn from the same figures as a table, Markdown and the
 * Prometheus text format.
 *
 * The Prometheus gauges (label gpu = nvidia-smi's index, as dcgm-exporter
 * labels it; uuid where known):
 *   gpuplan_diagnose_samples, _duration_seconds, _gpu_utilization_ratio,
 *   _idle_seconds, _heartbeat_period_seconds (only with a heartbeat),
 *   _memory_used_peak_bytes, _memory_total_bytes,
 *   _throttled_seconds{reason}, _finding{kind,severity} (1 each),
 *   _lost_cost{currency} (with a plan's price).
 *
 * Text from outside (a log's uuid and name fields, the file's name, a
 * plan's names) is made safe in every output: control bytes, bidirectional
 * overrides and bytes that are not UTF-8 spelled out as term_safe.h does
 * ("\x1b"), once, as the diagnosis is made (so the JSON, the chart and
 * the text agree); Markdown escapes its own punctuation (| * _ ` < > [ ] #
 * and \) in them as well; the Prometheus text escapes \ " and newline
 * (core/prom_text.h).
 *
 * Ownership: struct diagnosis owns its GPUs (and their findings); free
 * with diagnosis_free().  Strings it points to (source) are the caller's.
 */
#ifndef GPUPLAN_DIAGNOSE_DIAG_OUT_H
#define GPUPLAN_DIAGNOSE_DIAG_OUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "findings.h"
#include "smi_log.h"

/* Room for a 95-byte field of the log spelled out (term_safe.h): most
 * bytes as "\xNN", four times their length. */
#define DIAG_TEXT_MAX 400

struct diag_gpu {
	/* the gpu label: nvidia-smi's index, else the key; safe to print */
	char label[DIAG_TEXT_MAX];
	char uuid[DIAG_TEXT_MAX], name[DIAG_TEXT_MAX];	/* "" when unknown */
	struct gpu_diagnosis d;
	double lost_cost;	/* with a price: d.lost_s at it; NAN: none */
};

struct diag_price {
	bool set;
	char currency[8];
	char workload[128], instance[128];
	double per_gpu_hour;	/* the recommended option's cost / GPU-hours */
};

struct diagnosis {
	const char *source;	/* the log's name, or "nvml" */
	bool live;
	char started[100];	/* the first timestamp, "" when unknown */
	struct diag_gpu *gpu;
	size_t n;
	struct diag_price price;
};

/* Every GPU of log diagnosed into g (source: the log's name, or
 * "nvml"; kept as a pointer). */
void diagnosis_of_log(const struct smi_log *log, bool live,
		      const char *source, struct diagnosis *g);

void diagnosis_free(struct diagnosis *g);

/* Prices every GPU's lost time at g->price (when set). */
void diagnosis_price(struct diagnosis *g);

json_t *diagnosis_json(const struct diagnosis *g);
/* A table per GPU of its findings, then each finding's evidence and
 * suggestion; markdown: the same as Markdown. */
void diagnosis_print(FILE *f, const struct diagnosis *g, bool markdown);
void diagnosis_prom(FILE *f, const struct diagnosis *g);

#endif

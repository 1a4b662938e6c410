/*
 * diag_chart.h - `gpuplan diagnose --report FILE`: a timeline of each
 * GPU's samples (up to DIAG_CHART_MAX_GPUS of them, one band each):
 * utilisation with every finding's span marked (a dotted line where it
 * begins and where it ends, labelled with its kind), and below it the SM
 * clock, temperature and power, each on its own axis.  PDF, PNG or SVG
 * by the file's extension (report/report.h report_drawing_bytes).
 *
 * Ownership: nothing is kept; the bytes returned are the caller's.
 */
#ifndef GPUPLAN_DIAGNOSE_DIAG_CHART_H
#define GPUPLAN_DIAGNOSE_DIAG_CHART_H

#include <stddef.h>

#include "diag_out.h"
#include "smi_log.h"

#define DIAG_CHART_MAX_GPUS 4

/* The chart of log's GPUs and g's findings as path's format.  date: an
 * ISO 8601 moment for a PDF's metadata.  NULL with why on failure.
 * Releases fontconfig's caches when done (report_fonts_shutdown): call
 * it once a run. */
unsigned char *diag_chart_bytes(const char *path, const struct smi_log *log,
				const struct diagnosis *g, const char *date,
				size_t *len, char *why, size_t wlen);

#endif

/*
 * compare_runs.h - two run records (run/record.h) compared metric by
 * metric: the change of the mean, its 95% interval, the ratio, the p-value
 * of Welch's test and a verdict, better or worse in each metric's own
 * direction, at 5%.  Only runs that count (not warm-up, exit status 0)
 * enter; a run where a metric's regex found nothing is counted as missing
 * for that metric, never as 0.  Wall time is always compared (lower is
 * better).  Metrics present on one side only are listed, not dropped.
 *
 * The result is the JSON document `gpuplan compare` prints (schema
 * gpuplan/compare/v1, kind "runs"); the table and Markdown are drawn from
 * it (compare_print.h).
 *
 * Ownership: the caller decrefs the returned json_t.
 */
#ifndef GPUPLAN_COMPARE_COMPARE_RUNS_H
#define GPUPLAN_COMPARE_COMPARE_RUNS_H

#include <jansson.h>

#include "run/record.h"

#define COMPARE_SCHEMA "gpuplan/compare/v1"

json_t *compare_runs(const struct run_record *before, const char *before_file,
		     const struct run_record *after, const char *after_file);

/*
 * One metric compared: vb (nb values, mb runs that missed it) before, va
 * after; unit NULL for none.  The JSON object compare_runs lists in
 * "metrics" (measured profiles' figures use it too).
 */
json_t *compare_metric_json(const char *name, enum better b, const char *unit,
			    const double *vb, size_t nb, size_t mb,
			    const double *va, size_t na, size_t ma);

/*
 * The comparison's JSON around its metrics, for runs and profiles alike:
 * schema, kind ("runs", "profiles"), the method in words, each side, the
 * metrics, what only one side has, and the notes.  Takes every reference.
 */
json_t *compare_measured_json(const char *kind, const char *method,
			      json_t *before, json_t *after, json_t *metrics,
			      json_t *only_before, json_t *only_after,
			      json_t *notes);

/* The metrics' verdict words, as the JSON writes them. */
#define VERDICT_BETTER "better"
#define VERDICT_WORSE "worse"
#define VERDICT_SAME "no significant change"
#define VERDICT_NONE "no change"
#define VERDICT_TOO_FEW "too few runs"

#endif

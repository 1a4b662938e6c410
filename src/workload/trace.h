/*
 * trace.h - a service's recorded requests (workload `trace:`), for the
 * serving simulations to replay instead of drawing Poisson arrivals and
 * fixed or uniform lengths.
 *
 * The file is CSV with a header row naming its columns.  Three are read,
 * under their own names or those of the public traces users have:
 *
 *   arrival   arrival_s | Timestamp (BurstGPT) | TIMESTAMP (Azure LLM
 *             inference traces): seconds (any origin) or a date-time
 *             "YYYY-MM-DD HH:MM:SS[.frac]" (UTC, as Azure's 2023 traces
 *             write it), with 'Z' or an offset from UTC (+HH:MM, -HH:MM,
 *             as Azure's 2024 traces write it) read as UTC; rows in time
 *             order
 *   prompt    prompt_tokens | Request tokens | ContextTokens
 *   output    output_tokens | Response tokens | GeneratedTokens
 *
 * Names compare case-blind, so "timestamp" is either trace's.  Any subset
 * of the three will do (arrivals alone, or lengths alone as an empirical
 * distribution); other columns (BurstGPT's Model, Log Type) are skipped,
 * unless a name is a near miss of one read ("promt_tokens"), which is an
 * error rather than a column silently lost.  Blank lines and lines that
 * start with '#' are skipped; fields may be double-quoted; a UTF-8
 * byte-order mark at the start (Excel's "CSV UTF-8") is skipped.  A file
 * whose header names none of the columns, nor a near miss of one, is not
 * a trace: refused at 1:1 without quoting it (it may be any file).
 *
 * Every problem is reported at file:line:column with what was expected
 * and what was found; a request with no prompt or no output tokens (a
 * failed request, as BurstGPT records them) is one.
 *
 * Ownership: request_trace_load() fills a request_trace the caller frees
 * with request_trace_free().
 */
#ifndef GPUPLAN_WORKLOAD_TRACE_H
#define GPUPLAN_WORKLOAD_TRACE_H

#include <stdbool.h>

struct gp_errors;

#define TRACE_MAX_BYTES (512L << 20)	/* BurstGPT's largest file is ~220 MB */
#define TRACE_MAX_ROWS 10000000L	/* its largest has 5.3 M rows */

struct request_trace {
	char *file;		/* as shown in messages */
	long n;			/* rows (requests) */
	double *arrival;	/* s after the first row's arrival, in order;
				 * NULL when the file has no arrival column */
	long *prompt, *output;	/* tokens per row; NULL when absent */
	double span;		/* last arrival - first, s (> 0 with arrivals) */
	double rate;		/* the trace's mean rate, (n - 1) / span, /s */
	double prompt_mean, output_mean;
	long prompt_range[2], output_range[2];	/* shortest and longest */
	long longest;		/* the longest row's prompt + output (the
				 * columns given) */
};

/*
 * Reads path, naming it `shown` in messages; every problem is added to
 * errs.  0 when there were none, else -1 (t must then only be freed).
 */
int request_trace_load(struct request_trace *t, const char *path,
		       const char *shown, struct gp_errors *errs);

void request_trace_free(struct request_trace *t);

#endif

/*
 * record.h - the run record (schema gpuplan/run/v1): what `gpuplan run`
 * measured of a user's command, and what `gpuplan compare` reads back.
 *
 * A record holds the command as run (argv, no shell), the host and GPU it
 * ran on (or why there is no GPU: "absent: <why>"), the metrics asked for
 * (name, which way is better, the regular expression, and the stream it is
 * read from when only one: `stream: stdout` or `stream: stderr`), and per
 * run: warm-up or not, the exit status or signal, the wall time, each
 * metric's value or its absence, `output_held_open: true` when a process
 * the command started kept its output open after the command exited
 * (exec.h: reading stopped then), the tail of stderr of a failing run, and
 * a summary of the GPU samples taken during it.  A metric may not be named
 * wall_time_s, which every run records itself.  The raw samples follow, each labelled with
 * its run ("run 3").  A run that failed (exit status not 0, a signal, or
 * a command that could not be started) is kept with its status and left
 * out of every statistic; so are warm-up runs.
 *
 * The loader is strict (yaml_read.h): every problem at its line:column,
 * a record of another schema version refused at its `schema:` line.
 *
 * Ownership: run_record_init/free; the record owns argv, metrics, runs and
 * samples.
 */
#ifndef GPUPLAN_RUN_RECORD_H
#define GPUPLAN_RUN_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"
#include "profile/samples.h"
#include "run/metric.h"

#define RUN_RECORD_SCHEMA "gpuplan/run/v1"
#define RUN_MAX_RUNS 10000
#define RUN_MAX_METRICS 64
/* Raw samples a record keeps: past this, every k-th (samples_every), so a
 * run of hours stays a file the loader reads (yaml_tree.h's limits: 20,000
 * samples are about 3 MB and 300,000 nodes).  The per-run summaries are
 * taken from every sample first. */
#define RUN_MAX_SAMPLES 20000

/* A run's GPU samples in brief; `valid` bits as gpu_sample's say which
 * means could be taken (a reading NVML refused in every sample is absent). */
struct run_gpu {
	size_t samples;
	uint32_t valid;
	double util_mean_pct;		/* GPU_SAMPLE_UTILIZATION */
	double mem_peak_bytes;		/* GPU_SAMPLE_MEMORY */
	double sm_clock_mean_hz, sm_clock_min_hz;	/* GPU_SAMPLE_SM_CLOCK */
	double temperature_max_c;	/* GPU_SAMPLE_TEMPERATURE */
	double power_mean_w;		/* GPU_SAMPLE_POWER */
	uint64_t throttle_seen;		/* GPU_SAMPLE_THROTTLE */
};

struct run_one {
	bool warmup;
	bool signaled;
	int exit_code, signal;	/* exit_code when !signaled */
	bool not_started;	/* execvp failed: exit_code 127 */
	bool output_held;	/* its output was held open past its exit */
	double wall_s;
	double *value;		/* per metric of the record */
	bool *present;		/* false: the regex did not match this run */
	char *stderr_tail;	/* failing runs only; NULL otherwise */
	struct run_gpu gpu;	/* samples == 0: none taken */
};

struct run_record {
	char tool_version[32];
	char when[32];			/* "2026-12-02T11:30:00Z" */
	char **argv;
	size_t argc;
	char hostname[256];
	char kernel[256];		/* uname: sysname release machine */
	char cpu[256];			/* "" when /proc/cpuinfo gave none */
	long logical_cpus;		/* 0: unknown */
	bool gpu;			/* false: gpu_absent says why */
	char gpu_absent[256];
	unsigned gpu_index;
	char gpu_name[96], gpu_uuid[96];
	struct metric *metrics;		/* the captured ones; wall time apart */
	size_t n_metrics;
	struct run_one *runs;
	size_t n_runs;
	struct gpu_samples samples;	/* during: "run N" */
	unsigned long samples_every;	/* 1, or k when thinned to every k-th */
};

void run_record_init(struct run_record *r);
void run_record_free(struct run_record *r);

/* True when run i counts in statistics: not a warm-up, and it ended with
 * exit status 0. */
bool run_counts(const struct run_one *u);
bool run_failed(const struct run_one *u);

/* Adds a run (value/present arrays of n_metrics allocated, zeroed). */
struct run_one *run_record_add(struct run_record *r);

/* Keeps every k-th sample when there are more than RUN_MAX_SAMPLES,
 * setting samples_every; summarise the runs first. */
void run_record_thin_samples(struct run_record *r);

/* Summarises samples labelled `during` (a run's label) into g. */
void run_gpu_summarise(const struct gpu_samples *s, const char *during,
		       struct run_gpu *g);

void run_record_emit(const struct run_record *r, FILE *f);

/* Loads path into r (initialised here).  Returns 0, or -1 with every
 * problem in errs (r then empty but safe to free). */
int run_record_load(struct run_record *r, const char *path,
		    struct gp_errors *errs);
int run_record_parse(struct run_record *r, const char *name, const char *buf,
		     size_t len, struct gp_errors *errs);
/* The same for a tree already read (compare reads a file once to learn
 * its kind). */
struct ytree;
int run_record_read(struct run_record *r, const struct ytree *t,
		    struct gp_errors *errs);

#endif

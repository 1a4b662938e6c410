/*
 * cuda_job.h - one plugin job (cuda/plugin_abi.h) measured into a figure:
 * prepare, find how many iterations make a run long enough to time with
 * CUDA events, repeat under the policy, check the result, release.
 *
 * The plugin only runs and times; what counts as work is decided here and
 * in backend_cuda.c (profile/figure.h states each suite's rule).
 *
 * Ownership: the figure's samples move into the caller's list on success.
 */
#ifndef GPUPLAN_BENCH_CUDA_JOB_H
#define GPUPLAN_BENCH_CUDA_JOB_H

#include <stddef.h>

#include "bench/cuda/plugin_abi.h"
#include "bench/measure.h"
#include "profile/figure.h"

struct cuda_job_options {
	const struct gpuplan_cuda_plugin *api;
	struct measure_policy policy;
	double min_run_s;	/* a timed run lasts at least this long (events
				 * resolve about 0.5 us; launches cost microseconds) */
	long max_iterations;	/* calibration never goes past this */
	/* the training suites: the sustained loop (measure.h) instead of
	 * the policy; NULL for every other suite */
	const struct sustain_policy *sustain;
};

/* A sustained figure's runs last this long: the GPU kept busy back to
 * back, the host's wait for each run's end a small share of it. */
#define CUDA_SUSTAIN_RUN_S 0.05

/* The GPU suites' default policy: full 2 warm-ups, 10..200 repetitions,
 * 2%, 0.5 s per figure, runs of 2 ms or more; quick 1, 6..50, 2%, 0.1 s,
 * 1 ms. */
struct cuda_job_options cuda_job_defaults(const struct gpuplan_cuda_plugin *api,
					  int quick);

/* What became of a job. */
enum cuda_job_result {
	CUDA_JOB_MEASURED,	/* f is on out (marked if readings were discarded) */
	CUDA_JOB_UNSUPPORTED,	/* prepare: the device or build lacks it */
	CUDA_JOB_OUT_OF_MEMORY,	/* prepare, or a run ("while running: ...") */
	CUDA_JOB_FAILED,	/* prepare or a run answered BENCH_ERROR */
	CUDA_JOB_WRONG,		/* the output did not check out */
	CUDA_JOB_NO_READING,	/* the timer never gave a good reading */
};

/*
 * Measures job.  f carries the caller's names and parameters; this fills
 * iterations, work (work_per_iteration x iterations), time and the rate,
 * and pushes f onto out.  Timer readings that are negative, zero or not
 * finite are discarded and counted in f->time (measure.h), those of the
 * calibration runs included; the caller records what they did
 * (bench_figures_timer_fault).  Returns an enum cuda_job_result; on any
 * but CUDA_JOB_MEASURED, why says what the plugin said, nothing was pushed
 * and nothing is held (f->time keeps only its counts of discarded
 * readings).  *info gets what prepare said (its note may be worth passing
 * on).
 */
int cuda_job_measure(const struct cuda_job_options *o,
		     const struct gpuplan_cuda_job *job,
		     double work_per_iteration, struct bench_figure *f,
		     struct bench_figures *out,
		     struct gpuplan_cuda_job_info *info, char *why, size_t len);

#endif

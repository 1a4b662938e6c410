/*
 * cuda_job.c - measuring one plugin job; see cuda_job.h.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cuda_job.h"

struct cuda_job_options cuda_job_defaults(const struct gpuplan_cuda_plugin *api,
					  int quick)
{
	struct cuda_job_options o = {api, {2, 10, 200, 0.02, 0.5, NULL}, 2e-3,
				     1L << 24, NULL};
	if (quick) {
		o.policy = (struct measure_policy){1, 6, 50, 0.02, 0.1, NULL};
		o.min_run_s = 1e-3;
	}
	return o;
}

struct run_ctx {
	const struct gpuplan_cuda_plugin *api;
	void *job;
	int64_t iterations;
	int status;		/* the last job_run's enum bench_status */
};

/* One run; a reading the timer got wrong is measure_run's to discard. */
static int timed_run(void *ctx, double *seconds, char *why, size_t len)
{
	struct run_ctx *r = ctx;
	*seconds = 0;
	r->status = r->api->job_run(r->job, r->iterations, seconds, why, len);
	return r->status == BENCH_OK ? 0 : -1;
}

/* Grows iterations until one run lasts min_run_s: from the time of a run,
 * straight to the count that should reach it (with 20% to spare), at most
 * 16x at a time in case the first run was slowed by something else.  Bad
 * readings are counted in *cal and tried again, within the same 16 tries.
 * Returns 0, 1 when no reading was good, or -1 when a run failed. */
static int calibrate(const struct cuda_job_options *o, struct run_ctx *r,
		     struct measure_result *cal, char *why, size_t len)
{
	bool good = false;
	r->iterations = 1;
	for (int tries = 0; tries < 16; tries++) {
		double t;
		if (timed_run(r, &t, why, len) < 0)
			return -1;
		if (!measure_reading_good(t)) {
			measure_reject(cal, t);
			continue;
		}
		good = true;
		if (t >= o->min_run_s || r->iterations >= o->max_iterations)
			return 0;
		double want = ceil(r->iterations * o->min_run_s * 1.2 / t);
		double grow = fmin(want, 16.0 * r->iterations);
		r->iterations = (int64_t)fmin(grow, (double)o->max_iterations);
	}
	return good ? 0 : 1;
}

/* The result of a run that answered status (not BENCH_OK). */
static int run_failed(int status, char *why, size_t len)
{
	if (status != BENCH_OUT_OF_MEMORY)
		return CUDA_JOB_FAILED;
	char said[256];
	snprintf(said, sizeof(said), "%s", why);
	snprintf(why, len, "while running: %s", said);
	return CUDA_JOB_OUT_OF_MEMORY;
}

/* Calibrates, runs the policy and checks: an enum cuda_job_result. */
static int time_job(const struct cuda_job_options *o, struct run_ctx *r,
		    struct bench_figure *f, char *why, size_t len)
{
	struct measure_result cal = {0};
	int c = calibrate(o, r, &cal, why, len);
	int result = CUDA_JOB_MEASURED;
	if (c < 0) {
		result = run_failed(r->status, why, len);
	} else if (c > 0) {
		result = CUDA_JOB_NO_READING;
	} else if ((o->sustain
		    ? measure_sustained(o->sustain, timed_run, r, &f->time, why, len)
		    : measure_run(&o->policy, timed_run, r, &f->time, why, len)) < 0) {
		result = run_failed(r->status, why, len);
	} else if (f->time.n == 0) {
		result = CUDA_JOB_NO_READING;
	} else if (o->api->job_check(r->job, why, len) != BENCH_OK) {
		result = CUDA_JOB_WRONG;
	}
	f->time.rejected += cal.rejected;
	f->time.rejected_kinds |= cal.rejected_kinds;
	return result;
}

int cuda_job_measure(const struct cuda_job_options *o,
		     const struct gpuplan_cuda_job *job,
		     double work_per_iteration, struct bench_figure *f,
		     struct bench_figures *out,
		     struct gpuplan_cuda_job_info *info, char *why, size_t len)
{
	struct run_ctx r = {o->api, NULL, 1, BENCH_OK};
	memset(info, 0, sizeof(*info));
	memset(&f->time, 0, sizeof(f->time));
	int st = o->api->job_prepare(job, &r.job, info, why, len);
	if (st != BENCH_OK)
		return st == BENCH_OUT_OF_MEMORY ? CUDA_JOB_OUT_OF_MEMORY
		       : st == BENCH_UNSUPPORTED ? CUDA_JOB_UNSUPPORTED
						 : CUDA_JOB_FAILED;
	int result = time_job(o, &r, f, why, len);
	o->api->job_release(r.job);
	if (result != CUDA_JOB_MEASURED) {
		/* keep the counts of discarded readings, not the samples */
		free(f->time.samples);
		f->time.samples = NULL;
		f->time.n = 0;
		return result;
	}
	f->iterations = r.iterations;
	f->work = work_per_iteration * (double)r.iterations;
	bench_figure_rate(f);
	bench_figures_push(out, f);
	return CUDA_JOB_MEASURED;
}

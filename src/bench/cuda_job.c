/*
 * cuda_job.c - measuring one plugin job; see cuda_job.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/cuda_job.h"

struct cuda_job_options cuda_job_defaults(const struct gpuplan_cuda_plugin *api,
					  int quick)
{
	struct cuda_job_options o = {api, {2, 10, 200, 0.02, 0.5, NULL}, 2e-3,
				     1L << 24};
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
};

static int timed_run(void *ctx, double *seconds, char *why, size_t len)
{
	struct run_ctx *r = ctx;
	if (r->api->job_run(r->job, r->iterations, seconds, why, len) != BENCH_OK)
		return -1;
	if (!(*seconds > 0) || !isfinite(*seconds)) {
		snprintf(why, len, "the plugin timed a run at %g s", *seconds);
		return -1;
	}
	return 0;
}

/* Grows iterations until one run lasts min_run_s: from the time of a run,
 * straight to the count that should reach it (with 20% to spare), at most
 * 16x at a time in case the first run was slowed by something else. */
static int calibrate(const struct cuda_job_options *o, struct run_ctx *r,
		     char *why, size_t len)
{
	r->iterations = 1;
	for (int tries = 0; tries < 16; tries++) {
		double t;
		if (timed_run(r, &t, why, len) < 0)
			return -1;
		if (t >= o->min_run_s || r->iterations >= o->max_iterations)
			return 0;
		double want = ceil(r->iterations * o->min_run_s * 1.2 / t);
		double grow = fmin(want, 16.0 * r->iterations);
		r->iterations = (int64_t)fmin(grow, (double)o->max_iterations);
	}
	return 0;
}

int cuda_job_measure(const struct cuda_job_options *o,
		     const struct gpuplan_cuda_job *job,
		     double work_per_iteration, struct bench_figure *f,
		     struct bench_figures *out,
		     struct gpuplan_cuda_job_info *info, char *why, size_t len)
{
	struct run_ctx r = {o->api, NULL, 1};
	memset(info, 0, sizeof(*info));
	int st = o->api->job_prepare(job, &r.job, info, why, len);
	if (st != BENCH_OK)
		return st;
	memset(&f->time, 0, sizeof(f->time));
	if (calibrate(o, &r, why, len) < 0 ||
	    measure_run(&o->policy, timed_run, &r, &f->time, why, len) < 0 ||
	    o->api->job_check(r.job, why, len) != BENCH_OK) {
		measure_result_free(&f->time);
		o->api->job_release(r.job);
		return BENCH_ERROR;
	}
	o->api->job_release(r.job);
	f->iterations = r.iterations;
	f->work = work_per_iteration * (double)r.iterations;
	bench_figure_rate(f);
	bench_figures_push(out, f);
	return BENCH_OK;
}

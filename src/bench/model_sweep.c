/*
 * model_sweep.c - a model's step at doubling batch sizes until the device's
 * memory, the step cap or the batch cap ends it; see model_sweep.h.
 */
#include <stdio.h>
#include <string.h>

#include "bench/model_program.h"
#include "bench/model_sweep.h"

struct model_sweep_options model_sweep_defaults(bool quick)
{
	struct model_sweep_options o = {0};
	o.precision = BENCH_FP32;
	if (quick) {
		o.policy = (struct measure_policy){1, 6, 20, 0.02, 0.5, NULL};
		o.step_cap_s = 0.25;
		o.max_batch = 256;
	} else {
		o.policy = (struct measure_policy){1, 6, 50, 0.02, 2.0, NULL};
		o.step_cap_s = 1.0;
		o.max_batch = 4096;
	}
	return o;
}

struct step_ctx {
	const struct program_executor *x;
	void *run;
};

static int one_step(void *ctx, double *seconds, char *why, size_t len)
{
	struct step_ctx *s = ctx;
	return s->x->step(s->run, seconds, why, len) == BENCH_OK ? 0 : -1;
}

/* Lowers the model at `batch` and prepares it: an enum bench_status. */
static int prepare_batch(const struct model_sweep_options *o,
			 const struct program_executor *x, long batch,
			 void **run, double *bytes, char *why, size_t len)
{
	struct model_program p;
	if (model_program_build(o->graph, batch, o->precision, &p, why, len) < 0)
		return BENCH_ERROR;
	int st = x->prepare(x->ctx, &p.prog, run, bytes, why, len);
	model_program_free(&p);
	return st;
}

static void fill_figure(const struct model_sweep_options *o, long batch,
			double bytes, struct bench_figure *f)
{
	enum precision core = bench_precision_core(o->precision);
	snprintf(f->suite, sizeof(f->suite), "model");
	snprintf(f->name, sizeof(f->name), "%.40s batch %ld", o->model_name,
		 batch);
	snprintf(f->kernel, sizeof(f->kernel), "step");
	snprintf(f->precision, sizeof(f->precision), "%s", precision_name(core));
	f->batch = batch;
	f->seq = o->graph->seq;
	f->memory_bytes = bytes;
	f->threads = o->threads;
	f->iterations = 1;
	struct model_cost c;
	model_cost(o->graph, batch, precision_bytes(core), &c);
	f->work = c.flops_per_step;
	f->unit = "FLOP/s";
}

/* Measures one batch size: an enum bench_status; on BENCH_OK the figure
 * is in out and *median its step time. */
static int measure_batch(const struct model_sweep_options *o,
			 const struct program_executor *x, long batch,
			 struct bench_figures *out, double *median, char *why,
			 size_t len)
{
	struct step_ctx s = {x, NULL};
	double bytes = 0;
	int st = prepare_batch(o, x, batch, &s.run, &bytes, why, len);
	if (st != BENCH_OK)
		return st;
	struct bench_figure f;
	memset(&f, 0, sizeof(f));
	fill_figure(o, batch, bytes, &f);
	if (measure_run(&o->policy, one_step, &s, &f.time, why, len) < 0 ||
	    x->check(s.run, why, len) != BENCH_OK) {
		measure_result_free(&f.time);
		x->release(s.run);
		return BENCH_ERROR;
	}
	x->release(s.run);
	bench_figure_rate(&f);
	*median = f.time.median;
	bench_figures_push(out, &f);
	return BENCH_OK;
}

/* The largest batch in (fits, fails) that prepares; fits when none does.
 * An enum bench_status other than OUT_OF_MEMORY ends it as an error. */
static int bisect(const struct model_sweep_options *o,
		  const struct program_executor *x, long fits, long fails,
		  long *largest, char *why, size_t len)
{
	while (fails - fits > 1) {
		long mid = fits + (fails - fits) / 2;
		void *run = NULL;
		double bytes;
		char reason[256];
		int st = prepare_batch(o, x, mid, &run, &bytes, reason,
				       sizeof(reason));
		if (st == BENCH_OK) {
			x->release(run);
			fits = mid;
		} else if (st == BENCH_OUT_OF_MEMORY) {
			fails = mid;
		} else {
			snprintf(why, len, "batch %ld: %s", mid, reason);
			return st;
		}
	}
	*largest = fits;
	return BENCH_OK;
}

/* Batches the sweep tries at most: 1, 2, 4, ... up to max_batch. */
static size_t doublings(long max_batch)
{
	size_t n = 0;
	for (long b = 1; b <= max_batch; b *= 2)
		n++;
	return n;
}

/* The device ran out at `batch`: note it, and how large a batch fits. */
static int out_of_memory(const struct model_sweep_options *o,
			 const struct program_executor *x, long fitted,
			 long batch, const char *reason,
			 struct bench_figures *out, char *why, size_t len)
{
	if (fitted == 0) {
		bench_figures_note(out, "model %s: batch 1 does not fit: %s",
				   o->model_name, reason);
		return BENCH_OK;
	}
	long largest = fitted;
	int st = bisect(o, x, fitted, batch, &largest, why, len);
	if (st != BENCH_OK)
		return st;
	bench_figures_note(out,
			   "model %s: out of memory at batch %ld (%s); the largest batch that fits is %ld",
			   o->model_name, batch, reason, largest);
	return BENCH_OK;
}

int model_sweep_run(const struct model_sweep_options *o,
		    const struct program_executor *x,
		    struct bench_figures *out, bench_progress_fn progress,
		    void *progress_ctx, char *why, size_t len)
{
	size_t total = doublings(o->max_batch), done = 0;
	long fitted = 0;
	for (long batch = 1; batch <= o->max_batch; batch *= 2, done++) {
		char what[96], reason[256] = "";
		snprintf(what, sizeof(what), "model %.40s batch %ld",
			 o->model_name, batch);
		if (progress)
			progress(progress_ctx, what, done, total);
		double median = 0;
		int st = measure_batch(o, x, batch, out, &median, reason,
				       sizeof(reason));
		if (st == BENCH_OUT_OF_MEMORY)
			return out_of_memory(o, x, fitted, batch, reason, out,
					     why, len) == BENCH_OK ? 0 : -1;
		if (st != BENCH_OK) {
			snprintf(why, len, "%s batch %ld: %s",
				 o->model_name, batch, reason);
			return -1;
		}
		fitted = batch;
		if (median > o->step_cap_s) {
			bench_figures_note(out,
					   "model %s: stopped after batch %ld: a step took %.3g s (the sweep's cap is %.3g s)",
					   o->model_name, batch, median,
					   o->step_cap_s);
			return 0;
		}
	}
	bench_figures_note(out, "model %s: stopped at the batch cap %ld",
			   o->model_name, o->max_batch);
	return 0;
}

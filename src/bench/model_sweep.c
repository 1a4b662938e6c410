/*
 * model_sweep.c - a model's step at doubling batch sizes until the device's
 * memory, the step cap or the batch cap ends it; see model_sweep.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/host_quiet.h"
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
	int status;		/* the last step's enum bench_status */
};

static int one_step(void *ctx, double *seconds, char *why, size_t len)
{
	struct step_ctx *s = ctx;
	*seconds = 0;
	s->status = s->x->step(s->run, seconds, why, len);
	return s->status == BENCH_OK ? 0 : -1;
}

/* What became of one batch. */
enum batch_result {
	BATCH_MEASURED,		/* the figure is on out */
	BATCH_NO_ROOM,		/* prepare: out of memory */
	BATCH_NO_ROOM_RUN,	/* a step ran out of memory */
	BATCH_FAILED,		/* prepare or a step answered BENCH_ERROR */
	BATCH_WRONG,		/* the output did not check out */
	BATCH_NO_READING,	/* no good timer reading */
	BATCH_UNSUPPORTED,	/* the device cannot run the program */
	BATCH_UNBUILT,		/* the model could not be lowered (host) */
};

/* Lowers the model at `batch` and prepares it: an enum batch_result. */
static int prepare_batch(const struct model_sweep_options *o,
			 const struct program_executor *x, long batch,
			 void **run, double *bytes, char *why, size_t len)
{
	struct model_program p;
	if (model_program_build(o->graph, batch, o->precision, &p, why, len) < 0)
		return BATCH_UNBUILT;
	int st = x->prepare(x->ctx, &p.prog, run, bytes, why, len);
	model_program_free(&p);
	return st == BENCH_OK ? BATCH_MEASURED
	       : st == BENCH_OUT_OF_MEMORY ? BATCH_NO_ROOM
	       : st == BENCH_UNSUPPORTED ? BATCH_UNSUPPORTED : BATCH_FAILED;
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

/* Steps under the policy and the check: an enum batch_result. */
static int time_batch(const struct model_sweep_options *o,
		      struct step_ctx *s, struct bench_figure *f, char *why,
		      size_t len)
{
	int rc = o->watch_host
		? host_quiet_measure(&o->policy, one_step, s, o->threads, &f->time,
				     f->disturbed, sizeof(f->disturbed), why, len)
		: measure_run(&o->policy, one_step, s, &f->time, why, len);
	if (rc < 0)
		return s->status == BENCH_OUT_OF_MEMORY ? BATCH_NO_ROOM_RUN
							: BATCH_FAILED;
	if (f->time.n == 0)
		return BATCH_NO_READING;
	if (s->x->check(s->run, why, len) != BENCH_OK)
		return BATCH_WRONG;
	return BATCH_MEASURED;
}

/* Measures one batch size into f: an enum batch_result; on
 * BATCH_MEASURED f is on out, else f->time keeps only its counts of
 * discarded readings.  *fits: the batch was prepared (it fits). */
static int measure_batch(const struct model_sweep_options *o,
			 const struct program_executor *x, long batch,
			 struct bench_figures *out, struct bench_figure *f,
			 bool *fits, char *why, size_t len)
{
	struct step_ctx s = {x, NULL, BENCH_OK};
	double bytes = 0;
	memset(f, 0, sizeof(*f));
	fill_figure(o, batch, 0, f);
	int st = prepare_batch(o, x, batch, &s.run, &bytes, why, len);
	*fits = st == BATCH_MEASURED;
	if (st != BATCH_MEASURED)
		return st;
	f->memory_bytes = bytes;
	st = time_batch(o, &s, f, why, len);
	x->release(s.run);
	if (st != BATCH_MEASURED) {
		free(f->time.samples);
		f->time.samples = NULL;
		f->time.n = 0;
		return st;
	}
	bench_figure_rate(f);
	bench_figures_push(out, f);
	return BATCH_MEASURED;
}

/* The largest batch in (fits, fails) that prepares; fits when none does.
 * Any answer but out-of-memory ends it: an enum batch_result, with why. */
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
		if (st == BATCH_MEASURED) {
			x->release(run);
			fits = mid;
		} else if (st == BATCH_NO_ROOM) {
			fails = mid;
		} else {
			snprintf(why, len, "batch %ld: %s", mid, reason);
			return st;
		}
	}
	*largest = fits;
	return BATCH_MEASURED;
}

/* Batches the sweep tries at most: 1, 2, 4, ... up to max_batch. */
static size_t doublings(long max_batch)
{
	size_t n = 0;
	for (long b = 1; b <= max_batch; b *= 2)
		n++;
	return n;
}

/*
 * A step or its check failed on figure (NULL: while bisecting): asks the
 * executor whether the device is still there and records the fault.
 * Returns 1 when the device is lost (the sweep ends), else 0.
 */
static int device_fault(const struct program_executor *x,
			struct bench_figures *out, const char *figure,
			bool wrong, const char *reason)
{
	char why[256] = "";
	bool lost = x->healthy && x->healthy(x->ctx, why, sizeof(why)) != 0;
	size_t i;
	if (lost)
		i = bench_faults_add(&out->faults, BENCH_FAULT_DEVICE_LOST,
				     "model", figure, "%s%s; then the device failed "
				     "its health check (%s): nothing more is "
				     "measured on it",
				     wrong ? "wrong result: " : "", reason, why);
	else
		i = bench_faults_add(&out->faults, wrong ? BENCH_FAULT_WRONG_RESULT
						 : BENCH_FAULT_ERROR,
				     "model", figure, "%s%s", reason,
				     x->healthy ? "; the device passed its health "
						  "check: the sweep goes on" : "");
	struct bench_fault *f = &out->faults.v[i];
	if (figure)
		bench_names_add(&f->missing, figure);
	if (lost)
		bench_names_add(&f->ended, "model");
	return lost;
}

/* The device ran out at `batch` when preparing it: note it, and how large
 * a batch fits; no batch fitting is a fault (the suite has no figure).
 * 0, or -1 with why (the model could not be lowered, the device cannot
 * run it). */
static int out_of_memory(const struct model_sweep_options *o,
			 const struct program_executor *x, long fitted,
			 const struct bench_figure *f, const char *reason,
			 struct bench_figures *out, char *why, size_t len)
{
	if (fitted == 0) {
		size_t i = bench_faults_add(&out->faults,
					    BENCH_FAULT_OUT_OF_MEMORY, "model",
					    f->name, "batch %ld does not fit%s: %s",
					    f->batch, f->batch > 1 ? " and no "
					    "smaller batch was prepared" : "",
					    reason);
		bench_names_add(&out->faults.v[i].missing, f->name);
		return 0;
	}
	long largest = fitted;
	char said[320];
	int st = bisect(o, x, fitted, f->batch, &largest, said, sizeof(said));
	if (st == BATCH_UNBUILT || st == BATCH_UNSUPPORTED) {
		snprintf(why, len, "%s", said);
		return -1;
	}
	if (st != BATCH_MEASURED) {
		bench_figures_note(out, "model %s: out of memory at batch %ld (%s); "
				   "the largest batch that fits was not found",
				   o->model_name, f->batch, reason);
		device_fault(x, out, NULL, false, said);
		return 0;
	}
	bench_figures_note(out,
			   "model %s: out of memory at batch %ld (%s); the largest batch that fits is %ld",
			   o->model_name, f->batch, reason, largest);
	return 0;
}

/* A batch that was not measured: records why.  Returns 1 when the sweep
 * ends there, 0 when it goes on, -1 with why on a hard error. */
static int not_measured(const struct model_sweep_options *o,
			const struct program_executor *x, int st, long fitted,
			struct bench_figure *f, const char *reason,
			struct bench_figures *out, char *why, size_t len)
{
	size_t i;
	switch (st) {
	case BATCH_NO_ROOM:
		return out_of_memory(o, x, fitted, f, reason, out, why, len) < 0
			       ? -1 : 1;
	case BATCH_NO_ROOM_RUN:
		i = bench_faults_add(&out->faults, BENCH_FAULT_OUT_OF_MEMORY,
				     "model", f->name, "while running: %s; the "
				     "sweep stops at this batch", reason);
		bench_names_add(&out->faults.v[i].missing, f->name);
		return 1;
	case BATCH_NO_READING:
		bench_figures_timer_fault(out, f, false);
		return 0;
	case BATCH_FAILED:
	case BATCH_WRONG:
		return device_fault(x, out, f->name, st == BATCH_WRONG, reason);
	default:	/* BATCH_UNBUILT, BATCH_UNSUPPORTED */
		snprintf(why, len, "%s batch %ld: %s", o->model_name, f->batch,
			 reason);
		return -1;
	}
}

int model_sweep_run(const struct model_sweep_options *o,
		    const struct program_executor *x,
		    struct bench_figures *out, bench_progress_fn progress,
		    void *progress_ctx, char *why, size_t len)
{
	size_t total = doublings(o->max_batch), done = 0;
	long fitted = 0;
	for (long batch = 1; batch <= o->max_batch; batch *= 2, done++) {
		char reason[256] = "", what[BENCH_LABEL_MAX];
		struct bench_figure f;
		/* the figure's label: what the sampler's samples are marked
		 * with while this batch runs */
		memset(&f, 0, sizeof(f));
		fill_figure(o, batch, 0, &f);
		bench_figure_label(&f, what, sizeof(what));
		if (progress)
			progress(progress_ctx, what, done, total);
		bool fits = false;
		int st = measure_batch(o, x, batch, out, &f, &fits, reason,
				       sizeof(reason));
		if (fits)
			fitted = batch;
		if (st != BATCH_MEASURED) {
			int end = not_measured(o, x, st, fitted, &f, reason, out,
					       why, len);
			if (end != 0)
				return end < 0 ? -1 : 0;
			continue;
		}
		const struct bench_figure *m = &out->v[out->n - 1];
		bench_figures_timer_fault(out, m, true);
		if (m->time.median > o->step_cap_s) {
			bench_figures_note(out,
					   "model %s: stopped after batch %ld: a step took %.3g s (the sweep's cap is %.3g s)",
					   o->model_name, batch, m->time.median,
					   o->step_cap_s);
			return 0;
		}
	}
	bench_figures_note(out, "model %s: stopped at the batch cap %ld",
			   o->model_name, o->max_batch);
	return 0;
}

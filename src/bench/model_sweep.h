/*
 * model_sweep.h - `gpuplan bench --model`: a model's step measured at a
 * sweep of batch sizes, on whichever device runs programs (the CPU through
 * cpu_program.h, a GPU through the plugin's PROGRAM job).
 *
 * The sweep doubles the batch from 1.  At each size it lowers the model
 * (model_program.h), prepares the program on the device (which allocates
 * every buffer), measures steps under the policy, checks the output of the
 * last step, and records one figure: step time, the model's forward FLOPs
 * per second, and the memory the step held.  It stops:
 *   - when the device runs out of memory: the figures so far stand, and
 *     the largest batch that fits is then found by bisection between the
 *     last size that fitted and the one that did not (prepare only, no
 *     timing), and noted;
 *   - when a step's median exceeds the step cap (larger batches would only
 *     take longer), or at max_batch.
 * Every stop is noted in the figure list (bench_figures_note), so the
 * profile says why the sweep ended where it did.
 *
 * Faults (profile/fault.h) do not end the run.  A batch whose step fails or
 * whose output is wrong is recorded as a fault with that batch missing; the
 * executor's health check then says whether the device is still there: if
 * so the sweep goes on with the next batch, if not (device-lost) it ends.
 * Memory that runs out while a step runs (not at prepare) ends the sweep
 * at that batch, recorded as an out-of-memory fault: bisecting by prepare
 * alone would not see it.  Batch 1 not fitting is an out-of-memory fault
 * too, since the suite then has no figure.  Timer readings that are bad
 * are discarded and counted (measure.h); a batch with no good reading is
 * missing, one with too few is marked.
 *
 * Ownership: the executor's run handles are its own; figures go to the
 * caller's list.
 */
#ifndef GPUPLAN_BENCH_MODEL_SWEEP_H
#define GPUPLAN_BENCH_MODEL_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/backend.h"
#include "bench/measure.h"
#include "bench/program_abi.h"
#include "model/graph.h"
#include "profile/figure.h"

/* How a device runs programs.  Every hook returns an enum bench_status. */
struct program_executor {
	void *ctx;
	/* Allocates and fills the program's buffers: BENCH_OK with *run and
	 * *bytes (memory held), BENCH_OUT_OF_MEMORY, BENCH_UNSUPPORTED or
	 * BENCH_ERROR with why.  Nothing is held unless BENCH_OK. */
	int (*prepare)(void *ctx, const struct bench_program *p, void **run,
		       double *bytes, char *why, size_t len);
	/* One step, timed by the device's own clock (CUDA events on a GPU). */
	int (*step)(void *run, double *seconds, char *why, size_t len);
	int (*check)(void *run, char *why, size_t len);
	void (*release)(void *run);
	/* After a failed step: 0 when the device still works, -1 with why
	 * when it is lost.  NULL: a device that cannot be lost (the CPU). */
	int (*healthy)(void *ctx, char *why, size_t len);
};

struct model_sweep_options {
	const struct model_graph *graph;
	const char *model_name;		/* for figure names: "resnet-50" */
	enum bench_precision precision;
	int threads;			/* recorded in the figures */
	struct measure_policy policy;	/* per batch size */
	long max_batch;			/* largest batch tried (>= 1) */
	bool watch_host;		/* CPU runs: judge whether the host stayed
					 * quiet (host_quiet.h) */
	double step_cap_s;		/* stop once a step's median exceeds this */
};

/* The defaults: full 1 warm-up, 6..50 repetitions, 2%, 2 s per batch,
 * steps up to 1 s, batches up to 4096; quick 1 warm-up, 6..20, 2%, 0.5 s,
 * steps up to 0.25 s, batches up to 256. */
struct model_sweep_options model_sweep_defaults(bool quick);

/*
 * Runs the sweep, appending one figure per batch size measured, the notes
 * and the faults.  Returns 0 (faults included: they are in out), or -1
 * with why when the model cannot be lowered at a batch or the device
 * answers BENCH_UNSUPPORTED (it cannot run the program at this precision).
 */
int model_sweep_run(const struct model_sweep_options *o,
		    const struct program_executor *x,
		    struct bench_figures *out, bench_progress_fn progress,
		    void *progress_ctx, char *why, size_t len);

#endif

/*
 * backend.h - what a device that gpuplan can measure offers: a table of
 * hooks, the same for the built-in CPU backend and (later) the CUDA one.
 *
 * As with the CUDA plugin (cuda/plugin_abi.h), the table carries the ABI
 * version and its own size, and bench_backend_check() refuses a table
 * whose version differs, that is shorter than this header's, or that lacks
 * a required hook, before anything in it is called.
 *
 * Call order: init, then any number of describe and run_suite, then
 * shutdown.  A hook that fails returns -1 and leaves a one-line reason
 * (lowercase, no full stop) for last_error.
 *
 * Ownership: the table and the strings it returns (name, last_error, the
 * suite names) are static data of the backend.  struct bench_device
 * (profile/device.h) is caller-allocated plain data.  run_suite appends
 * figures to the caller's list, which owns them (see profile/figure.h).
 */
#ifndef GPUPLAN_BENCH_BACKEND_H
#define GPUPLAN_BENCH_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/measure.h"
#include "bench/program_abi.h"
#include "model/graph.h"
#include "profile/device.h"
#include "profile/figure.h"

#define BENCH_BACKEND_ABI_VERSION 2

struct bench_run_options {
	bool quick;		/* fewer sizes, shorter caps */
	int threads;		/* CPU threads; <= 0: the backend's default */
	const struct measure_policy *policy;	/* NULL: the suite's own */
	/* the model suite (model_sweep.h); model NULL: no model given */
	const struct model_graph *model;
	const char *model_name;
	enum bench_precision precision;	/* 0: the device's default (fp32 on the
					 * CPU, bf16 on GPUs that have it) */
	uint64_t memory_limit;		/* CPU: bytes a model step may hold;
					 * 0: 90% of MemAvailable */
	/* the training suites (train-gemm, overlap, spread, layer): the
	 * micro-batch and tensor-parallel degree the model's products are
	 * cut for (train_shapes.h), and each figure's sustained phase, s
	 * (measure.h: sustain_policy_of) */
	long micro_batch, tp;
	double sustain_s;
};

/*
 * Called before each measurement step with what it measures ("membw
 * 1 MiB: copy, scale, add, triad") and how far the suite has got: figures
 * done so far and the figures the suite expects in all (an upper bound: a
 * sweep that stops early at a plateau finishes below it).
 */
typedef void (*bench_progress_fn)(void *ctx, const char *what, size_t done,
				  size_t total);

struct bench_backend {
	uint32_t abi_version;	/* BENCH_BACKEND_ABI_VERSION */
	uint32_t struct_size;	/* sizeof(struct bench_backend) as built */
	const char *name;	/* "cpu" */

	int (*init)(void);
	/* The device's identity; fills every field of out. */
	int (*describe)(struct bench_device *out);
	/* 1 when the backend has the suite, else 0 (and run_suite fails). */
	int (*has_suite)(const char *suite);
	/* Measures one suite, appending its figures to out.  Faults met on
	 * the way (profile/fault.h: a job that fails, a lost device, memory
	 * that runs out, a timer that lies) are recorded in out->faults and
	 * the suite goes on, or ends where the device is lost: still 0.
	 * -1 (last_error) only when the suite cannot run at all (no model for
	 * the model suite, an unknown suite); the figures measured before
	 * stay in out.  A suite that needs a device lost earlier in the run
	 * does not run: it is named in that loss's `ended`.  progress may be
	 * NULL. */
	int (*run_suite)(const char *suite, const struct bench_run_options *o,
			 struct bench_figures *out, bench_progress_fn progress,
			 void *progress_ctx);
	/* The repetition policy the suites use when the options give none
	 * (the model suite has its own, model_sweep.h). */
	struct measure_policy (*policy)(bool quick);
	void (*shutdown)(void);
	const char *(*last_error)(void);
};

/* Every suite name a backend may offer: bench_suite_names, declared in
 * profile/figure.h (a figure's suite is one of them). */

/* 0 when b can be used; -1 with why when its version, size or a required
 * hook is wrong. */
int bench_backend_check(const struct bench_backend *b, char *why, size_t len);

/* The built-in CPU backend (backend_cpu.c): gemm, membw, transfer, and
 * model when the options carry one. */
const struct bench_backend *bench_backend_cpu(void);

/* The CUDA backend (backend_cuda.c) for device cuda:N: init loads the
 * plugin (plugin_loader.h); every suite of bench_suite_names. */
const struct bench_backend *bench_backend_cuda(int device);

#endif

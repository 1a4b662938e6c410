/*
 * profile.h - the measured profile, `schema: gpuplan/measured/v1`: what
 * `gpuplan bench` writes and what fit and compare will read.
 *
 *   schema: gpuplan/measured/v1
 *   tool: {name: gpuplan, version: "0.1.0"}
 *   when: "2025-06-01T12:00:00Z"       UTC; the one field a rerun changes
 *   host: hostname, kernel, cpu_model, logical_cpus, physical_cores,
 *         memory_bytes, l1d_bytes, l2_bytes, l3_bytes, l3_instances (each
 *         when known; l3_instances only beside l3_bytes, and absent in
 *         profiles from before it was recorded, read as one L3)
 *   device: {kind: cpu|cuda, name: "...", index (cuda), and for a GPU its
 *            UUID, PCI bus id, compute capability, SMs, memory, clocks,
 *            driver and runtime versions, the plugin's build line and the
 *            GPUs on the host (profile_gpu.c)}
 *   options: suites [..], quick, threads, policy {warmup, min_reps,
 *            max_reps, rel_half_width, time_cap_s}, model {name, seq,
 *            policy, step_cap_s, max_batch, and with a training suite
 *            micro_batch, tp, sustain_s} (with --model)
 *   notes: ["..."]   what the suites skipped or where a sweep stopped, why
 *   faults: [...]    what went wrong while measuring, where, and which
 *            figures are therefore missing or marked (fault.h,
 *            profile_fault.c); absent in profiles from before faults were
 *            recorded, read as none
 *   figures: one mapping per figure:
 *     suite, name, kernel, unit (FLOP/s, OP/s, B/s or launch/s),
 *     parameters: {precision, m, n, k, bytes, elements, batch, seq,
 *                  memory_bytes, from_gpu, to_gpu, gpus, gpu,
 *                  occurrences} (those that apply), threads, iterations
 *     work        FLOPs, operations, bytes or launches per repetition
 *     value, low, high          the rate and its 95% interval, in unit
 *     throttled: true           only when the GPU slowed its clocks while
 *                               it ran (a throttled fault lists it)
 *     clocks: {samples, sm_clock_median_hz, power_median_w,
 *              temperature_max_c, throttle: [names]}
 *                               a sustained figure on the sampled GPU
 *                               with samples in its steady part
 *                               (samples.h: gpu_window; each reading
 *                               only when a sample held it; checked
 *                               against the samples)
 *     time: median_s, ci_low_s, ci_high_s, n, converged, has_ci,
 *           elapsed_s, rejected (timer readings discarded, only when
 *           some were), too_few: true (only when that left fewer good
 *           repetitions than the policy's minimum), samples_s [every kept
 *           repetition, s, in the order run]
 *   sampling: (cuda only) interval_s, note (why there are no samples),
 *             throttled, reasons_seen, samples [{t_s, sm_clock_hz,
 *             mem_clock_hz, temperature_c, power_w, throttle, during}]
 *
 * Numbers are written with %.17g, so a write and a load give back the same
 * doubles bit for bit.  The loader reads the file as outside input, and
 * is strict: an unknown key, a missing one, a value of the wrong type, a
 * name holding a line break, a tab or a control character (names are
 * read with yr_name, free text with yr_string), a number that is not
 * finite or is negative, a time or work that is not > 0, a count out of
 * its range, a date that is not on the calendar, a summary that does not
 * follow from the repetitions beside it (median_s, n, value), work that is
 * not its suite's rule (figure.h) for the parameters, a throttled flag or
 * a mark the samples and faults do not bear out, two figures of one name,
 * or a GPU the host does not have is an error with file:line:column.
 * Counts are checked before anything is sized by them.
 *
 * The code, bottom up: profile.c (init, free, stamp); the scalars every
 * writer and reader uses, profile_emit.c and profile_read.c; the sections
 * with parts of their own, profile_figure.c (read), profile_gpu.c (device
 * and sampling, and bench_profile_mark_throttled) and profile_fault.c
 * (faults and the cross-checks); on top, profile_write.c (emit, write,
 * render) and profile_load.c (load, parse).
 *
 * Ownership: struct bench_profile owns its strings and figures; free with
 * bench_profile_free.  bench_profile_write copies nothing it is given.
 */
#ifndef GPUPLAN_PROFILE_PROFILE_H
#define GPUPLAN_PROFILE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/error.h"
#include "profile/device.h"
#include "profile/figure.h"
#include "profile/samples.h"
#include "profile/timing.h"

#define BENCH_PROFILE_SCHEMA "gpuplan/measured/v1"
#define BENCH_PROFILE_MAX_SUITES 12

struct bench_profile {
	char tool_version[32];
	char when[32];			/* "2025-06-01T12:00:00Z" */
	char hostname[256];
	char kernel[256];		/* uname: sysname release machine */
	struct bench_device device;	/* kind, name and the host CPU */
	char suites[BENCH_PROFILE_MAX_SUITES][16];
	size_t n_suites;
	bool quick;
	int threads;			/* threads the kernels ran on */
	struct measure_policy policy;	/* clock is NULL */
	char model_name[64];		/* --model's name; "" when none */
	long model_seq;			/* tokens per sample it was built for; 0: not a sequence model */
	/* the model sweep's own policy and caps (bench/model_sweep.h) */
	struct measure_policy model_policy;
	double model_step_cap_s;
	long model_max_batch;
	/* the training suites (bench/train_shapes.h): the micro-batch and the
	 * tensor-parallel degree the model's GEMMs were cut for, and the
	 * seconds of each figure's sustained phase; 0 when none ran */
	long train_micro_batch, train_tp;
	double sustain_s;
	struct bench_figures figures;	/* with the suites' notes */
	/* kind cuda: NVML samples, or none and sampling_note saying why */
	struct gpu_samples samples;
	char sampling_note[256];
};

/* Zeroes p and its figure list. */
void bench_profile_init(struct bench_profile *p);
void bench_profile_free(struct bench_profile *p);

/* Fills tool_version, when (now, UTC), hostname and kernel. */
void bench_profile_stamp(struct bench_profile *p);

/* After a GPU run: marks each figure during which a sample showed a
 * slowing throttle reason (matched by label, figure.h) and adds one
 * throttled fault per suite listing them.  Nothing when the run was not
 * throttled. */
void bench_profile_mark_throttled(struct bench_profile *p);

/* After a GPU run: each sustained figure (figure.h) that ran on the
 * sampled GPU gets the window of its steady part (gpu_samples_window over
 * its time.elapsed_s).  Nothing without samples. */
void bench_profile_window_clocks(struct bench_profile *p);

/* The window a sustained figure f of p gets (all zero for any other). */
void bench_profile_figure_window(const struct bench_profile *p,
				 const struct bench_figure *f,
				 struct gpu_window *out);

/* Writes p as YAML to f.  Whatever p holds, the loader takes the text
 * back: a name read from the system or a plugin's message holding a
 * control character, tab (in a name) or byte that is not UTF-8 is written
 * spelt out as term_escape does ("\x1b"), not raw. */
void bench_profile_emit(const struct bench_profile *p, FILE *f);

/* Writes p to path atomically.  Returns ATOMIC_OK, or ATOMIC_FAILED or
 * ATOMIC_REFUSED (atomic_file.h: path is one of this run's inputs, a
 * folder) with why. */
int bench_profile_write(const struct bench_profile *p, const char *path,
			char *why, size_t len);

/* What emit writes of p, to path atomically (the profile, or its
 * Prometheus form).  Returns as bench_profile_write. */
int bench_profile_write_with(void (*emit)(const struct bench_profile *, FILE *),
			     const struct bench_profile *p, const char *path,
			     char *why, size_t len);

/* What emit writes of p, in a buffer of *size bytes the caller frees;
 * NULL when memory ran out. */
char *bench_profile_render(void (*emit)(const struct bench_profile *, FILE *),
			   const struct bench_profile *p, size_t *size);

/* Loads path into p (initialised here).  Returns 0, or -1 with every
 * problem in errs (p then empty but safe to free). */
int bench_profile_load(struct bench_profile *p, const char *path,
		       struct gp_errors *errs);

/* The same from memory; name is used in messages. */
int bench_profile_parse(struct bench_profile *p, const char *name,
			const char *buf, size_t len, struct gp_errors *errs);

#endif

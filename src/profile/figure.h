/*
 * figure.h - one measured figure of a benchmark suite, and a list of them.
 *
 * A figure is a rate: the work one repetition does (FLOPs or bytes, counted
 * by the suite's rule, stated where the suite defines it) divided by the
 * median time of a repetition.  The 95% interval of the median time maps to
 * an interval of the rate with its ends swapped: the slow end of the times
 * (ci_high) gives the low rate.
 *
 * Counting rules, per suite:
 *   gemm      2*m*n*k FLOPs per call (one multiply and one add per term of
 *             every output element; the beta*C term is not counted, beta is 0);
 *   membw     STREAM's bytes: 2 arrays x 8 B x n for copy and scale,
 *             3 arrays x 8 B x n for add and triad; write-allocate traffic
 *             (reading a line before writing it) is not counted, as STREAM
 *             does not count it;
 *   transfer  the bytes copied, counted once (not read plus write); both
 *             directions' bytes for a bidirectional peer copy;
 *   copy, triad (GPU memory kernels)  as membw: 2 and 3 arrays x bytes;
 *   allreduce nccl-tests' bus bandwidth: work is S x 2(n-1)/n bytes for
 *             S bytes per GPU over n GPUs (the algorithm bandwidth, S / t,
 *             is value x n / (2(n-1)));
 *   launch    one launch per call; the unit is launches/s (its inverse is
 *             the latency);
 *   model     the model's forward FLOPs for the batch (model_cost: what
 *             the planner counts), per step;
 *   train-gemm, overlap, spread   as gemm: 2*m*n*k FLOPs per call, m, n
 *             and k as the GEMM was called (column-major, the output
 *             m x n: bench/train_shapes.h);
 *   layer     the FLOPs of the layer's forward and backward program
 *             (bench_program_flops), per micro-batch.
 * The training suites (train-gemm, overlap, spread, layer) are sustained
 * (bench/measure.h, measure_sustained): their repetitions are those of
 * the steady part of a phase of options.sustain_s seconds, and on a GPU
 * the NVML samples of that part are summarised beside each figure
 * (`clocks`, samples.h).
 * A repetition may run the kernel several times (`iterations`) so that it
 * lasts long enough to time; work is then the per-call work times that.
 *
 * Ownership: a bench_figure owns its measure_result's samples; a
 * bench_figures list owns its figures.  bench_figures_free frees both.
 * unit is a static string.
 */
#ifndef GPUPLAN_PROFILE_FIGURE_H
#define GPUPLAN_PROFILE_FIGURE_H

#include <stdbool.h>
#include <stddef.h>

#include "profile/fault.h"
#include "profile/samples.h"
#include "profile/timing.h"

struct bench_figure {
	char suite[16];		/* "gemm", "membw", "transfer" */
	char name[64];		/* "fp32 m=n=k=2048", "triad 256 MiB", "memcpy 64 MiB" */
	char kernel[16];	/* "dgemm", "sgemm", "copy", "scale", "add", "triad", "memcpy" */
	/* parameters; one that does not apply to the suite is 0 or "" */
	char precision[8];	/* "fp64", "fp32" */
	long m, n, k;		/* GEMM dimensions */
	double bytes;		/* membw: footprint of the arrays allocated; transfer: size copied; B */
	double elements;	/* membw: elements per array */
	long batch, seq;	/* model: samples per step, tokens per sample (0: not a sequence model) */
	double memory_bytes;	/* model: memory the step held (buffers, device workspace), B */
	int from_gpu, to_gpu;	/* p2p: source and destination device (kernels p2p*) */
	int gpus;		/* allreduce, overlap: GPUs taking part */
	int gpu;		/* spread: the device the figure ran on */
	long occurrences;	/* train-gemm: GEMMs of this shape in one
				 * micro-batch's forward pass (0: not given) */
	/* sustained figures on the sampled GPU: the NVML samples of their
	 * steady part (samples.h); clocks.samples 0: none */
	struct gpu_window clocks;
	int threads;		/* threads the kernel ran on */
	long iterations;	/* kernel calls per repetition */
	double work;		/* per repetition: FLOPs or bytes, integer-valued */
	struct measure_result time;	/* s per repetition */
	double value;		/* work / time.median, in unit */
	double low, high;	/* work / time.ci_high, work / time.ci_low */
	const char *unit;	/* "FLOP/s", "B/s" or "launch/s" */
	bool throttled;		/* a GPU sample taken while it ran showed a
				 * slowing throttle reason (fault.h) */
	/* measured while other programs held the cores, after retries
	 * (host_quiet.h): the evidence; "" when the host was quiet */
	char disturbed[200];
};

/* Every suite name a backend may offer, in the order a run measures them:
 * gemm, membw, transfer, p2p, allreduce, launch, model, train-gemm,
 * overlap, spread, layer; NULL-terminated (a figure's suite, and
 * options.suites in a profile, are among them). */
extern const char *const bench_suite_names[];

/* Whether suite runs the training suites' sustained loop (above). */
bool bench_suite_sustained(const char *suite);

/* Whether suite needs the model (--model): model and the training suites. */
bool bench_suite_needs_model(const char *suite);

/* Figures, the notes a suite left on the way (a skipped pair, a sweep
 * stopped by the device's memory) and the faults met (fault.h). */
struct bench_figures {
	struct bench_figure *v;
	size_t n, cap;
	char **notes;
	size_t n_notes, cap_notes;
	struct bench_faults faults;
};

/* Adds a note (formatted, copied). */
void bench_figures_note(struct bench_figures *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void bench_figures_init(struct bench_figures *l);
void bench_figures_free(struct bench_figures *l);

/* Appends a copy of f (taking over its samples) and returns the copy. */
struct bench_figure *bench_figures_push(struct bench_figures *l,
					const struct bench_figure *f);

/* The work one iteration does by the figure's suite's rule (above), from
 * its suite, kernel and parameters; < 0 where the rule needs what the
 * figure does not hold (a model's FLOPs come from the model).  The CUDA
 * suites count with it and the profile loader checks with it. */
double bench_figure_rule_work(const struct bench_figure *f);

/* Fills value, low and high from work and time (0 when the median is not
 * positive, which a real clock never gives). */
void bench_figure_rate(struct bench_figure *f);

/* What the progress line and the GPU sampler call a figure, and what a
 * sample's `during` holds while it runs: "<suite> <name>", or the name
 * alone when it starts with the suite's name and a space or a dash
 * ("p2p 0->1 64 MiB", "p2p-bidir 0->1 64 MiB").  At most
 * BENCH_LABEL_MAX - 1 bytes. */
#define BENCH_LABEL_MAX 96
void bench_figure_label(const struct bench_figure *f, char *buf, size_t len);

/*
 * Records what discarded timer readings did to f (timing.h), after a
 * measurement of it: nothing when none were; else a bad-timer fault that
 * marks f when it is kept (kept: it is, or is about to be, in l) or names
 * it missing when no reading was good.
 */
void bench_figures_timer_fault(struct bench_figures *l,
			       const struct bench_figure *f, bool kept);

/* A size an out-of-memory fault f keeps from being tried (a larger one of
 * the same series): named missing under f, which says so once. */
void bench_fault_skip(struct bench_fault *f, const char *name);

#endif

/*
 * curves.h - the scaling curves `gpuplan fit` draws from measured profiles
 * (gpuplan/measured/v1, src/profile/profile.h), one per series of figures:
 *
 *   transfer      t = latency_s + bytes x s_per_byte, per transfer kind
 *                 (h2d-pinned, memcpy, ...) and for GPU to GPU copies
 *                 (p2p one way, p2p-bidir both ways; every pair of GPUs
 *                 on one series: pairs on links of different speeds miss
 *                 the line and the fit says so): its bandwidth is
 *                 1 / s_per_byte, bytes as the figure counts them (both
 *                 directions for p2p-bidir)
 *   collective    t = latency_s + bus_bytes x s_per_byte, an all-reduce
 *                 per precision and GPU count, bus bytes as nccl-tests
 *                 counts them (S x 2(n-1)/n for S bytes reduced): its
 *                 bus bandwidth is 1 / s_per_byte
 *   step_time     t = fixed_s + batch x per_sample_s, the model sweep's
 *                 step: its throughput ceiling is 1 / per_sample_s
 *   step_memory   m = fixed_bytes + batch x per_sample_bytes, the memory
 *                 the step held: weights and workspace, and activations
 *                 per sample
 *   gemm          rate = peak x n / (n + half_n), per precision: small
 *                 GEMMs run below the peak
 *   scaling       t = fixed_s + parallel_s / ranks, a model step at one
 *                 batch against the ranks it ran on, from profiles of one
 *                 CPU measured at several thread counts (curves_scaling):
 *                 parallel_s is the work that divides over the ranks,
 *                 fixed_s what does not (serial work, and communication
 *                 that does not shrink: a ring all-reduce moves 2(n-1)/n
 *                 of the data per rank, nearly constant); the parallel
 *                 efficiency it implies at n ranks is
 *                 t(1) / (n t(n)) = (fixed_s + parallel_s) /
 *                 (n fixed_s + parallel_s).  A GPU profile is measured
 *                 on one GPU, so only CPU profiles give this series yet
 *   membw         rate = peak x bytes / (bytes + half_bytes), per kernel,
 *                 on GPUs
 *   membw_memory  t = latency_s + bytes x s_per_byte, per kernel, on a
 *                 CPU, over the footprints resident in memory
 *                 (profile/stream_rule.h), bytes as STREAM counts them:
 *                 the memory's rate is 1 / s_per_byte.  A CPU's rate steps
 *                 down with each cache a footprint outgrows, which no one
 *                 curve of this kind follows: the footprints inside a
 *                 cache are left out, saying so
 *
 * The training suites' figures (train-gemm, overlap, spread, layer) make
 * no curve either: they are terms of the training model, each from its
 * suite's figures (train_terms.h).
 *
 * A figure measured at one setting only is no curve: the launch suite's
 * (an empty kernel's launches per second) is kept as a measured rate, its
 * value and 95% interval as the profile has them.
 *
 * A figure measured on a busy host (disturbed), while the GPU throttled,
 * or with too few good repetitions is not a point: it is counted and the
 * curve says how many were left out and why.  A curve the fit refuses
 * (lsq.h) is kept with its reason, and not written as a curve.
 *
 * Ownership: a curve_list owns its curves and their points; free with
 * curve_list_free().
 */
#ifndef GPUPLAN_FIT_CURVES_H
#define GPUPLAN_FIT_CURVES_H

#include <stdbool.h>
#include <stddef.h>

#include "fit/lsq.h"
#include "fit/train_terms.h"

struct bench_profile;

enum curve_kind {
	CURVE_TRANSFER, CURVE_STEP_TIME, CURVE_STEP_MEMORY, CURVE_GEMM,
	CURVE_MEMBW, CURVE_SCALING, CURVE_MEMBW_MEMORY, CURVE_COLLECTIVE,
	CURVE_KINDS
};

/* A kind's form and names. */
struct curve_form {
	const char *kind;	/* "transfer", as in the fitted file */
	enum fit_form form;
	const char *x, *y;	/* "bytes", "s" */
	const char *param[FIT_PARAMS];	/* "latency_s", "s_per_byte" */
	enum fit_sign sign[FIT_PARAMS];
	const char *equation;	/* "t = latency_s + bytes x s_per_byte" */
};

const struct curve_form *curve_form(enum curve_kind k);
/* The kind named name ("transfer"), or -1. */
int curve_kind_of(const char *name);

struct scaling_curve {
	enum curve_kind kind;
	char name[96];		/* "transfer h2d-pinned", "gemm fp32" */
	char source[256];	/* the profile, as named */
	char device[300];	/* "cpu: AMD EPYC", "cuda: NVIDIA H200" */
	char measured[32];	/* the profile's `when`, UTC */
	bool ok;		/* fitted; else why says why not */
	char why[256];
	struct fit fit;
	size_t n;		/* points */
	double *x, *y;
	size_t left_out;	/* figures of the series not used */
	char left_out_why[200];	/* their reasons, joined */
};

/* A figure that is no curve (above), or why it was left out. */
struct measured_rate {
	char name[96];		/* "empty kernel launch" */
	char source[256];
	char device[300];
	char measured[32];
	char unit[16];		/* "launch/s" */
	double value, low, high;	/* the rate and its 95% interval */
	bool ok;		/* usable; else why says why not */
	char why[120];
};

struct curve_list {
	struct scaling_curve *v;
	size_t n, cap;
	struct measured_rate *rates;
	size_t n_rates, cap_rates;
	/* each profile's training terms (train_terms.h), when it ran a
	 * training suite */
	struct train_terms *train;
	size_t n_train, cap_train;
};

/* Appends p's curves (named by `source`) to out, and its training terms
 * when it ran a training suite. */
void curves_from_profile(const struct bench_profile *p, const char *source,
			 struct curve_list *out);

/* Appends, for n profiles (named names[i]) of one CPU at two or more
 * thread counts, a scaling series per model step (figure name and
 * precision) measured at two or more of them.  Profiles of another device
 * than the first, or of a GPU, are not used. */
void curves_scaling(const struct bench_profile *const *p,
		    const char *const *names, size_t n, struct curve_list *out);

/* The parallel efficiency a scaling curve implies at `ranks`. */
double curve_scaling_efficiency(const struct fit *f, double ranks);

/* A new curve at the end of l, zeroed. */
struct scaling_curve *curve_list_add(struct curve_list *l);

/* Training terms at the end of l's, zeroed. */
struct train_terms *curve_list_add_train(struct curve_list *l);

/* A new measured rate at the end of l's, zeroed. */
struct measured_rate *curve_list_add_rate(struct curve_list *l);

void curve_list_free(struct curve_list *l);

#endif

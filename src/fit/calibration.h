/*
 * calibration.h - what `gpuplan plan --profile FILE` takes from a fitted
 * file (or a measured profile, fitted as it is read): the sample device's
 * measured rates, each a fitted curve whose parameters carry their
 * covariance, so a plan can say how far its figures may move.
 *
 *   gemm PREC     matrix rate against size: peak x n / (n + half_n)
 *   memory        a streaming kernel's rate, bytes as STREAM counts
 *                 them: on a GPU the `membw triad` (else another kernel's)
 *                 curve's peak; on a CPU `membw triad in memory`'s
 *                 1 / s_per_byte, the rate past every cache (curves.h)
 *   host link     `transfer h2d-pinned`: 1 / s_per_byte
 *   GPU link      `allreduce PREC x N GPUs` (the most GPUs measured):
 *                 the bus bandwidth 1 / s_per_byte
 *   launch        the rate `empty kernel launch` (launch/s): the host's
 *                 floor per kernel launched, 1 / rate
 *   model step    `model NAME PREC step time`: a forward pass keeping its
 *                 activations (model_sweep.h), fixed_s + batch x
 *                 per_sample_s
 *   training      the training suites' terms (train_terms.h): the model's
 *                 sustained matmul rate, the GEMM's slowdown beside a
 *                 collective, the spread of its rate across GPUs, a
 *                 layer's time; each from the latest profile that gives it
 *
 * A calibration is of one device: curves from two devices are refused.
 * Uncertainty is drawn by Monte Carlo: each curve's two parameters from
 * the normal distribution of its fit (the covariance's Cholesky factor),
 * every curve independently (their measurements were), held above zero.
 *
 * Ownership: struct calibration owns its curve list; the curve pointers
 * point into it.  Free with calibration_free.
 */
#ifndef GPUPLAN_FIT_CALIBRATION_H
#define GPUPLAN_FIT_CALIBRATION_H

#include <stdbool.h>

#include <gsl/gsl_rng.h>

#include "core/error.h"
#include "core/precision.h"
#include "fit/curves.h"

/* Monte Carlo draws per figure: the 2.5th and 97.5th percentiles of 1000
 * draws move by about 1% of the range between seeds. */
#define CALIBRATION_DRAWS 1000

struct calibration {
	struct curve_list curves;
	char file[256];			/* as given on the command line */
	char device[300];		/* "cpu: AMD EPYC" */
	char measured[32];		/* the latest profile's `when` */
	bool gpu;			/* measured on a CUDA device */
	const struct scaling_curve *gemm[PREC_COUNT];
	const struct scaling_curve *memory;	/* NULL: none measured */
	const struct scaling_curve *host_link;	/* NULL: none measured */
	const struct scaling_curve *collective;	/* NULL: none measured */
	const struct measured_rate *launch;	/* NULL: none measured */
	int collective_gpus;			/* the GPUs it ran on */
	/* the training terms, each the latest given (NULL: none); the term
	 * itself is the member of the same name */
	const struct train_terms *matmul, *overlap, *spread, *layer;
};

/*
 * Reads path (a fitted file, or a measured profile fitted here), shown as
 * `shown` in messages.  0, or -1 with every problem in errs (c then only
 * to be freed).  A file with no fitted curve, or curves of two devices,
 * is a problem.
 */
int calibration_load(struct calibration *c, const char *path,
		     const char *shown, struct gp_errors *errs);
void calibration_free(struct calibration *c);

/* The forward step curve of model `model` at precision p, or NULL. */
const struct scaling_curve *calibration_step(const struct calibration *c,
					     const char *model, enum precision p);

/* The memory rate, B/s read plus written, at parameters q of the memory
 * curve (its fitted values or a draw); 0 when none was measured. */
double calibration_memory_rate(const struct calibration *c, const double q[2]);

/* A line's rate, B/s, at its parameters q: 1 / s_per_byte (the host
 * link's rate, an all-reduce's bus bandwidth). */
double calibration_link_rate(const double q[2]);

/* The curve's fitted parameters into q. */
void calibration_values(const struct scaling_curve *s, double q[2]);

/* One draw of the curve's parameters into q (see above). */
void calibration_draw(const struct scaling_curve *s, gsl_rng *r, double q[2]);

/* A generator for the draws, seeded alike on every run (same inputs, same
 * bytes out).  Free with gsl_rng_free. */
gsl_rng *calibration_rng(void);

/* The 2.5th, 50th and 97.5th percentiles of v[0..n-1] (reordered). */
void calibration_percentiles(double *v, size_t n, double *low,
			     double *median, double *high);

#endif

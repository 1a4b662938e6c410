/*
 * calibrate.h - what `plan --profile` changes in the planner's catalog
 * figures: the measured fractions of the sample device's datasheet,
 * carried to every accelerator.
 *
 * Where the sample device is a catalog accelerator (a GPU named by the
 * catalog, or by --profile-accelerator), each measured rate over that
 * accelerator's datasheet figure replaces an assumed efficiency:
 *   compute    the GEMM curve's peak at the measured precision with the
 *              highest datasheet peak, over that peak;
 *   memory     the membw curve's peak over the datasheet bandwidth;
 *   host link  the pinned host-to-device rate over half the host
 *              interface's bidirectional figure;
 *   GPU link   the all-reduce's bus bandwidth on the most GPUs measured
 *              over half the GPU interconnect's bidirectional figure (the
 *              one-way rate a ring's every step runs at, collective.c).
 * The training suites' terms (fit/train_terms.h), when measured on a GPU:
 *   compute    the model's own GEMMs, sustained on random data, replace
 *              the square GEMM curve: the ceiling is their time as the
 *              planner would price it (each GEMM of a product at the shape
 *              factor of the product's forward GEMM, matrix_eff.h, as the
 *              training step prices a backward at three times the
 *              forward), sum(W / shape) / (sustained peak x sum(W /
 *              rate)), so the planner gives back the measured time on the
 *              sample device; its interval from the rate's;
 *   overlap_slowdown, straggler_cv   the overlap suite's slowdown (held
 *              at 0 when the measurement says a speed-up) and the spread
 *              suite's coefficient of variation, with their 95%
 *              intervals, carried as they are to every instance (the
 *              sample node's, an assumption the plan states), on any GPU
 *              the catalog names or not, like the launch floor.
 * A GPU's host launch rate (the launch suite's empty kernels) is the
 * floor per kernel a serving engine launches from the host
 * (efficiency.h: stream_floor), carried as it is to every instance, the
 * catalog's accelerator or not: it is the host's and the driver's, not a
 * datasheet's (an assumption the plan states: the rented host launches as
 * fast as the sample one).
 * Every accelerator then runs at the same fractions of its own datasheet
 * (an assumption the plan states: a fraction measured on one part is taken
 * to hold on the others), and the sample accelerator at exactly its
 * measured rates.  Each replaced figure's provenance says "measured on
 * DEVICE, DATE".  A CPU, or a GPU the catalog does not name, carries
 * nothing: its rates are only the sample device's (sample_device.h), and
 * the plan says why.
 *
 * Ranges: the fractions are linear in the fitted peaks, so their 95%
 * intervals are the peaks' over the datasheet's (the delta method, exact
 * here).  An option's time moves with its compute-bound part at the
 * compute fraction's 95% interval and its memory-bound part at the
 * memory fraction's (plan.c: plan_option ranges); a service's replica
 * count is not re-sized within them.  The links' fractions are carried at
 * their fitted values: their spread does not enter the ranges.
 *
 * Ownership: struct carried holds its strings; the settings point at it,
 * so it must outlive the plan.
 */
#ifndef GPUPLAN_HWMODEL_CALIBRATE_H
#define GPUPLAN_HWMODEL_CALIBRATE_H

#include <stdbool.h>

#include "catalog/catalog.h"
#include "hwmodel/efficiency.h"
#include "fit/calibration.h"

struct carried {
	const struct calibration *cal;
	const struct accelerator *acc;	/* the sample device's entry; NULL:
					 * nothing carried */
	char note[1200];			/* what was carried, or why not */
	char refused[600];		/* rates above the datasheet, not carried */
	bool compute, memory, host_link, link, launch;	/* which were replaced */
	double compute_half, memory_half;	/* the fractions' 95% half-widths */
	char compute_from[1200], memory_from[1200], host_link_from[1200];
	char link_from[1200], launch_from[1200];
	/* the training terms carried (above): compute from the model's own
	 * GEMMs; the overlap slowdown and straggler spread with their 95%
	 * intervals (asymmetric: the spread's is a chi-square interval) */
	bool matmul, overlap, straggler;
	double overlap_low, overlap_high, straggler_low, straggler_high;
	char overlap_from[1200], straggler_from[1200];
};

/*
 * Matches c's device to an accelerator of cat (acc_name: the one named by
 * --profile-accelerator, or NULL to match by name) and, when one matches,
 * replaces e's figures.  -1 with why when acc_name is not in the catalog
 * (a usage problem); else 0, with out->note saying what happened.
 */
int calibrate_carry(const struct calibration *c, const struct catalog *cat,
		    const char *acc_name, struct efficiency *e,
		    struct carried *out, char *why, size_t len);

/* The factor, low and high, that moves a time of `compute` s bound by
 * compute and `memory` s bound by memory, out of `total`, across the
 * fractions' 95% intervals. */
void calibrate_time_factors(const struct carried *k, const struct efficiency *e,
			    double compute, double memory, double total,
			    double *low, double *high);

#endif

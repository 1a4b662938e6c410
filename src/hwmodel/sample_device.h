/*
 * sample_device.h - a workload on the device `gpuplan bench` measured
 * (`plan --profile`): its figures from the measurement alone, each with
 * the range the fits' uncertainty gives it.
 *
 * Two ways, both reported where both apply:
 *   the model's own step   when the profile swept this workload's model
 *                          (an image model: the fitted file does not
 *                          record a sweep's sequence length, so a
 *                          sequence model is never matched), its fitted
 *                          forward step fixed_s + batch x per_sample_s,
 *                          used as it is;
 *   the measured kernels   the planner's roofline of the model's ops
 *                          (roofline.h) on the device as measured: matrix
 *                          ops at the fitted GEMM curve of the precision
 *                          (the nearest wider one measured when the
 *                          device lacks it), other ops at the measured
 *                          memory rate, no efficiency applied on top (the
 *                          rates are what the device sustained).
 * The first is used when present, else the second.  A training step is the
 * forward pass and a backward of twice its work (Kaplan et al. 2020, as
 * train_step.c); the run is the workload's steps of its global batch on
 * the one device.  A service's figure is one request alone (batch 1, its
 * prompt for a sequence model).  Memory capacity is not checked: the
 * fitted file does not carry the device's.
 *
 * Ranges: CALIBRATION_DRAWS Monte Carlo draws of every curve used
 * (calibration.h); low, median and high are their 2.5th, 50th and 97.5th
 * percentiles.
 */
#ifndef GPUPLAN_HWMODEL_SAMPLE_DEVICE_H
#define GPUPLAN_HWMODEL_SAMPLE_DEVICE_H

#include <stdbool.h>

#include "core/precision.h"
#include "fit/calibration.h"
#include "workload/workload.h"

struct sample_range {
	double low, median, high;
};

struct sample_estimate {
	bool present;			/* planned with a calibration */
	long batch, seq;		/* of the forward pass estimated */
	enum precision precision_used;	/* the GEMM curve's */
	bool from_step;			/* forward_s is the model's own step */
	bool has_kernels;		/* kernels_forward_s is valid */
	char kernels_why[200];		/* else why not */
	struct sample_range forward_s;	/* the figure used */
	struct sample_range kernels_forward_s;
	struct sample_range step_s;	/* training: forward + backward */
	struct sample_range run_s;	/* training: the whole run */
	struct sample_range per_s;	/* service: requests/s one device
					 * sustains, one at a time */
};

/* w on c's device into out.  -1 with why when the model cannot be built
 * at the workload's length (a model the planner itself refuses). */
int sample_estimate(const struct calibration *c, const struct workload *w,
		    struct sample_estimate *out, char *why, size_t len);

#endif

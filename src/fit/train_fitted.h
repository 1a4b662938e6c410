/*
 * train_fitted.h - the training terms' part of the fitted file
 * (fitted.h), written and strictly read back:
 *
 *   training:
 *     - source: "m.yaml"
 *       device: "cuda: NVIDIA H100 80GB HBM3"
 *       measured: "2026-12-07T10:00:00Z"
 *       model: "llama-2-7b"
 *       micro_batch: 1
 *       tp: 1
 *       sustain_s: 20
 *       matmul:                          # given terms only
 *         precision: bf16
 *         points:
 *           - {role: forward, m: 11008, n: 4096, k: 4096, occurrences: 64,
 *              rate: 6.1e14, ci95: [6.0e14, 6.2e14], sm_clock_median_hz: 1.755e9}
 *         throttle: "sw_power_cap"       # reasons seen, "" for none
 *         rate: 6.05e14                  # derived: checked
 *         ci95: [5.98e14, 6.1e14]
 *       overlap:
 *         beside: "allreduce x 8 GPUs"
 *         alone: 6.1e14
 *         alone_ci95: [..]
 *         with: 5.6e14
 *         with_ci95: [..]
 *         slowdown: 0.089                # derived: checked
 *         ci95: [0.07, 0.11]
 *       spread:
 *         gpus: [0, 1, ...]
 *         rates: [6.1e14, ...]
 *         mean: ..., cv: ..., ci95: [..], slowest_gpu: 3   # derived: checked
 *       layer: {precision: bf16, batch: 1, seq: 4096, seconds: 0.012,
 *               ci95: [0.0119, 0.0121]}
 *       not_given:                       # the terms left out, and why
 *         - {term: spread, why: "..."}
 *
 * A derived value that is not what its points give (to a relative 1e-9)
 * is refused, as a fitted curve is.  `training` is absent in files
 * without training terms (and those from before them).
 *
 * Ownership: the reader appends to the caller's curve_list.
 */
#ifndef GPUPLAN_FIT_TRAIN_FITTED_H
#define GPUPLAN_FIT_TRAIN_FITTED_H

#include <stdio.h>

#include "core/yaml_read.h"
#include "fit/curves.h"

void train_fitted_emit(const struct curve_list *l, FILE *f);

/* The `training:` list of root (absent: nothing) into out. */
void train_fitted_read(struct yread *r, const struct ynode *root,
		       struct curve_list *out);

#endif

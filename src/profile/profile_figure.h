/*
 * profile_figure.h - reading one figure of a measured profile's
 * `figures:`, and checking that its summary follows from its repetitions
 * (profile_figure.c).  Internal to src/profile: the loader
 * (profile_load.c) calls it; the writer writes figures itself.
 *
 * Ownership: the figure read is the caller's (its samples included).
 */
#ifndef GPUPLAN_PROFILE_PROFILE_FIGURE_H
#define GPUPLAN_PROFILE_PROFILE_FIGURE_H

#include "profile/figure.h"
#include "core/yaml_read.h"

/* One figure of `figures:`.  Returns 0 with f filled, or -1 after
 * reporting (f->time.samples may still need measure_result_free). */
int profile_read_figure(struct yread *r, const struct ynode *n,
			struct bench_figure *f);

#endif

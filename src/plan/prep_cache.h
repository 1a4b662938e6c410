/*
 * prep_cache.h - what planning a workload prepares (its built model, its
 * rooflines, the layouts it found per hardware), kept for the next
 * workloads that differ from it only in what does not change a step: the
 * name, the run's length, deadline, budget, spot, the instance and cluster
 * limits.  A workload file often lists such variants of one job; the last
 * few preparations are kept, the oldest dropped, so memory stays bounded
 * whatever the file's length.
 *
 * Ownership: the cache owns the preparations it hands out; they stay valid
 * until the next call for the same kind or prep_cache_free().
 */
#ifndef GPUPLAN_PLAN_PREP_CACHE_H
#define GPUPLAN_PLAN_PREP_CACHE_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "core/error.h"
#include "serve/serve.h"
#include "workload/workload.h"

struct train_prep;
struct prep_cache;

struct prep_cache *prep_cache_new(void);
void prep_cache_free(struct prep_cache *pc);

/* A training preparation for w: a kept one made for a workload with the
 * same step, rebound to w, else a new one (NULL with errs on failure). */
struct train_prep *prep_cache_training(struct prep_cache *pc,
				       const struct catalog *c,
				       const struct workload *w,
				       struct gp_errors *errs);

/* The same for serving (NULL with why on failure). */
struct serve_prep *prep_cache_serving(struct prep_cache *pc,
				      const struct workload *w, char *why,
				      size_t whylen);

#endif

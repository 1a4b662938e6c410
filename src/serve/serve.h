/*
 * serve.h - sizing an inference service: how many replicas of a model, at
 * which batch size, on which instance, meet a p99 latency target, and what
 * that costs a month.
 *
 * plan_inference() is called for every instance type, so the expensive
 * part (building the model's graphs, sorting their ops, the memory table)
 * is done once per workload by serve_prepare(); per instance the roofline
 * is then evaluated in O(log ops) per batch size (serve_prep.c says how).
 *
 * Ownership: serve_prepare() returns a struct the caller frees with
 * serve_prep_free(); it points at (and does not own) the workload, which
 * must outlive it, and at the accelerators of the catalog plan_inference()
 * is given, which must outlive it too.
 */
#ifndef GPUPLAN_SERVE_SERVE_H
#define GPUPLAN_SERVE_SERVE_H

#include <stddef.h>

#include "option/option.h"
#include "option/settings.h"
#include "serve/serve_prep.h"

/* A batch-served replica's simulation (dbatch.h): 20,000 requests, 18,000
 * measured, put the p99 between the 17,802nd and 17,838th of them (95%),
 * a few percent of its value for the services planned; a fixed seed gives
 * the same plan every run. */
#define SERVE_SIM_REQUESTS 20000
#define SERVE_SIM_SEED 20261201u

/*
 * Every sensible way to serve w on instance type `in`, appended to r: one
 * option on whole GPUs (tensor parallel where the model needs it) and one
 * per MIG profile that holds the model.  sp comes from serve_prepare(w).
 *
 * What does not depend on the price is found once per hardware signature
 * (accelerator, GPUs per instance, GPU-to-GPU link) and kept in sp, so a
 * catalog that repeats a machine under many names and prices costs one
 * sizing per machine and a copy and a multiplication per instance.  The
 * kept options hold for one set of efficiencies (s->eff): a call with
 * others finds them again.
 */
void plan_inference(const struct catalog *c, const struct instance *in,
		    const struct workload *w, struct serve_prep *sp,
		    const struct plan_settings *s, struct plan_result *r);

/* Fills r->curves for r's recommended option and runner-up (after
 * plan_choose()), with sp prepared for r's workload and the settings the
 * options were planned with. */
void plan_serving_curves(struct serve_prep *sp, const struct plan_settings *s,
			 struct plan_result *r);

/* Fills r->splits for r's recommended option when it is a token service
 * on whole GPUs (after plan_choose()): every split of a replica over its
 * instance's GPUs, sized again as the search sized it. */
void plan_serving_splits(struct serve_prep *sp, const struct plan_settings *s,
			 struct plan_result *r);

/* Why s lost to `chosen` (the first of the list), as a sentence fragment;
 * "chosen" for the chosen one. */
void plan_split_why(const struct plan_split *s, const struct plan_split *chosen,
		    char *buf, size_t len);

/*
 * One batch-served replica on d, batching up to max_batch samples (1 to
 * 2^(SERVE_BATCHES - 1)) with no queue delay, under traffic l, as the
 * planner simulates one (dbatch_simulate()'s return); *full gets S of a
 * full batch.  For records of such services (backtest.c).
 */
struct dbatch_load;
struct dbatch_result;
int serve_simulate_batched(const struct serve_prep *sp,
			   const struct serve_device *d, long max_batch,
			   const struct dbatch_load *l, double *full,
			   struct dbatch_result *out);

#endif

/*
 * train.h - the training estimator: for one workload on one instance type,
 * every cluster size with the fastest layout that fits memory (tensor,
 * pipeline and data parallelism, micro-batch, interleaving, ZeRO stage and
 * recomputation: train_layout.h), its step (train_step.h), run time, cost
 * and energy, appended to the workload's result as options.
 *
 * Ownership: train_prepare() returns a struct the caller frees with
 * train_prep_free(); it points at (and does not own) the catalog and the
 * workload, which must outlive it.  Options go into the caller's result.
 */
#ifndef GPUPLAN_TRAIN_TRAIN_H
#define GPUPLAN_TRAIN_TRAIN_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "core/error.h"
#include "model/graph.h"
#include "option/option.h"
#include "option/settings.h"
#include "workload/workload.h"

/*
 * The training estimator: every sensible option of one workload on one
 * instance type, appended to r.  Prices are converted to s->currency
 * through c.  What does not depend on the instance (the built model, its
 * memory accounting, roofline results per accelerator) is prepared once
 * per workload.
 */
struct train_prep;
struct train_prep *train_prepare(const struct catalog *c,
				 const struct workload *w,
				 struct gp_errors *errs);
void train_prep_free(struct train_prep *p);
/* Points p at w, a workload with the same step as the one p was made for
 * (prep_cache.c says which fields): its run length, deadline, budget and
 * limits are w's from now on. */
void train_prep_rebind(struct train_prep *p, const struct workload *w);
const struct model_graph *train_prep_graph(const struct train_prep *p);
/* FLOPs of one forward pass of one sample (the graph's sum). */
double train_prep_forward_flops(const struct train_prep *p);
/*
 * The estimate on exactly `nodes` instances like `in` (the backtest's
 * question, and a workload that fixes its cluster): the workload's layout
 * where it fixes one, the fastest layout that fits otherwise.  Appends one
 * option to r and returns it (infeasible, with its reasons, when nothing
 * fits), or NULL with a reason in why when no layout can use that many
 * GPUs (more data-parallel ranks than samples, a fixed layout that does
 * not divide the GPUs).
 */
struct plan_option *plan_training_at(struct train_prep *p,
				     const struct instance *in, long nodes,
				     const struct plan_settings *s,
				     struct plan_result *r, char *why,
				     size_t whylen);
void plan_training(struct train_prep *p, const struct instance *in,
		   const struct plan_settings *s, struct plan_result *r);
/* Fills r->layouts for r's recommended option (nothing when there is
 * none). */
void plan_training_layouts(struct train_prep *p, const struct plan_settings *s,
			   struct plan_result *r);

#endif

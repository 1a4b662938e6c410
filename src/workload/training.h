/*
 * training.h - a training workload's own fields (struct training,
 * workload.h), inside src/workload/ only: the run's length (tokens, or
 * samples x epochs), batch, optimizer, ZeRO stage, recomputation,
 * parallelism limits, the cluster a team has (instance, gpus or nodes,
 * layout), deadline, budget, spot and input pipeline; then the checks
 * that need the workload's model.
 *
 * Ownership: t->instance is allocated here and freed with the workload
 * (workload_file_free()).
 */
#ifndef GPUPLAN_WORKLOAD_TRAINING_H
#define GPUPLAN_WORKLOAD_TRAINING_H

#include <stdbool.h>

#include "core/yaml_read.h"
#include "model/model.h"
#include "workload.h"

/*
 * t's fields from map (`what` names the workload in messages); an
 * embedded item (inside an outcome) has no cluster keys and may leave the
 * run's length out.  0, or -1 after recording problems.
 */
int wl_read_training(struct yread *r, const struct ynode *map, const char *what,
		     bool embedded, struct training *t);

/*
 * What needs model m: tokens and seq on sequence models only, seq within
 * the model's limit (and that limit when not given); then, when the
 * fields read well (fields_ok), the run's totals and steps, with a batch
 * no bigger than the run.  0, or -1 after recording problems.
 */
int wl_check_training(struct yread *r, const struct ynode *map, const char *what,
		      const struct model *m, bool fields_ok, struct training *t);

#endif

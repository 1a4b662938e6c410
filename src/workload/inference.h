/*
 * inference.h - an inference workload's own fields (struct inference,
 * workload.h), inside src/workload/ only: the traffic (request rate,
 * prompt and output lengths, fixed or ranges), the latency targets, hours
 * of service a month and the KV cache's precision; then the checks that
 * need the model and the trace: the targets a service may set, the rate a
 * trace runs at, the lengths its columns give, what the model takes.
 *
 * Ownership: nothing is allocated here; in->trace points at a trace the
 * workload file owns.
 */
#ifndef GPUPLAN_WORKLOAD_INFERENCE_H
#define GPUPLAN_WORKLOAD_INFERENCE_H

#include <stdbool.h>

#include "core/precision.h"
#include "core/yaml_read.h"
#include "model/model.h"
#include "workload.h"

/* in's fields from map (not its trace: named_files.h reads that).  0, or
 * -1 after recording problems. */
int wl_read_inference(struct yread *r, const struct ynode *map,
		      struct inference *in);

/* A latency target given, and only those model m's service can meet (the
 * token ones for services that generate tokens).  0, or -1. */
int wl_check_targets(struct yread *r, const struct ynode *map, const char *what,
		     const struct model *m, const struct inference *in);

/* The request rate: given, or a trace's own (arrivals); missing is an
 * error when `required`.  Sets in->trace_time_scale.  0, or -1. */
int wl_check_rate(struct yread *r, const struct ynode *map, const char *what,
		  bool required, struct inference *in);

/*
 * What needs model m: the lengths for sequence models only and required
 * there (as keys or trace columns, which then set them), the KV precision
 * (serving's by default), no output from an encoder, the longest request
 * within the model.  trace_bad: the trace did not load, so what it lacks
 * is not reported.  0, or -1 after recording problems.
 */
int wl_check_inference(struct yread *r, const struct ynode *map,
		       const char *what, const struct model *m,
		       enum precision serving, bool trace_bad,
		       struct inference *in);

#endif

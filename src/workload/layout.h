/*
 * layout.h - a training run's `layout:` (struct train_layout, workload.h):
 * how the work is split where the team has fixed it, read, then checked
 * as far as it can be before any catalog is known.  A training workload's
 * `layout:` and an outcome record's (src/backtest/outcome.c) are read
 * with it.
 *
 * Ownership: plain values; a layout's origin points at r->file.
 */
#ifndef GPUPLAN_WORKLOAD_LAYOUT_H
#define GPUPLAN_WORKLOAD_LAYOUT_H

#include "core/yaml_read.h"
#include "workload.h"

/*
 * A `layout:` map (n) into l; owner names it in messages.  Each degree is
 * optional and read in its range (tp, pp, interleave 1..1024; dp
 * 1..1,000,000; micro_batch 1..1e9); interleave > 1 needs pp > 1.
 * Returns 0, or -1 after recording problems.
 */
int workload_read_layout(struct yread *r, const struct ynode *n,
			 const char *owner, struct train_layout *l);
/*
 * What is certain about w's layout (read from map n; NULL: nothing to
 * check) before any catalog is known: micro_batch and dp within the global
 * batch, which divides evenly among dp x micro_batch; the degrees within
 * `parallelism:`; tp x pp x dp equal to `gpus` (when all three and gpus >
 * 0 are given; gpus_what names it in messages, "'gpus'") and dividing it
 * otherwise; tp at most the model's heads and pp x interleave at most its
 * layers (transformers).  Returns 0, or -1 after recording the first
 * problem.
 */
int workload_check_layout(struct yread *r, const struct ynode *n,
			  const struct workload *w, long gpus,
			  const char *gpus_what);

#endif

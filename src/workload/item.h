/*
 * item.h - one workload, inside src/workload/ only: its keys, name and
 * kind, then its body: efficiency overrides, model, precision, the fields
 * of its kind, its trace, and the checks that need the model (for
 * training, the layout's too).  The model's checks run even after other
 * problems, so a file is reported whole.
 *
 * Ownership: what is read belongs to w, freed with its workload file
 * (workload_file_free()).
 */
#ifndef GPUPLAN_WORKLOAD_ITEM_H
#define GPUPLAN_WORKLOAD_ITEM_H

#include <stddef.h>

#include "core/yaml_read.h"
#include "named_files.h"
#include "workload.h"

/* What w holds besides its name and kind, which w already has (an item
 * inside an outcome takes them from the outer file).  0, or -1 after
 * recording problems. */
int wl_read_body(struct wl_ctx *cx, const struct ynode *n, const char *what,
		 struct workload *w);

/* Item `index` (n) of a `workloads:` list into w.  0, or -1. */
int wl_read_workload(struct wl_ctx *cx, const struct ynode *n, size_t index,
		     struct workload *w);

#endif

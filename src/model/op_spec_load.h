/*
 * op_spec_load.h - reading an `ops:` list: ops with their parameters,
 * `repeat:` and `residual:` blocks, and includes (model_include.h), each
 * entry counted against MODEL_MAX_OPS as it is read and its expanded op
 * count kept (op_count.h).
 *
 * Ownership: the array read is the caller's; free it with op_specs_free()
 * (model.h), also after a failure.
 */
#ifndef GPUPLAN_MODEL_OP_SPEC_LOAD_H
#define GPUPLAN_MODEL_OP_SPEC_LOAD_H

#include <stddef.h>

#include "core/yaml_read.h"
#include "model.h"
#include "model_read.h"

/* Reads map[key], a list of op entries, into a new array. */
int read_ops_list(struct model_reader *mr, const struct ynode *map,
		  const char *key, struct op_spec **out, size_t *n);

#endif

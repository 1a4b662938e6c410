/*
 * model_include.h - `- include: FILE` in an `ops:` list: where FILE may
 * be, what it may be, and reading each included file once into the root
 * model's block cache (model_include.c says the rule).
 *
 * The file itself is read with the reader's read_file hook
 * (model_read.h), so this sits below the file reader it recurses into.
 *
 * Ownership: the block read belongs to the root model's cache; the entry
 * filled borrows its ops from there.
 */
#ifndef GPUPLAN_MODEL_MODEL_INCLUDE_H
#define GPUPLAN_MODEL_MODEL_INCLUDE_H

#include "core/yaml_read.h"
#include "model.h"
#include "model_read.h"

/* `- include: FILE`: checks where FILE is and what it is, reads it once,
 * and points s->body at its cached entries.  Returns 0, or -1 after a
 * located error. */
int read_include(struct model_reader *mr, const struct ynode *item,
		 const struct ynode *v, struct op_spec *s);

#endif

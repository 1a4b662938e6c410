/*
 * model_read.h - what the model readers share inside src/model/ only.
 *
 * A model_reader carries the error sink, the model being read (whose
 * `files` list owns every file name that origins point into) and the stack
 * of files being included, so an include cycle is caught where it closes.
 */
#ifndef GPUPLAN_MODEL_MODEL_READ_H
#define GPUPLAN_MODEL_MODEL_READ_H

#include "core/yaml_read.h"
#include "model.h"

#define MODEL_MAX_INCLUDE_DEPTH 16

struct model_reader {
	struct yread r;		/* file: the file being read now */
	struct model *root;
	char *stack[MODEL_MAX_INCLUDE_DEPTH];	/* real paths being read */
	size_t depth;
};

/* Reads one file into m (the root model or an included block); `shown`
 * is its name in messages and origins. */
int model_read_file(struct model_reader *mr, const char *path,
		    const char *shown, struct model *m);
/* Keeps a copy of path in the root model; returns the copy. */
const char *model_reader_add_file(struct model_reader *mr, const char *path);

/* The include stack: push fails (-1) on a cycle or when too deep. */
int include_stack_push(struct model_reader *mr, const char *path);
void include_stack_pop(struct model_reader *mr);
void include_stack_free(struct model_reader *mr);

/* Reads map[key], a list of op entries, into a new array. */
int read_ops_list(struct model_reader *mr, const struct ynode *map,
		  const char *key, struct op_spec **out, size_t *n);
void op_specs_free(struct op_spec *v, size_t n);

/* key's value, one of `words`, as its index; yaml_read.h's returns. */
int read_word(struct yread *r, const struct ynode *map, const char *key,
	      const char *const *words, size_t n, int *out);

#endif

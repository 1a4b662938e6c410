/*
 * model_read.h - what the model readers share inside src/model/ only.
 *
 * A model_reader carries the error sink, the model being read (whose
 * `files` list owns every file name that origins point into, and whose
 * `blocks` cache every included file), the stack of files being included,
 * so an include cycle is caught where it closes, and the running counts
 * the limits of model.h are held to while reading.
 */
#ifndef GPUPLAN_MODEL_MODEL_READ_H
#define GPUPLAN_MODEL_MODEL_READ_H

#include "core/strmap.h"
#include "core/yaml_read.h"
#include "model.h"

struct model_reader {
	struct yread r;		/* file: the file being read now */
	struct model *root;
	char *stack[MODEL_MAX_INCLUDE_DEPTH];	/* real paths being read */
	size_t depth;
	struct strmap block_index;	/* real path -> index in root->blocks */
	char *root_dir;		/* real folder of the model loaded; NULL: none */
	char *shipped_dir;	/* real profiles/models folder; NULL: none */
	bool shipped_looked;	/* shipped_dir was looked for */
	size_t entries;		/* op entries read, over all files */
	bool stopped;		/* a limit was crossed: read nothing further */
};

/* Reads one file into m (the root model or an included block); `shown`
 * is its name in messages and origins. */
int model_read_file(struct model_reader *mr, const char *path,
		    const char *shown, struct model *m);
/* Keeps a copy of path in the root model; returns the copy. */
const char *model_reader_add_file(struct model_reader *mr, const char *path);

/* The include stack of real paths: push fails (-1) when too deep. */
int include_stack_push(struct model_reader *mr, const char *real);
bool include_stack_has(const struct model_reader *mr, const char *real);
void include_stack_pop(struct model_reader *mr);
/* Releases what the reader holds besides the model (stack, cache index,
 * folders). */
void model_reader_free(struct model_reader *mr);

/* `- include: FILE` (model_include.c): checks where FILE is and what it
 * is, reads it once, and points s->body at its cached entries. */
int read_include(struct model_reader *mr, const struct ynode *item,
		 const struct ynode *v, struct op_spec *s);

/* Reads map[key], a list of op entries, into a new array. */
int read_ops_list(struct model_reader *mr, const struct ynode *map,
		  const char *key, struct op_spec **out, size_t *n);
void op_specs_free(struct op_spec *v, size_t n);

/* key's value, one of `words`, as its index; yaml_read.h's returns. */
int read_word(struct yread *r, const struct ynode *map, const char *key,
	      const char *const *words, size_t n, int *out);

/* Expanded op counts (op_count.c), saturating at MODEL_OPS_MANY. */
uint64_t ops_add(uint64_t a, uint64_t b);
uint64_t ops_mul(uint64_t a, uint64_t b);
/* The ops one entry expands to, from its children's counts. */
uint64_t spec_op_count(const struct op_spec *s);
uint64_t list_op_count(const struct op_spec *v, size_t n);

#endif

/*
 * model_read.h - the state the model readers share inside src/model/ only,
 * and the small helpers on it that every reader uses.
 *
 * A model_reader carries the error sink, the model being read (whose
 * `files` list owns every file name that origins point into, and whose
 * `blocks` cache every included file), the stack of files being included,
 * so an include cycle is caught where it closes, and the running counts
 * the limits of model.h are held to while reading.
 *
 * The readers stack up: model_load.c reads a file's keys and its `ops:`
 * list (op_spec_load.h), whose `- include:` entries (model_include.h) read
 * further files through the reader's read_file hook, the file reader
 * model_load.c put there.  The hook is what lets an include recurse into a
 * whole file without the include logic calling up into the loader.
 *
 * Ownership: the reader owns its stack entries and folders (free with
 * model_reader_free()); the files and blocks it reads belong to the root
 * model.
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
	/* Reads one file into m (the root model or an included block);
	 * `shown` is its name in messages and origins.  Set by whoever
	 * starts the reading (model_load.c); an include reads its file with
	 * it.  Returns 0, or -1 after adding located errors. */
	int (*read_file)(struct model_reader *mr, const char *path,
			 const char *shown, struct model *m);
};

/* Keeps a copy of path in the root model; returns the copy. */
const char *model_reader_add_file(struct model_reader *mr, const char *path);

/* The include stack of real paths: push fails (-1) when too deep. */
int include_stack_push(struct model_reader *mr, const char *real);
bool include_stack_has(const struct model_reader *mr, const char *real);
void include_stack_pop(struct model_reader *mr);
/* Releases what the reader holds besides the model (stack, cache index,
 * folders). */
void model_reader_free(struct model_reader *mr);

/* key's value, one of `words`, as its index; yaml_read.h's returns. */
int read_word(struct yread *r, const struct ynode *map, const char *key,
	      const char *const *words, size_t n, int *out);

#endif

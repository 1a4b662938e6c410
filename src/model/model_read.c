/*
 * model_read.c - the model reader's own state: the files it has read, the
 * stack of files being included, and a word from a closed list; see
 * model_read.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "core/term_safe.h"
#include "core/xalloc.h"
#include "model_read.h"

/* ---- small enumerations written as words ---- */

int read_word(struct yread *r, const struct ynode *map, const char *key,
	      const char *const *words, size_t n, int *out)
{
	char *w = NULL;
	int rc = yr_string(r, map, key, &w);
	if (rc <= 0)
		return rc;
	for (size_t i = 0; i < n; i++)
		if (strcmp(w, words[i]) == 0) {
			*out = (int)i;
			free(w);
			return 1;
		}
	char hint[96], list[256] = "";
	for (size_t i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 i ? (i + 1 == n ? " or " : ", ") : "", words[i]);
	const char *h = suggest_hint(w, words, n, hint, sizeof(hint));
	yr_error(r, ymap_get(map, key), h, "'%s' expects %s, found '%.60s'", key,
		 list, w);
	free(w);
	return -1;
}

/* ---- the include stack ---- */

int include_stack_push(struct model_reader *mr, const char *real)
{
	if (mr->depth == MODEL_MAX_INCLUDE_DEPTH)
		return -1;
	mr->stack[mr->depth++] = xstrdup(real);
	return 0;
}

bool include_stack_has(const struct model_reader *mr, const char *real)
{
	for (size_t i = 0; i < mr->depth; i++)
		if (strcmp(mr->stack[i], real) == 0)
			return true;
	return false;
}

void include_stack_pop(struct model_reader *mr)
{
	if (mr->depth > 0)
		free(mr->stack[--mr->depth]);
}

void model_reader_free(struct model_reader *mr)
{
	while (mr->depth > 0)
		include_stack_pop(mr);
	strmap_free(&mr->block_index);
	free(mr->root_dir);
	free(mr->shipped_dir);
	mr->root_dir = mr->shipped_dir = NULL;
}

const char *model_reader_add_file(struct model_reader *mr, const char *path)
{
	struct model *m = mr->root;
	m->files = xrealloc(m->files, (m->n_files + 1) * sizeof(char *));
	m->files[m->n_files] = term_escape_dup(path, 0);	/* printed */
	return m->files[m->n_files++];
}

/*
 * name_index.h - names looked up case-blind in O(1): instance and
 * accelerator names of a catalog, workload names of a file.
 *
 * gpuplan compares names as strcasecmp() does in the C locale (ASCII
 * letters fold, every other byte is itself), so `catalog show t4` finds
 * T4 and "GPT-Train" duplicates "gpt-train".  A loop over every name per
 * name made a catalog of n instances and n accelerators cost n^2
 * comparisons (10,000 of each: 10^8); this keeps a folded copy of each
 * name in a hash map (core/strmap.h), so a check of n names is O(n).
 *
 * Ownership: the index owns its folded copies; the names given to it are
 * not kept.  Free with name_index_free().
 */
#ifndef GPUPLAN_CATALOG_NAME_INDEX_H
#define GPUPLAN_CATALOG_NAME_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strmap.h"

struct name_index {
	struct strmap map;	/* folded name -> value */
	char **folded;		/* the keys, owned */
	size_t n, cap;
};

void name_index_init(struct name_index *x);
void name_index_free(struct name_index *x);

/* Adds name -> value unless a name equal to it case-blind is there
 * already.  Returns true when added; false with the earlier value in
 * *existing (which may be NULL). */
bool name_index_add(struct name_index *x, const char *name, size_t value,
		    size_t *existing);

/* True when a name equal to `name` case-blind was added; its value in
 * *value (which may be NULL). */
bool name_index_find(const struct name_index *x, const char *name,
		     size_t *value);

#endif

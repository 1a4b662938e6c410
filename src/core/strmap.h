/*
 * strmap.h - a hash map from strings to indices, for the checks that must
 * stay linear in the size of the input: duplicate YAML keys, duplicate
 * names in catalogs and workloads, named tensors in a model graph.
 *
 * Open addressing with linear probing on an FNV-1a hash; the table doubles
 * at half full, so a lookup costs O(1) on average and a file of n names is
 * checked in O(n), not O(n^2).  Iteration order is never exposed, so
 * nothing printed depends on the hash.
 *
 * Ownership: keys are borrowed, not copied: each must outlive the map (they
 * are normally strings of the tree or model being checked).  strmap_free()
 * releases the table only.
 */
#ifndef GPUPLAN_CORE_STRMAP_H
#define GPUPLAN_CORE_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct strmap_slot {
	const char *key;	/* NULL: empty */
	size_t value;
};

struct strmap {
	struct strmap_slot *slots;
	size_t cap;		/* a power of two, or 0 before the first put */
	size_t n;
};

void strmap_init(struct strmap *m);
void strmap_free(struct strmap *m);

/* Adds key -> value unless key is there already.  Returns true when it was
 * added; false when present, with its earlier value in *existing (which may
 * be NULL). */
bool strmap_put(struct strmap *m, const char *key, size_t value,
		size_t *existing);

/* True when key is present; its value in *value (which may be NULL). */
bool strmap_get(const struct strmap *m, const char *key, size_t *value);

/* Replaces key's value, adding it when absent (named tensors: a later
 * tensor of the same name shadows the earlier one). */
void strmap_set(struct strmap *m, const char *key, size_t value);

#endif

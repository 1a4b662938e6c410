/*
 * yaml_tree.h - a YAML file as a small tree of nodes that remember where
 * they were written.
 *
 * libyaml's event parser is driven here (rather than its document loader) so
 * that limits apply while reading, not after: a file over YTREE_MAX_BYTES,
 * nesting deeper than YTREE_MAX_DEPTH or more than YTREE_MAX_NODES nodes is
 * refused with a located error.  Anchors, aliases, tags, duplicate keys,
 * non-scalar keys and multi-document streams are refused too: gpuplan files
 * are plain data, and each of those is either a mistake or a way to make a
 * small file expand into a huge one.
 *
 * Ownership: ytree_load() fills a struct ytree that owns every node and
 * string; ytree_free() releases them.  Nodes are never shared.
 */
#ifndef GPUPLAN_CORE_YAML_TREE_H
#define GPUPLAN_CORE_YAML_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

#define YTREE_MAX_BYTES (16u << 20)	/* 16 MiB: far beyond any catalog */
#define YTREE_MAX_DEPTH 32
#define YTREE_MAX_NODES 1000000

enum ynode_kind { YNODE_SCALAR, YNODE_SEQ, YNODE_MAP };

struct ynode {
	enum ynode_kind kind;
	int line, col;		/* 1-based position of the node's first char */
	char *text;		/* scalars: the value, NUL-terminated */
	bool quoted;		/* scalars: written in quotes, so a string */
	size_t n;		/* sequences: items; mappings: key/value pairs */
	struct ynode **items;	/* mappings: items[2i] key, items[2i+1] value */
};

struct ytree {
	char *file;		/* the path as given, for messages */
	struct ynode *root;	/* NULL when the file holds no document */
};

/* Reads and parses `path`, naming it `shown` in messages (pass path itself
 * unless the file has a shorter public name).  Returns 0 on success; on
 * failure adds located errors to errs and returns -1 (t is then empty but
 * safe to free). */
int ytree_load(struct ytree *t, const char *path, const char *shown,
	       struct gp_errors *errs);

/* Parses an in-memory buffer; `name` is used in messages. */
int ytree_parse(struct ytree *t, const char *name, const char *buf,
		size_t len, struct gp_errors *errs);

void ytree_free(struct ytree *t);

/* Mapping access: the value node for key, or NULL. */
const struct ynode *ymap_get(const struct ynode *map, const char *key);

/* "a mapping", "a list" or "'text'" — what a node is, for messages. */
void ynode_describe(const struct ynode *n, char *buf, size_t len);

#endif

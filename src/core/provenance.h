/*
 * provenance.h - where a figure came from: the source document and the place
 * in a gpuplan file it was read from.
 *
 * Every datasheet number, price and model description carries a `source:`
 * (one mapping or a list): {title, url or document, retrieved}.  Readers
 * record each entry's origin (file:line:col) so a figure in any output can be
 * traced to the line it was typed on.
 * Ownership: a struct sources owns its strings; free with free_sources().
 */
#ifndef GPUPLAN_CORE_PROVENANCE_H
#define GPUPLAN_CORE_PROVENANCE_H

#include <jansson.h>
#include <stddef.h>

#include "yaml_read.h"

struct origin {
	const char *file;	/* points into catalog->files */
	int line, col;
};

struct source {
	char *title;
	char *url;		/* may be NULL when document is set */
	char *document;		/* datasheet number; may be NULL */
	char *retrieved;	/* date the figure was read */
};

struct sources {
	struct source *v;
	size_t n;
};

/* Reads the `source:` of map into out (absent: out is empty and 0 is
 * returned; a required source is reported by the caller's key check).
 * owner names the entry in messages.  Returns -1 after recording problems. */
int read_sources(struct yread *r, const struct ynode *map, const char *owner,
		 struct sources *out);
void free_sources(struct sources *s);

/* [{title, url?, document?, retrieved}] — a new reference. */
json_t *sources_to_json(const struct sources *s);

#endif

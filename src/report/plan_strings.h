/*
 * plan_strings.h - every string of a loaded plan, once: the names and
 * texts the report draws, interned as the plan JSON reader copies them
 * out of the text (plan_reader.h), so that a plan of 100,000 options
 * naming a few dozen instances holds each name once.
 *
 * Ownership: a struct r_strings owns its strings and its map; the plan
 * (report_data.h's struct r_plan) owns the table and frees it with
 * r_strings_free() from r_plan_free(); a string r_intern() returns stays
 * valid until then.
 */
#ifndef GPUPLAN_REPORT_PLAN_STRINGS_H
#define GPUPLAN_REPORT_PLAN_STRINGS_H

#include <stddef.h>

#include "core/strmap.h"

struct chunk;			/* strings' storage: plan_strings.c */

/* The table; zeroed, then strmap_init(&map), it is empty. */
struct r_strings {
	struct strmap map;	/* string -> index in all */
	const char **all;
	size_t n, cap;
	struct chunk *chunks;
};

/* s (len bytes, NUL-terminated) as the plan's one copy of it. */
const char *r_intern(struct r_strings *t, const char *s, size_t len);

/* Frees t, every string in it and its map; NULL is allowed. */
void r_strings_free(struct r_strings *t);

#endif

/*
 * plan_strings.c - the interned strings of a loaded plan; see
 * plan_strings.h.
 */
#include "plan_strings.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* Every string of a plan, once: a plan of 100,000 options names a few
 * dozen instances.  Strings live in chunks that never move, so the map's
 * borrowed keys and the plan's pointers stay valid until r_plan_free. */
struct chunk {
	struct chunk *next;
	size_t used, cap;
	char data[];
};

#define CHUNK_BYTES 65536

static char *chunk_alloc(struct r_strings *t, size_t len)
{
	struct chunk *c = t->chunks;
	if (!c || c->cap - c->used < len) {
		size_t cap = len > CHUNK_BYTES ? len : CHUNK_BYTES;
		c = xmalloc(sizeof(*c) + cap);
		c->cap = cap;
		c->used = 0;
		c->next = t->chunks;
		t->chunks = c;
	}
	char *p = c->data + c->used;
	c->used += len;
	return p;
}

/* s (len bytes, NUL-terminated) as the plan's one copy of it. */
const char *r_intern(struct r_strings *t, const char *s, size_t len)
{
	size_t i;
	if (strmap_get(&t->map, s, &i))
		return t->all[i];
	char *copy = chunk_alloc(t, len + 1);
	memcpy(copy, s, len + 1);
	xgrow((void **)&t->all, &t->cap, t->n + 1, sizeof(*t->all));
	t->all[t->n] = copy;
	strmap_put(&t->map, copy, t->n++, NULL);
	return copy;
}

void r_strings_free(struct r_strings *t)
{
	if (!t)
		return;
	while (t->chunks) {
		struct chunk *next = t->chunks->next;
		free(t->chunks);
		t->chunks = next;
	}
	strmap_free(&t->map);
	free(t->all);
	free(t);
}

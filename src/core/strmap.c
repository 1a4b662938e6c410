#include "strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void strmap_init(struct strmap *m)
{
	m->slots = NULL;
	m->cap = 0;
	m->n = 0;
}

void strmap_free(struct strmap *m)
{
	free(m->slots);
	strmap_init(m);
}

static uint64_t hash(const char *s)
{
	uint64_t h = 14695981039346656037u;	/* FNV-1a, 64 bits */
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211u;
	}
	return h;
}

/* The slot holding key, or the empty slot where it would go. */
static struct strmap_slot *find(const struct strmap *m, const char *key)
{
	size_t mask = m->cap - 1;
	for (size_t i = (size_t)hash(key) & mask;; i = (i + 1) & mask) {
		struct strmap_slot *s = &m->slots[i];
		if (!s->key || strcmp(s->key, key) == 0)
			return s;
	}
}

static void grow(struct strmap *m)
{
	struct strmap old = *m;
	m->cap = old.cap ? 2 * old.cap : 16;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].key)
			*find(m, old.slots[i].key) = old.slots[i];
	free(old.slots);
}

bool strmap_get(const struct strmap *m, const char *key, size_t *value)
{
	if (m->cap == 0)
		return false;
	const struct strmap_slot *s = find(m, key);
	if (!s->key)
		return false;
	if (value)
		*value = s->value;
	return true;
}

bool strmap_put(struct strmap *m, const char *key, size_t value,
		size_t *existing)
{
	if (2 * (m->n + 1) > m->cap)
		grow(m);
	struct strmap_slot *s = find(m, key);
	if (s->key) {
		if (existing)
			*existing = s->value;
		return false;
	}
	s->key = key;
	s->value = value;
	m->n++;
	return true;
}

void strmap_set(struct strmap *m, const char *key, size_t value)
{
	if (2 * (m->n + 1) > m->cap)
		grow(m);
	struct strmap_slot *s = find(m, key);
	if (!s->key) {
		s->key = key;
		m->n++;
	}
	s->value = value;
}

#include "name_index.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

void name_index_init(struct name_index *x)
{
	memset(x, 0, sizeof(*x));
	strmap_init(&x->map);
}

void name_index_free(struct name_index *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->folded[i]);
	free(x->folded);
	strmap_free(&x->map);
	name_index_init(x);
}

/* ASCII letters to lower case, as strcasecmp compares in the C locale;
 * not tolower(), whose answer for bytes past 127 depends on the locale. */
static void fold_into(char *to, const char *from)
{
	for (; *from; from++, to++)
		*to = *from >= 'A' && *from <= 'Z' ? (char)(*from + 32) : *from;
	*to = '\0';
}

bool name_index_add(struct name_index *x, const char *name, size_t value,
		    size_t *existing)
{
	char *key = xmalloc(strlen(name) + 1);
	fold_into(key, name);
	if (!strmap_put(&x->map, key, value, existing)) {
		free(key);
		return false;
	}
	xgrow((void **)&x->folded, &x->cap, x->n + 1, sizeof(*x->folded));
	x->folded[x->n++] = key;
	return true;
}

bool name_index_find(const struct name_index *x, const char *name,
		     size_t *value)
{
	char small[320];
	size_t len = strlen(name);
	char *key = len < sizeof(small) ? small : xmalloc(len + 1);
	fold_into(key, name);
	bool found = strmap_get(&x->map, key, value);
	if (key != small)
		free(key);
	return found;
}

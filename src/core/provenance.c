#include "provenance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "xalloc.h"

static const struct yfield source_fields[] = {
	{"title", true}, {"url", false}, {"document", false},
	{"retrieved", true}, {NULL, false},
};

static int read_one_source(struct yread *r, const struct ynode *n,
			   const char *owner, struct source *s)
{
	char what[160];
	snprintf(what, sizeof(what), "the source of %s", owner);
	memset(s, 0, sizeof(*s));
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = yr_check_keys(r, n, what, source_fields);
	bad |= yr_string(r, n, "title", &s->title) < 0;
	bad |= yr_string(r, n, "url", &s->url) < 0;
	bad |= yr_string(r, n, "document", &s->document) < 0;
	bad |= yr_date(r, n, "retrieved", &s->retrieved) < 0;
	if (!ymap_get(n, "url") && !ymap_get(n, "document")) {
		yr_error(r, n, NULL, "%s needs a 'url' or a 'document'", what);
		bad = 1;
	}
	return bad ? -1 : 0;
}

int read_sources(struct yread *r, const struct ynode *map,
			const char *owner, struct sources *out)
{
	const struct ynode *n = ymap_get(map, "source");
	out->v = NULL;
	out->n = 0;
	if (!n)
		return 0;	/* reported as a missing required key */
	size_t count = n->kind == YNODE_SEQ ? n->n : 1;
	if (count == 0) {
		yr_error(r, n, NULL, "the source list of %s is empty", owner);
		return -1;
	}
	out->v = xcalloc(count, sizeof(*out->v));
	out->n = count;
	int bad = 0;
	for (size_t i = 0; i < count; i++) {
		const struct ynode *item = n->kind == YNODE_SEQ ? n->items[i] : n;
		bad |= read_one_source(r, item, owner, &out->v[i]) < 0;
	}
	return bad ? -1 : 0;
}

void free_sources(struct sources *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].title);
		free(s->v[i].url);
		free(s->v[i].document);
		free(s->v[i].retrieved);
	}
	free(s->v);
}

json_t *sources_to_json(const struct sources *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->n; i++) {
		const struct source *src = &s->v[i];
		json_t *o = json_object();
		json_object_set_new(o, "title", json_string_or_null(src->title));
		if (src->url)
			json_object_set_new(o, "url", json_text(src->url));
		if (src->document)
			json_object_set_new(o, "document",
					    json_text(src->document));
		json_object_set_new(o, "retrieved",
				    json_string_or_null(src->retrieved));
		json_array_append_new(a, o);
	}
	return a;
}

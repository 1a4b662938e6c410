#include "yaml_tree.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "file_read.h"
#include "strmap.h"
#include "xalloc.h"

struct builder {
	yaml_parser_t parser;
	const char *name;
	const char *buf;	/* the input, to place reader errors */
	size_t len;
	yaml_mark_t end;	/* where the input ends (mark_at_offset(len)) */
	struct gp_errors *errs;
	size_t nodes;
	int depth;
};

static void free_node(struct ynode *n)
{
	if (!n)
		return;
	size_t count = n->kind == YNODE_MAP ? 2 * n->n : n->n;
	for (size_t i = 0; i < count; i++)
		free_node(n->items[i]);
	free(n->items);
	free(n->text);
	free(n);
}

void ytree_free(struct ytree *t)
{
	free_node(t->root);
	free(t->file);
	t->root = NULL;
	t->file = NULL;
}

/* The length of the line break at s (LF, CR, CR LF, NEL, LS or PS: the
 * breaks libyaml counts lines by), or 0 when s holds none. */
static size_t line_break(const unsigned char *s, size_t n)
{
	if (n >= 2 && s[0] == '\r' && s[1] == '\n')
		return 2;
	if (n >= 1 && (s[0] == '\r' || s[0] == '\n'))
		return 1;
	if (n >= 2 && s[0] == 0xc2 && s[1] == 0x85)
		return 2;
	if (n >= 3 && s[0] == 0xe2 && s[1] == 0x80 &&
	    (s[2] == 0xa8 || s[2] == 0xa9))
		return 3;
	return 0;
}

/* The line and column of byte `offset` of the input, counted as libyaml
 * counts them (lines by line_break(), columns in characters).  libyaml's
 * reader errors (a byte that is not UTF-8, a NUL, a control character)
 * carry only a byte offset; and at the end of an input whose last line
 * has no line break, libyaml places the end on a line after it, which no
 * editor shows: both are placed from the input itself. */
static yaml_mark_t mark_at_offset(const struct builder *b, size_t offset)
{
	yaml_mark_t m = {.index = offset};
	if (offset > b->len)
		offset = b->len;
	const unsigned char *s = (const unsigned char *)b->buf;
	for (size_t i = 0; i < offset;) {
		size_t k = line_break(s + i, b->len - i);
		if (k) {
			m.line++;
			m.column = 0;
			i += k;
			continue;
		}
		if ((s[i] & 0xc0) != 0x80)
			m.column++;	/* a character starts here */
		i++;
	}
	return m;
}

/* m, or the end of the input when m lies past it (see above). */
static yaml_mark_t place(const struct builder *b, const yaml_mark_t *m)
{
	const yaml_mark_t *e = &b->end;
	if (m->line > e->line || (m->line == e->line && m->column > e->column))
		return *e;
	return *m;
}

static void err_at(struct builder *b, const yaml_mark_t *m, const char *hint,
		   const char *msg)
{
	yaml_mark_t at = place(b, m);
	gp_errors_add(b->errs, b->name, (int)at.line + 1, (int)at.column + 1,
		      hint, "%s", msg);
}

/* A node where libyaml says it starts: an empty document's null root
 * ("---" and nothing after) starts past the end, and is placed at it. */
static struct ynode *new_node(const struct builder *b, enum ynode_kind kind,
			      const yaml_mark_t *m)
{
	yaml_mark_t at = place(b, m);
	struct ynode *n = xcalloc(1, sizeof(*n));
	n->kind = kind;
	n->line = (int)at.line + 1;
	n->col = (int)at.column + 1;
	return n;
}

static int next_event(struct builder *b, yaml_event_t *ev)
{
	if (yaml_parser_parse(&b->parser, ev))
		return 0;
	const yaml_parser_t *p = &b->parser;
	char msg[512];
	if (p->context)
		snprintf(msg, sizeof(msg), "not valid YAML: %s %s",
			 p->problem ? p->problem : "syntax error", p->context);
	else
		snprintf(msg, sizeof(msg), "not valid YAML: %s",
			 p->problem ? p->problem : "syntax error");
	yaml_mark_t m = p->problem_mark;
	if (p->error == YAML_READER_ERROR)
		m = mark_at_offset(b, p->problem_offset);
	err_at(b, &m, NULL, msg);
	return -1;
}

/* Anchors, aliases and tags are refused: see the header. */
static int refuse_extras(struct builder *b, const yaml_event_t *ev)
{
	const yaml_char_t *anchor = NULL, *tag = NULL;
	if (ev->type == YAML_SCALAR_EVENT) {
		anchor = ev->data.scalar.anchor;
		tag = ev->data.scalar.tag;
	} else if (ev->type == YAML_SEQUENCE_START_EVENT) {
		anchor = ev->data.sequence_start.anchor;
		tag = ev->data.sequence_start.tag;
	} else if (ev->type == YAML_MAPPING_START_EVENT) {
		anchor = ev->data.mapping_start.anchor;
		tag = ev->data.mapping_start.tag;
	}
	if (anchor) {
		err_at(b, &ev->start_mark, "write the values out in full",
		       "YAML anchors are not supported");
		return -1;
	}
	if (tag) {
		err_at(b, &ev->start_mark, "write the value without a '!' tag",
		       "YAML tags are not supported");
		return -1;
	}
	return 0;
}

static int count_node(struct builder *b, const yaml_mark_t *m)
{
	if (++b->nodes <= YTREE_MAX_NODES)
		return 0;
	char msg[128];
	snprintf(msg, sizeof(msg), "file too large: more than %d YAML nodes",
		 YTREE_MAX_NODES);
	err_at(b, m, NULL, msg);
	return -1;
}

static int build_node(struct builder *b, yaml_event_t *ev, struct ynode **out);

static void append(struct ynode *parent, size_t *cap, struct ynode *child)
{
	size_t count = parent->kind == YNODE_MAP ? 2 * parent->n : parent->n;
	xgrow((void **)&parent->items, cap, count + 1, sizeof(*parent->items));
	parent->items[count] = child;
}

/* keys maps each key text of the mapping being built to its index, so a
 * mapping of n keys is checked in O(n) (160,000 keys took 150 s when each
 * was compared with every earlier one). */
static int check_duplicate_key(struct builder *b, const struct ynode *map,
			       struct strmap *keys, const struct ynode *key)
{
	size_t first;
	if (strmap_put(keys, key->text, map->n, &first))
		return 0;
	char msg[320], hint[64];
	snprintf(msg, sizeof(msg), "duplicate key '%.200s'", key->text);
	snprintf(hint, sizeof(hint), "first given at line %d",
		 map->items[2 * first]->line);
	gp_errors_add(b->errs, b->name, key->line, key->col, hint, "%s", msg);
	return -1;
}

static int build_entries(struct builder *b, struct ynode *parent,
			 yaml_event_type_t end, struct strmap *keys);

static int build_children(struct builder *b, struct ynode *parent,
			  yaml_event_type_t end)
{
	struct strmap keys;
	strmap_init(&keys);
	int rc = build_entries(b, parent, end, &keys);
	strmap_free(&keys);
	return rc;
}

static int build_entries(struct builder *b, struct ynode *parent,
			 yaml_event_type_t end, struct strmap *keys)
{
	size_t cap = 0;
	for (;;) {
		yaml_event_t ev;
		if (next_event(b, &ev) < 0)
			return -1;
		if (ev.type == end) {
			yaml_event_delete(&ev);
			return 0;
		}
		struct ynode *child = NULL;
		int rc = build_node(b, &ev, &child);
		yaml_event_delete(&ev);
		if (rc < 0)
			return -1;
		if (parent->kind == YNODE_SEQ) {
			append(parent, &cap, child);
			parent->n++;
			continue;
		}
		/* Mapping: child is a key; the value follows. */
		if (child->kind != YNODE_SCALAR) {
			gp_errors_add(b->errs, b->name, child->line, child->col,
				      NULL, "a mapping key must be a plain word");
			free_node(child);
			return -1;
		}
		if (check_duplicate_key(b, parent, keys, child) < 0) {
			free_node(child);
			return -1;
		}
		append(parent, &cap, child);
		if (next_event(b, &ev) < 0) {
			free_node(child);
			return -1;
		}
		struct ynode *value = NULL;
		rc = build_node(b, &ev, &value);
		yaml_event_delete(&ev);
		if (rc < 0) {
			free_node(child);
			return -1;
		}
		xgrow((void **)&parent->items, &cap, 2 * parent->n + 2,
		      sizeof(*parent->items));
		parent->items[2 * parent->n + 1] = value;
		parent->n++;
	}
}

static int build_node(struct builder *b, yaml_event_t *ev, struct ynode **out)
{
	if (refuse_extras(b, ev) < 0 || count_node(b, &ev->start_mark) < 0)
		return -1;
	switch (ev->type) {
	case YAML_SCALAR_EVENT: {
		struct ynode *n = new_node(b, YNODE_SCALAR, &ev->start_mark);
		n->text = xstrndup((const char *)ev->data.scalar.value,
				   ev->data.scalar.length);
		if (strlen(n->text) != ev->data.scalar.length) {
			free_node(n);
			err_at(b, &ev->start_mark, NULL,
			       "a value holds a NUL character");
			return -1;
		}
		n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
		*out = n;
		return 0;
	}
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		if (++b->depth > YTREE_MAX_DEPTH) {
			char msg[96];
			snprintf(msg, sizeof(msg),
				 "nested too deeply: more than %d levels",
				 YTREE_MAX_DEPTH);
			err_at(b, &ev->start_mark, NULL, msg);
			return -1;
		}
		bool seq = ev->type == YAML_SEQUENCE_START_EVENT;
		struct ynode *n = new_node(b, seq ? YNODE_SEQ : YNODE_MAP,
					   &ev->start_mark);
		int rc = build_children(b, n, seq ? YAML_SEQUENCE_END_EVENT
						  : YAML_MAPPING_END_EVENT);
		b->depth--;
		if (rc < 0) {
			free_node(n);
			return -1;
		}
		*out = n;
		return 0;
	}
	case YAML_ALIAS_EVENT:
		err_at(b, &ev->start_mark, "write the values out in full",
		       "YAML aliases are not supported");
		return -1;
	default:
		err_at(b, &ev->start_mark, NULL, "unexpected YAML structure");
		return -1;
	}
}

/* Skips stream and document starts; returns the first content event, or
 * sets *empty when the stream holds no document. */
static int first_content(struct builder *b, yaml_event_t *ev, bool *empty)
{
	*empty = false;
	for (;;) {
		if (next_event(b, ev) < 0)
			return -1;
		if (ev->type == YAML_STREAM_START_EVENT ||
		    ev->type == YAML_DOCUMENT_START_EVENT) {
			yaml_event_delete(ev);
			continue;
		}
		if (ev->type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(ev);
			*empty = true;
		}
		return 0;
	}
}

static int expect_single_document(struct builder *b)
{
	yaml_event_t ev;
	if (next_event(b, &ev) < 0)	/* DOCUMENT-END */
		return -1;
	yaml_event_delete(&ev);
	if (next_event(b, &ev) < 0)
		return -1;
	int rc = 0;
	if (ev.type != YAML_STREAM_END_EVENT) {
		err_at(b, &ev.start_mark, "keep one document per file",
		       "a second YAML document ('---') is not supported");
		rc = -1;
	}
	yaml_event_delete(&ev);
	return rc;
}

int ytree_parse(struct ytree *t, const char *name, const char *buf,
		size_t len, struct gp_errors *errs)
{
	t->file = xstrdup(name);
	t->root = NULL;
	struct builder b = {.name = name, .buf = buf, .len = len, .errs = errs};
	b.end = mark_at_offset(&b, len);
	if (!yaml_parser_initialize(&b.parser)) {
		gp_errors_add(errs, name, 0, 0, NULL,
			      "cannot start the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&b.parser, (const unsigned char *)buf,
				     len);
	yaml_event_t ev;
	bool empty;
	int rc = first_content(&b, &ev, &empty);
	if (rc == 0 && empty) {
		gp_errors_add(errs, name, 0, 0, NULL,
			      "file is empty: expected a YAML mapping");
		rc = -1;
	} else if (rc == 0) {
		rc = build_node(&b, &ev, &t->root);
		yaml_event_delete(&ev);
		if (rc == 0)
			rc = expect_single_document(&b);
	}
	yaml_parser_delete(&b.parser);
	if (rc < 0) {
		free_node(t->root);
		t->root = NULL;
	}
	return rc;
}

int ytree_load(struct ytree *t, const char *path, const char *shown,
	       struct gp_errors *errs)
{
	t->file = NULL;
	t->root = NULL;
	char *buf;
	size_t len;
	int rc = -1;
	if (!strcmp(shown, "-"))
		shown = file_shown(shown);	/* "<stdin>" */
	switch (file_read_all(path, YTREE_MAX_BYTES, &buf, &len)) {
	case FILE_READ_CANNOT_OPEN:
		gp_errors_add(errs, shown, 0, 0, NULL, "cannot open: %s",
			      strerror(errno));
		return -1;
	case FILE_READ_CANNOT_READ:
		gp_errors_add(errs, shown, 0, 0, NULL, "cannot read: %s",
			      strerror(errno));
		break;
	case FILE_READ_TOO_LARGE:
		gp_errors_add(errs, shown, 0, 0, NULL,
			      "file too large: over %u MiB",
			      YTREE_MAX_BYTES >> 20);
		break;
	case FILE_READ_OK:
		rc = ytree_parse(t, shown, buf, len, errs);
		break;
	}
	free(buf);
	if (!t->file)
		t->file = xstrdup(shown);
	return rc;
}

const struct ynode *ymap_get(const struct ynode *map, const char *key)
{
	if (!map || map->kind != YNODE_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (strcmp(map->items[2 * i]->text, key) == 0)
			return map->items[2 * i + 1];
	return NULL;
}

void ynode_describe(const struct ynode *n, char *buf, size_t len)
{
	if (!n)
		snprintf(buf, len, "nothing");
	else if (n->kind == YNODE_MAP)
		snprintf(buf, len, "a mapping");
	else if (n->kind == YNODE_SEQ)
		snprintf(buf, len, "a list");
	else if (n->text[0] == '\0')
		snprintf(buf, len, "an empty value");
	else
		snprintf(buf, len, "'%.60s%s'", n->text,
			 strlen(n->text) > 60 ? "..." : "");
}

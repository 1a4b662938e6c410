/*
 * report_data.c - the plan JSON reader; see report_data.h.
 *
 * The text is checked whole first (json_read.h), then read by offsets:
 * each object the report reads fields of is indexed as a "record" (its
 * keys sorted, so a duplicate is found and a lookup is a binary search,
 * in any key order), values are type- and range-checked as they are
 * copied out, and every message carries the value's line and column and
 * its JSON path.  The first problem is the one reported.
 */
#include "report_data.h"

#include "core/output.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_read.h"
#include "core/output.h"
#include "core/strmap.h"
#include "core/term_safe.h"
#include "core/xalloc.h"
#include "i18n.h"
#include "json_read.h"

/* ---- interned strings ---------------------------------------------------- */

/* Every string of a plan, once: a plan of 100,000 options names a few
 * dozen instances.  Strings live in chunks that never move, so the map's
 * borrowed keys and the plan's pointers stay valid until r_plan_free. */
struct chunk {
	struct chunk *next;
	size_t used, cap;
	char data[];
};

struct r_strings {
	struct strmap map;	/* string -> index in all */
	const char **all;
	size_t n, cap;
	struct chunk *chunks;
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
static const char *intern(struct r_strings *t, const char *s, size_t len)
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

static void strings_free(struct r_strings *t)
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

/* ---- the reader ---------------------------------------------------------- */

/* An object whose fields are read by name: its keys sorted. */
struct field {
	const char *key;
	size_t key_at, at;	/* offsets of the key and of its value */
};

struct record {
	size_t at;		/* the '{' */
	struct field *f;
	size_t n, cap;
	char *keys;		/* the decoded keys, each NUL-terminated */
	size_t keys_len, keys_cap;
	size_t *key_off;	/* where each key starts in keys */
	size_t key_off_cap;
};

struct reader {
	struct jdoc d;
	const char *name;	/* starts every message */
	bool positions;		/* line:column in messages */
	char *why;
	size_t len;
	bool failed;
	struct r_strings *strings;
	struct jbuf buf;
	/* one record per level, reused: root, workload, option, and the
	 * objects inside those (each read whole before the next) */
	struct record root, workload, option, sub, leaf;
};

static void fail_at(struct reader *rd, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "path.key" for messages, "key" at the top level (path ""), "path"
 * when key is NULL: use as "%s%s%s" with PATH_KEY(path, key). */
#define PATH_KEY(path, key) (path), (*(path) && (key) ? "." : ""), \
	((key) ? (key) : "")

static void fail_at(struct reader *rd, size_t at, const char *fmt, ...)
{
	char msg[900];
	va_list ap;
	if (rd->failed)
		return;		/* the first problem is the one to fix */
	rd->failed = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (rd->positions) {
		int line, col;
		jdoc_position(&rd->d, at, &line, &col);
		snprintf(rd->why, rd->len, "%s:%d:%d: %s", rd->name, line, col, msg);
	} else {
		snprintf(rd->why, rd->len, "%s: %s", rd->name, msg);
	}
}

static void record_free(struct record *r)
{
	free(r->f);
	free(r->keys);
	free(r->key_off);
}

static int field_cmp(const void *a, const void *b)
{
	const struct field *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->key_at > y->key_at) - (x->key_at < y->key_at);
}

/* Indexes the object at `at` into r: false (after failing) when it is not
 * an object or holds a key twice. */
static bool record_read(struct reader *rd, struct record *r, size_t at,
			const char *path)
{
	struct jiter it;
	size_t key_at, value_at;
	if (rd->failed)
		return false;
	if (jtype_at(&rd->d, at) != J_OBJECT) {
		fail_at(rd, at, "%s%s%s: expected an object, found %s",
			PATH_KEY(path, NULL), jtype_name(jtype_at(&rd->d, at)));
		return false;
	}
	r->at = at;
	r->n = r->keys_len = 0;
	jiter_begin(&rd->d, at, &it);
	while (jiter_next(&rd->d, &it, &key_at, &value_at)) {
		if (r->n == R_RECORD_MAX_KEYS) {
			fail_at(rd, key_at, "%s%sexpected at most %d keys in an object, found more",
				path, *path ? ": " : "", R_RECORD_MAX_KEYS);
			return false;
		}
		jstring(&rd->d, key_at, &rd->buf);
		xgrow((void **)&r->keys, &r->keys_cap, r->keys_len + rd->buf.len + 1, 1);
		xgrow((void **)&r->f, &r->cap, r->n + 1, sizeof(*r->f));
		xgrow((void **)&r->key_off, &r->key_off_cap, r->n + 1, sizeof(size_t));
		memcpy(r->keys + r->keys_len, rd->buf.s, rd->buf.len + 1);
		r->key_off[r->n] = r->keys_len;
		r->f[r->n++] = (struct field){NULL, key_at, value_at};
		r->keys_len += rd->buf.len + 1;
	}
	for (size_t i = 0; i < r->n; i++)
		r->f[i].key = r->keys + r->key_off[i];
	if (r->n)
		qsort(r->f, r->n, sizeof(*r->f), field_cmp);
	for (size_t i = 1; i < r->n; i++)
		if (!strcmp(r->f[i].key, r->f[i - 1].key)) {
			fail_at(rd, r->f[i].key_at, "%s%sthe key \"%s\" appears twice",
				path, *path ? ": " : "", r->f[i].key);
			return false;
		}
	return true;
}

static const struct field *field_get(const struct record *r, const char *key)
{
	size_t lo = 0, hi = r->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(r->f[mid].key, key);
		if (c == 0)
			return &r->f[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* ---- typed values -------------------------------------------------------- */

/*
 * Where key's value is: true with *at, or false when it is missing or
 * null (a failure unless nullable: a missing key is placed at its
 * object's '{').
 */
static bool value_of(struct reader *rd, const struct record *r,
		     const char *key, const char *path, bool nullable,
		     const char *expected, size_t *at)
{
	const struct field *f = field_get(r, key);
	if (rd->failed)
		return false;
	if (f && jtype_at(&rd->d, f->at) != J_NULL) {
		*at = f->at;
		return true;
	}
	if (!nullable)
		fail_at(rd, f ? f->at : r->at, "%s%s%s: expected %s, found %s",
			PATH_KEY(path, key), expected,
			f ? "null" : "nothing (the key is missing)");
	return false;
}

/* The value at `at` is of type t, else a failure naming what it is. */
static bool want_type(struct reader *rd, size_t at, enum jtype t,
		      const char *path, const char *key, const char *expected)
{
	enum jtype got = jtype_at(&rd->d, at);
	if (got == t || (t == J_TRUE && got == J_FALSE))
		return true;
	fail_at(rd, at, "%s%s%s: expected %s, found %s", PATH_KEY(path, key),
		expected, jtype_name(got));
	return false;
}

/* A number from lo to R_NUMBER_MAX (lo is 0 or -R_NUMBER_MAX); 0 when
 * absent and nullable. */
static double get_number(struct reader *rd, const struct record *r,
			 const char *key, const char *path, bool nullable,
			 double lo)
{
	size_t at;
	if (!value_of(rd, r, key, path, nullable, "a number", &at) ||
	    !want_type(rd, at, J_NUMBER, path, key, "a number"))
		return 0;
	double v = jnumber(&rd->d, at);
	if (!(v >= lo && v <= R_NUMBER_MAX)) {
		fail_at(rd, at, "%s%s%s: expected a number from %s to 1e+100, found %g",
			PATH_KEY(path, key), lo < 0 ? "-1e+100" : "0", v);
		return 0;
	}
	return v;
}

/* A count (GPUs, nodes, replicas, a batch): a whole number from min to a
 * billion, so the cast to long is defined and the text stays sane. */
static long get_count(struct reader *rd, const struct record *r,
		      const char *key, const char *path, bool nullable,
		      long min)
{
	size_t at;
	if (!value_of(rd, r, key, path, nullable, "a whole number", &at) ||
	    !want_type(rd, at, J_NUMBER, path, key, "a whole number"))
		return 0;
	double v = jnumber(&rd->d, at);
	if (!(v >= (double)min && v <= (double)R_COUNT_MAX) || v != floor(v)) {
		fail_at(rd, at, "%s%s%s: expected a whole number from %ld to %ld, found %g",
			PATH_KEY(path, key), min, R_COUNT_MAX, v);
		return 0;
	}
	return (long)v;
}

/* A boolean the key must hold (no default): false after a failure. */
static bool get_flag(struct reader *rd, const struct record *r,
		     const char *key, const char *path)
{
	size_t at;
	if (!value_of(rd, r, key, path, false, "true or false", &at) ||
	    !want_type(rd, at, J_TRUE, path, key, "true or false"))
		return false;
	return jtype_at(&rd->d, at) == J_TRUE;
}

static bool get_bool(struct reader *rd, const struct record *r,
		     const char *key, const char *path, bool dflt)
{
	size_t at;
	if (!value_of(rd, r, key, path, true, "true or false", &at))
		return dflt;
	if (!want_type(rd, at, J_TRUE, path, key, "true or false"))
		return dflt;
	return jtype_at(&rd->d, at) == J_TRUE;
}

/* An option index below n, or -1 for null or a missing key. */
static long get_index(struct reader *rd, const struct record *r,
		      const char *key, const char *path, size_t n)
{
	size_t at;
	if (!value_of(rd, r, key, path, true, "an option index", &at))
		return -1;
	enum jtype t = jtype_at(&rd->d, at);
	double v = t == J_NUMBER ? jnumber(&rd->d, at) : -1;
	if (t != J_NUMBER || !(v >= 0 && v < (double)n) || v != floor(v)) {
		if (t == J_NUMBER)
			fail_at(rd, at, "%s%s%s: expected an option index below %zu or null, found %g",
				PATH_KEY(path, key), n, v);
		else
			fail_at(rd, at, "%s%s%s: expected an option index below %zu or null, found %s",
				PATH_KEY(path, key), n, jtype_name(t));
		return -1;
	}
	return (long)v;
}

enum text_kind {
	NAME,		/* one line, at most R_NAME_MAX bytes */
	TEXT,		/* a sentence, a title, a URL: lines allowed */
};

/* Refuses text a report must not draw or print: control characters
 * (and, for a name, newlines, tabs and more than R_NAME_MAX bytes). */
static bool text_ok(struct reader *rd, size_t at, const char *path,
		    const char *key, const char *s, size_t len,
		    enum text_kind kind)
{
	const char *what;
	if (kind == NAME && len > R_NAME_MAX) {
		fail_at(rd, at, "%s%s%s: expected a name of at most %d bytes, found %zu bytes",
			PATH_KEY(path, key), R_NAME_MAX, len);
		return false;
	}
	if (text_control_char(s, kind == NAME ? 0 : TERM_KEEP_LINES, &what) >= 0) {
		fail_at(rd, at, "%s%s%s: expected %s without control characters, found %s",
			PATH_KEY(path, key), kind == NAME ? "a name on one line" : "text",
			what);
		return false;
	}
	return true;
}

/* The string at `at`, checked, and interned when `keep` (else only
 * checked: a string the report never draws costs no memory).  "" after
 * a failure or when not kept. */
static const char *string_at(struct reader *rd, size_t at, const char *path,
			     const char *key, enum text_kind kind, bool keep)
{
	if (!want_type(rd, at, J_STRING, path, key, "a string"))
		return "";
	const char *s = jstring(&rd->d, at, &rd->buf);
	if (!text_ok(rd, at, path, key, s, rd->buf.len, kind) || !keep)
		return "";
	return intern(rd->strings, s, rd->buf.len);
}

/* A string field: NULL when nullable and absent, "" after a failure. */
static const char *get_text(struct reader *rd, const struct record *r,
			    const char *key, const char *path, bool nullable,
			    enum text_kind kind, bool keep)
{
	size_t at;
	if (!value_of(rd, r, key, path, nullable, "a string", &at))
		return rd->failed ? "" : NULL;
	return string_at(rd, at, path, key, kind, keep);
}

static const char *get_string(struct reader *rd, const struct record *r,
			      const char *key, const char *path, bool nullable,
			      enum text_kind kind)
{
	return get_text(rd, r, key, path, nullable, kind, true);
}

/* The value of an optional object or list field: true with *at when
 * present (not null) and of type t. */
static bool get_container(struct reader *rd, const struct record *r,
			  const char *key, const char *path, enum jtype t,
			  bool nullable, size_t *at)
{
	const char *what = t == J_OBJECT ? "an object" : "a list";
	return value_of(rd, r, key, path, nullable, what, at) &&
	       want_type(rd, *at, t, path, key, what);
}

/* ---- sources, assumptions, exchange rates -------------------------------- */

/* The first entry of a "source" list, "" for what it lacks; every entry
 * must be an object. */
static void read_source(struct reader *rd, const struct record *r,
			const char *path, struct r_source *out)
{
	size_t at, el;
	struct jiter it;
	char p[900];
	*out = (struct r_source){"", "", ""};
	if (!get_container(rd, r, "source", path, J_ARRAY, true, &at))
		return;
	jiter_begin(&rd->d, at, &it);
	for (size_t i = 0; !rd->failed && jiter_next(&rd->d, &it, NULL, &el); i++) {
		snprintf(p, sizeof(p), "%s.source[%zu]", path, i);
		if (!record_read(rd, &rd->leaf, el, p) || i > 0)
			continue;
		const char *t = get_string(rd, &rd->leaf, "title", p, true, TEXT);
		const char *u = get_string(rd, &rd->leaf, "url", p, true, TEXT);
		const char *d = get_string(rd, &rd->leaf, "retrieved", p, true, NAME);
		*out = (struct r_source){t ? t : "", u ? u : "", d ? d : ""};
	}
}

/* A name used as a key (an instance, an accelerator, an assumption, an
 * op class): checked like any name; its path `outer["name"]`. */
static const char *key_name(struct reader *rd, size_t key_at,
			    const char *outer, char *path, size_t len)
{
	const char *name = string_at(rd, key_at, outer, NULL, NAME, true);
	snprintf(path, len, "%s[\"%s\"]", outer, name);
	return name;
}

static int by_instance_name(const void *a, const void *b)
{
	return strcmp(((const struct r_instance *)a)->name,
		      ((const struct r_instance *)b)->name);
}

static int by_accelerator_name(const void *a, const void *b)
{
	return strcmp(((const struct r_accelerator *)a)->name,
		      ((const struct r_accelerator *)b)->name);
}

static void read_instance(struct reader *rd, size_t at, const char *path,
			  struct r_instance *in)
{
	if (!record_read(rd, &rd->sub, at, path))
		return;
	in->defined_at = get_string(rd, &rd->sub, "defined_at", path, true, TEXT);
	in->price_as_of = get_string(rd, &rd->sub, "price_as_of", path, true, NAME);
	in->owned = get_bool(rd, &rd->sub, "owned", path, false);
	in->illustrative = get_bool(rd, &rd->sub, "illustrative", path, false);
	read_source(rd, &rd->sub, path, &in->source);
	if (!in->defined_at)
		in->defined_at = "";
}

static void read_accelerator(struct reader *rd, size_t at, const char *path,
			     struct r_accelerator *a)
{
	size_t pk;
	char pp[900];
	if (!record_read(rd, &rd->sub, at, path))
		return;
	a->defined_at = get_string(rd, &rd->sub, "defined_at", path, true, TEXT);
	if (!a->defined_at)
		a->defined_at = "";
	a->bandwidth = get_number(rd, &rd->sub, "memory_bandwidth_bytes_per_s",
				  path, true, 0);
	read_source(rd, &rd->sub, path, &a->source);
	if (!get_container(rd, &rd->sub, "peak_dense_ops_per_s", path, J_OBJECT,
			   true, &pk))
		return;
	snprintf(pp, sizeof(pp), "%s.peak_dense_ops_per_s", path);
	if (!record_read(rd, &rd->leaf, pk, pp))
		return;
	/* precisions this build does not know are left alone */
	for (int p = 0; p < PREC_COUNT; p++)
		a->peaks[p] = get_number(rd, &rd->leaf, precision_name(p), pp, true, 0);
}

/* A map of names to entries (sources.instances, sources.accelerators):
 * each entry read by `entry` into an array of `size`-byte structs whose
 * first member is the name, then sorted by name.  Names are interned, so
 * a duplicate is the same pointer twice. */
static void *read_named(struct reader *rd, size_t at, const char *outer,
			size_t size, size_t *n,
			void (*entry)(struct reader *, size_t, const char *, void *),
			int (*cmp)(const void *, const void *))
{
	struct jiter it;
	struct strmap seen;
	size_t key_at, value_at, cap = 0;
	char path[800];
	char *v = NULL;
	*n = 0;
	strmap_init(&seen);
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, &key_at, &value_at)) {
		if (*n == R_SOURCES_MAX) {
			fail_at(rd, key_at, "%s: expected at most %d entries, found more",
				outer, R_SOURCES_MAX);
			break;
		}
		const char *name = key_name(rd, key_at, outer, path, sizeof(path));
		if (!rd->failed && !strmap_put(&seen, name, *n, NULL))
			fail_at(rd, key_at, "%s: \"%s\" appears twice", outer, name);
		if (rd->failed)
			break;
		xgrow((void **)&v, &cap, *n + 1, size);
		memset(v + *n * size, 0, size);
		memcpy(v + *n * size, &name, sizeof(name));
		entry(rd, value_at, path, v + *n * size);
		(*n)++;
	}
	strmap_free(&seen);
	if (*n)
		qsort(v, *n, size, cmp);
	return v;
}

static void instance_entry(struct reader *rd, size_t at, const char *path,
			   void *out)
{
	read_instance(rd, at, path, out);
}

static void accelerator_entry(struct reader *rd, size_t at, const char *path,
			      void *out)
{
	read_accelerator(rd, at, path, out);
}

static void read_plan_sources(struct reader *rd, struct r_plan *p)
{
	size_t at, m;
	if (!get_container(rd, &rd->root, "sources", "", J_OBJECT, true, &at) ||
	    !record_read(rd, &rd->workload, at, "sources"))
		return;
	/* rd->workload is free until the workloads are read */
	struct record *s = &rd->workload;
	if (get_container(rd, s, "instances", "sources", J_OBJECT, true, &m))
		p->inst = read_named(rd, m, "sources.instances", sizeof(*p->inst),
				     &p->n_inst, instance_entry, by_instance_name);
	if (get_container(rd, s, "accelerators", "sources", J_OBJECT, true, &m))
		p->acc = read_named(rd, m, "sources.accelerators", sizeof(*p->acc),
				    &p->n_acc, accelerator_entry, by_accelerator_name);
}

static void read_assumptions(struct reader *rd, struct r_plan *p)
{
	size_t at, key_at, value_at, cap = 0;
	struct jiter it;
	char path[800];
	if (!get_container(rd, &rd->root, "assumptions", "", J_OBJECT, true, &at) ||
	    !record_read(rd, &rd->sub, at, "assumptions"))	/* duplicates */
		return;
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, &key_at, &value_at)) {
		const char *key = key_name(rd, key_at, "assumptions", path, sizeof(path));
		if (!record_read(rd, &rd->leaf, value_at, path))
			break;
		xgrow((void **)&p->assumptions, &cap, p->n_assumptions + 1,
		      sizeof(*p->assumptions));
		struct r_assumption *a = &p->assumptions[p->n_assumptions++];
		a->key = key;
		a->has_value = field_get(&rd->leaf, "value") &&
			       jtype_at(&rd->d, field_get(&rd->leaf, "value")->at) == J_NUMBER;
		a->value = get_number(rd, &rd->leaf, "value", path, true, -R_NUMBER_MAX);
		a->from = get_string(rd, &rd->leaf, "from", path, true, TEXT);
		if (!a->from)
			a->from = "";
	}
}

static void read_rates(struct reader *rd, struct r_plan *p)
{
	size_t at;
	p->rates_base = p->rates_as_of = "";
	p->rates_source = (struct r_source){"", "", ""};
	if (!get_container(rd, &rd->root, "exchange_rates", "", J_OBJECT, true, &at) ||
	    !record_read(rd, &rd->sub, at, "exchange_rates"))
		return;
	p->has_rates = true;
	const char *base = get_string(rd, &rd->sub, "base", "exchange_rates", true, NAME);
	const char *as_of = get_string(rd, &rd->sub, "as_of", "exchange_rates", true, NAME);
	p->rates_base = base ? base : "";
	p->rates_as_of = as_of ? as_of : "";
	read_source(rd, &rd->sub, "exchange_rates", &p->rates_source);
}

/* "generated": the plan's date and tool version (page15); optional, as
 * plans made before it lack it. */
static void read_generated(struct reader *rd, struct r_plan *p)
{
	size_t at;
	p->generated_date = p->generated_tool = "";
	if (!get_container(rd, &rd->root, "generated", "", J_OBJECT, true, &at) ||
	    !record_read(rd, &rd->sub, at, "generated"))
		return;
	const char *date = get_string(rd, &rd->sub, "date", "generated", true, NAME);
	const char *tool = get_string(rd, &rd->sub, "tool", "generated", true, NAME);
	p->generated_date = date ? date : "";
	p->generated_tool = tool ? tool : "";
}

/* ---- workloads and options ------------------------------------------------ */

/* Every entry of reason_codes is checked; the first is kept. */
static void read_reasons(struct reader *rd, const char *path,
			 struct r_option *opt)
{
	size_t at, el;
	struct jiter it;
	char p[192];
	if (!get_container(rd, &rd->option, "reason_codes", path, J_ARRAY, false, &at))
		return;
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, NULL, &el)) {
		snprintf(p, sizeof(p), "%s.reason_codes[%d]", path, opt->n_reasons);
		if (!record_read(rd, &rd->sub, el, p))
			return;
		struct plan_reason_figures f;
		bool keep = opt->n_reasons == 0;
		f.code = get_text(rd, &rd->sub, "code", p, false, NAME, keep);
		f.s1 = get_text(rd, &rd->sub, "s1", p, true, NAME, keep);
		f.s2 = get_text(rd, &rd->sub, "s2", p, true, NAME, keep);
		f.used = get_text(rd, &rd->sub, "used", p, true, NAME, keep);
		f.wanted = get_text(rd, &rd->sub, "wanted", p, true, NAME, keep);
		f.a = get_number(rd, &rd->sub, "a", p, true, -R_NUMBER_MAX);
		f.b = get_number(rd, &rd->sub, "b", p, true, -R_NUMBER_MAX);
		f.c = get_number(rd, &rd->sub, "c", p, true, -R_NUMBER_MAX);
		f.n1 = get_count(rd, &rd->sub, "n1", p, true, 0);
		f.n2 = get_count(rd, &rd->sub, "n2", p, true, 0);
		if (opt->n_reasons++ == 0)
			opt->reason = f;
	}
}

/* The numbers of an optional sub-object (breakdown, memory) by key. */
static void read_parts(struct reader *rd, const char *key, const char *path,
		       const char *const *keys, double *out, int n)
{
	size_t at;
	char p[192];
	for (int k = 0; k < n; k++)
		out[k] = 0;
	if (!get_container(rd, &rd->option, key, path, J_OBJECT, true, &at))
		return;
	snprintf(p, sizeof(p), "%s.%s", path, key);
	if (!record_read(rd, &rd->sub, at, p))
		return;
	for (int k = 0; k < n; k++)
		out[k] = get_number(rd, &rd->sub, keys[k], p, true, 0);
}

static void read_option(struct reader *rd, size_t at, const char *path,
			bool training, struct r_option *opt)
{
	struct record *r = &rd->option;
	if (!record_read(rd, r, at, path))
		return;
	opt->instance = get_string(rd, r, "instance", path, false, NAME);
	opt->provider = get_string(rd, r, "provider", path, false, NAME);
	opt->accelerator = get_string(rd, r, "accelerator", path, false, NAME);
	opt->gpus = get_count(rd, r, "gpus", path, false, 0);
	opt->nodes = get_count(rd, r, "nodes", path, false, 0);
	opt->feasible = get_bool(rd, r, "feasible", path, false);
	/* plans written before "runnable" existed: feasible implies it */
	opt->runnable = get_bool(rd, r, "runnable", path, opt->feasible);
	opt->pareto = get_bool(rd, r, "pareto", path, false);
	opt->cost = get_number(rd, r, "cost", path, false, 0);
	size_t spot;
	opt->has_spot = value_of(rd, r, "cost_spot", path, true, "a number", &spot);
	opt->cost_spot = opt->has_spot ? get_number(rd, r, "cost_spot", path, true, 0) : 0;
	opt->gpu_hours = get_number(rd, r, "gpu_hours", path, false, 0);
	opt->memory = get_number(rd, r, "memory_per_gpu_bytes", path, false, 0);
	opt->capacity = get_number(rd, r, "memory_capacity_bytes", path, false, 0);
	if (training) {
		opt->time_s = get_number(rd, r, "time_s", path, false, 0);
		opt->mfu = get_number(rd, r, "mfu", path, true, 0);
		opt->dp = get_count(rd, r, "dp", path, true, 0);
		opt->tp = get_count(rd, r, "tp", path, true, 0);
		opt->micro = get_count(rd, r, "micro_batch", path, true, 0);
	} else {
		opt->p99_s = get_number(rd, r, "p99_latency_s", path, false, 0);
		opt->replicas = get_count(rd, r, "replicas", path, false, 0);
		opt->batch = get_count(rd, r, "batch", path, true, 0);
		opt->sharing = get_string(rd, r, "sharing", path, true, NAME);
	}
	static const char *const bk[] = {"compute_s", "memory_s",
					 "communication_s", "input_s"};
	static const char *const mk[] = {"weights_bytes", "gradients_bytes",
		"optimizer_bytes", "activations_bytes", "kv_cache_bytes",
		"workspace_bytes"};
	static const char *const rk[] = {"low", "high"};
	read_parts(rd, "breakdown", path, bk, opt->breakdown, 4);
	read_parts(rd, "cost_range", path, rk, opt->cost_range, 2);
	read_parts(rd, "memory", path, mk, opt->memory_parts, 6);
	read_reasons(rd, path, opt);
	opt->slices = get_count(rd, r, "slices", path, true, 0);
	opt->mig_profile = get_string(rd, r, "mig_profile", path, true, NAME);
}

/* The op classes in the plan's order, the first six kept; each value
 * checked. */
static void read_classes(struct reader *rd, const char *path,
			 struct r_workload *rw)
{
	size_t at, key_at, value_at;
	struct jiter it;
	char outer[96], p[400];
	if (!get_container(rd, &rd->workload, "op_classes", path, J_OBJECT, false, &at))
		return;
	snprintf(outer, sizeof(outer), "%s.op_classes", path);
	if (!record_read(rd, &rd->sub, at, outer))	/* duplicates */
		return;
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, &key_at, &value_at)) {
		const char *name = key_name(rd, key_at, outer, p, sizeof(p));
		if (!record_read(rd, &rd->leaf, value_at, p))
			return;
		struct r_class k;
		k.name = name;
		k.flops = get_number(rd, &rd->leaf, "flops_per_sample", p, false, 0);
		k.weight_bytes = get_number(rd, &rd->leaf, "weight_bytes", p, false, 0);
		k.act_bytes = get_number(rd, &rd->leaf, "activation_bytes_per_sample",
					 p, false, 0);
		if (rw->n_classes < 6)
			rw->classes[rw->n_classes++] = k;
	}
}

/* ---- load curves ---------------------------------------------------------- */

/*
 * A latency of the point in rd->leaf, s: a number from 0 where the point
 * is not saturated (null allowed when nullable: TTFT and TPOT of a service
 * that makes no tokens), none where it is (the queue grows without bound:
 * no latency holds).  NAN for none.
 */
static double point_latency(struct reader *rd, const char *key,
			    const char *path, bool saturated, bool nullable)
{
	size_t at;
	bool given = value_of(rd, &rd->leaf, key, path, true, "a number", &at);
	if (saturated) {
		if (given)
			fail_at(rd, at, "%s.%s: expected null at a saturated point, found %s",
				path, key, jtype_name(jtype_at(&rd->d, at)));
		return NAN;
	}
	if (!given && nullable)
		return NAN;
	return get_number(rd, &rd->leaf, key, path, false, 0);
}

/* One point of a curve, above the previous one's rate (prev NULL: the
 * first point). */
static void read_point(struct reader *rd, size_t at, const char *path,
		       const struct r_load_point *prev, struct r_load_point *pt)
{
	if (!record_read(rd, &rd->leaf, at, path))
		return;
	pt->rate = get_number(rd, &rd->leaf, "request_rate_per_s", path, false, 0);
	if (!rd->failed && prev && !(pt->rate > prev->rate))
		fail_at(rd, field_get(&rd->leaf, "request_rate_per_s")->at,
			"%s.request_rate_per_s: expected a rate above the previous point's %g (rates increase along a curve), found %g",
			path, prev->rate, pt->rate);
	pt->saturated = get_flag(rd, &rd->leaf, "saturated", path);
	pt->e2e_p50 = point_latency(rd, "e2e_p50_s", path, pt->saturated, false);
	pt->e2e_p99 = point_latency(rd, "e2e_p99_s", path, pt->saturated, false);
	pt->ttft_p99 = point_latency(rd, "ttft_p99_s", path, pt->saturated, true);
	pt->tpot_p99 = point_latency(rd, "tpot_p99_s", path, pt->saturated, true);
}

/* How many elements the list at `at` holds, counting no further than
 * max + 1; *extra is where the (max + 1)-th starts. */
static size_t list_count(struct reader *rd, size_t at, size_t max,
			 size_t *extra)
{
	struct jiter it;
	size_t n = 0, el;
	jiter_begin(&rd->d, at, &it);
	while (n <= max && jiter_next(&rd->d, &it, NULL, &el))
		if (n++ == max)
			*extra = el;
	return n;
}

/*
 * The "load_curve" of option `index` when it has one (rd->option holds
 * the option, just read), appended to rw's curves once every point is
 * read; cap is the curves' allocation.
 */
static void read_load_curve(struct reader *rd, const char *path,
			    struct r_workload *rw, size_t index, size_t *cap)
{
	size_t at, list, el, extra = 0;
	struct jiter it;
	char p[192], pp[256];
	if (!get_container(rd, &rd->option, "load_curve", path, J_OBJECT, true, &at))
		return;
	snprintf(p, sizeof(p), "%s.load_curve", path);
	if (!record_read(rd, &rd->sub, at, p))
		return;
	struct r_load_curve c = {(long)index, 0, NULL, 0};
	c.replicas = get_count(rd, &rd->sub, "replicas", p, false, 1);
	if (!get_container(rd, &rd->sub, "points", p, J_ARRAY, false, &list))
		return;
	size_t n = list_count(rd, list, R_CURVE_MAX_POINTS, &extra);
	if (n == 0 || n > R_CURVE_MAX_POINTS) {
		fail_at(rd, n ? extra : list, "%s.points: expected a list of 1 to %d points, found %s",
			p, R_CURVE_MAX_POINTS, n ? "more" : "an empty list");
		return;
	}
	c.pt = xcalloc(n, sizeof(*c.pt));
	jiter_begin(&rd->d, list, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, NULL, &el)) {
		snprintf(pp, sizeof(pp), "%s.points[%zu]", p, c.n);
		read_point(rd, el, pp, c.n ? &c.pt[c.n - 1] : NULL, &c.pt[c.n]);
		c.n++;
	}
	if (rd->failed) {
		free(c.pt);
		return;
	}
	xgrow((void **)&rw->curves, cap, rw->n_curves + 1, sizeof(*rw->curves));
	rw->curves[rw->n_curves++] = c;
}

static void read_options(struct reader *rd, size_t at, const char *path,
			 struct r_workload *rw)
{
	struct jiter it;
	size_t el, cap = 0, curves_cap = 0;
	char p[128];
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, NULL, &el)) {
		snprintf(p, sizeof(p), "%s.options[%zu]", path, rw->n);
		xgrow((void **)&rw->v, &cap, rw->n + 1, sizeof(*rw->v));
		memset(&rw->v[rw->n], 0, sizeof(*rw->v));
		read_option(rd, el, p, rw->training, &rw->v[rw->n]);
		if (!rw->training)	/* a service's: rd->option still holds it */
			read_load_curve(rd, p, rw, rw->n, &curves_cap);
		rw->n++;
	}
}

/* A {low, median, high} range of the sample device into out; zeros when
 * absent or null. */
static void read_range(struct reader *rd, const char *key, const char *path,
		       double out[3])
{
	static const char *const keys[] = {"low", "median", "high"};
	size_t at;
	char p[192];
	for (int k = 0; k < 3; k++)
		out[k] = 0;
	if (!get_container(rd, &rd->sub, key, path, J_OBJECT, true, &at))
		return;
	snprintf(p, sizeof(p), "%s.%s", path, key);
	if (!record_read(rd, &rd->leaf, at, p))
		return;
	for (int k = 0; k < 3; k++)
		out[k] = get_number(rd, &rd->leaf, keys[k], p, false, 0);
}

/* The workload on the measured device (plan --profile), when there. */
static void read_sample(struct reader *rd, const char *path,
			struct r_workload *rw)
{
	size_t at;
	char p[192];
	if (!get_container(rd, &rd->workload, "sample_device", path, J_OBJECT,
			   true, &at))
		return;
	snprintf(p, sizeof(p), "%s.sample_device", path);
	if (!record_read(rd, &rd->sub, at, p))
		return;
	rw->sample_device = get_string(rd, &rd->sub, "device", p, false, TEXT);
	rw->sample_measured = get_string(rd, &rd->sub, "measured", p, false, NAME);
	rw->sample_batch = get_count(rd, &rd->sub, "batch", p, true, 0);
	read_range(rd, "forward_s", p, rw->sample_forward);
	read_range(rd, "step_s", p, rw->sample_step);
	read_range(rd, "run_s", p, rw->sample_run);
	read_range(rd, "requests_per_s", p, rw->sample_rate);
}

/* Nothing feasible: the closest option and what to relax, when the plan
 * says (plans written before "shortfall" existed do not). */
static void read_shortfall(struct reader *rd, const char *path,
			   struct r_workload *rw)
{
	size_t at;
	char p[192];
	rw->closest = rw->meets_deadline = -1;
	if (!get_container(rd, &rd->workload, "shortfall", path, J_OBJECT,
			   true, &at))
		return;
	snprintf(p, sizeof(p), "%s.shortfall", path);
	if (!record_read(rd, &rd->sub, at, p))
		return;
	rw->has_shortfall = true;
	rw->closest = get_index(rd, &rd->sub, "closest", p, rw->n);
	rw->meets_deadline = get_index(rd, &rd->sub, "meets_deadline", p, rw->n);
	rw->deadline_over_s = get_number(rd, &rd->sub, "deadline_over_s", p, true, 0);
	rw->budget_over = get_number(rd, &rd->sub, "budget_over", p, true, 0);
	rw->meets_deadline_over = get_number(rd, &rd->sub,
					     "meets_deadline_budget_over", p, true, 0);
	rw->target_over_s = get_number(rd, &rd->sub, "target_over_s", p, true, 0);
	rw->target = get_string(rd, &rd->sub, "target", p, true, NAME);
}

static void read_workload(struct reader *rd, size_t at, size_t index,
			  struct r_workload *rw)
{
	struct record *r = &rd->workload;
	size_t opts;
	char path[64];
	snprintf(path, sizeof(path), "workloads[%zu]", index);
	rw->recommended = rw->runner_up = rw->obvious = -1;
	if (!record_read(rd, r, at, path))
		return;
	rw->name = get_string(rd, r, "name", path, false, NAME);
	rw->kind = get_string(rd, r, "kind", path, false, NAME);
	if (!rd->failed && strcmp(rw->kind, "training") && strcmp(rw->kind, "inference"))
		fail_at(rd, field_get(r, "kind")->at,
			"%s.kind: expected \"training\" or \"inference\", found \"%s\"",
			path, rw->kind);
	rw->model = get_string(rd, r, "model", path, false, NAME);
	rw->precision = get_string(rd, r, "precision", path, false, NAME);
	rw->why = get_string(rd, r, "recommendation", path, false, TEXT);
	rw->training = strcmp(rw->kind, "training") == 0;
	rw->saving = get_number(rd, r, "saving", path, true, -R_NUMBER_MAX);
	rw->deadline_s = get_number(rd, r, "deadline_s", path, true, 0);
	rw->budget = get_number(rd, r, "budget", path, true, 0);
	for (int t = 0; t < TARGET_COUNT; t++)
		rw->target_s[t] = get_number(rd, r, target_name((enum latency_target)t)->json,
					     path, true, 0);
	rw->request_rate = get_number(rd, r, "request_rate_per_s", path, true, 0);
	read_sample(rd, path, rw);
	if (!get_container(rd, r, "options", path, J_ARRAY, false, &opts))
		return;
	read_options(rd, opts, path, rw);
	/* to size: the array doubled as it grew */
	rw->v = xrealloc(rw->v, (rw->n + 1) * sizeof(*rw->v));
	/* the options' reads reused the other records, never this one */
	rw->recommended = get_index(rd, r, "recommended", path, rw->n);
	rw->runner_up = get_index(rd, r, "runner_up", path, rw->n);
	rw->obvious = get_index(rd, r, "obvious_alternative", path, rw->n);
	rw->spot_acceptable = get_bool(rd, r, "spot_acceptable", path, false);
	rw->prompt_tokens = get_count(rd, r, "prompt_tokens", path, true, 0);
	const char *phase = get_string(rd, r, "dominant_phase", path, true, NAME);
	rw->decode_dominates = phase && !strcmp(phase, "decode") && rw->prompt_tokens > 0;
	read_shortfall(rd, path, rw);
	read_classes(rd, path, rw);
}

static void read_workloads(struct reader *rd, struct r_plan *p)
{
	size_t at, el, cap = 0;
	struct jiter it;
	if (!get_container(rd, &rd->root, "workloads", "", J_ARRAY, false, &at))
		return;
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, NULL, &el)) {
		xgrow((void **)&p->w, &cap, p->n + 1, sizeof(*p->w));
		memset(&p->w[p->n], 0, sizeof(*p->w));
		read_workload(rd, el, p->n, &p->w[p->n]);
		p->n++;
	}
	if (!rd->failed && p->n == 0)
		fail_at(rd, at, "workloads: expected a list of at least one workload, found an empty list");
}

/* Each option's instance: owned or illustrative, from the sources. */
static void resolve_instances(struct r_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		for (size_t k = 0; k < p->w[i].n; k++) {
			struct r_option *o = &p->w[i].v[k];
			const struct r_instance *in = r_plan_instance(p, o->instance);
			o->owned = in && in->owned;
			o->illustrative = in && in->illustrative;
		}
}

/* The root's "schema" is a plan's; else a failure saying what it is. */
static bool schema_ok(struct reader *rd, size_t root)
{
	const struct field *f = field_get(&rd->root, "schema");
	const char *found = "nothing (the key is missing)", *q = "";
	if (f && jtype_at(&rd->d, f->at) == J_STRING) {
		found = jstring(&rd->d, f->at, &rd->buf);
		if (!strcmp(found, "gpuplan/plan/v1"))
			return true;
		q = "\"";
	} else if (f) {
		found = jtype_name(jtype_at(&rd->d, f->at));
	}
	fail_at(rd, f ? f->at : root,
		"schema: expected \"gpuplan/plan/v1\" (a file written by "
		"'gpuplan plan --format json'), found %s%.200s%s", q, found, q);
	return false;
}

static void read_root(struct reader *rd, size_t at, struct r_plan *p)
{
	if (jtype_at(&rd->d, at) != J_OBJECT) {
		fail_at(rd, at, "not a plan: expected an object ({...}), found %s",
			jtype_name(jtype_at(&rd->d, at)));
		return;
	}
	if (!record_read(rd, &rd->root, at, ""))
		return;
	if (!schema_ok(rd, at))
		return;
	p->currency = get_string(rd, &rd->root, "currency", "", false, NAME);
	read_assumptions(rd, p);
	read_rates(rd, p);
	read_generated(rd, p);
	read_plan_sources(rd, p);
	read_workloads(rd, p);
	if (!rd->failed)
		resolve_instances(p);
}

int r_plan_parse(struct r_plan *p, const char *text, size_t len,
		 const char *name, bool positions, char *why, size_t whylen)
{
	struct reader rd;
	size_t root, at;
	char msg[400];
	memset(p, 0, sizeof(*p));
	memset(&rd, 0, sizeof(rd));
	rd.d = (struct jdoc){text, len, NULL, 0, 0};
	rd.name = name;
	rd.positions = positions;
	rd.why = why;
	rd.len = whylen;
	if (jdoc_check(&rd.d, &root, &at, msg, sizeof(msg)) < 0) {
		fail_at(&rd, at, "not a plan: %s", msg);
		return -1;
	}
	p->strings = rd.strings = xcalloc(1, sizeof(*rd.strings));
	strmap_init(&rd.strings->map);
	read_root(&rd, root, p);
	jbuf_free(&rd.buf);
	jdoc_free(&rd.d);
	struct record *recs[] = {&rd.root, &rd.workload, &rd.option, &rd.sub, &rd.leaf};
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		record_free(recs[i]);
	if (rd.failed) {
		r_plan_free(p);
		return -1;
	}
	return 0;
}

int r_plan_load(struct r_plan *p, const char *path, char *why, size_t len)
{
	char *text;
	size_t n;
	const char *name = file_shown(path);	/* "<stdin>" for "-" */
	memset(p, 0, sizeof(*p));
	switch (file_read_all(path, PLAN_MAX_BYTES, &text, &n)) {
	case FILE_READ_CANNOT_OPEN:
		snprintf(why, len, "%s: cannot open: %s", name, strerror(errno));
		return -1;
	case FILE_READ_CANNOT_READ:
		snprintf(why, len, "%s: cannot read: %s", name, strerror(errno));
		return -1;
	case FILE_READ_TOO_LARGE:
		snprintf(why, len, "%s: file too large: a plan may be at most %zu MiB",
			 name, PLAN_MAX_BYTES >> 20);
		return -1;
	case FILE_READ_OK:
		break;
	}
	int rc = r_plan_parse(p, text, n, name, true, why, len);
	free(text);
	return rc;
}

int r_plan_from_json(struct r_plan *p, const json_t *root, const char *name,
		     char *why, size_t len)
{
	/* the flags of json_write (core/output.h), so lines and columns are
	 * those of the plan a -o file holds */
	char *text = json_dump_text(root);
	memset(p, 0, sizeof(*p));
	if (!text) {
		snprintf(why, len, "%s: cannot write the plan as JSON", name);
		return -1;
	}
	int rc = r_plan_parse(p, text, strlen(text), name, true, why, len);
	free(text);
	return rc;
}

void r_plan_free(struct r_plan *p)
{
	for (size_t i = 0; p->w && i < p->n; i++) {
		free(p->w[i].v);
		for (size_t k = 0; k < p->w[i].n_curves; k++)
			free(p->w[i].curves[k].pt);
		free(p->w[i].curves);
	}
	free(p->w);
	free(p->acc);
	free(p->inst);
	free(p->assumptions);
	strings_free(p->strings);
	memset(p, 0, sizeof(*p));
}

/* ---- lookups --------------------------------------------------------------- */

const struct r_accelerator *r_plan_accelerator(const struct r_plan *p,
					       const char *name)
{
	struct r_accelerator key = {.name = name};
	if (!p->n_acc || !name)
		return NULL;
	return bsearch(&key, p->acc, p->n_acc, sizeof(*p->acc), by_accelerator_name);
}

const struct r_instance *r_plan_instance(const struct r_plan *p,
					 const char *name)
{
	struct r_instance key = {.name = name};
	if (!p->n_inst || !name)
		return NULL;
	return bsearch(&key, p->inst, p->n_inst, sizeof(*p->inst), by_instance_name);
}

size_t r_plan_accelerator_rank(const struct r_plan *p, const char *name)
{
	size_t lo = 0, hi = p->n_acc;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(p->acc[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct r_load_curve *r_workload_curve(const struct r_workload *w,
					    long option)
{
	size_t lo = 0, hi = w->n_curves;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->curves[mid].option == option)
			return &w->curves[mid];
		if (w->curves[mid].option < option)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

double r_plan_assumption(const struct r_plan *p, const char *key, double dflt)
{
	for (size_t i = 0; i < p->n_assumptions; i++)
		if (!strcmp(p->assumptions[i].key, key))
			return p->assumptions[i].has_value ? p->assumptions[i].value
							   : dflt;
	return dflt;
}

void r_plan_price_dates(const struct r_plan *p, const char **earliest,
			const char **latest)
{
	const char *lo = NULL, *hi = NULL;
	for (size_t i = 0; i < p->n_inst; i++) {
		const char *d = p->inst[i].price_as_of;
		if (d && (!lo || strcmp(d, lo) < 0))
			lo = d;
		if (d && (!hi || strcmp(d, hi) > 0))
			hi = d;
	}
	*earliest = lo ? lo : "?";
	*latest = hi ? hi : "?";
}

void r_gpus_text(const struct r_option *o, char *buf, size_t len)
{
	if (o->slices > 0 && o->mig_profile)
		snprintf(buf, len, "%ld x %s as %ld x %s", o->gpus, o->accelerator,
			 o->slices, o->mig_profile);
	else
		snprintf(buf, len, "%ld x %s", o->gpus, o->accelerator);
}

/* "1 x p5.48xlarge (8 x H100-SXM)" */
static void shortfall_rig(const struct r_option *o, char *buf, size_t len)
{
	char g[600];
	r_gpus_text(o, g, sizeof(g));
	snprintf(buf, len, "%ld x %s (%s)", o->nodes, o->instance, g);
}

/* The serving target's name as the report words it ("TTFT p99"). */
static const char *target_label(const char *json)
{
	for (int t = 0; json && t < TARGET_COUNT; t++)
		if (!strcmp(target_name((enum latency_target)t)->json, json))
			return target_name((enum latency_target)t)->label;
	return "p99";
}

void r_shortfall_sentence(const struct r_plan *p, const struct r_workload *w,
			  enum report_lang lang, char *buf, size_t len)
{
	bool zh = lang == LANG_ZH;
	if (!w->has_shortfall || w->closest < 0) {
		snprintf(buf, len, "%s", zh
			 ? "没有方案满足约束条件；没有实例能运行它：请换用每块 GPU 显存更大的实例，或更小的模型或批量。"
			 : "No option meets the constraints, and no instance can run it: use an instance with more memory per GPU, or a smaller model or batch.");
		return;
	}
	const struct r_option *o = &w->v[w->closest];
	char rig[800], t[48], c[64], x[64];
	shortfall_rig(o, rig, sizeof(rig));
	double cost = w->spot_acceptable && o->has_spot ? o->cost_spot : o->cost;
	int k;
	if (w->training)
		k = snprintf(buf, len, zh ? "没有方案满足约束条件；最接近的是 %s，用时 %s，费用 %s："
					  : "No option meets the constraints; the closest, %s, takes %s for %s:",
			     rig, tr_duration(lang, o->time_s, t, sizeof(t)),
			     tr_money(cost, p->currency, c, sizeof(c)));
	else
		k = snprintf(buf, len, zh ? "没有方案满足延迟目标；最接近的是 %s，p99 延迟 %s"
					  : "No option meets the latency targets; the closest, %s, reaches p99 %s",
			     rig, tr_duration(lang, o->p99_s, t, sizeof(t)));
	const char *sep = zh ? "" : " ";
	if (w->deadline_over_s > 0 && k > 0 && (size_t)k < len) {
		k += snprintf(buf + k, len - (size_t)k, zh ? "%s期限放宽 %s" : "%sallow %s more",
			      sep, tr_duration(lang, w->deadline_over_s, t, sizeof(t)));
		sep = zh ? "，或" : ", or ";
	}
	if (w->budget_over > 0 && k > 0 && (size_t)k < len) {
		k += snprintf(buf + k, len - (size_t)k, zh ? "%s预算增加 %s" : "%sraise the budget by %s",
			      sep, tr_money(w->budget_over, p->currency, x, sizeof(x)));
		sep = zh ? "，或" : ", or ";
	}
	if (w->meets_deadline >= 0 && w->meets_deadline != w->closest &&
	    w->meets_deadline_over > 0 && k > 0 && (size_t)k < len) {
		shortfall_rig(&w->v[w->meets_deadline], rig, sizeof(rig));
		k += snprintf(buf + k, len - (size_t)k,
			      zh ? "%s预算增加 %s 改用能按期完成的 %s" : "%sraise the budget by %s for %s, which meets the deadline",
			      sep, tr_money(w->meets_deadline_over, p->currency, x, sizeof(x)), rig);
	}
	if (!w->training && w->target && k > 0 && (size_t)k < len)
		k += snprintf(buf + k, len - (size_t)k,
			      zh ? "：%s 目标需放宽 %s" : ": allow %s more on the %s target",
			      zh ? target_label(w->target) : tr_duration(lang, w->target_over_s, t, sizeof(t)),
			      zh ? tr_duration(lang, w->target_over_s, t, sizeof(t)) : target_label(w->target));
	if (k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, "%s", zh ? "。" : ".");
	tr_trim_utf8(buf);
}

/*
 * plan_reader.c - the plan JSON reader's records and typed values; see
 * plan_reader.h.
 *
 * The text is checked whole first (json_read.h), then read by offsets:
 * each object the report reads fields of is indexed as a "record" (its
 * keys sorted, so a duplicate is found and a lookup is a binary search,
 * in any key order), values are type- and range-checked as they are
 * copied out, and every message carries the value's line and column and
 * its JSON path.  The first problem is the one reported.
 */
#include "plan_reader.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/term_safe.h"
#include "core/xalloc.h"
#include "plan_strings.h"
#include "report_data.h"

/* "path.key" for messages, "key" at the top level (path ""), "path"
 * when key is NULL: use as "%s%s%s" with PATH_KEY(path, key). */
#define PATH_KEY(path, key) (path), (*(path) && (key) ? "." : ""), \
	((key) ? (key) : "")

void rd_fail_at(struct reader *rd, size_t at, const char *fmt, ...)
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

void rd_record_free(struct record *r)
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
bool rd_record_read(struct reader *rd, struct record *r, size_t at,
		    const char *path)
{
	struct jiter it;
	size_t key_at, value_at;
	if (rd->failed)
		return false;
	if (jtype_at(&rd->d, at) != J_OBJECT) {
		rd_fail_at(rd, at, "%s%s%s: expected an object, found %s",
			   PATH_KEY(path, NULL), jtype_name(jtype_at(&rd->d, at)));
		return false;
	}
	r->at = at;
	r->n = r->keys_len = 0;
	jiter_begin(&rd->d, at, &it);
	while (jiter_next(&rd->d, &it, &key_at, &value_at)) {
		if (r->n == R_RECORD_MAX_KEYS) {
			rd_fail_at(rd, key_at, "%s%sexpected at most %d keys in an object, found more",
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
			rd_fail_at(rd, r->f[i].key_at, "%s%sthe key \"%s\" appears twice",
				   path, *path ? ": " : "", r->f[i].key);
			return false;
		}
	return true;
}

const struct field *rd_field(const struct record *r, const char *key)
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
bool rd_value_of(struct reader *rd, const struct record *r,
		 const char *key, const char *path, bool nullable,
		 const char *expected, size_t *at)
{
	const struct field *f = rd_field(r, key);
	if (rd->failed)
		return false;
	if (f && jtype_at(&rd->d, f->at) != J_NULL) {
		*at = f->at;
		return true;
	}
	if (!nullable)
		rd_fail_at(rd, f ? f->at : r->at, "%s%s%s: expected %s, found %s",
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
	rd_fail_at(rd, at, "%s%s%s: expected %s, found %s", PATH_KEY(path, key),
		   expected, jtype_name(got));
	return false;
}

/* A number from lo to R_NUMBER_MAX (lo is 0 or -R_NUMBER_MAX); 0 when
 * absent and nullable. */
double rd_number(struct reader *rd, const struct record *r,
		 const char *key, const char *path, bool nullable,
		 double lo)
{
	size_t at;
	if (!rd_value_of(rd, r, key, path, nullable, "a number", &at) ||
	    !want_type(rd, at, J_NUMBER, path, key, "a number"))
		return 0;
	double v = jnumber(&rd->d, at);
	if (!(v >= lo && v <= R_NUMBER_MAX)) {
		rd_fail_at(rd, at, "%s%s%s: expected a number from %s to 1e+100, found %g",
			   PATH_KEY(path, key), lo < 0 ? "-1e+100" : "0", v);
		return 0;
	}
	return v;
}

/* A count (GPUs, nodes, replicas, a batch): a whole number from min to a
 * billion, so the cast to long is defined and the text stays sane. */
long rd_count(struct reader *rd, const struct record *r,
	      const char *key, const char *path, bool nullable,
	      long min)
{
	size_t at;
	if (!rd_value_of(rd, r, key, path, nullable, "a whole number", &at) ||
	    !want_type(rd, at, J_NUMBER, path, key, "a whole number"))
		return 0;
	double v = jnumber(&rd->d, at);
	if (!(v >= (double)min && v <= (double)R_COUNT_MAX) || v != floor(v)) {
		rd_fail_at(rd, at, "%s%s%s: expected a whole number from %ld to %ld, found %g",
			   PATH_KEY(path, key), min, R_COUNT_MAX, v);
		return 0;
	}
	return (long)v;
}

/* A boolean the key must hold (no default): false after a failure. */
bool rd_flag(struct reader *rd, const struct record *r,
	     const char *key, const char *path)
{
	size_t at;
	if (!rd_value_of(rd, r, key, path, false, "true or false", &at) ||
	    !want_type(rd, at, J_TRUE, path, key, "true or false"))
		return false;
	return jtype_at(&rd->d, at) == J_TRUE;
}

bool rd_bool(struct reader *rd, const struct record *r,
	     const char *key, const char *path, bool dflt)
{
	size_t at;
	if (!rd_value_of(rd, r, key, path, true, "true or false", &at))
		return dflt;
	if (!want_type(rd, at, J_TRUE, path, key, "true or false"))
		return dflt;
	return jtype_at(&rd->d, at) == J_TRUE;
}

/* An option index below n, or -1 for null or a missing key. */
long rd_index(struct reader *rd, const struct record *r,
	      const char *key, const char *path, size_t n)
{
	size_t at;
	if (!rd_value_of(rd, r, key, path, true, "an option index", &at))
		return -1;
	enum jtype t = jtype_at(&rd->d, at);
	double v = t == J_NUMBER ? jnumber(&rd->d, at) : -1;
	if (t != J_NUMBER || !(v >= 0 && v < (double)n) || v != floor(v)) {
		if (t == J_NUMBER)
			rd_fail_at(rd, at, "%s%s%s: expected an option index below %zu or null, found %g",
				   PATH_KEY(path, key), n, v);
		else
			rd_fail_at(rd, at, "%s%s%s: expected an option index below %zu or null, found %s",
				   PATH_KEY(path, key), n, jtype_name(t));
		return -1;
	}
	return (long)v;
}

/* Refuses text a report must not draw or print: control characters
 * (and, for a name, newlines, tabs and more than R_NAME_MAX bytes). */
static bool text_ok(struct reader *rd, size_t at, const char *path,
		    const char *key, const char *s, size_t len,
		    enum text_kind kind)
{
	const char *what;
	if (kind == NAME && len > R_NAME_MAX) {
		rd_fail_at(rd, at, "%s%s%s: expected a name of at most %d bytes, found %zu bytes",
			   PATH_KEY(path, key), R_NAME_MAX, len);
		return false;
	}
	if (text_control_char(s, kind == NAME ? 0 : TERM_KEEP_LINES, &what) >= 0) {
		rd_fail_at(rd, at, "%s%s%s: expected %s without control characters, found %s",
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
	return r_intern(rd->strings, s, rd->buf.len);
}

/* A string field: NULL when nullable and absent, "" after a failure. */
const char *rd_text(struct reader *rd, const struct record *r,
		    const char *key, const char *path, bool nullable,
		    enum text_kind kind, bool keep)
{
	size_t at;
	if (!rd_value_of(rd, r, key, path, nullable, "a string", &at))
		return rd->failed ? "" : NULL;
	return string_at(rd, at, path, key, kind, keep);
}

const char *rd_string(struct reader *rd, const struct record *r,
		      const char *key, const char *path, bool nullable,
		      enum text_kind kind)
{
	return rd_text(rd, r, key, path, nullable, kind, true);
}

/* The value of an optional object or list field: true with *at when
 * present (not null) and of type t. */
bool rd_container(struct reader *rd, const struct record *r,
		  const char *key, const char *path, enum jtype t,
		  bool nullable, size_t *at)
{
	const char *what = t == J_OBJECT ? "an object" : "a list";
	return rd_value_of(rd, r, key, path, nullable, what, at) &&
	       want_type(rd, *at, t, path, key, what);
}

/* A name used as a key (an instance, an accelerator, an assumption, an
 * op class): checked like any name; its path `outer["name"]`. */
const char *rd_key_name(struct reader *rd, size_t key_at,
			const char *outer, char *path, size_t len)
{
	const char *name = string_at(rd, key_at, outer, NULL, NAME, true);
	snprintf(path, len, "%s[\"%s\"]", outer, name);
	return name;
}

/*
 * json_read.h - a JSON document read in place: checked once, then walked
 * by byte offsets, every value with its line and column.
 *
 * A report reads plans of tens of megabytes.  A tree (jansson) costs 5 to
 * 80 times the text in memory depending on its shape, and forgets where
 * each value was; here the text itself is the document.  jdoc_check()
 * validates it whole (RFC 8259: syntax, UTF-8, escapes, numbers that fit
 * a double, nesting depth) in one pass and a stack of JSON_MAX_DEPTH
 * bytes; after that, values are found by offset, decoded when read, and a
 * message can say file:line:column of any of them.  Memory: the text and
 * what the caller copies out of it.
 *
 * Ownership: a jdoc borrows its text, which must stay alive and end with
 * a NUL at s[n] (file_read_all and json_dumps give that); decoded strings
 * live in the caller's struct jbuf until its next use.
 */
#ifndef GPUPLAN_REPORT_JSON_READ_H
#define GPUPLAN_REPORT_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_MAX_DEPTH 256	/* nested objects and lists; a plan needs 7 */

/* Where a large object or list ends, found by jdoc_check so that reading
 * skips it in one step, not byte by byte. */
struct jspan {
	size_t start, end;
};

struct jdoc {
	const char *s;
	size_t n;		/* s[n] == '\0' */
	/* filled by jdoc_check: every container of JSON_SPAN_MIN bytes or
	 * more, by start (a few per JSON_SPAN_MIN bytes of text at most) */
	struct jspan *spans;
	size_t n_spans, cap_spans;
};

#define JSON_SPAN_MIN 4096

enum jtype { J_OBJECT, J_ARRAY, J_STRING, J_NUMBER, J_TRUE, J_FALSE, J_NULL };

/*
 * Checks that s[0..n) is exactly one JSON value.  Returns 0 and sets
 * *root to the offset of that value, or -1 with *at the offset of the
 * first problem and what it is in why ("expected ',' or '}' after a
 * member of an object, found the end of the file").
 */
int jdoc_check(struct jdoc *d, size_t *root, size_t *at, char *why,
	       size_t whylen);
/* Frees what jdoc_check added to d (not the text). */
void jdoc_free(struct jdoc *d);

/* Line (from 1) and column (from 1, in characters) of offset at. */
void jdoc_position(const struct jdoc *d, size_t at, int *line, int *col);

/* ---- reading a checked document; `at` is the offset of a value ---- */

enum jtype jtype_at(const struct jdoc *d, size_t at);
/* "an object", "a list", "a string", "a number", "true/false", "null". */
const char *jtype_name(enum jtype t);

double jnumber(const struct jdoc *d, size_t at);

/* A growable buffer for decoded strings. */
struct jbuf {
	char *s;
	size_t len, cap;
};
void jbuf_free(struct jbuf *b);

/* The string at `at` decoded (escapes resolved, NUL-terminated) into b;
 * returns b->s, its length in b->len.  A checked string holds no NUL. */
const char *jstring(const struct jdoc *d, size_t at, struct jbuf *b);

/*
 * Iteration over a list's elements or an object's members: start with
 * jiter_begin at the '[' or '{', then call jiter_next until it returns
 * false.  For an object, *key_at (when key_at is not NULL) is the
 * member's key, a string value.
 */
struct jiter {
	size_t at;
	bool first, object;
};
void jiter_begin(const struct jdoc *d, size_t at, struct jiter *it);
bool jiter_next(const struct jdoc *d, struct jiter *it, size_t *key_at,
		size_t *value_at);

#endif

/*
 * plan_reader.h - what the plan JSON reader reads with: the checked text
 * walked by offsets (json_read.h), an object indexed as a "record" (its
 * keys sorted: a duplicate is found, a lookup is a binary search), and
 * typed values checked and copied out of records.  The parts of a plan
 * are read with these by plan_sources.h, plan_workloads.h and
 * plan_curves.h, the whole by plan_load.h.
 *
 * Every failure is a message with the plan's name, the value's line and
 * column (when positions) and its JSON path; the first is the one kept.
 * After it, rd_record_read and the typed getters return at once (false, 0,
 * -1, "" or their default), so a part is read without a check after each
 * value; loops stop on rd->failed.  The limits checked are report_data.h's.
 * Ownership: a struct reader borrows the text (d), the message buffer
 * (why) and the plan's string table (plan_strings.h); it owns its
 * records and its decoding buffer, which the loader frees (rd_record_free,
 * jbuf_free).  Strings returned are interned in the plan's table.
 */
#ifndef GPUPLAN_REPORT_PLAN_READER_H
#define GPUPLAN_REPORT_PLAN_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "json_read.h"

struct r_strings;

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

/* Fails the read at offset `at` of the text with fmt's message (printf),
 * after the plan's name and, with positions, at's line and column: only
 * the first failure is kept. */
void rd_fail_at(struct reader *rd, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Indexes the object at `at` into r: false (after failing) when it is not
 * an object, holds a key twice or more than R_RECORD_MAX_KEYS keys.  path
 * names it in messages. */
bool rd_record_read(struct reader *rd, struct record *r, size_t at,
		    const char *path);
/* Frees what r holds, not r. */
void rd_record_free(struct record *r);
/* r's field named key; NULL when r has none. */
const struct field *rd_field(const struct record *r, const char *key);

/* ---- typed values: key of r, named path.key in messages ---- */

/* Where key's value is: true with *at, or false when it is missing or
 * null (a failure unless nullable). */
bool rd_value_of(struct reader *rd, const struct record *r,
		 const char *key, const char *path, bool nullable,
		 const char *expected, size_t *at);
/* A number from lo (0 or -R_NUMBER_MAX) to R_NUMBER_MAX; 0 when absent
 * and nullable. */
double rd_number(struct reader *rd, const struct record *r,
		 const char *key, const char *path, bool nullable,
		 double lo);
/* A whole number from min to R_COUNT_MAX (GPUs, nodes, replicas, a
 * batch); 0 when absent and nullable. */
long rd_count(struct reader *rd, const struct record *r,
	      const char *key, const char *path, bool nullable,
	      long min);
/* A boolean the key must hold (no default): false after a failure. */
bool rd_flag(struct reader *rd, const struct record *r,
	     const char *key, const char *path);
/* A boolean; dflt when absent or null. */
bool rd_bool(struct reader *rd, const struct record *r,
	     const char *key, const char *path, bool dflt);
/* An option index below n, or -1 for null or a missing key. */
long rd_index(struct reader *rd, const struct record *r,
	      const char *key, const char *path, size_t n);

enum text_kind {
	NAME,		/* one line, at most R_NAME_MAX bytes */
	TEXT,		/* a sentence, a title, a URL: lines allowed */
};

/* A string field checked as kind (no control characters; a NAME on one
 * line of at most R_NAME_MAX bytes), interned when keep, else only
 * checked: a string the report never draws costs no memory.  NULL when
 * nullable and absent; "" after a failure or when not kept. */
const char *rd_text(struct reader *rd, const struct record *r,
		    const char *key, const char *path, bool nullable,
		    enum text_kind kind, bool keep);
/* rd_text, kept. */
const char *rd_string(struct reader *rd, const struct record *r,
		      const char *key, const char *path, bool nullable,
		      enum text_kind kind);
/* The value of an object (t J_OBJECT) or list (J_ARRAY) field: true with
 * *at when present, not null and of type t. */
bool rd_container(struct reader *rd, const struct record *r,
		  const char *key, const char *path, enum jtype t,
		  bool nullable, size_t *at);
/* The name of the key at key_at (an instance, an accelerator, an
 * assumption, an op class), checked as a NAME and interned; path gets
 * `outer["name"]`, the entry's path in messages. */
const char *rd_key_name(struct reader *rd, size_t key_at,
			const char *outer, char *path, size_t len);

#endif

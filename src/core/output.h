/*
 * output.h - a command's result, gathered in memory and then delivered whole.
 *
 * Commands print into out->f (a memory stream).  output_finish() then sends
 * the bytes to stdout, or writes them atomically to the -o file, and checks
 * for write errors (a full disk or a closed pipe is a runtime failure, not a
 * silent truncation).  A command that fails before finishing discards the
 * buffer, so nothing half-made reaches the user.
 * Ownership: output_open() allocates the buffer; output_finish() or
 * output_discard() frees it.
 */
#ifndef GPUPLAN_CORE_OUTPUT_H
#define GPUPLAN_CORE_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "atomic_file.h"

struct output {
	FILE *f;
	char *data;		/* in memory: the bytes so far */
	size_t len;
	struct atomic_set file;	/* streamed: the -o file being staged */
	bool streamed;
};

void output_open(struct output *o);
/*
 * The same, but a -o naming a file is written as it is made, into its
 * staged temporary file (atomic_file.h), so a large result (a plan of
 * thousands of instances) is never held in memory; standard output, a
 * device or a pipe are buffered as output_open does.  Returns 0, or 1 or
 * 2 (the target refused) after printing why.  output_finish gets the same
 * path.
 */
int output_open_to(struct output *o, const char *path);
void output_discard(struct output *o);

/* Delivers to `path` (atomically) or to stdout when path is NULL or "-".
 * Returns 0, 1 (runtime failure) or 2 (a target that may not be written:
 * one of the command's inputs) after printing why on stderr. */
int output_finish(struct output *o, const char *path);

/* Writes j as indented JSON with a trailing newline.  Key order is
 * insertion order and reals print as the shortest decimal that reads back
 * to the same double (num_format.h), so the same data always gives the
 * same bytes.  Every JSON gpuplan prints goes through
 * here. */
void json_write(FILE *f, const json_t *j);
/* The same text, without the trailing newline, in a malloc'd string the
 * caller frees (for a reader that wants the lines json_write gives). */
char *json_dump_text(const json_t *j);

/*
 * A JSON document written a piece at a time, in the bytes json_write
 * would give for the whole: an object `head` (its members first), then
 * the items of one more member, an array named `key`, each written as it
 * comes.  Streams nest: an item may itself be an object streamed by an
 * inner json_stream begun right after json_stream_next() on the outer
 * one.  A plan then holds one option's tree at a time instead of every
 * option of every workload (a 100x catalog's plan held 1 GB).
 */
struct json_stream {
	FILE *f;
	int indent;		/* spaces before the head's own braces */
	size_t items;
};
/* indent: 0 for the document itself; for a nested stream, the value
 * json_stream_next() returned. */
void json_stream_begin(struct json_stream *s, FILE *f, int indent,
		       const json_t *head, const char *key);
/* Starts the next item (separator and indentation); returns the indent a
 * nested stream for that item begins with. */
int json_stream_next(struct json_stream *s);
/* A whole item: json_stream_next() and the item's text. */
void json_stream_item(struct json_stream *s, const json_t *item);
void json_stream_end(struct json_stream *s);

/* An integer when the value is whole and exactly representable, else a
 * real: byte counts print as 80000000000, not 8e+10. */
json_t *json_number(double v);

/* A JSON string that is always made: text that is not UTF-8 (a file name
 * in Latin-1) has each bad byte spelled out ("\\xe4", term_safe.h), where
 * json_string would return NULL and the key holding it would silently
 * vanish from the document. */
json_t *json_text(const char *s);

/* A JSON string (as json_text), or null for a NULL pointer (an absent
 * optional field). */
json_t *json_string_or_null(const char *s);

#endif

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

#include <stdio.h>

#include <jansson.h>

struct output {
	FILE *f;
	char *data;
	size_t len;
};

void output_open(struct output *o);
void output_discard(struct output *o);

/* Delivers to `path` (atomically) or to stdout when path is NULL or "-".
 * Returns 0, 1 (runtime failure) or 2 (a target that may not be written:
 * one of the command's inputs) after printing why on stderr. */
int output_finish(struct output *o, const char *path);

/* Writes j as indented JSON with a trailing newline.  Key order is
 * insertion order and reals print with 15 significant digits, so the same
 * data always gives the same bytes.  Every JSON gpuplan prints goes through
 * here. */
void json_write(FILE *f, const json_t *j);

/* An integer when the value is whole and exactly representable, else a
 * real: byte counts print as 80000000000, not 8e+10. */
json_t *json_number(double v);

/* A JSON string, or null for a NULL pointer (an absent optional field). */
json_t *json_string_or_null(const char *s);

#endif

/*
 * error.h - problems with a location, collected rather than thrown.
 *
 * A loader that finds a problem adds it here and carries on where it can, so
 * `catalog validate` reports every problem in a file, not just the first.
 * Each problem prints as
 *
 *     catalogs/aws.yaml:12:5: unknown key 'gpu_cout' (did you mean 'gpu_count'?)
 *
 * A flood of problems (a generated file with a million empty entries) is
 * kept to its first GP_ERRORS_MAX_KEPT: the rest are only counted, and the
 * printout ends with "... and N more problems".  Memory and output then stay
 * bounded whatever the input, and the first problems, the ones to fix
 * first, are all there.
 *
 * Every string printed is passed through term_escape() (term_safe.h): a
 * name or value holding an escape sequence cannot drive the terminal.
 *
 * Ownership: a gp_errors owns copies of every string added to it; free it
 * with gp_errors_free().  Line and column are 1-based; 0 means "whole file"
 * (or "no file" when file is NULL, e.g. a command-line argument).
 */
#ifndef GPUPLAN_CORE_ERROR_H
#define GPUPLAN_CORE_ERROR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define GP_ERRORS_MAX_KEPT 200	/* problems kept and printed; the rest counted */

struct gp_error {
	char *file;	/* NULL for problems not tied to a file */
	int line;	/* 1-based; 0 when unknown */
	int col;	/* 1-based; 0 when unknown */
	char *msg;	/* lowercase, no full stop: "unknown key 'gpu_cout'" */
	char *hint;	/* optional: "did you mean 'gpu_count'?" */
};

struct gp_errors {
	struct gp_error *v;
	size_t n, cap;		/* kept problems: at most GP_ERRORS_MAX_KEPT */
	size_t dropped;		/* problems counted past the cap */
};

void gp_errors_init(struct gp_errors *e);
void gp_errors_free(struct gp_errors *e);

/* Adds one problem.  hint may be NULL.  Never fails: on out-of-memory the
 * program cannot report anything useful, so it aborts with a message. */
void gp_errors_add(struct gp_errors *e, const char *file, int line, int col,
		   const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Every problem added, kept or not: compare before and after a step to
 * learn whether it found any. */
size_t gp_errors_count(const struct gp_errors *e);

/* True once further problems are only counted: a caller may then skip
 * work that only makes a message better (a did-you-mean). */
bool gp_errors_full(const struct gp_errors *e);

/* Prints every kept problem, one a line, "file:line:col: msg (hint)", and
 * "... and N more problems" when some were dropped. */
void gp_errors_print(const struct gp_errors *e, FILE *out);

/* Formats one problem into buf as gp_errors_print would (no newline). */
void gp_error_format(const struct gp_error *err, char *buf, size_t len);

#endif

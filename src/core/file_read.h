/*
 * file_read.h - a whole file into memory, with a size limit that applies
 * while reading (a 10 GiB file is refused after limit + 1 bytes, not
 * after it filled memory).  Parsers then work on the bytes: faster than
 * reading a character at a time through stdio.
 *
 * The path "-" is standard input (DESIGN.md), and messages name it
 * "<stdin>" (file_shown()); it can be read once, so a command that reads
 * two files refuses two "-" before reading (file_count_stdin()).
 */
#ifndef GPUPLAN_CORE_FILE_READ_H
#define GPUPLAN_CORE_FILE_READ_H

#include <stddef.h>

enum file_read_status {
	FILE_READ_OK,
	FILE_READ_CANNOT_OPEN,	/* errno says why */
	FILE_READ_CANNOT_READ,	/* errno says why */
	FILE_READ_TOO_LARGE,	/* more than the limit */
};

/* Reads path (standard input for "-"); on FILE_READ_OK *data is malloc'd, NUL-terminated, *len
 * bytes long (the NUL not counted).  On failure *data is NULL and errno
 * is kept for the caller's message. */
enum file_read_status file_read_all(const char *path, size_t limit,
				    char **data, size_t *len);

/* The name messages give path: "<stdin>" for "-", else path itself. */
const char *file_shown(const char *path);

/* How many of paths[0..n-1] are "-" (NULL entries skipped). */
size_t file_count_stdin(const char *const *paths, size_t n);

#endif

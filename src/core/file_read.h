/*
 * file_read.h - a whole file into memory, with a size limit that applies
 * while reading (a 10 GiB file is refused after limit + 1 bytes, not
 * after it filled memory).  Parsers then work on the bytes: faster than
 * reading a character at a time through stdio.
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

/* Reads path; on FILE_READ_OK *data is malloc'd, NUL-terminated, *len
 * bytes long (the NUL not counted).  On failure *data is NULL and errno
 * is kept for the caller's message. */
enum file_read_status file_read_all(const char *path, size_t limit,
				    char **data, size_t *len);

#endif

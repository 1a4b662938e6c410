/*
 * atomic_file.h - write a whole file or nothing.
 *
 * The content goes to a temporary file in the target's directory (so the
 * rename cannot cross file systems), is flushed to disk with fsync, and is
 * then renamed over the target; the directory is fsynced so the rename
 * survives a crash.  A failure at any step removes the temporary file and
 * leaves any previous target untouched: no reader ever sees half a file.
 * A target that is a device or a pipe (/dev/null, /dev/stdout) is written
 * in place instead: renaming over it would replace the device with a file.
 * A symbolic link keeps pointing where it did; its target is replaced.
 */
#ifndef GPUPLAN_CORE_ATOMIC_FILE_H
#define GPUPLAN_CORE_ATOMIC_FILE_H

#include <stddef.h>

/* Returns 0, or -1 with a one-line reason in why. */
int atomic_write(const char *path, const void *data, size_t len, char *why,
		 size_t whylen);

#endif

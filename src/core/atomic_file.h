/*
 * atomic_file.h - write a whole file, or a whole set of files, or nothing.
 *
 * The content goes to a temporary file in the target's directory (so the
 * rename cannot cross file systems), is flushed to disk with fsync, and is
 * then renamed over the target; the directory is fsynced so the rename
 * survives a crash.  A failure at any step removes the temporary file and
 * leaves any previous target untouched: no reader ever sees half a file.
 *
 * What a target may be:
 *   - a regular file: replaced, keeping its permission bits (a report a
 *     team made group-readable stays so);
 *   - a symbolic link, live or dangling: the link stays and the file it
 *     names is written (created when it does not exist yet), by one rule;
 *   - a device or a pipe (/dev/null, /dev/stdout): written in place,
 *     since renaming over it would replace the device with a file;
 *   - a folder: refused;
 *   - one of the files this run read as input (io_guard.h): refused with
 *     ATOMIC_REFUSED, before anything is written: `-o` naming the
 *     command's own input would otherwise destroy it.
 * Temporary files are registered with io_guard, so SIGINT, SIGTERM or
 * SIGHUP during a write removes them.  SIGKILL cannot be caught: each
 * temporary's name holds a tag of the host and the writer's pid
 * (FILE.tmp.HOST-PID.XXXXXX), and the next write of FILE removes those
 * whose writer on this host is gone.
 *
 * A set (a report's PDF and its PNG and SVG charts) is staged file by
 * file, each to its temporary name, and renamed only when every one of
 * them has been written: a full disk half-way leaves none of the set.
 * Renames within one directory do not fail for want of space, so once
 * staging has succeeded the commit completes.
 */
#ifndef GPUPLAN_CORE_ATOMIC_FILE_H
#define GPUPLAN_CORE_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

enum {
	ATOMIC_OK = 0,
	ATOMIC_FAILED = -1,
	ATOMIC_REFUSED = -2,
	ATOMIC_IN_PLACE = -3,	/* atomic_set_stream: a device or pipe */
};

/* Returns ATOMIC_OK, or ATOMIC_FAILED / ATOMIC_REFUSED with a one-line
 * reason in why. */
int atomic_write(const char *path, const void *data, size_t len, char *why,
		 size_t whylen);

/* ATOMIC_REFUSED with why when path may not be written as an output (an
 * input of this run, a folder, an empty name), else ATOMIC_OK: the check
 * atomic_write makes first, for commands to make before any work. */
int atomic_check_target(const char *path, char *why, size_t whylen);

struct atomic_staged;

struct atomic_set {
	struct atomic_staged *v;
	size_t n, cap;
};

void atomic_set_init(struct atomic_set *s);
/* Writes data to a temporary file beside path.  Returns as atomic_write;
 * on failure the set is still whole (abort or commit what was staged is
 * the caller's choice; a report aborts). */
int atomic_set_add(struct atomic_set *s, const char *path, const void *data,
		   size_t len, char *why, size_t whylen);
/* Stages an empty temporary file for path and opens it for writing, so a
 * large output goes to disk as it is made instead of into memory: write
 * through *f, never close it (commit flushes, checks, syncs and closes
 * it; abort closes and removes it).  ATOMIC_IN_PLACE when path names a
 * device or pipe: nothing staged, write it with atomic_write instead. */
int atomic_set_stream(struct atomic_set *s, const char *path, FILE **f,
		      char *why, size_t whylen);
/* Ends every streamed file (a write error or full disk then aborts the
 * whole set), renames every staged file over its target, and frees the
 * set. */
int atomic_set_commit(struct atomic_set *s, char *why, size_t whylen);
/* Removes every staged file; targets untouched.  Frees the set. */
void atomic_set_abort(struct atomic_set *s);

#endif

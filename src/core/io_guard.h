/*
 * io_guard.h - what the whole process must remember about its files, so
 * that a run is all or nothing even when it is interrupted.
 *
 * This is the core's one piece of process-wide state, kept here on
 * purpose: a signal handler can reach nothing else, and the files a run
 * read are found deep inside loaders (an included model, a catalog named
 * by a workload) where threading a list through every call would touch
 * every loader for one check.
 *
 *   - Temporary files: atomic writes register each temporary file while it
 *     exists; on SIGINT, SIGTERM or SIGHUP the handler removes them (unlink
 *     is async-signal-safe) and the process dies of the signal as it would
 *     have, so an interrupted write leaves no FILE.tmp.XXXXXX and the
 *     previous FILE whole.  Commits check io_guard_interrupted() before
 *     each rename; a signal handled on another thread (OpenBLAS starts
 *     one) while a rename is under way can still let that one rename
 *     finish, so FILE is then the whole new file: never a half of
 *     either.  SIGXFSZ (`ulimit -f`) is ignored, so an
 *     oversized write fails with EFBIG and is reported like a full disk.
 *   - Inputs: every file read through file_read_all() is remembered by its
 *     device and inode, so `-o` naming one of the command's own inputs is
 *     refused instead of destroying it, whatever name or link reaches it.
 *
 * Ownership: paths given to io_guard_temp_add() are copied; the registry
 * frees them on io_guard_temp_remove().
 */
#ifndef GPUPLAN_CORE_IO_GUARD_H
#define GPUPLAN_CORE_IO_GUARD_H

#include <stdbool.h>
#include <sys/types.h>

#define IO_GUARD_MAX_TEMPS 256	/* temporary files alive at once */
#define IO_GUARD_MAX_INPUTS 4096	/* input files remembered */

/* Installs the handlers (once, from main).  A signal the parent set to be
 * ignored (nohup) stays ignored. */
void io_guard_install(void);

/* Registers a temporary file for removal on a fatal signal; returns a
 * slot for io_guard_temp_remove(), or -1 when the registry is full (the
 * write then goes ahead unguarded: a signal could leave it behind). */
int io_guard_temp_add(const char *path);
/* Forgets slot (after a rename or an unlink). */
void io_guard_temp_remove(int slot);

/* True once a guarded signal has arrived (the process is about to die). */
bool io_guard_interrupted(void);

/* Remembers a file that was read as input. */
void io_guard_input_add(dev_t dev, ino_t ino);
/* True when path names (after links) a file read as input. */
bool io_guard_is_input(const char *path);

/*
 * Test hooks: when the environment variable GPUPLAN_FAULT names `point`,
 * the process stops itself there (SIGSTOP), so a test can look at the
 * files mid-write and send it a signal.  Points: "before-rename" (every
 * temporary file written, none renamed yet).
 */
void io_guard_fault_point(const char *point);

#endif

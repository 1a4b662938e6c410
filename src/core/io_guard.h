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
 * Ownership: paths given to io_guard_temp_add() and io_guard_dir_add()
 * are copied; the registry frees them on the matching _remove().
 */
#ifndef GPUPLAN_CORE_IO_GUARD_H
#define GPUPLAN_CORE_IO_GUARD_H

#include <stdbool.h>
#include <sys/types.h>

#define IO_GUARD_MAX_INPUTS 4096	/* input files remembered */

/* Installs the handlers (once, from main).  A signal the parent set to be
 * ignored (nohup) stays ignored. */
void io_guard_install(void);

/* Registers a temporary file for removal on a fatal signal; returns a
 * handle for io_guard_temp_remove(), or -1 past a million paths alive at
 * once (the write then goes ahead unguarded). */
long io_guard_temp_add(const char *path);
/* Forgets a temporary file (after its rename or unlink); -1 is ignored. */
void io_guard_temp_remove(long handle);

/* The same for a folder the run made (a report's --png DIR): removed on a
 * fatal signal after the files, if empty by then, latest made first. */
long io_guard_dir_add(const char *path);
void io_guard_dir_remove(long handle);

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

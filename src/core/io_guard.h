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
 *     exists (folders a run makes may be registered too).  A signal that
 *     would end the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE,
 *     SIGALRM, SIGUSR1/2, SIGXCPU, SIGVTALRM, SIGPROF) removes them
 *     (unlink and rmdir are async-signal-safe) and the process then dies
 *     of the signal as it would have: an interrupted write leaves no
 *     FILE.tmp.HOST-PID.XXXXXX and the previous FILE whole.  Renaming a
 *     staged set into place is bracketed by io_guard_commit_begin/_end:
 *     a signal that comes first wins and nothing is renamed; one that
 *     comes during the renames waits for them, so a set is never half replaced.  SIGXFSZ
 *     (`ulimit -f`) is ignored, so an oversized write fails with EFBIG and
 *     is reported like a full disk.
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

/* Before renaming a staged set: false when a fatal signal is already
 * being handled (rename nothing: the process is about to die).  After
 * the renames, io_guard_commit_end() re-raises a signal that came
 * meanwhile. */
bool io_guard_commit_begin(void);
void io_guard_commit_end(void);

/* Remembers a file that was read as input. */
void io_guard_input_add(dev_t dev, ino_t ino);
/* True when path names (after links) a file read as input. */
bool io_guard_is_input(const char *path);

/*
 * Test hooks: when the environment variable GPUPLAN_FAULT names `point`,
 * the process stops itself there (SIGSTOP), so a test can look at the
 * files mid-write and send it a signal.  Points: "before-rename" (every
 * temporary file written, none renamed yet) and "mid-rename" (the first
 * file of a set of several renamed, the others not yet).
 */
void io_guard_fault_point(const char *point);

#endif

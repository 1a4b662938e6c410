/*
 * out_dirs.h - the folders a command writes its files into (`report
 * --png DIR`, `fit --plot DIR`): checked before any work (no part of the
 * way an existing file), made as needed (mkdir -p), and removed again
 * when the run fails, so that nothing of a failed run is left.  Each
 * folder made is registered with io_guard, so a signal removes it too
 * (when empty).
 *
 * Ownership: struct out_dirs owns the names of the folders it made until
 * out_dirs_release().
 */
#ifndef GPUPLAN_CLI_OUT_DIRS_H
#define GPUPLAN_CLI_OUT_DIRS_H

#include <stdbool.h>
#include <stddef.h>

struct out_dirs {
	struct made_dir {
		char *path;	/* a folder this run created */
		long guard;	/* its io_guard handle: removed on a signal */
	} *made;		/* in the order they were made */
	size_t n, cap;
};

/* 0, or 2 after saying (stderr) which part of dir, given with `option`
 * ("--png"), is a file where a folder must be. */
int out_dir_usable(const char *option, const char *dir);

/*
 * 0, or 2 after saying (stderr) why the file `path`, given with `option`
 * ("-o"), cannot be written: one of the command's inputs, a folder, or a
 * file whose folder does not exist, is not a folder or may not be written
 * into (the temporary file goes beside the target).  For a command to
 * check before any work: `run` must not measure for hours and then lose
 * the record.  A device or pipe (-o /dev/null) is written in place and
 * passes.
 */
int out_file_usable(const char *option, const char *path);

/* mkdir -p for path, each folder made remembered in d.  0, or -1 with
 * why. */
int out_dirs_make(struct out_dirs *d, const char *path, char *why,
		  size_t len);

/* Forgets the folders made, removing them first when `remove` (innermost
 * first, and only when empty, so nothing not this run's goes). */
void out_dirs_release(struct out_dirs *d, bool remove);

/*
 * The files in a folder that a command's earlier runs wrote (names its
 * `ours` says it makes), remembered with their inode before a run writes
 * its own: after the run commits, those still the same file (not renamed
 * over by this run) are stale and go (`plan --report` drawing fewer
 * workloads than last time).  Other files in the folder are never
 * touched.  Ownership: struct stale_files owns its paths.
 */
struct stale_files {
	struct stale_file {
		char *path;
		unsigned long long dev, ino;
	} *v;
	size_t n;
};

void stale_files_find(struct stale_files *s, const char *dir,
		      bool (*ours)(const char *name, void *arg), void *arg);
/* Removes each remembered file still the one found, then forgets all. */
void stale_files_remove(struct stale_files *s);
/* Forgets them, removing nothing (the run failed: the old set stays). */
void stale_files_free(struct stale_files *s);

#endif

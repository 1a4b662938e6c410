/*
 * paths.h - where gpuplan finds its shipped data (catalogs/, profiles/).
 *
 * The search order (README "Install", `gpuplan --help`):
 *   1. $GPUPLAN_DATA_DIR when set and non-empty (then only that folder);
 *   2. the source tree this binary was built from, when the binary runs
 *      from inside its build folder (a fresh build runs in place);
 *   3. DIR_OF_EXE/../share/gpuplan, the install layout: found relative to
 *      the executable, so a moved prefix still works.
 * The first that holds catalogs/ wins.  There is no --data-dir option.
 * Ownership: returned strings are the caller's to free.
 */
#ifndef GPUPLAN_CORE_PATHS_H
#define GPUPLAN_CORE_PATHS_H

#include <stddef.h>

/* The data folder, or NULL when none of the places holds catalogs/. */
char *data_dir_find(void);

/* As data_dir_find(); when it finds nothing and why is non-NULL, why
 * holds one line naming every place looked and what was wrong there. */
char *data_dir_search(char *why, size_t len);

/* As data_dir_find(); when it finds nothing, prints "gpuplan: cannot find
 * the shipped WHAT: looked in ...; set GPUPLAN_DATA_DIR ..." on stderr. */
char *data_dir_require(const char *what);

/* The search order in words, for --help: one line. */
const char *data_dir_order(void);

/* The folder part of a path as written: "a/b.pdf" -> "a", "/b" -> "/",
 * "b" -> ".". */
char *path_dir(const char *path);

/* The folder of the running executable, or NULL when it cannot be read. */
char *exe_dir(void);

#endif

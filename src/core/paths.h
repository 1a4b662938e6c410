/*
 * paths.h - where gpuplan finds its shipped data (catalogs/, profiles/).
 *
 * In order: $GPUPLAN_DATA_DIR; the source tree the binary was built from
 * (so a fresh build runs in place); DIR_OF_EXE/../share/gpuplan (an
 * installed copy).  The first that holds catalogs/ wins.
 * Ownership: returned strings are the caller's to free.
 */
#ifndef GPUPLAN_CORE_PATHS_H
#define GPUPLAN_CORE_PATHS_H

/* The data folder, or NULL when none of the places holds catalogs/. */
char *data_dir_find(void);

/* The folder part of a path as written: "a/b.pdf" -> "a", "/b" -> "/",
 * "b" -> ".". */
char *path_dir(const char *path);

/* The folder of the running executable, or NULL when it cannot be read. */
char *exe_dir(void);

#endif

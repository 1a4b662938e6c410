/*
 * plugin_loader.h - find, check and open libgpuplan-cuda.so at run time.
 *
 * gpuplan builds and runs without CUDA; the CUDA backend is a plugin that is
 * dlopen()ed only when a command asks for a CUDA device.  The loader checks
 * the plugin's ABI version, table size and hooks before calling anything,
 * then calls its init, so a loaded handle is one that is ready to use.
 *
 * Ownership: struct cuda_plugin_handle is caller-allocated.  After a
 * successful cuda_plugin_load() it owns the library, and h->api points into
 * the library's own memory: valid until cuda_plugin_unload(), which calls the
 * plugin's shutdown and closes the library.  A failed load leaves nothing
 * open and the handle zeroed.  Directories from cuda_plugin_search_dirs()
 * are copied into the caller's struct.
 */
#ifndef GPUPLAN_BENCH_PLUGIN_LOADER_H
#define GPUPLAN_BENCH_PLUGIN_LOADER_H

#include <limits.h>
#include <stddef.h>

#include "cuda/plugin_abi.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* $GPUPLAN_PLUGIN_DIR alone, or the executable's dir and ../lib/gpuplan. */
#define CUDA_PLUGIN_MAX_DIRS 2

struct cuda_plugin_dirs {
	size_t count;
	char dir[CUDA_PLUGIN_MAX_DIRS][PATH_MAX];
};

struct cuda_plugin_handle {
	void *dl;				/* dlopen handle; NULL when not loaded */
	const struct gpuplan_cuda_plugin *api;	/* the plugin's table, checked */
	char path[PATH_MAX];			/* the file that was loaded */
};

/*
 * The directories searched for libgpuplan-cuda.so, in order:
 * $GPUPLAN_PLUGIN_DIR if set and non-empty (then only that), else the
 * directory of the running executable (from /proc/self/exe) and
 * exe_dir/../lib/gpuplan, the install layout.  Returns out->count, which is
 * 0 only if /proc/self/exe cannot be read.
 */
size_t cuda_plugin_search_dirs(struct cuda_plugin_dirs *out);

/*
 * Find, open, check and initialise the plugin.  Returns 0 with h ready, or
 * -1 with why set to one line saying what failed (lowercase, no full stop):
 * not found (with the directories searched), the dlopen error, a missing
 * entry point, an ABI or table mismatch, a missing hook, or the plugin's own
 * init reason, such as "no NVIDIA driver: libcuda.so.1 not found".
 */
int cuda_plugin_load(struct cuda_plugin_handle *h, char *why, size_t whylen);

/* Shut the plugin down and close it; a zeroed or failed handle is a no-op. */
void cuda_plugin_unload(struct cuda_plugin_handle *h);

/*
 * What `gpuplan --version`, `gpuplan --help` and `gpuplan devices` report
 * about the plugin: one probe, so they never disagree.  The probe finds the
 * file, opens it and checks its table (ABI, size, hooks) and reads its
 * build_info, but does not call init: it needs no driver or GPU.
 */
struct cuda_plugin_info {
	int built;		/* cuda_plugin_was_built() */
	int found;		/* a plugin file was found: path is set */
	int usable;		/* and its table checks: build_info is set */
	char path[PATH_MAX];
	char build_info[256];
	char why[PATH_MAX + 512];	/* when !usable: not found, or what is wrong */
};

void cuda_plugin_probe(struct cuda_plugin_info *out);

/* One line from a probe: "built; found PATH (BUILD_INFO)", "not built
 * (...); not found (...)" and so on. */
void cuda_plugin_describe(const struct cuda_plugin_info *info, char *buf,
			  size_t len);

/*
 * 1 when this build also built the plugin (the top level defines
 * GPUPLAN_CUDA_PLUGIN_BUILT=1 then), so "not found" can be told apart from
 * "never built here" in messages.
 */
int cuda_plugin_was_built(void);

#endif

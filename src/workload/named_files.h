/*
 * named_files.h - the files a workload names, inside src/workload/ only:
 * its `model:` (a path relative to the workload file's folder, or a
 * shipped model's name) and an inference workload's `trace:`, each loaded
 * once however many workloads of the file name it; and struct wl_ctx,
 * what reading one file's workloads carries along (the file's folder, the
 * models loaded so far, the kind of file).
 *
 * A file that is missing or does not load is an error at the `model:` or
 * `trace:` of each workload that names it, after the file's own problems.
 *
 * Ownership: the files loaded belong to the workload file (wf->models,
 * wf->traces; workload_file_free() releases them); a wl_ctx's dir,
 * shown_dir, model_index and models_seen are freed by whoever made it.
 */
#ifndef GPUPLAN_WORKLOAD_NAMED_FILES_H
#define GPUPLAN_WORKLOAD_NAMED_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strmap.h"
#include "core/yaml_read.h"
#include "model/model.h"
#include "trace.h"
#include "workload.h"

/* One model file, loaded once however many workloads name it. */
struct workload_model {
	char *path;		/* as opened */
	bool found;		/* the file exists */
	bool ok;		/* loaded without problems, and not a block */
	bool block;		/* loaded, but a block of ops, not a model */
	struct model m;		/* valid when found */
	struct workload_model *next;
};

/* One trace file, loaded once however many workloads name it. */
struct workload_trace {
	char *path;		/* as opened */
	bool found;		/* the file exists */
	bool ok;		/* loaded without problems */
	struct request_trace t;
	struct workload_trace *next;
};

/* What reading one file needs besides the tree. */
struct wl_ctx {
	struct yread r;
	struct workload_file *wf;
	char *dir;		/* folder of the file as opened */
	char *shown_dir;	/* folder of the file as shown */
	/* the models loaded so far by path, so a file of n workloads naming
	 * n model files is not n^2 path comparisons */
	struct strmap model_index;	/* path -> index in models_seen */
	struct workload_model **models_seen;
	size_t n_seen, cap_seen;
	/* a training item inside another kind of file (workload_reader):
	 * no name or kind, no cluster keys, the run's length optional */
	bool embedded;
	const char *noun;	/* "workload", or "outcome" for an embedded item */
};

/*
 * Resolves and loads w's `model:` (once per file); w->model points at the
 * model when it loaded.  0 (also without a `model:`, which the key check
 * reports), or -1 after recording the problem.
 */
int wl_read_model(struct wl_ctx *cx, const struct ynode *map,
		  struct workload *w);

/* The same for w's `trace:`: w->infer.trace and trace_file. */
int wl_read_trace(struct wl_ctx *cx, const struct ynode *map,
		  struct workload *w);

#endif

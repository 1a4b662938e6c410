/*
 * workload_file.h - a workload file (`schema: gpuplan/workload/v1`): a
 * `workloads:` list, as written in profiles/workloads/ (see the README
 * there), loaded into a struct workload_file (workload.h).
 *
 * Each workload names a model file, relative to the workload file's
 * folder, and that model is loaded with it: a loaded workload always has a
 * model, and its sequence lengths are checked against that model.  Loading
 * is strict: every problem in the file, and in the model files it names,
 * is reported with its file:line:column, and the load fails.
 *
 * Ownership: a struct workload_file owns its workloads, their strings and
 * the models they point at; a model file named by several workloads is
 * loaded once.  Free with workload_file_free(), also after a failed load.
 */
#ifndef GPUPLAN_WORKLOAD_WORKLOAD_FILE_H
#define GPUPLAN_WORKLOAD_WORKLOAD_FILE_H

#include "core/error.h"
#include "workload.h"

#define WORKLOAD_SCHEMA "gpuplan/workload/v1"

/*
 * Loads path and every model it names.  Every problem is added to errs;
 * returns 0 when there were none, else -1 (wf must then only be freed).
 */
int workload_file_load(struct workload_file *wf, const char *path,
		       struct gp_errors *errs);

/* The same, naming the file `shown` in messages and output (a shipped
 * file as "profiles/workloads/default.yaml" wherever gpuplan is
 * installed); model files are shown relative to it too. */
int workload_file_load_as(struct workload_file *wf, const char *path,
			  const char *shown, struct gp_errors *errs);

void workload_file_free(struct workload_file *wf);

/* Case-blind lookup by name, or NULL. */
const struct workload *workload_find(const struct workload_file *wf,
				     const char *name);

#endif

/*
 * workload_reader.h - workload items inside another kind of file: an
 * outcome record's `training:` and `serving:` (src/backtest/outcome.h),
 * read as a workload file's items are (item.h), into a struct
 * workload_file of their own.
 *
 * Ownership: the items, their strings and the models they name belong to
 * the workload_file given to workload_reader_open(), which the caller
 * frees with workload_file_free() (workload_file.h); the reader owns only
 * its reading state, freed by workload_reader_close().
 */
#ifndef GPUPLAN_WORKLOAD_WORKLOAD_READER_H
#define GPUPLAN_WORKLOAD_WORKLOAD_READER_H

#include <stddef.h>

#include "core/error.h"
#include "core/yaml_read.h"
#include "workload.h"

/*
 * Training workloads inside another kind of file: an outcome record's
 * `training:` (src/backtest/outcome.h).  Such a map holds a training
 * workload's keys less `name` and `kind`, and less what the outer file
 * says itself: `instance`, `gpus`, `nodes` and `layout` are refused there
 * with a pointer to the record's `hardware:` and `layout:`.  `tokens` and
 * `samples` are optional (neither: the run's totals and steps are 0).
 * `model:` paths are relative to the folder of `path`; a model file named
 * by several items is loaded once.
 *
 * workload_reader_open() empties wf and names it `shown` (wf->file is
 * then the string every origin of the outer file may point at too); it
 * holds room for `most` items, so the pointers workload_reader_training()
 * hands out stay valid.  Each call appends one workload named `name`
 * (described as `what` in messages) and returns 0, or -1 after adding its
 * problems to errs (the workload is kept, partly filled: free it with wf).
 * Close the reader when done; wf stays the caller's to free.
 */
struct workload_reader;
struct workload_reader *workload_reader_open(struct workload_file *wf,
					     const char *path,
					     const char *shown, size_t most,
					     struct gp_errors *errs);
int workload_reader_training(struct workload_reader *wr,
			     const struct ynode *map, const char *name,
			     const char *what, struct workload **out);
/* The same for an outcome's `serving:`: an inference workload of model,
 * precision, prompt_tokens, output_tokens (and kv_precision), without
 * traffic or targets (the record's `load:` says the traffic). */
int workload_reader_serving(struct workload_reader *wr,
			    const struct ynode *map, const char *name,
			    const char *what, struct workload **out);
void workload_reader_close(struct workload_reader *wr);

#endif

/*
 * read_common.h - what the readers of a workload's fields share, inside
 * src/workload/ only: a choice among names, a precision, a whole count,
 * and the two things the checks of both kinds ask of the model.
 *
 * The readers follow yaml_read.h's convention: 1 when the key was read,
 * 0 when it is absent, -1 after recording the problem in r->errs.
 *
 * Ownership: nothing is kept; wl_model_label() points into the model.
 */
#ifndef GPUPLAN_WORKLOAD_READ_COMMON_H
#define GPUPLAN_WORKLOAD_READ_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "core/precision.h"
#include "core/units.h"
#include "core/yaml_read.h"
#include "model/model.h"

/* key as one of names[0..n-1], its index in *out; an unknown name is
 * reported with `expected` (the names in words) and a did-you-mean. */
int wl_read_choice(struct yread *r, const struct ynode *map, const char *key,
		   const char *const *names, size_t n, const char *expected,
		   int *out);

/* A precision: fp32, bf16, fp16 or fp8, plus int8 (inference) and tf32
 * (a compute mode, not for the KV cache) where allowed. */
int wl_read_precision(struct yread *r, const struct ynode *map, const char *key,
		      bool allow_int8, bool allow_tf32, enum precision *out);

/* A count (tokens, samples): a whole number of at least 1 within q's
 * range. */
int wl_read_whole_count(struct yread *r, const struct ynode *map,
			const char *key, enum quantity q, double *out);

/* The longest sequence m takes: a transformer's max_seq, or the tokens of
 * a graph model's input; 0 for image models. */
long wl_seq_limit(const struct model *m);

/* m as messages and the JSON name it: its name, else its file. */
const char *wl_model_label(const struct model *m);

#endif

/*
 * profile_read.h - what the measured profile's writer and reader share
 * between their files (profile.c, profile_load.c, profile_figure.c,
 * profile_gpu.c).  Internal to src/bench.  The getters return as
 * yaml_read.h's: 1 read, 0 absent, -1 wrong (a located error added to
 * r->errs).
 */
#ifndef GPUPLAN_BENCH_PROFILE_READ_H
#define GPUPLAN_BENCH_PROFILE_READ_H

#include <stddef.h>
#include <stdio.h>

#include "bench/figure.h"
#include "bench/profile.h"
#include "core/yaml_read.h"

/* A plain (unquoted) finite number >= 0. */
int profile_read_node_number(struct yread *r, const struct ynode *n,
			     const char *what, double *out);
int profile_read_number(struct yread *r, const struct ynode *map,
			const char *key, double *out);
/* A string into buf; one of size bytes or longer is an error. */
int profile_read_text(struct yread *r, const struct ynode *map,
		      const char *key, char *buf, size_t size);
/* A string that must be one of names (NULL-terminated). */
int profile_read_word(struct yread *r, const struct ynode *map,
		      const char *key, const char *const *names, char *buf,
		      size_t size);
int profile_read_int(struct yread *r, const struct ynode *map,
		     const char *key, long min, long max, int *out);

/* Writing: a YAML double-quoted scalar any reader takes back, and
 * `indent key: "value"` on a line of its own. */
void profile_emit_quoted(FILE *f, const char *s);
void profile_emit_string(FILE *f, const char *indent, const char *key,
			 const char *value);

/* The GPU's fields under `device:` (kind cuda), and `sampling:`
 * (profile_gpu.c).  read_gpu is given the device mapping; read_sampling
 * the root. */
void profile_emit_gpu(const struct bench_device *d, FILE *f);
void profile_read_gpu(struct yread *r, const struct ynode *device,
		      struct bench_device *d);
void profile_emit_sampling(const struct bench_profile *p, FILE *f);
void profile_read_sampling(struct yread *r, const struct ynode *root,
			   struct bench_profile *p);
/* The GPU keys a device mapping may hold, NULL-terminated. */
extern const char *const profile_gpu_keys[];

/* One figure of `figures:`.  Returns 0 with f filled, or -1 after
 * reporting (f->time.samples may still need measure_result_free). */
int profile_read_figure(struct yread *r, const struct ynode *n,
			struct bench_figure *f);

#endif

/*
 * profile_read.h - what the measured profile's writer and reader share
 * between their files (profile.c, profile_load.c, profile_figure.c,
 * profile_gpu.c).  Internal to src/profile.  The getters return as
 * yaml_read.h's: 1 read, 0 absent, -1 wrong (a located error added to
 * r->errs).
 */
#ifndef GPUPLAN_PROFILE_PROFILE_READ_H
#define GPUPLAN_PROFILE_PROFILE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "profile/figure.h"
#include "profile/profile.h"
#include "core/yaml_read.h"

/* A plain (unquoted) finite number >= 0. */
int profile_read_node_number(struct yread *r, const struct ynode *n,
			     const char *what, double *out);
int profile_read_number(struct yread *r, const struct ynode *map,
			const char *key, double *out);
/* A string into buf; one of size bytes or longer is an error. */
int profile_read_text(struct yread *r, const struct ynode *map,
		      const char *key, char *buf, size_t size);
/* A name (yr_name: one line, no control characters) into buf; one of
 * size bytes or longer is an error. */
int profile_read_name(struct yread *r, const struct ynode *map,
		      const char *key, char *buf, size_t size);
/* A string that must be one of names (NULL-terminated). */
int profile_read_word(struct yread *r, const struct ynode *map,
		      const char *key, const char *const *names, char *buf,
		      size_t size);
int profile_read_int(struct yread *r, const struct ynode *map,
		     const char *key, long min, long max, int *out);

/* Writing: a YAML double-quoted scalar any reader takes back, and
 * `indent key: "value"` on a line of its own; text (line breaks and tabs
 * kept) or a name (profile.c: what the loader would refuse is spelt out
 * first, so the loader takes back whatever was written). */
void profile_emit_string(FILE *f, const char *indent, const char *key,
			 const char *value);
/* size: of the field the loader reads the name into */
void profile_emit_name(FILE *f, const char *indent, const char *key,
		       const char *value, size_t size);

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

/* `faults:` (profile_fault.c): written after the notes, read from the
 * root; and the checks that tie figures, faults and samples together,
 * run on the root once everything else has read clean. */
void profile_emit_faults(const struct bench_faults *l, FILE *f);
void profile_read_faults(struct yread *r, const struct ynode *root,
			 struct bench_profile *p);
void profile_check_figures(struct yread *r, const struct ynode *root,
			   const struct bench_profile *p);
/* True when options.suites lists suite. */
bool profile_has_suite(const struct bench_profile *p, const char *suite);

/* Per figure, the slowing throttle reasons of the NVML samples labelled
 * with it (GPU_THROTTLE_SLOWING bits; 0: never slowed).  Linear in samples
 * plus figures.  The caller frees the array. */
uint64_t *profile_slowing_per_figure(const struct bench_profile *p);

/* One figure of `figures:`.  Returns 0 with f filled, or -1 after
 * reporting (f->time.samples may still need measure_result_free). */
int profile_read_figure(struct yread *r, const struct ynode *n,
			struct bench_figure *f);

#endif

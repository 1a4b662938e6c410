/*
 * profile_read.h - the scalars every part of the measured profile's loader
 * reads (profile_load.c and the sections' readers: profile_figure.c,
 * profile_gpu.c, profile_fault.c), held to the profile's rules.  Internal
 * to src/profile.  The getters return as yaml_read.h's: 1 read, 0 absent,
 * -1 wrong (a located error added to r->errs).
 *
 * Ownership: what is read is copied into the caller's buffers; nothing
 * here allocates what outlives a call.
 */
#ifndef GPUPLAN_PROFILE_PROFILE_READ_H
#define GPUPLAN_PROFILE_PROFILE_READ_H

#include <stdbool.h>
#include <stddef.h>

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

/* True when options.suites lists suite. */
bool profile_has_suite(const struct bench_profile *p, const char *suite);

#endif

/*
 * profile_read.h - the typed getters the measured-profile loader shares
 * between its files (profile_load.c, profile_figure.c).  Internal to
 * src/bench.  Returns as yaml_read.h's getters: 1 read, 0 absent, -1 wrong
 * (a located error added to r->errs).
 */
#ifndef GPUPLAN_BENCH_PROFILE_READ_H
#define GPUPLAN_BENCH_PROFILE_READ_H

#include <stddef.h>

#include "bench/figure.h"
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

/* One figure of `figures:`.  Returns 0 with f filled, or -1 after
 * reporting (f->time.samples may still need measure_result_free). */
int profile_read_figure(struct yread *r, const struct ynode *n,
			struct bench_figure *f);

#endif

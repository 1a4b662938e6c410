/*
 * profile_gpu.h - the GPU's parts of a measured profile, written and read
 * back (profile_gpu.c shows them): the device's fields as the plugin read
 * them (kind cuda), and the NVML samples taken during the run.  Internal
 * to src/profile: the writer (profile_write.c) and the loader
 * (profile_load.c) call them.  bench_profile_mark_throttled (profile.h)
 * is defined there too.
 *
 * Ownership: what is read goes into the caller's profile, which owns it;
 * profile_slowing_per_figure's array is the caller's to free.
 */
#ifndef GPUPLAN_PROFILE_PROFILE_GPU_H
#define GPUPLAN_PROFILE_PROFILE_GPU_H

#include <stdint.h>
#include <stdio.h>

#include "profile/profile.h"
#include "core/yaml_read.h"

/* The GPU's fields under `device:` (kind cuda), and `sampling:`
 * (profile_gpu.c).  read_gpu is given the device mapping; read_sampling
 * the root. */
void profile_emit_gpu(const struct bench_device *d, FILE *f);
void profile_read_gpu(struct yread *r, const struct ynode *device,
		      struct bench_device *d);
void profile_emit_sampling(const struct bench_profile *p, FILE *f);
void profile_read_sampling(struct yread *r, const struct ynode *root,
			   struct bench_profile *p);
/* A list of throttle reasons, "[sw_power_cap, hw_thermal]", written and
 * read back (unknown bits as "0x..."): 1 read, 0 absent, -1 wrong (said). */
void profile_emit_reasons(FILE *f, uint64_t reasons);
int profile_read_reasons(struct yread *r, const struct ynode *map,
			 const char *key, uint64_t *out);

/* The GPU keys a device mapping may hold, NULL-terminated. */
extern const char *const profile_gpu_keys[];

/* Per figure, the slowing throttle reasons of the NVML samples labelled
 * with it (GPU_THROTTLE_SLOWING bits; 0: never slowed).  Linear in samples
 * plus figures.  The caller frees the array. */
uint64_t *profile_slowing_per_figure(const struct bench_profile *p);

#endif

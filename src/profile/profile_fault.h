/*
 * profile_fault.h - the faults of a measured profile (fault.h), written
 * and read back, and the checks that tie them, the figures and the
 * samples together (profile_fault.c says what they hold a profile to).
 * Internal to src/profile: the writer (profile_write.c) and the loader
 * (profile_load.c) call them.
 *
 * Ownership: what is read goes into the caller's profile, which owns it.
 */
#ifndef GPUPLAN_PROFILE_PROFILE_FAULT_H
#define GPUPLAN_PROFILE_PROFILE_FAULT_H

#include <stdio.h>

#include "profile/fault.h"
#include "profile/profile.h"
#include "core/yaml_read.h"

/* `faults:` (profile_fault.c): written after the notes, read from the
 * root; and the checks that tie figures, faults and samples together,
 * run on the root once everything else has read clean. */
void profile_emit_faults(const struct bench_faults *l, FILE *f);
void profile_read_faults(struct yread *r, const struct ynode *root,
			 struct bench_profile *p);
void profile_check_figures(struct yread *r, const struct ynode *root,
			   const struct bench_profile *p);

#endif

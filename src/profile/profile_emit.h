/*
 * profile_emit.h - the scalars every part of the measured profile's writer
 * writes (profile_write.c and the sections' writers: profile_gpu.c,
 * profile_fault.c), as the loader takes them back.  Internal to
 * src/profile.
 *
 * Ownership: nothing is kept; f is the caller's.
 */
#ifndef GPUPLAN_PROFILE_PROFILE_EMIT_H
#define GPUPLAN_PROFILE_PROFILE_EMIT_H

#include <stddef.h>
#include <stdio.h>

/* Writing: a YAML double-quoted scalar any reader takes back, and
 * `indent key: "value"` on a line of its own; text (line breaks and tabs
 * kept) or a name (profile.h: what the loader would refuse is spelt out
 * first, so the loader takes back whatever was written). */
void profile_emit_string(FILE *f, const char *indent, const char *key,
			 const char *value);
/* size: of the field the loader reads the name into */
void profile_emit_name(FILE *f, const char *indent, const char *key,
		       const char *value, size_t size);

#endif

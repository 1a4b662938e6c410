/*
 * cpu_info.h - what the host CPU is, for `gpuplan devices` and for the host
 * identity recorded in measured profiles.
 *
 * Everything comes from Linux: /proc/cpuinfo, sysfs cache descriptions and
 * sysconf.  A field that could not be read has its bit in `valid` clear and
 * must be shown as absent; 0 never means "unknown".  The struct it fills,
 * struct cpu_info, is the profile's record (profile/cpu_identity.h); this
 * module is the code that reads it.
 *
 * Ownership: struct cpu_info is caller-allocated plain data with no
 * pointers; nothing needs freeing.  cpu_isa_name() returns static strings.
 */
#ifndef GPUPLAN_BENCH_CPU_INFO_H
#define GPUPLAN_BENCH_CPU_INFO_H

#include <stdint.h>

#include "profile/cpu_identity.h"

/*
 * Fill out from the running system.  Returns 0; a part that could not be
 * read is marked absent rather than failing the whole call, since a
 * listing with gaps beats no listing.
 */
int cpu_info_read(struct cpu_info *out);

/*
 * The same, reading cpuinfo and the cache directory (the parent of the
 * index* directories) from the given paths; for tests with fixture files.
 */
int cpu_info_read_from(struct cpu_info *out, const char *cpuinfo_path,
		       const char *cache_dir);

/* "32768K" -> 33554432; sysfs cache sizes.  Returns 0, or -1 if malformed. */
int cpu_info_parse_size(const char *text, uint64_t *bytes);

/* "avx2", "fma", ... for one enum cpu_isa bit; NULL for anything else. */
const char *cpu_isa_name(uint32_t isa_bit);

#endif

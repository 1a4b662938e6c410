/*
 * stream_rule.h - which memory-bandwidth figure of a CPU measures memory
 * and not a cache: STREAM's rule (McCalpin, stream.c 5.10: each array at
 * least 4 x the size of the cache it could otherwise sit in), applied to
 * the membw suite's footprint of three arrays (bench/cpu_membw.h), so at
 * least 12 x the last-level cache, and never below 256 MiB.
 *
 * Bench sizes its sweep by it, and fit takes as the memory's rate only
 * the figures it calls resident in memory: one rule, read in one place.
 * The cache is the profile's host record (profile.h): every L3 together,
 * else the L2; unknown gives the 256 MiB floor.
 *
 * Ownership: plain values.
 */
#ifndef GPUPLAN_PROFILE_STREAM_RULE_H
#define GPUPLAN_PROFILE_STREAM_RULE_H

#include <stdbool.h>
#include <stdint.h>

#include "profile/cpu_identity.h"

/* The floor: a footprint this large is past the caches of most CPUs. */
#define STREAM_MIN_FOOTPRINT (256ull << 20)	/* 256 MiB */

/* The last-level cache a sweep must outgrow: every L3 together (size x
 * instances, instances unknown counting as 1), else the L2, else 0. */
uint64_t stream_llc_bytes(const struct cpu_info *ci);

/* The smallest footprint resident in memory: 12 x llc_bytes rounded up
 * to a power of 2, at least STREAM_MIN_FOOTPRINT. */
uint64_t stream_memory_footprint(uint64_t llc_bytes);

/* Whether a membw figure of `footprint` bytes on this CPU measured memory. */
bool stream_in_memory(const struct cpu_info *ci, uint64_t footprint);

#endif

/*
 * stream_rule.c - STREAM's rule for a figure that measures memory; see
 * stream_rule.h.
 */
#include "stream_rule.h"

uint64_t stream_llc_bytes(const struct cpu_info *ci)
{
	/* all the L3s together: a run on every core streams through each */
	if (ci->valid & CPU_INFO_HAS_L3)
		return ci->l3_bytes * (ci->l3_instances > 0 ? ci->l3_instances : 1);
	return (ci->valid & CPU_INFO_HAS_L2) ? ci->l2_bytes : 0;
}

uint64_t stream_memory_footprint(uint64_t llc_bytes)
{
	uint64_t top = 1;
	while (top < 12 * llc_bytes)
		top *= 2;
	return top > STREAM_MIN_FOOTPRINT ? top : STREAM_MIN_FOOTPRINT;
}

bool stream_in_memory(const struct cpu_info *ci, uint64_t footprint)
{
	return footprint >= stream_memory_footprint(stream_llc_bytes(ci));
}

/*
 * rank.h - the order a reader wants a workload's options in, shared by
 * the plan's table and the report's tables and bar charts, so both show
 * the same options first: the recommendation; feasible rentals at
 * published prices; other feasible options (owned machines, illustrative
 * prices); runnable ones; the rest.  By cost within a tier, ties by index,
 * so the order is reproducible.
 */
#ifndef GPUPLAN_PLAN_RANK_H
#define GPUPLAN_PLAN_RANK_H

#include <stdbool.h>
#include <stddef.h>

struct rank_key {
	int tier;
	double cost;
	size_t i;		/* the option's index */
};

/* The tier of an option from its flags. */
int rank_tier(bool recommended, bool feasible, bool owned_or_illustrative,
	      bool runnable);

/* qsort comparator: tier, then cost, then index. */
int rank_compare(const void *a, const void *b);

#endif

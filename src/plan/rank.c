#include "plan/rank.h"

int rank_tier(bool recommended, bool feasible, bool owned_or_illustrative,
	      bool runnable)
{
	return recommended ? 0
	       : feasible && !owned_or_illustrative ? 1
	       : feasible ? 2 : runnable ? 3 : 4;
}

int rank_compare(const void *a, const void *b)
{
	const struct rank_key *x = a, *y = b;
	if (x->tier != y->tier)
		return x->tier - y->tier;
	if (x->cost != y->cost)
		return x->cost < y->cost ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

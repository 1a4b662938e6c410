/*
 * plan_money.h - whether two plans' money can be compared, and at what
 * rate.  A plan prices everything in one currency (`currency`) and, when
 * the catalog had exchange rates, carries the table it converted with
 * (`exchange_rates`: base, as_of, rates: 1 base = rate units).
 *
 * Plans of one currency compare as they are.  Plans of two currencies
 * compare only when both carry the same table for both currencies (same
 * base, same as_of, same rate of each): after's amounts are then
 * converted into before's currency at that rate, and the comparison says
 * so (the rate, its base and date).  Otherwise no rate is the plans' own:
 * refused, with why and what to do (plan both with one --currency).
 * A number in USD is never set against a number in CNY.
 *
 * Ownership: plain data; the strings point into the caller's buffers.
 */
#ifndef GPUPLAN_COMPARE_PLAN_MONEY_H
#define GPUPLAN_COMPARE_PLAN_MONEY_H

#include <stdbool.h>
#include <stddef.h>

#define PLAN_CODE_MAX 16

/* One plan's table, as far as this comparison needs it. */
struct plan_rates {
	bool present;
	char base[PLAN_CODE_MAX], as_of[32];
};

/* After's money in before's currency: before = after x factor. */
struct money_bridge {
	bool converted;		/* false: one currency, factor 1 */
	double factor;
	char from[PLAN_CODE_MAX], to[PLAN_CODE_MAX];	/* after's, before's */
	char base[PLAN_CODE_MAX], as_of[32];
	double rate_from, rate_to;	/* units per base (1 for the base) */
};

/*
 * The bridge from after (plan JSON text ta, currency ca) to before (tb,
 * cb).  0 with *m filled, or -1 with why (shown names nb, na).
 */
int plan_money_bridge(const char *tb, size_t lb, const char *cb, const char *nb,
		      const char *ta, size_t la, const char *ca, const char *na,
		      struct money_bridge *m, char *why, size_t len);

#endif

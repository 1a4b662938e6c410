/*
 * units.h - quantities with units, parsed strictly into SI and printed back.
 *
 * Every quantity in a gpuplan file carries its unit ("80GiB", "3.35TB/s",
 * "989.5TFLOP/s", "72h", "2T", "32.77 USD/h").  Parsing converts to SI:
 * bytes, bytes per second, operations per second, watts, seconds, plain
 * counts.  A bare number where a unit is needed, an unknown unit, trailing
 * garbage, a negative value, NaN/inf spellings and overflow are all errors
 * with the offset of the offending character, never a silent 0.
 *
 * Prefixes: K/k, M, G, T, P, E are powers of 1000; Ki, Mi, Gi, Ti, Pi are
 * powers of 1024 (bytes and byte rates only).  'B' is a byte, 'b' or 'bit'
 * is a bit.  Counts take K, M, B (billion) and T: "2T" tokens = 2e12.
 * Durations take ns, us, ms, s, min, h, d, w and y (365 days).
 * Frequencies are counts per time: "50/s", "3000/min", "1.2K/h" (a count
 * prefix K or M is allowed), converted to events per second.
 *
 * Money is an amount with an ISO currency code, optionally per hour, per
 * kWh or per month: "32.77 USD/h", "$32.77/h", "CNY 12.5/h", "¥12.5/h",
 * "0.12 USD/kWh", "250000 USD".  '$' reads as USD, '¥' and '￥' as CNY (the
 * users this tool was written for rent in China; write JPY to mean yen),
 * '€' as EUR, '£' as GBP, "RMB" as CNY.
 *
 * Ownership: nothing here allocates; callers pass buffers.
 */
#ifndef GPUPLAN_CORE_UNITS_H
#define GPUPLAN_CORE_UNITS_H

#include <stdbool.h>
#include <stddef.h>

enum unit_kind {
	UNIT_BYTES,	/* B */
	UNIT_RATE,	/* B/s; bit rates are converted to bytes */
	UNIT_COMPUTE,	/* operations per second: FLOP/s or integer OPS */
	UNIT_POWER,	/* W */
	UNIT_DURATION,	/* s */
	UNIT_COUNT,	/* dimensionless */
	UNIT_FREQUENCY,	/* events per second: "50/s", "3000/min" */
};

/* Where and why a parse failed: offset is a byte offset into the text. */
struct unit_problem {
	size_t offset;
	char msg[192];
};

/* Extra facts about a parsed compute quantity. */
struct unit_detail {
	bool integer_ops;	/* written as OPS/TOPS rather than FLOP/s */
	bool bits;		/* a rate written in bits per second */
};

/* Parses text as a quantity of `kind` into SI units.  Returns 0 on success,
 * -1 with *p filled on failure.  detail may be NULL. */
int units_parse(enum unit_kind kind, const char *text, double *si,
		struct unit_detail *detail, struct unit_problem *p);

/* What a value of this kind looks like, for messages: "a byte size like
 * '80GiB'". */
const char *units_example(enum unit_kind kind);

/* Prints an SI value back with a readable prefix: "80 GB", "3.35 TB/s",
 * "989.5 TFLOP/s", "700 W", "3 d".  Rates print in bytes unless bits is
 * set ("400 Gbit/s"); compute prints OPS when integer_ops is set.  Returns
 * buf. */
char *units_format(enum unit_kind kind, double si, const struct unit_detail *d,
		   char *buf, size_t len);

enum money_per {
	MONEY_TOTAL,	/* a plain amount: a purchase price */
	MONEY_PER_HOUR,
	MONEY_PER_KWH,
	MONEY_PER_MONTH,
};

struct money {
	double amount;		/* in units of `currency` */
	char currency[4];	/* ISO 4217 code, NUL-terminated */
	enum money_per per;
};

int money_parse(const char *text, struct money *out, struct unit_problem *p);

/* Three capital letters, as ISO 4217 codes are ("CNY", "USD"). */
bool currency_code_valid(const char *s);

/* "32.77 USD/h" (two decimals for amounts of 1 or more, else 4 significant
 * digits).  Returns buf. */
char *money_format(const struct money *m, char *buf, size_t len);

const char *money_per_suffix(enum money_per per);	/* "", "/h", ... */

#endif

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

/* Where and why a parse failed: offset is a byte offset into the text.
 * out_of_range: the number is well formed but no double holds it (1e400)
 * or it underflows (1e-310), so a caller with a range of its own can say
 * that range instead. */
struct unit_problem {
	size_t offset;
	char msg[192];
	bool out_of_range;
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

/* The whole of text as a plain decimal number, without a unit ("16",
 * "2.5", "1e3"): hex ("0x10"), "inf", "nan", a sign other than '+',
 * spaces and trailing characters are refused (strtod takes them all).
 * 0, or -1 with *p filled. */
int units_plain_number(const char *text, double *out, struct unit_problem *p);

/* What a value of this kind looks like, for messages: "a byte size like
 * '80GiB'". */
const char *units_example(enum unit_kind kind);

/* Prints an SI value back with a readable prefix: "80 GB", "3.35 TB/s",
 * "989.5 TFLOP/s", "700 W", "3 d".  Rates print in bytes unless bits is
 * set ("400 Gbit/s"); compute prints OPS when integer_ops is set.  Returns
 * buf. */
char *units_format(enum unit_kind kind, double si, const struct unit_detail *d,
		   char *buf, size_t len);

/*
 * The range each kind of quantity gpuplan reads is accepted in.  A value
 * outside it is refused where it is read (yaml_read.h's yr_quantity_in()
 * and yr_money_in()), with the range in the message, so that every
 * quantity a loader accepts gives finite results through the planner: a
 * rate or a price too close to zero would otherwise divide into an
 * infinite time or cost, one too large would overflow a product.  The
 * ranges are generous for real use (catalogs/README.md and
 * profiles/workloads/README.md give the table and the reasons); money
 * ranges hold in any currency, so they are wide enough for currencies of
 * tens of thousands of units to the dollar.
 */
enum quantity {
	Q_MEMORY,		/* accelerator, MIG slice, host RAM: B */
	Q_BANDWIDTH,		/* memory, links, network: B/s */
	Q_PEAK,			/* dense peak: FLOP/s or OPS */
	Q_POWER,		/* TDP, host power: W */
	Q_LIFETIME,		/* an owned machine's life: s */
	Q_PUE,			/* facility power / IT power */
	Q_PRICE_PER_HOUR,	/* on-demand, spot: per hour */
	Q_PURCHASE_PRICE,	/* a machine: a plain amount */
	Q_POWER_PRICE,		/* per kWh */
	Q_EXCHANGE_RATE,	/* units of a currency per unit of the base */
	Q_TOKENS,		/* a training run's tokens */
	Q_SAMPLES,		/* a training run's samples per epoch */
	Q_DEADLINE,		/* s */
	Q_BUDGET,		/* a plain amount */
	Q_DECODE_TIME,		/* CPU-core s per sample */
	Q_SAMPLE_BYTES,		/* B per sample */
	Q_REQUEST_RATE,		/* requests per second */
	Q_LATENCY,		/* a p99 target: s */
	Q_SERVING_TIME,		/* s of service a month */
	Q_EFFICIENCY,		/* a fraction of a datasheet figure */
	Q_PROBABILITY,		/* dropout: 0 (none) to below 1 */
	Q_FAILURE_RATE,		/* failures per GPU per s (written per
				 * GPU-hour or GPU-day: workload/training.c) */
	Q_COUNT_OF_QUANTITIES
};

struct quantity_range {
	enum unit_kind unit;	/* how it is written (money: UNIT_COUNT) */
	double min, max;	/* SI (money: in its own currency) */
	const char *range;	/* as a person reads it: "1 MB/s to 1 PB/s" */
};

const struct quantity_range *quantity_range(enum quantity q);

/* True when v lies in q's range, bounds included (false for NaN). */
bool quantity_in_range(enum quantity q, double v);

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

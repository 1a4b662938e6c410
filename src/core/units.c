#include "units.h"

#include <ctype.h>
#include <float.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

struct unit_def {
	const char *name;
	double scale;		/* multiply the number by this to get SI */
	bool integer_ops;
	bool bits;
};

#define KI 1024.0
static const struct unit_def bytes_units[] = {
	{"B", 1, false, false}, {"kB", 1e3, false, false}, {"KB", 1e3, false, false}, {"MB", 1e6, false, false}, {"GB", 1e9, false, false},
	{"TB", 1e12, false, false}, {"PB", 1e15, false, false}, {"KiB", KI, false, false}, {"MiB", KI * KI, false, false},
	{"GiB", KI * KI * KI, false, false}, {"TiB", KI * KI * KI * KI, false, false},
	{"PiB", KI * KI * KI * KI * KI, false, false}, {NULL, 0, false, false},
};

static const struct unit_def rate_units[] = {
	{"B/s", 1, false, false}, {"kB/s", 1e3, false, false}, {"KB/s", 1e3, false, false}, {"MB/s", 1e6, false, false},
	{"GB/s", 1e9, false, false}, {"TB/s", 1e12, false, false}, {"KiB/s", KI, false, false}, {"MiB/s", KI * KI, false, false},
	{"PB/s", 1e15, false, false},
	{"GiB/s", KI * KI * KI, false, false}, {"TiB/s", KI * KI * KI * KI, false, false},
	{"PiB/s", KI * KI * KI * KI * KI, false, false},
	{"bit/s", 1 / 8.0, false, true}, {"kbit/s", 1e3 / 8, false, true},
	{"Kbit/s", 1e3 / 8, false, true}, {"Mbit/s", 1e6 / 8, false, true},
	{"Gbit/s", 1e9 / 8, false, true}, {"Tbit/s", 1e12 / 8, false, true},
	{"Pbit/s", 1e15 / 8, false, true},
	{"Mb/s", 1e6 / 8, false, true}, {"Gb/s", 1e9 / 8, false, true},
	{"Tb/s", 1e12 / 8, false, true}, {"Mbps", 1e6 / 8, false, true},
	{"Gbps", 1e9 / 8, false, true}, {"Tbps", 1e12 / 8, false, true},
	{NULL, 0, false, false},
};

static const struct unit_def compute_units[] = {
	{"FLOP/s", 1, false, false}, {"kFLOP/s", 1e3, false, false}, {"MFLOP/s", 1e6, false, false}, {"GFLOP/s", 1e9, false, false},
	{"TFLOP/s", 1e12, false, false}, {"PFLOP/s", 1e15, false, false}, {"EFLOP/s", 1e18, false, false},
	{"FLOPS", 1, false, false}, {"GFLOPS", 1e9, false, false}, {"TFLOPS", 1e12, false, false}, {"PFLOPS", 1e15, false, false},
	{"OPS", 1, true, false}, {"kOPS", 1e3, true, false}, {"MOPS", 1e6, true, false},
	{"GOPS", 1e9, true, false}, {"TOPS", 1e12, true, false},
	{"POPS", 1e15, true, false}, {NULL, 0, false, false},
};

static const struct unit_def power_units[] = {
	{"W", 1, false, false}, {"kW", 1e3, false, false}, {"MW", 1e6, false, false}, {NULL, 0, false, false},
};

static const struct unit_def duration_units[] = {
	{"ns", 1e-9, false, false}, {"us", 1e-6, false, false}, {"ms", 1e-3, false, false}, {"s", 1, false, false}, {"min", 60, false, false},
	{"h", 3600, false, false}, {"d", 86400, false, false}, {"w", 7 * 86400, false, false}, {"y", 365 * 86400.0, false, false},
	{NULL, 0, false, false},
};

static const struct unit_def count_units[] = {
	{"", 1, false, false}, {"K", 1e3, false, false}, {"k", 1e3, false, false}, {"M", 1e6, false, false}, {"B", 1e9, false, false}, {"T", 1e12, false, false},
	{NULL, 0, false, false},
};

/* Requests (or any events) per unit of time; a count prefix may come first. */
static const struct unit_def frequency_units[] = {
	{"/s", 1, false, false}, {"/min", 1 / 60.0, false, false}, {"/h", 1 / 3600.0, false, false},
	{"K/s", 1e3, false, false}, {"K/min", 1e3 / 60, false, false}, {"K/h", 1e3 / 3600, false, false},
	{"k/s", 1e3, false, false}, {"k/min", 1e3 / 60, false, false}, {"k/h", 1e3 / 3600, false, false},
	{"M/s", 1e6, false, false}, {"M/min", 1e6 / 60, false, false}, {"M/h", 1e6 / 3600, false, false},
	{NULL, 0, false, false},
};

static const struct unit_def *table_for(enum unit_kind kind)
{
	switch (kind) {
	case UNIT_BYTES: return bytes_units;
	case UNIT_RATE: return rate_units;
	case UNIT_COMPUTE: return compute_units;
	case UNIT_POWER: return power_units;
	case UNIT_DURATION: return duration_units;
	case UNIT_COUNT: return count_units;
	case UNIT_FREQUENCY: return frequency_units;
	}
	return count_units;
}

const char *units_example(enum unit_kind kind)
{
	switch (kind) {
	case UNIT_BYTES: return "a byte size like '80GB' or '16GiB'";
	case UNIT_RATE: return "a rate like '3.35TB/s' or '400Gbit/s'";
	case UNIT_COMPUTE: return "a compute rate like '989.5TFLOP/s' or '1979TOPS'";
	case UNIT_POWER: return "a power like '700W'";
	case UNIT_DURATION: return "a duration like '72h' or '30d'";
	case UNIT_COUNT: return "a count like '2T' or '1.28M'";
	case UNIT_FREQUENCY: return "a rate like '50/s' or '3000/min'";
	}
	return "a quantity";
}

static int fail(struct unit_problem *p, size_t offset, const char *fmt,
		const char *arg)
{
	p->offset = offset;
	p->out_of_range = false;
	snprintf(p->msg, sizeof(p->msg), fmt, arg ? arg : "");
	return -1;
}

/*
 * Scans a plain decimal number at s[*pos]: digits, an optional fraction and
 * an optional exponent.  strtod alone would also take "nan", "inf", hex and
 * leading spaces, none of which belong in a catalog.
 */
static int scan_number(const char *s, size_t *pos, double *out,
		       struct unit_problem *p)
{
	size_t i = *pos, start = i, digits = 0;
	if (s[i] == '-')
		return fail(p, i, "negative value not allowed here%s", "");
	if (s[i] == '+')
		i++;
	while (isdigit((unsigned char)s[i])) {
		i++;
		digits++;
	}
	if (s[i] == '.') {
		i++;
		while (isdigit((unsigned char)s[i])) {
			i++;
			digits++;
		}
	}
	if (digits == 0)
		return fail(p, start, "expected a number%s", "");
	if ((s[i] == 'e' || s[i] == 'E') &&
	    (isdigit((unsigned char)s[i + 1]) ||
	     ((s[i + 1] == '+' || s[i + 1] == '-') &&
	      isdigit((unsigned char)s[i + 2])))) {
		i += 2;
		while (isdigit((unsigned char)s[i]))
			i++;
	}
	char buf[64];
	if (i - start >= sizeof(buf))
		return fail(p, start, "number too long%s", "");
	memcpy(buf, s + start, i - start);
	buf[i - start] = '\0';
	errno = 0;
	double v = strtod(buf, NULL);
	if (errno == ERANGE || !isfinite(v)) {
		fail(p, start, "number out of range%s", "");
		p->out_of_range = true;
		return -1;
	}
	*out = v;
	*pos = i;
	return 0;
}

int units_plain_number(const char *text, double *out, struct unit_problem *p)
{
	size_t pos = 0;
	if (scan_number(text, &pos, out, p) < 0)
		return -1;
	if (text[pos] != '\0')
		return fail(p, pos, "expected a plain decimal number, found "
			    "trailing '%s'", text + pos);
	return 0;
}

static size_t skip_spaces(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	return i;
}

static const struct unit_def *find_unit(const struct unit_def *t,
					const char *name, size_t len)
{
	for (; t->name; t++)
		if (strlen(t->name) == len && strncmp(t->name, name, len) == 0)
			return t;
	return NULL;
}

static int unknown_unit(enum unit_kind kind, const char *word, size_t offset,
			struct unit_problem *p)
{
	const char *names[64];
	size_t n = 0;
	for (const struct unit_def *t = table_for(kind); t->name && n < 64; t++)
		if (t->name[0])
			names[n++] = t->name;
	const char *near = suggest_nearest(word, names, n);
	p->offset = offset;
	p->out_of_range = false;
	if (near)
		snprintf(p->msg, sizeof(p->msg),
			 "unknown unit '%s' (did you mean '%s'?)", word, near);
	else
		snprintf(p->msg, sizeof(p->msg),
			 "unknown unit '%s': expected %s", word,
			 units_example(kind));
	return -1;
}

int units_parse(enum unit_kind kind, const char *text, double *si,
		struct unit_detail *detail, struct unit_problem *p)
{
	size_t i = skip_spaces(text, 0);
	double v;
	if (scan_number(text, &i, &v, p) < 0)
		return -1;
	i = skip_spaces(text, i);
	size_t ustart = i;
	while (text[i] && text[i] != ' ' && text[i] != '\t')
		i++;
	size_t ulen = i - ustart;
	size_t rest = skip_spaces(text, i);
	if (text[rest])
		return fail(p, rest, "unexpected '%s' after the quantity",
			    text + rest);
	if (ulen == 0 && kind != UNIT_COUNT)
		return fail(p, ustart, "missing unit: expected %s",
			    units_example(kind));
	const struct unit_def *u = find_unit(table_for(kind), text + ustart,
					     ulen);
	if (!u) {
		char word[64];
		snprintf(word, sizeof(word), "%.*s", (int)ulen, text + ustart);
		return unknown_unit(kind, word, ustart, p);
	}
	double r = v * u->scale;
	/* A unit that scales down (ns, bit/s, /h) can take a written number
	 * that is fine below DBL_MIN: a subnormal figure prints as nothing
	 * that reads back, and divides into infinities downstream. */
	/* A bit rate prints in bits: its bits a second must be finite too
	 * ('0.5e300Gbps' is 6.25e307 B/s but 5e308 bit/s, beyond a double) */
	if (!isfinite(r) || (u->bits && !isfinite(r * 8)) ||
	    (r != 0 && fabs(r) < DBL_MIN)) {
		fail(p, 0, "value out of range%s", "");
		p->out_of_range = true;
		return -1;
	}
	*si = r;
	if (detail) {
		detail->integer_ops = u->integer_ops;
		detail->bits = u->bits;
	}
	return 0;
}

/* ---- ranges ---- */

#define DAY 86400.0
#define YEAR (365 * DAY)

/*
 * Why these bounds (catalogs/README.md and profiles/workloads/README.md
 * repeat them for users):
 * - sizes, rates and peaks span every part sold, from an embedded GPU
 *   (a few GB/s, a few hundred GFLOP/s) to past anything announced (B200:
 *   8 TB/s, 4.5 PFLOP/s dense fp8), with two orders of magnitude or more
 *   spare at each end;
 * - money holds in any currency: 1e8 an hour is about 6,000 USD an hour
 *   in Indonesian rupiah (and far past any machine in dollars); 1e-4 an
 *   hour is a hundredth of a cent;
 * - durations run from what a request can take to what a run can;
 * - the smallest rate, price and efficiency keep every quotient of the
 *   planner finite: none is near the doubles' underflow.
 */
static const struct quantity_range ranges[Q_COUNT_OF_QUANTITIES] = {
	[Q_MEMORY] = {UNIT_BYTES, 1e6, 1e15, "1 MB to 1 PB"},
	[Q_BANDWIDTH] = {UNIT_RATE, 1e6, 1e15, "1 MB/s to 1 PB/s"},
	[Q_PEAK] = {UNIT_COMPUTE, 1e6, 1e18, "1 MFLOP/s to 1 EFLOP/s (OPS alike)"},
	[Q_POWER] = {UNIT_POWER, 1, 1e6, "1 W to 1 MW"},
	[Q_LIFETIME] = {UNIT_DURATION, DAY, 50 * YEAR, "1 d to 50 y"},
	[Q_PUE] = {UNIT_COUNT, 1, 10, "1 to 10"},
	[Q_PRICE_PER_HOUR] = {UNIT_COUNT, 1e-4, 1e8, "1e-4 to 1e8 an hour, in its currency"},
	[Q_PURCHASE_PRICE] = {UNIT_COUNT, 1, 1e13, "1 to 1e13, in its currency"},
	[Q_POWER_PRICE] = {UNIT_COUNT, 1e-4, 1e4, "1e-4 to 1e4 per kWh, in its currency"},
	[Q_EXCHANGE_RATE] = {UNIT_COUNT, 1e-9, 1e9, "1e-9 to 1e9 units per unit of the base"},
	[Q_TOKENS] = {UNIT_COUNT, 1, 1e16, "1 to 1e16 (10000T)"},
	[Q_SAMPLES] = {UNIT_COUNT, 1, 1e15, "1 to 1e15 (1000T)"},
	[Q_DEADLINE] = {UNIT_DURATION, 1, 100 * YEAR, "1 s to 100 y"},
	[Q_BUDGET] = {UNIT_COUNT, 0.01, 1e15, "0.01 to 1e15, in its currency"},
	[Q_DECODE_TIME] = {UNIT_DURATION, 1e-9, 3600, "1 ns to 1 h"},
	[Q_SAMPLE_BYTES] = {UNIT_BYTES, 1, 1e12, "1 B to 1 TB"},
	[Q_REQUEST_RATE] = {UNIT_FREQUENCY, 1 / 3600.0, 1e7, "1/h to 10M/s"},
	[Q_LATENCY] = {UNIT_DURATION, 1e-6, DAY, "1 us to 1 d"},
	[Q_SERVING_TIME] = {UNIT_DURATION, 3600, 744 * 3600.0, "1 h to 744 h (a 31-day month)"},
	[Q_EFFICIENCY] = {UNIT_COUNT, 1e-3, 1, "0.001 to 1"},
	[Q_PROBABILITY] = {UNIT_COUNT, 0, 0.99, "0 to 0.99"},
	/* one failure in 114,000 GPU-years to one every 10 GPU-hours: past
	 * any fleet either way; written as the parse computes it (a count
	 * times the hour's factor), so the bounds read back exactly */
	[Q_FAILURE_RATE] = {UNIT_FREQUENCY, 1e-9 * (1 / 3600.0), 0.1 * (1 / 3600.0),
			    "1e-9 to 0.1 per GPU-hour"},
};

const struct quantity_range *quantity_range(enum quantity q)
{
	return &ranges[q];
}

bool quantity_in_range(enum quantity q, double v)
{
	return v >= ranges[q].min && v <= ranges[q].max;
}

/* ---- printing ---- */

static void trim_number(char *s)
{
	if (!strchr(s, '.') || strchr(s, 'e'))
		return;
	size_t n = strlen(s);
	while (n > 0 && s[n - 1] == '0')
		s[--n] = '\0';
	if (n > 0 && s[n - 1] == '.')
		s[--n] = '\0';
}

static char *format_scaled(double v, double scale, const char *unit,
			   char *buf, size_t len)
{
	char num[48];
	snprintf(num, sizeof(num), "%.6g", v / scale);
	trim_number(num);
	snprintf(buf, len, "%s %s", num, unit);
	return buf;
}

/* Picks the largest decimal prefix (up to `max_exp` thousands) that keeps
 * the number at or above 1. */
static char *format_decimal(double v, const char *const prefixes[],
			    int max_exp, const char *unit, char *buf,
			    size_t len)
{
	int e = 0;
	double scale = 1;
	while (e < max_exp && fabs(v) >= scale * 1000) {
		scale *= 1000;
		e++;
	}
	char u[32];
	snprintf(u, sizeof(u), "%s%s", prefixes[e], unit);
	return format_scaled(v, scale, u, buf, len);
}

/* Every prefix printed is one its kind's table above reads back: counts
 * say B for a billion ("7B"), as they are written. */
static const char *const si_prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
static const char *const count_prefixes[] = {"", "K", "M", "B", "T"};
static const char *const byte_prefixes[] = {"", "k", "M", "G", "T", "P"};

/* v is a whole number of `step`s (all doubles involved are exact). */
static bool multiple_of(double v, double step)
{
	return step >= 1 && fmod(v, step) == 0;
}

/*
 * Bytes print the way they were most likely written: a whole number of
 * quarter KiB/MiB/GiB/TiB in binary units (RAM, caches, MIG slices:
 * "48 KiB", "16 GiB"), a number with at most three decimals of a decimal
 * unit in decimal units (datasheets: "80 GB", "3.35 TB/s"), and anything
 * else (a measured size) in binary units with four significant digits.
 */
static char *format_bytes(double v, const char *suffix, char *buf, size_t len)
{
	static const char *const bin[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	int k = 0;
	double bscale = 1;
	while (k < 5 && fabs(v) >= bscale * 1024) {
		bscale *= 1024;
		k++;
	}
	char u[16], num[48];
	snprintf(u, sizeof(u), "%s%s", bin[k], suffix);
	if (k > 0 && multiple_of(v, bscale / 4))
		return format_scaled(v, bscale, u, buf, len);
	double dscale = 1;
	int e = 0;
	while (e < 5 && fabs(v) >= dscale * 1000) {
		dscale *= 1000;
		e++;
	}
	if (e == 0 || multiple_of(v, dscale / 1000)) {
		snprintf(u, sizeof(u), "B%s", suffix);
		return format_decimal(v, byte_prefixes, 5, u, buf, len);
	}
	snprintf(num, sizeof(num), "%.4g", v / bscale);
	snprintf(buf, len, "%s %s", num, u);
	return buf;
}

/* Durations read as a person says them: "2.98 min", "24.7 d". */
static char *format_duration_scaled(double s, double scale, const char *unit,
				    char *buf, size_t len)
{
	char num[48];
	double v = s / scale;
	/* whole units up to a million; past that (a run of 1e30 days, from
	 * extreme but accepted inputs) three digits and an exponent */
	snprintf(num, sizeof(num), v >= 100 && v < 1e6 ? "%.0f" : "%.3g", v);
	snprintf(buf, len, "%s %s", num, unit);
	return buf;
}

static char *format_duration(double s, char *buf, size_t len)
{
	if (s < 1)
		return format_duration_scaled(s, 1e-3, "ms", buf, len);
	if (s < 120)
		return format_duration_scaled(s, 1, "s", buf, len);
	if (s < 7200)
		return format_duration_scaled(s, 60, "min", buf, len);
	if (s < 3 * 86400)
		return format_duration_scaled(s, 3600, "h", buf, len);
	if (s >= 365 * 86400.0 && fmod(s, 365 * 86400.0) == 0)
		return format_duration_scaled(s, 365 * 86400.0, "y", buf, len);
	return format_duration_scaled(s, 86400, "d", buf, len);
}

/* Per second when at least one a second, else per minute, else per hour:
 * "50/s", "30/min", "2/h". */
static char *format_frequency(double hz, char *buf, size_t len)
{
	double v = hz;
	const char *per = "/s";
	if (hz < 1 && hz * 60 >= 1) {
		v = hz * 60;
		per = "/min";
	} else if (hz < 1) {
		v = hz * 3600;
		per = "/h";
	}
	char num[48];
	snprintf(num, sizeof(num), "%.6g", v);
	trim_number(num);
	snprintf(buf, len, "%s%s", num, per);
	return buf;
}

char *units_format(enum unit_kind kind, double si, const struct unit_detail *d,
		   char *buf, size_t len)
{
	switch (kind) {
	case UNIT_BYTES:
		return format_bytes(si, "", buf, len);
	case UNIT_RATE:
		if (d && d->bits)
			return format_decimal(si * 8, si_prefixes, 4, "bit/s",
					      buf, len);
		return format_bytes(si, "/s", buf, len);
	case UNIT_COMPUTE:
		/* Stop at tera: datasheets quote "1979 TOPS", not "1.979 P". */
		if (d && d->integer_ops)
			return format_decimal(si, si_prefixes, 4, "OPS", buf,
					      len);
		return format_decimal(si, si_prefixes, 4, "FLOP/s", buf, len);
	case UNIT_POWER:
		return format_decimal(si, si_prefixes, 2, "W", buf, len);
	case UNIT_DURATION:
		return format_duration(si, buf, len);
	case UNIT_COUNT:
		return format_decimal(si, count_prefixes, 4, "", buf, len);
	case UNIT_FREQUENCY:
		return format_frequency(si, buf, len);
	}
	return buf;
}

/* ---- money ---- */

struct currency_symbol {
	const char *text;
	const char *code;
};

/* Longest spellings first so "RMB" is not read as a code prefix. */
static const struct currency_symbol symbols[] = {
	{"\xEF\xBF\xA5", "CNY"},	/* U+FFE5 fullwidth yen sign */
	{"\xE2\x82\xAC", "EUR"},	/* U+20AC euro sign */
	{"\xC2\xA5", "CNY"},		/* U+00A5 yen sign */
	{"\xC2\xA3", "GBP"},		/* U+00A3 pound sign */
	{"$", "USD"},
	{NULL, NULL},
};

static const struct currency_symbol *match_symbol(const char *s)
{
	for (const struct currency_symbol *c = symbols; c->text; c++)
		if (strncmp(s, c->text, strlen(c->text)) == 0)
			return c;
	return NULL;
}

/* Reads a three-letter code (or RMB) at s[*i]; returns 0 and advances. */
static int scan_code(const char *s, size_t *i, char code[4])
{
	size_t k = *i;
	if (!(isupper((unsigned char)s[k]) && isupper((unsigned char)s[k + 1]) &&
	      isupper((unsigned char)s[k + 2])))
		return -1;
	if (isalpha((unsigned char)s[k + 3]))
		return -1;
	if (strncmp(s + k, "RMB", 3) == 0)
		memcpy(code, "CNY", 4);
	else {
		memcpy(code, s + k, 3);
		code[3] = '\0';
	}
	*i = k + 3;
	return 0;
}

static int scan_per(const char *s, size_t *i, enum money_per *per,
		    struct unit_problem *p)
{
	static const struct {
		const char *name;
		enum money_per per;
	} pers[] = {{"h", MONEY_PER_HOUR}, {"hr", MONEY_PER_HOUR},
		    {"kWh", MONEY_PER_KWH}, {"month", MONEY_PER_MONTH},
		    {"mo", MONEY_PER_MONTH}};
	*per = MONEY_TOTAL;
	if (s[*i] != '/')
		return 0;
	size_t start = *i + 1, k = start;
	while (isalpha((unsigned char)s[k]))
		k++;
	for (size_t j = 0; j < sizeof(pers) / sizeof(pers[0]); j++)
		if (k - start == strlen(pers[j].name) &&
		    strncmp(s + start, pers[j].name, k - start) == 0) {
			*per = pers[j].per;
			*i = k;
			return 0;
		}
	char word[32];
	snprintf(word, sizeof(word), "%.*s", (int)(k - start), s + start);
	return fail(p, start, "unknown money unit '/%s': expected /h, /kWh or /month",
		    word);
}

int money_parse(const char *text, struct money *out, struct unit_problem *p)
{
	size_t i = skip_spaces(text, 0);
	bool have_code = false;
	const struct currency_symbol *sym = match_symbol(text + i);
	if (sym) {
		memcpy(out->currency, sym->code, 4);
		i += strlen(sym->text);
		have_code = true;
	} else if (scan_code(text, &i, out->currency) == 0) {
		have_code = true;
		i = skip_spaces(text, i);
	}
	if (scan_number(text, &i, &out->amount, p) < 0)
		return -1;
	i = skip_spaces(text, i);
	if (!have_code) {
		if (scan_code(text, &i, out->currency) < 0)
			return fail(p, i, "missing currency: expected an amount like '32.77 USD/h', '$32.77/h' or '\xC2\xA5" "12.5/h'%s", "");
	}
	if (scan_per(text, &i, &out->per, p) < 0)
		return -1;
	size_t rest = skip_spaces(text, i);
	if (text[rest])
		return fail(p, rest, "unexpected '%s' after the amount",
			    text + rest);
	return 0;
}

bool currency_code_valid(const char *s)
{
	return strlen(s) == 3 && isupper((unsigned char)s[0]) &&
	       isupper((unsigned char)s[1]) && isupper((unsigned char)s[2]);
}

const char *money_per_suffix(enum money_per per)
{
	switch (per) {
	case MONEY_TOTAL: return "";
	case MONEY_PER_HOUR: return "/h";
	case MONEY_PER_KWH: return "/kWh";
	case MONEY_PER_MONTH: return "/month";
	}
	return "";
}

char *money_format(const struct money *m, char *buf, size_t len)
{
	if (m->amount >= 1 || m->amount == 0)
		snprintf(buf, len, "%.2f %s%s", m->amount, m->currency,
			 money_per_suffix(m->per));
	else
		snprintf(buf, len, "%.4g %s%s", m->amount, m->currency,
			 money_per_suffix(m->per));
	return buf;
}

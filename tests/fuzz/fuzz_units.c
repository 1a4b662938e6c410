/*
 * fuzz_units.c - quantities and money as written in every gpuplan file
 * (units_parse for each kind, money_parse), on the input as one string.
 *
 * Besides "no crash": a quantity read is finite and not negative, a
 * refusal says why and points inside the text, and what gpuplan prints
 * for a value (units_format: `catalog show`, tables) reads back as the
 * same value, within the printed precision.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "fuzz.h"

#define MAX_TEXT 1024	/* a YAML scalar longer than this is no quantity */

static const enum unit_kind kinds[] = {
	UNIT_BYTES, UNIT_RATE, UNIT_COMPUTE, UNIT_POWER,
	UNIT_DURATION, UNIT_COUNT, UNIT_FREQUENCY,
};

static void check_refusal(const char *what, const char *text,
			  const struct unit_problem *p)
{
	if (!p->msg[0])
		fuzz_fail(what, "'%s' refused without a message", text);
	if (p->offset > strlen(text))
		fuzz_fail(what, "'%s' refused at offset %zu, past its end",
			  text, p->offset);
}

/* Printed with 3 to 6 significant digits: 1% covers the rounding. */
static int close_enough(double a, double b)
{
	return fabs(a - b) <= 0.01 * fmax(fabs(a), fabs(b));
}

static void check_quantity(enum unit_kind kind, const char *text)
{
	double si = -1;
	struct unit_detail d = {0};
	struct unit_problem p = {0};
	int rc = units_parse(kind, text, &si, &d, &p);
	if (rc != 0) {
		check_refusal("units_parse", text, &p);
		return;
	}
	if (!isfinite(si) || si < 0)
		fuzz_fail("units_parse", "'%s' (kind %d) read as %g", text,
			  (int)kind, si);
	char shown[128];
	units_format(kind, si, &d, shown, sizeof(shown));
	double back = -1;
	struct unit_detail d2 = {0};
	if (units_parse(kind, shown, &back, &d2, &p) != 0)
		fuzz_fail("units_format", "'%s' (kind %d, %.17g) prints as '%s', which reads back as an error: %s",
			  text, (int)kind, si, shown, p.msg);
	if (!close_enough(si, back))
		fuzz_fail("units_format", "'%s' (kind %d) is %.17g, prints as '%s', which reads back as %.17g",
			  text, (int)kind, si, shown, back);
}

static void check_money(const char *text)
{
	struct money m;
	memset(&m, 0, sizeof(m));
	struct unit_problem p = {0};
	if (money_parse(text, &m, &p) != 0) {
		check_refusal("money_parse", text, &p);
		return;
	}
	if (!isfinite(m.amount) || m.amount < 0 ||
	    !currency_code_valid(m.currency) || m.per < MONEY_TOTAL ||
	    m.per > MONEY_PER_MONTH)
		fuzz_fail("money_parse", "'%s' read as %g '%.4s' per %d", text,
			  m.amount, m.currency, (int)m.per);
	char shown[128];
	money_format(&m, shown, sizeof(shown));
	/* two decimals of a huge amount make a number too long to read:
	 * such prices are the loaders' ranges' business, not the format's */
	if (m.amount > 1e15)
		return;
	struct money back;
	memset(&back, 0, sizeof(back));
	if (money_parse(shown, &back, &p) != 0)
		fuzz_fail("money_format", "'%s' prints as '%s', which reads back as an error: %s",
			  text, shown, p.msg);
	if (strcmp(back.currency, m.currency) != 0 || back.per != m.per ||
	    (m.amount >= 0.01 && !close_enough(back.amount, m.amount)))
		fuzz_fail("money_format", "'%s' prints as '%s', which reads back as %g %s per %d",
			  text, shown, back.amount, back.currency, (int)back.per);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > MAX_TEXT)
		return 0;
	char text[MAX_TEXT + 1];
	memcpy(text, data, size);
	text[size] = '\0';	/* a NUL inside ends the text, as in C */
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		check_quantity(kinds[i], text);
	check_money(text);
	return 0;
}

/*
 * num_format.c - shortest round-trip decimals; see num_format.h.
 */
#include "num_format.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Only %.15g, %.16g and %.17g need trying.  Any decimal of at most
 * DBL_DIG (15) significant digits survives decimal -> double -> %.15g
 * unchanged (C11 5.2.4.2.2), so when a shorter %.Ng reads back exactly,
 * %.15g prints those same digits followed by zeros, which %g drops: the
 * same text.  Three tries instead of seventeen keeps a plan of a million
 * numbers quick.  A subnormal holds fewer digits than DBL_DIG (5e-324 is
 * one bit), so there every length is tried.  %.17g always reads back
 * (DBL_DECIMAL_DIG).
 */
char *num_shortest(double v, char *buf)
{
	if (!isfinite(v)) {
		snprintf(buf, NUM_SHORTEST_MAX, "%g", v);
		return buf;
	}
	int first = v != 0 && fabs(v) < DBL_MIN ? 1 : DBL_DIG;
	for (int digits = first; digits < DBL_DECIMAL_DIG; digits++) {
		snprintf(buf, NUM_SHORTEST_MAX, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			return buf;	/* -0.0 == 0.0, and "-0" keeps the sign */
	}
	snprintf(buf, NUM_SHORTEST_MAX, "%.*g", DBL_DECIMAL_DIG, v);
	return buf;
}

/* "1e+300" -> "1e300", "1e-05" -> "1e-5" */
static void tidy_exponent(char *buf)
{
	char *e = strchr(buf, 'e');
	if (!e)
		return;
	char *start = e + 1;
	if (*start == '+')
		memmove(start, start + 1, strlen(start + 1) + 1);
	else if (*start == '-')
		start++;
	char *digits = start;
	while (digits[0] == '0' && digits[1] != '\0')
		digits++;
	if (digits != start)
		memmove(start, digits, strlen(digits) + 1);
}

char *num_shortest_json(double v, char *buf)
{
	num_shortest(v, buf);
	if (!isfinite(v))
		return buf;
	if (!strchr(buf, '.') && !strchr(buf, 'e'))
		strcat(buf, ".0");
	tidy_exponent(buf);
	return buf;
}

/* From the shortest form's digits and exponent (%e layout: "d.ddde+X"),
 * the same number with the point moved into place and zeros added. */
char *num_plain(double v, char *buf)
{
	char e[NUM_SHORTEST_MAX];
	num_shortest(v, e);
	if (!isfinite(v) || !strchr(e, 'e')) {
		strcpy(buf, e);
		return buf;
	}
	/* %g chose the exponent form: "-1.2345e+20" -> sign, digits, exp */
	char digits[NUM_SHORTEST_MAX];
	size_t nd = 0;
	const char *c = e;
	bool negative = *c == '-';
	if (negative)
		c++;
	for (; *c != 'e'; c++)
		if (*c != '.')
			digits[nd++] = *c;
	digits[nd] = '\0';
	int exp = atoi(c + 1);	/* the first digit's power of ten */
	char *o = buf;
	if (negative)
		*o++ = '-';
	if (exp < 0) {
		o += sprintf(o, "0.");
		for (int k = -1; k > exp; k--)
			*o++ = '0';
		strcpy(o, digits);
		return buf;
	}
	for (int k = 0; k <= exp || (size_t)k < nd; k++) {
		if (k == exp + 1)
			*o++ = '.';
		*o++ = (size_t)k < nd ? digits[k] : '0';
	}
	*o = '\0';
	return buf;
}

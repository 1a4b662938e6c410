/*
 * utc_time.c - see utc_time.h.
 */
#include "utc_time.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool utc_time_valid(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (strlen(s) != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != shape[i])
			return false;
	int y = atoi(s), mo = atoi(s + 5), d = atoi(s + 8), h = atoi(s + 11),
	    mi = atoi(s + 14), sec = atoi(s + 17);
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return mo >= 1 && mo <= 12 && d >= 1 &&
	       d <= days[mo - 1] + (mo == 2 && leap) && h <= 23 && mi <= 59 &&
	       sec <= 60;
}

static bool digits(const char *s, int n, long *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; H. Hinnant's
 * days_from_civil). */
static long days_from_civil(long y, long m, long d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int month_days(long y, long m)
{
	static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return m == 2 && leap ? 29 : days[m - 1];
}

/* See utc_time.h. */
bool utc_civil_parse(const char *s, char date_sep, long *days, double *sec)
{
	long y, mo, d, h, mi, se;
	size_t len = strlen(s);
	if (len < 19 || s[4] != date_sep || s[7] != date_sep ||
	    (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':' ||
	    !digits(s, 4, &y) || !digits(s + 5, 2, &mo) ||
	    !digits(s + 8, 2, &d) || !digits(s + 11, 2, &h) ||
	    !digits(s + 14, 2, &mi) || !digits(s + 17, 2, &se))
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > month_days(y, mo) || h > 23 ||
	    mi > 59 || se > 59)
		return false;
	double frac = 0, scale = 0.1;
	size_t i = 19;
	if (i < len && s[i] == '.') {
		if (++i >= len || s[i] < '0' || s[i] > '9')
			return false;
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, scale /= 10)
			frac += (s[i] - '0') * scale;
	}
	if (i < len && s[i] == 'Z')
		i++;
	if (i != len)
		return false;
	*days = days_from_civil(y, mo, d);
	*sec = (double)(h * 3600 + mi * 60 + se) + frac;
	return true;
}

void utc_civil_format(long days, double sec, char date_sep, char *buf,
		      size_t len)
{
	long ms = lround(sec * 1000);
	days += ms / 86400000;
	ms %= 86400000;
	/* H. Hinnant's civil_from_days */
	long z = days + 719468;
	long era = (z >= 0 ? z : z - 146096) / 146097;
	long doe = z - era * 146097;
	long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	long mp = (5 * doy + 2) / 153;
	long d = doy - (153 * mp + 2) / 5 + 1;
	long m = mp + (mp < 10 ? 3 : -9);
	long y = yoe + era * 400 + (m <= 2);
	snprintf(buf, len, "%04ld%c%02ld%c%02ld %02ld:%02ld:%02ld.%03ld", y,
		 date_sep, m, date_sep, d, ms / 3600000, ms / 60000 % 60,
		 ms / 1000 % 60, ms % 1000);
}

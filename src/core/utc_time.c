/*
 * utc_time.c - see utc_time.h.
 */
#include "utc_time.h"

#include <ctype.h>
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

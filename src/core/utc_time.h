/*
 * utc_time.h - the one form of a moment gpuplan writes and reads back:
 * "YYYY-MM-DDTHH:MM:SSZ" (UTC), as the measured profile's `when` and the
 * fitted file's `measured` give it.
 */
#ifndef GPUPLAN_CORE_UTC_TIME_H
#define GPUPLAN_CORE_UTC_TIME_H

#include <stdbool.h>
#include <stddef.h>

/* Whether s is YYYY-MM-DDTHH:MM:SSZ naming a real moment: a calendar date
 * (leap years counted), hours to 23, minutes to 59, seconds to 60 (a leap
 * second). */
bool utc_time_valid(const char *s);

/*
 * A date and time as logs write them, "YYYY-MM-DD HH:MM:SS[.frac][Z]"
 * ('T' may stand for the space), with date_sep between the date's parts:
 * '-' for ISO 8601 and request traces, '/' for nvidia-smi's
 * "2017/03/19 17:32:29.613".  On success *days counts from 1970-01-01
 * (proleptic Gregorian) and *sec the seconds into that day; false when s
 * is not one or names no real date and time (February 30th, 24:00).
 */
bool utc_civil_parse(const char *s, char date_sep, long *days, double *sec);

/* The inverse: days since 1970-01-01 and seconds into the day (may run
 * past 86400: carried into the days) as "YYYY/MM/DD HH:MM:SS.mmm" with
 * date_sep between the date's parts. */
void utc_civil_format(long days, double sec, char date_sep, char *buf,
		      size_t len);

#endif

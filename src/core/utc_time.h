/*
 * utc_time.h - the one form of a moment gpuplan writes and reads back:
 * "YYYY-MM-DDTHH:MM:SSZ" (UTC), as the measured profile's `when` and the
 * fitted file's `measured` give it.
 */
#ifndef GPUPLAN_CORE_UTC_TIME_H
#define GPUPLAN_CORE_UTC_TIME_H

#include <stdbool.h>

/* Whether s is YYYY-MM-DDTHH:MM:SSZ naming a real moment: a calendar date
 * (leap years counted), hours to 23, minutes to 59, seconds to 60 (a leap
 * second). */
bool utc_time_valid(const char *s);

#endif

/*
 * compare_profiles.h - two measured profiles (profile/profile.h) compared
 * figure by figure on their raw repetitions.  A figure is the same figure
 * when its suite, name (which holds the sizes), kernel and precision are
 * (a thread count that differs is said in a note: comparing --threads 1
 * with 2 is a use); each repetition's rate (work / its time, higher is
 * better) enters Welch's test as a run's value does (compare_runs.h).
 * Figures in one profile only are listed.
 *
 * The JSON has the shape of a runs comparison (kind "profiles"), so it is
 * printed by compare_print_runs.
 *
 * Ownership: the caller decrefs the returned json_t.
 */
#ifndef GPUPLAN_COMPARE_COMPARE_PROFILES_H
#define GPUPLAN_COMPARE_COMPARE_PROFILES_H

#include <jansson.h>

#include "profile/profile.h"

json_t *compare_profiles(const struct bench_profile *before,
			 const char *before_file,
			 const struct bench_profile *after,
			 const char *after_file);

#endif

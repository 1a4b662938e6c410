/*
 * describe.h - the mean, the sample standard deviation and the median of
 * a sample: the one place a repetition summary (profile/timing.h), a
 * Welch comparison (compare/welch.h) and the log detectors
 * (diagnose/findings.c) take them from.
 *
 * Ownership: nothing is kept; the median's input must already be sorted
 * (core/sort_doubles.h).
 */
#ifndef GPUPLAN_CORE_DESCRIBE_H
#define GPUPLAN_CORE_DESCRIBE_H

#include <stddef.h>

/* The mean of v[0..n-1]; 0 when n is 0. */
double describe_mean(const double *v, size_t n);

/* The sample standard deviation about mean (n - 1 in the denominator);
 * 0 when n < 2. */
double describe_sd(const double *v, size_t n, double mean);

/* The median of sorted[0..n-1] (the mean of the middle two when n is
 * even); NaN when n is 0. */
double describe_median_sorted(const double *sorted, size_t n);

#endif

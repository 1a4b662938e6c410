/*
 * sort_doubles.h - doubles in ascending order: the one comparator the
 * percentiles, medians and starting points of gpuplan sort by.
 *
 * Ownership: sorts in place.
 */
#ifndef GPUPLAN_CORE_SORT_DOUBLES_H
#define GPUPLAN_CORE_SORT_DOUBLES_H

#include <stddef.h>

/* v[0..n-1] ascending (qsort; NaNs are not expected). */
void sort_doubles(double *v, size_t n);

#endif

/*
 * sort_doubles.c - doubles in ascending order; see sort_doubles.h.
 */
#include "sort_doubles.h"

#include <stdlib.h>

static int ascending(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

void sort_doubles(double *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(double), ascending);
}

/*
 * describe.c - mean, standard deviation and median; see describe.h.
 */
#include "core/describe.h"

#include <math.h>

double describe_mean(const double *v, size_t n)
{
	double sum = 0;
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double describe_sd(const double *v, size_t n, double mean)
{
	double sq = 0;
	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	return sqrt(sq / (double)(n - 1));
}

double describe_median_sorted(const double *sorted, size_t n)
{
	if (n == 0)
		return NAN;
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/*
 * check.h - the smallest test harness that does the job.
 *
 * Each unit-test program is a plain main() that calls CHECK* macros and ends
 * with `return check_summary("name");`.  A failed check prints file:line and
 * both values, and the program exits 1 so ctest counts it as failed.  There is
 * no global setup: every test function builds what it needs.
 */
#ifndef GPUPLAN_TEST_CHECK_H
#define GPUPLAN_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(cond)                                                        \
	do {                                                               \
		check_count++;                                             \
		if (!(cond)) {                                             \
			check_failures++;                                  \
			fprintf(stderr, "%s:%d: check failed: %s\n",       \
				__FILE__, __LINE__, #cond);                \
		}                                                          \
	} while (0)

#define CHECK_STR(got, want)                                               \
	do {                                                               \
		const char *g_ = (got), *w_ = (want);                      \
		check_count++;                                             \
		if (!g_ || !w_ || strcmp(g_, w_) != 0) {                   \
			check_failures++;                                  \
			fprintf(stderr, "%s:%d: got '%s', want '%s'\n",    \
				__FILE__, __LINE__, g_ ? g_ : "(null)",    \
				w_ ? w_ : "(null)");                       \
		}                                                          \
	} while (0)

/* needle is a substring of haystack (both shown when it is not). */
#define CHECK_HAS(haystack, needle)                                        \
	do {                                                               \
		const char *h_ = (haystack), *n_ = (needle);               \
		CHECK(strstr(h_, n_) != NULL);                             \
		if (!strstr(h_, n_))                                       \
			fprintf(stderr, "  in '%s'\n  wanted '%s'\n", h_,  \
				n_);                                       \
	} while (0)

/* Relative tolerance: |got - want| <= rel * |want| (exact when want is 0). */
#define CHECK_NEAR(got, want, rel)                                         \
	do {                                                               \
		double g_ = (got), w_ = (want);                            \
		check_count++;                                             \
		if (!(fabs(g_ - w_) <= (rel) * fabs(w_))) {                \
			check_failures++;                                  \
			fprintf(stderr, "%s:%d: got %.17g, want %.17g "    \
				"(rel tol %g)\n", __FILE__, __LINE__, g_,  \
				w_, (double)(rel));                        \
		}                                                          \
	} while (0)

static inline int check_summary(const char *suite)
{
	printf("%s: %d checks, %d failed\n", suite, check_count,
	       check_failures);
	return check_failures ? 1 : 0;
}

#endif

#include "suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

size_t edit_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b);
	/* Three rows suffice for the transposition rule. */
	size_t *prev2 = xcalloc(m + 1, sizeof(size_t));
	size_t *prev = xcalloc(m + 1, sizeof(size_t));
	size_t *cur = xcalloc(m + 1, sizeof(size_t));
	for (size_t j = 0; j <= m; j++)
		prev[j] = j;
	for (size_t i = 1; i <= n; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= m; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb;
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
				      prev[j - 1] + cost);
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb &&
			    prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	size_t d = prev[m];
	free(prev2);
	free(prev);
	free(cur);
	return d;
}

/*
 * The distance when it is at most limit, else limit + 1: only the band of
 * cells within limit of the diagonal is computed, and a row whose every
 * cell is past the limit ends the work.  O(len x limit), not O(len^2).
 */
static size_t distance_within(const char *a, size_t n, const char *b,
			      size_t m, size_t limit)
{
	if ((n > m ? n - m : m - n) > limit)
		return limit + 1;
	size_t big = limit + 1;
	size_t rows[3][SUGGEST_MAX_WORD + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= m; j++)
		prev[j] = prev2[j] = j <= limit ? j : big;
	for (size_t i = 1; i <= n; i++) {
		size_t lo = i > limit ? i - limit : 1;
		size_t hi = i + limit < m ? i + limit : m;
		size_t row_min = big;
		for (size_t j = 0; j <= m; j++)
			cur[j] = big;
		cur[0] = i <= limit ? i : big;
		for (size_t j = lo; j <= hi; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t d = min3(prev[j] + 1, cur[j - 1] + 1,
					prev[j - 1] + (ca != cb));
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb &&
			    prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d < big ? d : big;
			if (cur[j] < row_min)
				row_min = cur[j];
		}
		if (row_min > limit)
			return big;
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[m] <= limit ? prev[m] : big;
}

const char *suggest_nearest(const char *word, const char *const *candidates,
			    size_t n)
{
	size_t wl = strlen(word);
	if (wl > SUGGEST_MAX_WORD)
		return NULL;
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	for (size_t i = 0; (n == (size_t)-1 ? candidates[i] != NULL : i < n) &&
			   i < SUGGEST_MAX_CANDIDATES;
	     i++) {
		size_t cl = strlen(candidates[i]);
		if (cl > SUGGEST_MAX_WORD)
			continue;
		size_t longer = wl > cl ? wl : cl;
		size_t limit = longer / 3 < 3 ? longer / 3 : 3;
		if (limit == 0)
			limit = 1;
		if (best && best_d <= limit)
			limit = best_d - (best_d > 0);	/* only a closer one */
		size_t d = distance_within(word, wl, candidates[i], cl, limit);
		if (d <= limit && d < best_d) {
			best = candidates[i];
			best_d = d;
		}
	}
	return best;
}

const char *suggest_hint(const char *word, const char *const *candidates,
			 size_t n, char *buf, size_t len)
{
	const char *s = suggest_nearest(word, candidates, n);
	if (!s)
		return NULL;
	snprintf(buf, len, "did you mean '%s'?", s);
	return buf;
}

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

const char *suggest_nearest(const char *word, const char *const *candidates,
			    size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	for (size_t i = 0; n == (size_t)-1 ? candidates[i] != NULL : i < n;
	     i++) {
		size_t d = edit_distance(word, candidates[i]);
		size_t longer = strlen(word) > strlen(candidates[i])
					? strlen(word)
					: strlen(candidates[i]);
		size_t limit = longer / 3 < 3 ? longer / 3 : 3;
		if (limit == 0)
			limit = 1;
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

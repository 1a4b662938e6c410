/*
 * device_match.c - a device's name to the catalog's accelerator; see
 * device_match.h.
 */
#include "catalog/device_match.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_TOKENS 16

/* s split on spaces and hyphens into tok (at most MAX_TOKENS). */
static int tokens(const char *s, char tok[MAX_TOKENS][64])
{
	int n = 0;
	while (*s && n < MAX_TOKENS) {
		while (*s == ' ' || *s == '-')
			s++;
		size_t k = 0;
		while (*s && *s != ' ' && *s != '-') {
			if (k < 63)
				tok[n][k++] = *s;
			s++;
		}
		tok[n][k] = '\0';
		if (k)
			n++;
	}
	return n;
}

/* How the accelerator's name is found in the device's: 2 every token
 * exactly, 1 every token as the start of one (SXM in SXM4), 0 not. */
static int name_match(const char *acc, char dev[MAX_TOKENS][64], int nd)
{
	char t[MAX_TOKENS][64];
	int n = tokens(acc, t), level = 2;
	for (int i = 0; i < n; i++) {
		int best = 0;
		for (int j = 0; j < nd; j++) {
			if (!strcasecmp(t[i], dev[j]))
				best = 2;
			else if (!strncasecmp(t[i], dev[j], strlen(t[i])) && best < 1)
				best = 1;
		}
		if (best < level)
			level = best;
	}
	return n ? level : 0;
}

/* Of cat's accelerators, those `fits` says the device's name fits: the
 * number, the last in *one, their names joined in names. */
static int candidates(const struct catalog *cat, char dev[MAX_TOKENS][64],
		      int nd, bool family, const struct accelerator **one,
		      char *names, size_t len)
{
	int n = 0;
	names[0] = '\0';
	for (size_t i = 0; i < cat->n_acc; i++) {
		const struct accelerator *a = &cat->acc[i];
		char t[MAX_TOKENS][64];
		bool fits;
		if (family) {
			fits = false;
			if (tokens(a->name, t) > 0)
				for (int j = 0; j < nd && !fits; j++)
					fits = !strcasecmp(t[0], dev[j]);
		} else {
			fits = name_match(a->name, dev, nd) > 0;
		}
		if (!fits)
			continue;
		*one = a;
		size_t at = strlen(names);
		snprintf(names + at, len - at, "%s%s", n++ ? ", " : "", a->name);
	}
	return n;
}

/* How many of the accelerator's name tokens the device's name holds
 * exactly. */
static int exact_tokens(const char *acc, char dev[MAX_TOKENS][64], int nd)
{
	char t[MAX_TOKENS][64];
	int n = tokens(acc, t), exact = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < nd; j++)
			if (!strcasecmp(t[i], dev[j])) {
				exact++;
				break;
			}
	return exact;
}

/* Among the candidates (every token found), the one with the most tokens
 * found exactly: "A100-SXM-80GB" (A100, 80GB exact) over "A10" (A10 only
 * the start of A100) in "NVIDIA A100-SXM4-80GB".  NULL on a tie. */
static const struct accelerator *most_exact(const struct catalog *cat,
					    char dev[MAX_TOKENS][64], int nd)
{
	const struct accelerator *best = NULL;
	int most = -1;
	bool tie = false;
	for (size_t i = 0; i < cat->n_acc; i++) {
		if (name_match(cat->acc[i].name, dev, nd) == 0)
			continue;
		int e = exact_tokens(cat->acc[i].name, dev, nd);
		if (e > most) {
			most = e;
			best = &cat->acc[i];
			tie = false;
		} else if (e == most) {
			tie = true;
		}
	}
	return tie ? NULL : best;
}

const struct accelerator *catalog_match_device(const struct catalog *cat,
						const char *device, char *names,
						size_t len, int *n_out)
{
	char dev[MAX_TOKENS][64];
	int nd = tokens(device, dev);
	const struct accelerator *one = NULL, *exact = NULL;
	int n = candidates(cat, dev, nd, false, &one, names, len);
	if (n > 1) {
		int exacts = 0;
		for (size_t i = 0; i < cat->n_acc; i++)
			if (name_match(cat->acc[i].name, dev, nd) == 2) {
				exact = &cat->acc[i];
				exacts++;
			}
		if (exacts != 1)
			exact = most_exact(cat, dev, nd);
		if (exact) {
			*n_out = 1;
			return exact;
		}
	}
	if (n == 0)
		n = candidates(cat, dev, nd, true, &one, names, len);
	*n_out = n;
	return n == 1 ? one : NULL;
}

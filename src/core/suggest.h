/*
 * suggest.h - "did you mean" for keys, commands, options and names.
 *
 * Uses the optimal-string-alignment distance (Levenshtein plus adjacent
 * transpositions, so 'gpu_cuont' is one edit from 'gpu_count'), compared
 * case-insensitively.  A candidate is offered only when it is close enough
 * that the suggestion is more likely right than noise: at most a third of
 * the longer word's length, and never more than 3 edits.
 * The work is bounded whatever the input: only the band of the distance
 * table within the limit is computed, words longer than SUGGEST_MAX_WORD
 * bytes get no suggestion, and only the first SUGGEST_MAX_CANDIDATES
 * candidates are looked at (a list of a million tensor names costs what
 * ten thousand do).
 * Ownership: returns a pointer into `candidates` or NULL; nothing to free.
 */
#ifndef GPUPLAN_CORE_SUGGEST_H
#define GPUPLAN_CORE_SUGGEST_H

#include <stddef.h>

#define SUGGEST_MAX_WORD 64
#define SUGGEST_MAX_CANDIDATES 10000

size_t edit_distance(const char *a, const char *b);

/* The nearest candidate to `word`, or NULL when none is close enough.
 * candidates is NULL-terminated when n is (size_t)-1, else holds n items. */
const char *suggest_nearest(const char *word, const char *const *candidates,
			    size_t n);

/* Writes "did you mean 'X'?" into buf and returns buf, or returns NULL when
 * there is nothing to suggest. */
const char *suggest_hint(const char *word, const char *const *candidates,
			 size_t n, char *buf, size_t len);

#endif

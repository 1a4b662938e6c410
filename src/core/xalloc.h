/*
 * xalloc.h - allocation that never returns NULL.
 *
 * gpuplan's inputs are small (catalogs, profiles); running out of memory is
 * not a condition any caller can recover from, so these print one line and
 * abort instead of threading NULL checks through every loader.
 * Ownership: the caller owns (and frees) everything returned.
 */
#ifndef GPUPLAN_CORE_XALLOC_H
#define GPUPLAN_CORE_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

/* Grows *v (of element size `size`) so that it can hold at least need items. */
void xgrow(void **v, size_t *cap, size_t need, size_t size);

#endif

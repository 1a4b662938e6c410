/*
 * fault.c - faults met while measuring; see fault.h.
 */
#include "profile/fault.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

const char *const bench_fault_kind_names[] = {
	[BENCH_FAULT_ERROR] = "error",
	[BENCH_FAULT_WRONG_RESULT] = "wrong-result",
	[BENCH_FAULT_DEVICE_LOST] = "device-lost",
	[BENCH_FAULT_OUT_OF_MEMORY] = "out-of-memory",
	[BENCH_FAULT_BAD_TIMER] = "bad-timer",
	[BENCH_FAULT_THROTTLED] = "throttled",
	[BENCH_FAULT_KINDS] = NULL,
};

const char *bench_fault_kind_name(enum bench_fault_kind k)
{
	return (unsigned)k < BENCH_FAULT_KINDS ? bench_fault_kind_names[k] : NULL;
}

int bench_fault_kind_of(const char *name)
{
	for (int k = 0; k < BENCH_FAULT_KINDS; k++)
		if (!strcmp(bench_fault_kind_names[k], name))
			return k;
	return -1;
}

void bench_names_add(struct bench_names *l, const char *name)
{
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(l->v[0]));
	l->v[l->n++] = xstrdup(name);
}

bool bench_names_has(const struct bench_names *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], name))
			return true;
	return false;
}

void bench_names_free(struct bench_names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void bench_faults_init(struct bench_faults *l)
{
	memset(l, 0, sizeof(*l));
}

void bench_faults_free(struct bench_faults *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct bench_fault *f = &l->v[i];
		free(f->what);
		bench_names_free(&f->missing);
		bench_names_free(&f->marked);
		bench_names_free(&f->ended);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

size_t bench_faults_add(struct bench_faults *l, enum bench_fault_kind kind,
			const char *suite, const char *figure,
			const char *fmt, ...)
{
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(l->v[0]));
	struct bench_fault *f = &l->v[l->n];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	snprintf(f->suite, sizeof(f->suite), "%s", suite);
	snprintf(f->figure, sizeof(f->figure), "%s", figure ? figure : "");
	va_list ap;
	va_start(ap, fmt);
	f->what = xvasprintf(fmt, ap);
	va_end(ap);
	return l->n++;
}

struct bench_fault *bench_faults_last(struct bench_faults *l,
				      enum bench_fault_kind kind)
{
	for (size_t i = l->n; i-- > 0;)
		if (l->v[i].kind == kind)
			return &l->v[i];
	return NULL;
}

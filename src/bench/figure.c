/*
 * figure.c - measured figures and their list; see figure.h.
 */
#include "figure.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

void bench_figures_init(struct bench_figures *l)
{
	memset(l, 0, sizeof(*l));
}

void bench_figures_free(struct bench_figures *l)
{
	for (size_t i = 0; i < l->n; i++)
		measure_result_free(&l->v[i].time);
	free(l->v);
	for (size_t i = 0; i < l->n_notes; i++)
		free(l->notes[i]);
	free(l->notes);
	memset(l, 0, sizeof(*l));
}

void bench_figures_note(struct bench_figures *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = xvasprintf(fmt, ap);
	va_end(ap);
	xgrow((void **)&l->notes, &l->cap_notes, l->n_notes + 1,
	      sizeof(l->notes[0]));
	l->notes[l->n_notes++] = text;
}

struct bench_figure *bench_figures_push(struct bench_figures *l,
					const struct bench_figure *f)
{
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(l->v[0]));
	l->v[l->n] = *f;
	return &l->v[l->n++];
}

double bench_figure_rule_work(const struct bench_figure *f)
{
	const char *k = f->kernel;
	if (!strcmp(f->suite, "gemm"))
		return 2.0 * (double)f->m * (double)f->n * (double)f->k;
	if (!strcmp(f->suite, "membw")) {
		int arrays = !strcmp(k, "add") || !strcmp(k, "triad") ? 3 : 2;
		return arrays * 8.0 * f->elements;
	}
	if (!strcmp(f->suite, "transfer") || !strcmp(f->suite, "p2p"))
		return (!strcmp(k, "p2p-bidir") ? 2.0 : 1.0) * f->bytes;
	if (!strcmp(f->suite, "allreduce"))	/* nccl-tests' bus bandwidth */
		return f->gpus >= 2 ? f->bytes * 2.0 * (f->gpus - 1) / f->gpus : -1;
	if (!strcmp(f->suite, "launch"))
		return 1;
	return -1;
}

static double rate(double work, double seconds)
{
	return seconds > 0 ? work / seconds : 0;
}

void bench_figure_rate(struct bench_figure *f)
{
	f->value = rate(f->work, f->time.median);
	f->low = rate(f->work, f->time.ci_high);
	f->high = rate(f->work, f->time.ci_low);
}

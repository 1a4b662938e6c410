/*
 * figure.c - measured figures and their list; see figure.h.
 */
#include "profile/figure.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

const char *const bench_suite_names[] = {
	"gemm", "membw", "transfer", "p2p", "allreduce", "launch", "model",
	"train-gemm", "overlap", "spread", "layer", NULL,
};

bool bench_suite_sustained(const char *suite)
{
	return !strcmp(suite, "train-gemm") || !strcmp(suite, "overlap") ||
	       !strcmp(suite, "spread") || !strcmp(suite, "layer");
}

bool bench_suite_needs_model(const char *suite)
{
	return !strcmp(suite, "model") || bench_suite_sustained(suite);
}

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
	bench_faults_free(&l->faults);
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
	if (!strcmp(f->suite, "gemm") || !strcmp(f->suite, "train-gemm") ||
	    !strcmp(f->suite, "overlap") || !strcmp(f->suite, "spread"))
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

void bench_figure_label(const struct bench_figure *f, char *buf, size_t len)
{
	size_t s = strlen(f->suite);
	bool named = s > 0 && !strncmp(f->name, f->suite, s) &&
		     (f->name[s] == ' ' || f->name[s] == '-' || f->name[s] == '\0');
	snprintf(buf, len, "%s%s%s", named ? "" : f->suite, named ? "" : " ",
		 f->name);
}

void bench_figures_timer_fault(struct bench_figures *l,
			       const struct bench_figure *f, bool kept)
{
	const struct measure_result *t = &f->time;
	if (t->rejected == 0)
		return;
	char kinds[MEASURE_REJECTED_NAMES_MAX];
	measure_rejected_names(t->rejected_kinds, kinds, sizeof(kinds));
	size_t i;
	if (!kept) {
		i = bench_faults_add(&l->faults, BENCH_FAULT_BAD_TIMER, f->suite,
				     f->name, "%zu timer reading%s discarded (%s) "
				     "and none was good: no figure",
				     t->rejected, t->rejected == 1 ? "" : "s",
				     kinds);
		bench_names_add(&l->faults.v[i].missing, f->name);
		return;
	}
	i = bench_faults_add(&l->faults, BENCH_FAULT_BAD_TIMER, f->suite, f->name,
			     "%zu timer reading%s discarded (%s); the figure "
			     "stands on %zu good repetition%s%s",
			     t->rejected, t->rejected == 1 ? "" : "s", kinds,
			     t->n, t->n == 1 ? "" : "s",
			     t->too_few ? ", fewer than the policy's minimum: "
					  "marked too_few, not converged" : "");
	bench_names_add(&l->faults.v[i].marked, f->name);
}

void bench_fault_skip(struct bench_fault *f, const char *name)
{
	if (f->missing.n == 1) {
		char *what = xasprintf("%s; the larger sizes were not tried",
				       f->what);
		free(f->what);
		f->what = what;
	}
	bench_names_add(&f->missing, name);
}

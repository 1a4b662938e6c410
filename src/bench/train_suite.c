/*
 * train_suite.c - the training suites' shared parts; see train_suite.h.
 */
#include "bench/train_suite.h"

#include <stdio.h>
#include <string.h>

int train_suite_shapes(const struct bench_run_options *o,
		       struct train_shapes *s, struct bench_figures *out,
		       char *why, size_t len)
{
	if (train_shapes_of(o->model, o->micro_batch, o->tp, s, why, len) < 0)
		return -1;
	double share = s->total > 0 ? s->covered / s->total : 0;
	char rest[96] = "";
	if (s->left)
		snprintf(rest, sizeof(rest), "; %zu smaller one%s (%.1f%%) not timed",
			 s->left, s->left == 1 ? "" : "s", 100 * (1 - share));
	char note[400], tokens[48] = "";
	if (train_suite_seq(o) > 0)
		snprintf(tokens, sizeof(tokens), " x %ld tokens", train_suite_seq(o));
	snprintf(note, sizeof(note),
		 "%s at micro-batch %ld%s, tp %ld: %zu distinct GEMM shape%s carry %.1f%% of its linear and convolution FLOPs%s",
		 o->model_name, o->micro_batch, tokens, o->tp, s->n,
		 s->n == 1 ? "" : "s", 100 * share, rest);
	/* said once, though each training suite cuts the products again */
	for (size_t i = 0; i < out->n_notes; i++)
		if (!strcmp(out->notes[i], note))
			return 0;
	bench_figures_note(out, "%s", note);
	return 0;
}

long train_suite_seq(const struct bench_run_options *o)
{
	return o->model ? o->model->seq : 0;
}

void train_suite_figure(struct bench_figure *f, const char *suite,
			const char *prec, const struct train_product *p,
			enum train_role r, const char *suffix,
			const struct bench_run_options *o, struct train_gemm *g)
{
	memset(f, 0, sizeof(*f));
	train_gemm_of(p, r, !strcmp(prec, "fp8"), g);
	snprintf(f->suite, sizeof(f->suite), "%s", suite);
	snprintf(f->kernel, sizeof(f->kernel), "%s", suffix[0] ? "gemm" : train_role_name(r));
	snprintf(f->precision, sizeof(f->precision), "%s", prec);
	if (suffix[0])
		snprintf(f->name, sizeof(f->name), "%s m=%ld n=%ld k=%ld %s", prec,
			 g->m, g->n, g->k, suffix);
	else
		snprintf(f->name, sizeof(f->name), "%s %s m=%ld n=%ld k=%ld", prec,
			 train_role_name(r), g->m, g->n, g->k);
	f->m = g->m;
	f->n = g->n;
	f->k = g->k;
	f->batch = o->micro_batch;
	f->seq = train_suite_seq(o);
	if (!strcmp(suite, "train-gemm"))
		f->occurrences = p->occurrences;
	f->threads = 1;
	f->unit = "FLOP/s";
}

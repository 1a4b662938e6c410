/*
 * verdicts.c - bench's reference-baseline verdicts; see verdicts.h.
 */
#include "bench/verdicts.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/device_match.h"
#include "core/paths.h"
#include "core/precision.h"

static int report(struct gp_errors *errs, int rc)
{
	gp_errors_print(errs, stderr);
	gp_errors_free(errs);
	return rc;
}

int bench_verdicts_load(struct bench_verdicts *v, const char *file)
{
	struct gp_errors errs;
	memset(v, 0, sizeof(*v));
	catalog_init(&v->catalog);
	gp_errors_init(&errs);
	char *dir = data_dir_find();
	int rc = dir ? catalog_load_shipped(&v->catalog, dir, &errs) : -1;
	if (rc == 0)
		rc = file ? baselines_load(&v->baselines, file, file, &errs)
			  : baselines_load_shipped(&v->baselines, dir, &errs);
	if (rc == 0 && baselines_check(&v->baselines, &v->catalog, &errs))
		rc = -1;
	free(dir);
	if (rc == 0) {
		v->loaded = true;
		gp_errors_free(&errs);
		return 0;
	}
	if (file)
		return report(&errs, 2);
	gp_errors_free(&errs);
	fprintf(stderr, "gpuplan bench: note: the shipped baselines could not be read "
		"(set GPUPLAN_DATA_DIR to the folder that holds catalogs/): no verdicts\n");
	return 0;
}

void bench_verdicts_free(struct bench_verdicts *v)
{
	baselines_free(&v->baselines);
	catalog_free(&v->catalog);
	v->loaded = false;
}

/* The best HBM figure: the largest footprint's best kernel. */
static double best_hbm(const struct bench_profile *p)
{
	double bytes = 0, best = 0;
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *g = &p->figures.v[i];
		if (strcmp(g->suite, "membw"))
			continue;
		if (g->bytes > bytes)
			bytes = g->bytes, best = 0;
		if (g->bytes == bytes && g->value > best)
			best = g->value;
	}
	return best;
}

/* The best figure of suite/kernel (kernel NULL: any) at precision
 * (NULL: any). */
static double best_of(const struct bench_profile *p, const char *suite,
		      const char *kernel, const char *precision)
{
	double best = 0;
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *g = &p->figures.v[i];
		if (!strcmp(g->suite, suite) && (!kernel || !strcmp(g->kernel, kernel)) &&
		    (!precision || !strcmp(g->precision, precision)) && g->value > best)
			best = g->value;
	}
	return best;
}

/* The verdict line when a baseline covers the figure; else its words
 * added to `none` (said once, after the verdicts). */
static void say(const struct bench_verdicts *v, enum baseline_figure f,
		int precision, double measured, const char *acc, FILE *err,
		char *none, size_t len)
{
	if (measured <= 0)
		return;
	struct baseline_verdict d;
	baseline_verdict(&v->baselines, &v->catalog, f, precision, measured, acc, &d);
	if (d.kind != VERDICT_NONE) {
		fprintf(err, "gpuplan bench: baseline: %s\n", d.text);
		return;
	}
	char words[64];
	baseline_figure_words(f, precision, words, sizeof(words));
	size_t at = strlen(none);
	snprintf(none + at, len - at, "%s%s", at ? ", " : "", words);
}

void bench_verdicts_say(const struct bench_verdicts *v,
			const struct bench_profile *p, FILE *err)
{
	if (!strcmp(p->device.kind, "cpu")) {
		fprintf(err, "gpuplan bench: baseline: none for a CPU: the reference baselines are per GPU accelerator\n");
		return;
	}
	if (!v->loaded)
		return;
	char names[400];
	int n;
	const struct accelerator *a = catalog_match_device(&v->catalog, p->device.name,
							   names, sizeof(names), &n);
	if (!a) {
		if (n > 1)
			fprintf(err, "gpuplan bench: baseline: '%s' could be any of %s: no verdicts\n",
				p->device.name, names);
		else
			fprintf(err, "gpuplan bench: baseline: '%s' is not a catalog accelerator: no verdicts\n",
				p->device.name);
		return;
	}
	char none[600] = "";
	say(v, BASE_HBM, -1, best_hbm(p), a->name, err, none, sizeof(none));
	for (int prec = 0; prec < PREC_COUNT; prec++)
		say(v, BASE_GEMM, prec, best_of(p, "gemm", NULL, precision_name(prec)),
		    a->name, err, none, sizeof(none));
	say(v, BASE_H2D, -1, best_of(p, "transfer", "h2d-pinned", NULL), a->name,
	    err, none, sizeof(none));
	if (none[0])
		fprintf(err, "gpuplan bench: baseline: none published for %s on %s (%s)\n",
			none, a->name, v->baselines.file);
}

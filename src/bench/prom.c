/*
 * prom.c - Prometheus text output of a measured profile; see prom.h.
 */
#include "bench/prom.h"

#include <string.h>

#include "core/prom_text.h"

/* At most: device, gpu, suite, kernel, precision, m, n, k, bytes,
 * batch, from_gpu, to_gpu, gpus, threads. */
#define MAX_LABELS 14

struct label_set {
	struct prom_label v[MAX_LABELS];
	char num[MAX_LABELS][32];
	size_t n;
};

static void add(struct label_set *l, const char *name, const char *v)
{
	l->v[l->n].name = name;
	l->v[l->n].value = v;
	l->n++;
}

static void add_num(struct label_set *l, const char *name, double v)
{
	add(l, name, prom_number(v, l->num[l->n], sizeof(l->num[0])));
}

static void sample(FILE *f, const char *family, const struct bench_profile *p,
		   const struct bench_figure *g, double v)
{
	struct label_set l = {.n = 0};

	add(&l, "device", p->device.kind);
	/* `gpu`, the device index: the label dcgm-exporter and gpuplan
	 * diagnose give the same GPU, so a dashboard can join them; a spread
	 * figure's is the GPU it ran on */
	if (strcmp(p->device.kind, "cpu") != 0)
		add_num(&l, "gpu", !strcmp(g->suite, "spread") ? g->gpu
							       : p->device.index);
	add(&l, "suite", g->suite);
	add(&l, "kernel", g->kernel);
	add(&l, "precision", g->precision);
	if (g->m || g->n || g->k) {
		add_num(&l, "m", (double)g->m);
		add_num(&l, "n", (double)g->n);
		add_num(&l, "k", (double)g->k);
	}
	if (g->bytes > 0)
		add_num(&l, "bytes", g->bytes);
	if (g->batch > 0)
		add_num(&l, "batch", (double)g->batch);
	if (!strncmp(g->kernel, "p2p", 3)) {
		add_num(&l, "from_gpu", g->from_gpu);
		add_num(&l, "to_gpu", g->to_gpu);
	}
	if (g->gpus > 0)
		add_num(&l, "gpus", g->gpus);
	add_num(&l, "threads", g->threads);
	prom_sample(f, family, l.v, l.n, v);
}

static void family(FILE *f, const struct bench_profile *p, const char *unit,
		   const char *base, const char *what, int which)
{
	/* The unit ends the name (Prometheus' convention, and OpenMetrics'
	 * rule for a family with a unit), so the interval's ends say which
	 * end before it. */
	static const char *const which_part[] = {"", "ci95_low_", "ci95_high_"};
	static const char *const bound[] = {
		"median rate", "low end of the 95% interval of the rate",
		"high end of the 95% interval of the rate"};
	bool any = false;
	for (size_t i = 0; i < p->figures.n; i++)
		any |= strcmp(p->figures.v[i].unit, unit) == 0;
	if (!any)
		return;
	char name[96], help[160];
	snprintf(name, sizeof(name), "gpuplan_bench_%s%s", which_part[which], base);
	snprintf(help, sizeof(help), "gpuplan bench: %s, %s", bound[which], what);
	prom_family(f, name, "gauge", help);
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *g = &p->figures.v[i];
		if (strcmp(g->unit, unit) == 0)
			sample(f, name, p, g,
			       which == 0 ? g->value : which == 1 ? g->low : g->high);
	}
}

void bench_prom_emit(const struct bench_profile *p, FILE *f)
{
	for (int which = 0; which < 3; which++) {
		family(f, p, "B/s", "bytes_per_second",
		       "bytes per second", which);
		family(f, p, "FLOP/s", "flops_per_second",
		       "floating-point operations per second", which);
		family(f, p, "OP/s", "ops_per_second",
		       "integer operations per second", which);
		family(f, p, "launch/s", "launches_per_second",
		       "kernel launches per second", which);
	}
}

int bench_prom_write(const struct bench_profile *p, const char *path,
		     char *why, size_t len)
{
	return bench_profile_write_with(bench_prom_emit, p, path, why, len);
}

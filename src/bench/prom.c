/*
 * prom.c - Prometheus text output of a measured profile; see prom.h.
 */
#include "bench/prom.h"

#include <string.h>

/* A label value: \, " and newline escaped, as the format asks. */
static void label(FILE *f, const char *sep, const char *name, const char *v)
{
	fprintf(f, "%s%s=\"", sep, name);
	for (const char *c = v; *c; c++) {
		if (*c == '\\' || *c == '"')
			fprintf(f, "\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", f);
		else
			fputc(*c, f);
	}
	fputc('"', f);
}

static void label_num(FILE *f, const char *name, double v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%.17g", v);
	label(f, ",", name, buf);
}

static void sample(FILE *f, const char *family, const struct bench_profile *p,
		   const struct bench_figure *g, double v)
{
	fprintf(f, "%s", family);
	label(f, "{", "device", p->device.kind);
	if (strcmp(p->device.kind, "cpu") != 0)
		label_num(f, "index", p->device.index);
	label(f, ",", "suite", g->suite);
	label(f, ",", "kernel", g->kernel);
	if (g->precision[0])
		label(f, ",", "precision", g->precision);
	if (g->m || g->n || g->k) {
		label_num(f, "m", (double)g->m);
		label_num(f, "n", (double)g->n);
		label_num(f, "k", (double)g->k);
	}
	if (g->bytes > 0)
		label_num(f, "bytes", g->bytes);
	if (g->batch > 0)
		label_num(f, "batch", (double)g->batch);
	if (!strncmp(g->kernel, "p2p", 3)) {
		label_num(f, "from_gpu", g->from_gpu);
		label_num(f, "to_gpu", g->to_gpu);
	}
	if (g->gpus > 0)
		label_num(f, "gpus", g->gpus);
	label_num(f, "threads", g->threads);
	fprintf(f, "} %.17g\n", v);
}

static void family(FILE *f, const struct bench_profile *p, const char *unit,
		   const char *base, const char *what, int which)
{
	static const char *const suffix[] = {"", "_low", "_high"};
	static const char *const bound[] = {
		"median rate", "low end of the 95% interval of the rate",
		"high end of the 95% interval of the rate"};
	bool any = false;
	for (size_t i = 0; i < p->figures.n; i++)
		any |= strcmp(p->figures.v[i].unit, unit) == 0;
	if (!any)
		return;
	fprintf(f, "# HELP %s%s gpuplan bench: %s, %s\n", base, suffix[which],
		bound[which], what);
	fprintf(f, "# TYPE %s%s gauge\n", base, suffix[which]);
	char name[96];
	snprintf(name, sizeof(name), "%s%s", base, suffix[which]);
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
		family(f, p, "B/s", "gpuplan_bench_bytes_per_second",
		       "bytes per second", which);
		family(f, p, "FLOP/s", "gpuplan_bench_flops_per_second",
		       "floating-point operations per second", which);
		family(f, p, "OP/s", "gpuplan_bench_ops_per_second",
		       "integer operations per second", which);
		family(f, p, "launch/s", "gpuplan_bench_launches_per_second",
		       "kernel launches per second", which);
	}
}

int bench_prom_write(const struct bench_profile *p, const char *path,
		     char *why, size_t len)
{
	return bench_profile_write_with(bench_prom_emit, p, path, why, len);
}

/*
 * profile_write.c - writing the measured profile; see profile.h.  The
 * sections with parts of their own are written by profile_gpu.c and
 * profile_fault.c; the loader is profile_load.c.
 */
#include "profile/profile.h"
#include "profile/profile_emit.h"
#include "profile/profile_fault.h"
#include "profile/profile_gpu.h"

#include <stdlib.h>
#include <string.h>

#include "core/num_format.h"
#include "core/atomic_file.h"
#include "core/term_safe.h"
#include "core/yaml_emit.h"

static void emit_host(const struct bench_profile *p, FILE *f)
{
	const struct cpu_info *c = &p->device.cpu;
	fprintf(f, "host:\n");
	profile_emit_name(f, "  ", "hostname", p->hostname,
			  sizeof(p->hostname));
	profile_emit_name(f, "  ", "kernel", p->kernel,
			  sizeof(p->kernel));
	if (c->valid & CPU_INFO_HAS_MODEL)
		profile_emit_name(f, "  ", "cpu_model", c->model,
			  sizeof(c->model));
	if (c->valid & CPU_INFO_HAS_LOGICAL_CPUS)
		fprintf(f, "  logical_cpus: %ld\n", c->logical_cpus);
	if (c->valid & CPU_INFO_HAS_CORES)
		fprintf(f, "  physical_cores: %ld\n", c->physical_cores);
	const struct { uint32_t bit; const char *key; uint64_t v; } sizes[] = {
		{CPU_INFO_HAS_MEMORY, "memory_bytes", c->memory_bytes},
		{CPU_INFO_HAS_L1D, "l1d_bytes", c->l1d_bytes},
		{CPU_INFO_HAS_L2, "l2_bytes", c->l2_bytes},
		{CPU_INFO_HAS_L3, "l3_bytes", c->l3_bytes},
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (c->valid & sizes[i].bit)
			fprintf(f, "  %s: %llu\n", sizes[i].key,
				(unsigned long long)sizes[i].v);
	if ((c->valid & CPU_INFO_HAS_L3) && c->l3_instances > 0)
		fprintf(f, "  l3_instances: %u\n", c->l3_instances);
}

static void emit_policy(const struct measure_policy *m, const char *indent,
			FILE *f)
{
	fprintf(f, "%spolicy:\n%s  warmup: %d\n%s  min_reps: %d\n"
		   "%s  max_reps: %d\n%s  rel_half_width: %s\n"
		   "%s  time_cap_s: %s\n",
		indent, indent, m->warmup, indent, m->min_reps, indent,
		m->max_reps, indent, NUM_SHORTEST(m->rel_half_width), indent, NUM_SHORTEST(m->time_cap_s));
}

static void emit_options(const struct bench_profile *p, FILE *f)
{
	fprintf(f, "options:\n  suites: [");
	for (size_t i = 0; i < p->n_suites; i++)
		fprintf(f, "%s%s", i ? ", " : "", p->suites[i]);
	fprintf(f, "]\n  quick: %s\n  threads: %d\n", p->quick ? "true" : "false",
		p->threads);
	emit_policy(&p->policy, "  ", f);
	if (p->model_name[0]) {
		fprintf(f, "  model:\n");
		profile_emit_name(f, "    ", "name", p->model_name,
			  sizeof(p->model_name));
		fprintf(f, "    seq: %ld\n", p->model_seq);
		emit_policy(&p->model_policy, "    ", f);
		fprintf(f, "    step_cap_s: %s\n    max_batch: %ld\n",
			NUM_SHORTEST(p->model_step_cap_s), p->model_max_batch);
		if (p->sustain_s > 0)
			fprintf(f, "    micro_batch: %ld\n    tp: %ld\n    sustain_s: %s\n",
				p->train_micro_batch, p->train_tp,
				NUM_SHORTEST(p->sustain_s));
	}
}

static void emit_parameters(const struct bench_figure *g, FILE *f)
{
	fprintf(f, "    parameters:\n");
	if (g->precision[0])
		fprintf(f, "      precision: %s\n", g->precision);
	if (g->m || g->n || g->k)
		fprintf(f, "      m: %ld\n      n: %ld\n      k: %ld\n", g->m,
			g->n, g->k);
	if (g->bytes > 0)
		fprintf(f, "      bytes: %s\n", NUM_SHORTEST(g->bytes));
	if (g->elements > 0)
		fprintf(f, "      elements: %s\n", NUM_SHORTEST(g->elements));
	if (g->batch > 0)
		fprintf(f, "      batch: %ld\n      seq: %ld\n      memory_bytes: %s\n",
			g->batch, g->seq, NUM_SHORTEST(g->memory_bytes));
	if (!strncmp(g->kernel, "p2p", 3))
		fprintf(f, "      from_gpu: %d\n      to_gpu: %d\n", g->from_gpu,
			g->to_gpu);
	if (g->gpus > 0)
		fprintf(f, "      gpus: %d\n", g->gpus);
	if (!strcmp(g->suite, "spread"))
		fprintf(f, "      gpu: %d\n", g->gpu);
	if (g->occurrences > 0)
		fprintf(f, "      occurrences: %ld\n", g->occurrences);
	fprintf(f, "      threads: %d\n      iterations: %ld\n", g->threads,
		g->iterations);
}

static void emit_time(const struct measure_result *t, FILE *f)
{
	fprintf(f, "    time:\n      median_s: %s\n      ci_low_s: %s\n"
		   "      ci_high_s: %s\n      n: %zu\n      converged: %s\n"
		   "      has_ci: %s\n      elapsed_s: %s\n",
		NUM_SHORTEST(t->median), NUM_SHORTEST(t->ci_low), NUM_SHORTEST(t->ci_high), t->n,
		t->converged ? "true" : "false", t->has_ci ? "true" : "false",
		NUM_SHORTEST(t->elapsed_s));
	/* marks (fault.h): written only when there is one to carry */
	if (t->rejected)
		fprintf(f, "      rejected: %zu\n", t->rejected);
	if (t->too_few)
		fprintf(f, "      too_few: true\n");
	fprintf(f, "      samples_s: [");
	for (size_t i = 0; i < t->n; i++)
		fprintf(f, "%s%s", i == 0 ? "" : i % 4 ? ", " : ",\n        ",
			NUM_SHORTEST(t->samples[i]));
	fprintf(f, "]\n");
}

/* The steady part's samples (profile.h: clocks), when it had any. */
static void emit_clocks(const struct gpu_window *w, FILE *f)
{
	if (!w->samples)
		return;
	fprintf(f, "    clocks:\n      samples: %zu\n", w->samples);
	if (w->has_sm_clock)
		fprintf(f, "      sm_clock_median_hz: %s\n",
			NUM_SHORTEST(w->sm_clock_median_hz));
	if (w->has_power)
		fprintf(f, "      power_median_w: %s\n", NUM_SHORTEST(w->power_median_w));
	if (w->has_temperature)
		fprintf(f, "      temperature_max_c: %s\n",
			NUM_SHORTEST(w->temperature_max_c));
	fputs("      throttle: ", f);
	profile_emit_reasons(f, w->throttle);
	fputc('\n', f);
}

static void emit_figure(const struct bench_figure *g, FILE *f)
{
	fprintf(f, "  - suite: %s\n", g->suite);
	profile_emit_name(f, "    ", "name", g->name,
			  sizeof(g->name));
	fprintf(f, "    kernel: %s\n", g->kernel);
	emit_parameters(g, f);
	fprintf(f, "    work: %s\n    unit: %s\n    value: %s\n"
		   "    low: %s\n    high: %s\n",
		NUM_SHORTEST(g->work), g->unit, NUM_SHORTEST(g->value), NUM_SHORTEST(g->low), NUM_SHORTEST(g->high));
	if (g->throttled)
		fprintf(f, "    throttled: true\n");
	if (g->disturbed[0])
		profile_emit_string(f, "    ", "disturbed", g->disturbed);
	emit_clocks(&g->clocks, f);
	emit_time(&g->time, f);
}

void bench_profile_emit(const struct bench_profile *p, FILE *f)
{
	fprintf(f, "schema: %s\n", BENCH_PROFILE_SCHEMA);
	fprintf(f, "tool:\n  name: gpuplan\n");
	profile_emit_name(f, "  ", "version", p->tool_version,
			  sizeof(p->tool_version));
	profile_emit_name(f, "", "when", p->when,
			  sizeof(p->when));
	emit_host(p, f);
	fprintf(f, "device:\n  kind: %s\n", p->device.kind);
	profile_emit_name(f, "  ", "name", p->device.name,
			  sizeof(p->device.name));
	if (strcmp(p->device.kind, "cpu") != 0) {
		fprintf(f, "  index: %d\n", p->device.index);
		profile_emit_gpu(&p->device, f);
	}
	emit_options(p, f);
	fprintf(f, "notes:%s\n", p->figures.n_notes ? "" : " []");
	for (size_t i = 0; i < p->figures.n_notes; i++) {
		fprintf(f, "  - ");
		yaml_emit_text(f, p->figures.notes[i]);
		fputc('\n', f);
	}
	profile_emit_faults(&p->figures.faults, f);
	if (strcmp(p->device.kind, "cuda") == 0)
		profile_emit_sampling(p, f);
	fprintf(f, "figures:%s\n", p->figures.n ? "" : " []");
	for (size_t i = 0; i < p->figures.n; i++)
		emit_figure(&p->figures.v[i], f);
}

char *bench_profile_render(void (*emit)(const struct bench_profile *, FILE *),
			   const struct bench_profile *p, size_t *size)
{
	char *buf = NULL;
	*size = 0;
	FILE *f = open_memstream(&buf, size);
	if (!f)
		return NULL;
	emit(p, f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int bench_profile_write_with(void (*emit)(const struct bench_profile *, FILE *),
			     const struct bench_profile *p, const char *path,
			     char *why, size_t len)
{
	size_t size;
	char *buf = bench_profile_render(emit, p, &size);
	if (!buf) {
		snprintf(why, len, "out of memory");
		return ATOMIC_FAILED;
	}
	int rc = atomic_write(path, buf, size, why, len);
	free(buf);
	return rc;
}

int bench_profile_write(const struct bench_profile *p, const char *path,
			char *why, size_t len)
{
	return bench_profile_write_with(bench_profile_emit, p, path, why, len);
}

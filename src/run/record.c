/*
 * record.c - the run record in memory and its writer; see record.h.  The
 * loader is record_load.c.
 */
#include "run/record.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/num_format.h"
#include "core/xalloc.h"
#include "core/yaml_emit.h"

void run_record_init(struct run_record *r)
{
	memset(r, 0, sizeof(*r));
	gpu_samples_init(&r->samples);
	r->samples_every = 1;
}

void run_record_thin_samples(struct run_record *r)
{
	struct gpu_samples *s = &r->samples;
	if (s->n <= RUN_MAX_SAMPLES)
		return;
	size_t k = (s->n + RUN_MAX_SAMPLES - 1) / RUN_MAX_SAMPLES, kept = 0;
	for (size_t i = 0; i < s->n; i += k)
		s->v[kept++] = s->v[i];
	s->n = kept;
	r->samples_every = k;
}

void run_record_free(struct run_record *r)
{
	for (size_t i = 0; i < r->argc; i++)
		free(r->argv[i]);
	free(r->argv);
	for (size_t i = 0; i < r->n_metrics; i++)
		metric_free(&r->metrics[i]);
	free(r->metrics);
	for (size_t i = 0; i < r->n_runs; i++) {
		free(r->runs[i].value);
		free(r->runs[i].present);
		free(r->runs[i].stderr_tail);
	}
	free(r->runs);
	gpu_samples_free(&r->samples);
	run_record_init(r);
}

bool run_failed(const struct run_one *u)
{
	return u->not_started || u->signaled || u->exit_code != 0;
}

bool run_counts(const struct run_one *u)
{
	return !u->warmup && !run_failed(u);
}

struct run_one *run_record_add(struct run_record *r)
{
	r->runs = xrealloc(r->runs, (r->n_runs + 1) * sizeof(*r->runs));
	struct run_one *u = &r->runs[r->n_runs++];
	memset(u, 0, sizeof(*u));
	u->value = xcalloc(r->n_metrics + 1, sizeof(*u->value));
	u->present = xcalloc(r->n_metrics + 1, sizeof(*u->present));
	return u;
}

/* One reading into the running sums, when its bit is valid. */
static void summarise_one(const struct gpu_sample *x, struct run_gpu *g,
			  double *util, double *clock, double *power,
			  size_t *n_util, size_t *n_clock, size_t *n_power)
{
	uint32_t v = x->valid;
	if (v & GPU_SAMPLE_UTILIZATION)
		*util += x->util_gpu_pct, (*n_util)++;
	if ((v & GPU_SAMPLE_MEMORY) && x->mem_used_bytes > g->mem_peak_bytes)
		g->mem_peak_bytes = x->mem_used_bytes;
	if (v & GPU_SAMPLE_SM_CLOCK) {
		if (!*n_clock || x->sm_clock_hz < g->sm_clock_min_hz)
			g->sm_clock_min_hz = x->sm_clock_hz;
		*clock += x->sm_clock_hz, (*n_clock)++;
	}
	if ((v & GPU_SAMPLE_TEMPERATURE) &&
	    (!(g->valid & GPU_SAMPLE_TEMPERATURE) ||
	     x->temperature_c > g->temperature_max_c))
		g->temperature_max_c = x->temperature_c;
	if (v & GPU_SAMPLE_POWER)
		*power += x->power_w, (*n_power)++;
	if (v & GPU_SAMPLE_THROTTLE)
		g->throttle_seen |= x->throttle;
	g->valid |= v & (GPU_SAMPLE_UTILIZATION | GPU_SAMPLE_MEMORY |
			 GPU_SAMPLE_SM_CLOCK | GPU_SAMPLE_TEMPERATURE |
			 GPU_SAMPLE_POWER | GPU_SAMPLE_THROTTLE);
}

void run_gpu_summarise(const struct gpu_samples *s, const char *during,
		       struct run_gpu *g)
{
	memset(g, 0, sizeof(*g));
	double util = 0, clock = 0, power = 0;
	size_t nu = 0, nc = 0, np = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->v[i].during, during) != 0)
			continue;
		g->samples++;
		summarise_one(&s->v[i], g, &util, &clock, &power, &nu, &nc, &np);
	}
	g->util_mean_pct = nu ? util / (double)nu : 0;
	g->sm_clock_mean_hz = nc ? clock / (double)nc : 0;
	g->power_mean_w = np ? power / (double)np : 0;
}

/* ---- writing ---- */

static void emit_key_text(FILE *f, const char *indent, const char *key,
			  const char *value, size_t size)
{
	fprintf(f, "%s%s: ", indent, key);
	if (size)
		yaml_emit_name(f, value, size);
	else
		yaml_emit_text(f, value);
	fputc('\n', f);
}

static void emit_throttle(FILE *f, const char *indent, uint64_t reasons)
{
	char names[512];
	gpu_throttle_names(reasons, names, sizeof(names));
	fprintf(f, "%sthrottle: \"%s\"\n", indent, names);
}

static void emit_head(const struct run_record *r, FILE *f)
{
	fprintf(f, "schema: %s\n", RUN_RECORD_SCHEMA);
	emit_key_text(f, "", "tool_version", r->tool_version, sizeof(r->tool_version));
	emit_key_text(f, "", "when", r->when, sizeof(r->when));
	fprintf(f, "command:\n");
	for (size_t i = 0; i < r->argc; i++) {
		fprintf(f, "  - ");
		yaml_emit_text(f, r->argv[i]);
		fputc('\n', f);
	}
	fprintf(f, "host:\n");
	emit_key_text(f, "  ", "hostname", r->hostname, sizeof(r->hostname));
	emit_key_text(f, "  ", "kernel", r->kernel, sizeof(r->kernel));
	if (r->cpu[0])
		emit_key_text(f, "  ", "cpu", r->cpu, sizeof(r->cpu));
	if (r->logical_cpus > 0)
		fprintf(f, "  logical_cpus: %ld\n", r->logical_cpus);
	fprintf(f, "gpu:\n");
	if (!r->gpu) {
		emit_key_text(f, "  ", "absent", r->gpu_absent, sizeof(r->gpu_absent));
		return;
	}
	fprintf(f, "  index: %u\n", r->gpu_index);
	if (r->gpu_name[0])
		emit_key_text(f, "  ", "name", r->gpu_name, sizeof(r->gpu_name));
	if (r->gpu_uuid[0])
		emit_key_text(f, "  ", "uuid", r->gpu_uuid, sizeof(r->gpu_uuid));
	fprintf(f, "  interval_s: %s\n", NUM_SHORTEST(r->samples.interval_s));
	if (r->samples_every > 1)
		fprintf(f, "  samples_every: %lu\n", r->samples_every);
}

static void emit_metrics(const struct run_record *r, FILE *f)
{
	fprintf(f, "metrics:%s\n", r->n_metrics ? "" : " []");
	for (size_t i = 0; i < r->n_metrics; i++) {
		const struct metric *m = &r->metrics[i];
		fprintf(f, "  - name: ");
		yaml_emit_name(f, m->name, sizeof(m->name));
		fprintf(f, "\n    better: %s\n", better_name(m->better));
		if (metric_stream_name(m->stream))
			fprintf(f, "    stream: %s\n", metric_stream_name(m->stream));
		emit_key_text(f, "    ", "regex", m->regex, 0);
	}
}

static void emit_run_gpu(const struct run_gpu *g, FILE *f)
{
	fprintf(f, "    gpu:\n      samples: %zu\n", g->samples);
	if (g->valid & GPU_SAMPLE_UTILIZATION)
		fprintf(f, "      util_mean_pct: %s\n", NUM_SHORTEST(g->util_mean_pct));
	if (g->valid & GPU_SAMPLE_MEMORY)
		fprintf(f, "      mem_peak_bytes: %s\n", NUM_SHORTEST(g->mem_peak_bytes));
	if (g->valid & GPU_SAMPLE_SM_CLOCK)
		fprintf(f, "      sm_clock_mean_hz: %s\n      sm_clock_min_hz: %s\n",
			NUM_SHORTEST(g->sm_clock_mean_hz), NUM_SHORTEST(g->sm_clock_min_hz));
	if (g->valid & GPU_SAMPLE_TEMPERATURE)
		fprintf(f, "      temperature_max_c: %s\n", NUM_SHORTEST(g->temperature_max_c));
	if (g->valid & GPU_SAMPLE_POWER)
		fprintf(f, "      power_mean_w: %s\n", NUM_SHORTEST(g->power_mean_w));
	if (g->valid & GPU_SAMPLE_THROTTLE)
		emit_throttle(f, "      ", g->throttle_seen);
}

static void emit_run(const struct run_record *r, const struct run_one *u,
		     FILE *f)
{
	fprintf(f, "  - warmup: %s\n", u->warmup ? "true" : "false");
	if (u->not_started)
		fprintf(f, "    not_started: true\n");
	if (u->signaled)
		fprintf(f, "    signal: %d\n", u->signal);
	else
		fprintf(f, "    exit_code: %d\n", u->exit_code);
	fprintf(f, "    wall_time_s: %s\n", NUM_SHORTEST(u->wall_s));
	if (u->output_held)
		fprintf(f, "    output_held_open: true\n");
	size_t missing = 0;
	for (size_t i = 0; i < r->n_metrics; i++)
		missing += !u->present[i];
	if (r->n_metrics > missing) {
		fprintf(f, "    metrics:\n");
		for (size_t i = 0; i < r->n_metrics; i++)
			if (u->present[i]) {
				fprintf(f, "      ");
				yaml_emit_name(f, r->metrics[i].name, METRIC_NAME_MAX);
				fprintf(f, ": %s\n", NUM_SHORTEST(u->value[i]));
			}
	}
	if (missing) {
		fprintf(f, "    missing:\n");
		for (size_t i = 0; i < r->n_metrics; i++)
			if (!u->present[i]) {
				fprintf(f, "      - ");
				yaml_emit_name(f, r->metrics[i].name, METRIC_NAME_MAX);
				fputc('\n', f);
			}
	}
	if (u->stderr_tail)
		emit_key_text(f, "    ", "stderr_tail", u->stderr_tail, 0);
	if (u->gpu.samples)
		emit_run_gpu(&u->gpu, f);
}

static void emit_sample(const struct gpu_sample *s, FILE *f)
{
	fprintf(f, "  - t_s: %s\n", NUM_SHORTEST(s->t_s));
	if (s->during[0])
		emit_key_text(f, "    ", "during", s->during, sizeof(s->during));
	const struct { uint32_t bit; const char *key; double v; } v[] = {
		{GPU_SAMPLE_UTILIZATION, "util_gpu_pct", s->util_gpu_pct},
		{GPU_SAMPLE_UTILIZATION, "util_mem_pct", s->util_mem_pct},
		{GPU_SAMPLE_MEMORY, "mem_used_bytes", s->mem_used_bytes},
		{GPU_SAMPLE_MEMORY, "mem_total_bytes", s->mem_total_bytes},
		{GPU_SAMPLE_SM_CLOCK, "sm_clock_hz", s->sm_clock_hz},
		{GPU_SAMPLE_MEM_CLOCK, "mem_clock_hz", s->mem_clock_hz},
		{GPU_SAMPLE_TEMPERATURE, "temperature_c", s->temperature_c},
		{GPU_SAMPLE_POWER, "power_w", s->power_w},
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (s->valid & v[i].bit)
			fprintf(f, "    %s: %s\n", v[i].key, NUM_SHORTEST(v[i].v));
	if (s->valid & GPU_SAMPLE_PROCESSES)
		fprintf(f, "    processes: %u\n", s->processes);
	if (s->valid & GPU_SAMPLE_THROTTLE)
		emit_throttle(f, "    ", s->throttle);
}

void run_record_emit(const struct run_record *r, FILE *f)
{
	emit_head(r, f);
	emit_metrics(r, f);
	fprintf(f, "runs:%s\n", r->n_runs ? "" : " []");
	for (size_t i = 0; i < r->n_runs; i++)
		emit_run(r, &r->runs[i], f);
	if (!r->gpu)
		return;
	fprintf(f, "samples:%s\n", r->samples.n ? "" : " []");
	for (size_t i = 0; i < r->samples.n; i++)
		emit_sample(&r->samples.v[i], f);
}

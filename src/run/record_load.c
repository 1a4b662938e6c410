/*
 * record_load.c - the strict reader of run records; see record.h.  Every
 * problem is reported in one pass at the line:column of the value (or of
 * the mapping that lacks a key).
 */
#include "run/record.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "core/yaml_read.h"
#include "core/yaml_tree.h"

/* A name or text into buf of size bytes: 1, 0 absent, -1 wrong. */
static int text_into(struct yread *r, const struct ynode *map,
		     const char *key, bool name, char *buf, size_t size)
{
	char *s = NULL;
	int rc = name ? yr_name(r, map, key, &s) : yr_string(r, map, key, &s);
	if (rc == 1 && strlen(s) >= size) {
		yr_error(r, ymap_get(map, key), NULL,
			 "'%s' is longer than %zu bytes", key, size - 1);
		rc = -1;
	} else if (rc == 1)
		memcpy(buf, s, strlen(s) + 1);
	free(s);
	return rc;
}

/* A number >= 0 at key; 1, 0 absent, -1 wrong. */
static int nonneg(struct yread *r, const struct ynode *map, const char *key,
		  double *out)
{
	double v = 0;
	int rc = yr_node_real(r, ymap_get(map, key), key, &v);
	if (rc == 1 && v < 0) {
		yr_error(r, ymap_get(map, key), NULL,
			 "'%s' must be zero or more, found '%s'", key,
			 ymap_get(map, key)->text);
		return -1;
	}
	if (rc == 1)
		*out = v;
	return rc;
}

/* "sw_power_cap,hw_thermal" (gpu_throttle_names' form; "" for none). */
static int throttle(struct yread *r, const struct ynode *map, uint64_t *out)
{
	char names[512];
	int rc = text_into(r, map, "throttle", true, names, sizeof(names));
	if (rc != 1)
		return rc;
	*out = 0;
	for (char *save = NULL, *n = strtok_r(names, ",", &save); n;
	     n = strtok_r(NULL, ",", &save)) {
		char *end = NULL;
		uint64_t bit = !strncmp(n, "0x", 2) ? strtoull(n + 2, &end, 16)
						     : gpu_throttle_bit(n);
		if (!bit || (end && *end)) {
			yr_error(r, ymap_get(map, "throttle"), NULL,
				 "unknown throttle reason '%.40s'", n);
			return -1;
		}
		*out |= bit;
	}
	return 1;
}

/* ---- head ---- */

static void read_command(struct yread *r, const struct ynode *root,
			 struct run_record *rec)
{
	const struct ynode *c = ymap_get(root, "command");
	if (!c || !yr_expect_seq(r, c, "command"))
		return;
	if (c->n == 0) {
		yr_error(r, c, NULL, "'command' lists no program");
		return;
	}
	rec->argv = xcalloc(c->n + 1, sizeof(char *));
	for (size_t i = 0; i < c->n; i++)
		if (yr_node_string(r, c->items[i], "command", &rec->argv[rec->argc]) == 1)
			rec->argc++;
}

static void read_host(struct yread *r, const struct ynode *root,
		      struct run_record *rec)
{
	static const struct yfield fields[] = {{"hostname", true},
		{"kernel", true}, {"cpu", false}, {"logical_cpus", false},
		{NULL, false}};
	const struct ynode *h = ymap_get(root, "host");
	if (!h || !yr_expect_map(r, h, "host"))
		return;
	yr_check_keys(r, h, "host", fields);
	text_into(r, h, "hostname", true, rec->hostname, sizeof(rec->hostname));
	text_into(r, h, "kernel", true, rec->kernel, sizeof(rec->kernel));
	text_into(r, h, "cpu", true, rec->cpu, sizeof(rec->cpu));
	yr_int(r, h, "logical_cpus", 1, 1L << 24, &rec->logical_cpus);
}

static void read_gpu(struct yread *r, const struct ynode *root,
		     struct run_record *rec)
{
	static const struct yfield absent[] = {{"absent", true}, {NULL, false}};
	static const struct yfield present[] = {{"index", true},
		{"name", false}, {"uuid", false}, {"interval_s", true},
		{"samples_every", false}, {NULL, false}};
	const struct ynode *g = ymap_get(root, "gpu");
	if (!g || !yr_expect_map(r, g, "gpu"))
		return;
	if (ymap_get(g, "absent")) {
		yr_check_keys(r, g, "gpu (absent)", absent);
		text_into(r, g, "absent", false, rec->gpu_absent,
			  sizeof(rec->gpu_absent));
		return;
	}
	rec->gpu = true;
	yr_check_keys(r, g, "gpu", present);
	long index = 0;
	if (yr_int(r, g, "index", 0, 1023, &index) == 1)
		rec->gpu_index = (unsigned)index;
	text_into(r, g, "name", true, rec->gpu_name, sizeof(rec->gpu_name));
	text_into(r, g, "uuid", true, rec->gpu_uuid, sizeof(rec->gpu_uuid));
	nonneg(r, g, "interval_s", &rec->samples.interval_s);
	long every = 1;
	if (yr_int(r, g, "samples_every", 2, 1L << 30, &every) == 1)
		rec->samples_every = (unsigned long)every;
}

/* ---- metrics ---- */

/* A metric whose name reads is kept even when its other fields are
 * wrong (the load fails on them anyway), so that the runs naming it are
 * not also reported. */
static void read_metric(struct yread *r, const struct ynode *n,
			struct run_record *rec)
{
	static const struct yfield fields[] = {{"name", true}, {"better", true},
		{"stream", false}, {"regex", true}, {NULL, false}};
	if (!yr_expect_map(r, n, "a metric"))
		return;
	yr_check_keys(r, n, "metric", fields);
	struct metric m;
	memset(&m, 0, sizeof(m));
	char better[16] = "", stream[16] = "", *regex = NULL;
	bool named = text_into(r, n, "name", true, m.name, sizeof(m.name)) == 1;
	if (named && metric_name_reserved(m.name)) {
		yr_error(r, ymap_get(n, "name"), NULL,
			 "'%s' is recorded for every run already: a metric may not take its name",
			 m.name);
	}
	if (text_into(r, n, "better", true, better, sizeof(better)) == 1 &&
	    !better_from_name(better, &m.better))
		yr_error(r, ymap_get(n, "better"), NULL,
			 "'better' expects 'higher' or 'lower', found '%s'", better);
	if (text_into(r, n, "stream", true, stream, sizeof(stream)) == 1 &&
	    !metric_stream_from_name(stream, &m.stream))
		yr_error(r, ymap_get(n, "stream"), NULL,
			 "'stream' expects 'stdout' or 'stderr', found '%s'", stream);
	for (size_t i = 0; named && i < rec->n_metrics; i++)
		if (strcmp(rec->metrics[i].name, m.name) == 0) {
			yr_error(r, ymap_get(n, "name"), NULL,
				 "metric '%s' is listed twice", m.name);
			named = false;
		}
	char why[300];
	if (yr_string(r, n, "regex", &regex) == 1 && named &&
	    metric_compile(&m, regex, why, sizeof(why)) < 0)
		yr_error(r, ymap_get(n, "regex"), NULL, "%s", why);
	free(regex);
	if (named)
		rec->metrics[rec->n_metrics++] = m;
}

static void read_metrics(struct yread *r, const struct ynode *root,
			 struct run_record *rec)
{
	const struct ynode *ms = ymap_get(root, "metrics");
	if (!ms || !yr_expect_seq(r, ms, "metrics"))
		return;
	if (ms->n > RUN_MAX_METRICS) {
		yr_error(r, ms, NULL, "more than %d metrics", RUN_MAX_METRICS);
		return;
	}
	rec->metrics = xcalloc(ms->n + 1, sizeof(*rec->metrics));
	for (size_t i = 0; i < ms->n; i++)
		read_metric(r, ms->items[i], rec);
}

/* ---- runs ---- */

static long metric_index(const struct run_record *rec, const char *name)
{
	for (size_t i = 0; i < rec->n_metrics; i++)
		if (strcmp(rec->metrics[i].name, name) == 0)
			return (long)i;
	return -1;
}

static void read_values(struct yread *r, const struct ynode *run,
			const struct run_record *rec, struct run_one *u)
{
	const struct ynode *v = ymap_get(run, "metrics");
	for (size_t i = 0; v && yr_expect_map(r, v, "metrics") && i < v->n; i++) {
		const struct ynode *k = v->items[2 * i];
		long m = metric_index(rec, k->text);
		if (m < 0) {
			yr_error(r, k, NULL, "metric '%.60s' is not in 'metrics:'", k->text);
			continue;
		}
		if (yr_node_real(r, v->items[2 * i + 1], k->text, &u->value[m]) == 1)
			u->present[m] = true;
	}
	const struct ynode *miss = ymap_get(run, "missing");
	for (size_t i = 0; miss && yr_expect_seq(r, miss, "missing") && i < miss->n; i++) {
		const struct ynode *k = miss->items[i];
		long m = k->kind == YNODE_SCALAR ? metric_index(rec, k->text) : -1;
		if (m < 0)
			yr_error(r, k, NULL, "'missing' names a metric not in 'metrics:'");
		else if (u->present[m])
			yr_error(r, k, NULL, "metric '%s' is both measured and missing",
				 k->text);
	}
	/* every metric is either measured or listed missing */
	for (size_t m = 0; m < rec->n_metrics; m++) {
		bool listed = u->present[m];
		for (size_t i = 0; miss && miss->kind == YNODE_SEQ && i < miss->n; i++)
			listed |= miss->items[i]->kind == YNODE_SCALAR &&
				  strcmp(miss->items[i]->text, rec->metrics[m].name) == 0;
		if (!listed)
			yr_error(r, run, NULL,
				 "run neither measures nor lists as missing metric '%s'",
				 rec->metrics[m].name);
	}
}

static void read_run_gpu(struct yread *r, const struct ynode *run,
			 struct run_gpu *g)
{
	static const struct yfield fields[] = {{"samples", true},
		{"util_mean_pct", false}, {"mem_peak_bytes", false},
		{"sm_clock_mean_hz", false}, {"sm_clock_min_hz", false},
		{"temperature_max_c", false}, {"power_mean_w", false},
		{"throttle", false}, {NULL, false}};
	const struct ynode *n = ymap_get(run, "gpu");
	if (!n || !yr_expect_map(r, n, "gpu"))
		return;
	yr_check_keys(r, n, "run gpu", fields);
	long samples = 0;
	if (yr_int(r, n, "samples", 1, 100000000, &samples) == 1)
		g->samples = (size_t)samples;
	const struct { const char *key; uint32_t bit; double *v; } v[] = {
		{"util_mean_pct", GPU_SAMPLE_UTILIZATION, &g->util_mean_pct},
		{"mem_peak_bytes", GPU_SAMPLE_MEMORY, &g->mem_peak_bytes},
		{"sm_clock_mean_hz", GPU_SAMPLE_SM_CLOCK, &g->sm_clock_mean_hz},
		{"sm_clock_min_hz", GPU_SAMPLE_SM_CLOCK, &g->sm_clock_min_hz},
		{"temperature_max_c", GPU_SAMPLE_TEMPERATURE, &g->temperature_max_c},
		{"power_mean_w", GPU_SAMPLE_POWER, &g->power_mean_w},
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (nonneg(r, n, v[i].key, v[i].v) == 1)
			g->valid |= v[i].bit;
	if (throttle(r, n, &g->throttle_seen) == 1)
		g->valid |= GPU_SAMPLE_THROTTLE;
}

static void read_status(struct yread *r, const struct ynode *n,
			struct run_one *u)
{
	const struct ynode *ex = ymap_get(n, "exit_code"), *sg = ymap_get(n, "signal");
	long v = 0;
	if (!ex == !sg) {
		yr_error(r, n, NULL, "a run needs exactly one of 'exit_code' and 'signal'");
		return;
	}
	if (ex && yr_int(r, n, "exit_code", 0, 255, &v) == 1)
		u->exit_code = (int)v;
	if (sg && yr_int(r, n, "signal", 1, 128, &v) == 1)
		u->signaled = true, u->signal = (int)v;
	yr_bool(r, n, "not_started", &u->not_started);
	if (u->not_started && (u->signaled || u->exit_code == 0))
		yr_error(r, ymap_get(n, "not_started"), NULL,
			 "a run not started has a non-zero 'exit_code'");
}

static void read_run(struct yread *r, const struct ynode *n,
		     struct run_record *rec)
{
	static const struct yfield fields[] = {{"warmup", true},
		{"exit_code", false}, {"signal", false}, {"not_started", false},
		{"wall_time_s", true}, {"output_held_open", false},
		{"metrics", false}, {"missing", false}, {"stderr_tail", false},
		{"gpu", false}, {NULL, false}};
	if (!yr_expect_map(r, n, "a run"))
		return;
	struct run_one *u = run_record_add(rec);
	yr_check_keys(r, n, "run", fields);
	yr_bool(r, n, "warmup", &u->warmup);
	read_status(r, n, u);
	nonneg(r, n, "wall_time_s", &u->wall_s);
	yr_bool(r, n, "output_held_open", &u->output_held);
	read_values(r, n, rec, u);
	yr_string(r, n, "stderr_tail", &u->stderr_tail);
	read_run_gpu(r, n, &u->gpu);
}

static void read_runs(struct yread *r, const struct ynode *root,
		      struct run_record *rec)
{
	const struct ynode *rs = ymap_get(root, "runs");
	if (!rs || !yr_expect_seq(r, rs, "runs"))
		return;
	if (rs->n > RUN_MAX_RUNS) {
		yr_error(r, rs, NULL, "more than %d runs", RUN_MAX_RUNS);
		return;
	}
	for (size_t i = 0; i < rs->n; i++)
		read_run(r, rs->items[i], rec);
}

/* ---- samples ---- */

static void read_sample(struct yread *r, const struct ynode *n,
			struct gpu_sample *s)
{
	static const struct yfield fields[] = {{"t_s", true}, {"during", false},
		{"util_gpu_pct", false}, {"util_mem_pct", false},
		{"mem_used_bytes", false}, {"mem_total_bytes", false},
		{"sm_clock_hz", false}, {"mem_clock_hz", false},
		{"temperature_c", false}, {"power_w", false},
		{"processes", false}, {"throttle", false}, {NULL, false}};
	memset(s, 0, sizeof(*s));
	if (!yr_expect_map(r, n, "a sample"))
		return;
	yr_check_keys(r, n, "sample", fields);
	nonneg(r, n, "t_s", &s->t_s);
	text_into(r, n, "during", true, s->during, sizeof(s->during));
	const struct { const char *key; uint32_t bit; double *v; } v[] = {
		{"util_gpu_pct", GPU_SAMPLE_UTILIZATION, &s->util_gpu_pct},
		{"util_mem_pct", GPU_SAMPLE_UTILIZATION, &s->util_mem_pct},
		{"mem_used_bytes", GPU_SAMPLE_MEMORY, &s->mem_used_bytes},
		{"mem_total_bytes", GPU_SAMPLE_MEMORY, &s->mem_total_bytes},
		{"sm_clock_hz", GPU_SAMPLE_SM_CLOCK, &s->sm_clock_hz},
		{"mem_clock_hz", GPU_SAMPLE_MEM_CLOCK, &s->mem_clock_hz},
		{"temperature_c", GPU_SAMPLE_TEMPERATURE, &s->temperature_c},
		{"power_w", GPU_SAMPLE_POWER, &s->power_w},
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (nonneg(r, n, v[i].key, v[i].v) == 1)
			s->valid |= v[i].bit;
	long procs = 0;
	if (yr_int(r, n, "processes", 0, 1 << 20, &procs) == 1)
		s->processes = (unsigned)procs, s->valid |= GPU_SAMPLE_PROCESSES;
	if (throttle(r, n, &s->throttle) == 1)
		s->valid |= GPU_SAMPLE_THROTTLE;
}

static void read_samples(struct yread *r, const struct ynode *root,
			 struct run_record *rec)
{
	const struct ynode *ss = ymap_get(root, "samples");
	if (!ss)
		return;
	if (!rec->gpu) {
		yr_error(r, ss, NULL, "'samples' without a GPU ('gpu: absent')");
		return;
	}
	if (!yr_expect_seq(r, ss, "samples"))
		return;
	for (size_t i = 0; i < ss->n; i++) {
		struct gpu_sample s;
		read_sample(r, ss->items[i], &s);
		gpu_samples_push(&rec->samples, &s);
	}
}

int run_record_read(struct run_record *rec, const struct ytree *t,
		    struct gp_errors *errs)
{
	static const struct yfield fields[] = {{"schema", true},
		{"tool_version", true}, {"when", true}, {"command", true},
		{"host", true}, {"gpu", true}, {"metrics", true},
		{"runs", true}, {"samples", false}, {NULL, false}};
	struct yread r = {t->file, errs};
	size_t before = gp_errors_count(errs);
	run_record_init(rec);
	if (!t->root) {
		gp_errors_add(errs, t->file, 1, 1, NULL, "not a gpuplan run record");
		return -1;
	}
	if (yr_check_schema(&r, t->root, RUN_RECORD_SCHEMA, "run record") < 0)
		return -1;
	yr_check_keys(&r, t->root, "run record", fields);
	text_into(&r, t->root, "tool_version", true, rec->tool_version,
		  sizeof(rec->tool_version));
	text_into(&r, t->root, "when", true, rec->when, sizeof(rec->when));
	read_command(&r, t->root, rec);
	read_host(&r, t->root, rec);
	read_gpu(&r, t->root, rec);
	read_metrics(&r, t->root, rec);
	read_runs(&r, t->root, rec);
	read_samples(&r, t->root, rec);
	if (gp_errors_count(errs) == before)
		return 0;
	run_record_free(rec);
	return -1;
}

int run_record_parse(struct run_record *rec, const char *name,
		     const char *buf, size_t len, struct gp_errors *errs)
{
	struct ytree t;
	run_record_init(rec);
	int rc = ytree_parse(&t, name, buf, len, errs);
	if (rc == 0)
		rc = run_record_read(rec, &t, errs);
	ytree_free(&t);
	return rc;
}

int run_record_load(struct run_record *rec, const char *path,
		    struct gp_errors *errs)
{
	struct ytree t;
	run_record_init(rec);
	int rc = ytree_load(&t, path, path, errs);
	if (rc == 0)
		rc = run_record_read(rec, &t, errs);
	ytree_free(&t);
	return rc;
}

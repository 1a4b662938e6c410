/*
 * diag_out.c - see diag_out.h.
 */
#include "diag_out.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/output.h"
#include "core/prom_text.h"
#include "core/table.h"
#include "core/term_safe.h"
#include "core/utc_time.h"
#include "core/xalloc.h"

/* ---- the diagnosis ---- */

static void when_in_log(const void *ctx, double t_s, char *buf, size_t len)
{
	const struct smi_log *log = ctx;
	double abs = log->t0_s + t_s;
	long days = (long)floor(abs / 86400);
	char stamp[40];
	utc_civil_format(days, abs - (double)days * 86400, '/', stamp, sizeof(stamp));
	snprintf(buf, len, "%s (+%.1f s)", stamp, t_s);
}

static void started(const struct smi_log *log, bool live, struct diagnosis *g)
{
	if (!log->has_time || !(log->first_time[0] || live))
		return;
	long days = (long)floor(log->t0_s / 86400);
	if (log->first_time[0])	/* read as a timestamp: nothing to escape */
		snprintf(g->started, sizeof(g->started), "%s", log->first_time);
	else	/* NVML's wall clock: UTC */
		utc_civil_format(days, log->t0_s - (double)days * 86400, '/',
				 g->started, sizeof(g->started));
}

void diagnosis_of_log(const struct smi_log *log, bool live,
		      const char *source, struct diagnosis *g)
{
	memset(g, 0, sizeof(*g));
	g->source = source;
	g->live = live;
	started(log, live, g);
	g->gpu = xcalloc(log->n ? log->n : 1, sizeof(*g->gpu));
	g->n = log->n;
	for (size_t i = 0; i < log->n; i++) {
		const struct smi_gpu *s = &log->gpu[i];
		struct diag_gpu *x = &g->gpu[i];
		/* the log's own text, spelled out once for every output */
		term_escape(s->key, x->label, sizeof(x->label));
		term_escape(s->uuid, x->uuid, sizeof(x->uuid));
		term_escape(s->name, x->name, sizeof(x->name));
		struct diagnose_context ctx = {
			.live = live, .power_limit_w = s->power_limit_w,
			.sm_clock_max_hz = s->sm_clock_max_hz,
			.reasons_read = s->reasons_read,
			.when = log->has_time ? when_in_log : NULL, .when_ctx = log,
		};
		diagnose_series(&s->s, &ctx, &x->d);
		x->lost_cost = NAN;
	}
}

void diagnosis_free(struct diagnosis *g)
{
	for (size_t i = 0; i < g->n; i++)
		gpu_diagnosis_free(&g->gpu[i].d);
	free(g->gpu);
	g->gpu = NULL;
	g->n = 0;
}

void diagnosis_price(struct diagnosis *g)
{
	for (size_t i = 0; i < g->n; i++)
		g->gpu[i].lost_cost = g->price.set
			? g->gpu[i].d.lost_s / 3600 * g->price.per_gpu_hour : NAN;
}

/* ---- JSON ---- */

/* Text from outside (the log's name, a plan's names) as a JSON string,
 * spelled out as the other outputs have it: JSON would carry a C1
 * control or a bidirectional override raw, for a terminal to obey. */
static json_t *outside_text(const char *s)
{
	char *safe = term_escape_dup(s, 0);
	json_t *j = json_text(safe);
	free(safe);
	return j;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_number(v) : json_null();
}

static json_t *finding_json(const struct finding *f)
{
	json_t *j = json_object();
	json_object_set_new(j, "kind", json_string(finding_kind_name(f->kind)));
	json_object_set_new(j, "severity", json_string(severity_name(f->severity)));
	json_object_set_new(j, "start_s", json_number(f->start_s));
	json_object_set_new(j, "end_s", json_number(f->end_s));
	json_object_set_new(j, "from", json_text(f->from));
	json_object_set_new(j, "to", json_text(f->to));
	json_object_set_new(j, "figure", num_or_null(f->figure));
	json_object_set_new(j, "unit", json_string(f->unit));
	json_object_set_new(j, "lost_gpu_s", json_number(f->lost_s));
	json_object_set_new(j, "evidence", json_text(f->evidence));
	json_object_set_new(j, "suggestion", json_text(f->suggestion));
	return j;
}

static json_t *gpu_json(const struct diagnosis *g, const struct diag_gpu *x)
{
	const struct gpu_diagnosis *d = &x->d;
	json_t *j = json_object();
	json_object_set_new(j, "gpu", json_text(x->label));
	json_object_set_new(j, "uuid", json_string_or_null(x->uuid[0] ? x->uuid : NULL));
	json_object_set_new(j, "name", json_string_or_null(x->name[0] ? x->name : NULL));
	json_object_set_new(j, "samples", json_integer((json_int_t)d->samples));
	json_object_set_new(j, "duration_s", json_number(d->duration_s));
	json_object_set_new(j, "sample_period_s", json_number(d->period_s));
	json_object_set_new(j, "utilization_mean", num_or_null(d->util_mean));
	json_object_set_new(j, "idle_s", json_number(d->idle_s));
	json_object_set_new(j, "heartbeat_period_s", num_or_null(d->heartbeat_period_s));
	json_object_set_new(j, "memory_used_peak_bytes", num_or_null(d->mem_peak_bytes));
	json_object_set_new(j, "memory_total_bytes", num_or_null(d->mem_total_bytes));
	json_t *t = json_object();
	for (int r = 0; r < TR_COUNT; r++)
		json_object_set_new(t, throttle_reason_name(r),
				    d->reasons_known ? json_number(d->throttled_s[r]) : json_null());
	json_object_set_new(j, "throttled_s", t);
	json_object_set_new(j, "lost_gpu_s", json_number(d->lost_s));
	if (g->price.set)
		json_object_set_new(j, "lost_cost", num_or_null(x->lost_cost));
	json_t *a = json_array();
	for (size_t i = 0; i < d->n; i++)
		json_array_append_new(a, finding_json(&d->f[i]));
	json_object_set_new(j, "findings", a);
	return j;
}

json_t *diagnosis_json(const struct diagnosis *g)
{
	json_t *j = json_object();
	json_object_set_new(j, "schema", json_string("gpuplan/diagnosis/v1"));
	json_object_set_new(j, "source", outside_text(g->source));
	json_object_set_new(j, "live", json_boolean(g->live));
	json_object_set_new(j, "started", json_string_or_null(g->started[0] ? g->started : NULL));
	json_object_set_new(j, "second_process",
			    json_string(g->live ? "counted from NVML's compute processes"
						: "not visible in an nvidia-smi --query-gpu log: run diagnose --live, or log nvidia-smi --query-compute-apps"));
	if (g->price.set) {
		json_t *p = json_object();
		json_object_set_new(p, "workload", outside_text(g->price.workload));
		json_object_set_new(p, "instance", outside_text(g->price.instance));
		json_object_set_new(p, "currency", outside_text(g->price.currency));
		json_object_set_new(p, "per_gpu_hour", json_number(g->price.per_gpu_hour));
		json_object_set_new(j, "price", p);
	}
	json_t *a = json_array();
	for (size_t i = 0; i < g->n; i++)
		json_array_append_new(a, gpu_json(g, &g->gpu[i]));
	json_object_set_new(j, "gpus", a);
	return j;
}

/* ---- table and Markdown ---- */

/* Text from outside (a file's name, a log's or a plan's names) as the
 * table or Markdown may hold it: spelled out for a terminal, and in
 * Markdown with its punctuation escaped, so a name can neither end a
 * cell ('|') nor start markup. */
static void put_text(FILE *f, const char *s, bool md)
{
	char *safe = term_escape_dup(s, 0);
	for (const char *c = safe; *c; c++) {
		if (md && strchr("\\`*_[]<>|#", *c))
			fputc('\\', f);
		fputc(*c, f);
	}
	free(safe);
}

static void fmt_or_dash(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
}

static void gpu_summary(FILE *f, const struct diagnosis *g,
			const struct diag_gpu *x, bool md)
{
	const struct gpu_diagnosis *d = &x->d;
	char util[32], hb[32], mem[64], cost[64] = "";
	fmt_or_dash(util, sizeof(util), "%.0f %%", 100 * d->util_mean);
	fmt_or_dash(hb, sizeof(hb), "%.1f s", d->heartbeat_period_s);
	char peak[24], total[24];
	if (isfinite(d->mem_peak_bytes) && isfinite(d->mem_total_bytes))
		snprintf(mem, sizeof(mem), "%s of %s GiB",
			 diag_number(d->mem_peak_bytes / DIAG_GIB, peak, sizeof(peak)),
			 diag_number(d->mem_total_bytes / DIAG_GIB, total, sizeof(total)));
	else
		snprintf(mem, sizeof(mem), "-");
	if (g->price.set && isfinite(x->lost_cost))
		snprintf(cost, sizeof(cost), "priced");
	fprintf(f, "%sGPU ", md ? "## " : "");
	put_text(f, x->label, md);
	if (x->name[0]) {
		fputs(" (", f);
		put_text(f, x->name, md);
		fputs(")", f);
	}
	fprintf(f, ": %zu samples over %.0f s, utilisation %s, idle gaps %.0f s, heartbeat %s, memory peak %s, GPU time lost %.0f s",
		d->samples, d->duration_s, util, d->idle_s, hb, mem, d->lost_s);
	if (cost[0]) {
		fprintf(f, ", lost %.2f ", x->lost_cost);
		put_text(f, g->price.currency, md);
	}
	fputs("\n\n", f);
}

static void findings_table(FILE *f, const struct gpu_diagnosis *d, bool md)
{
	if (d->n == 0) {
		char verdict[400];
		diagnosis_verdict(d, verdict, sizeof(verdict));
		fprintf(f, "%s\n\n", verdict);
		return;
	}
	if (md) {
		fprintf(f, "| finding | severity | from (s) | to (s) | GPU time lost (s) |\n|---|---|---:|---:|---:|\n");
		for (size_t i = 0; i < d->n; i++)
			fprintf(f, "| %s | %s | %.1f | %.1f | %.0f |\n",
				finding_kind_name(d->f[i].kind),
				severity_name(d->f[i].severity), d->f[i].start_s,
				d->f[i].end_s, d->f[i].lost_s);
		fprintf(f, "\n");
	} else {
		static const char *const head[] = {"FINDING", "SEVERITY", "FROM", "TO", "LOST"};
		struct table t;
		table_init(&t, 5, head);
		for (int c = 2; c < 5; c++)
			table_right_align(&t, (size_t)c);
		for (size_t i = 0; i < d->n; i++) {
			char a[32], b[32], c[32];
			snprintf(a, sizeof(a), "%.1f s", d->f[i].start_s);
			snprintf(b, sizeof(b), "%.1f s", d->f[i].end_s);
			snprintf(c, sizeof(c), "%.0f s", d->f[i].lost_s);
			const char *cells[] = {finding_kind_name(d->f[i].kind),
				severity_name(d->f[i].severity), a, b, c};
			table_add_row(&t, cells);
		}
		table_print(&t, f);
		table_free(&t);
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < d->n; i++)
		fprintf(f, "%s%s%s: %s\n  do: %s\n\n", md ? "- **" : "",
			finding_kind_name(d->f[i].kind), md ? "**" : "",
			d->f[i].evidence, d->f[i].suggestion);
}

void diagnosis_print(FILE *f, const struct diagnosis *g, bool md)
{
	if (md) {
		fputs("# Diagnosis of ", f);
		put_text(f, g->source, md);
		fputs("\n\n", f);
	}
	if (g->price.set) {
		fprintf(f, "lost time priced at %.4g ", g->price.per_gpu_hour);
		put_text(f, g->price.currency, md);
		fputs(" per GPU-hour: ", f);
		put_text(f, g->price.instance, md);
		fputs(" for ", f);
		put_text(f, g->price.workload, md);
		fputs(" (the plan's recommendation)\n\n", f);
	}
	for (size_t i = 0; i < g->n; i++) {
		gpu_summary(f, g, &g->gpu[i], md);
		findings_table(f, &g->gpu[i].d, md);
	}
	if (!g->live)
		fprintf(f, "a second process on a GPU is not visible in an nvidia-smi --query-gpu log: use --live to count them\n");
}

/* ---- Prometheus ---- */

struct prom_ctx {
	FILE *f;
	const struct diagnosis *g;
};

/* One family with one sample per GPU (value() NAN: that GPU skipped). */
static void per_gpu(const struct prom_ctx *c, const char *name,
		    const char *help, double (*value)(const struct diag_gpu *))
{
	bool any = false;
	for (size_t i = 0; i < c->g->n; i++) {
		const struct diag_gpu *x = &c->g->gpu[i];
		double v = value(x);
		if (isnan(v))
			continue;
		if (!any)
			prom_family(c->f, name, "gauge", help);
		any = true;
		struct prom_label l[] = {{"gpu", x->label}, {"uuid", x->uuid}};
		prom_sample(c->f, name, l, 2, v);
	}
}

static double v_samples(const struct diag_gpu *x) { return (double)x->d.samples; }
static double v_duration(const struct diag_gpu *x) { return x->d.duration_s; }
static double v_util(const struct diag_gpu *x) { return x->d.util_mean; }
static double v_idle(const struct diag_gpu *x) { return x->d.idle_s; }
static double v_hb(const struct diag_gpu *x) { return x->d.heartbeat_period_s; }
static double v_peak(const struct diag_gpu *x) { return x->d.mem_peak_bytes; }
static double v_total(const struct diag_gpu *x) { return x->d.mem_total_bytes; }

static void throttled(const struct prom_ctx *c)
{
	const char *name = "gpuplan_diagnose_throttled_seconds";
	bool any = false;
	for (size_t i = 0; i < c->g->n; i++) {
		const struct diag_gpu *x = &c->g->gpu[i];
		if (!x->d.reasons_known)
			continue;
		if (!any)
			prom_family(c->f, name, "gauge",
				    "time a clocks-event (throttle) reason was active, s");
		any = true;
		for (int r = 0; r < TR_COUNT; r++) {
			struct prom_label l[] = {{"gpu", x->label}, {"uuid", x->uuid},
						 {"reason", throttle_reason_name(r)}};
			prom_sample(c->f, name, l, 3, x->d.throttled_s[r]);
		}
	}
}

static void findings(const struct prom_ctx *c)
{
	const char *name = "gpuplan_diagnose_finding";
	bool any = false;
	for (size_t i = 0; i < c->g->n; i++) {
		const struct diag_gpu *x = &c->g->gpu[i];
		for (size_t k = 0; k < x->d.n; k++) {
			if (!any)
				prom_family(c->f, name, "gauge",
					    "1 for each finding of gpuplan diagnose");
			any = true;
			struct prom_label l[] = {{"gpu", x->label}, {"uuid", x->uuid},
				{"kind", finding_kind_name(x->d.f[k].kind)},
				{"severity", severity_name(x->d.f[k].severity)}};
			prom_sample(c->f, name, l, 4, 1);
		}
	}
}

static void lost_cost(const struct prom_ctx *c)
{
	if (!c->g->price.set)
		return;
	const char *name = "gpuplan_diagnose_lost_cost";
	prom_family(c->f, name, "gauge",
		    "the GPU time lost, priced at the plan's recommended option");
	for (size_t i = 0; i < c->g->n; i++) {
		const struct diag_gpu *x = &c->g->gpu[i];
		struct prom_label l[] = {{"gpu", x->label}, {"uuid", x->uuid},
					 {"currency", c->g->price.currency}};
		prom_sample(c->f, name, l, 3, x->lost_cost);
	}
}

void diagnosis_prom(FILE *f, const struct diagnosis *g)
{
	struct prom_ctx c = {f, g};
	per_gpu(&c, "gpuplan_diagnose_samples", "samples read", v_samples);
	per_gpu(&c, "gpuplan_diagnose_duration_seconds", "time the samples cover, s", v_duration);
	per_gpu(&c, "gpuplan_diagnose_gpu_utilization_ratio", "mean utilization.gpu, 0 to 1", v_util);
	per_gpu(&c, "gpuplan_diagnose_idle_seconds", "time inside idle gaps, s", v_idle);
	per_gpu(&c, "gpuplan_diagnose_heartbeat_period_seconds",
		"period of the drops in utilisation, s (only when found)", v_hb);
	per_gpu(&c, "gpuplan_diagnose_memory_used_peak_bytes", "peak memory.used, bytes", v_peak);
	per_gpu(&c, "gpuplan_diagnose_memory_total_bytes", "memory.total, bytes", v_total);
	throttled(&c);
	findings(&c);
	lost_cost(&c);
}

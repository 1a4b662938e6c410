/*
 * cmd_diagnose.c - `gpuplan diagnose LOG | --live`: why a GPU starves or
 * throttles, from an nvidia-smi log or NVML sampled live, with evidence
 * and what to do; with --plan, what the lost GPU time costs.
 *
 * Exit status: 0; 1 when NVML or a write fails; 2 for bad usage or a bad
 * log (every problem printed, and what the readable part of the log shows
 * printed on stderr; nothing written).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <strings.h>

#include "commands.h"
#include "common.h"
#include "out_dirs.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/output.h"
#include "core/units.h"
#include "diagnose/diag_chart.h"
#include "diagnose/diag_out.h"
#include "diagnose/findings.h"
#include "diagnose/live.h"
#include "diagnose/smi_log.h"
#include "report/plan_load.h"
#include "report/report_data.h"

static const struct opt_spec diagnose_opts[] = {
	{"live", 0, OPT_FLAG, NULL, "sample a GPU through NVML instead of reading a log"},
	{"gpu", 0, OPT_VALUE, "N", "with --live: the GPU's nvidia-smi index (default 0)"},
	{"duration", 0, OPT_VALUE, "TIME", "with --live: how long to sample (default 60s)"},
	{"interval", 0, OPT_VALUE, "TIME",
	 "with --live: the sampling period (default 100ms); for a log without timestamps: nvidia-smi's -l period"},
	{"query", 0, OPT_VALUE, "FIELDS",
	 "the --query-gpu string of a log written with noheader (timestamp,index,utilization.gpu,...)"},
	{"format", 'f', OPT_VALUE, "FMT", "table, json or markdown (default: table)"},
	OUTPUT_OPTION,
	{"prom", 0, OPT_VALUE, "FILE", "also write the figures as Prometheus text (a node-exporter textfile)"},
	{"report", 0, OPT_VALUE, "FILE",
	 "also draw a timeline of utilisation, clocks, temperature and power with the findings marked (.pdf, .png or .svg)"},
	{"plan", 0, OPT_VALUE, "PLAN.json",
	 "price the lost GPU time at this plan's recommended option (gpuplan plan --format json)"},
	{"workload", 0, OPT_VALUE, "NAME", "with --plan: the workload whose recommendation prices it"},
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec diagnose_spec = {
	"diagnose", "[LOG]",
	"Why a GPU starves or throttles, from an nvidia-smi log or live NVML.",
	diagnose_opts, 0, 1,
	"LOG is what nvidia-smi --query-gpu=timestamp,index,utilization.gpu,\n"
	"utilization.memory,memory.used,memory.total,temperature.gpu,power.draw,\n"
	"power.limit,clocks.sm,clocks.max.sm,clocks_event_reasons.active\n"
	"--format=csv -l 1 writes (any subset of fields, any order, several GPUs;\n"
	"'-' reads standard input).  Findings: low_utilization, heartbeat,\n"
	"idle_gaps, memory_headroom, thermal_throttling, power_throttling and,\n"
	"live only, shared_gpu; README.md 'Diagnose' gives their thresholds.",
};

enum diag_format { DF_TABLE, DF_JSON, DF_MARKDOWN };

/* Samples --live may take: NVML's sampler keeps about 200 bytes each
 * (bench/gpu_sampler.h) until it stops, so 2,000,000 (24 h at 50 ms) is
 * 400 MB; 24 h at 1 ms would be 17 GB, and the day's sampling lost to an
 * allocation that fails at its end. */
#define LIVE_SAMPLES_MOST 2000000

struct diag_opts {
	enum diag_format fmt;
	bool live;
	long gpu;
	double duration_s, interval_s;
	const char *log, *query, *out, *prom, *report, *plan, *workload;
};

/* ---- options ---- */

static int read_time_opt(const struct parsed *p, const char *name,
			 double dflt, double *out)
{
	const char *v = opt_value(p, &diagnose_spec, name);
	*out = dflt;
	if (!v)
		return 0;
	struct unit_problem prob;
	if (units_parse(UNIT_DURATION, v, out, NULL, &prob) < 0 ||
	    !(*out >= 0.001 && *out <= 86400))
		return usage_error(&diagnose_spec,
				   "--%s expects a time from 1ms to 24h like '60s' or '100ms', found '%s'",
				   name, v);
	return 0;
}

static int read_format(const struct parsed *p, enum diag_format *fmt)
{
	static const char *const names[] = {"table", "json", "markdown"};
	const char *v = opt_value(p, &diagnose_spec, "format");
	*fmt = DF_TABLE;
	if (!v)
		return 0;
	for (int i = 0; i < 3; i++)
		if (!strcmp(v, names[i])) {
			*fmt = (enum diag_format)i;
			return 0;
		}
	return usage_error(&diagnose_spec,
			   "unknown format '%s': expected table, json or markdown", v);
}

static bool report_extension_ok(const char *path)
{
	size_t n = strlen(path);
	return n > 4 && (!strcasecmp(path + n - 4, ".pdf") ||
			 !strcasecmp(path + n - 4, ".png") ||
			 !strcasecmp(path + n - 4, ".svg"));
}

static int read_opts(const struct parsed *p, struct diag_opts *o)
{
	memset(o, 0, sizeof(*o));
	const struct cmd_spec *s = &diagnose_spec;
	o->live = opt_flag(p, s, "live");
	o->log = p->nargs ? p->args[0] : NULL;
	o->query = opt_value(p, s, "query");
	o->out = opt_value(p, s, "output");
	o->prom = opt_value(p, s, "prom");
	o->report = opt_value(p, s, "report");
	o->plan = opt_value(p, s, "plan");
	o->workload = opt_value(p, s, "workload");
	const char *gpu = opt_value(p, s, "gpu");
	int rc;
	if ((rc = read_format(p, &o->fmt)) ||
	    (rc = read_time_opt(p, "duration", 60, &o->duration_s)) ||
	    (rc = read_time_opt(p, "interval", o->live ? 0.1 : 0, &o->interval_s)))
		return rc;
	if (o->live == (o->log != NULL))
		return usage_error(s, "give a LOG or --live, one of them");
	if (!o->live && (gpu || opt_value(p, s, "duration")))
		return usage_error(s, "--gpu and --duration go with --live");
	if (o->live && o->query)
		return usage_error(s, "--query is for a log written without a header");
	if (gpu && !opt_whole(gpu, 0, 63, &o->gpu))
		return usage_error(s, "--gpu expects an index from 0 to 63, found '%s'", gpu);
	if (o->live && o->interval_s > o->duration_s)
		return usage_error(s, "--interval is longer than --duration");
	if (o->live && o->duration_s / o->interval_s > LIVE_SAMPLES_MOST)
		return usage_error(s, "--duration %s at --interval %s is %.0f samples: expected at most %d (sample less often, or for less time)",
				   /* exceeded only with both given: the defaults are far inside */
				   opt_value(p, s, "duration") ? opt_value(p, s, "duration") : "60s",
				   opt_value(p, s, "interval") ? opt_value(p, s, "interval") : "100ms",
				   floor(o->duration_s / o->interval_s), LIVE_SAMPLES_MOST);
	if (o->workload && !o->plan)
		return usage_error(s, "--workload goes with --plan");
	if (o->prom && !strcmp(o->prom, "-") && (!o->out || !strcmp(o->out, "-")))
		return usage_error(s, "--prom - and the diagnosis would share standard output: write the diagnosis with -o FILE");
	bool report_out = o->report && !strcmp(o->report, "-");
	if (report_out && (!o->out || !strcmp(o->out, "-") ||
			   (o->prom && !strcmp(o->prom, "-"))))
		return usage_error(s, "--report - and the diagnosis would share standard output: write the diagnosis with -o FILE");
	if (report_out && isatty(STDOUT_FILENO))
		return usage_error(s, "--report - writes a PDF to standard output, which is a terminal: redirect it or name a file");
	if (o->report && !report_out && !report_extension_ok(o->report))
		return usage_error(s, "--report expects a file name ending in .pdf, .png or .svg, found '%s'", o->report);
	return 0;
}

static int check_targets(const struct diag_opts *o)
{
	const char *t[3] = {o->out && strcmp(o->out, "-") ? o->out : NULL,
			    o->prom && strcmp(o->prom, "-") ? o->prom : NULL,
			    o->report && strcmp(o->report, "-") ? o->report : NULL};
	const char *what[3] = {"-o", "--prom", "--report"};
	for (int i = 0; i < 3; i++)
		for (int k = i + 1; k < 3; k++)
			if (t[i] && t[k] && !strcmp(t[i], t[k]))
				return usage_error(&diagnose_spec, "%s and %s name the same file '%s'",
						   what[i], what[k], t[i]);
	for (int i = 0; i < 3; i++)
		if (t[i] && out_file_usable(what[i], t[i]))
			return 2;
	return 0;
}

/* ---- the plan's price ---- */

static int load_price(const struct diag_opts *o, struct diag_price *pr)
{
	struct r_plan plan;
	char why[600];
	if (r_plan_load(&plan, o->plan, why, sizeof(why)) < 0) {
		fprintf(stderr, "gpuplan: %s\n", why);
		return 2;
	}
	const struct r_workload *w = NULL;
	for (size_t i = 0; i < plan.n; i++)
		if (o->workload ? !strcmp(plan.w[i].name, o->workload) : plan.n == 1)
			w = &plan.w[i];
	int rc = 0;
	if (!w) {
		fprintf(stderr, "gpuplan: %s: %s; its workloads:", o->plan,
			o->workload ? "no such workload" : "name the workload with --workload");
		for (size_t i = 0; i < plan.n; i++)
			fprintf(stderr, "%s %s", i ? "," : "", plan.w[i].name);
		fprintf(stderr, "\n");
		rc = 2;
	} else if (w->recommended < 0 || (size_t)w->recommended >= w->n ||
		   !(w->v[w->recommended].gpu_hours > 0) ||
		   !(w->v[w->recommended].cost > 0)) {
		fprintf(stderr, "gpuplan: %s: workload '%s' has no recommended option with a cost to price GPU time by\n",
			o->plan, w->name);
		rc = 2;
	} else {
		const struct r_option *r = &w->v[w->recommended];
		pr->set = true;
		pr->per_gpu_hour = r->cost / r->gpu_hours;
		snprintf(pr->currency, sizeof(pr->currency), "%s", plan.currency);
		snprintf(pr->workload, sizeof(pr->workload), "%s", w->name);
		snprintf(pr->instance, sizeof(pr->instance), "%s", r->instance);
	}
	r_plan_free(&plan);
	return rc;
}

/* ---- the diagnosis ---- */

/* A bad log: what its readable rows show, on stderr (nothing written). */
static void partial(const struct smi_log *log, const struct diag_opts *o)
{
	if (log->rows == 0)
		return;
	struct diagnosis g;
	diagnosis_of_log(log, false, o->log, &g);
	fprintf(stderr, "\nwhat the %zu readable samples show (nothing written: fix the log first):\n\n",
		log->rows);
	diagnosis_print(stderr, &g, false);
	diagnosis_free(&g);
}

static int read_log(const struct diag_opts *o, struct smi_log *log)
{
	struct gp_errors errs;
	gp_errors_init(&errs);
	smi_log_init(log);
	int rc = 0;
	if (smi_log_read(log, o->log, o->query, o->interval_s, &errs) < 0) {
		rc = cli_report_problems(&errs);
		partial(log, o);
	}
	gp_errors_free(&errs);
	return rc;
}

/* ---- writing ---- */

/* A PDF's date: the log's first timestamp ("2026/11/30 10:15:00.213"
 * as 2026-11-30T10:15:00Z), so the same log gives the same bytes. */
static void pdf_date(const struct diagnosis *g, char *buf, size_t len)
{
	const char *s = g->started;
	if (strlen(s) >= 19)
		snprintf(buf, len, "%.4s-%.2s-%.2sT%.8sZ", s, s + 5, s + 8, s + 11);
	else
		snprintf(buf, len, "2026-01-01T00:00:00Z");
}

/* Everything to write, made in memory first: a failure writes nothing. */
struct made {
	char *text, *prom;
	size_t text_len, prom_len;
	unsigned char *chart;
	size_t chart_len;
};

static int make(const struct diag_opts *o, const struct smi_log *log,
		const struct diagnosis *g, struct made *m)
{
	memset(m, 0, sizeof(*m));
	FILE *f = open_memstream(&m->text, &m->text_len);
	FILE *p = o->prom ? open_memstream(&m->prom, &m->prom_len) : NULL;
	if (!f || (o->prom && !p)) {
		fprintf(stderr, "gpuplan: out of memory\n");
		return 1;
	}
	if (o->fmt == DF_JSON) {
		json_t *j = diagnosis_json(g);
		json_write(f, j);
		json_decref(j);
	} else
		diagnosis_print(f, g, o->fmt == DF_MARKDOWN);
	fclose(f);
	if (p) {
		diagnosis_prom(p, g);
		fclose(p);
	}
	if (!o->report)
		return 0;
	char why[600], date[40];
	pdf_date(g, date, sizeof(date));
	/* --report -: a PDF (standard output was checked not a terminal) */
	const char *as = strcmp(o->report, "-") ? o->report : "standard-output.pdf";
	m->chart = diag_chart_bytes(as, log, g, date, &m->chart_len, why, sizeof(why));
	if (!m->chart) {
		fprintf(stderr, "gpuplan: --report: %s\n", why);
		return 1;
	}
	return 0;
}

/* The files as one set (all or none), then standard output. */
static int deliver(const struct diag_opts *o, const struct made *m)
{
	bool to_file = o->out && strcmp(o->out, "-");
	struct atomic_set set;
	atomic_set_init(&set);
	char why[600];
	int rc = ATOMIC_OK;
	if (to_file)
		rc = atomic_set_add(&set, o->out, m->text, m->text_len, why, sizeof(why));
	bool prom_out = o->prom && !strcmp(o->prom, "-");	/* -o FILE: checked */
	if (rc == ATOMIC_OK && o->prom && !prom_out)
		rc = atomic_set_add(&set, o->prom, m->prom, m->prom_len, why, sizeof(why));
	bool report_out = o->report && !strcmp(o->report, "-");
	if (rc == ATOMIC_OK && o->report && !report_out)
		rc = atomic_set_add(&set, o->report, m->chart, m->chart_len, why, sizeof(why));
	if (rc == ATOMIC_OK)
		rc = atomic_set_commit(&set, why, sizeof(why));
	else
		atomic_set_abort(&set);
	if (rc != ATOMIC_OK) {
		fprintf(stderr, "gpuplan: %s\n", why);
		return rc == ATOMIC_REFUSED ? 2 : 1;
	}
	if (to_file && !prom_out && !report_out)
		return 0;
	struct output out;
	output_open(&out);
	if (prom_out)	/* -o FILE and only one '-': read_opts checked */
		fwrite(m->prom, 1, m->prom_len, out.f);
	else if (report_out)
		fwrite(m->chart, 1, m->chart_len, out.f);
	else
		fwrite(m->text, 1, m->text_len, out.f);
	return output_finish(&out, NULL);
}

static int emit(const struct diag_opts *o, const struct smi_log *log,
		const struct diagnosis *g)
{
	struct made m;
	int rc = make(o, log, g, &m);
	if (rc == 0)
		rc = deliver(o, &m);
	free(m.text);
	free(m.prom);
	free(m.chart);
	return rc;
}

static int run(const struct diag_opts *o, const struct diag_price *price)
{
	struct smi_log log;
	int rc;
	if (o->live) {
		char why[600];
		if (diagnose_live((unsigned)o->gpu, o->duration_s, o->interval_s,
				  &log, why, sizeof(why)) < 0) {
			fprintf(stderr, "gpuplan: diagnose --live: %s\n", why);
			smi_log_free(&log);
			return 1;
		}
	} else if ((rc = read_log(o, &log))) {
		smi_log_free(&log);
		return rc;
	}
	struct diagnosis g;
	diagnosis_of_log(&log, o->live, o->live ? "nvml" : o->log, &g);
	g.price = *price;
	diagnosis_price(&g);
	rc = emit(o, &log, &g);
	diagnosis_free(&g);
	smi_log_free(&log);
	return rc;
}

int cmd_diagnose(int argc, char **argv)
{
	struct parsed p;
	struct diag_opts o;
	struct diag_price price;
	memset(&price, 0, sizeof(price));
	int rc = opts_parse(&diagnose_spec, argc, argv, &p);
	static const char *const files[] = {"plan", NULL};	/* and LOG */
	if (rc == OPTS_OK && !(rc = cli_one_stdin_of(&p, &diagnose_spec, files, true)) &&
	    !(rc = read_opts(&p, &o)) && !(rc = check_targets(&o)) &&
	    !(rc = o.plan ? load_price(&o, &price) : 0))
		rc = run(&o, &price);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

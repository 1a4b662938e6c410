/*
 * cmd_plan.c - `gpuplan plan`: every workload against every instance, a
 * ranked table with a recommendation per workload, or the whole plan as
 * JSON for `gpuplan report`.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "catalog_filter.h"
#include "commands.h"
#include "common.h"
#include "out_dirs.h"
#include "core/atomic_file.h"
#include "core/num_format.h"
#include "core/output.h"
#include "core/paths.h"
#include "core/table.h"
#include "workload/trace.h"
#include "workload/workload_file.h"
#include "core/units.h"
#include "core/xalloc.h"
#include "option/reason.h"
#include "option/wording.h"
#include "plan/plan_json.h"
#include "plan/plan_prom.h"
#include "plan/rank.h"
#include "report/plan_load.h"
#include "report_cli.h"

static const struct opt_spec plan_opts[] = {
	{"workload", 'w', OPT_VALUE, "FILE",
	 "the workloads to plan (default: profiles/workloads/default.yaml)"},
	{"catalog", 'c', OPT_LIST, "FILE",
	 "read these catalog files instead of the shipped ones"},
	{"currency", 0, OPT_VALUE, "CODE",
	 "costs in this currency, at the catalog's dated rate (default USD)"},
	{"instance", 'i', OPT_LIST, "NAME",
	 "plan only these instance types (repeatable, or a comma list; case-blind): NAME, REGION/NAME or PROVIDER/REGION/NAME"},
	{"region", 0, OPT_LIST, "REGION",
	 "plan only instances in these regions (repeatable, or a comma list; case-blind)"},
	{"provider", 0, OPT_LIST, "NAME",
	 "plan only instances of these providers (repeatable, or a comma list; case-blind)"},
	{"profile", 0, OPT_VALUE, "FILE",
	 "calibrate with a fitted file (gpuplan fit) or a measured profile (gpuplan bench)"},
	{"profile-accelerator", 0, OPT_VALUE, "NAME",
	 "the catalog accelerator the profile was measured on, when its name does not say"},
	{"spot", 0, OPT_FLAG, NULL,
	 "compare training on spot prices (as a workload's `spot: true` does)"},
	{"top", 'n', OPT_VALUE, "N", "options per workload in the table (default 5)"},
	{"report", 0, OPT_VALUE, "FILE",
	 "also write the PDF report to FILE, with PNG charts beside it"},
	{"lang", 0, OPT_VALUE, "LANG", "the report's language: en or zh (default en)"},
	{"title", 0, OPT_VALUE, "TEXT", "the report's title"},
	{"prom", 0, OPT_VALUE, "FILE",
	 "also write each workload's recommendation as Prometheus text to FILE (- with -o FILE: standard output)"},
	FORMAT_OPTION,
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec plan_spec = {
	"plan", NULL,
	"Plan every workload against every instance: time, cost, fit, and what to rent.",
	plan_opts, 0, 0,
	"Step times come from a roofline of the model's ops on each accelerator's\n"
	"datasheet peaks at the default efficiencies (listed under 'assumptions'\n"
	"in the JSON); prices from the catalogs with their dates.  Every option is\n"
	"in the JSON, feasible or not, with its reasons.\n"
	"\n"
	"With --profile, each workload is also estimated on the measured device\n"
	"itself (low/median/high by Monte Carlo over the fitted curves), and a GPU\n"
	"the catalog names carries its measured fractions of its datasheet to every\n"
	"accelerator, each option then with a time and cost range.",
};

/* The files plan reads: "-" (standard input) may be one of them. */
static const char *const plan_files[] = {"workload", "catalog", "profile", NULL};

static int read_settings(const struct parsed *p, struct plan_settings *s)
{
	plan_settings_default(s);
	const char *cur = opt_value(p, &plan_spec, "currency");
	if (cur) {
		if (!currency_code_valid(cur))
			return usage_error(&plan_spec, "--currency expects a code like CNY or USD, found '%s'",
					   cur);
		memcpy(s->currency, cur, 4);
	}
	s->spot = opt_flag(p, &plan_spec, "spot");
	const char *top = opt_value(p, &plan_spec, "top");
	if (top) {
		if (!opt_whole(top, 1, 100000, &s->top))
			return usage_error(&plan_spec, "--top expects a whole number from 1 to 100000, found '%s'",
					   top);
	}
	return 0;
}

/* The option lists that choose instances, owned here. */
struct instance_choice {
	struct name_list only, regions, providers;
};

static void instance_choice_free(struct instance_choice *ch)
{
	name_list_free(&ch->only);
	name_list_free(&ch->regions);
	name_list_free(&ch->providers);
}

/* --instance, --region and --provider into s, checked against c. */
static int read_instance_choice(const struct parsed *p,
				const struct catalog *c,
				struct instance_choice *ch,
				struct plan_settings *s)
{
	int rc = cli_name_list(p, &plan_spec, "instance", "instance names",
			       &ch->only);
	if (!rc)
		rc = cli_instance_filter(p, &plan_spec, c, &ch->regions,
					 &ch->providers, &s->where);
	s->only = ch->only.v;
	s->n_only = ch->only.n;
	return rc;
}

/* Whether the instances some workload is planned on lie in more than one
 * region (or provider): then tables and sentences name each one's
 * region, so regions can be compared (instance_key.h). */
static bool spans_regions(const struct catalog *c,
			  const struct workload_file *wf,
			  const struct plan_settings *s)
{
	const struct instance *first = NULL;
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct instance *in = &c->inst[i];
		bool wanted = false;
		for (size_t k = 0; k < wf->n && !wanted; k++)
			wanted = plan_instance_wanted(s, &wf->v[k], in);
		if (!wanted)
			continue;
		if (first && (strcasecmp(first->region, in->region) != 0 ||
			      strcasecmp(first->provider, in->provider) != 0))
			return true;
		first = in;
	}
	return false;
}

/* The names of --instance and of the workloads' `instance:` in the
 * catalog: 0, or 2 after printing every problem. */
static int check_instances(const struct catalog *c,
			   const struct workload_file *wf,
			   const struct plan_settings *s)
{
	struct gp_errors errs;
	gp_errors_init(&errs);
	int rc = plan_check_instances(c, wf, s->only, s->n_only, &errs)
			 ? cli_report_problems(&errs)
			 : 0;
	gp_errors_free(&errs);
	return rc;
}

/* ---- table ---- */



static struct rank_key key_of(const struct plan_settings *s,
			      const struct plan_result *r, size_t i)
{
	const struct plan_option *o = &r->v[i];
	int tier = rank_tier((long)i == r->recommended, o->feasible,
			     o->inst->owned || o->inst->illustrative, o->runnable);
	return (struct rank_key){tier, plan_compared_cost(s, r->w, o), i};
}

/* The first `top` options in the order a reader wants (plan/rank.h).  Selected in one pass (the table
 * shows a handful of a plan's many options); returns how many. */
static size_t rank_options(const struct plan_settings *s,
			   const struct plan_result *r, size_t top,
			   size_t *idx)
{
	struct rank_key *best = xcalloc(top + 1, sizeof(*best));
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++) {
		struct rank_key k = key_of(s, r, i);
		if (n == top && rank_compare(&k, &best[n - 1]) >= 0)
			continue;
		size_t at = n < top ? n++ : n - 1;
		while (at > 0 && rank_compare(&k, &best[at - 1]) < 0) {
			best[at] = best[at - 1];
			at--;
		}
		best[at] = k;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = best[i].i;
	free(best);
	return n;
}

static const char *status_of(const struct plan_option *o, char *buf, size_t len)
{
	if (o->n_reasons)
		plan_reason_format(o, 0, buf, len);
	else
		snprintf(buf, len, "ok");
	return buf;
}

/* No price in the plan currency (no exchange rate): its costs are not 0,
 * they are unknown. */
static bool unpriced(const struct plan_option *o)
{
	for (int i = 0; i < o->n_reasons; i++)
		if (plan_option_reason_at(o, i)->code == REASON_NO_RATE)
			return true;
	return false;
}

/* Whole units from 100, cents below; from 1e15 (costs the accepted
 * extremes of a catalog can reach) three significant digits, as choose.c
 * words them, so a cell never outgrows its buffer. */
static void money_cell(double v, char *buf, size_t len)
{
	snprintf(buf, len, v >= 1e15 ? "%.3g" : v >= 100 ? "%.0f" : "%.2f", v);
}

/* "dp 8 tp 8 pp 4x2 mb 1 zero 1 full": pipeline stages x interleaving;
 * the ZeRO stage and recomputation only when used. */
static void split_cell(const struct plan_option *o, char *buf, size_t len)
{
	char v[24] = "", zero[16] = "", rc[16] = "";
	if (o->interleave > 1)
		snprintf(v, sizeof(v), "x%ld", o->interleave);
	if (o->zero)
		snprintf(zero, sizeof(zero), " zero %d", o->zero);
	if (o->recompute != RECOMPUTE_NONE)
		snprintf(rc, sizeof(rc), " %s", recompute_name(o->recompute));
	snprintf(buf, len, "dp %ld tp %ld pp %ld%s mb %ld%s%s", o->dp, o->tp,
		 o->pp, v, o->micro_batch, zero, rc);
}

/* A share of the wall clock to a tenth of a percent ("98.9%"): goodput
 * moves by tenths between cluster sizes; "-" when no progress is made. */
static void goodput_cell(double g, char *buf, size_t len)
{
	if (g > 0)
		snprintf(buf, len, "%.1f%%", 100 * g);
	else
		snprintf(buf, len, "-");
}

static void training_table(FILE *out, const struct plan_result *r,
			   const size_t *idx, size_t top)
{
	static const char *const header[] = {"", "INSTANCE", "GPUS", "SPLIT",
		"TIME", "RANGE", "COST", "SPOT", "GPU-H", "GOODPUT", "MEM/GPU", "MFU",
		"NOTE"};
	struct table t;
	table_init(&t, 13, header);
	for (int c = 4; c < 12; c++)
		table_right_align(&t, (size_t)c);
	for (size_t k = 0; k < top; k++) {
		const struct plan_option *o = &r->v[idx[k]];
		char mark[4], inst[320], gpus[320], split[96], tm[32], cost[32],
			spot[32] = "-", gh[32], gp[16], mem[32], mfu[16], range[32] = "-",
			note[PLAN_REASON_LEN];
		snprintf(mark, sizeof(mark), "%s%s",
			 (long)idx[k] == r->recommended ? "*" : "",
			 o->pareto ? "P" : "");
		snprintf(inst, sizeof(inst), "%ld x %s", o->nodes, o->inst->shown);
		plan_gpus_text(o, gpus, sizeof(gpus));
		split_cell(o, split, sizeof(split));
		units_format(UNIT_DURATION, o->time_s, NULL, tm, sizeof(tm));
		/* time and cost move together: "-6/+9%" */
		if (o->has_range && o->time_s > 0)
			snprintf(range, sizeof(range), "-%.0f/+%.0f%%",
				 100 * (1 - o->time_low_s / o->time_s),
				 100 * (o->time_high_s / o->time_s - 1));
		money_cell(o->cost, cost, sizeof(cost));
		if (o->has_spot)
			money_cell(o->cost_spot, spot, sizeof(spot));
		if (unpriced(o))
			snprintf(cost, sizeof(cost), "-");
		plan_gpu_hours_text(o->gpu_hours, gh, sizeof(gh));
		goodput_cell(o->goodput, gp, sizeof(gp));
		if (!(o->goodput > 0)) {
			/* no progress: the run never ends, and its figures
			 * (the productive time's) are not a run's */
			snprintf(tm, sizeof(tm), "-");
			snprintf(cost, sizeof(cost), "-");
			snprintf(spot, sizeof(spot), "-");
			snprintf(gh, sizeof(gh), "-");
		}
		plan_gb_text(o->memory_per_gpu, mem, sizeof(mem));
		snprintf(mfu, sizeof(mfu), "%.0f%%", 100 * o->mfu);
		const char *row[] = {mark, inst, gpus, split, tm, range, cost,
				     spot, gh, gp, mem, mfu,
				     status_of(o, note, sizeof(note))};
		table_add_row(&t, row);
	}
	table_print(&t, out);
	table_free(&t);
}

static void serving_table(FILE *out, const struct plan_result *r,
			  const size_t *idx, size_t top)
{
	static const char *const header[] = {"", "INSTANCE", "GPUS", "REPLICAS",
		"BATCH", "P99", "COST/MONTH", "PER MILLION", "MEM/GPU", "NOTE"};
	struct table t;
	table_init(&t, 10, header);
	for (int c = 3; c < 9; c++)
		table_right_align(&t, (size_t)c);
	for (size_t k = 0; k < top; k++) {
		const struct plan_option *o = &r->v[idx[k]];
		char mark[4], inst[320], gpus[320], rep[48], batch[16], p99[32],
			cost[32], pm[32], mem[32], note[PLAN_REASON_LEN];
		snprintf(mark, sizeof(mark), "%s%s",
			 (long)idx[k] == r->recommended ? "*" : "",
			 o->pareto ? "P" : "");
		snprintf(inst, sizeof(inst), "%ld x %s", o->nodes, o->inst->shown);
		plan_gpus_text(o, gpus, sizeof(gpus));
		snprintf(rep, sizeof(rep), "%ld", o->replicas);
		snprintf(batch, sizeof(batch), "%ld", o->batch);
		units_format(UNIT_DURATION, o->p99_latency_s, NULL, p99, sizeof(p99));
		money_cell(o->cost, cost, sizeof(cost));
		money_cell(o->cost_per_million, pm, sizeof(pm));
		if (unpriced(o)) {
			snprintf(cost, sizeof(cost), "-");
			snprintf(pm, sizeof(pm), "-");
		}
		plan_gb_text(o->memory_per_gpu, mem, sizeof(mem));
		const char *row[] = {mark, inst, gpus, rep, batch, p99, cost, pm, mem,
				     status_of(o, note, sizeof(note))};
		table_add_row(&t, row);
	}
	table_print(&t, out);
	table_free(&t);
}

struct emit_ctx {
	enum out_format fmt;
	FILE *out;
	bool want_doc;		/* a report from a table or CSV run */
	json_t *doc;
	struct json_stream json;	/* json: written workload by workload */
	bool json_started;
	struct table csv;	/* csv */
	bool csv_started;
	struct plan_prom *prom;	/* --prom, else NULL */
};

static void range_cell(int unit, const struct sample_range *v, char *buf,
		       size_t len)
{
	char a[32], b[32], c[32];
	units_format(unit, v->median, NULL, a, sizeof(a));
	units_format(unit, v->low, NULL, b, sizeof(b));
	units_format(unit, v->high, NULL, c, sizeof(c));
	snprintf(buf, len, "%s (%s to %s)", a, b, c);
}

/* The workload on the measured device (sample_device.h). */
static void sample_lines(FILE *out, const struct plan *p,
			 const struct plan_result *r)
{
	const struct carried *k = p->settings.carried;
	const struct sample_estimate *e = &r->sample;
	fprintf(out, "On the sample device %s (measured %s):", k->cal->device,
		k->cal->measured);
	if (!e->present) {
		fprintf(out, " not estimated: %s\n\n", r->sample_why);
		return;
	}
	char f[160], g[160];
	range_cell(UNIT_DURATION, &e->forward_s, f, sizeof(f));
	fprintf(out, "\n  forward pass of %ld, %s: %s, from %s\n", e->batch,
		precision_name(e->precision_used), f,
		e->from_step ? "the model's fitted step curve" : "the measured kernels");
	if (e->from_step && e->has_kernels) {
		range_cell(UNIT_DURATION, &e->kernels_forward_s, f, sizeof(f));
		fprintf(out, "  (the measured kernels' roofline says %s)\n", f);
	}
	if (r->w->kind == WORKLOAD_TRAINING) {
		range_cell(UNIT_DURATION, &e->step_s, f, sizeof(f));
		range_cell(UNIT_DURATION, &e->run_s, g, sizeof(g));
		fprintf(out, "  training step %s; the whole run %s on this one device\n", f, g);
	} else {
		fprintf(out, "  one request at a time: %.4g requests/s (%.4g to %.4g)\n",
			e->per_s.median, e->per_s.low, e->per_s.high);
	}
	fputc('\n', out);
}

/* The recommended run's GPU-hours of wall clock and of compute apart,
 * with the goodput between them (train/goodput.h); nothing for a run that
 * loses less than the table's tenth of a percent. */
static void goodput_line(FILE *out, const struct plan_result *r)
{
	if (r->w->kind != WORKLOAD_TRAINING || r->recommended < 0 ||
	    r->w->train.goodput.off)
		return;
	const struct plan_option *o = &r->v[r->recommended];
	if (o->goodput >= 0.9995)
		return;
	char wall[32], compute[32], wall_h[32], every[64], mtbf[32];
	plan_gpu_hours_text(o->gpu_hours, wall, sizeof(wall));
	plan_gpu_hours_text(o->gpu_hours_compute, compute, sizeof(compute));
	units_format(UNIT_DURATION, o->mtbf_s, NULL, mtbf, sizeof(mtbf));
	/* a run shorter than its interval writes none on the way
	 * (goodput.h): its interval is the run itself */
	double run = o->gpu_hours_compute * 3600 / (double)o->gpus;
	if (o->checkpoint_interval_s < run * (1 - 1e-9))
		snprintf(every, sizeof(every), "a checkpoint every %s",
			 units_format(UNIT_DURATION, o->checkpoint_interval_s, NULL,
				      wall_h, sizeof(wall_h)));
	else
		snprintf(every, sizeof(every), "no checkpoint before the end");
	fprintf(out, "Goodput %.1f%% (%.1f%% to %.1f%%) on %ld GPU%s: %s GPU-hours of wall clock for %s of compute; %s, a failure every %s.\n\n",
		100 * o->goodput, 100 * o->goodput_low, 100 * o->goodput_high,
		o->gpus, o->gpus == 1 ? "" : "s", wall, compute, every, mtbf);
}

static int emit_table(struct emit_ctx *e, const struct plan *p,
		      const struct plan_result *r)
{
	const struct workload *w = r->w;
	size_t feasible = 0;
	for (size_t i = 0; i < r->n; i++)
		feasible += r->v[i].feasible;
	char traffic[512] = "";
	const struct request_trace *t =
		w->kind == WORKLOAD_INFERENCE ? w->infer.trace : NULL;
	if (t)
		snprintf(traffic, sizeof(traffic), ", trace %s: %ld requests%s",
			 w->infer.trace_file, t->n,
			 t->arrival ? "" : " (lengths only)");
	const struct engine_config *eng =
		w->kind == WORKLOAD_INFERENCE ? &w->infer.engine : NULL;
	if (eng && eng->e) {
		size_t used = strlen(traffic);
		/* the default one unless the workload named it (`engine:`) */
		snprintf(traffic + used, sizeof(traffic) - used, ", %s %s %s",
			 w->infer.engine_named ? "engine" : "default engine",
			 eng->e->name, eng->e->version);
	}
	fprintf(e->out, "== %s  (%s, %s, %s%s)  %zu options, %zu feasible, costs in %s\n",
		w->name, workload_kind_name(w->kind), w->model->name,
		precision_name(w->precision), traffic, r->n, feasible,
		p->settings.currency);
	fprintf(e->out, "%s\n\n", r->why ? r->why : "");
	goodput_line(e->out, r);
	if (p->settings.carried)
		sample_lines(e->out, p, r);
	size_t *idx = xcalloc((size_t)p->settings.top + 1, sizeof(size_t));
	size_t shown = rank_options(&p->settings, r, (size_t)p->settings.top, idx);
	if (w->kind == WORKLOAD_TRAINING)
		training_table(e->out, r, idx, shown);
	else
		serving_table(e->out, r, idx, shown);
	free(idx);
	fputc('\n', e->out);
	return 0;
}

/* The plan CSV's columns: every column of the table, split into single
 * values, empty where they do not apply (training has no replicas, a
 * service no pipeline). */
static const char *const csv_header[] = {"workload", "kind", "provider",
	"region", "instance", "nodes", "gpus", "accelerator", "mig_profile",
	"slices", "dp", "tp", "pp", "interleave", "micro_batch", "zero",
	"recompute", "replicas", "batch", "feasible", "time_s", "p99_latency_s",
	"cost", "cost_spot", "cost_period", "cost_per_million", "currency",
	"gpu_hours", "gpu_hours_compute", "goodput", "memory_per_gpu_bytes",
	"mfu", "pareto", "recommended", "reasons"};
enum { CSV_COLS = sizeof(csv_header) / sizeof(csv_header[0]) };

/* Cells of one row, each its own buffer: plain decimal numbers can be
 * long (num_format.h). */
struct csv_row {
	char cell[CSV_COLS][NUM_PLAIN_MAX];
	const char *v[CSV_COLS];
};

static void csv_text(struct csv_row *r, int col, const char *text)
{
	snprintf(r->cell[col], sizeof(r->cell[col]), "%s", text ? text : "");
}

static void csv_long(struct csv_row *r, int col, long v)
{
	snprintf(r->cell[col], sizeof(r->cell[col]), "%ld", v);
}

/* A quantity in plain decimal, the shortest digits that read back. */
static void csv_real(struct csv_row *r, int col, double v)
{
	num_plain(v, r->cell[col]);
}

/* Money in cents, as the table has it; in plain decimal from 1e15 on. */
static void csv_money(struct csv_row *r, int col, double v)
{
	if (v >= 1e15)
		num_plain(v, r->cell[col]);
	else
		snprintf(r->cell[col], sizeof(r->cell[col]), "%.2f", v);
}

static void csv_reasons(const struct plan_option *o, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int k = 0; k < o->n_reasons; k++) {
		char one[PLAN_REASON_LEN];
		plan_reason_format(o, k, one, sizeof(one));
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s", k ? "; " : "", one);
	}
}

/* Training's columns: the layout, the run time and MFU. */
static void csv_training(struct csv_row *row, const struct plan_option *o)
{
	csv_long(row, 10, o->dp);
	csv_long(row, 11, o->tp);
	csv_long(row, 12, o->pp);
	csv_long(row, 13, o->interleave);
	csv_long(row, 14, o->micro_batch);
	csv_long(row, 15, o->zero);
	csv_text(row, 16, recompute_name(o->recompute));
	csv_real(row, 20, o->time_s);
	csv_text(row, 24, "run");
	csv_real(row, 28, o->gpu_hours_compute);
	csv_real(row, 29, o->goodput);
	csv_real(row, 31, o->mfu);
}

/* Serving's columns: replicas, batch, p99 and the price of a million. */
static void csv_serving(struct csv_row *row, const struct plan_option *o,
			bool priced)
{
	csv_long(row, 17, o->replicas);
	csv_long(row, 18, o->batch);
	csv_real(row, 21, o->p99_latency_s);
	csv_text(row, 24, "month");
	if (priced)
		csv_money(row, 25, o->cost_per_million);
}

static void emit_csv(struct emit_ctx *e, const struct plan *p,
		     const struct plan_result *r)
{
	if (!e->csv_started) {
		table_init(&e->csv, CSV_COLS, csv_header);
		e->csv_started = true;
	}
	struct csv_row *row = xcalloc(1, sizeof(*row));
	char *reasons = xmalloc(PLAN_MAX_REASONS * (PLAN_REASON_LEN + 2));
	for (size_t i = 0; i < r->n; i++) {
		const struct plan_option *o = &r->v[i];
		memset(row, 0, sizeof(*row));
		bool priced = !unpriced(o);
		csv_text(row, 0, r->w->name);
		csv_text(row, 1, workload_kind_name(r->w->kind));
		csv_text(row, 2, o->inst->provider);
		csv_text(row, 3, o->inst->region);
		csv_text(row, 4, o->inst->name);
		csv_long(row, 5, o->nodes);
		csv_long(row, 6, o->gpus);
		csv_text(row, 7, o->inst->acc->name);
		csv_text(row, 8, o->sharing);
		if (o->sharing[0])
			csv_long(row, 9, o->gpus);
		if (r->w->kind == WORKLOAD_TRAINING)
			csv_training(row, o);
		else
			csv_serving(row, o, priced);
		csv_text(row, 19, o->feasible ? "true" : "false");
		if (priced)
			csv_money(row, 22, o->cost);
		if (priced && o->has_spot)
			csv_money(row, 23, o->cost_spot);
		csv_text(row, 26, p->settings.currency);
		csv_real(row, 27, o->gpu_hours);
		csv_real(row, 30, o->memory_per_gpu);
		csv_text(row, 32, o->pareto ? "true" : "false");
		csv_text(row, 33, (long)i == r->recommended ? "true" : "false");
		csv_reasons(o, reasons, PLAN_MAX_REASONS * (PLAN_REASON_LEN + 2));
		for (int c = 0; c < CSV_COLS; c++)
			row->v[c] = row->cell[c];
		row->v[34] = reasons;
		table_add_row(&e->csv, row->v);
	}
	free(reasons);
	free(row);
}

/* One workload's result, an option at a time: the bytes of
 * plan_result_json, without ever holding every option's tree. */
static void emit_json_result(struct json_stream *doc, const struct plan *p,
			     const struct plan_result *r)
{
	struct json_stream opts;
	json_t *head = plan_result_head_json(p, r);
	json_stream_begin(&opts, doc->f, json_stream_next(doc), head, "options");
	json_decref(head);
	for (size_t i = 0; i < r->n; i++) {
		json_t *o = plan_option_json(p, r, i);
		json_stream_item(&opts, o);
		json_decref(o);
	}
	json_stream_end(&opts);
}

static int emit(void *ctx, const struct plan *p, const struct plan_result *r)
{
	struct emit_ctx *e = ctx;
	if (e->prom)
		plan_prom_add(e->prom, r);
	if (e->fmt == FORMAT_JSON) {
		if (!e->json_started) {
			json_t *head = plan_header_json(p);
			json_object_del(head, "workloads");
			json_stream_begin(&e->json, e->out, 0, head, "workloads");
			json_decref(head);
			e->json_started = true;
		}
		emit_json_result(&e->json, p, r);
		return 0;
	}
	if (e->want_doc) {
		if (!e->doc)
			e->doc = plan_header_json(p);
		json_array_append_new(json_object_get(e->doc, "workloads"),
				      plan_result_json(p, r));
	}
	if (e->fmt == FORMAT_TABLE)
		return emit_table(e, p, r);
	if (e->fmt == FORMAT_CSV)
		emit_csv(e, p, r);
	return 0;
}

/* The report's options, checked before any planning: --lang and --title
 * without --report would be silently ignored, so they are an error.  The
 * PNG charts go beside the PDF: *png_dir (the caller frees it). */
static int read_report_options(const struct parsed *p, struct report_options *o,
			       char **png_dir)
{
	int rc = report_options_read(p, &plan_spec, o);
	*png_dir = NULL;
	if (rc)
		return rc;
	o->pdf = opt_value(p, &plan_spec, "report");
	if (!o->pdf && (opt_value(p, &plan_spec, "lang") || o->title))
		return usage_error(&plan_spec,
				   "--lang and --title describe the report: add --report FILE");
	if (o->pdf)
		o->png_dir = *png_dir = path_dir(o->pdf);
	return 0;
}

/* Do a and b name the same file (the same inode when both exist)? */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return strcmp(a, b) == 0;
}

/*
 * Every target checked before any planning (the inputs are loaded by
 * now, so naming one of them is caught): -o, --prom and --report may
 * not be an input or a folder, nor the same file; -o's and --prom's
 * folders must exist and be writable (a report makes its own folders,
 * which may not be files).  0, or 2 after printing why.
 */
static int check_targets(const struct parsed *p, const struct report_options *ro)
{
	const char *out = opt_value(p, &plan_spec, "output");
	const char *prom = opt_value(p, &plan_spec, "prom");
	if (out && strcmp(out, "-") && out_file_usable("-o", out))
		return 2;
	if (prom) {
		bool plan_to_stdout = !out || !strcmp(out, "-");
		if (!strcmp(prom, "-") && plan_to_stdout)
			return usage_error(&plan_spec,
					   "--prom - and the plan would share standard output: write the plan with -o FILE");
		if (strcmp(prom, "-") && out_file_usable("--prom", prom))
			return 2;
		if (!plan_to_stdout && strcmp(prom, "-") && same_file(out, prom))
			return usage_error(&plan_spec, "-o and --prom name the same file '%s'",
					   prom);
		if (ro->pdf && strcmp(prom, "-") && same_file(ro->pdf, prom))
			return usage_error(&plan_spec, "--report and --prom name the same file '%s'",
					   prom);
	}
	if (!ro->pdf)
		return 0;
	if (out && strcmp(out, "-") && same_file(out, ro->pdf))
		return usage_error(&plan_spec, "-o and --report name the same file '%s'",
				   out);
	return report_check_targets(ro, "--report");
}

/*
 * The plan and its report as one run: the report's files and the -o
 * file staged into one set and renamed together, or none of them; the
 * plan on stdout (no -o) only once the report is in place.  The report
 * reads the plan's own JSON text when that is what -o or stdout gets, so
 * a message's line and column are the file's.
 */
static int deliver_with_report(struct output *o, const char *out,
			       enum out_format fmt, const struct report_options *ro,
			       const json_t *doc)
{
	struct r_plan plan;
	struct report_run run;
	char why[600];
	bool to_file = out && strcmp(out, "-") != 0;
	const char *name = to_file ? out : "the plan";
	fclose(o->f);
	o->f = NULL;
	int rc = fmt == FORMAT_JSON
		 ? r_plan_parse(&plan, o->data, o->len, name, true, why, sizeof(why))
		 : r_plan_from_json(&plan, doc, name, why, sizeof(why));
	if (rc < 0) {
		fprintf(stderr, "gpuplan: %s\n", why);
		free(o->data);
		o->data = NULL;
		return 1;
	}
	rc = report_stage(&run, &plan, ro);
	r_plan_free(&plan);
	if (rc == 0 && to_file) {
		int w = atomic_set_add(&run.set, out, o->data, o->len, why, sizeof(why));
		if (w != ATOMIC_OK) {
			fprintf(stderr, "gpuplan: %s\n", why);
			report_abort(&run);
			rc = w == ATOMIC_REFUSED ? 2 : 1;
		}
	}
	if (rc == 0)
		rc = report_commit(&run);
	if (rc == 0 && !to_file &&
	    (fwrite(o->data, 1, o->len, stdout) != o->len || fflush(stdout) != 0)) {
		fprintf(stderr, "gpuplan: cannot write to standard output\n");
		rc = 1;
	}
	free(o->data);
	o->data = NULL;
	return rc;
}

/* The Prometheus text, once the plan itself is delivered: 0, 1 or 2
 * after printing why (output_finish). */
static int write_prom(const struct plan_prom *prom, const char *path)
{
	struct output o;
	output_open(&o);
	plan_prom_emit(prom, o.f);
	return output_finish(&o, path);
}

static int run(const struct parsed *p, enum out_format fmt,
	       const struct catalog *c, const struct workload_file *wf,
	       const struct plan_settings *s, const struct report_options *ro)
{
	struct output o;
	const char *report = ro->pdf;
	const char *out = opt_value(p, &plan_spec, "output");
	/* With a report the plan's text is read back from memory; without
	 * one, -o FILE is written as the plan is made. */
	int opened = 0;
	if (report)
		output_open(&o);
	else
		opened = output_open_to(&o, out);
	if (opened)
		return opened;
	const char *prom_file = opt_value(p, &plan_spec, "prom");
	struct plan_prom prom;
	plan_prom_init(&prom, s->currency);
	struct emit_ctx e = {.fmt = fmt, .out = o.f,
			     .want_doc = fmt != FORMAT_JSON && report,
			     .prom = prom_file ? &prom : NULL};
	if (fmt == FORMAT_TABLE && s->carried)
		fprintf(o.f, "Calibrated with %s: %s.\n\n", s->carried->cal->file,
			s->carried->note);
	struct plan plan;
	char why[512];
	if (plan_run_each(&plan, c, wf, s, emit, &e, why, sizeof(why)) < 0) {
		fprintf(stderr, "gpuplan: %s\n", why);
		output_discard(&o);
		json_decref(e.doc);
		if (e.csv_started)
			table_free(&e.csv);
		plan_prom_free(&prom);
		return 2;
	}
	if (e.json_started)
		json_stream_end(&e.json);
	if (fmt == FORMAT_CSV && e.csv_started)
		table_print_csv(&e.csv, o.f);
	if (e.csv_started)
		table_free(&e.csv);
	int rc = report && (e.doc || e.json_started)
			 ? deliver_with_report(&o, out, fmt, ro, e.doc)
			 : output_finish(&o, out);
	json_decref(e.doc);
	if (rc == 0 && prom_file)
		rc = write_prom(&prom, prom_file);
	plan_prom_free(&prom);
	return rc;
}

/* --profile: the calibration (cal, *k filled; s->eff changed where it
 * carries).  0, or 2 after printing why. */
static int read_profile(const struct parsed *p, const struct catalog *c,
			struct calibration *cal, struct carried *k,
			struct plan_settings *s)
{
	const char *file = opt_value(p, &plan_spec, "profile");
	const char *acc = opt_value(p, &plan_spec, "profile-accelerator");
	if (!file) {
		if (acc)
			return usage_error(&plan_spec,
					   "--profile-accelerator names the device of a profile: add --profile FILE");
		return 0;
	}
	struct gp_errors errs;
	gp_errors_init(&errs);
	int rc = calibration_load(cal, file, file, &errs);
	if (rc < 0) {
		rc = cli_report_problems(&errs);
		gp_errors_free(&errs);
		return rc;
	}
	gp_errors_free(&errs);
	char why[600];
	if (calibrate_carry(cal, c, acc, &s->eff, k, why, sizeof(why)) < 0)
		return usage_error(&plan_spec, "%s", why);
	s->carried = k;
	return 0;
}

int cmd_plan(int argc, char **argv)
{
	struct calibration cal;
	struct carried carried;
	memset(&cal, 0, sizeof(cal));
	struct parsed p;
	enum out_format fmt = FORMAT_TABLE;
	struct catalog c;
	struct workload_file wf;
	struct plan_settings s;
	struct report_options ro;
	char *png_dir = NULL;
	struct instance_choice choice;
	memset(&choice, 0, sizeof(choice));
	catalog_init(&c);
	memset(&wf, 0, sizeof(wf));
	int rc = opts_parse(&plan_spec, argc, argv, &p);
	if (rc != OPTS_OK || (rc = cli_format(&p, &plan_spec, &fmt)) ||
	    (rc = cli_one_stdin_of(&p, &plan_spec, plan_files, false)) ||
	    (rc = read_report_options(&p, &ro, &png_dir)) ||
	    (rc = read_settings(&p, &s)) ||
	    (rc = cli_load_catalog(&p, &plan_spec, &c)) ||
	    (rc = read_instance_choice(&p, &c, &choice, &s)) ||
	    (rc = read_profile(&p, &c, &cal, &carried, &s)) ||
	    (rc = cli_load_workloads(opt_value(&p, &plan_spec, "workload"), &wf)))
		goto out;
	if ((rc = check_instances(&c, &wf, &s)) || (rc = check_targets(&p, &ro)))
		goto out;
	catalog_label_instances(&c, spans_regions(&c, &wf, &s));
	rc = run(&p, fmt, &c, &wf, &s, &ro);
out:
	instance_choice_free(&choice);
	free(png_dir);
	workload_file_free(&wf);
	calibration_free(&cal);
	catalog_free(&c);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

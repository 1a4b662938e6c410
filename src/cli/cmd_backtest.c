/*
 * cmd_backtest.c - `gpuplan backtest FILE...`: the planner against
 * recorded outcomes of real runs; a row per measurement with the
 * prediction and its error, then the mean and largest absolute error.
 * With --coverage LEVEL, whether the planner's LEVEL ranges hold
 * (backtest/coverage.h) instead of the rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backtest/backtest.h"
#include "backtest/coverage.h"
#include "backtest/coverage_print.h"
#include "commands.h"
#include "common.h"
#include "out_dirs.h"
#include "core/atomic_file.h"
#include "core/output.h"
#include "core/table.h"
#include "core/units.h"
#include "core/xalloc.h"

static const struct opt_spec backtest_opts[] = {
	{"catalog", 'c', OPT_LIST, "FILE",
	 "read these catalog files instead of the shipped ones"},
	{"max-error", 0, OPT_VALUE, "PCT",
	 "exit 1 when a row is outside its tolerance or beyond PCT (15 or 15%); records marked known_miss are reported, not failed"},
	{"max-mean-error", 0, OPT_VALUE, "PCT",
	 "exit 1 when the mean absolute error is beyond PCT"},
	{"coverage", 0, OPT_VALUE, "LEVEL",
	 "instead of the rows, the share of measurements inside the planner's LEVEL ranges (50 to below 100, like 80 or 80%), overall, by stratum and by source"},
	{"coverage-min", 0, OPT_VALUE, "SHARE",
	 "with --coverage: exit 1 when the share overall, or in a stratum of 5 or more records, is below SHARE (0.75 or 75%)"},
	{"format", 'f', OPT_VALUE, "FMT",
	 "table, csv or json (default: table; with --coverage table, json or markdown)"},
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec backtest_spec = {
	"backtest", "OUTCOME...",
	"Predict recorded training runs with the planner and show the error.",
	backtest_opts, 1, -1,
	"Each OUTCOME file (schema gpuplan/outcome/v1, see README.md 'Backtest')\n"
	"records completed runs: the training, the hardware, the layout if known,\n"
	"what was measured and where it was published.  Each run is planned on\n"
	"exactly its hardware, with its layout where it gives one, and each\n"
	"measurement is compared in its own terms (flops_per_gpu as a step time,\n"
	"counted as the record says).  error = predicted / measured - 1.\n"
	"--coverage LEVEL plans each run with its ranges at LEVEL and counts the\n"
	"measurements inside them: one per record and quantity kind (the step,\n"
	"or the whole run), overall and by GPU generation, precision, ZeRO stage,\n"
	"data-parallel width and kind, each share with its exact 95% interval\n"
	"(Clopper-Pearson), the ranges' mean width and the misses by side; then\n"
	"each source (a record's first source URL) and the overall share with it\n"
	"left out.\n"
	"Exit status: 0; 1 with --max-error or --max-mean-error when a row or the\n"
	"mean is beyond its limit, or with --coverage-min when a share is below\n"
	"it (after the output is written); 2 for bad input.",
};

/* ---- options ---- */

/* A percentage option: "15" or "15%", above 0 and at most 1000. */
static int read_limit(const struct parsed *p, const char *name, bool *set,
		      double *out)
{
	const char *v = opt_value(p, &backtest_spec, name);
	*set = v != NULL;
	if (!v)
		return 0;
	bool percent;
	double x = 0;
	if (!opt_number_or_percent(v, &x, &percent) || !(x > 0 && x <= 1000))
		return usage_error(&backtest_spec,
				   "--%s expects a percentage above 0 and at most 1000, like 15 or 15%%, found '%s'",
				   name, v);
	*out = x / 100;
	return 0;
}

/* --coverage LEVEL: "80" or "80%", at least 50 and below 100 (a range
 * meant to hold less often than not says nothing; 100% has no finite
 * ends).  Into *level as a probability; 0 when not given. */
static int read_level(const struct parsed *p, double *level)
{
	const char *v = opt_value(p, &backtest_spec, "coverage");
	*level = 0;
	if (!v)
		return 0;
	bool percent;
	double x = 0;
	if (!opt_number_or_percent(v, &x, &percent) || !(x >= 50 && x < 100))
		return usage_error(&backtest_spec,
				   "--coverage expects a percentage from 50 to below 100, like 80 or 80%%, found '%s'",
				   v);
	*level = x / 100;
	return 0;
}

/* --coverage-min SHARE: a fraction above 0 and at most 1 ("0.75") or a
 * percentage ("75%"); a bare number above 1 is refused, not read as a
 * percentage (2 would be a gate nothing passes or a 2% gate).  Into *min
 * as a fraction; -1 when not given. */
static int read_min_share(const struct parsed *p, bool coverage, double *min)
{
	const char *v = opt_value(p, &backtest_spec, "coverage-min");
	*min = -1;
	if (!v)
		return 0;
	if (!coverage)
		return usage_error(&backtest_spec,
				   "--coverage-min needs --coverage LEVEL (the level whose ranges it holds)");
	bool percent;
	double x = 0;
	bool ok = opt_number_or_percent(v, &x, &percent);
	if (ok && percent)
		x /= 100;
	if (!ok || !(x > 0 && x <= 1))
		return usage_error(&backtest_spec,
				   "--coverage-min expects a share above 0 and at most 1, like 0.75 or 75%%, found '%s'",
				   v);
	*min = x;
	return 0;
}

/* The rows take table, csv or json; the coverage table, json or
 * markdown. */
static int read_format(const struct parsed *p, bool coverage,
		       enum out_format *fmt, bool *markdown)
{
	*fmt = FORMAT_TABLE;	/* the human table unless asked: DESIGN.md */
	*markdown = false;
	const char *v = opt_value(p, &backtest_spec, "format");
	if (!v)
		return 0;
	if (!strcmp(v, "markdown") || !strcmp(v, "csv")) {
		bool md = v[0] == 'm';
		if (md != coverage)
			return usage_error(&backtest_spec,
					   "--format %s %s --coverage: the rows are table, csv or json, the coverage table, json or markdown",
					   v, md ? "needs" : "does not go with");
		*markdown = md;
		*fmt = md ? FORMAT_TABLE : FORMAT_CSV;
		return 0;
	}
	return cli_format(p, &backtest_spec, fmt);
}

/* ---- loading ---- */

/* Every file against c; every problem of every file printed: 0 or 2. */
static int load_all(const struct parsed *p, const struct catalog *c,
		    struct outcome_file *files)
{
	struct gp_errors errs;
	gp_errors_init(&errs);
	int bad = 0;
	for (size_t i = 0; i < p->nargs; i++)
		bad |= outcome_file_load(&files[i], p->args[i], c, &errs) < 0;
	int rc = bad ? cli_report_problems(&errs) : 0;
	gp_errors_free(&errs);
	return rc;
}

static int check_target(const struct parsed *p)
{
	const char *out = opt_value(p, &backtest_spec, "output");
	if (out && strcmp(out, "-") && out_file_usable("-o", out))
		return 2;
	return 0;
}

/* ---- cells ---- */

static void pct(double fraction, bool sign, char *buf, size_t len)
{
	snprintf(buf, len, sign ? "%+.1f%%" : "%.1f%%", 100 * fraction);
}

/* A value of measurement m in its own unit: "3.53 s", "137 TFLOP/s". */
static void value_cell(enum measure m, double v, char *buf, size_t len)
{
	char a[48];
	switch (m) {
	case MEASURE_STEP_TIME:
		snprintf(buf, len, "%s", units_format(UNIT_DURATION, v, NULL, a, sizeof(a)));
		break;
	case MEASURE_FLOPS_PER_GPU:
		snprintf(buf, len, "%s", units_format(UNIT_COMPUTE, v, NULL, a, sizeof(a)));
		break;
	case MEASURE_TOKENS_PER_S:
	case MEASURE_OUTPUT_TOKENS_PER_S:
	case MEASURE_TOTAL_TOKENS_PER_S:
		snprintf(buf, len, "%s tokens/s", units_format(UNIT_COUNT, v, NULL, a, sizeof(a)));
		break;
	case MEASURE_MFU:
		pct(v, false, buf, len);
		break;
	case MEASURE_GPU_HOURS:
		snprintf(buf, len, "%s GPU-h", units_format(UNIT_COUNT, v, NULL, a, sizeof(a)));
		break;
	case MEASURE_DAYS:
		snprintf(buf, len, "%.4g d", v);
		break;
	case MEASURE_REQUESTS_PER_S:
		snprintf(buf, len, "%s requests/s", units_format(UNIT_COUNT, v, NULL, a, sizeof(a)));
		break;
	case MEASURE_SAMPLES_PER_S:
		snprintf(buf, len, "%s samples/s", units_format(UNIT_COUNT, v, NULL, a, sizeof(a)));
		break;
	default:	/* the latencies */
		if (measure_is_latency(m))
			snprintf(buf, len, "%s", units_format(UNIT_DURATION, v, NULL, a, sizeof(a)));
		else
			buf[0] = '\0';
		break;
	}
}

/* flops_per_gpu is compared as a step time: both cells say it. */
static void compared_cell(const struct backtest_row *row, bool measured,
			  char *buf, size_t len)
{
	char v[64], s[48];
	double own = measured ? row->measured : row->predicted_own;
	value_cell(row->m, own, v, sizeof(v));
	if (row->m != MEASURE_FLOPS_PER_GPU || !row->predicted) {
		snprintf(buf, len, "%s", v);
		return;
	}
	units_format(UNIT_DURATION, measured ? row->measured_cmp : row->predicted_cmp,
		     NULL, s, sizeof(s));
	snprintf(buf, len, "%s (step %s)", v, s);
}

/* "tp 2 pp 4 dp 8 mb 1 v 2", a '*' on each degree the planner chose. */
static void layout_cell(const struct backtest_row *row, char *buf, size_t len)
{
	const struct outcome_serving *sv = &row->o->sv;
	if (row->o->serving) {
		if (sv->load.arrivals == CB_CLOSED)
			snprintf(buf, len, "tp %ld, %ld clients", sv->tp, sv->load.clients);
		else if (sv->load.arrivals == CB_OFFLINE)
			snprintf(buf, len, "tp %ld, %ld at once", sv->tp, sv->load.requests);
		else
			snprintf(buf, len, "tp %ld, %.4g/s", sv->tp, sv->load.rate);
		return;
	}
	if (!row->predicted) {
		snprintf(buf, len, "-");
		return;
	}
	const struct train_layout *l = &row->o->w->train.layout;
	const struct backtest_plan *p = &row->plan;
	snprintf(buf, len, "tp %ld%s pp %ld%s dp %ld%s mb %ld%s", p->tp,
		 l->tp ? "" : "*", p->pp, l->pp ? "" : "*", p->dp,
		 l->dp ? "" : "*", p->micro_batch, l->micro_batch ? "" : "*");
	if (p->interleave > 1 || l->interleave) {
		size_t n = strlen(buf);
		snprintf(buf + n, len - n, " v %ld%s", p->interleave,
			 l->interleave ? "" : "*");
	}
}

static void quantity_cell(const struct backtest_row *row, char *buf,
			  size_t len)
{
	if (row->m == MEASURE_FLOPS_PER_GPU)
		snprintf(buf, len, "%s (%s)", measure_name(row->m),
			 flops_counting_name(row->o->counted));
	else
		snprintf(buf, len, "%s", measure_name(row->m));
}

/* ---- table ---- */

static void print_table(FILE *out, const struct backtest *bt)
{
	static const char *const header[] = {"RECORD", "GPUS", "LAYOUT",
		"QUANTITY", "MEASURED", "PREDICTED", "ERROR", "WITHIN", "NOTE"};
	struct table t;
	table_init(&t, 9, header);
	for (int c = 4; c < 7; c++)
		table_right_align(&t, (size_t)c);
	for (size_t i = 0; i < bt->n; i++) {
		const struct backtest_row *row = &bt->v[i];
		const struct outcome *o = row->o;
		char gpus[320], layout[96], q[64], meas[128], pred[128],
			err[32] = "-", within[48];
		snprintf(gpus, sizeof(gpus), "%ld x %s", o->gpus, o->inst->acc->name);
		layout_cell(row, layout, sizeof(layout));
		quantity_cell(row, q, sizeof(q));
		compared_cell(row, true, meas, sizeof(meas));
		if (row->predicted) {
			compared_cell(row, false, pred, sizeof(pred));
			pct(row->error, true, err, sizeof(err));
		} else
			snprintf(pred, sizeof(pred), "-");
		snprintf(within, sizeof(within), "%s (%.3g%%)%s",
			 row->within ? "yes" : "NO", 100 * row->tolerance,
			 o->known_miss && !row->within ? " known miss" : "");
		const char *cells[] = {o->name, gpus, layout, q, meas, pred,
				       err, within,
				       row->predicted ? "" : row->reason};
		table_add_row(&t, cells);
	}
	table_print(&t, out);
	table_free(&t);
}

static void print_summary(FILE *out, const struct backtest *bt)
{
	char a[32];
	fprintf(out, "\n* the planner's choice where the record gives no layout\n");
	if (bt->n_predicted == 0) {
		fprintf(out, "mean |error|: - (nothing predicted; %zu rows not predicted)\n",
			bt->n_failed);
		return;
	}
	pct(bt->mean_abs_error, false, a, sizeof(a));
	fprintf(out, "mean |error|: %s over %zu predicted rows (%zu within tolerance",
		a, bt->n_predicted, bt->n_within);
	if (bt->n_failed)
		fprintf(out, "; %zu not predicted", bt->n_failed);
	fprintf(out, ")\n");
	if (bt->n_held < bt->n_predicted) {
		pct(bt->mean_abs_error_held, false, a, sizeof(a));
		fprintf(out, "mean |error| of the %zu rows held to their tolerance (known misses aside): %s\n",
			bt->n_held, bt->n_held ? a : "-");
	}
	const struct backtest_row *m = &bt->v[bt->max_row];
	pct(bt->max_abs_error, false, a, sizeof(a));
	fprintf(out, "largest |error|: %s (%s, %s)\n", a, m->o->name,
		measure_name(m->m));
}

/* ---- CSV ---- */

static void num(char *buf, size_t len, bool valid, double v)
{
	if (valid)
		snprintf(buf, len, "%.6g", v);
	else
		buf[0] = '\0';
}

static void print_csv(FILE *out, const struct backtest *bt)
{
	static const char *const header[] = {"record", "instance",
		"accelerator", "gpus", "nodes", "tp", "pp", "dp", "micro_batch",
		"interleave", "layout_from_record", "quantity", "flops_counted",
		"measured", "measured_compared", "predicted",
		"predicted_compared", "error", "tolerance", "within_tolerance",
		"reason"};
	struct table t;
	table_init(&t, 21, header);
	for (size_t i = 0; i < bt->n; i++) {
		const struct backtest_row *row = &bt->v[i];
		const struct outcome *o = row->o;
		const struct backtest_plan *p = &row->plan;
		const struct train_layout *l = &o->w->train.layout;
		bool ok = row->predicted;
		char f[14][40];
		snprintf(f[0], 40, "%ld", o->gpus);
		snprintf(f[1], 40, "%ld", o->nodes);
		num(f[2], 40, ok, (double)p->tp);
		num(f[3], 40, ok, (double)p->pp);
		num(f[4], 40, ok, (double)p->dp);
		num(f[5], 40, ok, (double)p->micro_batch);
		num(f[6], 40, ok, (double)p->interleave);
		snprintf(f[7], 40, "%s%s%s%s%s", l->tp ? "tp " : "",
			 l->pp ? "pp " : "", l->dp ? "dp " : "",
			 l->micro_batch ? "mb " : "", l->interleave ? "v " : "");
		size_t n7 = strlen(f[7]);
		if (n7)
			f[7][n7 - 1] = '\0';
		num(f[8], 40, true, row->measured);
		num(f[9], 40, ok, row->measured_cmp);
		num(f[10], 40, ok, row->predicted_own);
		num(f[11], 40, ok, row->predicted_cmp);
		num(f[12], 40, ok, row->error);
		num(f[13], 40, true, row->tolerance);
		const char *cells[] = {o->name,
			o->is_inline ? "" : o->inst->label, o->inst->acc->name,
			f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7],
			measure_name(row->m),
			row->m == MEASURE_FLOPS_PER_GPU
				? flops_counting_name(o->counted) : "",
			f[8], f[9], f[10], f[11], f[12], f[13],
			row->within ? "true" : "false",
			ok ? "" : row->reason};
		table_add_row(&t, cells);
	}
	table_print_csv(&t, out);
	table_free(&t);
}

/* ---- the verdict ---- */

/* 1 when a limit asked for is broken (said on stderr), else 0. */
static int verdict(const struct backtest *bt, bool has_max, double max,
		   bool has_mean, double mean)
{
	int rc = 0;
	if (has_max) {
		size_t outside = 0;
		for (size_t i = 0; i < bt->n; i++) {
			const struct backtest_row *row = &bt->v[i];
			if (row->o->known_miss)
				continue;	/* printed, counted in the mean */
			outside += !row->predicted || !row->within ||
				   fabs(row->error) > max;
		}
		if (outside) {
			fprintf(stderr,
				"gpuplan: %zu of %zu rows (known misses aside) outside their tolerance or --max-error %.4g%% (or not predicted)\n",
				outside, bt->n, 100 * max);
			rc = 1;
		}
	}
	if (has_mean && (bt->n_predicted == 0 || bt->mean_abs_error > mean)) {
		fprintf(stderr,
			"gpuplan: mean |error| %.1f%% is beyond --max-mean-error %.4g%%\n",
			100 * bt->mean_abs_error, 100 * mean);
		rc = 1;
	}
	return rc;
}

/* What the command was asked for beyond the files. */
struct backtest_ask {
	enum out_format fmt;
	bool markdown;		/* --format markdown (with coverage) */
	double level;		/* --coverage; 0: the rows */
	double min_share;	/* --coverage-min; -1: no gate */
};

/* The coverage report; *below (with the reason) when --coverage-min is
 * not met. */
static void print_coverage(FILE *out, const struct backtest *bt,
			  const struct backtest_ask *ask, bool *below,
			  char *why, size_t len)
{
	struct coverage cv;
	coverage_of(&cv, bt, ask->level);
	if (ask->fmt == FORMAT_JSON) {
		json_t *j = coverage_json(&cv);
		json_write(out, j);
		json_decref(j);
	} else
		coverage_print(out, &cv, ask->markdown);
	*below = ask->min_share >= 0 &&
		 coverage_below(&cv, ask->min_share, why, len);
	coverage_free(&cv);
}

static int run(const struct parsed *p, const struct backtest_ask *ask,
	       const struct catalog *c, const struct outcome_file *files)
{
	struct backtest bt;
	memset(&bt, 0, sizeof(bt));
	bt.range_level = ask->level;
	for (size_t i = 0; i < p->nargs; i++)
		backtest_file(&bt, c, &files[i]);
	struct output o;
	output_open(&o);
	enum out_format fmt = ask->fmt;
	bool below = false;
	char why[1200] = "";
	if (ask->level > 0)
		print_coverage(o.f, &bt, ask, &below, why, sizeof(why));
	else if (fmt == FORMAT_JSON) {
		json_t *j = backtest_json(&bt);
		json_write(o.f, j);
		json_decref(j);
	} else if (fmt == FORMAT_CSV)
		print_csv(o.f, &bt);
	else {
		print_table(o.f, &bt);
		print_summary(o.f, &bt);
	}
	int rc = output_finish(&o, opt_value(p, &backtest_spec, "output"));
	bool has_max, has_mean;
	double max = 0, mean = 0;
	read_limit(p, "max-error", &has_max, &max);
	read_limit(p, "max-mean-error", &has_mean, &mean);
	if (rc == 0) {
		rc = verdict(&bt, has_max, max, has_mean, mean);
		if (below) {
			fprintf(stderr, "gpuplan: %s\n", why);
			rc = 1;
		}
	}
	backtest_free(&bt);
	return rc;
}

int cmd_backtest(int argc, char **argv)
{
	struct parsed p;
	struct backtest_ask ask;
	struct catalog c;
	struct outcome_file *files = NULL;
	bool set;
	double limit;
	catalog_init(&c);
	int rc = opts_parse(&backtest_spec, argc, argv, &p);
	if (rc != OPTS_OK || (rc = read_level(&p, &ask.level)) ||
	    (rc = read_min_share(&p, ask.level > 0, &ask.min_share)) ||
	    (rc = read_format(&p, ask.level > 0, &ask.fmt, &ask.markdown)) ||
	    (rc = cli_one_stdin_of(&p, &backtest_spec, (const char *const[]){"catalog", NULL}, true)) ||
	    (rc = read_limit(&p, "max-error", &set, &limit)) ||
	    (rc = read_limit(&p, "max-mean-error", &set, &limit)) ||
	    (rc = cli_load_catalog(&p, &backtest_spec, &c)))
		goto out;
	files = xcalloc(p.nargs + 1, sizeof(*files));
	if ((rc = load_all(&p, &c, files)) || (rc = check_target(&p)))
		goto out;
	rc = run(&p, &ask, &c, files);
out:
	for (size_t i = 0; files && i < p.nargs; i++)
		outcome_file_free(&files[i]);
	free(files);
	catalog_free(&c);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

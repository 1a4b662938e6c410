/*
 * cmd_compare.c - `gpuplan compare BEFORE AFTER`: two run records, two
 * measured profiles or two plans (the kind read from each file's schema),
 * compared with significance (runs, profiles) or as a cost diff (plans).
 * JSON is the canonical output; the table and Markdown are drawn from it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "common.h"
#include "out_dirs.h"
#include "compare/carry.h"
#include "compare/compare_plans.h"
#include "compare/compare_print.h"
#include "compare/compare_profiles.h"
#include "compare/compare_runs.h"
#include "core/atomic_file.h"
#include "core/file_read.h"
#include "core/xalloc.h"
#include "core/output.h"
#include "core/yaml_tree.h"
#include "profile/profile.h"
#include "report/compare_chart.h"
#include "report/plan_load.h"
#include "report/report.h"
#include "report/report_data.h"
#include "report/text.h"
#include "run/record.h"

static const struct opt_spec compare_opts[] = {
	{"format", 'f', OPT_VALUE, "FMT", "table, json or markdown (default: table)"},
	{"plan", 0, OPT_VALUE, "PLAN.json",
	 "runs: carry the change into this plan's recommended option (time and cost)"},
	{"workload", 0, OPT_VALUE, "NAME", "with --plan: the workload (default: the first with a recommendation)"},
	{"carry", 0, OPT_VALUE, "METRIC",
	 "with --plan: the metric whose change is the job's (default wall_time_s)"},
	{"report", 0, OPT_VALUE, "FILE",
	 "also draw the changes with their intervals (plans: cost before and after) as FILE.pdf, FILE.png or FILE.svg"},
	{"fail-above", 0, OPT_VALUE, "PCT",
	 "plans: exit 1 when a total planned spend rises by more than PCT (10 or 10%)"},
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec compare_spec = {
	"compare", "BEFORE AFTER",
	"Compare two run records, measured profiles or plans.",
	compare_opts, 2, 2,
	"Runs (gpuplan run) and measured profiles (gpuplan bench): for every\n"
	"metric in both, the change of the mean with its 95% interval (Welch),\n"
	"the ratio after/before (delta-method interval), the p-value and a\n"
	"verdict at 5%: better, worse or no significant change.  Plans (gpuplan\n"
	"plan --format json): per workload, the recommendation before and after\n"
	"and every option in both, then each plan's one-off and monthly spend.\n"
	"Plans in two currencies compare only through the exchange rates both\n"
	"carry (after converted to before's currency, the rate and its date\n"
	"said); otherwise they are refused.  A workload whose kind changed is\n"
	"listed, not compared (a cost per run is not a cost per month).\n"
	"Welch's test takes any finite values (1e-308 to 1e308 alike); a figure\n"
	"past a double's range is null with a note.\n"
	"Both files must be of one kind.\n"
	"Exit status: 0; 1 with --fail-above when spend rose past it (after the\n"
	"output is written); 2 for bad usage or input.",
};

enum kind { KIND_RUN, KIND_PROFILE, KIND_PLAN };
static const char *const kind_names[] = {"run record", "measured profile", "plan"};

struct input {
	const char *path;	/* as shown: "<stdin>" for "-" once read */
	enum kind kind;
	struct run_record run;
	struct bench_profile profile;
	struct r_plan plan;
	char *text;		/* a plan's JSON, kept for its exchange rates */
	size_t text_len;
	bool loaded;
};

/* ---- options ---- */

enum cmp_format { CMP_TABLE, CMP_JSON, CMP_MARKDOWN };

static int read_format(const struct parsed *p, enum cmp_format *f)
{
	const char *v = opt_value(p, &compare_spec, "format");
	*f = CMP_TABLE;
	if (!v || !strcmp(v, "table"))
		return 0;
	if (!strcmp(v, "json"))
		*f = CMP_JSON;
	else if (!strcmp(v, "markdown") || !strcmp(v, "md"))
		*f = CMP_MARKDOWN;
	else
		return usage_error(&compare_spec,
				   "unknown format '%s': expected table, json or markdown", v);
	return 0;
}

/* "10" or "10%", above 0 and at most 1000, as a fraction. */
static int read_pct(const struct parsed *p, bool *set, double *out)
{
	const char *v = opt_value(p, &compare_spec, "fail-above");
	*set = v != NULL;
	if (!v)
		return 0;
	double x;
	bool percent;
	if (!opt_number_or_percent(v, &x, &percent) || !(x > 0 && x <= 1000))
		return usage_error(&compare_spec,
				   "--fail-above expects a percentage above 0 and at most 1000, like 10 or 10%%, found '%s'",
				   v);
	*out = x / 100;
	return 0;
}

/* ---- loading ---- */

/* A YAML file's kind from its `schema:`; -1 with a message when it is
 * neither a run record nor a measured profile. */
static int yaml_kind(const struct ytree *t, enum kind *k)
{
	const struct ynode *s = t->root && t->root->kind == YNODE_MAP
		? ymap_get(t->root, "schema") : NULL;
	const char *v = s && s->kind == YNODE_SCALAR ? s->text : "";
	if (!strncmp(v, "gpuplan/run/", 12))
		*k = KIND_RUN;
	else if (!strncmp(v, "gpuplan/measured/", 17))
		*k = KIND_PROFILE;
	else
		return -1;
	return 0;
}

/* The file's bytes (standard input for "-"); 0, or 2 with why said.
 * A plan may be large (report_data.h's PLAN_MAX_BYTES); YAML is held to
 * yaml_tree.h's limit where it is parsed. */
static int read_text(const char *path, char **text, size_t *n)
{
	switch (file_read_all(path, PLAN_MAX_BYTES, text, n)) {
	case FILE_READ_OK:
		return 0;
	case FILE_READ_TOO_LARGE:
		fprintf(stderr, "gpuplan: %s: file too large: over %zu MiB\n",
			file_shown(path), PLAN_MAX_BYTES >> 20);
		return 2;
	default:
		fprintf(stderr, "gpuplan: %s: cannot %s: %s\n", file_shown(path),
			strcmp(path, "-") && access(path, R_OK) ? "open" : "read",
			strerror(errno));
		return 2;
	}
}

/* A plan is JSON: its first character past white space is '{'. */
static bool looks_json(const char *text, size_t n)
{
	size_t i = strspn(text, " \t\r\n");
	return i < n && text[i] == '{';
}

static int load_plan(struct input *in, const char *text, size_t n)
{
	char why[600];
	in->kind = KIND_PLAN;
	if (r_plan_parse(&in->plan, text, n, in->path, true, why, sizeof(why)) < 0) {
		fprintf(stderr, "gpuplan: %s\n", why);
		return 2;
	}
	in->loaded = true;
	return 0;
}

static int load_yaml(struct input *in, const char *text, size_t n)
{
	struct gp_errors errs;
	struct ytree t = {0};
	gp_errors_init(&errs);
	int rc = 0;
	if (n > YTREE_MAX_BYTES) {
		gp_errors_add(&errs, in->path, 0, 0, NULL, "file too large: over %u MiB",
			      YTREE_MAX_BYTES >> 20);
		rc = 2;
	} else if (ytree_parse(&t, in->path, text, n, &errs) < 0)
		rc = 2;
	if (!rc && yaml_kind(&t, &in->kind) < 0) {
		gp_errors_add(&errs, in->path, 1, 1,
			      "compare takes two run records (gpuplan run), measured profiles (gpuplan bench) or plans (gpuplan plan --format json)",
			      "not a run record, measured profile or plan");
		rc = 2;
	}
	if (!rc && in->kind == KIND_RUN)
		rc = run_record_read(&in->run, &t, &errs) < 0 ? 2 : 0;
	ytree_free(&t);
	if (!rc && in->kind == KIND_PROFILE)
		rc = bench_profile_parse(&in->profile, in->path, text, n, &errs) < 0 ? 2 : 0;
	if (rc)
		cli_report_problems(&errs);
	in->loaded = rc == 0;
	gp_errors_free(&errs);
	return rc;
}

static int load_both(const struct parsed *p, struct input in[2])
{
	if (!strcmp(p->args[0], "-") && !strcmp(p->args[1], "-"))
		return usage_error(&compare_spec, "standard input ('-') can be one of the two files, not both");
	for (int i = 0; i < 2; i++) {
		in[i].path = p->args[i];
		run_record_init(&in[i].run);
		bench_profile_init(&in[i].profile);
		char *text = NULL;
		size_t n = 0;
		int rc = read_text(in[i].path, &text, &n);
		/* named as every command names standard input from here on:
		 * in messages and in the comparison's "file" */
		in[i].path = file_shown(p->args[i]);
		if (!rc)
			rc = looks_json(text, n) ? load_plan(&in[i], text, n)
						 : load_yaml(&in[i], text, n);
		if (!rc && in[i].kind == KIND_PLAN) {
			in[i].text = text;
			in[i].text_len = n;
		} else {
			free(text);
		}
		if (rc)
			return rc;
	}
	if (in[0].kind != in[1].kind)
		return usage_error(&compare_spec,
				   "'%s' is a %s and '%s' a %s: compare takes two of one kind",
				   in[0].path, kind_names[in[0].kind], in[1].path,
				   kind_names[in[1].kind]);
	return 0;
}

static void free_input(struct input *in)
{
	free(in->text);
	run_record_free(&in->run);
	bench_profile_free(&in->profile);
	if (in->kind == KIND_PLAN && in->loaded)
		r_plan_free(&in->plan);
}

/* ---- the comparison ---- */

/* --plan: the change carried into the plan's money and time. */
static int carry(const struct parsed *p, json_t *j)
{
	const char *plan_file = opt_value(p, &compare_spec, "plan");
	const char *metric = opt_value(p, &compare_spec, "carry");
	if (!plan_file)
		return 0;
	struct r_plan plan;
	char why[600];
	if (r_plan_load(&plan, plan_file, why, sizeof(why)) < 0) {
		fprintf(stderr, "gpuplan: %s\n", why);
		return 2;
	}
	json_t *c = carry_into_plan(j, metric ? metric : WALL_TIME_METRIC, &plan,
				    plan_file, opt_value(p, &compare_spec, "workload"),
				    why, sizeof(why));
	r_plan_free(&plan);
	if (!c) {
		fprintf(stderr, "gpuplan: %s\n", why);
		return 2;
	}
	json_object_set_new(j, "carried", c);
	return 0;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n > t && strcmp(s + n - t, tail) == 0;
}

static int check_options(const struct parsed *p, enum kind k)
{
	bool runs = k != KIND_PLAN;
	if (!runs && opt_value(p, &compare_spec, "plan"))
		return usage_error(&compare_spec, "--plan carries a change of runs or profiles, not of plans");
	if (runs && opt_value(p, &compare_spec, "fail-above"))
		return usage_error(&compare_spec, "--fail-above applies to plans");
	if (!opt_value(p, &compare_spec, "plan") &&
	    (opt_value(p, &compare_spec, "workload") || opt_value(p, &compare_spec, "carry")))
		return usage_error(&compare_spec, "--workload and --carry go with --plan");
	const char *out = opt_value(p, &compare_spec, "output");
	if (out && strcmp(out, "-") && out_file_usable("-o", out))
		return 2;
	const char *rep = opt_value(p, &compare_spec, "report");
	if (rep && !strcmp(rep, "-")) {
		if (!out || !strcmp(out, "-"))
			return usage_error(&compare_spec, "--report - and the comparison would share standard output: write the comparison with -o FILE");
		if (isatty(STDOUT_FILENO))
			return usage_error(&compare_spec, "--report - writes a PDF to standard output, which is a terminal: redirect it or name a file");
		return 0;
	}
	if (rep && !ends_with(rep, ".png") && !ends_with(rep, ".svg") &&
	    !ends_with(rep, ".pdf"))
		return usage_error(&compare_spec, "--report expects a file ending in .pdf, .png or .svg, found '%s'", rep);
	if (rep && strcmp(rep, "-") && out_file_usable("--report", rep))
		return 2;
	return 0;
}

/* A PDF's date: when the after side was measured or run, or the after
 * plan's latest price date; never the wall clock, so the same inputs give
 * the same bytes. */
static void chart_date(const struct input *after, char *buf, size_t len)
{
	if (after->kind == KIND_RUN)
		snprintf(buf, len, "%s", after->run.when);
	else if (after->kind == KIND_PROFILE)
		snprintf(buf, len, "%s", after->profile.when);
	else
		report_plan_date(&after->plan, buf, len);
}

/* --report: the chart of j, written atomically.  0, or 1 (said). */
static int draw_report(const struct parsed *p, const json_t *j,
		       const struct input *after)
{
	const char *rep = opt_value(p, &compare_spec, "report");
	if (!rep)
		return 0;
	char why[600];
	struct report_font font;
	if (report_font_find(LANG_EN, &font, why, sizeof(why)) < 0) {
		fprintf(stderr, "gpuplan: --report: %s\n", why);
		report_fonts_shutdown();
		return 1;
	}
	size_t len = 0;
	char date[40];
	chart_date(after, date, sizeof(date));
	bool to_stdout = !strcmp(rep, "-");	/* a PDF: checked not a terminal */
	unsigned char *bytes = compare_chart(to_stdout ? "standard-output.pdf" : rep,
					     j, &font, date, &len, why, sizeof(why));
	int rc;
	if (bytes && to_stdout) {
		rc = fwrite(bytes, 1, len, stdout) == len && fflush(stdout) == 0 ? 0 : 1;
		if (rc)
			snprintf(why, sizeof(why), "cannot write to standard output");
	} else {
		rc = bytes && atomic_write(rep, bytes, len, why, sizeof(why)) == ATOMIC_OK ? 0 : 1;
	}
	if (rc)
		fprintf(stderr, "gpuplan: --report: %s\n", why);
	free(bytes);
	report_font_free(&font);
	report_fonts_shutdown();
	return rc;
}

/* Plans: after's money in before's currency, or why they cannot be
 * compared (plan_money.h).  0, or 2 said. */
static int money_bridge_of(const struct input in[2], struct money_bridge *m)
{
	memset(m, 0, sizeof(*m));
	m->factor = 1;
	if (in[0].kind != KIND_PLAN)
		return 0;
	char why[800];
	if (plan_money_bridge(in[0].text, in[0].text_len, in[0].plan.currency,
			      in[0].path, in[1].text, in[1].text_len,
			      in[1].plan.currency, in[1].path, m, why,
			      sizeof(why)) < 0) {
		fprintf(stderr, "gpuplan: compare: %s\n", why);
		return 2;
	}
	return 0;
}

static json_t *build(struct input in[2], const struct money_bridge *m)
{
	switch (in[0].kind) {
	case KIND_RUN:
		return compare_runs(&in[0].run, in[0].path, &in[1].run, in[1].path);
	case KIND_PROFILE:
		return compare_profiles(&in[0].profile, in[0].path, &in[1].profile,
					in[1].path);
	default:
		return compare_plans(&in[0].plan, in[0].path, &in[1].plan, in[1].path,
				     m);
	}
}

static void print_carry(const json_t *c, bool md, FILE *out)
{
	const char *cur = json_string_value(json_object_get(c, "currency"));
	double pct = json_number_value(json_object_get(c, "time_saved_pct"));
	double saving = json_number_value(json_object_get(c, "saving"));
	const json_t *si = json_object_get(c, "saving_interval");
	fprintf(out, "\n%s%s: this %s %.1f%% of the job's time, %.2f %s per %s at the recommended option (%lld GPUs on %s)",
		md ? "**Carried into the plan** " : "carried into the plan ",
		json_string_value(json_object_get(c, "workload")),
		pct >= 0 ? "saves" : "adds", fabs(pct), fabs(saving), cur,
		json_string_value(json_object_get(c, "cost_period")),
		json_integer_value(json_object_get(c, "gpus")),
		json_string_value(json_object_get(c, "instance")));
	if (json_is_array(si))
		fprintf(out, "; 95%% interval of the saving %.2f to %.2f %s",
			json_number_value(json_array_get(si, 0)),
			json_number_value(json_array_get(si, 1)), cur);
	fprintf(out, "\nassumption: %s\n",
		json_string_value(json_object_get(c, "assumption")));
}

static int emit(const struct parsed *p, enum cmp_format f, enum kind k,
		const json_t *j)
{
	struct output o;
	output_open(&o);
	if (f == CMP_JSON)
		json_write(o.f, j);
	else if (k == KIND_PLAN)
		compare_print_plans(j, f == CMP_MARKDOWN, o.f);
	else {
		compare_print_runs(j, f == CMP_MARKDOWN, o.f);
		if (json_object_get(j, "carried"))
			print_carry(json_object_get(j, "carried"), f == CMP_MARKDOWN, o.f);
	}
	return output_finish(&o, opt_value(p, &compare_spec, "output"));
}

static int fail_above(const json_t *j, double limit)
{
	char what[64];
	double rise = compare_plans_max_rise(j, what, sizeof(what));
	if (rise <= limit)
		return 0;
	fprintf(stderr, "gpuplan: planned %s rose by %.1f%%, more than --fail-above %.4g%%\n",
		what, 100 * rise, 100 * limit);
	return 1;
}

int cmd_compare(int argc, char **argv)
{
	struct parsed p;
	struct input in[2];
	enum cmp_format f;
	bool has_limit = false;
	double limit = 0;
	json_t *j = NULL;
	struct money_bridge money;
	memset(in, 0, sizeof(in));
	int rc = opts_parse(&compare_spec, argc, argv, &p);
	if (rc != OPTS_OK || (rc = read_format(&p, &f)) ||
	    (rc = read_pct(&p, &has_limit, &limit)) || (rc = load_both(&p, in)) ||
	    (rc = check_options(&p, in[0].kind)) ||
	    (rc = money_bridge_of(in, &money)))
		goto out;
	j = build(in, &money);
	if ((rc = carry(&p, j)) || (rc = emit(&p, f, in[0].kind, j)) ||
	    (rc = draw_report(&p, j, &in[1])))
		goto out;
	if (has_limit)
		rc = fail_above(j, limit);
out:
	json_decref(j);
	for (int i = 0; i < 2; i++)
		free_input(&in[i]);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

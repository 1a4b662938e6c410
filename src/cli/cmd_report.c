/*
 * cmd_report.c - `gpuplan report PLAN.json`: a plan as a PDF report and
 * PNG/SVG charts, in English or Chinese; and the report run that
 * `gpuplan plan --report` shares (report_cli.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "common.h"
#include "core/atomic_file.h"
#include "core/paths.h"
#include "core/term_safe.h"
#include "core/io_guard.h"
#include "core/xalloc.h"
#include "report/plan_load.h"
#include "report/report.h"
#include "report/report_charts.h"
#include "report/text.h"
#include "out_dirs.h"
#include "report_cli.h"

static const struct opt_spec report_opts[] = {
	{"output", 'o', OPT_VALUE, "FILE", "the PDF (default reports/plan.pdf); - is standard output"},
	{"png", 0, OPT_VALUE, "DIR", "also write each chart as a PNG into DIR"},
	{"svg", 0, OPT_VALUE, "DIR", "also write each chart as an SVG into DIR"},
	{"first-page-png", 0, OPT_VALUE, "FILE", "also write the PDF's first page as a PNG (a README's picture)"},
	{"lang", 0, OPT_VALUE, "LANG", "en or zh (default en)"},
	{"title", 0, OPT_VALUE, "TEXT", "the report's title"},
	{"rows", 0, OPT_VALUE, "N", "options per workload in the tables (default 40)"},
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec report_spec = {
	"report", "PLAN.json",
	"Render a plan (gpuplan plan --format json) as a PDF report and PNG/SVG charts.",
	report_opts, 1, 1,
	"The first page says what to rent per workload, for how long and at what\n"
	"cost, and the saving against the obvious choice; then the option tables,\n"
	"the charts and an appendix of assumptions and sources.  --lang zh writes\n"
	"every label and sentence in Chinese (needs a CJK font: fonts-wqy-microhei).\n"
	"The PDF and every chart file are written together or not at all.",
};

int report_check_targets(const struct report_options *o,
			 const char *pdf_option)
{
	char why[600];
	if (o->pdf) {
		if (atomic_check_target(o->pdf, why, sizeof(why)) != ATOMIC_OK) {
			fprintf(stderr, "gpuplan: %s: %s\n", pdf_option, why);
			return 2;
		}
		char *dir = path_dir(o->pdf);
		int rc = out_dir_usable(pdf_option, dir);
		free(dir);
		if (rc)
			return rc;
	}
	if (o->png_dir && out_dir_usable("--png", o->png_dir))
		return 2;
	if (o->first_page_png &&
	    out_file_usable("--first-page-png", o->first_page_png))
		return 2;
	if (o->svg_dir && out_dir_usable("--svg", o->svg_dir))
		return 2;
	return 0;
}

/* ---- the run ---- */

/*
 * Is `name` a chart file a report writes (report.c's chart_path:
 * NN-SLUG-CHART.EXT, NN the workload's number in two digits or more, SLUG
 * report_file_slug's letters, digits, '.', '_' and '-', CHART a
 * report_chart_slug)?  ext: "png" or "svg".  Nothing else is ever
 * removed, so notes.png or 01-draft.png stay.
 */
static bool chart_file_name(const char *name, void *ext)
{
	size_t digits = strspn(name, "0123456789");
	if (digits < 2 || name[digits] != '-')
		return false;
	const char *slug = name + digits + 1;
	for (int c = 0; c < RC_COUNT; c++) {
		char tail[64];
		snprintf(tail, sizeof(tail), "-%s.%s",
			 report_chart_slug((enum report_chart)c), (const char *)ext);
		size_t len = strlen(slug), tl = strlen(tail);
		if (len <= tl || strcmp(slug + len - tl, tail))
			continue;
		size_t body = len - tl;
		for (size_t k = 0; k < body; k++)
			if (!isalnum((unsigned char)slug[k]) && !strchr("._-", slug[k]))
				return false;
		return slug[0] != '.';
	}
	return false;
}

static void find_stale_charts(struct report_run *run)
{
	const struct report_options *o = run->o;
	if (o->png_dir)
		stale_files_find(&run->stale, o->png_dir, chart_file_name, (void *)"png");
	if (o->svg_dir)
		stale_files_find(&run->stale, o->svg_dir, chart_file_name, (void *)"svg");
}

void report_abort(struct report_run *run)
{
	stale_files_free(&run->stale);
	atomic_set_abort(&run->set);
	out_dirs_release(&run->dirs, true);
}

int report_stage(struct report_run *run, const struct r_plan *plan,
		 const struct report_options *o)
{
	char why[600];
	struct report_font font;
	memset(run, 0, sizeof(*run));
	atomic_set_init(&run->set);
	run->o = o;
	find_stale_charts(run);
	if (report_font_find(o->lang, &font, why, sizeof(why)) < 0) {
		fprintf(stderr, "gpuplan: %s\n", why);
		report_fonts_shutdown();
		stale_files_free(&run->stale);
		return 1;
	}
	report_font_free(&font);
	char *pdf_dir = o->pdf ? path_dir(o->pdf) : NULL;
	bool made = (!pdf_dir || out_dirs_make(&run->dirs, pdf_dir, why, sizeof(why)) == 0) &&
		    (!o->png_dir || out_dirs_make(&run->dirs, o->png_dir, why, sizeof(why)) == 0) &&
		    (!o->svg_dir || out_dirs_make(&run->dirs, o->svg_dir, why, sizeof(why)) == 0);
	free(pdf_dir);
	int rc = made ? report_render(plan, o, &run->set, &run->stats, why,
				      sizeof(why))
		      : REPORT_FAILED;
	/* one report per run: fontconfig's caches go now, not at exit, so that
	 * the leak checker sees a clean process */
	report_fonts_shutdown();
	if (rc != REPORT_OK) {
		fprintf(stderr, "gpuplan: %s\n", why);
		report_abort(run);
		return rc == REPORT_REFUSED ? 2 : 1;
	}
	return 0;
}

int report_commit(struct report_run *run)
{
	char why[600];
	const struct report_options *o = run->o;
	if (atomic_set_commit(&run->set, why, sizeof(why)) != ATOMIC_OK) {
		fprintf(stderr, "gpuplan: %s\n", why);
		out_dirs_release(&run->dirs, true);
		stale_files_free(&run->stale);
		return 1;
	}
	stale_files_remove(&run->stale);	/* the new set is in place */
	out_dirs_release(&run->dirs, false);
	if (o->pdf)
		fprintf(stderr, "report: %s (%d pages)\n",
			o->pdf_shown ? o->pdf_shown : o->pdf, run->stats.pdf_pages);
	if (o->png_dir)
		fprintf(stderr, "charts: %zu PNG files in %s/\n", run->stats.png_files,
			o->png_dir);
	if (o->svg_dir)
		fprintf(stderr, "charts: %zu SVG files in %s/\n", run->stats.svg_files,
			o->svg_dir);
	if (o->first_page_png)
		fprintf(stderr, "first page: %s\n", o->first_page_png);
	return 0;
}

int report_write(const struct r_plan *plan, const struct report_options *o)
{
	struct report_run run;
	int rc = report_stage(&run, plan, o);
	return rc ? rc : report_commit(&run);
}

/* ---- options ---- */

/* Well-formed UTF-8: cairo refuses anything else and would stop the
 * whole PDF. */
static bool utf8_valid(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	while (*u) {
		int n = *u < 0x80 ? 0 : (*u & 0xE0) == 0xC0 ? 1
			: (*u & 0xF0) == 0xE0 ? 2 : (*u & 0xF8) == 0xF0 ? 3 : -1;
		if (n < 0 || (n == 1 && *u < 0xC2))
			return false;
		u++;
		for (int k = 0; k < n; k++, u++)
			if ((*u & 0xC0) != 0x80)
				return false;
	}
	return true;
}

/* A quarter page of heading holds about 200 characters of Latin text and
 * the report cuts the rest with "..."; far beyond that a title is a
 * mistake, and laying out one long unbroken word costs time that grows
 * with its square (64 KB took 29 s). */
enum { TITLE_MAX_CHARACTERS = 500 };

/* Characters (code points) of a valid UTF-8 string. */
static size_t title_characters(const char *utf8)
{
	size_t n = 0;
	for (const unsigned char *c = (const unsigned char *)utf8; *c; c++)
		n += (*c & 0xC0) != 0x80;
	return n;
}

int report_options_read(const struct parsed *p, const struct cmd_spec *s,
			struct report_options *o)
{
	const char *what;
	memset(o, 0, sizeof(*o));
	o->lang = LANG_EN;
	o->table_rows = 40;
	const char *lang = opt_value(p, s, "lang");
	if (lang && strcmp(lang, "en") && strcmp(lang, "zh"))
		return usage_error(s, "--lang expects en or zh, found '%s'", lang);
	if (lang && !strcmp(lang, "zh"))
		o->lang = LANG_ZH;
	o->title = opt_value(p, s, "title");
	if (o->title && !utf8_valid(o->title))
		return usage_error(s, "--title is not valid UTF-8 (check the terminal's encoding)");
	if (o->title && text_control_char(o->title, TERM_KEEP_LINES, &what) >= 0)
		return usage_error(s, "--title may not hold %s", what);
	size_t chars = o->title ? title_characters(o->title) : 0;
	if (chars > TITLE_MAX_CHARACTERS)
		return usage_error(s, "--title holds at most %d characters (a quarter page of heading), found %zu",
				   TITLE_MAX_CHARACTERS, chars);
	const char *rows = opt_value(p, s, "rows");
	if (rows) {
		long n;
		if (!opt_whole(rows, 1, 100000, &n))
			return usage_error(s, "--rows expects a whole number from 1 to 100000, found '%s'",
					   rows);
		o->table_rows = (size_t)n;
	}
	o->png_dir = opt_value(p, s, "png");
	o->svg_dir = opt_value(p, s, "svg");
	o->first_page_png = opt_value(p, s, "first-page-png");
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct parsed p;
	struct report_options o;
	struct r_plan plan;
	char *to_stdout = NULL;	/* -o -: the PDF made here, then copied */
	memset(&plan, 0, sizeof(plan));
	int rc = opts_parse(&report_spec, argc, argv, &p);
	if (rc != OPTS_OK || (rc = report_options_read(&p, &report_spec, &o)))
		goto out;
	const char *out = opt_value(&p, &report_spec, "output");
	o.pdf = out ? out : "reports/plan.pdf";
	if (out && !strcmp(out, "-")) {
		if ((rc = cli_stdout_stage(&report_spec, "-o", "plan.pdf", &to_stdout)))
			goto out;
		o.pdf = to_stdout;
		o.pdf_shown = "standard output";
	}
	char why[600];
	if (r_plan_load(&plan, p.args[0], why, sizeof(why)) < 0) {
		fprintf(stderr, "gpuplan: %s\n", why);
		rc = 2;
		goto out;
	}
	/* after the load, which remembers the plan as an input: -o naming it
	 * is refused here, before any work */
	if ((rc = report_check_targets(&o, "-o")))
		goto out;
	rc = report_write(&plan, &o);
out:
	rc = cli_stdout_finish(&to_stdout, true, rc);
	r_plan_free(&plan);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

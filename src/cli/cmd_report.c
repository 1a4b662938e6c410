/*
 * cmd_report.c - `gpuplan report PLAN.json`: a plan as a PDF report and
 * PNG/SVG charts, in English or Chinese.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "common.h"
#include "core/paths.h"
#include "core/xalloc.h"
#include "report/report.h"
#include "report/text.h"
#include "report_cli.h"

static const struct opt_spec report_opts[] = {
	{"output", 'o', OPT_VALUE, "FILE", "the PDF (default reports/plan.pdf)"},
	{"png", 0, OPT_VALUE, "DIR", "also write each chart as a PNG into DIR"},
	{"svg", 0, OPT_VALUE, "DIR", "also write each chart as an SVG into DIR"},
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
	"every label and sentence in Chinese (needs a CJK font: fonts-wqy-microhei).",
};

/* mkdir -p for the folders a report writes into; what is already there
 * must be a folder (a file of that name would fail only after the PDF
 * was written). */
static int make_dirs(const char *path, char *why, size_t len)
{
	if (!*path)
		return 0;
	char *p = xstrdup(path);
	int rc = 0;
	for (char *s = p + 1; rc == 0; s++) {
		bool end = *s == '\0';
		if (!end && *s != '/')
			continue;
		*s = '\0';
		struct stat st;
		if (mkdir(p, 0777) < 0 && errno != EEXIST) {
			snprintf(why, len, "cannot create '%s': %s", p, strerror(errno));
			rc = -1;
		} else if (stat(p, &st) < 0 || !S_ISDIR(st.st_mode)) {
			snprintf(why, len, "'%s' is not a folder", p);
			rc = -1;
		}
		if (end)
			break;
		*s = '/';
	}
	free(p);
	return rc;
}

static int parent_dir(const char *file, char *why, size_t len)
{
	char *p = path_dir(file);
	int rc = make_dirs(p, why, len);
	free(p);
	return rc;
}

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

int report_options_read(const struct parsed *p, const struct cmd_spec *s,
			struct report_options *o)
{
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
	const char *rows = opt_value(p, s, "rows");
	if (rows) {
		char *end;
		long n = strtol(rows, &end, 10);
		if (*rows == '\0' || *end || n < 1 || n > 100000)
			return usage_error(s, "--rows expects a whole number from 1 to 100000, found '%s'",
					   rows);
		o->table_rows = (size_t)n;
	}
	o->png_dir = opt_value(p, s, "png");
	o->svg_dir = opt_value(p, s, "svg");
	return 0;
}

int report_write(const struct r_plan *plan, const struct report_options *o)
{
	char why[600];
	/* the font first: a machine without one gets the install line and
	 * not even an empty folder */
	struct report_font font;
	if (report_font_find(o->lang, &font, why, sizeof(why)) < 0) {
		fprintf(stderr, "gpuplan: %s\n", why);
		report_fonts_shutdown();
		return 1;
	}
	report_font_free(&font);
	if ((o->pdf && parent_dir(o->pdf, why, sizeof(why)) < 0) ||
	    (o->png_dir && make_dirs(o->png_dir, why, sizeof(why)) < 0) ||
	    (o->svg_dir && make_dirs(o->svg_dir, why, sizeof(why)) < 0)) {
		fprintf(stderr, "gpuplan: %s\n", why);
		report_fonts_shutdown();
		return 1;
	}
	struct report_stats st;
	int rc = report_render(plan, o, &st, why, sizeof(why));
	/* one report per run: fontconfig's caches go now, not at exit, so that
	 * the leak checker sees a clean process */
	report_fonts_shutdown();
	if (rc < 0) {
		fprintf(stderr, "gpuplan: %s\n", why);
		return 1;
	}
	if (o->pdf)
		fprintf(stderr, "report: %s (%d pages)\n", o->pdf, st.pdf_pages);
	if (o->png_dir)
		fprintf(stderr, "charts: %zu PNG files in %s/\n", st.png_files, o->png_dir);
	if (o->svg_dir)
		fprintf(stderr, "charts: %zu SVG files in %s/\n", st.svg_files, o->svg_dir);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct parsed p;
	struct report_options o;
	struct r_plan plan;
	memset(&plan, 0, sizeof(plan));
	int rc = opts_parse(&report_spec, argc, argv, &p);
	if (rc != OPTS_OK || (rc = report_options_read(&p, &report_spec, &o)))
		goto out;
	const char *out = opt_value(&p, &report_spec, "output");
	o.pdf = out ? out : "reports/plan.pdf";
	char why[600];
	if (r_plan_load(&plan, p.args[0], why, sizeof(why)) < 0) {
		fprintf(stderr, "gpuplan: %s\n", why);
		rc = 2;
		goto out;
	}
	rc = report_write(&plan, &o);
out:
	r_plan_free(&plan);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

/*
 * Reports: the shipped plan rendered to PDF, PNG and SVG in English and in
 * Chinese; the PDF has the pages the renderer says it drew, each PNG has
 * its size and is not blank, each SVG is well-formed XML, and every word
 * the Chinese report can print has a glyph in the font resolved.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "plan/plan.h"
#include "plan/plan_json.h"
#include "report/i18n.h"
#include "report/plan_load.h"
#include "report/report.h"
#include "workload/workload_file.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = malloc((size_t)n + 1);
	*len = fread(buf, 1, (size_t)n, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* Pages in a PDF: page objects, "/Type /Page" not followed by "s". */
static int pdf_pages(const char *path)
{
	size_t len;
	char *s = slurp(path, &len);
	int n = 0;
	/* The file holds binary streams with NUL bytes: scan by length. */
	for (size_t i = 0; s && i + 12 <= len; i++)
		if (!memcmp(s + i, "/Type /Page", 11) && s[i + 11] != 's')
			n++;
	free(s);
	return n;
}

/* Share of pixels that are not white. */
static double ink(const char *png, int *w, int *h)
{
	cairo_surface_t *s = cairo_image_surface_create_from_png(png);
	*w = cairo_image_surface_get_width(s);
	*h = cairo_image_surface_get_height(s);
	cairo_surface_flush(s);
	unsigned char *d = cairo_image_surface_get_data(s);
	int stride = cairo_image_surface_get_stride(s);
	long dark = 0;
	for (int y = 0; d && y < *h; y++)
		for (int x = 0; x < *w; x++) {
			uint32_t px;
			memcpy(&px, d + (size_t)y * (size_t)stride + 4 * (size_t)x, sizeof px);
			if ((px & 0xFFFFFF) != 0xFFFFFF)
				dark++;
		}
	cairo_surface_destroy(s);
	return *w > 0 ? (double)dark / ((double)*w * *h) : 0;
}

/* Well-formed enough: every element closed in order, quotes balanced in
 * tags, comments and declarations skipped. */
static bool xml_well_formed(const char *s)
{
	char stack[64][64];
	int depth = 0, roots = 0;
	for (const char *p = s; (p = strchr(p, '<'));) {
		if (!strncmp(p, "<?", 2) || !strncmp(p, "<!--", 4) || !strncmp(p, "<!", 2)) {
			const char *end = strstr(p, !strncmp(p, "<!--", 4) ? "-->" : ">");
			if (!end)
				return false;
			p = end + 1;
			continue;
		}
		const char *end = p + 1;
		char quote = 0;
		for (; *end && (quote || *end != '>'); end++)
			if (*end == '"' || *end == '\'')
				quote = quote == *end ? 0 : quote ? quote : *end;
		if (!*end)
			return false;
		bool closing = p[1] == '/', empty = end[-1] == '/';
		char name[64];
		size_t k = 0;
		for (const char *q = p + (closing ? 2 : 1); *q && !strchr(" \t\n/>", *q) && k < 63; q++)
			name[k++] = *q;
		name[k] = '\0';
		if (closing) {
			if (depth == 0 || strcmp(stack[depth - 1], name))
				return false;
			depth--;
		} else if (!empty) {
			if (depth == 0)
				roots++;
			if (depth == 64)
				return false;
			strcpy(stack[depth++], name);
		}
		p = end + 1;
	}
	return depth == 0 && roots == 1;
}

static void check_dir(const char *dir, bool svg, size_t expect)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[600];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		n++;
		if (svg) {
			size_t len;
			char *s = slurp(path, &len);
			if (!xml_well_formed(s))
				fprintf(stderr, "not well-formed: %s\n", path);
			CHECK(s && xml_well_formed(s));
			free(s);
		} else {
			int w, h;
			double share = ink(path, &w, &h);
			CHECK(w == 1600 && h == 1000);
			if (share < 0.01)
				fprintf(stderr, "nearly blank (%.4f): %s\n", share, path);
			CHECK(share >= 0.01);
		}
	}
	if (d)
		closedir(d);
	CHECK(n == expect);
}

static void render(const struct plan *p, json_t *doc, enum report_lang lang,
		   const char *dir)
{
	struct r_plan rp;
	char why[600];
	CHECK(r_plan_from_json(&rp, doc, "plan", why, sizeof(why)) == 0);
	char pdf[512], png[512], svg[512];
	snprintf(pdf, sizeof(pdf), "%s/plan.pdf", dir);
	snprintf(png, sizeof(png), "%s/png", dir);
	snprintf(svg, sizeof(svg), "%s/svg", dir);
	mkdir(png, 0777);
	mkdir(svg, 0777);
	struct report_options o = {lang, NULL, pdf, png, svg, 40, NULL, NULL};
	struct report_stats st;
	struct atomic_set set;
	atomic_set_init(&set);
	int rc = report_render(&rp, &o, &set, &st, why, sizeof(why));
	if (rc)
		fprintf(stderr, "report: %s\n", why);
	CHECK(rc == 0);
	CHECK(set.n == 1 + st.png_files + st.svg_files);
	CHECK(atomic_set_commit(&set, why, sizeof(why)) == ATOMIC_OK);
	/* summary + per workload at least a table page and a chart page +
	 * the appendix */
	CHECK(st.pdf_pages >= 2 + 2 * (int)p->n);
	CHECK(pdf_pages(pdf) == st.pdf_pages);
	printf("  %s: %d pages, %zu PNG, %zu SVG\n", lang == LANG_ZH ? "zh" : "en",
	       st.pdf_pages, st.png_files, st.svg_files);
	check_dir(png, false, st.png_files);
	check_dir(svg, true, st.svg_files);
	r_plan_free(&rp);
}

/*
 * The shipped plan with what hand-edited plans and private price lists
 * hold: names with noncharacters (cairo refuses them: the PDF used to stop
 * drawing after its first page while 27 were counted), costs of 1e-307
 * and 5e-324, subnormal times, subnormal bandwidths and peaks (a roof at
 * infinity).  render() then checks the report draws whole: every page
 * counted is in the file, every chart file inked.
 */
static json_t *hostile_doc(const json_t *doc)
{
	json_t *h = json_deep_copy(doc), *w, *o, *a;
	size_t i, k;
	const char *key;
	json_array_foreach(json_object_get(h, "workloads"), i, w) {
		char name[64];
		snprintf(name, sizeof(name), "w%zu \xef\xb7\x90\xef\xbf\xbe", i);
		json_object_set_new(w, "name", json_string(name));
		json_array_foreach(json_object_get(w, "options"), k, o) {
			if (k % 3 == 0)
				json_object_set_new(o, "cost", json_real(k % 2 ? 5e-324 : 1e-307));
			if (k % 5 == 0 && json_object_get(o, "time_s"))
				json_object_set_new(o, "time_s", json_real(5e-324));
		}
	}
	k = 0;
	json_object_foreach(json_object_get(json_object_get(h, "sources"), "accelerators"),
			    key, a) {
		if (k++ % 2)
			json_object_set_new(a, "memory_bandwidth_bytes_per_s", json_real(5e-324));
		else
			json_object_set_new(a, "peak_dense_ops_per_s",
					    json_pack("{s:f, s:f}", "bf16", 5e-324, "fp32", 1e-300));
	}
	return h;
}

/*
 * Staged files stay invisible until the commit, and an abort leaves
 * nothing: the report set is all or nothing.
 */
static void staged_then_aborted(json_t *doc, const char *dir)
{
	struct r_plan rp;
	char why[600], pdf[700], png[700];
	CHECK(r_plan_from_json(&rp, doc, "plan", why, sizeof(why)) == 0);
	snprintf(pdf, sizeof(pdf), "%s/plan.pdf", dir);
	snprintf(png, sizeof(png), "%s/png", dir);
	mkdir(png, 0777);
	struct report_options o = {LANG_EN, NULL, pdf, png, NULL, 40, NULL, NULL};
	struct report_stats st;
	struct atomic_set set;
	atomic_set_init(&set);
	CHECK(report_render(&rp, &o, &set, &st, why, sizeof(why)) == REPORT_OK);
	CHECK(set.n == 1 + st.png_files && st.png_files > 0);
	const char *folders[] = {dir, png};
	for (int pass = 0; pass < 2; pass++) {
		size_t files = 0, temps = 0;
		for (size_t f = 0; f < 2; f++) {
			DIR *d = opendir(folders[f]);
			struct dirent *e;
			while (d && (e = readdir(d))) {
				if (e->d_name[0] == '.' || !strcmp(e->d_name, "png"))
					continue;
				files++;
				temps += strstr(e->d_name, ".tmp.") != NULL;
			}
			if (d)
				closedir(d);
		}
		/* staged: only temporary names; aborted: nothing */
		CHECK(pass == 0 ? files == set.n && temps == files : files == 0);
		if (pass == 0)
			atomic_set_abort(&set);
	}
	r_plan_free(&rp);
}

/* Every Chinese word in the table has a glyph in the resolved font. */
static void glyphs(json_t *doc)
{
	for (int lang = LANG_EN; lang <= LANG_ZH; lang++) {
		struct report_font f;
		char why[400];
		CHECK(report_font_find(lang, &f, why, sizeof(why)) == 0);
		printf("  font for %s: %s (%s)\n", lang ? "zh" : "en",
		       f.resolved_family, f.file);
		for (int m = 0; m < MSG_COUNT; m++)
			if (!report_font_covers(&f, tr(lang, m))) {
				fprintf(stderr, "missing glyphs in: %s\n", tr(lang, m));
				CHECK(false);
			}
		static const char *classes[] = {"gemm", "attention", "norm",
						"elementwise", "pool", "data"};
		for (size_t k = 0; k < sizeof(classes) / sizeof(classes[0]); k++)
			CHECK(report_font_covers(&f, tr_op_class(lang, classes[k])));
		/* every assumption the plan states has its Chinese sentence */
		const char *key;
		json_t *a;
		json_object_foreach(json_object_get(doc, "assumptions"), key, a) {
			const char *en = json_string_value(json_object_get(a, "from"));
			const char *t = tr_assumption(lang, key, en);
			CHECK(report_font_covers(&f, t));
			if (lang == LANG_ZH && t == en)
				fprintf(stderr, "no Chinese for assumption %s\n", key);
			CHECK(lang == LANG_EN || t != en);
		}
		report_font_free(&f);
	}
}

/* The precision reason in both languages: a format the part lacks, and a
 * peak the catalog could not source (n1 0), which must not read as a
 * missing hardware feature. */
static void precision_reasons(void)
{
	char buf[256];
	struct plan_reason_figures lacks = {.code = "precision", .s1 = "T4",
					    .used = "fp16", .wanted = "bf16",
					    .n1 = 1};
	struct plan_reason_figures unsourced = {.code = "precision",
						.s1 = "A10G", .used = "fp32",
						.wanted = "int8"};
	CHECK_STR(tr_reason(LANG_EN, &lacks, "USD", buf, sizeof(buf)),
		  "runs as fp16: T4 has no bf16");
	CHECK_STR(tr_reason(LANG_EN, &unsourced, "USD", buf, sizeof(buf)),
		  "runs as fp32: the catalog has no sourced int8 peak for A10G");
	CHECK_STR(tr_reason(LANG_ZH, &lacks, "USD", buf, sizeof(buf)),
		  "以 fp16 运行：T4 不支持 bf16");
	CHECK_STR(tr_reason(LANG_ZH, &unsourced, "USD", buf, sizeof(buf)),
		  "以 fp32 运行：目录中没有 A10G 的 int8 峰值（无可靠来源）");
}

int main(void)
{
	precision_reasons();
	struct catalog c;
	struct workload_file wf;
	struct gp_errors e;
	gp_errors_init(&e);
	catalog_init(&c);
	memset(&wf, 0, sizeof(wf));
	char path[512];
	snprintf(path, sizeof(path), "%s/profiles/workloads/default.yaml", GPUPLAN_SOURCE_DIR);
	bool ok = catalog_load_shipped(&c, GPUPLAN_SOURCE_DIR, &e) == 0 &&
		  workload_file_load(&wf, path, &e) == 0;
	gp_errors_print(&e, stderr);
	CHECK(ok);
	struct plan p;
	struct plan_settings s;
	plan_settings_default(&s);
	char why[300];
	if (ok && plan_run(&p, &c, &wf, &s, why, sizeof(why)) == 0) {
		json_t *doc = plan_header_json(&p);
		for (size_t i = 0; i < p.n; i++)
			json_array_append_new(json_object_get(doc, "workloads"),
					      plan_result_json(&p, &p.results[i]));
		char dir[] = "/tmp/gpuplan-report-XXXXXX";
		CHECK(mkdtemp(dir) != NULL);
		char en[600], zh[600];
		snprintf(en, sizeof(en), "%s/en", dir);
		snprintf(zh, sizeof(zh), "%s/zh", dir);
		mkdir(en, 0777);
		mkdir(zh, 0777);
		render(&p, doc, LANG_EN, en);
		render(&p, doc, LANG_ZH, zh);
		/* Same inputs, same bytes: a second English render matches. */
		char again[600];
		snprintf(again, sizeof(again), "%s/again", dir);
		mkdir(again, 0777);
		render(&p, doc, LANG_EN, again);
		const char *same[] = {"plan.pdf", "png/05-llm-pretrain-time-cost.png",
				      "svg/05-llm-pretrain-time-cost.svg"};
		for (size_t k = 0; k < sizeof(same) / sizeof(same[0]); k++) {
			char a[700], b[700];
			snprintf(a, sizeof(a), "%s/%s", en, same[k]);
			snprintf(b, sizeof(b), "%s/%s", again, same[k]);
			size_t la, lb;
			char *x = slurp(a, &la), *y = slurp(b, &lb);
			CHECK(x && y && la == lb && !memcmp(x, y, la));
			free(x);
			free(y);
		}
		char hostile[600], staged[600];
		snprintf(hostile, sizeof(hostile), "%s/hostile", dir);
		mkdir(hostile, 0777);
		json_t *h = hostile_doc(doc);
		render(&p, h, LANG_EN, hostile);
		json_decref(h);
		snprintf(staged, sizeof(staged), "%s/staged", dir);
		mkdir(staged, 0777);
		staged_then_aborted(doc, staged);
		glyphs(doc);
		json_decref(doc);
		plan_free(&p);
		if (!getenv("GPUPLAN_KEEP_REPORT")) {
			char cmd[700];
			snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
			CHECK(system(cmd) == 0);
		} else
			printf("  kept in %s\n", dir);
	}
	workload_file_free(&wf);
	catalog_free(&c);
	gp_errors_free(&e);
	report_fonts_shutdown();
	return check_summary("report");
}

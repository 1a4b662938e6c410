/*
 * Fonts, wrapping, ellipsis and paginated tables (report/text.h).
 *
 * Widths are checked by measuring each laid-out line again with
 * text_width, so "fits" means what cairo draws fits.  The Chinese font
 * comes from fonts-wqy-microhei, which src/tools/install-deps installs.
 * With GPUPLAN_KEEP_PNG set, sample pages are written to
 * /tmp/gpuplan-text-en.png and /tmp/gpuplan-text-zh.png for a human eye.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "report/chart_frame.h"
#include "report/text.h"
#include "core/utf8.h"

static const char en_para[] =
	"The recommended instance is the cheapest option that finishes "
	"training before the deadline: 8 x H100 for 36 hours at 1,234.50 "
	"USD per hour on demand. Spot capacity would cost less but takes "
	"longer, because preemptions restart work from the last checkpoint; "
	"the runner-up lost on memory, since the model's optimizer state "
	"does not fit 24 GiB cards without ZeRO stage 3.";

static const char zh_para[] =
	"推荐实例是在截止时间前完成训练的最便宜方案：8 × H100，训练时间"
	"36 小时，按需价格每小时 1,234.50 美元。竞价实例成本更低，但因为"
	"抢占会从上一个检查点重新开始，所以时间更长；第二名方案因显存不足"
	"而落选（优化器状态放不进 24 GiB 的显卡）。推理部署每月成本为"
	"12,345 元，满足 p99 延迟目标。";

/* Is s[0..len) valid UTF-8 (every character whole)? */
static bool valid_utf8(const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned char b = (unsigned char)s[i];
		size_t l = b < 0x80 ? 1 : (b & 0xe0) == 0xc0 ? 2 :
			   (b & 0xf0) == 0xe0 ? 3 : (b & 0xf8) == 0xf0 ? 4 : 0;

		if (l == 0 || i + l > len)
			return false;
		for (size_t k = 1; k < l; k++)
			if (((unsigned char)s[i + k] & 0xc0) != 0x80)
				return false;
		i += l;
	}
	return true;
}

static bool continuation(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* s without its spaces, in buf. */
static void squeeze(const char *s, size_t len, char *buf)
{
	size_t o = strlen(buf);

	for (size_t i = 0; i < len; i++)
		if (s[i] != ' ')
			buf[o++] = s[i];
	buf[o] = '\0';
}

static double span_width(cairo_t *cr, const struct report_font *f,
			 const char *s, struct text_span sp, double size)
{
	char *t = strndup(s + sp.off, sp.len);
	double w = text_width(cr, f, t, size);

	free(t);
	return w;
}

static void fonts(struct report_font *en, struct report_font *zh)
{
	char why[1024];

	CHECK(report_font_find(LANG_EN, en, why, sizeof(why)) == 0);
	printf("english: asked '%s', resolved '%s' in %s\n", en->family,
	       en->resolved_family, en->file);
	CHECK(report_font_covers(en, "Recommended instance"));
	CHECK(report_font_covers(en, en_para));

	if (report_font_find(LANG_ZH, zh, why, sizeof(why)) != 0) {
		fprintf(stderr, "chinese font: %s\n", why);
		CHECK(!"a Chinese font (run src/tools/install-deps)");
		return;
	}
	printf("chinese: asked '%s', resolved '%s' in %s\n", zh->family,
	       zh->resolved_family, zh->file);
	CHECK(report_font_covers(zh, zh_para));
	CHECK(report_font_covers(zh, "推荐实例：每月成本\n训练时间"));
	CHECK(!report_font_covers(en, "推荐实例"));
	/* U+10FFFD, the last private-use character: no font draws it */
	CHECK(!report_font_covers(zh, "ok \xf4\x8f\xbf\xbd"));
	CHECK(!report_font_covers(en, "\xf4\x8f\xbf\xbd"));
	/* a malformed byte is never "covered" */
	CHECK(!report_font_covers(en, "abc\xff"));
	CHECK(report_font_covers(en, ""));
}

/*
 * Wraps text at several widths; every line fits, starts and ends on
 * character boundaries, no text is lost, and (latin) every break is at
 * a space.  Returns the line count at the last width.
 */
static size_t wrap_case(cairo_t *cr, const struct report_font *f,
			const char *text, bool latin)
{
	static const double widths[] = { 90, 150, 237.5, 400 };
	struct text_span sp[400];
	size_t n = 0, len = strlen(text);

	for (size_t k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
		char *want = calloc(len + 1, 1), *got = calloc(len + 1, 1);

		n = text_wrap(cr, f, text, 10, widths[k], false, sp, 400);
		CHECK(n > 1 && n <= 400);
		for (size_t i = 0; i < n && i < 400; i++) {
			const char *s = text + sp[i].off;

			CHECK(span_width(cr, f, text, sp[i], 10) <= widths[k]);
			CHECK(sp[i].len > 0);
			CHECK(!continuation(s[0]));
			CHECK(!continuation(s[sp[i].len]));
			CHECK(valid_utf8(s, sp[i].len));
			CHECK(strncmp(s, "，", 3) && strncmp(s, "。", 3));
			if (latin)
				CHECK((sp[i].off == 0 || s[-1] == ' ') &&
				      (s[sp[i].len] == ' ' ||
				       s[sp[i].len] == '\0'));
			squeeze(s, sp[i].len, got);
		}
		squeeze(text, len, want);
		CHECK_STR(got, want);
		free(want);
		free(got);
	}
	return n;
}

/* A word wider than the box is cut between characters, never inside
 * one, and nothing of it is lost. */
static void hard_break(cairo_t *cr, const struct report_font *f,
		       const char *word, double width)
{
	struct text_span sp[64];
	size_t n = text_wrap(cr, f, word, 10, width, false, sp, 64);
	char got[256] = "";

	CHECK(n > 1 && n <= 64);
	for (size_t i = 0; i < n && i < 64; i++) {
		CHECK(span_width(cr, f, word, sp[i], 10) <= width);
		CHECK(!continuation(word[sp[i].off]));
		strncat(got, word + sp[i].off, sp[i].len);
	}
	CHECK_STR(got, word);
}

/* A box of three lines: three lines come back, each fits, the last
 * ends in "..."; a short text comes back whole. */
static void truncation(cairo_t *cr, const struct report_font *f,
		       const char *text)
{
	struct rect box = { 10, 10, 180, 3 * 12 + 5 };
	char **lines;
	size_t n = text_box_layout(cr, f, box, text, 10, 1.2, false, &lines);

	CHECK(n == 3);
	for (size_t i = 0; i < n; i++) {
		CHECK(text_width(cr, f, lines[i], 10) <= box.w);
		CHECK(valid_utf8(lines[i], strlen(lines[i])));
	}
	if (n == 3) {
		size_t l = strlen(lines[2]);

		CHECK(l > 3 && strcmp(lines[2] + l - 3, "...") == 0);
		CHECK(strcmp(lines[0] + strlen(lines[0]) - 3, "..."));
	}
	text_lines_free(lines, n);
	CHECK_NEAR(text_box(cr, f, box, text, 10, 1.2, false), 36, 1e-12);

	n = text_box_layout(cr, f, box, "short", 10, 1.2, true, &lines);
	CHECK(n == 1);
	if (n == 1)
		CHECK_STR(lines[0], "short");
	text_lines_free(lines, n);
	/* a box lower than one line shows nothing */
	box.h = 11;
	CHECK(text_box_layout(cr, f, box, text, 10, 1.2, false, &lines) == 0);
	text_lines_free(lines, 0);
}

/* Newlines break lines and blank lines survive; invalid bytes neither
 * hang the wrapper nor break the cairo context. */
static void odd_input(cairo_t *cr, const struct report_font *f)
{
	struct text_span sp[8];

	CHECK(text_wrap(cr, f, "one\n\ntwo  ", 10, 300, false, sp, 8) == 3);
	CHECK(sp[1].len == 0 && sp[2].len == 3);
	CHECK(text_wrap(cr, f, "", 10, 300, false, sp, 8) == 0);
	CHECK(text_wrap(cr, f, "a\xff\xfe b", 10, 300, false, sp, 8) == 1);
	text_line(cr, f, 10, 20, 100, "bad \xc3( utf-8", 10, 0, false);
	CHECK(text_wrap(cr, f, "xy", 10, -1, false, sp, 8) == 2);
	CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
}

struct table_data {
	const char *header[4];
	char text[100][4][40];
	const char *cells[400];
	struct text_table t;
};

static void table_fill(struct table_data *d, bool zh)
{
	static const double widths[4] = { 0.4, 0.2, 0.2, 0.2 };
	static const double align[4] = { 0, 1, 1, 1 };

	d->header[0] = zh ? "实例" : "instance";
	d->header[1] = zh ? "数量" : "GPUs";
	d->header[2] = zh ? "训练时间" : "time";
	d->header[3] = zh ? "每月成本" : "cost per month";
	for (int r = 0; r < 100; r++) {
		snprintf(d->text[r][0], 40, "%s-%03d.48xlarge-with-a-long-name",
			 zh ? "实例" : "p5", r);
		snprintf(d->text[r][1], 40, "%d x H100", 1 << (r % 4));
		snprintf(d->text[r][2], 40, "%.1f h", 10.0 + r);
		snprintf(d->text[r][3], 40, "%d,%03d USD", 12 + r, 345);
		for (int c = 0; c < 4; c++)
			d->cells[r * 4 + c] = d->text[r][c];
	}
	d->t = (struct text_table){ 4, d->header, widths, align, d->cells,
				    100 };
}

/* 100 rows over pages that hold 30: four pages, every row once. */
static void table_pages(cairo_t *cr, const struct report_font *f)
{
	static struct table_data d;
	double rh = text_table_row_height(8);
	struct rect box = { 20, 20, 400, 31 * rh + rh / 2 };
	int seen[100] = { 0 }, pages = 0;
	size_t first = 0;

	table_fill(&d, false);
	while (first < 100 && pages < 10) {
		size_t next = text_table_draw(cr, f, box, &d.t, first, 8);

		CHECK(next > first && next - first <= 30);
		for (size_t r = first; r < next; r++)
			seen[r]++;
		first = next;
		pages++;
	}
	CHECK(pages == 4);
	for (int r = 0; r < 100; r++)
		CHECK(seen[r] == 1);
	/* header plus one row: one row; less: none */
	box.h = 2 * rh;
	CHECK(text_table_draw(cr, f, box, &d.t, 99, 8) == 100);
	CHECK(text_table_draw(cr, f, box, &d.t, 5, 8) == 6);
	box.h = 1.5 * rh;
	CHECK(text_table_draw(cr, f, box, &d.t, 5, 8) == 5);
	CHECK(text_table_draw(cr, f, box, &d.t, 100, 8) == 100);
}

static void outline(cairo_t *cr, struct rect r)
{
	cairo_save(cr);
	cairo_set_source_rgb(cr, 0.9, 0.3, 0.3);
	cairo_set_line_width(cr, 0.5);
	cairo_rectangle(cr, r.x, r.y, r.w, r.h);
	cairo_stroke(cr);
	cairo_restore(cr);
}

/* An A5-ish page at 2 px per point: a heading, a paragraph, the same in
 * a box too small for it, a right-aligned line and a table's first
 * page.  Red outlines show the boxes text must stay inside. */
static void sample_page(const struct report_font *f, const char *para,
			bool zh, const char *png)
{
	static struct table_data d;
	cairo_surface_t *s =
		cairo_image_surface_create(CAIRO_FORMAT_RGB24, 840, 1190);
	cairo_t *cr = cairo_create(s);
	struct rect r;

	cairo_scale(cr, 2, 2);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	r = (struct rect){ 30, 30, 360, 40 };
	outline(cr, r);
	text_box(cr, f, r, zh ? "训练方案推荐：检测模型" :
			  "Recommendation: inspection detector", 16, 1.25,
		 true);
	r = (struct rect){ 30, 75, 360, 200 };
	r.h = text_box(cr, f, r, para, 10, 1.35, false);
	outline(cr, r);
	r = (struct rect){ 30, 240, 170, 40.5 };
	outline(cr, r);
	text_box(cr, f, r, para, 10, 1.35, false);
	outline(cr, (struct rect){ 230, 240, 160, 14 });
	text_line(cr, f, 390, 251, 160, para, 10, 1, false);
	text_line(cr, f, 390, 270, 160, zh ? "第 1 页" : "page 1", 10, 1,
		  false);
	table_fill(&d, zh);
	r = (struct rect){ 30, 300, 360, 10 * text_table_row_height(8) };
	outline(cr, r);
	text_table_draw(cr, f, r, &d.t, 0, 8);
	CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
	if (png) {
		CHECK(cairo_surface_write_to_png(s, png) ==
		      CAIRO_STATUS_SUCCESS);
		printf("wrote %s\n", png);
	}
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

/*
 * Text as cairo accepts it (core/utf8.h): each malformed byte and each
 * noncharacter becomes one replacement, valid text passes unchanged.
 * cairo refuses U+FDD0..U+FDEF and U+xFFFE/U+xFFFF with an error that
 * blanks the rest of a page, so the cleaned text must also draw: each
 * case is drawn and measured, and the context must stay without error.
 */
struct clean_case {
	const char *in;
	const char *fffd;	/* replaced by U+FFFD */
	const char *ask;	/* replaced by '?', at most 8 bytes kept */
};

static const struct clean_case clean_cases[] = {
	{"plain", "plain", "plain"},
	{"中文 H100", "中文 H100", "中文 H"},	/* cut at a character */
	{"a\xef\xb7\x90" "b", "a\xef\xbf\xbd" "b", "a?b"},		/* U+FDD0 */
	{"\xef\xb7\xaf", "\xef\xbf\xbd", "?"},			/* U+FDEF */
	{"\xef\xb7\x8f\xef\xb7\xb0", "\xef\xb7\x8f\xef\xb7\xb0", "\xef\xb7\x8f\xef\xb7\xb0"},
	{"\xef\xbf\xbe\xef\xbf\xbf", "\xef\xbf\xbd\xef\xbf\xbd", "??"},	/* U+FFFE/F */
	{"\xf0\x9f\xbf\xbf", "\xef\xbf\xbd", "?"},		/* U+1FFFF */
	{"\xf4\x8f\xbf\xbe", "\xef\xbf\xbd", "?"},		/* U+10FFFE */
	{"\xef\xbf\xbd", "\xef\xbf\xbd", "\xef\xbf\xbd"},	/* a real U+FFFD */
	{"\xff\xfe", "\xef\xbf\xbd\xef\xbf\xbd", "??"},
	{"\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "???"},	/* surrogate */
	{"\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd", "??"},	/* overlong */
	{"\xe4\xb8", "\xef\xbf\xbd\xef\xbf\xbd", "??"},	/* cut short */
	{"\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", "????"},
};

static void cleaning(cairo_t *cr, const struct report_font *f)
{
	for (size_t i = 0; i < sizeof(clean_cases) / sizeof(clean_cases[0]); i++) {
		const struct clean_case *c = &clean_cases[i];
		char *dup = utf8_clean_dup(c->in), ask[9];
		CHECK_STR(dup, c->fffd);
		CHECK(utf8_drawable(dup));
		CHECK(utf8_drawable(c->in) == (strcmp(c->in, c->fffd) == 0));
		utf8_clean_into(ask, sizeof(ask), c->in, '?');
		CHECK_STR(ask, c->ask);
		/* what text.h and the charts draw must not break the context */
		cairo_t *c2 = cairo_create(cairo_get_target(cr));
		text_box(c2, f, (struct rect){0, 0, 300, 40}, c->in, 10, 1.2, false);
		text_line(c2, f, 0, 60, 300, c->in, 10, 0, true);
		CHECK(text_width(c2, f, c->in, 10) >= 0);
		CHECK(cairo_status(c2) == CAIRO_STATUS_SUCCESS);
		cairo_select_font_face(c2, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
				       CAIRO_FONT_WEIGHT_NORMAL);
		cairo_show_text(c2, ask);
		CHECK(cairo_status(c2) == CAIRO_STATUS_SUCCESS);
		cairo_destroy(c2);
		free(dup);
	}
	/* and cairo does refuse the raw noncharacter: the cleaning is needed */
	cairo_t *c3 = cairo_create(cairo_get_target(cr));
	cairo_show_text(c3, "a\xef\xb7\x90" "b");
	CHECK(cairo_status(c3) == CAIRO_STATUS_INVALID_STRING);
	cairo_destroy(c3);
}

/* Table cells keep a word whole when it fits (Pango alone breaks "小时"
 * between its characters, and once broke names mid-word); a name wider
 * than the column breaks after a '_'. */
static void cell_words(cairo_t *cr, const struct report_font *en,
		       const struct report_font *zh)
{
	char **l;
	size_t n;
	double wname = text_width(cr, en, "Standard_NC24ads_A100_v4", 10);
	double wpart = text_width(cr, en, "Standard_NC24ads_A100_", 10);

	n = text_cell_layout(cr, en, "1 x Standard_NC24ads_A100_v4", 10,
			     wname + 1, false, &l);
	CHECK(n == 2);
	if (n == 2) {
		CHECK_STR(l[0], "1 x");
		CHECK_STR(l[1], "Standard_NC24ads_A100_v4");
	}
	text_lines_free(l, n);
	n = text_cell_layout(cr, en, "Standard_NC24ads_A100_v4", 10, wpart + 1,
			     false, &l);
	CHECK(n == 2);
	if (n == 2) {
		CHECK_STR(l[0], "Standard_NC24ads_A100_");
		CHECK_STR(l[1], "v4");
	}
	text_lines_free(l, n);
	if (!zh->file)
		return;
	double w = text_width(cr, zh, "GPU 小", 10) + 0.5;
	CHECK(w < text_width(cr, zh, "GPU 小时", 10));
	n = text_cell_layout(cr, zh, "GPU 小时", 10, w, true, &l);
	CHECK(n == 2);
	if (n == 2) {
		CHECK_STR(l[0], "GPU");
		CHECK_STR(l[1], "小时");
	}
	text_lines_free(l, n);
}

/* Chinese breaks: between Han characters, never after an opening or
 * before a closing bracket. */
static void cjk_breaks(cairo_t *cr, const struct report_font *zh)
{
	static const char t[] = "按需价格（美元每小时）为一二三四五六七八九十";
	struct text_span sp[40];
	double w = text_width(cr, zh, "按需价格（", 10) + 0.5;
	size_t n = text_wrap(cr, zh, t, 10, w, false, sp, 40);

	CHECK(n > 2 && n <= 40);
	for (size_t i = 0; i < n && i < 40; i++) {
		const char *s = t + sp[i].off;

		CHECK(sp[i].len >= 3 && sp[i].len % 3 == 0);	/* whole Han */
		CHECK(strncmp(s + sp[i].len - 3, "（", 3) != 0);
		CHECK(strncmp(s, "）", 3) != 0);
		CHECK(span_width(cr, zh, t, sp[i], 10) <= w);
	}
	/* "按需价格（美" is wider than w: the first line ends before "（" */
	CHECK(sp[0].len == strlen("按需价格"));
}

/* An ellipsis only where text was dropped: a box that holds every line
 * shows them all as they are. */
static void ellipsis_when_needed(cairo_t *cr, const struct report_font *f)
{
	struct text_span sp[64];
	size_t need = text_wrap(cr, f, en_para, 10, 180, false, sp, 64);
	char **l;
	struct rect box = { 0, 0, 180, (double)need * 12 };
	size_t n = text_box_layout(cr, f, box, en_para, 10, 1.2, false, &l);

	CHECK(need > 2 && n == need);
	for (size_t i = 0; i < n; i++)
		CHECK(strstr(l[i], "...") == NULL);
	text_lines_free(l, n);
	box.h -= 12;
	n = text_box_layout(cr, f, box, en_para, 10, 1.2, false, &l);
	CHECK(n == need - 1);
	if (n > 0)
		CHECK(strstr(l[n - 1], "...") != NULL);
	text_lines_free(l, n);
}

/* A title one line cannot hold takes two; cut only past the box. */
static void title_lines(cairo_t *cr, const struct report_font *f)
{
	static const char t[] = "GPU rental plan for the research group's "
				"2027 training and serving budget review";
	double one = text_width(cr, f, t, 20) * 0.6, h;
	size_t cut = 99;

	h = text_title(cr, f, (struct rect){ 0, 0, one, 400 }, t, 20, true, &cut);
	CHECK_NEAR(h, 2 * 1.25 * 20, 1e-9);
	CHECK(cut == 0);
	h = text_title(cr, f, (struct rect){ 0, 0, one, 30 }, t, 20, true, &cut);
	CHECK_NEAR(h, 1.25 * 20, 1e-9);
	CHECK(cut == 1);
}

/* A bar label beyond its room loses its middle, keeping the count and
 * the instance type's size. */
static void middle_ellipsis(cairo_t *cr)
{
	char buf[TEXT_MAX];
	double w = text_w(cr, "128 x p5en.48xlarge");

	fit_text_middle(cr, "128 x p5en.48xlarge", w, buf);
	CHECK_STR(buf, "128 x p5en.48xlarge");
	fit_text_middle(cr, "128 x p5en.48xlarge", w * 0.75, buf);
	CHECK(strstr(buf, "...") != NULL);
	CHECK(strncmp(buf, "128", 3) == 0);
	CHECK(strlen(buf) > 6 && strcmp(buf + strlen(buf) - 6, "xlarge") == 0);
	CHECK(text_w(cr, buf) <= w * 0.75);
}

int main(void)
{
	struct report_font en, zh = { 0 };
	cairo_surface_t *s =
		cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 600, 800);
	cairo_t *cr = cairo_create(s);
	bool keep = getenv("GPUPLAN_KEEP_PNG") != NULL;

	fonts(&en, &zh);
	cleaning(cr, &en);
	cell_words(cr, &en, &zh);
	ellipsis_when_needed(cr, &en);
	title_lines(cr, &en);
	middle_ellipsis(cr);
	wrap_case(cr, &en, en_para, true);
	hard_break(cr, &en, "Supercalifragilisticexpialidocious", 60);
	truncation(cr, &en, en_para);
	odd_input(cr, &en);
	table_pages(cr, &en);
	sample_page(&en, en_para, false,
		    keep ? "/tmp/gpuplan-text-en.png" : NULL);
	if (zh.file) {
		wrap_case(cr, &zh, zh_para, false);
		cjk_breaks(cr, &zh);
		hard_break(cr, &zh, "推荐实例成本时间每月训练推理", 45);
		truncation(cr, &zh, zh_para);
		table_pages(cr, &zh);
		sample_page(&zh, zh_para, true,
			    keep ? "/tmp/gpuplan-text-zh.png" : NULL);
	}
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	report_font_free(&en);
	report_font_free(&zh);
	report_fonts_shutdown();
	return check_summary("text");
}

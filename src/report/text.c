/*
 * text.c - fonts through fontconfig; text laid out, measured, wrapped,
 * ellipsised and drawn with Pango over cairo (pangocairo).
 *
 * Pango shapes the text, falls back to another font for a character the
 * family lacks, and breaks lines where the language allows (UAX #14: at
 * spaces, between Han characters but never before closing punctuation).
 * Every width here is a Pango layout's logical width with the same font
 * options as the drawing, so what is measured is exactly what is drawn.
 * Text reaches Pango only as valid UTF-8 (each bad byte a '?', offsets
 * kept): Pango would otherwise drop it with a warning.
 */
#include "text.h"

#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "core/utf8.h"

/* ---- fonts ------------------------------------------------------------ */

/* What each language asks of fontconfig and what the resolved font must
 * cover: the characters a report of that language actually draws. */
struct lang_need {
	const char *const *families;	/* in order of preference */
	size_t nfamilies;
	const char *fc_lang;		/* steers fallback; NULL: none */
	const char *sample;		/* must all have glyphs */
	const char *what;		/* for the message: "Chinese" */
	const char *package;		/* Debian package that provides one */
};

static const char *const en_families[] = { "DejaVu Sans" };
static const char *const zh_families[] = {
	"WenQuanYi Micro Hei", "Noto Sans CJK SC", "Droid Sans Fallback",
};

static const struct lang_need lang_needs[] = {
	[LANG_EN] = {
		en_families, 1, NULL,
		"Recommended instance: 8 x H100, 1,234.50 USD/h (p99 < 200 ms) "
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz "
		"0123456789 %-+=/[]'\"",
		"Latin", "fonts-dejavu-core",
	},
	[LANG_ZH] = {
		zh_families, 3, "zh-cn",
		"推荐实例成本时间每月训练推理数量小时元美元显存吞吐延迟部署"
		"方案预算截止，。：（）、"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz "
		"0123456789 %-+=/.,()",
		"Chinese", "fonts-wqy-microhei",
	},
};

/* The first character of utf8 the charset lacks (UTF8_INVALID for a
 * malformed byte), or 0 when it has them all.  Newlines and tabs are
 * layout, never drawn, so they need no glyph. */
static unsigned long first_missing(FcCharSet *cs, const char *utf8)
{
	size_t n = strlen(utf8);
	unsigned long cp;

	for (size_t i = 0; i < n;) {
		i += utf8_next(utf8 + i, n - i, &cp);
		if (cp == '\n' || cp == '\t')
			continue;
		if (cp == UTF8_INVALID || !FcCharSetHasChar(cs, (FcChar32)cp))
			return cp;
	}
	return 0;
}

/* What fontconfig resolves `family` to, with the substitutions cairo's
 * own lookup applies; the caller destroys the match.  NULL when
 * fontconfig has no font at all. */
static FcPattern *fc_resolve(const char *family, const char *lang)
{
	FcPattern *p = FcPatternCreate(), *m;
	FcResult res;

	if (!p)
		return NULL;
	FcPatternAddString(p, FC_FAMILY, (const FcChar8 *)family);
	if (lang)
		FcPatternAddString(p, FC_LANG, (const FcChar8 *)lang);
	FcConfigSubstitute(NULL, p, FcMatchPattern);
	FcDefaultSubstitute(p);
	m = FcFontMatch(NULL, p, &res);
	FcPatternDestroy(p);
	return m;
}

/*
 * Checks a match against the language's sample: fills f and returns 0
 * when it covers it, else describes the match in `detail` and returns -1.
 */
static int take_match(FcPattern *m, const char *asked,
		      const struct lang_need *need, struct report_font *f,
		      char *detail, size_t len)
{
	FcChar8 *file = NULL, *family = NULL;
	FcCharSet *cs = NULL;
	unsigned long miss;
	char ch[5] = "";

	FcPatternGetString(m, FC_FILE, 0, &file);
	FcPatternGetString(m, FC_FAMILY, 0, &family);
	FcPatternGetCharSet(m, FC_CHARSET, 0, &cs);
	if (!file || !family || !cs) {
		snprintf(detail, len, "'%s' resolved to a font without a "
			 "file, family or character set", asked);
		return -1;
	}
	miss = first_missing(cs, need->sample);
	if (miss == 0) {
		f->family = xstrdup(asked);
		f->lang = need == &lang_needs[LANG_ZH] ? LANG_ZH : LANG_EN;
		f->file = xstrdup((const char *)file);
		f->resolved_family = xstrdup((const char *)family);
		return 0;
	}
	ch[utf8_put(miss, ch)] = '\0';
	snprintf(detail, len, "resolved '%s', %s, which lacks '%s' U+%04lX",
		 (const char *)family, (const char *)file, ch, miss);
	return -1;
}

/*
 * Asks fontconfig for each family the language prefers and keeps the
 * first whose resolved font covers the language's sample; the reason
 * names what the first family resolved to and the package to install.
 */
int report_font_find(enum report_lang lang, struct report_font *f, char *why,
		     size_t whylen)
{
	char detail[768] = "fontconfig has no fonts at all";
	const struct lang_need *need;

	memset(f, 0, sizeof(*f));
	if ((unsigned)lang >= sizeof(lang_needs) / sizeof(lang_needs[0])) {
		snprintf(why, whylen, "unknown report language %d", (int)lang);
		return -1;
	}
	need = &lang_needs[lang];
	if (!FcInit()) {
		snprintf(why, whylen, "fontconfig could not load its "
			 "configuration: install fontconfig-config");
		return -1;
	}
	for (size_t i = 0; i < need->nfamilies; i++) {
		FcPattern *m = fc_resolve(need->families[i], need->fc_lang);
		char d[768];
		int ok;

		if (!m)
			continue;
		ok = take_match(m, need->families[i], need, f, d, sizeof(d));
		FcPatternDestroy(m);
		if (ok == 0)
			return 0;
		if (i == 0)
			snprintf(detail, sizeof(detail), "%s", d);
	}
	snprintf(why, whylen, "no font with %s glyphs found by fontconfig "
		 "(%s): install %s", need->what, detail, need->package);
	return -1;
}

void report_font_free(struct report_font *f)
{
	free(f->family);
	free(f->file);
	free(f->resolved_family);
	memset(f, 0, sizeof(*f));
}

/* The resolved font is looked up again by file and family, so the
 * charset checked is the one of the very face cairo draws with. */
bool report_font_covers(const struct report_font *f, const char *utf8)
{
	FcPattern *p;
	FcObjectSet *os;
	FcFontSet *fs = NULL;
	FcCharSet *cs = NULL;
	bool ok = false;

	if (!f || !f->file || !f->resolved_family || !FcInit())
		return false;
	p = FcPatternBuild(NULL, FC_FILE, FcTypeString, f->file,
			   FC_FAMILY, FcTypeString, f->resolved_family,
			   (char *)NULL);
	os = FcObjectSetBuild(FC_CHARSET, (char *)NULL);
	if (p && os)
		fs = FcFontList(NULL, p, os);
	if (fs && fs->nfont > 0 &&
	    FcPatternGetCharSet(fs->fonts[0], FC_CHARSET, 0, &cs) ==
		    FcResultMatch)
		ok = first_missing(cs, utf8) == 0;
	if (fs)
		FcFontSetDestroy(fs);
	if (os)
		FcObjectSetDestroy(os);
	if (p)
		FcPatternDestroy(p);
	return ok;
}


/*
 * Fontconfig's own caches are left to the exit, not freed with FcFini:
 * Pango 1.50 sorts fonts in background threads ("[pango] FcFontSetSort")
 * that hold fontconfig patterns until they end, and FcFini under one of
 * them fails an assertion in fontconfig that aborts the process (one
 * `compare --report -` in about 17 did, after its PDF was written).  What
 * fontconfig keeps then is its parsed configuration (256 + 32 bytes,
 * allocated under expat), which the sanitizers' leak checker is told here
 * to pass over.  The rule names fontconfig's library (its frames have no
 * symbols to name), so a fontconfig object gpuplan made and kept would be
 * passed over too: report_font_find and report_font_covers destroy each
 * they make.  The sanitizer runtime calls this; without one it is never
 * called.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

void report_fonts_shutdown(void)
{
	/* the thread's Pango font map holds cairo fonts and fontconfig
	 * patterns: emptied and dropped first */
	PangoFontMap *fm = pango_cairo_font_map_get_default();

	if (PANGO_IS_FC_FONT_MAP(fm))
		pango_fc_font_map_shutdown(PANGO_FC_FONT_MAP(fm));
	pango_cairo_font_map_set_default(NULL);
	cairo_debug_reset_static_data();
}

/* ---- Pango layouts ---------------------------------------------------- */

const char *text_lang_code(enum report_lang lang)
{
	return lang == LANG_ZH ? "zh-cn" : "en";
}

const char *text_family_lang(const char *family)
{
	for (size_t i = 0; family && i < sizeof(zh_families) / sizeof(*zh_families); i++)
		if (strcmp(family, zh_families[i]) == 0)
			return "zh-cn";
	return "en";
}

/* The layout cached on a cairo context, with what it was set up for. */
struct cached_layout {
	PangoLayout *layout;
};

static const cairo_user_data_key_t layout_key;

static void cached_free(void *p)
{
	struct cached_layout *c = p;

	g_object_unref(c->layout);
	free(c);
}

/*
 * A fresh context with font options fixed here rather than taken from
 * the surface: no hinting and unrounded glyph positions, so widths scale
 * exactly with the size and a PDF, an SVG and a PNG lay the same text out
 * the same way, byte for byte on every run.
 */
static PangoLayout *layout_create(cairo_t *cr)
{
	PangoContext *ctx = pango_cairo_create_context(cr);
	cairo_font_options_t *fo = cairo_font_options_create();
	PangoLayout *l;

	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	pango_cairo_context_set_font_options(ctx, fo);
	cairo_font_options_destroy(fo);
	pango_context_set_round_glyph_positions(ctx, FALSE);
	l = pango_layout_new(ctx);
	g_object_unref(ctx);
	return l;
}

PangoLayout *text_layout(cairo_t *cr, const char *family, const char *lang,
			 double size, bool bold)
{
	struct cached_layout *c = cairo_get_user_data(cr, &layout_key);
	PangoFontDescription *d;

	if (!c) {
		c = xcalloc(1, sizeof(*c));
		c->layout = layout_create(cr);
		if (cairo_set_user_data(cr, &layout_key, c, cached_free) !=
		    CAIRO_STATUS_SUCCESS) {
			/* a context in error: a layout of its own, leaked
			 * with it rather than drawn into (nothing draws) */
			return c->layout;
		}
	}
	pango_cairo_update_layout(cr, c->layout);
	pango_context_set_language(pango_layout_get_context(c->layout),
				   pango_language_from_string(lang ? lang : "en"));
	d = pango_font_description_new();
	pango_font_description_set_family(d, family ? family : "sans-serif");
	pango_font_description_set_weight(d, bold ? PANGO_WEIGHT_BOLD :
						    PANGO_WEIGHT_NORMAL);
	pango_font_description_set_absolute_size(d, size * PANGO_SCALE);
	pango_layout_set_font_description(c->layout, d);
	pango_font_description_free(d);
	pango_layout_set_width(c->layout, -1);
	pango_layout_set_wrap(c->layout, PANGO_WRAP_WORD_CHAR);
	pango_layout_set_ellipsize(c->layout, PANGO_ELLIPSIZE_NONE);
	pango_layout_set_single_paragraph_mode(c->layout, FALSE);
	pango_layout_set_height(c->layout, -1);
	pango_layout_set_alignment(c->layout, PANGO_ALIGN_LEFT);
	pango_layout_set_attributes(c->layout, NULL);
	pango_layout_set_text(c->layout, "", 0);
	return c->layout;
}

/* s[0..len) as a malloc'd string Pango accepts, byte offsets unchanged:
 * each malformed byte becomes '?', each noncharacter as many '?' as it
 * has bytes (utf8.h decides which is which, as for cairo). */
static char *clean_span(const char *s, size_t len)
{
	char *out = xmalloc(len + 1);
	unsigned long cp;

	for (size_t i = 0; i < len;) {
		size_t k = utf8_next(s + i, len - i, &cp);
		bool real_fffd = k == 3 && memcmp(s + i, "\xef\xbf\xbd", 3) == 0;

		if (cp == UTF8_INVALID || (cp == 0xfffd && !real_fffd))
			memset(out + i, '?', k);
		else
			memcpy(out + i, s + i, k);
		i += k;
	}
	out[len] = '\0';
	return out;
}

/*
 * s[0..len) into l as text Pango accepts, byte offsets unchanged: each
 * malformed byte becomes '?', each noncharacter as many '?' as it has
 * bytes (utf8.h decides which is which, as for cairo).
 */
void text_layout_set(PangoLayout *l, const char *s, size_t len)
{
	char *buf = clean_span(s, len);

	pango_layout_set_text(l, buf, (int)len);
	free(buf);
}

double text_layout_width(PangoLayout *l)
{
	PangoRectangle r;

	pango_layout_get_extents(l, NULL, &r);
	return (double)r.width / PANGO_SCALE;
}

/* The layout for f (its resolved family, its language). */
static PangoLayout *font_layout(cairo_t *cr, const struct report_font *f,
				double size, bool bold)
{
	const char *family = f && f->resolved_family ? f->resolved_family :
						       "sans-serif";

	return text_layout(cr, family, f ? text_lang_code(f->lang) : "en",
			   size, bold);
}

/* ---- measuring -------------------------------------------------------- */

static double measure(PangoLayout *l, const char *s, size_t len,
		      const char *suffix)
{
	size_t sl = strlen(suffix);
	char *t = xmalloc(len + sl + 1);
	double w;

	memcpy(t, s, len);
	memcpy(t + len, suffix, sl + 1);
	pango_layout_set_width(l, -1);	/* one line, however long */
	pango_layout_set_attributes(l, NULL);
	text_layout_set(l, t, len + sl);
	w = text_layout_width(l);
	free(t);
	return w;
}

static size_t trim_spaces(const char *s, size_t len)
{
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\n'))
		len--;
	return len;
}

/*
 * The longest prefix of s[0..len), ending on a character boundary,
 * whose width with suffix appended is <= width; trailing spaces dropped.
 * Returns its length in bytes.  Binary search: a prefix is only returned
 * after it was measured to fit.
 */
static size_t longest_fit(PangoLayout *l, const char *s, size_t len,
			  const char *suffix, double width)
{
	size_t *b = xmalloc((len + 1) * sizeof(*b)), k = utf8_bounds(s, len, b);
	size_t lo = 0, hi = k, best;

	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;

		if (measure(l, s, trim_spaces(s, b[mid]), suffix) <= width)
			lo = mid;
		else
			hi = mid - 1;
	}
	best = trim_spaces(s, b[lo]);
	free(b);
	return best;
}

/* s[0..len) cut to its longest prefix that fits width with "..." after
 * it, as a malloc'd clean string ("" when not even "..." fits). */
static char *ellipsised(PangoLayout *l, const char *s, size_t len,
			double width)
{
	size_t p;
	char *out;

	if (measure(l, "", 0, "...") > width)
		return xstrdup("");
	p = longest_fit(l, s, len, "...", width);
	out = xmalloc(p + 4);
	memcpy(out, s, p);
	memcpy(out + p, "...", 4);
	return out;
}

double text_width(cairo_t *cr, const struct report_font *f, const char *utf8,
		  double size)
{
	return measure(font_layout(cr, f, size, false), utf8, strlen(utf8), "");
}

/* ---- wrapping --------------------------------------------------------- */

/* U+200B ZERO WIDTH SPACE: a break opportunity that draws nothing. */
#define ZWSP "\xe2\x80\x8b"

/*
 * The text a layout wraps, and where its bytes came from: `keep_words`
 * (table cells) keeps every space-separated word that fits the width on
 * one line (Pango would break between any two Han characters, splitting
 * "小时"), and lets a word that does not fit break after its '_' first
 * (an instance name: "Standard_NC24ads_" / "A100_v4"), then anywhere.
 */
struct wrap_text {
	char *s;		/* what the layout holds */
	size_t n;
	size_t *orig;		/* per byte of s + 1: its offset in the input */
	PangoAttrList *attrs;	/* NULL: Pango's own breaks throughout */
};

static void wrap_text_free(struct wrap_text *w)
{
	free(w->s);
	free(w->orig);
	if (w->attrs)
		pango_attr_list_unref(w->attrs);
}

static void wrap_put(struct wrap_text *w, const char *b, size_t k,
		     size_t from)
{
	for (size_t i = 0; i < k; i++) {
		w->s[w->n] = b[i];
		w->orig[w->n++] = from;
	}
}

static void wrap_prepare(PangoLayout *l, const char *s, size_t len,
			 double width, bool keep_words, struct wrap_text *w)
{
	w->s = xmalloc(4 * len + 1);
	w->orig = xmalloc((4 * len + 1) * sizeof(*w->orig));
	w->n = 0;
	w->attrs = keep_words ? pango_attr_list_new() : NULL;
	for (size_t i = 0; i < len;) {
		size_t e = i, start = w->n;

		if (s[i] == ' ' || s[i] == '\n') {
			wrap_put(w, s + i, 1, i);
			i++;
			continue;
		}
		while (e < len && s[e] != ' ' && s[e] != '\n')
			e++;
		bool fits = !keep_words || measure(l, s + i, e - i, "") <= width;
		for (size_t j = i; j < e; j++) {
			wrap_put(w, s + j, 1, j);
			if (!fits && s[j] == '_' && j + 1 < e)
				wrap_put(w, ZWSP, 3, j + 1);
		}
		if (keep_words && fits && w->n - start > 1) {
			PangoAttribute *a = pango_attr_allow_breaks_new(FALSE);

			a->start_index = (guint)start;
			a->end_index = (guint)w->n;
			pango_attr_list_insert(w->attrs, a);
		}
		i = e;
	}
	w->orig[w->n] = len;
	w->s[w->n] = '\0';
}

/* Lays s[0..len) out in l at width (< 0: one character a line) and
 * stores up to max lines in spans; returns how many lines there are. */
static size_t wrap_into(PangoLayout *l, const char *s, size_t len,
			double width, bool keep_words, struct text_span *spans,
			size_t max)
{
	struct wrap_text w;
	PangoLayoutIter *it;
	size_t count = 0;

	if (trim_spaces(s, len) == 0 && memchr(s, '\n', len) == NULL)
		return 0;
	wrap_prepare(l, s, len, width, keep_words, &w);
	text_layout_set(l, w.s, w.n);
	pango_layout_set_attributes(l, w.attrs);
	pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
	/* a width of 0 wraps after every character */
	pango_layout_set_width(l, width > 0 ? (int)(width * PANGO_SCALE) : 0);
	it = pango_layout_get_iter(l);
	do {
		PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);
		size_t a = (size_t)line->start_index;
		size_t b = a + (size_t)line->length;

		if (a >= w.n && count > 0 && w.n > 0 && w.s[w.n - 1] == '\n')
			break;	/* the empty line after a final newline */
		if (count < max) {
			size_t from = w.orig[a], to = w.orig[b];

			while (to > from && (s[to - 1] == ' ' || s[to - 1] == '\n'))
				to--;
			while (from < to && s[from] == ' ')
				from++;
			spans[count] = (struct text_span){ from, to - from };
		}
		count++;
	} while (pango_layout_iter_next_line(it));
	pango_layout_iter_free(it);
	pango_layout_set_attributes(l, NULL);
	wrap_text_free(&w);
	return count;
}

static size_t wrap_all(PangoLayout *l, const char *utf8, double width,
		       bool keep_words, struct text_span **spans)
{
	size_t len = strlen(utf8);
	size_t n = wrap_into(l, utf8, len, width, keep_words, NULL, 0);

	*spans = xcalloc(n + 1, sizeof(**spans));
	return wrap_into(l, utf8, len, width, keep_words, *spans, n);
}

size_t text_wrap(cairo_t *cr, const struct report_font *f, const char *utf8,
		 double size, double width, bool bold, struct text_span *spans,
		 size_t max)
{
	return wrap_into(font_layout(cr, f, size, bold), utf8, strlen(utf8),
			 width, false, spans, max);
}

/* How many lines of pitch `pitch` fit a height h (a hair of rounding
 * forgiven, so a box sized as k x pitch holds k lines). */
static size_t lines_in(double h, double pitch)
{
	if (!(pitch > 0) || !(h > 0))
		return 0;
	return (size_t)floor(h / pitch + 1e-9);
}

static size_t box_layout(cairo_t *cr, const struct report_font *f,
			 struct rect box, const char *utf8, double size,
			 double line_height, bool bold, bool keep_words,
			 char ***lines)
{
	size_t fit = lines_in(box.h, size * line_height), n, shown;
	PangoLayout *l;
	struct text_span *spans;

	*lines = NULL;
	if (fit == 0 || !(box.w > 0) || !*utf8)
		return 0;
	l = font_layout(cr, f, size, bold);
	n = wrap_all(l, utf8, box.w, keep_words, &spans);
	shown = n < fit ? n : fit;
	*lines = xcalloc(shown ? shown : 1, sizeof(**lines));
	for (size_t i = 0; i < shown; i++)
		(*lines)[i] = clean_span(utf8 + spans[i].off, spans[i].len);
	if (shown > 0 && n > shown) {
		/* text was dropped: the last line runs on to the end of
		 * its paragraph and is cut with "..." inside the width */
		struct text_span sp = spans[shown - 1];
		size_t end = sp.off + strcspn(utf8 + sp.off, "\n");
		char *c = clean_span(utf8 + sp.off, end - sp.off);

		free((*lines)[shown - 1]);
		(*lines)[shown - 1] = ellipsised(l, c, strlen(c), box.w);
		free(c);
	}
	free(spans);
	return shown;
}

size_t text_box_layout(cairo_t *cr, const struct report_font *f,
		       struct rect box, const char *utf8, double size,
		       double line_height, bool bold, char ***lines)
{
	return box_layout(cr, f, box, utf8, size, line_height, bold, false,
			  lines);
}

void text_lines_free(char **lines, size_t n)
{
	for (size_t i = 0; lines && i < n; i++)
		free(lines[i]);
	free(lines);
}

/* ---- drawing ---------------------------------------------------------- */

/* Offset from the top of a slot of height `slot` to the baseline that
 * centres a line of l's font in it. */
static double baseline_in(PangoLayout *l, double slot)
{
	PangoRectangle r;
	double base;

	pango_layout_set_text(l, "Ag", 2);
	pango_layout_get_extents(l, NULL, &r);
	base = (double)pango_layout_get_baseline(l) / PANGO_SCALE;
	return (slot - (double)r.height / PANGO_SCALE) / 2 + base;
}

/* Shows what l holds with its first baseline's left end at (x, y);
 * leaves no current path behind. */
static void show_layout_at(cairo_t *cr, PangoLayout *l, double x, double y)
{
	double base = (double)pango_layout_get_baseline(l) / PANGO_SCALE;

	cairo_new_path(cr);
	cairo_move_to(cr, x, y - base);
	pango_cairo_show_layout(cr, l);
	cairo_new_path(cr);
}

double text_box(cairo_t *cr, const struct report_font *f, struct rect box,
		const char *utf8, double size, double line_height, bool bold)
{
	char **lines;
	size_t n = text_box_layout(cr, f, box, utf8, size, line_height, bold,
				   &lines);
	double pitch = size * line_height;
	PangoLayout *l = font_layout(cr, f, size, bold);
	double lead = baseline_in(l, pitch);

	for (size_t i = 0; i < n; i++) {
		text_layout_set(l, lines[i], strlen(lines[i]));
		show_layout_at(cr, l, box.x, box.y + (double)i * pitch + lead);
	}
	text_lines_free(lines, n);
	return (double)n * pitch;
}

/* Only the first line of utf8 is drawn: a newline is layout, not text.
 * Pango ellipsises it at the end when it is wider than max_width. */
void text_line(cairo_t *cr, const struct report_font *f, double x, double y,
	       double max_width, const char *utf8, double size, double align,
	       bool bold)
{
	PangoLayout *l = font_layout(cr, f, size, bold);
	size_t len = strcspn(utf8, "\n");

	text_layout_set(l, utf8, len);
	if (text_layout_width(l) > max_width) {
		if (!(max_width > 0))
			return;
		pango_layout_set_width(l, (int)(max_width * PANGO_SCALE));
		pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
	}
	show_layout_at(cr, l, x - align * text_layout_width(l), y);
}

double text_title(cairo_t *cr, const struct report_font *f, struct rect box,
		  const char *utf8, double size, bool bold, size_t *cut)
{
	PangoLayout *l = font_layout(cr, f, size, bold);
	struct text_span *spans;
	size_t n = wrap_all(l, utf8, box.w, false, &spans);
	size_t fit = lines_in(box.h, size * 1.25);
	struct rect b = box;

	b.h = (double)(n < fit ? n : fit) * size * 1.25;
	if (cut)
		*cut = n > fit ? n - fit : 0;
	free(spans);
	return text_box(cr, f, b, utf8, size, 1.25, bold);
}

/* ---- tables ----------------------------------------------------------- */

/* Row height: the text and 0.35 em above and below it. */
double text_table_row_height(double size)
{
	return 1.7 * size;
}

/* A cell wraps onto at most this many lines, the last ellipsised: an
 * instance name or a reason stays readable, a row never becomes a page. */
#define CELL_MAX_LINES 3
#define CELL_PITCH 1.2		/* line pitch inside a cell, in em */
#define CELL_PAD 0.4		/* inside each side of a column, in em */

/* The widest space-separated word of s. */
static double widest_word(PangoLayout *l, const char *s)
{
	double w = 0;

	for (size_t i = 0; s[i];) {
		size_t e = i + strcspn(s + i, " \n");

		if (e > i)
			w = fmax(w, measure(l, s + i, e - i, ""));
		i = e + (s[e] != '\0');
	}
	return w;
}

/* Column c's natural width (its longest cell on one line) and its
 * narrowest (its widest word), header included. */
static void column_needs(cairo_t *cr, const struct report_font *f,
			 const struct text_table *t, size_t c, double size,
			 double *nat, double *min)
{
	*nat = *min = 0;
	for (size_t r = 0; r <= t->nrows; r++) {
		const char *s = r == 0 ? (t->header ? t->header[c] : NULL) :
					 t->cells[(r - 1) * t->ncols + c];
		PangoLayout *l = font_layout(cr, f, size, r == 0);

		if (!s || !*s)
			continue;
		*nat = fmax(*nat, measure(l, s, strcspn(s, "\n"), ""));
		*min = fmax(*min, widest_word(l, s));
	}
}

/*
 * Widths for columns that cannot all have their natural width: a column
 * that needs no more than an equal share of what is left gets all it
 * needs (repeatedly: what it leaves raises the share); the others split
 * the rest, each at least its widest word, the excess in proportion to
 * how much longer than that word their text runs.  False when even the
 * words do not fit.
 */
static bool water_fill(const double *nat, const double *min, size_t n,
		       double room, double *w)
{
	bool *done = xcalloc(n, sizeof(*done)), changed = true;
	size_t left = n;
	double smin = 0, sext = 0;

	while (changed && left > 0) {
		double share = room / (double)left;

		changed = false;
		for (size_t c = 0; c < n; c++)
			if (!done[c] && nat[c] <= share) {
				w[c] = nat[c];
				room -= nat[c];
				done[c] = changed = true;
				left--;
			}
	}
	for (size_t c = 0; c < n; c++)
		if (!done[c]) {
			smin += min[c];
			sext += nat[c] - min[c];
		}
	for (size_t c = 0; c < n && smin <= room; c++)
		if (!done[c])
			w[c] = min[c] + (sext > 0 ? (room - smin) *
					 (nat[c] - min[c]) / sext : 0);
	free(done);
	return smin <= room;
}

void text_table_widths(cairo_t *cr, const struct report_font *f,
		       const struct text_table *t, double width, double size,
		       double *out)
{
	double pad = 2 * CELL_PAD * size, room = width - pad * (double)t->ncols;
	double *nat = xcalloc(t->ncols, sizeof(*nat));
	double *min = xcalloc(t->ncols, sizeof(*min));
	double *w = xcalloc(t->ncols, sizeof(*w));
	double snat = 0, smin = 0;

	for (size_t c = 0; c < t->ncols; c++) {
		column_needs(cr, f, t, c, size, &nat[c], &min[c]);
		snat += nat[c];
		smin += min[c];
	}
	for (size_t c = 0; c < t->ncols; c++) {
		if (!(room > 0) || snat <= 0)
			w[c] = room / (double)t->ncols;
		else if (snat <= room)	/* all on one line; spread the rest */
			w[c] = nat[c] + (room - snat) * nat[c] / snat;
	}
	if (room > 0 && snat > room &&
	    !water_fill(nat, min, t->ncols, room, w))
		for (size_t c = 0; c < t->ncols; c++)	/* shares of the words */
			w[c] = room * (smin > 0 ? min[c] / smin :
					1.0 / (double)t->ncols);
	for (size_t c = 0; c < t->ncols; c++)
		out[c] = (w[c] + pad) / width;
	free(nat);
	free(min);
	free(w);
}

size_t text_cell_layout(cairo_t *cr, const struct report_font *f,
			const char *utf8, double size, double width, bool bold,
			char ***lines)
{
	struct rect cell = { 0, 0, width, CELL_MAX_LINES * CELL_PITCH * size };

	return box_layout(cr, f, cell, utf8, size, CELL_PITCH, bold, true,
			  lines);
}

/* One row laid out: each cell's lines and the most lines any cell needs. */
struct row_layout {
	char ***lines;
	size_t *n;
	size_t most;
};

static void row_layout(cairo_t *cr, const struct report_font *f,
		       struct rect box, const struct text_table *t,
		       const double *frac, const char *const *cells,
		       double size, bool bold, struct row_layout *l)
{
	double pad = CELL_PAD * size;

	l->lines = xcalloc(t->ncols, sizeof(*l->lines));
	l->n = xcalloc(t->ncols, sizeof(*l->n));
	l->most = 1;
	for (size_t c = 0; c < t->ncols; c++) {
		double room = box.w * frac[c] - 2 * pad;

		if (!(room > 0) || !cells[c] || !*cells[c])
			continue;
		l->n[c] = text_cell_layout(cr, f, cells[c], size, room, bold,
					   &l->lines[c]);
		if (l->n[c] > l->most)
			l->most = l->n[c];
	}
}

static void row_layout_free(const struct text_table *t, struct row_layout *l)
{
	for (size_t c = 0; c < t->ncols; c++)
		text_lines_free(l->lines[c], l->n[c]);
	free(l->lines);
	free(l->n);
}

/* A row of `lines` lines: the one-line height plus a pitch per extra. */
static double row_height(double size, size_t lines)
{
	return text_table_row_height(size) + (double)(lines - 1) * CELL_PITCH * size;
}

/* Draws a laid-out row at the top y, each cell left or right aligned
 * inside its column less CELL_PAD em of padding on either side. */
static void table_row(cairo_t *cr, const struct report_font *f,
		      struct rect box, const struct text_table *t,
		      const double *frac, const struct row_layout *l, double y,
		      double size, bool bold)
{
	double pad = CELL_PAD * size, x = box.x;
	double base = y + baseline_in(font_layout(cr, f, size, bold),
				      text_table_row_height(size));

	for (size_t c = 0; c < t->ncols; c++) {
		double cw = box.w * frac[c], room = cw - 2 * pad;
		double a = t->align ? t->align[c] : 0;

		for (size_t k = 0; k < l->n[c]; k++)
			text_line(cr, f, x + pad + a * room,
				  base + (double)k * CELL_PITCH * size, room,
				  l->lines[c][k], size, a, bold);
		x += cw;
	}
}

/* Fills a row's background with the light stripe, then puts the
 * caller's ink back. */
static void shade(cairo_t *cr, cairo_pattern_t *ink, struct rect r)
{
	cairo_set_source_rgb(cr, 0.94, 0.95, 0.97);
	cairo_rectangle(cr, r.x, r.y, r.w, r.h);
	cairo_fill(cr);
	cairo_set_source(cr, ink);
}

/*
 * Header (bold, with a rule under it), then rows from `first` while they
 * fit; odd rows (counted over the whole table, so stripes continue across
 * pages) are shaded.  A box that holds the header and one single-line row
 * always gets a row, so callers looping over pages progress.  Columns
 * without given widths are sized from the whole table, so they stay the
 * same from page to page.
 */
size_t text_table_draw(cairo_t *cr, const struct report_font *f,
		       struct rect box, const struct text_table *t, size_t first,
		       double size)
{
	double y = box.y, bottom = box.y + box.h, *frac;
	size_t fit = lines_in(box.h, text_table_row_height(size)), last = first;
	cairo_pattern_t *ink;
	struct row_layout l;

	if (first >= t->nrows)
		return t->nrows;
	if (t->header && fit > 0)
		fit--;
	if (fit == 0 || t->ncols == 0)
		return first;
	frac = xcalloc(t->ncols, sizeof(*frac));
	if (t->widths)
		memcpy(frac, t->widths, t->ncols * sizeof(*frac));
	else
		text_table_widths(cr, f, t, box.w, size, frac);
	cairo_save(cr);
	ink = cairo_pattern_reference(cairo_get_source(cr));
	if (t->header) {
		row_layout(cr, f, box, t, frac, t->header, size, true, &l);
		table_row(cr, f, box, t, frac, &l, y, size, true);
		y += row_height(size, l.most);
		row_layout_free(t, &l);
		cairo_set_line_width(cr, fmax(0.5, size / 14));
		cairo_move_to(cr, box.x, y);
		cairo_line_to(cr, box.x + box.w, y);
		cairo_stroke(cr);
	}
	for (size_t r = first; r < t->nrows; r++) {
		row_layout(cr, f, box, t, frac, t->cells + r * t->ncols, size,
			   false, &l);
		double h = row_height(size, l.most);
		bool fits = y + h <= bottom + 1e-9;

		if (fits || r == first) {
			if (r % 2)
				shade(cr, ink, (struct rect){ box.x, y, box.w, h });
			table_row(cr, f, box, t, frac, &l, y, size, false);
			y += h;
			last = r + 1;
		}
		row_layout_free(t, &l);
		if (!fits)
			break;
	}
	cairo_pattern_destroy(ink);
	cairo_restore(cr);
	free(frac);
	return last;
}

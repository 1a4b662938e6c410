/*
 * text.c - fonts through fontconfig; text measured, wrapped, ellipsised
 * and drawn with cairo.
 *
 * Every width here is cairo_text_extents' x_advance at the font and size
 * selected on the context, so what is measured is exactly what is drawn.
 * Text is handed to cairo only after being copied with invalid UTF-8 and
 * noncharacters replaced by U+FFFD (utf8.h): a string cairo refuses would
 * put the context into a permanent error state and blank the rest of the
 * report.
 */
#include "text.h"

#include <fontconfig/fontconfig.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "core/utf8.h"

/* ---- UTF-8 ------------------------------------------------------------ */

/* Byte offsets of the character boundaries of s[0..len) in *bounds
 * (malloc'd): bounds[0] = 0, ..., bounds[k] = len; returns k. */
static size_t utf8_bounds(const char *s, size_t len, size_t **bounds)
{
	size_t *b = xmalloc((len + 1) * sizeof(*b));
	size_t k = 0;
	unsigned long cp;

	b[0] = 0;
	for (size_t i = 0; i < len;) {
		i += utf8_next(s + i, len - i, &cp);
		b[++k] = i;
	}
	*bounds = b;
	return k;
}

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

void report_fonts_shutdown(void)
{
	cairo_debug_reset_static_data();
	FcFini();
}

void text_use_font(cairo_t *cr, const struct report_font *f, bool bold)
{
	const char *family = f && f->resolved_family ? f->resolved_family :
						       "sans-serif";

	cairo_select_font_face(cr, family, CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD :
				      CAIRO_FONT_WEIGHT_NORMAL);
}

static void use_font(cairo_t *cr, const struct report_font *f, double size,
		     bool bold)
{
	text_use_font(cr, f, bold);
	cairo_set_font_size(cr, size);
}

/* ---- measuring -------------------------------------------------------- */

/* A context with its font selected, and a scratch buffer for the
 * NUL-terminated, cleaned copies cairo needs. */
struct meter {
	cairo_t *cr;
	char *buf;
	size_t cap;
};

/* s[0..len) followed by suffix, cleaned and NUL-terminated, in m->buf
 * (valid until the next call). */
static const char *meter_text(struct meter *m, const char *s, size_t len,
			      const char *suffix)
{
	size_t sl = strlen(suffix), o;

	xgrow((void **)&m->buf, &m->cap, 3 * len + sl + 1, 1);
	o = utf8_clean(m->buf, s, len, 0xfffd);
	memcpy(m->buf + o, suffix, sl + 1);
	return m->buf;
}

static double meter_width(struct meter *m, const char *s, size_t len,
			  const char *suffix)
{
	cairo_text_extents_t e;

	cairo_text_extents(m->cr, meter_text(m, s, len, suffix), &e);
	return e.x_advance;
}

static size_t trim_spaces(const char *s, size_t len)
{
	while (len > 0 && s[len - 1] == ' ')
		len--;
	return len;
}

/*
 * The longest prefix of s[0..len), ending on a character boundary and
 * with at least min_chars characters, whose width with suffix appended is
 * <= width; with a suffix the prefix's trailing spaces are dropped.
 * Returns its length in bytes.  Binary search: a prefix is only ever
 * returned after it was measured to fit (or because min_chars forced it).
 */
static size_t longest_fit(struct meter *m, const char *s, size_t len,
			  const char *suffix, double width, size_t min_chars)
{
	size_t *b, k = utf8_bounds(s, len, &b);
	size_t lo = min_chars < k ? min_chars : k, hi = k, best;

	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;
		size_t pl = *suffix ? trim_spaces(s, b[mid]) : b[mid];

		if (meter_width(m, s, pl, suffix) <= width)
			lo = mid;
		else
			hi = mid - 1;
	}
	best = *suffix ? trim_spaces(s, b[lo]) : b[lo];
	free(b);
	return best;
}

/*
 * s[0..len) as a malloc'd, cleaned string no wider than width: whole when
 * it fits and !force, else its longest fitting prefix followed by "...",
 * or "" when not even "..." fits.
 */
static char *fit_text(struct meter *m, const char *s, size_t len,
		      double width, bool force)
{
	size_t p;

	if (!force && meter_width(m, s, len, "") <= width)
		return xstrdup(meter_text(m, s, len, ""));
	if (meter_width(m, "", 0, "...") > width)
		return xstrdup("");
	p = longest_fit(m, s, len, "...", width, 0);
	return xstrdup(meter_text(m, s, p, "..."));
}

double text_width(cairo_t *cr, const struct report_font *f, const char *utf8,
		  double size)
{
	struct meter m = { cr, NULL, 0 };
	double w;

	cairo_save(cr);
	use_font(cr, f, size, false);
	w = meter_width(&m, utf8, strlen(utf8), "");
	cairo_restore(cr);
	free(m.buf);
	return w;
}

/* ---- wrapping --------------------------------------------------------- */

/* Han, kana, Hangul, CJK punctuation and full-width forms: scripts
 * written without spaces, where a line may break between characters. */
static bool is_cjk(unsigned long c)
{
	return (c >= 0x2e80 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) ||
	       (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) ||
	       (c >= 0xff00 && c <= 0xffef) ||
	       (c >= 0x20000 && c <= 0x3ffff);
}

/* Is c one of the characters of the UTF-8 string set? */
static bool in_set(const char *set, unsigned long c)
{
	char ch[5];

	if (c == 0 || c >= UTF8_INVALID)
		return false;
	ch[utf8_put(c, ch)] = '\0';
	return strstr(set, ch) != NULL;	/* UTF-8 only matches whole */
}

/* Closing punctuation never starts a line, opening never ends one (the
 * basic rule of Chinese and Japanese line breaking). */
static bool no_break_before(unsigned long c)
{
	return in_set("，。、；：！？）」』】〉》”’…．｝］％,.;:!?)]}%", c);
}

static bool no_break_after(unsigned long c)
{
	return in_set("（「『【〈《“‘｛［([{", c);
}

/* May a line break between characters a and b (neither a space)? */
static bool cjk_break(unsigned long a, unsigned long b)
{
	return (is_cjk(a) || is_cjk(b)) && !no_break_before(b) &&
	       !no_break_after(a);
}

struct wrap {
	struct meter *m;
	const char *s;
	size_t n;		/* strlen(s) */
	double width;
};

static size_t skip_spaces(const struct wrap *w, size_t i)
{
	while (i < w->n && w->s[i] == ' ')
		i++;
	return i;
}

/*
 * Finds the first break opportunity after the character at i (which
 * belongs to the line starting at `start`): *end is where the line would
 * end there (spaces trimmed), *next where the following line starts.
 * Returns true for a forced break (a newline or the end of the text).
 */
static bool next_break(const struct wrap *w, size_t start, size_t i,
		       size_t *end, size_t *next)
{
	bool forced = false;
	unsigned long c, d;

	for (;;) {
		size_t j = i + utf8_next(w->s + i, w->n - i, &c);

		if (c == '\n' || j >= w->n) {
			forced = true;
			*end = c == '\n' ? i : w->n;
			*next = j;
			break;
		}
		utf8_next(w->s + j, w->n - j, &d);
		if (d != ' ' && d != '\n' && (c == ' ' || cjk_break(c, d))) {
			*end = j;
			*next = j;
			break;
		}
		i = j;
	}
	*end = start + trim_spaces(w->s + start, *end - start);
	return forced;
}

/*
 * Lays out the line that starts at `start` (not a space): greedily takes
 * break opportunities while the text up to them fits; a first segment
 * that alone is too wide is cut between characters (at least one, so
 * layout always progresses).  Stores the line and returns where the next
 * one starts.
 */
static size_t wrap_line(const struct wrap *w, size_t start,
			struct text_span *line)
{
	size_t i = start, end, next, best_end = start, best_next = 0;

	for (;;) {
		bool forced = next_break(w, start, i, &end, &next);

		if (end > start &&	/* an empty line always fits */
		    meter_width(w->m, w->s + start, end - start, "") >
			    w->width)
			break;
		best_end = end;
		best_next = next;
		if (forced)
			break;
		i = next;
	}
	if (best_next == 0) {	/* nothing fitted: cut the segment */
		best_end = start + longest_fit(w->m, w->s + start, end - start,
					       "", w->width, 1);
		best_next = best_end;
	}
	line->off = start;
	line->len = best_end - start;
	return best_next;
}

/* Lays out at most `limit` lines, storing the first `max`; *rest is where
 * the text not laid out starts (w->n when all was).  Returns the count. */
static size_t wrap_lines(const struct wrap *w, struct text_span *spans,
			 size_t max, size_t limit, size_t *rest)
{
	size_t count = 0, pos = skip_spaces(w, 0);

	while (pos < w->n && count < limit) {
		struct text_span sp;

		pos = skip_spaces(w, wrap_line(w, pos, &sp));
		if (count < max)
			spans[count] = sp;
		count++;
	}
	*rest = pos;
	return count;
}

size_t text_wrap(cairo_t *cr, const struct report_font *f, const char *utf8,
		 double size, double width, bool bold, struct text_span *spans,
		 size_t max)
{
	struct meter m = { cr, NULL, 0 };
	struct wrap w = { &m, utf8, strlen(utf8), width };
	size_t rest, count;

	cairo_save(cr);
	use_font(cr, f, size, bold);
	count = wrap_lines(&w, spans, max, SIZE_MAX, &rest);
	cairo_restore(cr);
	free(m.buf);
	return count;
}

/* How many lines of pitch `pitch` fit a height h (a hair of rounding
 * forgiven, so a box sized as k x pitch holds k lines). */
static size_t lines_in(double h, double pitch)
{
	if (!(pitch > 0) || !(h > 0))
		return 0;
	return (size_t)floor(h / pitch + 1e-9);
}

/* The last shown line when text was dropped: its text runs on to the end
 * of its paragraph and is cut with "..." inside the width. */
static char *last_line(const struct wrap *w, struct text_span sp)
{
	const char *nl = memchr(w->s + sp.off + sp.len, '\n',
				w->n - sp.off - sp.len);
	size_t end = nl ? (size_t)(nl - w->s) : w->n;

	return fit_text(w->m, w->s + sp.off, end - sp.off, w->width, true);
}

size_t text_box_layout(cairo_t *cr, const struct report_font *f,
		       struct rect box, const char *utf8, double size,
		       double line_height, bool bold, char ***lines)
{
	struct meter m = { cr, NULL, 0 };
	struct wrap w = { &m, utf8, strlen(utf8), box.w };
	size_t fit = lines_in(box.h, size * line_height), n, rest;
	struct text_span *spans;

	*lines = NULL;
	if (fit == 0 || !(box.w > 0) || w.n == 0)
		return 0;
	if (fit > w.n)	/* every line holds a byte or ends at a newline */
		fit = w.n;
	cairo_save(cr);
	use_font(cr, f, size, bold);
	spans = xcalloc(fit, sizeof(*spans));
	n = wrap_lines(&w, spans, fit, fit, &rest);
	*lines = xcalloc(n ? n : 1, sizeof(**lines));
	for (size_t i = 0; i < n; i++)
		(*lines)[i] = xstrdup(meter_text(&m, utf8 + spans[i].off,
						 spans[i].len, ""));
	if (n > 0 && rest < w.n) {
		free((*lines)[n - 1]);
		(*lines)[n - 1] = last_line(&w, spans[n - 1]);
	}
	cairo_restore(cr);
	free(spans);
	free(m.buf);
	return n;
}

void text_lines_free(char **lines, size_t n)
{
	for (size_t i = 0; lines && i < n; i++)
		free(lines[i]);
	free(lines);
}

/* ---- drawing ---------------------------------------------------------- */

/* Shows clean text with its baseline's left end at (x, y); leaves no
 * current path behind. */
static void show_at(cairo_t *cr, double x, double y, const char *clean)
{
	cairo_new_path(cr);
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, clean);
	cairo_new_path(cr);
}

/* Offset from the top of a slot of height `slot` to the baseline that
 * centres the font's ascent + descent in it (font already selected). */
static double baseline_in(cairo_t *cr, double slot)
{
	cairo_font_extents_t fe;

	cairo_font_extents(cr, &fe);
	return (slot - (fe.ascent + fe.descent)) / 2 + fe.ascent;
}

double text_box(cairo_t *cr, const struct report_font *f, struct rect box,
		const char *utf8, double size, double line_height, bool bold)
{
	char **lines;
	size_t n = text_box_layout(cr, f, box, utf8, size, line_height, bold,
				   &lines);
	double pitch = size * line_height, lead;

	cairo_save(cr);
	use_font(cr, f, size, bold);
	lead = baseline_in(cr, pitch);
	for (size_t i = 0; i < n; i++)
		show_at(cr, box.x, box.y + (double)i * pitch + lead, lines[i]);
	cairo_restore(cr);
	text_lines_free(lines, n);
	return (double)n * pitch;
}

/* Only the first line of utf8 is drawn: a newline is layout, not text. */
void text_line(cairo_t *cr, const struct report_font *f, double x, double y,
	       double max_width, const char *utf8, double size, double align,
	       bool bold)
{
	struct meter m = { cr, NULL, 0 };
	char *t;

	cairo_save(cr);
	use_font(cr, f, size, bold);
	t = fit_text(&m, utf8, strcspn(utf8, "\n"), max_width, false);
	show_at(cr, x - align * meter_width(&m, t, strlen(t), ""), y, t);
	cairo_restore(cr);
	free(t);
	free(m.buf);
}

/* ---- tables ----------------------------------------------------------- */

/* Row height: the text and 0.35 em above and below it. */
double text_table_row_height(double size)
{
	return 1.7 * size;
}

static double col_frac(const struct text_table *t, size_t c)
{
	return t->widths ? t->widths[c] : 1.0 / (double)t->ncols;
}

/* A cell wraps onto at most this many lines, the last ellipsised: an
 * instance name or a reason stays readable, a row never becomes a page. */
#define CELL_MAX_LINES 3
#define CELL_PITCH 1.2		/* line pitch inside a cell, in em */

/* One row laid out: each cell's lines (text_box_layout) and the most
 * lines any cell needs. */
struct row_layout {
	char ***lines;
	size_t *n;
	size_t most;
};

static void row_layout(cairo_t *cr, const struct report_font *f,
		       struct rect box, const struct text_table *t,
		       const char *const *cells, double size, bool bold,
		       struct row_layout *l)
{
	double pad = 0.4 * size;
	l->lines = xcalloc(t->ncols, sizeof(*l->lines));
	l->n = xcalloc(t->ncols, sizeof(*l->n));
	l->most = 1;
	for (size_t c = 0; c < t->ncols; c++) {
		double room = box.w * col_frac(t, c) - 2 * pad;
		if (!(room > 0) || !cells[c] || !*cells[c])
			continue;
		struct rect cell = {0, 0, room, CELL_MAX_LINES * CELL_PITCH * size};
		l->n[c] = text_box_layout(cr, f, cell, cells[c], size, CELL_PITCH,
					  bold, &l->lines[c]);
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
 * inside its column less 0.4 em of padding on either side. */
static void table_row(cairo_t *cr, const struct report_font *f,
		      struct rect box, const struct text_table *t,
		      const struct row_layout *l, double y, double size,
		      bool bold)
{
	double pad = 0.4 * size, x = box.x, base;

	cairo_save(cr);
	use_font(cr, f, size, bold);
	base = y + baseline_in(cr, text_table_row_height(size));
	cairo_restore(cr);
	for (size_t c = 0; c < t->ncols; c++) {
		double cw = box.w * col_frac(t, c), room = cw - 2 * pad;
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
 * always gets a row, so callers looping over pages progress.
 */
size_t text_table_draw(cairo_t *cr, const struct report_font *f,
		       struct rect box, const struct text_table *t, size_t first,
		       double size)
{
	double y = box.y, bottom = box.y + box.h;
	size_t fit = lines_in(box.h, text_table_row_height(size)), last = first;
	cairo_pattern_t *ink;
	struct row_layout l;

	if (first >= t->nrows)
		return t->nrows;
	if (t->header && fit > 0)
		fit--;
	if (fit == 0 || t->ncols == 0)
		return first;
	cairo_save(cr);
	ink = cairo_pattern_reference(cairo_get_source(cr));
	if (t->header) {
		row_layout(cr, f, box, t, t->header, size, true, &l);
		table_row(cr, f, box, t, &l, y, size, true);
		y += row_height(size, l.most);
		row_layout_free(t, &l);
		cairo_set_line_width(cr, fmax(0.5, size / 14));
		cairo_move_to(cr, box.x, y);
		cairo_line_to(cr, box.x + box.w, y);
		cairo_stroke(cr);
	}
	for (size_t r = first; r < t->nrows; r++) {
		row_layout(cr, f, box, t, t->cells + r * t->ncols, size, false, &l);
		double h = row_height(size, l.most);
		bool fits = y + h <= bottom + 1e-9;
		if (fits || r == first) {
			if (r % 2)
				shade(cr, ink, (struct rect){ box.x, y, box.w, h });
			table_row(cr, f, box, t, &l, y, size, false);
			y += h;
			last = r + 1;
		}
		row_layout_free(t, &l);
		if (!fits)
			break;
	}
	cairo_pattern_destroy(ink);
	cairo_restore(cr);
	return last;
}

/*
 * text.h - fonts, words and boxes for reports.
 *
 * Fonts are found through fontconfig: the report's language decides the
 * family asked for (a CJK family for Chinese), and the font fontconfig
 * actually resolved is checked to cover every character drawn, so a
 * report never ships with empty boxes where glyphs should be.  Text is
 * laid out with Pango over cairo (shaping, fallback, line breaking by the
 * language's rules) and wrapped or ellipsised to fit its box: nothing
 * overflows.
 * Ownership: struct report_font owns the resolved names (free with
 * report_font_free); strings passed in are only read.
 */
#ifndef GPUPLAN_REPORT_TEXT_H
#define GPUPLAN_REPORT_TEXT_H

#include <cairo.h>
#include <pango/pangocairo.h>
#include <stdbool.h>
#include <stddef.h>

#include "chart.h"

enum report_lang { LANG_EN, LANG_ZH };

struct report_font {
	char *family;		/* as asked of fontconfig */
	char *file;		/* the font file fontconfig resolved */
	char *resolved_family;	/* that file's family name */
	enum report_lang lang;	/* what it was found for: Pango's language */
};

/*
 * Resolves the font for `lang`.  Returns 0, or -1 with a reason in why
 * ("no font with Chinese glyphs: install fonts-wqy-microhei") when the
 * resolved font cannot draw the language's characters.
 */
int report_font_find(enum report_lang lang, struct report_font *f, char *why,
		     size_t whylen);
void report_font_free(struct report_font *f);

/* True when every character of the UTF-8 text has a glyph in the font. */
bool report_font_covers(const struct report_font *f, const char *utf8);

/* ---- Pango ---- */

/* Pango's language tag for lang: "en" or "zh-cn" (line breaking and the
 * CJK glyph variants follow it). */
const char *text_lang_code(enum report_lang lang);
/* The language a family was chosen for ("zh-cn" for the CJK families
 * report_font_find asks for, else "en"): charts know only the family. */
const char *text_family_lang(const char *family);

/*
 * A layout for family at size (in the surface's units), lang a Pango tag,
 * cached on cr and set up afresh on every call (no width, no ellipsis,
 * empty text; fixed font options: no hinting, unrounded positions, so the
 * same text gives the same bytes on every surface and run).  Borrowed:
 * valid until the next call on cr and while cr lives.
 */
PangoLayout *text_layout(cairo_t *cr, const char *family, const char *lang,
			 double size, bool bold);
/* s[0..len) into l, each malformed byte or noncharacter as '?' (the
 * byte offsets stay those of s). */
void text_layout_set(PangoLayout *l, const char *s, size_t len);
/* The logical width of what l holds. */
double text_layout_width(PangoLayout *l);

/* Width of text at size in f. */
double text_width(cairo_t *cr, const struct report_font *f, const char *utf8,
		  double size);

/*
 * Draws text wrapped into box (where Pango's line breaking allows: at
 * spaces, between CJK characters), top-aligned, with the given size and line height factor.
 * Lines that do not fit the box's height are dropped and the last shown
 * line ends in "...".  Returns the height used.
 */
double text_box(cairo_t *cr, const struct report_font *f, struct rect box,
		const char *utf8, double size, double line_height, bool bold);

/*
 * A title: text wrapped into box.w on as many lines of pitch 1.25 em as
 * box.h holds (pass a tall box: a title wraps rather than being cut).
 * *cut (may be NULL) is the number of lines that did not fit (then the
 * last shown ends in "...").  Returns the height used.
 */
double text_title(cairo_t *cr, const struct report_font *f, struct rect box,
		  const char *utf8, double size, bool bold, size_t *cut);

/* One line with its baseline at y, ellipsised to max_width; align 0 left
 * (x is the left edge), 1 right (x is the right edge), 0.5 centre. */
void text_line(cairo_t *cr, const struct report_font *f, double x, double y,
	       double max_width, const char *utf8, double size, double align,
	       bool bold);

/* ---- tables that continue on the next page ---- */

struct text_table {
	size_t ncols;
	const char *const *header;
	const double *widths;	/* column widths as fractions of the table
				 * width; NULL: sized to the content */
	const double *align;	/* per column: 0 left, 1 right */
	const char *const *cells;	/* nrows x ncols, row-major */
	size_t nrows;
};

/*
 * Draws rows [first, ...) of t into box with the header repeated, as many
 * as fit; returns the index of the first row not drawn (== t->nrows when
 * all were).  A cell wraps within its column onto at most 3 lines (the
 * last ellipsised when the text needs more); a row is as tall as its
 * tallest cell.  A cell breaks between words only: a word that fits its
 * column is never split, one that does not breaks after a '_' first
 * ("Standard_NC24ads_" / "A100_v4"), then between characters.
 */
size_t text_table_draw(cairo_t *cr, const struct report_font *f,
		       struct rect box, const struct text_table *t, size_t first,
		       double size);

/*
 * The column widths text_table_draw uses when t->widths is NULL, as
 * fractions of width (out has t->ncols): every cell on one line when that
 * fits (the rest spread in proportion); else every word whole, the room
 * left shared by how much each column's text is longer than its widest
 * word; else shares of the widest words.  From all rows, header bold.
 */
void text_table_widths(cairo_t *cr, const struct report_font *f,
		       const struct text_table *t, double width, double size,
		       double *out);

/* ---- additions: the layout behind text_box, for callers and tests ---- */

/* One wrapped line: bytes [off, off + len) of the text given to
 * text_wrap, without the spaces at the break. */
struct text_span {
	size_t off, len;
};

/*
 * Wraps utf8 to `width` as text_box does, with no height limit: breaks
 * where Pango allows (spaces, between CJK characters but not before
 * closing or after opening punctuation) and at '\n'; a word wider than
 * the box alone is cut between characters, never inside one.  Stores the first `max` lines in spans and
 * returns how many lines the whole text needs.  Every stored line measures
 * <= width, unless one character alone is wider than width (it then gets
 * a line of its own).
 */
size_t text_wrap(cairo_t *cr, const struct report_font *f, const char *utf8,
		 double size, double width, bool bold, struct text_span *spans,
		 size_t max);

/*
 * The lines text_box would draw, as NUL-terminated strings in *lines
 * (malloc'd; free with text_lines_free); returns how many.  When text was
 * dropped, the last line ends in "..." and still fits the width.
 */
size_t text_box_layout(cairo_t *cr, const struct report_font *f,
		       struct rect box, const char *utf8, double size,
		       double line_height, bool bold, char ***lines);
void text_lines_free(char **lines, size_t n);

/*
 * A table cell's lines at width, as text_table_draw lays them out: at
 * most 3, the last ellipsised; a space-separated word that fits the width
 * is never split (Pango alone would break "小时" between its characters),
 * one that does not breaks after a '_' first, then between characters.
 * Lines as text_box_layout gives them (free with text_lines_free).
 */
size_t text_cell_layout(cairo_t *cr, const struct report_font *f,
			const char *utf8, double size, double width, bool bold,
			char ***lines);

/* Height of one table row (and of the header) at size: a box of height
 * (k + 1) x this holds the header and k rows. */
double text_table_row_height(double size);

/*
 * Releases the process-wide font caches of Pango and cairo (fontconfig's
 * are left to the exit: text.c says why).  Only leak checkers care: call it
 * at most once, at exit, after every cairo context, surface and
 * report_font is gone.
 */
void report_fonts_shutdown(void);

#endif

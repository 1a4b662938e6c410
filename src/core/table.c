#include "table.h"

#include <stdlib.h>
#include <string.h>

#include "term_safe.h"
#include "xalloc.h"

void table_init(struct table *t, size_t ncols, const char *const header[])
{
	t->ncols = ncols;
	t->header = xcalloc(ncols, sizeof(char *));
	t->right = xcalloc(ncols, sizeof(bool));
	for (size_t c = 0; c < ncols; c++)
		t->header[c] = xstrdup(header[c]);
	t->cells = NULL;
	t->nrows = t->cap = 0;
}

void table_right_align(struct table *t, size_t col)
{
	if (col < t->ncols)
		t->right[col] = true;
}

/* A cell as it may be printed: terminal controls, line breaks and bytes
 * that are not UTF-8 spelled out (term_safe.h), so a name can neither
 * drive the terminal nor break the table's rows. */
static char *cell_copy(const char *s)
{
	if (!s)
		return xstrdup("");
	return term_needs_escape(s, 0) ? term_escape_dup(s, 0) : xstrdup(s);
}

void table_add_row(struct table *t, const char *const cells[])
{
	xgrow((void **)&t->cells, &t->cap, (t->nrows + 1) * t->ncols,
	      sizeof(char *));
	for (size_t c = 0; c < t->ncols; c++)
		t->cells[t->nrows * t->ncols + c] = cell_copy(cells[c]);
	t->nrows++;
}

void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	for (size_t c = 0; c < t->ncols; c++)
		free(t->header[c]);
	free(t->cells);
	free(t->header);
	free(t->right);
	memset(t, 0, sizeof(*t));
}

/* East Asian wide ranges that matter for the text gpuplan prints. */
static int is_wide(unsigned cp)
{
	return (cp >= 0x1100 && cp <= 0x115F) ||
	       (cp >= 0x2E80 && cp <= 0xA4CF) ||
	       (cp >= 0xAC00 && cp <= 0xD7A3) ||
	       (cp >= 0xF900 && cp <= 0xFAFF) ||
	       (cp >= 0xFE30 && cp <= 0xFE4F) ||
	       (cp >= 0xFF00 && cp <= 0xFF60) ||
	       (cp >= 0xFFE0 && cp <= 0xFFE6);
}

size_t utf8_width(const char *s)
{
	size_t w = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned cp;
		int extra;
		if (*p < 0x80) {
			cp = *p;
			extra = 0;
		} else if ((*p & 0xE0) == 0xC0) {
			cp = *p & 0x1F;
			extra = 1;
		} else if ((*p & 0xF0) == 0xE0) {
			cp = *p & 0x0F;
			extra = 2;
		} else {
			cp = *p & 0x07;
			extra = 3;
		}
		p++;
		for (int i = 0; i < extra && (*p & 0xC0) == 0x80; i++, p++)
			cp = (cp << 6) | (*p & 0x3F);
		w += is_wide(cp) ? 2 : 1;
	}
	return w;
}

static void pad(FILE *out, size_t n)
{
	while (n-- > 0)
		fputc(' ', out);
}

static void print_row(const struct table *t, char *const *row,
		      const size_t *width, FILE *out)
{
	for (size_t c = 0; c < t->ncols; c++) {
		size_t w = utf8_width(row[c]);
		bool last = c + 1 == t->ncols;
		if (t->right[c])
			pad(out, width[c] - w);
		fputs(row[c], out);
		if (!t->right[c] && !last)
			pad(out, width[c] - w);
		if (!last)
			fputs("  ", out);
	}
	fputc('\n', out);
}

void table_print(const struct table *t, FILE *out)
{
	size_t *width = xcalloc(t->ncols, sizeof(size_t));
	for (size_t c = 0; c < t->ncols; c++) {
		width[c] = utf8_width(t->header[c]);
		for (size_t r = 0; r < t->nrows; r++) {
			size_t w = utf8_width(t->cells[r * t->ncols + c]);
			if (w > width[c])
				width[c] = w;
		}
	}
	print_row(t, t->header, width, out);
	for (size_t r = 0; r < t->nrows; r++)
		print_row(t, t->cells + r * t->ncols, width, out);
	free(width);
}

static void csv_field(const char *s, FILE *out)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void table_print_csv(const struct table *t, FILE *out)
{
	for (size_t r = 0; r <= t->nrows; r++) {
		char *const *row = r == 0 ? t->header
					  : t->cells + (r - 1) * t->ncols;
		for (size_t c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', out);
			csv_field(row[c], out);
		}
		fputc('\n', out);
	}
}

static void markdown_row(char *const *row, size_t ncols, FILE *out)
{
	fputc('|', out);
	for (size_t c = 0; c < ncols; c++) {
		fputc(' ', out);
		for (const char *p = row[c]; *p; p++) {
			if (*p == '|')
				fputc('\\', out);
			fputc(*p, out);
		}
		fputs(" |", out);
	}
	fputc('\n', out);
}

void table_print_markdown(const struct table *t, FILE *out)
{
	markdown_row(t->header, t->ncols, out);
	fputc('|', out);
	for (size_t c = 0; c < t->ncols; c++)
		fputs(t->right[c] ? " ---: |" : " --- |", out);
	fputc('\n', out);
	for (size_t r = 0; r < t->nrows; r++)
		markdown_row(t->cells + r * t->ncols, t->ncols, out);
}

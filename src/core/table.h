/*
 * table.h - rows of text printed as an aligned table or as CSV.
 *
 * The table view pads columns to their display width (CJK characters count
 * two columns, so Chinese labels line up); numeric columns can be right
 * aligned.  CSV quotes fields as RFC 4180 says (lines end in LF).
 * Cells are stored escaped (term_safe.h): a control character, line break
 * or byte that is not UTF-8 prints spelled out ("\x1b"), in both views.
 * Ownership: the table copies every cell; table_free() releases them.
 */
#ifndef GPUPLAN_CORE_TABLE_H
#define GPUPLAN_CORE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct table {
	size_t ncols;
	char **header;
	bool *right;		/* per column: right-align in the table view */
	char **cells;		/* nrows x ncols, row-major */
	size_t nrows, cap;
};

void table_init(struct table *t, size_t ncols, const char *const header[]);
void table_right_align(struct table *t, size_t col);
void table_add_row(struct table *t, const char *const cells[]);
void table_print(const struct table *t, FILE *out);
void table_print_csv(const struct table *t, FILE *out);
/* GitHub-flavoured Markdown (a pull-request comment): a '|' in a cell is
 * written "\|", right-aligned columns get "---:". */
void table_print_markdown(const struct table *t, FILE *out);
void table_free(struct table *t);

/* Columns a UTF-8 string takes on a terminal. */
size_t utf8_width(const char *s);

#endif

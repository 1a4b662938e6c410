/*
 * coverage_print.c - the coverage report as an aligned table or as
 * Markdown: the strata, the sources, and the lines that say what the
 * figures leave out.
 */
#include "coverage_print.h"

#include <math.h>

#include "core/table.h"

static void print_table(FILE *out, const struct table *t, bool markdown)
{
	if (markdown)
		table_print_markdown(t, out);
	else
		table_print(t, out);
}

/* "71.2%", or "-" for no figure. */
static void pct_cell(double fraction, char *buf, size_t len)
{
	if (isfinite(fraction))
		snprintf(buf, len, "%.1f%%", 100 * fraction);
	else
		snprintf(buf, len, "-");
}

/* The tally's cells from RECORDS on: records, covered, share, interval,
 * mean width, slower, faster. */
enum { TALLY_CELLS = 7 };
static void tally_cells(const struct coverage_tally *t,
			char cells[TALLY_CELLS][32])
{
	double lo, hi;
	coverage_interval(t->covered, t->n, COVERAGE_CONFIDENCE, &lo, &hi);
	snprintf(cells[0], 32, "%zu", t->n);
	snprintf(cells[1], 32, "%zu", t->covered);
	pct_cell(coverage_share(t), cells[2], 32);
	if (t->n)
		snprintf(cells[3], 32, "%.1f-%.1f%%", 100 * lo, 100 * hi);
	else
		snprintf(cells[3], 32, "-");
	pct_cell(coverage_mean_width(t), cells[4], 32);
	snprintf(cells[5], 32, "%zu", t->slower);
	snprintf(cells[6], 32, "%zu", t->faster);
}

static void print_strata(FILE *out, const struct coverage *cv, bool markdown)
{
	static const char *const header[] = {"DIMENSION", "STRATUM",
		"RECORDS", "COVERED", "SHARE", "95% INTERVAL", "MEAN WIDTH",
		"SLOWER", "FASTER"};
	struct table t;
	table_init(&t, 9, header);
	for (size_t c = 2; c < 9; c++)
		table_right_align(&t, c);
	char cells[TALLY_CELLS][32];
	tally_cells(&cv->overall, cells);
	const char *first[] = {"overall", "-", cells[0], cells[1], cells[2],
			       cells[3], cells[4], cells[5], cells[6]};
	table_add_row(&t, first);
	for (size_t i = 0; i < cv->n_strata; i++) {
		const struct coverage_stratum *s = &cv->strata[i];
		tally_cells(&s->t, cells);
		const char *row[] = {coverage_dim_name(s->dim), s->label,
				     cells[0], cells[1], cells[2], cells[3],
				     cells[4], cells[5], cells[6]};
		table_add_row(&t, row);
	}
	print_table(out, &t, markdown);
	table_free(&t);
}

static void print_sources(FILE *out, const struct coverage *cv, bool markdown)
{
	static const char *const header[] = {"SOURCE", "RECORDS", "COVERED",
		"SHARE", "95% INTERVAL", "OVERALL WITHOUT IT"};
	struct table t;
	table_init(&t, 6, header);
	for (size_t c = 1; c < 6; c++)
		table_right_align(&t, c);
	for (size_t i = 0; i < cv->n_groups; i++) {
		const struct coverage_group *g = &cv->groups[i];
		char cells[TALLY_CELLS][32], without[32];
		tally_cells(&g->t, cells);
		pct_cell(g->share_without, without, sizeof(without));
		const char *row[] = {g->source, cells[0], cells[1], cells[2],
				     cells[3], without};
		table_add_row(&t, row);
	}
	print_table(out, &t, markdown);
	table_free(&t);
}

/* The lines under the tables, each begun with item ("- " for a Markdown
 * list): leave-one-source-out, what is no observation and why, what the
 * columns mean. */
static void print_notes(FILE *out, const struct coverage *cv,
			const char *item)
{
	if (cv->loo_worst >= 0) {
		const struct coverage_group *w = &cv->groups[cv->loo_worst];
		fprintf(out, "%sleave-one-source-out: the lowest overall share is %.1f%%, without %s\n",
			item, 100 * w->share_without, w->source);
	} else if (cv->n_groups == 1)
		fprintf(out, "%sleave-one-source-out: one source only, nothing is left without it\n",
			item);
	if (cv->overall.n == 0)
		fprintf(out, "%sno measurement has a range at %.4g%%: nothing to check\n",
			item, 100 * cv->level);
	fprintf(out, "%sleft out: %zu training rows without a range, %zu serving rows (no range yet), %zu rows not predicted\n",
		item, cv->rows_no_range, cv->rows_serving, cv->rows_not_predicted);
	fprintf(out, "%sone observation per record and quantity kind: %zu rows folded into their record's (tokens/s and MFU of one step are one prediction)\n",
		item, cv->rows_folded);
	fprintf(out, "%sslower: the run took longer than the range's slow end (the plan promised too much); faster: less than its fast end\n",
		item);
	fprintf(out, "%sinterval: exact (Clopper-Pearson) %.0f%% for the share; width: (high - low) / predicted; --coverage-min holds strata of %d or more records\n",
		item, 100 * COVERAGE_CONFIDENCE, COVERAGE_GATE_MIN_RECORDS);
}

void coverage_print(FILE *out, const struct coverage *cv, bool markdown)
{
	const char *bold = markdown ? "**" : "";
	fprintf(out, "%scoverage of the planner's %.4g%% ranges: %zu observations%s\n",
		bold, 100 * cv->level, cv->overall.n, bold);
	if (markdown)
		fprintf(out, "\n");
	print_strata(out, cv, markdown);
	fprintf(out, "\n");
	if (cv->n_groups) {
		print_sources(out, cv, markdown);
		fprintf(out, "\n");
	}
	print_notes(out, cv, markdown ? "- " : "");
}

/*
 * report.c - pages and files: the PDF (summary, option tables, charts,
 * appendix), and each chart as PNG and SVG.
 *
 * Each file is drawn in memory, cairo's status checked after every part
 * (a context in error draws nothing more, silently), and staged into the
 * caller's atomic set: the report lands whole, with all its files, or not
 * at all.
 */
#include "report.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/atomic_file.h"
#include "core/xalloc.h"
#include "first_page.h"
#include "i18n.h"
#include "plan_words.h"
#include "png_out.h"
#include "report_charts.h"
#include "core/utf8.h"

#define PAGE_W 595.28		/* A4, points */
#define PAGE_H 841.89
#define MARGIN 42.0
#define BODY 10.0		/* body text size, points */

/* ---- in-memory output, written atomically at the end ---- */

struct buffer {
	unsigned char *data;
	size_t len, cap;
};

static cairo_status_t to_buffer(void *closure, const unsigned char *data,
				unsigned int length)
{
	struct buffer *b = closure;
	xgrow((void **)&b->data, &b->cap, b->len + length, 1);
	memcpy(b->data + b->len, data, length);
	b->len += length;
	return CAIRO_STATUS_SUCCESS;
}

/* Stages b as `path` into the set: REPORT_OK, REPORT_FAILED or
 * REPORT_REFUSED (a target that may not be written). */
static int stage(struct atomic_set *set, const char *path,
		 const struct buffer *b, char *why, size_t len)
{
	int rc = atomic_set_add(set, path, b->data, b->len, why, len);
	return rc == ATOMIC_OK ? REPORT_OK
	       : rc == ATOMIC_REFUSED ? REPORT_REFUSED : REPORT_FAILED;
}

/* cairo's verdict on what cr drew: 0, or -1 with why saying what could
 * not be drawn ("the PDF, page 3") and cairo's reason. */
static int drawn(cairo_t *cr, const char *what, char *why, size_t len)
{
	cairo_status_t st = cairo_status(cr);
	if (st == CAIRO_STATUS_SUCCESS)
		return 0;
	snprintf(why, len, "cannot draw %s: %s", what, cairo_status_to_string(st));
	return -1;
}

/*
 * The test hook GPUPLAN_FAULT=report-cairo:N puts the N-th chart this
 * process draws (PDF, PNG and SVG counted in order, from 1) into a cairo
 * error, as a string or a coordinate cairo refuses would: the report must
 * fail whole.  Costs one getenv per chart otherwise.
 */
static void fault_chart(cairo_t *cr)
{
	static long drawn_so_far;
	const char *f = getenv("GPUPLAN_FAULT");
	drawn_so_far++;
	if (f && !strncmp(f, "report-cairo:", 13) &&
	    strtol(f + 13, NULL, 10) == drawn_so_far)
		cairo_rotate(cr, NAN);		/* CAIRO_STATUS_INVALID_MATRIX */
}

/* Cairo names SVG groups "surface<N>" after a process-wide counter, so the
 * same chart drawn twice would differ in bytes. Renumber them in order of
 * first appearance (ids are only referenced within the file). */
static void svg_renumber_surfaces(struct buffer *b)
{
	static const char key[] = "surface";
	const size_t klen = sizeof(key) - 1;
	unsigned long *seen = NULL;
	size_t n_seen = 0, cap_seen = 0;
	struct buffer out = {0};
	for (size_t i = 0; i < b->len;) {
		if (i + klen < b->len && !memcmp(b->data + i, key, klen) &&
		    isdigit(b->data[i + klen])) {
			size_t j = i + klen;
			unsigned long id = 0;
			while (j < b->len && isdigit(b->data[j]))
				id = id * 10 + (unsigned long)(b->data[j++] - '0');
			size_t k = 0;
			while (k < n_seen && seen[k] != id)
				k++;
			if (k == n_seen) {
				xgrow((void **)&seen, &cap_seen, n_seen + 1, sizeof(*seen));
				seen[n_seen++] = id;
			}
			char name[32];
			int m = snprintf(name, sizeof(name), "%s%zu", key, k + 1);
			to_buffer(&out, (const unsigned char *)name, (unsigned)m);
			i = j;
		} else {
			to_buffer(&out, b->data + i, 1);
			i++;
		}
	}
	free(seen);
	free(b->data);
	*b = out;
}

/* ---- the document ---- */

struct doc {
	cairo_t *cr;
	const struct report_font *font;
	const struct report_options *o;
	const struct r_plan *p;
	int page;
	double y;		/* where the next block starts */
	char footnote[400];
};

static void page_footer(struct doc *d)
{
	char num[32];
	snprintf(num, sizeof(num), tr(d->o->lang, MSG_PAGE), d->page);
	cairo_set_source_rgb(d->cr, 0.35, 0.35, 0.35);
	text_box(d->cr, d->font, (struct rect){MARGIN, PAGE_H - MARGIN + 4,
		 PAGE_W - 2 * MARGIN - 60, 30}, d->footnote, 7, 1.2, false);
	text_line(d->cr, d->font, PAGE_W - MARGIN, PAGE_H - MARGIN + 11, 60, num,
		  7, 1, false);
	cairo_set_source_rgb(d->cr, 0, 0, 0);
}

static void new_page(struct doc *d)
{
	if (d->page > 0) {
		page_footer(d);
		cairo_show_page(d->cr);
	}
	d->page++;
	d->y = MARGIN;
	cairo_set_source_rgb(d->cr, 0, 0, 0);
}

/* Space left on the page; a new page when less than `need`. */
static void need(struct doc *d, double h)
{
	if (d->y + h > PAGE_H - MARGIN - 10)
		new_page(d);
}

/* A heading wraps onto as many lines as it needs, up to a quarter of a
 * page; past that it is cut, and stderr says so (never silently). */
static void heading(struct doc *d, const char *text, double size)
{
	size_t cut = 0;
	need(d, size * 3);
	d->y += text_title(d->cr, d->font, (struct rect){MARGIN, d->y,
			   PAGE_W - 2 * MARGIN, PAGE_H / 4}, text, size, true, &cut);
	if (cut > 0)
		fprintf(stderr, "gpuplan: report: a heading (the --title?) needs "
			"%zu lines more than a quarter page holds: cut with "
			"\"...\"\n", cut);
	d->y += size * 0.6;
}

/* A paragraph that runs on to the next page rather than being cut: laid
 * out whole (text_wrap), then drawn a line at a time. */
static void paragraph(struct doc *d, const char *text, double size)
{
	double pitch = size * 1.35, width = PAGE_W - 2 * MARGIN;
	size_t n = text_wrap(d->cr, d->font, text, size, width, false, NULL, 0);
	struct text_span *spans = xcalloc(n + 1, sizeof(*spans));
	text_wrap(d->cr, d->font, text, size, width, false, spans, n);
	need(d, pitch * (double)(n < 3 ? n : 3));	/* no lone first line */
	for (size_t i = 0; i < n; i++) {
		need(d, pitch);
		char *line = xstrndup(text + spans[i].off, spans[i].len);
		text_box(d->cr, d->font, (struct rect){MARGIN, d->y, width, pitch},
			 line, size, 1.35, false);
		free(line);
		d->y += pitch;
	}
	free(spans);
	d->y += size * 0.7;
}

/* ---- the recommendation, in the report's language ---- */

static void rig(const struct r_option *o, char *buf, size_t len)
{
	char g[2 * R_NAME_MAX + 64];
	r_gpus_text(o, g, sizeof(g));
	snprintf(buf, len, "%ld x %s (%s)", o->nodes, o->instance, g);
}

static void sentence(const struct r_plan *p, const struct r_workload *w,
		     enum report_lang lang, char *buf, size_t len)
{
	if (w->recommended < 0) {
		r_shortfall_sentence(p, w, lang, buf, len);
		return;
	}
	const struct r_option *o = &w->v[w->recommended];
	char r[600], t[48], c[64], d[48];
	rig(o, r, sizeof(r));
	/* the spot rule (option/settings.h): compared on spot prices when acceptable */
	bool spot = w->spot_acceptable && o->has_spot;
	tr_money(spot ? o->cost_spot : o->cost, p->currency, c, sizeof(c));
	bool zh = lang == LANG_ZH;
	int k;
	if (w->training) {
		tr_duration(lang, o->time_s, t, sizeof(t));
		k = snprintf(buf, len, zh ? (spot ? "租用 %s，用时 %s，竞价费用 %s。" : "租用 %s，用时 %s，按需费用 %s。")
					  : (spot ? "Rent %s for %s at %s on spot." : "Rent %s for %s at %s on demand."),
			     r, t, c);
		if (w->deadline_s > 0)
			k += snprintf(buf + k, len - (size_t)k,
				      zh ? "这是满足 %s 期限的最便宜租用方案。"
					 : " It is the cheapest rental that meets the %s deadline.",
				      tr_duration(lang, w->deadline_s, d, sizeof(d)));
	} else {
		tr_duration(lang, o->p99_s, t, sizeof(t));
		if (w->target_s[TARGET_P99] > 0)
			k = snprintf(buf, len, zh ? "部署 %s，%ld 个副本，p99 延迟 %s（目标 %s），每月 %s。"
						  : o->replicas == 1 ? "Serve with %s, %ld replica, p99 %s (target %s), %s a month."
						  : "Serve with %s, %ld replicas, p99 %s (target %s), %s a month.",
				     r, o->replicas, t,
				     tr_duration(lang, w->target_s[TARGET_P99], d, sizeof(d)), c);
		else
			k = snprintf(buf, len, zh ? "部署 %s，%ld 个副本，p99 延迟 %s，每月 %s。"
						  : o->replicas == 1 ? "Serve with %s, %ld replica, p99 %s, %s a month."
						  : "Serve with %s, %ld replicas, p99 %s, %s a month.",
				     r, o->replicas, t, c);
	}
	if (w->runner_up >= 0 && k > 0 && (size_t)k < len) {
		const struct r_option *u = &w->v[w->runner_up];
		rig(u, r, sizeof(r));
		double oc = spot ? o->cost_spot : o->cost;
		bool uspot = w->spot_acceptable && u->has_spot;
		double uc = uspot ? u->cost_spot : u->cost;
		tr_money(uc, p->currency, c, sizeof(c));
		double dc = oc > 0 ? 100 * (uc - oc) / oc : 0;
		/* the price kind is named: under the spot rule an option
		 * without a spot price is compared on demand */
		snprintf(buf + k, len - (size_t)k,
			 zh ? (uspot ? "次优方案：%s，竞价费用 %s（%+.0f%%）。"
				     : "次优方案：%s，按需费用 %s（%+.0f%%）。")
			    : (uspot ? " Runner-up: %s at %s on spot (%+.0f%% cost)."
				     : " Runner-up: %s at %s on demand (%+.0f%% cost)."),
			 r, c, dc);
	}
}

/* ---- the summary page ---- */

/* "median (low to high)" of a measured range, as durations or as a
 * plain rate. */
static void range_text(enum report_lang lang, const double v[3], bool duration,
		       char *buf, size_t len)
{
	char m[64], lo[64], hi[64];
	if (duration) {
		tr_duration(lang, v[1], m, sizeof(m));
		tr_duration(lang, v[0], lo, sizeof(lo));
		tr_duration(lang, v[2], hi, sizeof(hi));
	} else {
		snprintf(m, sizeof(m), "%.4g", v[1]);
		snprintf(lo, sizeof(lo), "%.4g", v[0]);
		snprintf(hi, sizeof(hi), "%.4g", v[2]);
	}
	snprintf(buf, len, tr(lang, MSG_RANGE), m, lo, hi);
}

/* The workload on the measured device (plan --profile), with ranges. */
static void sample_block(struct doc *d, const struct r_workload *w)
{
	enum report_lang lang = d->o->lang;
	if (!w->sample_device || w->sample_forward[1] <= 0)
		return;
	char text[1600], r[200], f[64];
	size_t k = (size_t)snprintf(text, sizeof(text), tr(lang, MSG_SAMPLE_DEVICE),
				    w->sample_device, w->sample_measured);
	snprintf(f, sizeof(f), tr(lang, MSG_SAMPLE_FORWARD), w->sample_batch);
	range_text(lang, w->sample_forward, true, r, sizeof(r));
	k += (size_t)snprintf(text + k, sizeof(text) - k, ": %s %s", f, r);
	if (w->training) {
		range_text(lang, w->sample_step, true, r, sizeof(r));
		k += (size_t)snprintf(text + k, sizeof(text) - k, "; %s %s",
				      tr(lang, MSG_SAMPLE_STEP), r);
		range_text(lang, w->sample_run, true, r, sizeof(r));
		snprintf(text + k, sizeof(text) - k, "; %s %s.",
			 tr(lang, MSG_SAMPLE_RUN), r);
	} else {
		range_text(lang, w->sample_rate, false, r, sizeof(r));
		snprintf(text + k, sizeof(text) - k, "; %s %s.",
			 tr(lang, MSG_SAMPLE_RATE), r);
	}
	paragraph(d, text, BODY);
}

/* A training run's goodput, when it loses enough to say (plan_words.h). */
static void goodput_block(struct doc *d, const struct r_option *o)
{
	char line[600];
	if (r_goodput_sentence(o, d->o->lang, line, sizeof(line)))
		paragraph(d, line, BODY);
}

static void summary_block(struct doc *d, const struct r_workload *w)
{
	enum report_lang lang = d->o->lang;
	char head[640], text[2000], line[800], a[64], b[64];
	snprintf(head, sizeof(head), "%s  (%s, %s, %s)", w->name,
		 tr(lang, w->training ? MSG_TRAINING : MSG_INFERENCE), w->model,
		 w->precision);
	need(d, 110);
	heading(d, head, 12);
	sentence(d->p, w, lang, text, sizeof(text));
	paragraph(d, text, BODY);
	sample_block(d, w);
	if (w->recommended < 0)
		return;
	const struct r_option *o = &w->v[w->recommended];
	if (w->training)
		snprintf(line, sizeof(line), "%s: %s    %s: %s", tr(lang, MSG_TIME),
			 tr_duration(lang, o->time_s, a, sizeof(a)), tr(lang, MSG_COST),
			 tr_money(o->cost, d->p->currency, b, sizeof(b)));
	else
		snprintf(line, sizeof(line), "p99: %s    %s: %s",
			 tr_duration(lang, o->p99_s, a, sizeof(a)),
			 tr(lang, MSG_COST_MONTH),
			 tr_money(o->cost, d->p->currency, b, sizeof(b)));
	size_t k = strlen(line);
	if (w->obvious == w->recommended)
		snprintf(line + k, sizeof(line) - k, "    %s", tr(lang, MSG_OBVIOUS_SAME));
	else if (w->obvious >= 0) {
		/* negative when the obvious choice is cheaper but fails a
		 * constraint: the report says so rather than hiding it */
		snprintf(line + k, sizeof(line) - k, "    %s: %.0f%% (%s, %s)",
			 tr(lang, MSG_SAVING), 100 * w->saving,
			 w->v[w->obvious].instance,
			 tr_money(w->v[w->obvious].cost, d->p->currency, a, sizeof(a)));
	}
	paragraph(d, line, BODY);
	goodput_block(d, o);
	d->y += 6;
}

/* ---- the first page ---- */

static struct chart_style page_style(const struct doc *d)
{
	return (struct chart_style){d->font->family, 7.5, 0.8};
}


/* "12,345 USD (range 9,259 USD to 15,431 USD)" as the language says it. */
static void total_line(struct doc *d, enum msg id, const double v[3], size_t n)
{
	char line[600], a[64], lo[64], hi[64];
	const char *cur = d->p->currency;
	snprintf(line, sizeof(line), tr(d->o->lang, id),
		 tr_money(v[1], cur, a, sizeof(a)), tr_money(v[0], cur, lo, sizeof(lo)),
		 tr_money(v[2], cur, hi, sizeof(hi)), n);
	paragraph(d, line, 11);
}

/* The headline chart of one kind of workload: per workload, the
 * recommended option's cost beside the obvious choice's (the fastest GPU
 * on offer, the plan's "obvious_alternative"); none when the obvious
 * choice is the recommendation or the plan names none. */
static void headline_chart(struct doc *d, bool training, double h)
{
	const struct r_plan *p = d->p;
	enum report_lang lang = d->o->lang;
	struct bar_group *g = xcalloc(p->n + 1, sizeof(*g));
	double *v = xcalloc(2 * p->n + 2, sizeof(*v)), top = 0, low = INFINITY;
	size_t n = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct r_workload *w = &p->w[i];
		if (w->training != training || w->recommended < 0)
			continue;
		v[2 * n] = w->v[w->recommended].cost;
		v[2 * n + 1] = w->obvious >= 0 ? w->v[w->obvious].cost : 0;
		top = fmax(top, fmax(v[2 * n], v[2 * n + 1]));
		for (int k = 0; k < 2; k++)
			if (v[2 * n + k] > 0)
				low = fmin(low, v[2 * n + k]);
		g[n] = (struct bar_group){w->name, v + 2 * n, false, 0, 0, 0};
		n++;
	}
	if (n > 0) {
		char yl[96];
		snprintf(yl, sizeof(yl), "%s (%s)",
			 tr(lang, training ? MSG_AXIS_COST : MSG_AXIS_COST_MONTH),
			 p->currency);
		const char *seg[2] = {tr(lang, MSG_FP_RECOMMENDED), tr(lang, MSG_FP_OBVIOUS)};
		struct rgb col[2] = {chart_colour(4), chart_grey()};
		/* a 1 USD run beside a 300k USD one: log, or the small
		 * bars vanish */
		bool log = top > 0 && low < INFINITY && top / low > 100;
		struct axis y = {log ? low : 0, top > 0 ? top : 1, log, yl,
				 report_money_tick};
		struct chart_style st = page_style(d);
		chart_bars(d->cr, (struct rect){MARGIN, d->y, PAGE_W - 2 * MARGIN, h},
			   tr(lang, training ? MSG_FP_CHART_TRAIN : MSG_FP_CHART_SERVE),
			   &y, g, n, seg, col, 2, true, NULL, &st);
		fault_chart(d->cr);
		d->y += h + 8;
	}
	free(g);
	free(v);
}

/* Page 1's training GPU-hours, wall clock and compute apart (goodput). */
static void gpu_hours_line(struct doc *d)
{
	char line[600];
	if (fp_gpu_hours_sentence(d->p, d->o->lang, line, sizeof(line)))
		paragraph(d, line, 8.5);
}

/*
 * Page 1, what a manager decides on: the title; the plan's date and tool
 * (as the plan records them: the report never reads the clock); the
 * totals with their ranges and how the ranges were made; the headline
 * charts; the illustrative inputs relied on; the model's limits.
 */
static void first_page(struct doc *d)
{
	enum report_lang lang = d->o->lang;
	const struct r_plan *p = d->p;
	struct fp_totals t;
	char line[2400], list[2000];
	new_page(d);
	heading(d, d->o->title ? d->o->title : tr(lang, MSG_TITLE), 20);
	if (*p->generated_date && *p->generated_tool)
		snprintf(line, sizeof(line), tr(lang, MSG_FP_MADE), p->generated_date,
			 p->generated_tool);
	else
		snprintf(line, sizeof(line), "%s", tr(lang, MSG_FP_NOT_RECORDED));
	paragraph(d, line, BODY);
	fp_totals(p, &t);
	if (t.n_training)
		total_line(d, MSG_FP_ONE_OFF, t.one_off, t.n_training);
	gpu_hours_line(d);
	if (t.n_services)
		total_line(d, MSG_FP_MONTHLY, t.monthly, t.n_services);
	if (fp_range_notes(&t, lang, line, sizeof(line)) > 0)
		paragraph(d, line, 8.5);
	double h = t.n_training && t.n_services ? 205 : 300;
	headline_chart(d, true, h);
	headline_chart(d, false, h);
	heading(d, tr(lang, MSG_FP_INPUTS), 12);
	if (fp_illustrative(p, list, sizeof(list)) > 0) {
		snprintf(line, sizeof(line), tr(lang, MSG_FP_PRICES), list);
		paragraph(d, line, 8.5);
	} else {
		paragraph(d, tr(lang, MSG_FP_NO_ILLUSTRATIVE), 8.5);
	}
	if (fp_assumed(p, list, sizeof(list)) > 0) {
		snprintf(line, sizeof(line), tr(lang, MSG_FP_ASSUMED), list);
		tr_trim_utf8(line);
		paragraph(d, line, 8.5);
	}
	if (fp_limits(p, lang, list, sizeof(list)) > 0) {
		snprintf(line, sizeof(line), tr(lang, MSG_FP_LIMITS), list);
		tr_trim_utf8(line);
		paragraph(d, line, 8.5);
	}
}

/* Page 1's facts in one line, the PDF's Subject: a search index, or a
 * test, reads it without a PDF text extractor (cairo keeps the document
 * information dictionary uncompressed). */
static void first_page_subject(const struct r_plan *p, enum report_lang lang,
			       char *buf, size_t len)
{
	struct fp_totals t;
	char a[64], lo[64], hi[64];
	size_t k;
	if (*p->generated_date && *p->generated_tool)
		snprintf(buf, len, tr(lang, MSG_FP_MADE), p->generated_date,
			 p->generated_tool);
	else
		snprintf(buf, len, "%s", tr(lang, MSG_FP_NOT_RECORDED));
	fp_totals(p, &t);
	for (int kind = 0; kind < 2; kind++) {
		const double *v = kind ? t.monthly : t.one_off;
		size_t n = kind ? t.n_services : t.n_training;
		if (n == 0 || (k = strlen(buf)) + 1 >= len)
			continue;
		buf[k++] = ' ';
		snprintf(buf + k, len - k, tr(lang, kind ? MSG_FP_MONTHLY : MSG_FP_ONE_OFF),
			 tr_money(v[1], p->currency, a, sizeof(a)),
			 tr_money(v[0], p->currency, lo, sizeof(lo)),
			 tr_money(v[2], p->currency, hi, sizeof(hi)), n);
	}
	tr_trim_utf8(buf);
}

static void summary(struct doc *d)
{
	enum report_lang lang = d->o->lang;
	first_page(d);
	new_page(d);
	heading(d, tr(lang, MSG_SUMMARY), 14);
	paragraph(d, tr(lang, MSG_SUMMARY_INTRO), BODY);
	for (size_t i = 0; i < d->p->n; i++)
		summary_block(d, &d->p->w[i]);
}

/* ---- option tables ---- */

static void status_text(const struct doc *d, const struct r_option *o,
			char *buf, size_t len)
{
	if (o->n_reasons == 0 || (o->feasible && strcmp(o->reason.code, "mig_isolated") == 0))
		snprintf(buf, len, "%s", tr(d->o->lang, MSG_OK));
	else
		tr_reason(d->o->lang, &o->reason, d->p->currency, buf, len);
}

#define TABLE_COLS 8
#define CELL 256

/* An amount without its currency: the column header carries it, so
 * numbers never wrap. */
static void money_cell(double amount, char *buf, size_t len)
{
	tr_money(amount, "", buf, len);
	size_t n = strlen(buf);
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
}

/* Three significant figures below 100 ("0.44", "2.96"), whole above. */
static void gpu_hours_text(double h, char *buf, size_t len)
{
	snprintf(buf, len, h >= 100 ? "%.0f" : "%.3g", h);
}

/* A training run's GPU-hours, wall clock / compute where the plan
 * records both (goodput). */
static void gpu_hours_split(const struct r_option *o, char *buf, size_t len)
{
	char wall[64], compute[64];
	gpu_hours_text(o->gpu_hours, wall, sizeof(wall));
	if (!(o->gpu_hours_compute > 0)) {
		snprintf(buf, len, "%s", wall);
		return;
	}
	gpu_hours_text(o->gpu_hours_compute, compute, sizeof(compute));
	snprintf(buf, len, "%s / %s", wall, compute);
}

static void option_rows(const struct doc *d, const struct r_workload *w,
			const size_t *ranked, size_t rows, char (*cells)[CELL])
{
	for (size_t r = 0; r < rows; r++) {
		const struct r_option *o = &w->v[ranked[r]];
		char (*c)[CELL] = cells + r * TABLE_COLS;
		/* no-break spaces keep "2 x" on the instance's line */
		snprintf(c[0], CELL, "%s%ld\u00a0x\u00a0%s",
			 (long)ranked[r] == w->recommended ? "*\u00a0" : "",
			 o->nodes, o->instance);
		r_gpus_text(o, c[1], CELL);
		if (w->training) {
			tr_duration(d->o->lang, o->time_s, c[2], CELL);
			money_cell(o->cost, c[3], CELL);
			if (o->has_spot)
				money_cell(o->cost_spot, c[4], CELL);
			else
				snprintf(c[4], CELL, "-");
			gpu_hours_split(o, c[5], CELL);
		} else {
			snprintf(c[2], CELL, "%ld%s%s", o->replicas,
				 o->sharing ? " " : "", o->sharing ? o->sharing : "");
			tr_duration(d->o->lang, o->p99_s, c[3], CELL);
			money_cell(o->cost, c[4], CELL);
			gpu_hours_text(o->gpu_hours, c[5], CELL);
		}
		snprintf(c[6], CELL, "%.1f / %.0f GB", o->memory / 1e9, o->capacity / 1e9);
		status_text(d, o, c[7], CELL);
		for (int k = 0; k < TABLE_COLS; k++)
			tr_trim_utf8(c[k]);
	}
}

static void options_table(struct doc *d, const struct r_workload *w,
			  const size_t *ranked)
{
	enum report_lang lang = d->o->lang;
	size_t rows = w->n < d->o->table_rows ? w->n : d->o->table_rows;
	char (*cells)[CELL] = xcalloc(rows * TABLE_COLS + 1, CELL);
	const char **ptrs = xcalloc(rows * TABLE_COLS + 1, sizeof(char *));
	option_rows(d, w, ranked, rows, cells);
	for (size_t i = 0; i < rows * TABLE_COLS; i++)
		ptrs[i] = cells[i];
	char cost_h[64], spot_h[64], month_h[64];
	snprintf(cost_h, sizeof(cost_h), "%s (%s)", tr(lang, MSG_COL_COST), d->p->currency);
	snprintf(spot_h, sizeof(spot_h), "%s (%s)", tr(lang, MSG_COL_SPOT), d->p->currency);
	snprintf(month_h, sizeof(month_h), "%s (%s)", tr(lang, MSG_COST_MONTH), d->p->currency);
	const char *train_h[TABLE_COLS] = {tr(lang, MSG_COL_INSTANCE), tr(lang, MSG_COL_GPUS),
		tr(lang, MSG_COL_TIME), cost_h, spot_h,
		tr(lang, MSG_COL_GPU_HOURS_SPLIT), tr(lang, MSG_COL_MEMORY),
		tr(lang, MSG_COL_STATUS)};
	const char *serve_h[TABLE_COLS] = {tr(lang, MSG_COL_INSTANCE), tr(lang, MSG_COL_GPUS),
		tr(lang, MSG_COL_REPLICAS), tr(lang, MSG_COL_P99), month_h,
		tr(lang, MSG_COL_GPU_HOURS), tr(lang, MSG_COL_MEMORY), tr(lang, MSG_COL_STATUS)};
	static const double align[TABLE_COLS] = {0, 0, 1, 1, 1, 1, 1, 0};
	/* columns sized to their content (text.h): names never split */
	struct text_table t = {TABLE_COLS, w->training ? train_h : serve_h,
			       NULL, align, ptrs, rows};
	char head[640];
	snprintf(head, sizeof(head), "%s: %s (%zu / %zu)", tr(lang, MSG_OPTIONS),
		 w->name, rows, w->n);
	new_page(d);
	heading(d, head, 13);
	size_t next = 0;
	while (next < rows) {
		struct rect box = {MARGIN, d->y, PAGE_W - 2 * MARGIN,
				   PAGE_H - MARGIN - 14 - d->y};
		size_t after = text_table_draw(d->cr, d->font, box, &t, next, 7.5);
		if (after == next)
			break;		/* cannot progress: should not happen */
		next = after;
		if (next < rows) {
			new_page(d);
			snprintf(head, sizeof(head), "%s: %s %s", tr(lang, MSG_OPTIONS),
				 w->name, tr(lang, MSG_CONTINUED));
			heading(d, head, 11);
		}
	}
	free(ptrs);
	free(cells);
}

/* ---- charts ---- */


/* The charts of w, two a page; after each, cairo's status.  Returns 0, or
 * -1 with why naming the chart that could not be drawn. */
static int chart_pages(struct doc *d, const struct r_workload *w,
		       const size_t *ranked, char *why, size_t len)
{
	struct chart_style st = page_style(d);
	double h = (PAGE_H - 2 * MARGIN - 40) / 2;
	int on_page = 2;
	for (int c = 0; c < RC_COUNT; c++) {
		if (!report_chart_applies(d->p, w, c))
			continue;
		if (on_page == 2) {
			new_page(d);
			heading(d, w->name, 12);
			on_page = 0;
		}
		struct rect area = {MARGIN, d->y, PAGE_W - 2 * MARGIN, h - 8};
		report_chart_draw(d->cr, area, d->p, w, ranked, w->n, c, d->o->lang, &st);
		fault_chart(d->cr);
		char what[400];
		snprintf(what, sizeof(what), "the PDF's %s chart of workload '%s' (page %d)",
			 report_chart_slug(c), w->name, d->page);
		if (drawn(d->cr, what, why, len) < 0)
			return -1;
		d->y += h;
		on_page++;
	}
	return 0;
}

/* ---- appendix ---- */

/* One catalog entry's first source, unless already listed. */
static void source_line(struct doc *d, const char *kind, const char *name,
			const char **seen, size_t *n_seen)
{
	/* an instance may share its name with an accelerator: key by both */
	for (size_t i = 0; i + 1 < *n_seen; i += 2)
		if (seen[i] == kind && !strcmp(seen[i + 1], name))
			return;
	seen[(*n_seen)++] = kind;
	seen[(*n_seen)++] = name;
	const char *defined_at = "", *price_as_of = NULL;
	struct r_source src = {"", "", ""};
	const struct r_instance *in = NULL;
	const struct r_accelerator *a = NULL;
	if (!strcmp(kind, "instances"))
		in = r_plan_instance(d->p, name);
	else
		a = r_plan_accelerator(d->p, name);
	if (in) {
		defined_at = in->defined_at;
		price_as_of = in->price_as_of;
		src = in->source;
	} else if (a) {
		defined_at = a->defined_at;
		src = a->source;
	}
	char line[900];
	snprintf(line, sizeof(line), "%s (%s): %s, %s, %s", name, defined_at,
		 src.title, src.url, src.retrieved);
	if (price_as_of) {
		size_t k = strlen(line);
		snprintf(line + k, sizeof(line) - k, "; %s %s",
			 tr(d->o->lang, MSG_PRICE_AS_OF), price_as_of);
	}
	tr_trim_utf8(line);
	paragraph(d, line, 8.5);
}

static void appendix(struct doc *d)
{
	enum report_lang lang = d->o->lang;
	const struct r_plan *p = d->p;
	new_page(d);
	heading(d, tr(lang, MSG_APPENDIX), 14);
	heading(d, tr(lang, MSG_ASSUMPTIONS), 12);
	for (size_t i = 0; i < p->n_assumptions; i++) {
		const struct r_assumption *a = &p->assumptions[i];
		char line[600];
		snprintf(line, sizeof(line), "%s = %.3g: %s", a->key, a->value,
			 tr_assumption(lang, a->key, a->from));
		tr_trim_utf8(line);
		paragraph(d, line, 8.5);
	}
	if (p->has_rates) {
		heading(d, tr(lang, MSG_EXCHANGE_RATE), 12);
		char line[600];
		snprintf(line, sizeof(line), "%s %s, %s: %s", p->rates_base,
			 p->rates_as_of, p->rates_source.title, p->rates_source.url);
		tr_trim_utf8(line);
		paragraph(d, line, 8.5);
	}
	heading(d, tr(lang, MSG_SOURCES), 12);
	/* every instance and accelerator the report quotes a figure of: the
	 * recommendation, the runner-up and the obvious alternative, once */
	const char **seen = xcalloc(12 * p->n + 1, sizeof(char *));
	size_t n_seen = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct r_workload *w = &p->w[i];
		long quoted[3] = {w->recommended, w->runner_up, w->obvious};
		for (int q = 0; q < 3; q++) {
			if (quoted[q] < 0)
				continue;
			const struct r_option *o = &w->v[quoted[q]];
			source_line(d, "instances", o->instance, seen, &n_seen);
			source_line(d, "accelerators", o->accelerator, seen, &n_seen);
		}
	}
	free(seen);
	page_footer(d);
	cairo_show_page(d->cr);
}

/* ---- the files ---- */

/* Is s a calendar-looking date, YYYY-MM-DD in digits?  cairo takes the
 * PDF's dates as ISO 8601 and the plan's text is not to be trusted. */
static bool iso_date(const char *s)
{
	static const char shape[] = "dddd-dd-dd";
	for (size_t i = 0; i < sizeof(shape) - 1; i++)
		if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != '-')
			return false;
	return s[sizeof(shape) - 1] == '\0';
}

void report_plan_date(const struct r_plan *p, char *buf, size_t len)
{
	/* A fixed date keeps the same plan's PDF byte-identical: the plan's
	 * latest price date, not the wall clock. */
	const char *earliest, *latest;
	r_plan_price_dates(p, &earliest, &latest);
	if (iso_date(latest))
		snprintf(buf, len, "%sT00:00:00Z", latest);
	else
		snprintf(buf, len, "2026-01-01T00:00:00Z");
}

/* Checks the document after a part of it was drawn. */
static int part_drawn(struct doc *d, const char *part, char *why, size_t len)
{
	char what[480];
	snprintf(what, sizeof(what), "the PDF's %s (page %d)", part, d->page);
	return drawn(d->cr, what, why, len);
}

/* Draws the whole document on d->cr; 0, or -1 at the first part cairo
 * refused. */
static int draw_document(struct doc *d, char *why, size_t len)
{
	const struct r_plan *p = d->p;
	summary(d);
	if (part_drawn(d, "summary", why, len) < 0)
		return -1;
	for (size_t i = 0; i < p->n; i++) {
		size_t *ranked = report_rank(&p->w[i]);
		char part[400];
		options_table(d, &p->w[i], ranked);
		snprintf(part, sizeof(part), "option table of workload '%s'", p->w[i].name);
		int rc = part_drawn(d, part, why, len);
		if (rc == 0)
			rc = chart_pages(d, &p->w[i], ranked, why, len);
		free(ranked);
		if (rc < 0)
			return -1;
	}
	appendix(d);
	return part_drawn(d, "appendix", why, len);
}

/* Page 1 as the PDF draws it, on a white A4 image at FIRST_PAGE_SCALE
 * pixels a point (1191 x 1684: a README's picture), staged as a PNG. */
#define FIRST_PAGE_SCALE 2.0
static int render_first_page_png(const struct r_plan *p,
				 const struct report_options *o,
				 const struct report_font *f,
				 struct atomic_set *set, char *why, size_t len)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
		(int)ceil(PAGE_W * FIRST_PAGE_SCALE), (int)ceil(PAGE_H * FIRST_PAGE_SCALE));
	cairo_t *cr = cairo_create(s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_scale(cr, FIRST_PAGE_SCALE, FIRST_PAGE_SCALE);
	struct doc d = {cr, f, o, p, 0, 0, ""};
	const char *earliest, *latest;
	r_plan_price_dates(p, &earliest, &latest);
	snprintf(d.footnote, sizeof(d.footnote), tr(o->lang, MSG_FOOTNOTE),
		 earliest, latest);
	tr_trim_utf8(d.footnote);
	first_page(&d);
	page_footer(&d);
	int rc = drawn(cr, "the first page's PNG", why, len) < 0 ? REPORT_FAILED
								  : REPORT_OK;
	cairo_destroy(cr);
	cairo_surface_flush(s);
	if (rc == REPORT_OK) {
		struct buffer b = {0};
		b.data = png_encode(s, &b.len, why, len);
		rc = b.data ? stage(set, o->first_page_png, &b, why, len)
			    : REPORT_FAILED;
		free(b.data);
	}
	cairo_surface_destroy(s);
	return rc;
}

static int render_pdf(const struct r_plan *p, const struct report_options *o,
		      const struct report_font *f, struct atomic_set *set,
		      struct report_stats *stats, char *why, size_t len)
{
	struct buffer b = {0};
	cairo_surface_t *s = cairo_pdf_surface_create_for_stream(to_buffer, &b,
								 PAGE_W, PAGE_H);
	char date[40];
	report_plan_date(p, date, sizeof(date));
	char *title = utf8_clean_dup(o->title ? o->title : tr(o->lang, MSG_TITLE));
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, date);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, date);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "gpuplan");
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, title);
	free(title);
	char subject[1200];
	first_page_subject(p, o->lang, subject, sizeof(subject));
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_SUBJECT, subject);
	struct doc d = {cairo_create(s), f, o, p, 0, 0, ""};
	const char *earliest, *latest;
	r_plan_price_dates(p, &earliest, &latest);
	snprintf(d.footnote, sizeof(d.footnote), tr(o->lang, MSG_FOOTNOTE),
		 earliest, latest);
	tr_trim_utf8(d.footnote);
	int rc = draw_document(&d, why, len);
	cairo_destroy(d.cr);
	cairo_surface_finish(s);
	cairo_status_t st = cairo_surface_status(s);
	cairo_surface_destroy(s);
	if (rc == 0 && st != CAIRO_STATUS_SUCCESS) {
		snprintf(why, len, "cannot draw the PDF: %s", cairo_status_to_string(st));
		rc = -1;
	}
	if (rc == 0) {
		stats->pdf_pages = d.page;
		rc = stage(set, o->pdf, &b, why, len);
	}
	free(b.data);
	return rc < 0 ? rc : REPORT_OK;
}

/*
 * A workload's name as part of a file name: letters, digits, '.', '_' and
 * '-' kept, anything else (a '/', a space, Chinese) made '_', no leading
 * dot, at most FILE_SLUG_MAX bytes.  The caller puts the workload's index
 * in front, so two workloads never share a file, whatever their names.
 */
#define FILE_SLUG_MAX 80

void report_file_slug(const char *name, char *out, size_t cap)
{
	size_t k = 0;
	for (const char *c = name; *c && k + 1 < cap; c++) {
		bool keep = isalnum((unsigned char)*c) || *c == '.' || *c == '_' || *c == '-';
		if (k == 0 && *c == '.')
			continue;
		/* a multi-byte character becomes one '_', not one per byte */
		if ((*c & 0xC0) == 0x80)
			continue;
		out[k++] = keep && (unsigned char)*c < 0x80 ? *c : '_';
	}
	out[k] = '\0';
	if (k == 0)
		snprintf(out, cap, "workload");
}

/* The file chart c of w goes to: DIR/NN-SLUG-CHART.png or .svg. */
static char *chart_path(const struct r_plan *p, const struct r_workload *w,
			enum report_chart c, const struct report_options *o,
			bool svg)
{
	char slug[FILE_SLUG_MAX + 1];
	report_file_slug(w->name, slug, sizeof(slug));
	return xasprintf("%s/%02zu-%s-%s.%s", svg ? o->svg_dir : o->png_dir,
			 (size_t)(w - p->w) + 1, slug, report_chart_slug(c),
			 svg ? "svg" : "png");
}

/*
 * Chart c of w drawn alone into *b: PNG (1600 x 1000 px) or SVG (800 x
 * 500 pt) bytes.  0, or -1 with why when cairo refused any of it (the
 * surface, the drawing, the encoding).
 */
static int chart_bytes(const struct r_plan *p, const struct r_workload *w,
		       const size_t *ranked, enum report_chart c,
		       const struct report_options *o,
		       const struct report_font *f, bool svg,
		       struct buffer *b, char *why, size_t len)
{
	double width = svg ? 800 : 1600, height = svg ? 500 : 1000;
	char what[400];
	snprintf(what, sizeof(what), "the %s chart of workload '%s' as %s",
		 report_chart_slug(c), w->name, svg ? "SVG" : "PNG");
	cairo_surface_t *s = svg
		? cairo_svg_surface_create_for_stream(to_buffer, b, width, height)
		: cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)width, (int)height);
	cairo_t *cr = cairo_create(s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	struct chart_style st = {f->family, svg ? 11 : 22, svg ? 1 : 2};
	double m = svg ? 10 : 20;
	report_chart_draw(cr, (struct rect){m, m, width - 2 * m, height - 2 * m}, p,
			  w, ranked, w->n, c, o->lang, &st);
	fault_chart(cr);
	int rc = drawn(cr, what, why, len);
	cairo_destroy(cr);
	if (rc == 0 && !svg) {
		b->data = png_encode(s, &b->len, why, len);
		rc = b->data ? 0 : -1;
	}
	cairo_surface_finish(s);
	cairo_status_t status = cairo_surface_status(s);
	cairo_surface_destroy(s);
	if (rc == 0 && status != CAIRO_STATUS_SUCCESS) {
		snprintf(why, len, "cannot draw %s: %s", what,
			 cairo_status_to_string(status));
		rc = -1;
	}
	if (rc == 0 && svg)
		svg_renumber_surfaces(b);
	return rc;
}

int report_chart_file(const struct r_plan *p, const struct r_workload *w,
		      const size_t *ranked, enum report_chart c,
		      const struct report_options *o,
		      const struct report_font *f, bool svg,
		      char *why, size_t len)
{
	struct buffer b = {0};
	int rc = chart_bytes(p, w, ranked, c, o, f, svg, &b, why, len);
	if (rc == 0) {
		char *path = chart_path(p, w, c, o, svg);
		rc = atomic_write(path, b.data, b.len, why, len) == ATOMIC_OK ? 0 : -1;
		free(path);
	}
	free(b.data);
	return rc;
}

static int render_charts(const struct r_plan *p, const struct report_options *o,
			 const struct report_font *f, bool svg,
			 struct atomic_set *set, struct report_stats *stats,
			 char *why, size_t len)
{
	int rc = REPORT_OK;
	for (size_t i = 0; i < p->n && rc == REPORT_OK; i++) {
		size_t *ranked = report_rank(&p->w[i]);
		for (int c = 0; c < RC_COUNT && rc == REPORT_OK; c++) {
			if (!report_chart_applies(p, &p->w[i], c))
				continue;
			struct buffer b = {0};
			rc = chart_bytes(p, &p->w[i], ranked, c, o, f, svg, &b, why, len);
			if (rc == 0) {
				char *path = chart_path(p, &p->w[i], c, o, svg);
				rc = stage(set, path, &b, why, len);
				free(path);
			}
			free(b.data);
			if (rc == REPORT_OK && svg)
				stats->svg_files++;
			else if (rc == REPORT_OK)
				stats->png_files++;
		}
		free(ranked);
	}
	return rc < 0 && rc != REPORT_REFUSED ? REPORT_FAILED : rc;
}

/* Appends s to the buffer when it has a byte outside ASCII (the only text
 * a Latin font might lack glyphs for). */
static void gather_non_ascii(struct buffer *b, const char *s)
{
	if (!s)
		return;
	for (const char *c = s; *c; c++)
		if ((unsigned char)*c >= 0x80) {
			to_buffer(b, (const unsigned char *)s, (unsigned)strlen(s));
			to_buffer(b, (const unsigned char *)" ", 1);
			return;
		}
}

/*
 * An English report of a plan with Chinese names (a workload called
 * 视觉检测, a local cloud's instance names) would draw them as empty
 * boxes in a Latin font: when the names need it and the Chinese font has
 * every glyph, the report uses that font (it has Latin letters too).
 */
static void font_for_names(const struct r_plan *p, const struct report_options *o,
			   struct report_font *f)
{
	struct buffer b = {0};
	gather_non_ascii(&b, o->title);
	for (size_t i = 0; i < p->n; i++) {
		gather_non_ascii(&b, p->w[i].name);
		gather_non_ascii(&b, p->w[i].model);
		for (size_t k = 0; k < p->w[i].n; k++) {
			gather_non_ascii(&b, p->w[i].v[k].instance);
			gather_non_ascii(&b, p->w[i].v[k].accelerator);
		}
	}
	to_buffer(&b, (const unsigned char *)"", 1);
	/* as drawn: a noncharacter is drawn as U+FFFD */
	char *names = utf8_clean_dup((const char *)b.data);
	struct report_font zh;
	char why[300];
	if (b.len > 1 && !report_font_covers(f, names) &&
	    report_font_find(LANG_ZH, &zh, why, sizeof(why)) == 0) {
		if (report_font_covers(&zh, names)) {
			report_font_free(f);
			*f = zh;
		} else
			report_font_free(&zh);
	}
	free(names);
	free(b.data);
}

int report_render(const struct r_plan *p, const struct report_options *o,
		  struct atomic_set *set, struct report_stats *stats, char *why,
		  size_t len)
{
	memset(stats, 0, sizeof(*stats));
	struct report_font f;
	if (report_font_find(o->lang, &f, why, len) < 0)
		return REPORT_FAILED;
	font_for_names(p, o, &f);
	int rc = REPORT_OK;
	if (o->pdf)
		rc = render_pdf(p, o, &f, set, stats, why, len);
	if (rc == REPORT_OK && o->png_dir)
		rc = render_charts(p, o, &f, false, set, stats, why, len);
	if (rc == REPORT_OK && o->svg_dir)
		rc = render_charts(p, o, &f, true, set, stats, why, len);
	if (rc == REPORT_OK && o->first_page_png)
		rc = render_first_page_png(p, o, &f, set, why, len);
	report_font_free(&f);
	return rc;
}

/* ---- a command's own drawing ---- */

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && !strcasecmp(s + n - t, tail);
}

unsigned char *report_drawing_bytes(const char *path, report_draw_fn draw,
				    const void *arg, const struct report_font *f,
				    const char *date, size_t *len, char *why,
				    size_t wlen)
{
	bool png = ends_with(path, ".png"), svg = ends_with(path, ".svg"),
	     pdf = ends_with(path, ".pdf");
	if (!png && !svg && !pdf) {
		snprintf(why, wlen, "%s: expected a file name ending in .pdf, .png or .svg", path);
		return NULL;
	}
	double width = png ? 1600 : svg ? 800 : PAGE_H, height = png ? 1000 : svg ? 500 : PAGE_W;
	struct buffer b = {0};
	cairo_surface_t *s = png ? cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)width, (int)height)
			     : svg ? cairo_svg_surface_create_for_stream(to_buffer, &b, width, height)
				   : cairo_pdf_surface_create_for_stream(to_buffer, &b, width, height);
	if (pdf) {
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, date);
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, date);
		cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "gpuplan");
	}
	cairo_t *cr = cairo_create(s);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	struct chart_style st = {f->family, png ? 22 : 11, png ? 2 : 1};
	double m = png ? 20 : 10;
	draw(cr, (struct rect){m, m, width - 2 * m, height - 2 * m}, &st, arg);
	int rc = drawn(cr, path, why, wlen);
	cairo_destroy(cr);
	if (rc == 0 && png) {
		b.data = png_encode(s, &b.len, why, wlen);
		rc = b.data ? 0 : -1;
	}
	cairo_surface_finish(s);
	cairo_status_t status = cairo_surface_status(s);
	cairo_surface_destroy(s);
	if (rc == 0 && status != CAIRO_STATUS_SUCCESS) {
		snprintf(why, wlen, "cannot draw %s: %s", path, cairo_status_to_string(status));
		rc = -1;
	}
	if (rc == 0 && svg)
		svg_renumber_surfaces(&b);
	if (rc < 0) {
		free(b.data);
		return NULL;
	}
	*len = b.len;
	return b.data;
}

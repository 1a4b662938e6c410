/*
 * first_page.c - the plan-wide figures of the report's first page; see
 * first_page.h.
 */
#include "first_page.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "i18n.h"
#include "plan_words.h"

/* Appends s to buf as the next item of a comma-separated list. */
static void list_add(char *buf, size_t len, const char *s)
{
	size_t k = strlen(buf);
	if (k + 1 < len)
		snprintf(buf + k, len - k, "%s%s", k ? ", " : "", s);
}

/* Does s contain "cpu" in any case? */
static bool mentions_cpu(const char *s)
{
	for (; s && *s; s++)
		if (strncasecmp(s, "cpu", 3) == 0)
			return true;
	return false;
}

void fp_totals(const struct r_plan *p, struct fp_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < p->n; i++) {
		const struct r_workload *w = &p->w[i];
		if (w->recommended < 0)
			continue;
		const struct r_option *o = &w->v[w->recommended];
		double *sum = w->training ? t->one_off : t->monthly;
		double spread = w->training ? FP_TRAIN_SPREAD : FP_SERVE_SPREAD;
		double lo = o->cost * (1 - spread), hi = o->cost * (1 + spread);
		if (o->cost_range[0] > 0 && o->cost_range[1] >= o->cost_range[0]) {
			lo = o->cost_range[0];
			hi = o->cost_range[1];
			if (o->range_measured) {	/* calibrate.h */
				t->measured = true;
			} else {		/* train/train_range.h */
				t->stated = true;
				t->stated_level = o->range_level;
			}
		} else {
			t->assumed = true;
		}
		sum[0] += lo;
		sum[1] += o->cost;
		sum[2] += hi;
		if (w->training)
			t->n_training++;
		else
			t->n_services++;
	}
}

/* Appends a sentence to buf (a space before all but the first). */
static void add_sentence(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add_sentence(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	if (used && used + 1 < len) {
		buf[used++] = ' ';
		buf[used] = '\0';
	}
	va_list ap;
	va_start(ap, fmt);
	if (used < len)
		vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

size_t fp_range_notes(const struct fp_totals *t, enum report_lang lang,
		      char *buf, size_t len)
{
	buf[0] = '\0';
	if (t->measured)
		add_sentence(buf, len, "%s", tr(lang, MSG_FP_RANGE_MEASURED));
	if (t->stated)
		add_sentence(buf, len, tr(lang, MSG_FP_RANGE_STATED),
			     100 * t->stated_level);
	if (t->assumed)
		add_sentence(buf, len, tr(lang, MSG_FP_RANGE_ASSUMED),
			     100 * FP_TRAIN_SPREAD, 100 * FP_SERVE_SPREAD);
	return (size_t)t->measured + t->stated + t->assumed;
}

size_t fp_illustrative(const struct r_plan *p, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < p->n; i++) {
		const struct r_workload *w = &p->w[i];
		if (w->recommended < 0 || !w->v[w->recommended].illustrative)
			continue;
		const char *name = w->v[w->recommended].instance;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = p->w[j].recommended >= 0 &&
			       p->w[j].v[p->w[j].recommended].illustrative &&
			       !strcmp(p->w[j].v[p->w[j].recommended].instance, name);
		if (!seen) {
			list_add(buf, len, name);
			n++;
		}
	}
	return n;
}

size_t fp_assumed(const struct r_plan *p, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < p->n_assumptions; i++) {
		const struct r_assumption *a = &p->assumptions[i];
		char item[200];
		if (strncasecmp(a->from, "assumption", 10) != 0 || !a->has_value)
			continue;
		snprintf(item, sizeof(item), "%s %.3g", a->key, a->value);
		list_add(buf, len, item);
		n++;
	}
	return n;
}

size_t fp_limits(const struct r_plan *p, enum report_lang lang, char *buf,
		 size_t len)
{
	long most = 0;
	bool h100 = false, cpu = false;
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < p->n; i++) {
		const struct r_workload *w = &p->w[i];
		if (mentions_cpu(w->sample_device))
			cpu = true;
		if (w->recommended < 0 || !w->training)
			continue;
		const struct r_option *o = &w->v[w->recommended];
		if (o->gpus > most)
			most = o->gpus;
		if (o->accelerator && strstr(o->accelerator, "H100"))
			h100 = true;
	}
	if (most > FP_BACKTEST_MAX_GPUS) {
		char item[300];
		snprintf(item, sizeof(item), tr(lang, MSG_FP_LIMIT_SIZE), most,
			 FP_BACKTEST_MAX_GPUS);
		list_add(buf, len, item);
		n++;
	}
	if (h100) {
		list_add(buf, len, tr(lang, MSG_FP_LIMIT_H100));
		n++;
	}
	if (cpu) {
		list_add(buf, len, tr(lang, MSG_FP_LIMIT_CPU));
		n++;
	}
	return n;
}

bool fp_gpu_hours(const struct r_plan *p, double *wall, double *compute)
{
	*wall = *compute = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct r_workload *w = &p->w[i];
		if (w->recommended < 0 || !w->training ||
		    !(w->v[w->recommended].gpu_hours_compute > 0))
			continue;
		*wall += w->v[w->recommended].gpu_hours;
		*compute += w->v[w->recommended].gpu_hours_compute;
	}
	return *compute > 0;
}

bool fp_gpu_hours_sentence(const struct r_plan *p, enum report_lang lang,
			   char *buf, size_t len)
{
	double wall, compute;
	if (!fp_gpu_hours(p, &wall, &compute))
		return false;
	char a[64], b[64];
	r_hours_text(wall, a, sizeof(a));
	r_hours_text(compute, b, sizeof(b));
	snprintf(buf, len, tr(lang, MSG_FP_GPU_HOURS), a, b, 100 * compute / wall);
	return true;
}

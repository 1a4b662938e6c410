/*
 * compare_runs.c - two run records, metric by metric; see compare_runs.h.
 */
#include "compare/compare_runs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/welch.h"
#include "core/output.h"
#include "core/xalloc.h"

/* One metric of one record: index -1 is wall time. */
struct side {
	const struct run_record *r;
	long m;
};

/* The values of the runs that count, and how many of those missed it. */
static double *values(const struct side *s, size_t *n, size_t *missing)
{
	double *v = xcalloc(s->r->n_runs + 1, sizeof(double));
	*n = *missing = 0;
	for (size_t i = 0; i < s->r->n_runs; i++) {
		const struct run_one *u = &s->r->runs[i];
		if (!run_counts(u))
			continue;
		if (s->m < 0)
			v[(*n)++] = u->wall_s;
		else if (u->present[s->m])
			v[(*n)++] = u->value[s->m];
		else
			(*missing)++;
	}
	return v;
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *interval(double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi))
		return json_null();
	return json_pack("[ff]", lo, hi);
}

static json_t *stats_json(const struct sample_stats *s, size_t missing)
{
	json_t *j = json_object();
	json_object_set_new(j, "n", json_integer((json_int_t)s->n));
	json_object_set_new(j, "mean", s->n ? json_real(s->mean) : json_null());
	json_object_set_new(j, "sd", s->n >= 2 ? real_or_null(s->sd) : json_null());
	json_object_set_new(j, "missing", json_integer((json_int_t)missing));
	return j;
}

/* The verdict and its note, from the test and the metric's direction. */
static const char *verdict(const struct welch *w, enum better b,
			   const char **note)
{
	bool up = w->diff > 0;
	const char *dir = (up == (b == BETTER_HIGHER)) ? VERDICT_BETTER
						      : VERDICT_WORSE;
	*note = w->beyond
		? "a figure past a double's range (about 1.8e308) is given as null"
		: NULL;
	switch (w->status) {
	case WELCH_TOO_FEW:
		*note = "too few runs: a test needs 2 or more on each side";
		return VERDICT_TOO_FEW;
	case WELCH_NO_SPREAD:
		*note = "no spread: exact difference (every run gave the same value)";
		return w->diff == 0 ? VERDICT_NONE : dir;
	case WELCH_TINY_SPREAD:
		*note = "spread negligible beside the difference (below a double's precision at this scale): exact difference";
		return w->diff == 0 ? VERDICT_NONE : dir;
	default:
		return w->p < 0.05 ? dir : VERDICT_SAME;
	}
}

json_t *compare_metric_json(const char *name, enum better b, const char *unit,
			    const double *vb, size_t nb, size_t mb,
			    const double *va, size_t na, size_t ma)
{
	struct sample_stats sb, sa;
	sample_stats_of(vb, nb, &sb);
	sample_stats_of(va, na, &sa);
	struct welch w;
	welch_compare(&sb, &sa, &w);
	const char *note = NULL;
	const char *v = verdict(&w, b, &note);
	bool any = nb && na;
	json_t *j = json_object();
	json_object_set_new(j, "name", json_text(name));
	json_object_set_new(j, "better", json_string(better_name(b)));
	json_object_set_new(j, "unit", unit ? json_string(unit) : json_null());
	json_object_set_new(j, "before", stats_json(&sb, mb));
	json_object_set_new(j, "after", stats_json(&sa, ma));
	json_object_set_new(j, "change", any ? real_or_null(w.diff) : json_null());
	json_object_set_new(j, "change_interval", interval(w.diff_lo, w.diff_hi));
	json_object_set_new(j, "ratio", any ? real_or_null(w.ratio) : json_null());
	json_object_set_new(j, "ratio_interval", interval(w.ratio_lo, w.ratio_hi));
	json_object_set_new(j, "df", real_or_null(w.df));
	json_object_set_new(j, "p_value", real_or_null(w.p));
	json_object_set_new(j, "verdict", json_string(any ? v : VERDICT_TOO_FEW));
	if (!any)
		note = "no run that counts measured it on one side";
	json_object_set_new(j, "note", json_string_or_null(note));
	return j;
}

static json_t *metric_json(const char *name, enum better b, const char *unit,
			   const struct side *before, const struct side *after)
{
	size_t nb, na, mb, ma;
	double *vb = values(before, &nb, &mb), *va = values(after, &na, &ma);
	json_t *j = compare_metric_json(name, b, unit, vb, nb, mb, va, na, ma);
	free(vb);
	free(va);
	return j;
}

static long find_metric(const struct run_record *r, const char *name)
{
	for (size_t i = 0; i < r->n_metrics; i++)
		if (strcmp(r->metrics[i].name, name) == 0)
			return (long)i;
	return -1;
}

static json_t *side_json(const struct run_record *r, const char *file)
{
	size_t warm = 0, failed = 0, counted = 0;
	for (size_t i = 0; i < r->n_runs; i++) {
		warm += r->runs[i].warmup;
		failed += !r->runs[i].warmup && run_failed(&r->runs[i]);
		counted += run_counts(&r->runs[i]);
	}
	json_t *cmd = json_array();
	for (size_t i = 0; i < r->argc; i++)
		json_array_append_new(cmd, json_text(r->argv[i]));
	json_t *j = json_object();
	json_object_set_new(j, "file", json_text(file));
	json_object_set_new(j, "command", cmd);
	json_object_set_new(j, "when", json_text(r->when));
	json_object_set_new(j, "host", json_text(r->hostname));
	json_object_set_new(j, "cpu", json_text(r->cpu));
	json_object_set_new(j, "gpu", r->gpu ? json_text(r->gpu_name)
					     : json_null());
	json_object_set_new(j, "gpu_absent", r->gpu ? json_null()
						    : json_text(r->gpu_absent));
	json_object_set_new(j, "runs", json_integer((json_int_t)r->n_runs));
	json_object_set_new(j, "warmup", json_integer((json_int_t)warm));
	json_object_set_new(j, "failed", json_integer((json_int_t)failed));
	json_object_set_new(j, "counted", json_integer((json_int_t)counted));
	return j;
}

/* Names of r's metrics that other lacks. */
static json_t *only_in(const struct run_record *r, const struct run_record *other)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->n_metrics; i++)
		if (find_metric(other, r->metrics[i].name) < 0)
			json_array_append_new(a, json_text(r->metrics[i].name));
	return a;
}

json_t *compare_runs(const struct run_record *before, const char *before_file,
		     const struct run_record *after, const char *after_file)
{
	json_t *metrics = json_array(), *notes = json_array();
	struct side b = {before, -1}, a = {after, -1};
	json_array_append_new(metrics, metric_json(WALL_TIME_METRIC,
						   BETTER_LOWER, "s", &b, &a));
	for (size_t i = 0; i < before->n_metrics; i++) {
		const struct metric *m = &before->metrics[i];
		long k = find_metric(after, m->name);
		if (k < 0)
			continue;
		if (after->metrics[k].better != m->better)
			json_array_append_new(notes, json_sprintf(
				"metric '%s' is %s-is-better before and %s-is-better after: compared as before says",
				m->name, better_name(m->better),
				better_name(after->metrics[k].better)));
		b.m = (long)i;
		a.m = k;
		json_array_append_new(metrics, metric_json(m->name, m->better,
							   NULL, &b, &a));
	}
	return compare_measured_json("runs",
		"Welch's t-test on the runs that count (not warm-up, exit status 0); 95% interval of the difference of means with Welch-Satterthwaite degrees of freedom; ratio after/before with a delta-method 95% interval; verdict at p < 0.05 in each metric's direction",
		side_json(before, before_file), side_json(after, after_file),
		metrics, only_in(before, after), only_in(after, before), notes);
}

json_t *compare_measured_json(const char *kind, const char *method,
			      json_t *before, json_t *after, json_t *metrics,
			      json_t *only_before, json_t *only_after,
			      json_t *notes)
{
	json_t *j = json_object();
	json_object_set_new(j, "schema", json_string(COMPARE_SCHEMA));
	json_object_set_new(j, "kind", json_string(kind));
	json_object_set_new(j, "method", json_string(method));
	json_object_set_new(j, "before", before);
	json_object_set_new(j, "after", after);
	json_object_set_new(j, "metrics", metrics);
	json_object_set_new(j, "only_before", only_before);
	json_object_set_new(j, "only_after", only_after);
	json_object_set_new(j, "notes", notes);
	return j;
}

/*
 * coverage.c - the backtest's rows turned into observations (one per
 * record and quantity kind), their strata and sources, the tallies, the
 * exact binomial intervals, leave-one-source-out, the gate and the JSON.
 */
#include "coverage.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/output.h"
#include "core/precision.h"
#include "core/xalloc.h"

/* ---- the interval ---- */

/*
 * The x at which the beta(a, b) distribution function reaches p.  GSL's
 * inverse first, with its error handler off: GSL 2.7.1's
 * gsl_cdf_beta_Pinv() gives up ("inverse failed to converge") on some
 * shares of a few hundred records (first at k = 2 of n = 260, the upper
 * end), where the default handler would abort.  There the distribution
 * function, which rises monotonically on [0, 1], is bisected to the
 * last bit instead, the handler still off: a value GSL cannot give reads
 * as NaN, which counts as "not below p" and narrows from above, never an
 * abort.
 */
static double beta_quantile(double p, double a, double b)
{
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	double x = gsl_cdf_beta_Pinv(p, a, b);
	if (!(isfinite(x) && x >= 0 && x <= 1)) {
		double lo = 0, hi = 1;
		for (int i = 0; i < 200; i++) {
			double mid = 0.5 * (lo + hi);
			if (mid <= lo || mid >= hi)
				break;
			if (gsl_cdf_beta_P(mid, a, b) < p)
				lo = mid;
			else
				hi = mid;
		}
		x = 0.5 * (lo + hi);
	}
	gsl_set_error_handler(old);
	return x;
}

void coverage_interval(size_t k, size_t n, double conf, double *lo,
		       double *hi)
{
	if (n == 0 || k > n) {
		*lo = *hi = NAN;
		return;
	}
	double tail = (1 - conf) / 2, dk = (double)k, dn = (double)n;
	/* k = 0 and k = n: the interval reaches the end exactly */
	*lo = k == 0 ? 0 : beta_quantile(tail, dk, dn - dk + 1);
	*hi = k == n ? 1 : beta_quantile(1 - tail, dk + 1, dn - dk);
}

double coverage_share(const struct coverage_tally *t)
{
	return t->n ? (double)t->covered / (double)t->n : NAN;
}

double coverage_mean_width(const struct coverage_tally *t)
{
	return t->n ? t->width_sum / (double)t->n : NAN;
}

/* ---- kinds, strata, sides ---- */

int coverage_kind_of(enum measure m)
{
	switch (m) {
	case MEASURE_STEP_TIME:
	case MEASURE_FLOPS_PER_GPU:
	case MEASURE_TOKENS_PER_S:
	case MEASURE_MFU:
		return COVER_STEP;
	case MEASURE_GPU_HOURS:
	case MEASURE_DAYS:
		return COVER_RUN;
	default:
		return -1;
	}
}

/* Which row of a record stands for its kind: the lowest wins.  The step
 * itself and tokens per step need no FLOP counting; flops_per_gpu and
 * mfu depend on how FLOPs were counted. */
static int preference(enum measure m)
{
	switch (m) {
	case MEASURE_STEP_TIME: return 0;
	case MEASURE_TOKENS_PER_S: return 1;
	case MEASURE_FLOPS_PER_GPU: return 2;
	case MEASURE_MFU: return 3;
	case MEASURE_GPU_HOURS: return 0;
	case MEASURE_DAYS: return 1;
	default: return 9;
	}
}

/* The compared terms grow with the run's time (a step, GPU-hours, days;
 * flops_per_gpu is compared as the step), not with its speed. */
static bool compared_as_time(enum measure m)
{
	return m != MEASURE_TOKENS_PER_S && m != MEASURE_MFU;
}

static enum coverage_side side_of(const struct backtest_row *row)
{
	if (backtest_row_covered(row))
		return COVER_INSIDE;
	bool above = row->measured_cmp > row->high_cmp;
	return above == compared_as_time(row->m) ? COVER_SLOWER : COVER_FASTER;
}

/* Data-parallel widths: one replica, within a few nodes' worth, up to a
 * few hundred, and the scale where per-message latency dominates. */
static int dp_band(long dp, char *label, size_t len)
{
	static const char *const names[] = {"1", "2-63", "64-511", "512+"};
	int band = dp <= 1 ? 0 : dp < 64 ? 1 : dp < 512 ? 2 : 3;
	snprintf(label, len, "%s", names[band]);
	return band;
}

int coverage_stratum_of(const struct backtest_row *row,
			enum coverage_kind kind, enum coverage_dim dim,
			char *label, size_t len)
{
	const struct outcome *o = row->o;
	switch (dim) {
	case DIM_GENERATION: {
		/* the catalog's `architecture:`, optional there */
		const char *arch = o->inst->acc->architecture;
		snprintf(label, len, "%s", arch ? arch : "not given");
		return arch ? 0 : 1;
	}
	case DIM_PRECISION:
		snprintf(label, len, "%s", precision_name(o->w->precision));
		return (int)o->w->precision;
	case DIM_ZERO:
		snprintf(label, len, "stage %d", row->plan.zero);
		return row->plan.zero;
	case DIM_DP:
		return dp_band(row->plan.dp, label, len);
	case DIM_KIND:
	case DIM_COUNT:
		break;
	}
	snprintf(label, len, "%s", kind == COVER_STEP ? "step" : "whole run");
	return (int)kind;
}

const char *coverage_dim_name(enum coverage_dim d)
{
	static const char *const names[DIM_COUNT] = {
		"generation", "precision", "zero_stage", "dp_width", "quantity"};
	return names[d];
}

const char *coverage_side_name(enum coverage_side s)
{
	static const char *const names[] = {"inside", "slower", "faster"};
	return names[s];
}

/* ---- observations ---- */

static void count_left_out(struct coverage *cv, const struct backtest_row *row)
{
	if (row->o->serving)
		cv->rows_serving++;
	else if (!row->predicted)
		cv->rows_not_predicted++;
	else
		cv->rows_no_range++;
}

/* The observation of row's record and kind made so far, or NULL.  A
 * record's rows are consecutive (backtest.h), so the search stops at the
 * first observation of another record. */
static struct coverage_obs *same_prediction(struct coverage *cv,
					    const struct backtest_row *row,
					    enum coverage_kind kind)
{
	for (size_t i = cv->n_obs; i-- > 0;) {
		struct coverage_obs *ob = &cv->obs[i];
		if (ob->row->o != row->o)
			return NULL;
		if (ob->kind == kind)
			return ob;
	}
	return NULL;
}

static void collect(struct coverage *cv, const struct backtest *bt)
{
	size_t cap = 0;
	for (size_t i = 0; i < bt->n; i++) {
		const struct backtest_row *row = &bt->v[i];
		int kind = coverage_kind_of(row->m);
		if (row->o->serving || !row->predicted || !row->has_range ||
		    kind < 0) {
			count_left_out(cv, row);
			continue;
		}
		struct coverage_obs *ob = same_prediction(cv, row, kind);
		if (ob) {
			cv->rows_folded++;
			if (preference(row->m) < preference(ob->row->m))
				ob->row = row;
			continue;
		}
		xgrow((void **)&cv->obs, &cap, cv->n_obs + 1, sizeof(*cv->obs));
		ob = &cv->obs[cv->n_obs++];
		memset(ob, 0, sizeof(*ob));
		ob->row = row;
		ob->kind = (enum coverage_kind)kind;
	}
	for (size_t i = 0; i < cv->n_obs; i++) {
		struct coverage_obs *ob = &cv->obs[i];
		const struct backtest_row *row = ob->row;
		ob->side = side_of(row);
		ob->width = (row->high_cmp - row->low_cmp) / row->predicted_cmp;
	}
}

/* ---- strata and sources ---- */

static int stratum_cmp(const void *pa, const void *pb)
{
	const struct coverage_stratum *a = pa, *b = pb;
	if (a->dim != b->dim)
		return a->dim < b->dim ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return strcmp(a->label, b->label);
}

static size_t find_stratum(const struct coverage *cv, enum coverage_dim dim,
			   const char *label)
{
	for (size_t i = 0; i < cv->n_strata; i++)
		if (cv->strata[i].dim == dim && !strcmp(cv->strata[i].label, label))
			return i;
	return cv->n_strata;
}

/* Every stratum an observation falls in, sorted; then each observation's
 * indices into them. */
static void make_strata(struct coverage *cv)
{
	size_t cap = 0;
	for (size_t i = 0; i < cv->n_obs; i++)
		for (int d = 0; d < DIM_COUNT; d++) {
			struct coverage_stratum s = {.dim = (enum coverage_dim)d};
			s.rank = coverage_stratum_of(cv->obs[i].row, cv->obs[i].kind,
						     s.dim, s.label, sizeof(s.label));
			if (find_stratum(cv, s.dim, s.label) < cv->n_strata)
				continue;
			xgrow((void **)&cv->strata, &cap, cv->n_strata + 1,
			      sizeof(*cv->strata));
			cv->strata[cv->n_strata++] = s;
		}
	if (cv->n_strata)
		qsort(cv->strata, cv->n_strata, sizeof(*cv->strata), stratum_cmp);
	for (size_t i = 0; i < cv->n_obs; i++)
		for (int d = 0; d < DIM_COUNT; d++) {
			char label[48];
			coverage_stratum_of(cv->obs[i].row, cv->obs[i].kind,
					    (enum coverage_dim)d, label, sizeof(label));
			cv->obs[i].stratum[d] =
				find_stratum(cv, (enum coverage_dim)d, label);
		}
}

static const char *source_of(const struct outcome *o)
{
	return o->n_sources ? o->sources[0].url : "";
}

static int group_cmp(const void *pa, const void *pb)
{
	const struct coverage_group *a = pa, *b = pb;
	return strcmp(a->source, b->source);
}

static size_t find_group(const struct coverage *cv, const char *source)
{
	for (size_t i = 0; i < cv->n_groups; i++)
		if (!strcmp(cv->groups[i].source, source))
			return i;
	return cv->n_groups;
}

static void make_groups(struct coverage *cv)
{
	size_t cap = 0;
	for (size_t i = 0; i < cv->n_obs; i++) {
		const char *src = source_of(cv->obs[i].row->o);
		if (find_group(cv, src) < cv->n_groups)
			continue;
		xgrow((void **)&cv->groups, &cap, cv->n_groups + 1,
		      sizeof(*cv->groups));
		cv->groups[cv->n_groups++] = (struct coverage_group){.source = src};
	}
	if (cv->n_groups)
		qsort(cv->groups, cv->n_groups, sizeof(*cv->groups), group_cmp);
	for (size_t i = 0; i < cv->n_obs; i++)
		cv->obs[i].group = find_group(cv, source_of(cv->obs[i].row->o));
}

/* ---- tallies ---- */

static void tally_add(struct coverage_tally *t, const struct coverage_obs *ob)
{
	t->n++;
	t->covered += ob->side == COVER_INSIDE;
	t->slower += ob->side == COVER_SLOWER;
	t->faster += ob->side == COVER_FASTER;
	t->width_sum += ob->width;
}

/* The overall share with each source left out in turn, and the source
 * whose removal leaves the lowest (the first of equals). */
static void leave_one_out(struct coverage *cv)
{
	cv->loo_worst = -1;
	const struct coverage_tally *all = &cv->overall;
	for (size_t g = 0; g < cv->n_groups; g++) {
		struct coverage_group *gr = &cv->groups[g];
		size_t n = all->n - gr->t.n;
		gr->share_without = n ? (double)(all->covered - gr->t.covered) /
						(double)n
				      : NAN;
		if (n && (cv->loo_worst < 0 ||
			  gr->share_without <
				  cv->groups[cv->loo_worst].share_without))
			cv->loo_worst = (long)g;
	}
}

void coverage_of(struct coverage *cv, const struct backtest *bt,
		 double level)
{
	memset(cv, 0, sizeof(*cv));
	cv->level = level;
	collect(cv, bt);
	make_strata(cv);
	make_groups(cv);
	for (size_t i = 0; i < cv->n_obs; i++) {
		const struct coverage_obs *ob = &cv->obs[i];
		tally_add(&cv->overall, ob);
		for (int d = 0; d < DIM_COUNT; d++)
			tally_add(&cv->strata[ob->stratum[d]].t, ob);
		tally_add(&cv->groups[ob->group].t, ob);
	}
	leave_one_out(cv);
}

void coverage_free(struct coverage *cv)
{
	free(cv->obs);
	free(cv->strata);
	free(cv->groups);
	memset(cv, 0, sizeof(*cv));
}

/* ---- the gate ---- */

/* "overall 71.2% (37 of 52)" appended to buf at *at. */
static void add_miss(char *buf, size_t len, size_t *at, const char *what,
		     const struct coverage_tally *t)
{
	if (*at >= len)
		return;
	int w = snprintf(buf + *at, len - *at, "%s%s %.1f%% (%zu of %zu)",
			 *at ? "; " : "", what, 100 * coverage_share(t),
			 t->covered, t->n);
	*at += w > 0 ? (size_t)w : 0;
}

bool coverage_below(const struct coverage *cv, double min, char *why,
		    size_t len)
{
	if (cv->overall.n == 0) {
		snprintf(why, len, "no measurement has a range at %.4g%%: coverage cannot be checked",
			 100 * cv->level);
		return true;
	}
	char list[1024] = "";
	size_t at = 0;
	if (coverage_share(&cv->overall) < min)
		add_miss(list, sizeof(list), &at, "overall", &cv->overall);
	for (size_t i = 0; i < cv->n_strata; i++) {
		const struct coverage_stratum *s = &cv->strata[i];
		if (s->t.n < COVERAGE_GATE_MIN_RECORDS || coverage_share(&s->t) >= min)
			continue;
		char what[96];
		snprintf(what, sizeof(what), "%s %s", coverage_dim_name(s->dim),
			 s->label);
		add_miss(list, sizeof(list), &at, what, &s->t);
	}
	if (!at)
		return false;
	snprintf(why, len, "coverage at %.4g%% is below %.4g%%: %s", 100 * cv->level,
		 100 * min, list);
	return true;
}

/* ---- JSON ---- */

static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_number(v) : json_null();
}

static json_t *tally_json(const struct coverage_tally *t)
{
	json_t *j = json_object();
	double lo, hi;
	coverage_interval(t->covered, t->n, COVERAGE_CONFIDENCE, &lo, &hi);
	json_object_set_new(j, "records", json_integer((json_int_t)t->n));
	json_object_set_new(j, "covered", json_integer((json_int_t)t->covered));
	json_object_set_new(j, "share_fraction", number_or_null(coverage_share(t)));
	json_object_set_new(j, "share_ci95_low_fraction", number_or_null(lo));
	json_object_set_new(j, "share_ci95_high_fraction", number_or_null(hi));
	json_object_set_new(j, "mean_relative_width_fraction",
			    number_or_null(coverage_mean_width(t)));
	json_object_set_new(j, "measured_slower", json_integer((json_int_t)t->slower));
	json_object_set_new(j, "measured_faster", json_integer((json_int_t)t->faster));
	return j;
}

static json_t *obs_json(const struct coverage *cv, const struct coverage_obs *ob)
{
	const struct backtest_row *row = ob->row;
	json_t *j = json_object();
	json_object_set_new(j, "record", json_text(row->o->name));
	json_object_set_new(j, "source", json_text(cv->groups[ob->group].source));
	json_object_set_new(j, "quantity", json_string(measure_name(row->m)));
	json_object_set_new(j, "compared_as", json_string(
		row->m == MEASURE_FLOPS_PER_GPU ? "step_time"
						: measure_name(row->m)));
	json_object_set_new(j, "measured_compared", json_number(row->measured_cmp));
	json_object_set_new(j, "predicted_compared", json_number(row->predicted_cmp));
	json_object_set_new(j, "low_compared", json_number(row->low_cmp));
	json_object_set_new(j, "high_compared", json_number(row->high_cmp));
	json_object_set_new(j, "relative_width_fraction", json_number(ob->width));
	json_object_set_new(j, "side", json_string(coverage_side_name(ob->side)));
	json_t *st = json_object();
	for (int d = 0; d < DIM_COUNT; d++)
		json_object_set_new(st, coverage_dim_name((enum coverage_dim)d),
				    json_text(cv->strata[ob->stratum[d]].label));
	json_object_set_new(j, "strata", st);
	return j;
}

static json_t *strata_json(const struct coverage *cv)
{
	json_t *a = json_array();
	for (size_t i = 0; i < cv->n_strata; i++) {
		const struct coverage_stratum *s = &cv->strata[i];
		json_t *j = tally_json(&s->t);
		json_object_set_new(j, "dimension", json_string(coverage_dim_name(s->dim)));
		json_object_set_new(j, "stratum", json_text(s->label));
		json_object_set_new(j, "gated", json_boolean(
			s->t.n >= COVERAGE_GATE_MIN_RECORDS));
		json_array_append_new(a, j);
	}
	return a;
}

static json_t *sources_json(const struct coverage *cv)
{
	json_t *a = json_array();
	for (size_t i = 0; i < cv->n_groups; i++) {
		const struct coverage_group *g = &cv->groups[i];
		json_t *j = tally_json(&g->t);
		json_object_set_new(j, "source", json_text(g->source));
		json_object_set_new(j, "overall_share_without_fraction",
				    number_or_null(g->share_without));
		json_array_append_new(a, j);
	}
	return a;
}

static json_t *left_out_json(const struct coverage *cv)
{
	json_t *j = json_object();
	json_object_set_new(j, "serving_rows", json_integer((json_int_t)cv->rows_serving));
	json_object_set_new(j, "rows_without_range", json_integer((json_int_t)cv->rows_no_range));
	json_object_set_new(j, "rows_not_predicted", json_integer((json_int_t)cv->rows_not_predicted));
	json_object_set_new(j, "rows_folded", json_integer((json_int_t)cv->rows_folded));
	return j;
}

json_t *coverage_json(const struct coverage *cv)
{
	json_t *j = json_object();
	json_object_set_new(j, "schema", json_string("gpuplan/backtest-coverage/v1"));
	json_object_set_new(j, "range_level_fraction", json_real(cv->level));
	json_object_set_new(j, "confidence_fraction", json_real(COVERAGE_CONFIDENCE));
	json_object_set_new(j, "gate_min_records",
			    json_integer(COVERAGE_GATE_MIN_RECORDS));
	json_object_set_new(j, "overall", tally_json(&cv->overall));
	json_object_set_new(j, "strata", strata_json(cv));
	json_object_set_new(j, "sources", sources_json(cv));
	json_t *loo = json_object();
	bool has = cv->loo_worst >= 0;
	const struct coverage_group *w = has ? &cv->groups[cv->loo_worst] : NULL;
	json_object_set_new(loo, "lowest_share_fraction",
			    has ? json_number(w->share_without) : json_null());
	json_object_set_new(loo, "without_source", has ? json_text(w->source)
						      : json_null());
	json_object_set_new(j, "leave_one_source_out", loo);
	json_object_set_new(j, "left_out", left_out_json(cv));
	json_t *obs = json_array();
	for (size_t i = 0; i < cv->n_obs; i++)
		json_array_append_new(obs, obs_json(cv, &cv->obs[i]));
	json_object_set_new(j, "observations", obs);
	return j;
}

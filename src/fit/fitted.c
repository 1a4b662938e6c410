/*
 * fitted.c - the fitted file's writer and strict loader; see fitted.h.
 */
#include "fitted.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/num_format.h"
#include "core/file_read.h"
#include "core/xalloc.h"
#include "core/utc_time.h"
#include "core/yaml_emit.h"
#include "core/yaml_read.h"
#include "fit/train_fitted.h"

/* ---- writing ---- */

static void emit_param(FILE *f, const char *name, const struct fit_param *p)
{
	fprintf(f, "      %s: {value: %s, se: %s, ci95: [%s, %s]",
		name, NUM_SHORTEST(p->value), NUM_SHORTEST(p->se), NUM_SHORTEST(p->lo), NUM_SHORTEST(p->hi));
	if (p->held)
		fprintf(f, ", held_at_zero: {free_value: %s, free_ci95: [%s, %s]}",
			NUM_SHORTEST(p->free_value), NUM_SHORTEST(p->free_lo), NUM_SHORTEST(p->free_hi));
	fputs("}\n", f);
}

static void emit_curve(const struct scaling_curve *c, FILE *f)
{
	const struct curve_form *form = curve_form(c->kind);
	fputs("  - name: ", f);
	yaml_emit_name(f, c->name, sizeof(c->name));
	fprintf(f, "\n    kind: %s\n    source: ", form->kind);
	yaml_emit_text(f, c->source);
	fputs("\n    device: ", f);
	yaml_emit_text(f, c->device);
	fprintf(f, "\n    measured: \"%s\"\n    parameters:\n", c->measured);
	for (int i = 0; i < FIT_PARAMS; i++)
		emit_param(f, form->param[i], &c->fit.p[i]);
	fprintf(f, "    covariance: [[%s, %s], [%s, %s]]\n",
		NUM_SHORTEST(c->fit.cov[0][0]), NUM_SHORTEST(c->fit.cov[0][1]), NUM_SHORTEST(c->fit.cov[1][0]),
		NUM_SHORTEST(c->fit.cov[1][1]));
	fprintf(f, "    r2: %s\n    rms_relative_residual: %s\n",
		NUM_SHORTEST(c->fit.r2), NUM_SHORTEST(c->fit.rms_rel));
	if (c->fit.loo >= 0)
		fprintf(f, "    leave_one_out_error: %s\n", NUM_SHORTEST(c->fit.loo));
	else
		fputs("    leave_one_out_error: null\n", f);
	fputs("    points: [", f);
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, "%s[%s, %s]", i ? ", " : "", NUM_SHORTEST(c->x[i]), NUM_SHORTEST(c->y[i]));
	fputs("]\n    relative_residuals: [", f);
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, "%s%s", i ? ", " : "", NUM_SHORTEST(fit_residual(&c->fit, c->x[i], c->y[i])));
	fprintf(f, "]\n    figures_left_out: %zu\n", c->left_out);
	if (c->left_out) {
		fputs("    left_out_because: ", f);
		yaml_emit_text(f, c->left_out_why);
		fputc('\n', f);
	}
}

static void emit_rate(const struct measured_rate *r, FILE *f)
{
	fputs("  - name: ", f);
	yaml_emit_name(f, r->name, sizeof(r->name));
	fputs("\n    source: ", f);
	yaml_emit_text(f, r->source);
	fputs("\n    device: ", f);
	yaml_emit_text(f, r->device);
	fprintf(f, "\n    measured: \"%s\"\n    unit: %s\n", r->measured, r->unit);
	fprintf(f, "    value: %s\n    ci95: [%s, %s]\n", NUM_SHORTEST(r->value),
		NUM_SHORTEST(r->low), NUM_SHORTEST(r->high));
}

static void emit_left(FILE *f, const char *name, size_t size,
		      const char *source, const char *why)
{
	fputs("  - {name: ", f);
	yaml_emit_name(f, name, size);
	fputs(", source: ", f);
	yaml_emit_text(f, source);
	fputs(", why: ", f);
	yaml_emit_text(f, why);
	fputs("}\n", f);
}

void fitted_emit(const struct curve_list *l, FILE *f)
{
	size_t fitted = 0, left = 0, rates = 0;
	for (size_t i = 0; i < l->n; i++)
		l->v[i].ok ? fitted++ : left++;
	for (size_t i = 0; i < l->n_rates; i++)
		l->rates[i].ok ? rates++ : left++;
	fprintf(f, "schema: %s\n", FITTED_SCHEMA);
	fputs(fitted ? "curves:\n" : "curves: []\n", f);
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].ok)
			emit_curve(&l->v[i], f);
	if (rates)
		fputs("rates:\n", f);
	for (size_t i = 0; i < l->n_rates; i++)
		if (l->rates[i].ok)
			emit_rate(&l->rates[i], f);
	train_fitted_emit(l, f);
	fputs(left ? "left_out:\n" : "left_out: []\n", f);
	for (size_t i = 0; i < l->n; i++)
		if (!l->v[i].ok)
			emit_left(f, l->v[i].name, sizeof(l->v[i].name),
				  l->v[i].source, l->v[i].why);
	for (size_t i = 0; i < l->n_rates; i++)
		if (!l->rates[i].ok)
			emit_left(f, l->rates[i].name, sizeof(l->rates[i].name),
				  l->rates[i].source, l->rates[i].why);
}

/* ---- reading ---- */

/* A plain finite number (any sign): 1, 0 absent, -1 wrong. */
static int node_real(struct yread *r, const struct ynode *n, const char *what,
		     double *out)
{
	return yr_node_real(r, n, what, out);
}

static int real(struct yread *r, const struct ynode *map, const char *key,
		double *out)
{
	return node_real(r, ymap_get(map, key), key, out);
}

static const struct yfield param_fields[] = {
	{"value", true}, {"se", true}, {"ci95", true}, {"held_at_zero", false},
	{NULL, false},
};

/* [low, high] at key of map into lo and hi; 0, or -1 (said). */
static int read_interval(struct yread *r, const struct ynode *map,
			 const char *key, double *lo, double *hi)
{
	const struct ynode *ci = ymap_get(map, key);
	if (!ci)
		return 0;	/* a missing required key is said by the key check */
	if (ci->kind != YNODE_SEQ || ci->n != 2) {
		char found[96];
		ynode_describe(ci, found, sizeof(found));
		yr_error(r, ci, NULL, "'%s' expects [low, high], found %s", key, found);
		return -1;
	}
	return node_real(r, ci->items[0], key, lo) < 0 ||
	       node_real(r, ci->items[1], key, hi) < 0 ? -1 : 0;
}

/* held_at_zero: {free_value, free_ci95} (lsq.h): the free fit's estimate,
 * below 0, and its interval */
static int read_held(struct yread *r, const struct ynode *n, const char *what,
		     struct fit_param *p)
{
	static const struct yfield fields[] = {
		{"free_value", true}, {"free_ci95", true}, {NULL, false}};
	const struct ynode *h = ymap_get(n, "held_at_zero");
	if (!h)
		return 0;
	if (!yr_expect_map(r, h, "'held_at_zero'") ||
	    yr_check_keys(r, h, "'held_at_zero'", fields) > 0 ||
	    real(r, h, "free_value", &p->free_value) < 0 ||
	    read_interval(r, h, "free_ci95", &p->free_lo, &p->free_hi) < 0)
		return -1;
	p->held = true;
	/* whether the points hold it is the refit's to say (check_quality) */
	if (!(p->free_value < 0 && p->free_lo <= p->free_value &&
	      p->free_value <= p->free_hi && p->value == 0 && p->se == 0)) {
		yr_error(r, h, NULL, "%s: held at zero expects value 0, se 0 and a free estimate below 0 within its interval, found value %g, se %g, free %g [%g, %g]",
			 what, p->value, p->se, p->free_value, p->free_lo,
			 p->free_hi);
		return -1;
	}
	return 0;
}

static int read_param(struct yread *r, const struct ynode *params,
		      const char *name, struct fit_param *p)
{
	const struct ynode *n = ymap_get(params, name);
	char what[96];
	snprintf(what, sizeof(what), "parameter '%s'", name);
	if (!n || !yr_expect_map(r, n, what))
		return -1;
	int bad = yr_check_keys(r, n, what, param_fields) > 0;
	bad |= real(r, n, "value", &p->value) < 0 || real(r, n, "se", &p->se) < 0;
	if (read_interval(r, n, "ci95", &p->lo, &p->hi) < 0)
		return -1;
	if (!bad && (p->se < 0 || !(p->lo <= p->value && p->value <= p->hi))) {
		yr_error(r, n, NULL, "%s: expected se >= 0 and low <= value <= high, found se %g, [%g, %g] around %g",
			 what, p->se, p->lo, p->hi, p->value);
		bad = 1;
	}
	if (!bad && read_held(r, n, what, p) < 0)
		bad = 1;
	return bad ? -1 : 0;
}

static int read_points(struct yread *r, const struct ynode *map,
		       struct scaling_curve *c)
{
	const struct ynode *n = ymap_get(map, "points");
	if (!n || !yr_expect_seq(r, n, "'points'"))
		return -1;
	c->x = xcalloc(n->n ? n->n : 1, sizeof(double));
	c->y = xcalloc(n->n ? n->n : 1, sizeof(double));
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *pt = n->items[i];
		if (pt->kind != YNODE_SEQ || pt->n != 2) {
			char found[96];
			ynode_describe(pt, found, sizeof(found));
			yr_error(r, pt, NULL, "a point expects [x, y], found %s", found);
			return -1;
		}
		if (node_real(r, pt->items[0], "points", &c->x[i]) < 0 ||
		    node_real(r, pt->items[1], "points", &c->y[i]) < 0)
			return -1;
		if (!(c->y[i] > 0)) {
			yr_error(r, pt->items[1], NULL, "a point's y expects a number > 0, found %g",
				 c->y[i]);
			return -1;
		}
		c->n++;
	}
	if (c->n < FIT_PARAMS + 1) {
		yr_error(r, n, NULL, "'points' holds %zu: a fitted curve has at least %d",
			 c->n, FIT_PARAMS + 1);
		return -1;
	}
	return 0;
}

/* The curve the file gives against its points: what a refit says, within
 * FITTED_SLACK of each parameter's standard error. */
#define FITTED_SLACK 1e-6

/* a and b the same to FITTED_SLACK of `scale` (and of themselves). */
static bool same(double a, double b, double scale)
{
	return fabs(a - b) <= FITTED_SLACK * (fabs(scale) + fabs(b)) + 1e-300;
}

/* Everything else the file says of the fit against the refit: each se and
 * interval, the covariance, R^2, the residual and leave-one-out errors. */
static void check_quality(struct yread *r, const struct ynode *map,
			  const struct scaling_curve *c, const struct fit *again)
{
	const struct curve_form *form = curve_form(c->kind);
	const struct ynode *params = ymap_get(map, "parameters");
	for (int i = 0; i < FIT_PARAMS; i++) {
		const struct fit_param *p = &c->fit.p[i], *q = &again->p[i];
		if (p->held != q->held) {
			yr_error(r, ymap_get(params, form->param[i]), NULL,
				 "%s is %sheld at zero, but the points %s it (their free estimate is %.17g)",
				 form->param[i], p->held ? "" : "not ",
				 q->held ? "hold" : "do not hold",
				 q->held ? q->free_value : q->value);
			return;
		}
		if (q->held && (!same(p->free_value, q->free_value, q->free_value) ||
				!same(p->free_lo, q->free_lo, q->free_value) ||
				!same(p->free_hi, q->free_hi, q->free_value))) {
			yr_error(r, ymap_get(params, form->param[i]), NULL,
				 "%s: the free estimate %.17g [%.17g, %.17g] is not what the points give (%.17g [%.17g, %.17g])",
				 form->param[i], p->free_value, p->free_lo, p->free_hi,
				 q->free_value, q->free_lo, q->free_hi);
			return;
		}
		double scale = fabs(q->value) + q->se;
		if (!same(p->se, q->se, q->se) || !same(p->lo, q->lo, scale) ||
		    !same(p->hi, q->hi, scale)) {
			yr_error(r, ymap_get(params, form->param[i]), NULL,
				 "%s: se %.17g and ci95 [%.17g, %.17g] are not what the points give (se %.17g, [%.17g, %.17g])",
				 form->param[i], p->se, p->lo, p->hi, q->se, q->lo, q->hi);
			return;
		}
	}
	double off = sqrt(fabs(again->cov[0][0] * again->cov[1][1]));
	if (!same(c->fit.cov[0][1], again->cov[0][1], off)) {
		yr_error(r, ymap_get(map, "covariance"), NULL,
			 "covariance %.17g between the parameters is not what the points give (%.17g)",
			 c->fit.cov[0][1], again->cov[0][1]);
		return;
	}
	const char *keys[] = {"r2", "rms_relative_residual", "leave_one_out_error"};
	const double got[] = {c->fit.r2, c->fit.rms_rel, c->fit.loo};
	const double want[] = {again->r2, again->rms_rel, again->loo};
	for (int i = 0; i < 3; i++)
		if (!same(got[i], want[i], 1)) {
			yr_error(r, ymap_get(map, keys[i]), NULL,
				 "%s %.17g is not what the points give (%.17g)",
				 keys[i], got[i], want[i]);
			return;
		}
}

static void check_against_points(struct yread *r, const struct ynode *map,
				 struct scaling_curve *c)
{
	const struct curve_form *form = curve_form(c->kind);
	struct fit again;
	char why[200];
	if (fit_curve(form->form, c->x, c->y, c->n, form->sign, form->param,
		      &again, why, sizeof(why)) < 0) {
		yr_error(r, ymap_get(map, "points"), NULL,
			 "the points do not give a curve: %s", why);
		return;
	}
	size_t before = gp_errors_count(r->errs);
	for (int i = 0; i < FIT_PARAMS; i++) {
		double d = fabs(again.p[i].value - c->fit.p[i].value);
		if (d > FITTED_SLACK * fabs(again.p[i].value) + 1e-300 &&
		    d > FITTED_SLACK * again.p[i].se)
			yr_error(r, ymap_get(ymap_get(map, "parameters"), form->param[i]), NULL,
				 "%s %.17g is not what the points give (%.17g)",
				 form->param[i], c->fit.p[i].value, again.p[i].value);
	}
	if (gp_errors_count(r->errs) == before)
		check_quality(r, map, c, &again);
}

/* The residuals the file gives against the curve and points it gives
 * (model / y - 1 at each point, to 1e-9). */
static void check_residuals(struct yread *r, const struct ynode *n,
			    const struct scaling_curve *c)
{
	if (!n || !yr_expect_seq(r, n, "'relative_residuals'"))
		return;
	if (n->n != c->n) {
		yr_error(r, n, NULL, "'relative_residuals' holds %zu: expected one per point, %zu",
			 n->n, c->n);
		return;
	}
	for (size_t i = 0; i < n->n; i++) {
		double v, want = fit_residual(&c->fit, c->x[i], c->y[i]);
		if (node_real(r, n->items[i], "relative_residuals", &v) == 1 &&
		    fabs(v - want) > 1e-9) {
			yr_error(r, n->items[i], NULL,
				 "relative residual %.17g is not what the curve and point %zu give (%.17g)",
				 v, i + 1, want);
			return;
		}
	}
}

/* [[a, b], [b, c]]: symmetric, its diagonal each parameter's se squared
 * (to 1e-9 of it). */
static void read_covariance(struct yread *r, const struct ynode *n,
			    struct scaling_curve *c)
{
	char found[96];
	if (!n)
		return;
	bool shape = n->kind == YNODE_SEQ && n->n == FIT_PARAMS;
	for (size_t i = 0; shape && i < FIT_PARAMS; i++)
		shape = n->items[i]->kind == YNODE_SEQ && n->items[i]->n == FIT_PARAMS;
	if (!shape) {
		ynode_describe(n, found, sizeof(found));
		yr_error(r, n, NULL, "'covariance' expects [[a, b], [b, c]], found %s", found);
		return;
	}
	for (int i = 0; i < FIT_PARAMS; i++)
		for (int j = 0; j < FIT_PARAMS; j++)
			if (node_real(r, n->items[i]->items[j], "covariance",
				      &c->fit.cov[i][j]) < 0)
				return;
	double off = fabs(c->fit.cov[0][1] - c->fit.cov[1][0]);
	bool bad = off > 1e-9 * fmax(fabs(c->fit.cov[0][1]), fabs(c->fit.cov[1][0]));
	for (int i = 0; i < FIT_PARAMS && !bad; i++) {
		double se2 = c->fit.p[i].se * c->fit.p[i].se;
		bad = fabs(c->fit.cov[i][i] - se2) > 1e-9 * se2 + 1e-300;
	}
	if (bad)
		yr_error(r, n, NULL, "'covariance' expects a symmetric matrix whose diagonal is each parameter's se squared");
}

static const struct yfield curve_fields[] = {
	{"name", true}, {"kind", true}, {"source", true}, {"device", true},
	{"measured", true}, {"parameters", true}, {"covariance", true}, {"r2", true},
	{"rms_relative_residual", true},
	{"leave_one_out_error", true}, {"points", true},
	{"relative_residuals", true},
	{"figures_left_out", true}, {"left_out_because", false}, {NULL, false},
};

static void copy_text(char *to, size_t size, char *from)
{
	snprintf(to, size, "%s", from ? from : "");
	free(from);
}

/* Where a curve or rate came from: its profile (source), device and the
 * profile's UTC time (measured), checked as such. */
static void read_origin(struct yread *r, const struct ynode *n, char *source,
			size_t source_len, char *device, size_t device_len,
			char *measured, size_t measured_len)
{
	char *s = NULL;
	if (yr_string(r, n, "source", &s) == 1)
		copy_text(source, source_len, s);
	s = NULL;
	if (yr_string(r, n, "device", &s) == 1)
		copy_text(device, device_len, s);
	s = NULL;
	if (yr_string(r, n, "measured", &s) == 1) {
		copy_text(measured, measured_len, s);
		if (!utc_time_valid(measured))
			yr_error(r, ymap_get(n, "measured"), NULL,
				 "'measured' expects the profile's UTC time YYYY-MM-DDTHH:MM:SSZ, found '%s'",
				 measured);
	}
}

static int read_curve(struct yread *r, const struct ynode *n, size_t index,
		      struct scaling_curve *c)
{
	char what[128];
	yr_entry_label(n, "curve", index, what, sizeof(what));
	if (!yr_expect_map(r, n, what))
		return -1;
	size_t before = gp_errors_count(r->errs);
	yr_check_keys(r, n, what, curve_fields);
	char *s = NULL;
	if (yr_name(r, n, "name", &s) == 1)
		copy_text(c->name, sizeof(c->name), s);
	s = NULL;
	int kind = -1;
	if (yr_name(r, n, "kind", &s) == 1) {
		kind = curve_kind_of(s);
		if (kind < 0) {
			char kinds[200] = "";
			for (int k = 0; k < CURVE_KINDS; k++) {
				size_t at = strlen(kinds);
				snprintf(kinds + at, sizeof(kinds) - at, "%s%s",
					 k ? (k + 1 < CURVE_KINDS ? ", " : " or ") : "",
					 curve_form((enum curve_kind)k)->kind);
			}
			yr_error(r, ymap_get(n, "kind"), NULL,
				 "unknown kind '%s': expected %s", s, kinds);
		}
		free(s);
	}
	read_origin(r, n, c->source, sizeof(c->source), c->device,
		    sizeof(c->device), c->measured, sizeof(c->measured));
	if (kind < 0)
		return -1;
	c->kind = (enum curve_kind)kind;
	const struct curve_form *form = curve_form(c->kind);
	c->fit.form = form->form;
	const struct ynode *params = ymap_get(n, "parameters");
	if (params && yr_expect_map(r, params, "'parameters'")) {
		struct yfield fields[FIT_PARAMS + 1];
		for (int i = 0; i < FIT_PARAMS; i++)
			fields[i] = (struct yfield){form->param[i], true};
		fields[FIT_PARAMS] = (struct yfield){NULL, false};
		yr_check_keys(r, params, "'parameters'", fields);
		for (int i = 0; i < FIT_PARAMS; i++)
			read_param(r, params, form->param[i], &c->fit.p[i]);
	}
	read_covariance(r, ymap_get(n, "covariance"), c);
	real(r, n, "r2", &c->fit.r2);
	real(r, n, "rms_relative_residual", &c->fit.rms_rel);
	const struct ynode *loo = ymap_get(n, "leave_one_out_error");
	c->fit.loo = -1;
	if (loo && !(loo->kind == YNODE_SCALAR && !loo->quoted &&
		     !strcmp(loo->text, "null")))
		node_real(r, loo, "leave_one_out_error", &c->fit.loo);
	long left = 0;
	if (yr_int(r, n, "figures_left_out", 0, 1000000, &left) == 1)
		c->left_out = (size_t)left;
	s = NULL;
	if (yr_string(r, n, "left_out_because", &s) == 1)
		copy_text(c->left_out_why, sizeof(c->left_out_why), s);
	int pts = read_points(r, n, c);
	c->fit.n = c->n;
	if (pts == 0 && gp_errors_count(r->errs) == before)
		check_against_points(r, n, c);
	if (pts == 0 && gp_errors_count(r->errs) == before)
		check_residuals(r, ymap_get(n, "relative_residuals"), c);
	c->ok = gp_errors_count(r->errs) == before;
	return c->ok ? 0 : -1;
}

static const struct yfield left_fields[] = {
	{"name", true}, {"source", true}, {"why", true}, {NULL, false},
};

static void read_left(struct yread *r, const struct ynode *n, size_t index,
		      struct scaling_curve *c)
{
	char what[128];
	yr_entry_label(n, "left-out series", index, what, sizeof(what));
	if (!yr_expect_map(r, n, what))
		return;
	yr_check_keys(r, n, what, left_fields);
	char *s = NULL;
	if (yr_name(r, n, "name", &s) == 1)
		copy_text(c->name, sizeof(c->name), s);
	s = NULL;
	if (yr_string(r, n, "source", &s) == 1)
		copy_text(c->source, sizeof(c->source), s);
	s = NULL;
	if (yr_string(r, n, "why", &s) == 1)
		copy_text(c->why, sizeof(c->why), s);
}

static const struct yfield rate_fields[] = {
	{"name", true}, {"source", true}, {"device", true}, {"measured", true},
	{"unit", true}, {"value", true}, {"ci95", true}, {NULL, false},
};

/* A measured rate (curves.h): its unit the launch suite's, its value above
 * 0 and inside its interval. */
static void read_rate(struct yread *r, const struct ynode *n, size_t index,
		      struct measured_rate *m)
{
	char what[128];
	yr_entry_label(n, "rate", index, what, sizeof(what));
	if (!yr_expect_map(r, n, what))
		return;
	size_t before = gp_errors_count(r->errs);
	yr_check_keys(r, n, what, rate_fields);
	char *s = NULL;
	if (yr_name(r, n, "name", &s) == 1)
		copy_text(m->name, sizeof(m->name), s);
	read_origin(r, n, m->source, sizeof(m->source), m->device,
		    sizeof(m->device), m->measured, sizeof(m->measured));
	s = NULL;
	if (yr_string(r, n, "unit", &s) == 1)
		copy_text(m->unit, sizeof(m->unit), s);
	if (m->unit[0] && strcmp(m->unit, "launch/s"))
		yr_error(r, ymap_get(n, "unit"), NULL,
			 "unknown unit '%s': a rate is the launch suite's, launch/s",
			 m->unit);
	if (real(r, n, "value", &m->value) == 1 &&
	    read_interval(r, n, "ci95", &m->low, &m->high) == 0 &&
	    !(m->value > 0 && m->low <= m->value && m->value <= m->high))
		yr_error(r, n, NULL, "%s: expected a value above 0 within [low, high], found %g [%g, %g]",
			 what, m->value, m->low, m->high);
	m->ok = gp_errors_count(r->errs) == before;
}

static const struct yfield file_fields[] = {
	{"schema", true}, {"curves", true}, {"rates", false}, {"training", false},
	{"left_out", true}, {NULL, false},
};

int fitted_load(struct curve_list *out, const char *path, const char *shown,
		struct gp_errors *errs)
{
	memset(out, 0, sizeof(*out));
	size_t before = gp_errors_count(errs);
	struct ytree t;
	shown = file_shown(shown);	/* "<stdin>" for "-" */
	if (ytree_load(&t, path, shown, errs) == 0) {
		struct yread r = {shown, errs};
		if (yr_check_schema(&r, t.root, FITTED_SCHEMA, "fitted file") == 0) {
			yr_check_keys(&r, t.root, "a fitted file", file_fields);
			const struct ynode *curves = ymap_get(t.root, "curves");
			if (curves && yr_expect_seq(&r, curves, "'curves'"))
				for (size_t i = 0; i < curves->n; i++)
					read_curve(&r, curves->items[i], i,
						   curve_list_add(out));
			const struct ynode *rates = ymap_get(t.root, "rates");
			if (rates && yr_expect_seq(&r, rates, "'rates'"))
				for (size_t i = 0; i < rates->n; i++)
					read_rate(&r, rates->items[i], i,
						  curve_list_add_rate(out));
			train_fitted_read(&r, t.root, out);
			const struct ynode *left = ymap_get(t.root, "left_out");
			if (left && yr_expect_seq(&r, left, "'left_out'"))
				for (size_t i = 0; i < left->n; i++)
					read_left(&r, left->items[i], i,
						  curve_list_add(out));
		}
	}
	ytree_free(&t);
	return gp_errors_count(errs) > before ? -1 : 0;
}

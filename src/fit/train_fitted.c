/*
 * train_fitted.c - the training terms in the fitted file; see
 * train_fitted.h.
 */
#include "fit/train_fitted.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/num_format.h"
#include "core/utc_time.h"
#include "core/yaml_emit.h"
#include "profile/samples.h"

/* A derived value against what the points give: to this relative slack. */
#define DERIVED_SLACK 1e-9

/* ---- writing ---- */

static void emit_ci(FILE *f, const char *key, double lo, double hi)
{
	fprintf(f, "%s: [%s, %s]", key, NUM_SHORTEST(lo), NUM_SHORTEST(hi));
}

static void emit_matmul(const struct train_matmul *m, FILE *f)
{
	char names[160];
	fprintf(f, "    matmul:\n      precision: %s\n      points:\n", m->precision);
	for (size_t i = 0; i < m->n; i++) {
		const struct train_point *p = &m->v[i];
		fprintf(f, "        - {role: %s, m: %ld, n: %ld, k: %ld, occurrences: %ld, rate: %s, ",
			p->role, p->m, p->n, p->k, p->occurrences, NUM_SHORTEST(p->rate));
		emit_ci(f, "ci95", p->low, p->high);
		fprintf(f, ", sm_clock_median_hz: %s}\n", NUM_SHORTEST(p->clock_hz));
	}
	gpu_throttle_names(m->throttle, names, sizeof(names));
	fputs("      throttle: ", f);
	yaml_emit_text(f, names[0] ? names : "none");
	fprintf(f, "\n      rate: %s\n      ", NUM_SHORTEST(m->rate));
	emit_ci(f, "ci95", m->low, m->high);
	fputc('\n', f);
}

static void emit_overlap(const struct train_overlap *o, FILE *f)
{
	fputs("    overlap:\n      beside: ", f);
	yaml_emit_text(f, o->beside);
	fprintf(f, "\n      alone: %s\n      ", NUM_SHORTEST(o->alone));
	emit_ci(f, "alone_ci95", o->alone_low, o->alone_high);
	fprintf(f, "\n      with: %s\n      ", NUM_SHORTEST(o->with));
	emit_ci(f, "with_ci95", o->with_low, o->with_high);
	fprintf(f, "\n      slowdown: %s\n      ", NUM_SHORTEST(o->slowdown));
	emit_ci(f, "ci95", o->low, o->high);
	fputc('\n', f);
}

static void emit_spread(const struct train_spread *s, FILE *f)
{
	fputs("    spread:\n      gpus: [", f);
	for (int i = 0; i < s->n; i++)
		fprintf(f, "%s%d", i ? ", " : "", s->gpu[i]);
	fputs("]\n      rates: [", f);
	for (int i = 0; i < s->n; i++)
		fprintf(f, "%s%s", i ? ", " : "", NUM_SHORTEST(s->rate[i]));
	fprintf(f, "]\n      mean: %s\n      cv: %s\n      ", NUM_SHORTEST(s->mean),
		NUM_SHORTEST(s->cv));
	emit_ci(f, "ci95", s->low, s->high);
	fprintf(f, "\n      slowest_gpu: %d\n", s->slowest);
}

static void emit_layer(const struct train_layer *y, FILE *f)
{
	fprintf(f, "    layer:\n      precision: %s\n      batch: %ld\n      seq: %ld\n"
		   "      seconds: %s\n      ",
		y->precision, y->batch, y->seq, NUM_SHORTEST(y->seconds));
	emit_ci(f, "ci95", y->low, y->high);
	fputc('\n', f);
}

static void emit_not_given(FILE *f, const char *term, const char *why,
			   bool *first)
{
	if (*first)
		fputs("    not_given:\n", f);
	*first = false;
	fprintf(f, "      - {term: %s, why: ", term);
	yaml_emit_text(f, why);
	fputs("}\n", f);
}

static void emit_terms(const struct train_terms *t, FILE *f)
{
	fputs("  - source: ", f);
	yaml_emit_text(f, t->source);
	fputs("\n    device: ", f);
	yaml_emit_text(f, t->device);
	fprintf(f, "\n    measured: \"%s\"\n    model: ", t->measured);
	yaml_emit_text(f, t->model);
	fprintf(f, "\n    micro_batch: %ld\n    tp: %ld\n    sustain_s: %s\n",
		t->micro_batch, t->tp, NUM_SHORTEST(t->sustain_s));
	if (t->matmul.ok)
		emit_matmul(&t->matmul, f);
	if (t->overlap.ok)
		emit_overlap(&t->overlap, f);
	if (t->spread.ok)
		emit_spread(&t->spread, f);
	if (t->layer.ok)
		emit_layer(&t->layer, f);
	bool first = true;
	const struct { bool ok; const char *term, *why; } terms[] = {
		{t->matmul.ok, "matmul", t->matmul.why},
		{t->overlap.ok, "overlap", t->overlap.why},
		{t->spread.ok, "spread", t->spread.why},
		{t->layer.ok, "layer", t->layer.why}};
	for (size_t i = 0; i < 4; i++)
		if (!terms[i].ok)
			emit_not_given(f, terms[i].term, terms[i].why, &first);
}

void train_fitted_emit(const struct curve_list *l, FILE *f)
{
	if (!l->n_train)
		return;
	fputs("training:\n", f);
	for (size_t i = 0; i < l->n_train; i++)
		emit_terms(&l->train[i], f);
}

/* ---- reading ---- */

static int real(struct yread *r, const struct ynode *map, const char *key,
		double *out)
{
	return yr_node_real(r, ymap_get(map, key), key, out);
}

/* [low, high] around value (low <= value <= high); -1 said. */
static int interval(struct yread *r, const struct ynode *map, const char *key,
		    double value, double *lo, double *hi)
{
	const struct ynode *ci = ymap_get(map, key);
	if (!ci)
		return -1;	/* a missing key is said by the key check */
	if (ci->kind != YNODE_SEQ || ci->n != 2) {
		yr_error(r, ci, NULL, "'%s' expects [low, high]", key);
		return -1;
	}
	if (yr_node_real(r, ci->items[0], key, lo) < 0 ||
	    yr_node_real(r, ci->items[1], key, hi) < 0)
		return -1;
	if (!(*lo <= value && value <= *hi)) {
		yr_error(r, ci, NULL, "'%s' [%g, %g] does not hold its value %g",
			 key, *lo, *hi, value);
		return -1;
	}
	return 0;
}

/* A derived value that is not what the points give is refused. */
static void check_derived(struct yread *r, const struct ynode *map,
			  const char *key, double got, double want)
{
	if (fabs(got - want) > DERIVED_SLACK * fmax(fabs(want), 1e-300))
		yr_error(r, ymap_get(map, key), NULL,
			 "%s %.17g is not what the points give (%.17g)", key, got,
			 want);
}

static void copy_text(struct yread *r, const struct ynode *map,
		      const char *key, char *to, size_t size)
{
	char *s = NULL;
	if (yr_string(r, map, key, &s) == 1)
		snprintf(to, size, "%s", s);
	free(s);
}

static void read_point(struct yread *r, const struct ynode *n,
		       struct train_point *p)
{
	static const struct yfield fields[] = {
		{"role", true}, {"m", true}, {"n", true}, {"k", true},
		{"occurrences", true}, {"rate", true}, {"ci95", true},
		{"sm_clock_median_hz", true}, {NULL, false}};
	static const char *const roles[] = {"forward", "dgrad", "wgrad", NULL};
	if (!yr_expect_map(r, n, "a matmul point"))
		return;
	yr_check_keys(r, n, "a matmul point", fields);
	copy_text(r, n, "role", p->role, sizeof(p->role));
	bool known = false;
	for (const char *const *x = roles; *x; x++)
		known |= !strcmp(*x, p->role);
	if (!known)
		yr_error(r, ymap_get(n, "role"), NULL,
			 "unknown role '%s': expected forward, dgrad or wgrad", p->role);
	yr_int(r, n, "m", 1, 1L << 40, &p->m);
	yr_int(r, n, "n", 1, 1L << 40, &p->n);
	yr_int(r, n, "k", 1, 1L << 40, &p->k);
	yr_int(r, n, "occurrences", 1, 1L << 40, &p->occurrences);
	if (real(r, n, "rate", &p->rate) == 1 && !(p->rate > 0))
		yr_error(r, ymap_get(n, "rate"), NULL, "'rate' expects a number > 0");
	interval(r, n, "ci95", p->rate, &p->low, &p->high);
	if (!(p->low > 0))
		yr_error(r, ymap_get(n, "ci95"), NULL, "'ci95' expects rates > 0");
	real(r, n, "sm_clock_median_hz", &p->clock_hz);
}

static void read_matmul(struct yread *r, const struct ynode *n,
			struct train_matmul *m)
{
	static const struct yfield fields[] = {
		{"precision", true}, {"points", true}, {"throttle", true},
		{"rate", true}, {"ci95", true}, {NULL, false}};
	if (!yr_expect_map(r, n, "'matmul'"))
		return;
	size_t before = gp_errors_count(r->errs);
	yr_check_keys(r, n, "'matmul'", fields);
	copy_text(r, n, "precision", m->precision, sizeof(m->precision));
	const struct ynode *pts = ymap_get(n, "points");
	if (pts && yr_expect_seq(r, pts, "'points'")) {
		if (pts->n == 0 || pts->n > TRAIN_TERMS_MAX_POINTS)
			yr_error(r, pts, NULL, "'points' holds %zu: expected 1 to %d",
				 pts->n, TRAIN_TERMS_MAX_POINTS);
		for (size_t i = 0; i < pts->n && i < TRAIN_TERMS_MAX_POINTS; i++)
			read_point(r, pts->items[i], &m->v[m->n++]);
	}
	double rate = 0, lo = 0, hi = 0;
	if (real(r, n, "rate", &rate) == 1)
		interval(r, n, "ci95", rate, &lo, &hi);
	if (gp_errors_count(r->errs) != before)
		return;
	train_matmul_derive(m);
	check_derived(r, n, "rate", rate, m->rate);
	check_derived(r, n, "ci95", lo, m->low);
	check_derived(r, n, "ci95", hi, m->high);
	m->ok = gp_errors_count(r->errs) == before;
}

static void read_overlap(struct yread *r, const struct ynode *n,
			 struct train_overlap *o)
{
	static const struct yfield fields[] = {
		{"beside", true}, {"alone", true}, {"alone_ci95", true},
		{"with", true}, {"with_ci95", true}, {"slowdown", true},
		{"ci95", true}, {NULL, false}};
	if (!yr_expect_map(r, n, "'overlap'"))
		return;
	size_t before = gp_errors_count(r->errs);
	yr_check_keys(r, n, "'overlap'", fields);
	copy_text(r, n, "beside", o->beside, sizeof(o->beside));
	double s = 0, lo = 0, hi = 0;
	if (real(r, n, "alone", &o->alone) == 1)
		interval(r, n, "alone_ci95", o->alone, &o->alone_low, &o->alone_high);
	if (real(r, n, "with", &o->with) == 1)
		interval(r, n, "with_ci95", o->with, &o->with_low, &o->with_high);
	if (!(o->alone_low > 0 && o->with_low > 0))
		yr_error(r, n, NULL, "'overlap' expects rates > 0");
	if (real(r, n, "slowdown", &s) == 1)
		interval(r, n, "ci95", s, &lo, &hi);
	if (gp_errors_count(r->errs) != before)
		return;
	train_overlap_derive(o);
	check_derived(r, n, "slowdown", s, o->slowdown);
	check_derived(r, n, "ci95", lo, o->low);
	check_derived(r, n, "ci95", hi, o->high);
	o->ok = gp_errors_count(r->errs) == before;
}

/* `key`: a list of at most TRAIN_TERMS_MAX_GPUS numbers, one per GPU. */
static int read_list(struct yread *r, const struct ynode *n, const char *key,
		     double *v)
{
	const struct ynode *s = ymap_get(n, key);
	if (!s || !yr_expect_seq(r, s, key))
		return -1;
	if (s->n < 2 || s->n > TRAIN_TERMS_MAX_GPUS) {
		yr_error(r, s, NULL, "'%s' holds %zu: expected 2 to %d GPUs", key,
			 s->n, TRAIN_TERMS_MAX_GPUS);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++)
		if (yr_node_real(r, s->items[i], key, &v[i]) < 0)
			return -1;
	return (int)s->n;
}

static void read_spread(struct yread *r, const struct ynode *n,
			struct train_spread *s)
{
	static const struct yfield fields[] = {
		{"gpus", true}, {"rates", true}, {"mean", true}, {"cv", true},
		{"ci95", true}, {"slowest_gpu", true}, {NULL, false}};
	if (!yr_expect_map(r, n, "'spread'"))
		return;
	size_t before = gp_errors_count(r->errs);
	yr_check_keys(r, n, "'spread'", fields);
	double gpus[TRAIN_TERMS_MAX_GPUS];
	int ng = read_list(r, n, "gpus", gpus), nr = read_list(r, n, "rates", s->rate);
	if (ng > 0 && nr > 0 && ng != nr)
		yr_error(r, ymap_get(n, "rates"), NULL,
			 "'rates' holds %d, 'gpus' %d: one rate per GPU", nr, ng);
	for (int i = 0; ng > 0 && i < ng; i++) {
		s->gpu[i] = (int)gpus[i];
		if (gpus[i] != (double)s->gpu[i] || gpus[i] < 0 || !(s->rate[i] > 0))
			yr_error(r, ymap_get(n, "gpus"), NULL,
				 "GPU %d: expected a GPU number and a rate > 0", i);
	}
	double mean = 0, cv = 0, lo = 0, hi = 0;
	long slowest = -1;
	real(r, n, "mean", &mean);
	if (real(r, n, "cv", &cv) == 1)
		interval(r, n, "ci95", cv, &lo, &hi);
	yr_int(r, n, "slowest_gpu", 0, 1 << 16, &slowest);
	if (gp_errors_count(r->errs) != before)
		return;
	s->n = ng;
	train_spread_derive(s);
	check_derived(r, n, "mean", mean, s->mean);
	check_derived(r, n, "cv", cv, s->cv);
	check_derived(r, n, "ci95", lo, s->low);
	check_derived(r, n, "ci95", hi, s->high);
	if (slowest != s->slowest)
		yr_error(r, ymap_get(n, "slowest_gpu"), NULL,
			 "slowest_gpu %ld is not the GPU of the lowest rate (%d)",
			 slowest, s->slowest);
	s->ok = gp_errors_count(r->errs) == before;
}

static void read_layer(struct yread *r, const struct ynode *n,
		       struct train_layer *y)
{
	static const struct yfield fields[] = {
		{"precision", true}, {"batch", true}, {"seq", true},
		{"seconds", true}, {"ci95", true}, {NULL, false}};
	if (!yr_expect_map(r, n, "'layer'"))
		return;
	size_t before = gp_errors_count(r->errs);
	yr_check_keys(r, n, "'layer'", fields);
	copy_text(r, n, "precision", y->precision, sizeof(y->precision));
	yr_int(r, n, "batch", 1, 1L << 24, &y->batch);
	yr_int(r, n, "seq", 0, 1L << 24, &y->seq);
	if (real(r, n, "seconds", &y->seconds) == 1) {
		if (!(y->seconds > 0))
			yr_error(r, ymap_get(n, "seconds"), NULL, "'seconds' expects a number > 0");
		interval(r, n, "ci95", y->seconds, &y->low, &y->high);
	}
	y->ok = gp_errors_count(r->errs) == before;
}

/* not_given: [{term, why}], each a term not given above. */
static void read_not_given(struct yread *r, const struct ynode *n,
			   struct train_terms *t)
{
	static const struct yfield fields[] = {{"term", true}, {"why", true}, {NULL, false}};
	const struct ynode *s = ymap_get(n, "not_given");
	if (!s || !yr_expect_seq(r, s, "'not_given'"))
		return;
	for (size_t i = 0; i < s->n; i++) {
		const struct ynode *x = s->items[i];
		char term[16] = "";
		if (!yr_expect_map(r, x, "a term not given"))
			continue;
		yr_check_keys(r, x, "a term not given", fields);
		copy_text(r, x, "term", term, sizeof(term));
		char *why = !strcmp(term, "matmul") ? t->matmul.why
			    : !strcmp(term, "overlap") ? t->overlap.why
			    : !strcmp(term, "spread") ? t->spread.why
			    : !strcmp(term, "layer") ? t->layer.why : NULL;
		if (!why)
			yr_error(r, ymap_get(x, "term"), NULL,
				 "unknown term '%s': expected matmul, overlap, spread or layer", term);
		else
			copy_text(r, x, "why", why, sizeof(t->matmul.why));
	}
}

static void read_terms(struct yread *r, const struct ynode *n, size_t index,
		       struct train_terms *t)
{
	static const struct yfield fields[] = {
		{"source", true}, {"device", true}, {"measured", true},
		{"model", true}, {"micro_batch", true}, {"tp", true},
		{"sustain_s", true}, {"matmul", false}, {"overlap", false},
		{"spread", false}, {"layer", false}, {"not_given", false},
		{NULL, false}};
	char what[96];
	snprintf(what, sizeof(what), "training terms #%zu", index);
	if (!yr_expect_map(r, n, what))
		return;
	yr_check_keys(r, n, what, fields);
	copy_text(r, n, "source", t->source, sizeof(t->source));
	copy_text(r, n, "device", t->device, sizeof(t->device));
	copy_text(r, n, "measured", t->measured, sizeof(t->measured));
	if (ymap_get(n, "measured") && !utc_time_valid(t->measured))
		yr_error(r, ymap_get(n, "measured"), NULL,
			 "'measured' expects the profile's UTC time YYYY-MM-DDTHH:MM:SSZ, found '%s'",
			 t->measured);
	copy_text(r, n, "model", t->model, sizeof(t->model));
	yr_int(r, n, "micro_batch", 1, 1L << 24, &t->micro_batch);
	yr_int(r, n, "tp", 1, 1 << 16, &t->tp);
	if (real(r, n, "sustain_s", &t->sustain_s) == 1 && !(t->sustain_s > 0))
		yr_error(r, ymap_get(n, "sustain_s"), NULL, "'sustain_s' expects a number > 0");
	if (ymap_get(n, "matmul"))
		read_matmul(r, ymap_get(n, "matmul"), &t->matmul);
	if (ymap_get(n, "overlap"))
		read_overlap(r, ymap_get(n, "overlap"), &t->overlap);
	if (ymap_get(n, "spread"))
		read_spread(r, ymap_get(n, "spread"), &t->spread);
	if (ymap_get(n, "layer"))
		read_layer(r, ymap_get(n, "layer"), &t->layer);
	read_not_given(r, n, t);
}

void train_fitted_read(struct yread *r, const struct ynode *root,
		       struct curve_list *out)
{
	const struct ynode *s = ymap_get(root, "training");
	if (!s || !yr_expect_seq(r, s, "'training'"))
		return;
	for (size_t i = 0; i < s->n; i++)
		read_terms(r, s->items[i], i, curve_list_add_train(out));
}

/*
 * baseline.c - reference baselines: the strict loader and the verdicts;
 * see baseline.h.
 */
#include "profile/baseline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/file_read.h"
#include "core/precision.h"
#include "core/suggest.h"
#include "core/xalloc.h"
#include "core/yaml_read.h"

static const char *const figure_keys[BASE_FIGURES] = {
	"hbm_bandwidth", "gemm", "host_to_device",
};

const char *baseline_figure_key(enum baseline_figure f)
{
	return figure_keys[f];
}

void baseline_figure_words(enum baseline_figure f, int precision, char *buf,
			   size_t len)
{
	if (f == BASE_GEMM)
		snprintf(buf, len, "%s GEMM", precision_name(precision));
	else
		snprintf(buf, len, "%s", f == BASE_HBM ? "HBM bandwidth"
						      : "host-to-device (pinned)");
}

/* ---- the loader ---- */

static const struct yfield entry_fields[] = {
	{"accelerator", true}, {"figure", true}, {"precision", false},
	{"healthy", true}, {"measured", true}, {"note", false},
	{"source", true}, {NULL, false},
};
static const struct yfield range_fields[] = {
	{"low", true}, {"high", true}, {NULL, false},
};
static const struct yfield measured_fields[] = {
	{"value", true}, {"what", true}, {NULL, false},
};

static struct origin origin_of(const struct baselines *b, const struct ynode *n)
{
	return (struct origin){b->file, n->line, n->col};
}

/* figure: and, for gemm only, precision:. */
static int read_figure(struct yread *r, const struct ynode *n,
		       struct baseline_entry *e)
{
	const struct ynode *f = ymap_get(n, "figure");
	const struct ynode *p = ymap_get(n, "precision");
	int bad = 0;
	e->figure = BASE_FIGURES;
	e->precision = -1;
	if (f && f->kind == YNODE_SCALAR)
		for (int i = 0; i < BASE_FIGURES; i++)
			if (!strcmp(f->text, figure_keys[i]))
				e->figure = (enum baseline_figure)i;
	if (f && e->figure == BASE_FIGURES) {
		char found[80];
		ynode_describe(f, found, sizeof(found));
		yr_error(r, f, NULL, "expected 'figure' hbm_bandwidth, gemm or host_to_device, found %s",
			 found);
		return -1;
	}
	if (p && e->figure != BASE_GEMM) {
		yr_error(r, p, NULL, "'precision' applies to figure gemm only");
		return -1;
	}
	if (p) {
		e->precision = p->kind == YNODE_SCALAR ? precision_from_name(p->text) : -1;
		if (e->precision < 0) {
			char found[80];
			ynode_describe(p, found, sizeof(found));
			yr_error(r, p, NULL, "expected a precision like bf16 or fp8, found %s",
				 found);
			bad = 1;
		}
	} else if (e->figure == BASE_GEMM) {
		yr_error(r, n, NULL, "a gemm baseline needs 'precision'");
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* healthy: {low, high}, 0 < low <= high. */
static int read_range(struct yread *r, const struct ynode *n,
		      struct baseline_entry *e)
{
	const struct ynode *h = ymap_get(n, "healthy");
	if (!h)
		return 0;
	if (!yr_expect_map(r, h, "'healthy'"))
		return -1;
	int bad = yr_check_keys(r, h, "'healthy'", range_fields);
	bad |= yr_number_in(r, h, "low", Q_EFFICIENCY, &e->low) < 0;
	bad |= yr_number_in(r, h, "high", Q_EFFICIENCY, &e->high) < 0;
	if (!bad && e->low > e->high) {
		yr_error(r, h, NULL, "'healthy' low %g is above its high %g", e->low,
			 e->high);
		bad = 1;
	}
	return bad ? -1 : 0;
}

static int read_measurement(struct yread *r, const struct baselines *b,
			    const struct ynode *n, enum baseline_figure f,
			    struct baseline_measurement *m)
{
	if (!yr_expect_map(r, n, "a 'measured' item"))
		return -1;
	m->at = origin_of(b, n);
	int bad = yr_check_keys(r, n, "a 'measured' item", measured_fields);
	bad |= yr_quantity_in(r, n, "value", f == BASE_GEMM ? Q_PEAK : Q_BANDWIDTH,
			      &m->value, NULL) < 0;
	bad |= yr_string(r, n, "what", &m->what) < 0;
	return bad ? -1 : 0;
}

static int read_measured(struct yread *r, const struct baselines *b,
			 const struct ynode *n, struct baseline_entry *e)
{
	const struct ynode *m = ymap_get(n, "measured");
	if (!m || e->figure == BASE_FIGURES)
		return 0;
	if (!yr_expect_seq(r, m, "'measured'"))
		return -1;
	if (m->n == 0) {
		yr_error(r, m, NULL, "'measured' lists no measurement");
		return -1;
	}
	e->measured = xcalloc(m->n, sizeof(*e->measured));
	int bad = 0;
	for (size_t i = 0; i < m->n; i++, e->n_measured++)
		bad |= read_measurement(r, b, m->items[i], e->figure,
					&e->measured[i]) < 0;
	return bad ? -1 : 0;
}

static int read_entry(struct yread *r, const struct baselines *b,
		      const struct ynode *n, size_t index,
		      struct baseline_entry *e)
{
	e->precision = -1;
	if (!yr_expect_map(r, n, "a baseline"))
		return -1;
	e->at = origin_of(b, n);
	char what[300];
	snprintf(what, sizeof(what), "baseline #%zu", index + 1);
	int bad = yr_check_keys(r, n, what, entry_fields);
	bad |= yr_name(r, n, "accelerator", &e->accelerator) < 0;
	bad |= read_figure(r, n, e) < 0;
	bad |= read_range(r, n, e) < 0;
	bad |= read_measured(r, b, n, e) < 0;
	bad |= yr_string(r, n, "note", &e->note) < 0;
	bad |= read_sources(r, n, what, &e->sources) < 0;
	return bad ? -1 : 0;
}

/* The same accelerator, figure and precision twice would make the
 * verdict depend on the order of the file. */
static int check_duplicates(struct yread *r, const struct baselines *b,
			    const struct ynode *list)
{
	int bad = 0;
	for (size_t i = 0; i < b->n; i++)
		for (size_t j = 0; j < i; j++) {
			const struct baseline_entry *x = &b->v[i], *y = &b->v[j];
			/* an entry without a known figure is already
			 * refused; it is no one's duplicate */
			if (x->figure == BASE_FIGURES)
				break;
			if (x->accelerator && y->accelerator &&
			    !strcmp(x->accelerator, y->accelerator) &&
			    x->figure == y->figure && x->precision == y->precision) {
				yr_error(r, list->items[i], NULL,
					 "a second %s baseline for '%s' (the first is at line %d)",
					 figure_keys[x->figure], x->accelerator, y->at.line);
				bad = 1;
				break;
			}
		}
	return bad;
}

static int read_file(struct baselines *b, const struct ytree *t,
		     struct gp_errors *errs)
{
	struct yread r = {b->file, errs};
	if (yr_check_schema(&r, t->root, BASELINES_SCHEMA, "baselines file") < 0)
		return -1;
	static const struct yfield top[] = {
		{"schema", true}, {"baselines", true}, {NULL, false},
	};
	int bad = yr_check_keys(&r, t->root, "the baselines file", top);
	const struct ynode *list = ymap_get(t->root, "baselines");
	if (!list || !yr_expect_seq(&r, list, "'baselines'"))
		return -1;
	b->v = xcalloc(list->n + 1, sizeof(*b->v));
	for (size_t i = 0; i < list->n; i++, b->n++)
		bad |= read_entry(&r, b, list->items[i], i, &b->v[i]) < 0;
	bad |= check_duplicates(&r, b, list);
	return bad ? -1 : 0;
}

static int finish(struct baselines *b, struct ytree *t, int rc,
		  struct gp_errors *errs)
{
	if (rc == 0)
		rc = read_file(b, t, errs);
	ytree_free(t);
	return rc;
}

int baselines_load(struct baselines *b, const char *path, const char *shown,
		   struct gp_errors *errs)
{
	struct ytree t;
	memset(b, 0, sizeof(*b));
	shown = file_shown(shown);	/* "<stdin>" for "-" */
	b->file = xstrdup(shown);
	return finish(b, &t, ytree_load(&t, path, shown, errs), errs);
}

int baselines_parse(struct baselines *b, const char *name, const char *buf,
		    size_t len, struct gp_errors *errs)
{
	struct ytree t;
	memset(b, 0, sizeof(*b));
	b->file = xstrdup(name);
	return finish(b, &t, ytree_parse(&t, name, buf, len, errs), errs);
}

int baselines_load_shipped(struct baselines *b, const char *data_dir,
			   struct gp_errors *errs)
{
	char *path = xasprintf("%s/catalogs/baselines/accelerators.yaml", data_dir);
	int rc = baselines_load(b, path, "catalogs/baselines/accelerators.yaml", errs);
	free(path);
	return rc;
}

void baselines_free(struct baselines *b)
{
	for (size_t i = 0; i < b->n; i++) {
		struct baseline_entry *e = &b->v[i];
		for (size_t k = 0; k < e->n_measured; k++)
			free(e->measured[k].what);
		free(e->measured);
		free(e->accelerator);
		free(e->note);
		free_sources(&e->sources);
	}
	free(b->v);
	free(b->file);
	memset(b, 0, sizeof(*b));
}

/* ---- against the catalog ---- */

double baseline_datasheet(const struct accelerator *a, enum baseline_figure f,
			  int precision)
{
	switch (f) {
	case BASE_HBM:
		return a->memory_bandwidth;
	case BASE_GEMM:
		return precision >= 0 && precision < PREC_COUNT && a->has_peak[precision]
			       ? a->peak[precision]
			       : 0;
	case BASE_H2D:
		/* the catalog's link bandwidth is both directions together */
		return a->host_interface.bandwidth / 2;
	default:
		return 0;
	}
}

static void add_error(struct gp_errors *errs, const struct origin *at,
		      const char *hint, const char *msg)
{
	gp_errors_add(errs, at->file, at->line, at->col, hint, "%s", msg);
}

static int check_entry(const struct baseline_entry *e, const struct catalog *c,
		       const char *const *names, struct gp_errors *errs)
{
	char msg[600], hint[300] = "";
	const struct accelerator *a = catalog_find_accelerator(c, e->accelerator);
	if (!a) {
		snprintf(msg, sizeof(msg), "no accelerator '%s' in the catalog", e->accelerator);
		add_error(errs, &e->at,
			  suggest_hint(e->accelerator, names, c->n_acc, hint, sizeof(hint)),
			  msg);
		return 1;
	}
	double ds = baseline_datasheet(a, e->figure, e->precision);
	char words[64];
	baseline_figure_words(e->figure, e->precision, words, sizeof(words));
	if (ds <= 0) {
		snprintf(msg, sizeof(msg), "the catalog gives '%s' no datasheet %s", a->name, words);
		add_error(errs, &e->at, NULL, msg);
		return 1;
	}
	int bad = 0;
	for (size_t k = 0; k < e->n_measured; k++) {
		double f = e->measured[k].value / ds;
		if (f + 1e-9 < e->low || f - 1e-9 > e->high) {
			snprintf(msg, sizeof(msg), "measured %s is %.1f%% of %s's datasheet figure, outside its healthy %.0f\xe2\x80\x93%.0f%%",
				 words, 100 * f, a->name, 100 * e->low, 100 * e->high);
			add_error(errs, &e->measured[k].at, NULL, msg);
			bad++;
		}
	}
	return bad;
}

int baselines_check(const struct baselines *b, const struct catalog *c,
		    struct gp_errors *errs)
{
	const char **names = xcalloc(c->n_acc + 1, sizeof(*names));
	for (size_t i = 0; i < c->n_acc; i++)
		names[i] = c->acc[i].name;
	int bad = 0;
	for (size_t i = 0; i < b->n; i++)
		bad += check_entry(&b->v[i], c, names, errs);
	free(names);
	return bad;
}

/* ---- verdicts ---- */

void baseline_judge(const struct baseline_entry *e, double datasheet,
		    double measured, struct baseline_verdict *v)
{
	char words[64];
	baseline_figure_words(e->figure, e->precision, words, sizeof(words));
	v->entry = e;
	v->fraction = measured / datasheet;
	/* whole percents, as printed: a figure shown at the range's edge is
	 * inside it */
	double pct = round(100 * v->fraction);
	double lo = round(100 * e->low), hi = round(100 * e->high);
	v->kind = pct < lo ? VERDICT_LOW : pct > hi ? VERDICT_HIGH : VERDICT_NORMAL;
	static const char *const tail[] = {
		[VERDICT_LOW] = "check clocks and throttling",
		[VERDICT_NORMAL] = "normal",
		[VERDICT_HIGH] = "above what the published parts reached: normal, or check the datasheet figure",
	};
	const char *why = e->figure == BASE_H2D && v->kind == VERDICT_LOW
				  ? "check the link's width and generation (nvidia-smi -q), and that the buffer is pinned"
				  : tail[v->kind];
	snprintf(v->text, sizeof(v->text),
		 "%s at %.0f%% of datasheet, healthy parts reach %.0f\xe2\x80\x93%.0f%%: %s",
		 words, pct, lo, hi, why);
}

static const struct baseline_entry *find(const struct baselines *b,
					 const char *acc, enum baseline_figure f,
					 int precision)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcasecmp(b->v[i].accelerator, acc) && b->v[i].figure == f &&
		    (f != BASE_GEMM || b->v[i].precision == precision))
			return &b->v[i];
	return NULL;
}

void baseline_verdict(const struct baselines *b, const struct catalog *c,
		      enum baseline_figure f, int precision, double measured,
		      const char *accelerator, struct baseline_verdict *v)
{
	char words[64];
	baseline_figure_words(f, precision, words, sizeof(words));
	memset(v, 0, sizeof(*v));
	v->kind = VERDICT_NONE;
	const struct accelerator *a = catalog_find_accelerator(c, accelerator);
	double ds = a ? baseline_datasheet(a, f, precision) : 0;
	const struct baseline_entry *e = a ? find(b, a->name, f, precision) : NULL;
	if (!a)
		snprintf(v->text, sizeof(v->text), "%s: no baseline, '%s' is not a catalog accelerator",
			 words, accelerator);
	else if (ds <= 0)
		snprintf(v->text, sizeof(v->text), "%s: no baseline, the catalog has no datasheet %s for %s",
			 words, words, a->name);
	else if (!e)
		snprintf(v->text, sizeof(v->text), "%s at %.0f%% of datasheet: no published baseline for %s (%s)",
			 words, round(100 * measured / ds), a->name, b->file);
	else
		baseline_judge(e, ds, measured, v);
	if (!e || ds <= 0)
		v->fraction = ds > 0 ? measured / ds : 0;
}

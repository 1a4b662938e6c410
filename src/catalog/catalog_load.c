/*
 * catalog_load.c - strict reading of catalog files into a struct catalog:
 * files, their sections, and the checks across files (duplicate names,
 * accelerator references).  The entries themselves are read by
 * read_accelerator.c, read_instance.c and read_rates.c.
 */
#include "catalog.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/file_read.h"
#include "core/suggest.h"
#include "core/term_safe.h"
#include "core/xalloc.h"
#include "catalog_read.h"
#include "core/yaml_read.h"
#include "instance_key.h"
#include "name_index.h"
/* ---- files ---- */

void catalog_init(struct catalog *c)
{
	memset(c, 0, sizeof(*c));
}

void catalog_free(struct catalog *c)
{
	for (size_t i = 0; i < c->n_acc; i++)
		free_accelerator(&c->acc[i]);
	for (size_t i = 0; i < c->n_inst; i++)
		free_instance(&c->inst[i]);
	free(c->acc);
	free(c->inst);
	free_fx(&c->fx);
	for (size_t i = 0; i < c->n_files; i++)
		free(c->files[i]);
	free(c->files);
	catalog_init(c);
}

static const struct yfield file_fields[] = {
	{"schema", true}, {"accelerators", false}, {"instances", false},
	{"exchange_rates", false}, {NULL, false},
};

/*
 * An entry with problems of its own is kept for the checks across entries
 * (duplicate names, accelerator references) while problems are still
 * reported in full.  Once they are only counted (error.h: a flood, say a
 * generated file of a million empty entries), such an entry is dropped
 * as soon as it is read: the load fails anyway, and memory then stays
 * that of the tree, not the tree and a struct per entry.  The count of
 * further problems then leaves out duplicates among the dropped entries.
 */
static bool drop_entry(const struct yread *r, int rc)
{
	return rc < 0 && gp_errors_full(r->errs);
}

static int read_accelerators(struct yread *r, const struct ynode *list,
			     struct catalog *c, const char *file)
{
	if (!yr_expect_seq(r, list, "'accelerators'"))
		return -1;
	int bad = 0;
	for (size_t i = 0; i < list->n; i++) {
		xgrow((void **)&c->acc, &c->cap_acc, c->n_acc + 1,
		      sizeof(*c->acc));
		struct accelerator *a = &c->acc[c->n_acc++];
		int rc = read_accelerator(r, list->items[i], i, a);
		bad |= rc < 0;
		a->at.file = file;
		if (drop_entry(r, rc))
			free_accelerator(&c->acc[--c->n_acc]);
	}
	return bad ? -1 : 0;
}

static int read_instances(struct yread *r, const struct ynode *list,
			  struct catalog *c, const char *file)
{
	if (!yr_expect_seq(r, list, "'instances'"))
		return -1;
	int bad = 0;
	for (size_t i = 0; i < list->n; i++) {
		xgrow((void **)&c->inst, &c->cap_inst, c->n_inst + 1,
		      sizeof(*c->inst));
		struct instance *in = &c->inst[c->n_inst++];
		int rc = read_instance(r, list->items[i], i, in);
		bad |= rc < 0;
		in->at.file = file;
		in->accelerator_at.file = file;
		if (drop_entry(r, rc))
			free_instance(&c->inst[--c->n_inst]);
	}
	return bad ? -1 : 0;
}

/* Reads `path`; messages and provenance name it `shown` ("catalogs/aws.yaml"
 * for a shipped file, wherever the data folder is, so output does not depend
 * on where gpuplan was installed). */
static int load_one(struct catalog *c, const char *path, const char *shown,
		    struct gp_errors *errs)
{
	c->files = xrealloc(c->files, (c->n_files + 1) * sizeof(char *));
	/* The name printed in messages, tables and JSON: a path may hold
	 * what a terminal obeys or bytes that are not UTF-8 (term_safe.h). */
	const char *file = c->files[c->n_files++] = term_escape_dup(file_shown(shown), 0);
	struct ytree t;
	if (ytree_load(&t, path, file, errs) < 0) {
		ytree_free(&t);
		return -1;
	}
	struct yread r = {.file = file, .errs = errs};
	int bad = 0;
	/* A file of another kind (a workload, say) would only produce a
	 * screenful of unknown keys: one error about its schema says it all. */
	if (yr_check_schema(&r, t.root, CATALOG_SCHEMA, "catalog file") < 0) {
		ytree_free(&t);
		return -1;
	}
	bad |= yr_check_keys(&r, t.root, "a catalog file", file_fields) > 0;
	const struct ynode *n;
	if ((n = ymap_get(t.root, "accelerators")))
		bad |= read_accelerators(&r, n, c, file) < 0;
	if ((n = ymap_get(t.root, "instances")))
		bad |= read_instances(&r, n, c, file) < 0;
	if ((n = ymap_get(t.root, "exchange_rates"))) {
		if (c->fx.present) {
			yr_error(&r, n, NULL,
				 "exchange rates are already given in %s: keep one rates file",
				 c->fx.at.file);
			bad = 1;
		} else {
			bad |= read_fx(&r, n, &c->fx) < 0;
			c->fx.at.file = file;
		}
	}
	if (!bad && !ymap_get(t.root, "accelerators") &&
	    !ymap_get(t.root, "instances") &&
	    !ymap_get(t.root, "exchange_rates")) {
		yr_error(&r, t.root, NULL,
			 "catalog file holds no 'accelerators', 'instances' or 'exchange_rates'");
		bad = 1;
	}
	ytree_free(&t);
	return bad ? -1 : 0;
}

/* ---- cross-file checks ---- */

/* One named entry for the duplicate check: an accelerator by its name,
 * an instance by provider, region and name (instance_key.h). */
struct named {
	const char *name, *provider, *region;	/* the last two NULL for
						 * an accelerator */
	const struct origin *at;
};

static int cmp_part(const char *a, const char *b)
{
	return strcasecmp(a ? a : "", b ? b : "");
}

static int same_key(const struct named *x, const struct named *y)
{
	int c = strcasecmp(x->name, y->name);
	if (!c)
		c = cmp_part(x->provider, y->provider);
	return c ? c : cmp_part(x->region, y->region);
}

static int by_key_then_place(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = same_key(x, y);
	if (c)
		return c;
	return x->at < y->at ? -1 : x->at > y->at;
}

struct duplicate {
	const struct named *later, *first;
};

static int by_later_place(const void *a, const void *b)
{
	const struct duplicate *x = a, *y = b;
	return x->later->at < y->later->at ? -1 : x->later->at > y->later->at;
}

static void report_duplicate(const struct duplicate *d, const char *kind,
			     struct gp_errors *errs)
{
	const struct named *v = d->later;
	const struct origin *first = d->first->at;
	char hint[320];
	snprintf(hint, sizeof(hint), "first defined at %s:%d:%d", first->file,
		 first->line, first->col > 0 ? first->col : 1);
	if (v->provider)
		gp_errors_add(errs, v->at->file, v->at->line, v->at->col, hint,
			      "duplicate %s '%s/%s/%s': the same provider, region and name",
			      kind, v->provider, v->region, v->name);
	else
		gp_errors_add(errs, v->at->file, v->at->line, v->at->col, hint,
			      "duplicate %s name '%s'", kind, v->name);
}

/*
 * Keys are compared case-blind because lookups are (`catalog show t4`).
 * Sorted, duplicates sit side by side: O(n log n) for the 10,000-instance
 * catalogs the planner is sized for.  Reported in file order.
 */
static void check_duplicates(struct named *v, size_t n, const char *kind,
			     struct gp_errors *errs)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i].name && (v[i].provider || !v[i].region))
			v[m++] = v[i];
	qsort(v, m, sizeof(*v), by_key_then_place);
	struct duplicate *d = xcalloc(m + 1, sizeof(*d));
	size_t nd = 0, first = 0;
	for (size_t i = 1; i < m; i++) {
		if (same_key(&v[i], &v[first]) != 0) {
			first = i;
			continue;
		}
		d[nd++] = (struct duplicate){&v[i], &v[first]};
	}
	qsort(d, nd, sizeof(*d), by_later_place);
	for (size_t k = 0; k < nd; k++)
		report_duplicate(&d[k], kind, errs);
	free(d);
}

static void check_duplicate_names(struct catalog *c, struct gp_errors *errs)
{
	size_t most = c->n_acc > c->n_inst ? c->n_acc : c->n_inst;
	struct named *v = xcalloc(most + 1, sizeof(*v));
	for (size_t i = 0; i < c->n_acc; i++)
		v[i] = (struct named){c->acc[i].name, NULL, NULL, &c->acc[i].at};
	check_duplicates(v, c->n_acc, "accelerator", errs);
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct instance *in = &c->inst[i];
		/* an instance without its provider or region has an error of
		 * its own; it is left out (region set, provider NULL) */
		bool whole = in->provider && in->region;
		v[i] = (struct named){in->name, whole ? in->provider : NULL,
				      whole ? in->region : "", &in->at};
	}
	check_duplicates(v, c->n_inst, "instance", errs);
	free(v);
}

/*
 * Points each instance at its accelerator through a case-blind index of
 * the accelerators' names (the first of duplicates, which are reported
 * already), so n instances over m accelerators cost O(n + m), not
 * O(n m).  The did-you-mean of an unknown name is skipped once problems
 * are only counted (error.h): a flood of them would pay for it each time.
 */
static void resolve_accelerators(struct catalog *c, struct gp_errors *errs)
{
	const char **names = xcalloc(c->n_acc + 1, sizeof(char *));
	size_t nn = 0;
	struct name_index by_name;
	name_index_init(&by_name);
	for (size_t i = 0; i < c->n_acc; i++)
		if (c->acc[i].name) {
			names[nn++] = c->acc[i].name;
			name_index_add(&by_name, c->acc[i].name, i, NULL);
		}
	for (size_t i = 0; i < c->n_inst; i++) {
		struct instance *in = &c->inst[i];
		size_t at;
		if (!in->accelerator_name)
			continue;
		if (name_index_find(&by_name, in->accelerator_name, &at)) {
			in->acc = &c->acc[at];
			continue;
		}
		char hint[128];
		const char *h = gp_errors_full(errs) ? NULL
			: suggest_hint(in->accelerator_name, names, nn, hint,
				       sizeof(hint));
		gp_errors_add(errs, in->at.file, in->accelerator_at.line,
			      in->accelerator_at.col, h,
			      "instance '%s' names unknown accelerator '%s'",
			      in->name ? in->name : "?", in->accelerator_name);
	}
	name_index_free(&by_name);
	free(names);
}

static void derive_owning_costs(struct catalog *c)
{
	for (size_t i = 0; i < c->n_inst; i++)
		if (c->inst[i].owned && c->inst[i].acc)
			c->inst[i].on_demand =
				catalog_owning_cost_per_hour(&c->inst[i]);
}

static bool already_given(const char *const *paths, size_t n, const char *p)
{
	char a[PATH_MAX], b[PATH_MAX];
	if (!realpath(p, a))
		return false;
	for (size_t i = 0; i < n; i++)
		if (realpath(paths[i], b) && strcmp(a, b) == 0)
			return true;
	return false;
}

/* Adds the shipped accelerators / rates when the given files lack them. */
static int load_shipped_defaults(struct catalog *c, const char *const *paths,
				 size_t n, const char *data_dir,
				 struct gp_errors *errs)
{
	int bad = 0;
	if (c->n_acc == 0) {
		char *p = xasprintf("%s/catalogs/accelerators.yaml", data_dir);
		if (!already_given(paths, n, p))
			bad |= load_one(c, p, "catalogs/accelerators.yaml",
					errs) < 0;
		free(p);
	}
	if (!c->fx.present) {
		char *p = xasprintf("%s/catalogs/currency.yaml", data_dir);
		if (!already_given(paths, n, p))
			bad |= load_one(c, p, "catalogs/currency.yaml", errs) < 0;
		free(p);
	}
	return bad ? -1 : 0;
}

static int load_all(struct catalog *c, const char *const *paths,
		    const char *const *shown, size_t n, const char *data_dir,
		    struct gp_errors *errs)
{
	size_t before = gp_errors_count(errs);
	for (size_t i = 0; i < n; i++)
		load_one(c, paths[i], shown[i], errs);
	if (data_dir)
		load_shipped_defaults(c, paths, n, data_dir, errs);
	check_duplicate_names(c, errs);
	resolve_accelerators(c, errs);
	derive_owning_costs(c);
	catalog_label_instances(c, false);
	return gp_errors_count(errs) > before ? -1 : 0;
}

int catalog_load(struct catalog *c, const char *const *paths, size_t n,
		 const char *data_dir, struct gp_errors *errs)
{
	return load_all(c, paths, paths, n, data_dir, errs);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int catalog_load_shipped(struct catalog *c, const char *data_dir,
			 struct gp_errors *errs)
{
	char *dir = xasprintf("%s/catalogs", data_dir);
	DIR *d = opendir(dir);
	if (!d) {
		gp_errors_add(errs, dir, 0, 0,
			      "set GPUPLAN_DATA_DIR to the folder that holds catalogs/",
			      "cannot open the shipped catalogs");
		free(dir);
		return -1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0) {
			names = xrealloc(names, (n + 1) * sizeof(char *));
			names[n++] = xasprintf("catalogs/%s", e->d_name);
		}
	}
	closedir(d);
	if (n == 0) {
		free(names);
		gp_errors_add(errs, dir, 0, 0,
			      "set GPUPLAN_DATA_DIR to the folder that holds catalogs/",
			      "no catalog files (*.yaml) in the shipped catalogs");
		free(dir);
		return -1;
	}
	qsort(names, n, sizeof(char *), compare_names);
	char **paths = xcalloc(n, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		paths[i] = xasprintf("%s/%s", data_dir, names[i]);
	int rc = load_all(c, (const char *const *)paths,
			  (const char *const *)names, n, NULL, errs);
	for (size_t i = 0; i < n; i++) {
		free(paths[i]);
		free(names[i]);
	}
	free(paths);
	free(names);
	free(dir);
	return rc;
}

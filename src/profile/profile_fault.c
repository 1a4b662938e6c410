/*
 * profile_fault.c - the faults of a measured profile (fault.h), written
 * and read back, and the checks that tie them to the figures:
 *
 *   faults:
 *     - kind: device-lost          error, wrong-result, device-lost,
 *                                  out-of-memory, bad-timer, throttled
 *       suite: gemm                one of options.suites
 *       figure: "bf16 m=n=k=4096"  the figure under way, when there was one
 *       what: "..."                what happened, and what was done
 *       missing: ["bf16 m=n=k=4096"]   figures of `suite` not in figures:
 *       marked: []                 figures of `suite` in figures:, marked
 *       ended: [gemm, membw]       device-lost only: suites cut short or
 *                                  not run, its own first
 *
 * What the loader holds a profile to, beyond each value's own type:
 *   - no two figures share a suite and a name (the names below refer to
 *     them), and every figure's suite is one the options list;
 *   - a figure carries a mark (rejected readings, too_few, throttled) if
 *     and only if a fault of the matching kind (bad-timer, throttled)
 *     lists it in `marked`; a figure named `missing` is not in figures:;
 *   - a throttled figure has a slowing sample labelled with it
 *     (bench_figure_label), and a figure with such a sample is throttled;
 *   - p2p, allreduce, overlap and spread figures name GPUs the host has;
 *   - a sustained figure's clocks are its steady part's samples
 *     (bench_profile_figure_window), and absent when it has none.
 * The checks run once the rest of the file has read clean, so each names
 * one real inconsistency, not an echo of an earlier error.
 */
#include <stdlib.h>
#include <string.h>

#include "profile/profile_emit.h"
#include "profile/profile_fault.h"
#include "profile/profile_gpu.h"
#include "profile/profile_read.h"
#include "core/yaml_emit.h"
#include "core/strmap.h"
#include "core/xalloc.h"

/* ---- writing ---- */

static void emit_names(FILE *f, const char *key, const struct bench_names *l)
{
	fprintf(f, "    %s: [", key);
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			fputs(", ", f);
		yaml_emit_name(f, l->v[i], sizeof(((struct bench_figure *)0)->name));
	}
	fputs("]\n", f);
}

void profile_emit_faults(const struct bench_faults *l, FILE *f)
{
	fprintf(f, "faults:%s\n", l->n ? "" : " []");
	for (size_t i = 0; i < l->n; i++) {
		const struct bench_fault *x = &l->v[i];
		fprintf(f, "  - kind: %s\n    suite: %s\n",
			bench_fault_kind_name(x->kind), x->suite);
		if (x->figure[0])
			profile_emit_name(f, "    ", "figure", x->figure,
			  sizeof(x->figure));
		profile_emit_string(f, "    ", "what", x->what);
		emit_names(f, "missing", &x->missing);
		emit_names(f, "marked", &x->marked);
		if (x->kind == BENCH_FAULT_DEVICE_LOST) {
			fputs("    ended: [", f);
			for (size_t k = 0; k < x->ended.n; k++)
				fprintf(f, "%s%s", k ? ", " : "", x->ended.v[k]);
			fputs("]\n", f);
		}
	}
}

/* ---- reading ---- */

/* A list of figure names (at most size - 1 bytes each) into out. */
static void read_names(struct yread *r, const struct ynode *map,
		       const char *key, size_t size, struct bench_names *out)
{
	const struct ynode *s = ymap_get(map, key);
	if (!s || !yr_expect_seq(r, s, key))
		return;
	for (size_t i = 0; i < s->n; i++) {
		char *name = NULL;
		if (yr_node_name(r, s->items[i], key, &name) != 1)
			continue;
		if (strlen(name) >= size)
			yr_error(r, s->items[i], NULL,
				 "'%s' names a figure of %zu bytes; names are at most %zu",
				 key, strlen(name), size - 1);
		else
			bench_names_add(out, name);
		free(name);
	}
}

/* `ended`: suites of the run, each once. */
static void read_ended(struct yread *r, const struct ynode *map,
		       const struct bench_profile *p, struct bench_fault *x)
{
	const struct ynode *s = ymap_get(map, "ended");
	if (!s)
		return;
	if (x->kind != BENCH_FAULT_DEVICE_LOST) {
		yr_error(r, s, NULL, "'ended' belongs to a device-lost fault, not %s",
			 bench_fault_kind_name(x->kind));
		return;
	}
	if (!yr_expect_seq(r, s, "ended"))
		return;
	for (size_t i = 0; i < s->n; i++) {
		char *name = NULL;
		if (yr_node_name(r, s->items[i], "ended", &name) != 1)
			continue;
		if (!profile_has_suite(p, name))
			yr_error(r, s->items[i], NULL,
				 "'ended' names '%.40s', which options.suites does not list",
				 name);
		else if (bench_names_has(&x->ended, name))
			yr_error(r, s->items[i], NULL, "'ended' names '%s' twice", name);
		else
			bench_names_add(&x->ended, name);
		free(name);
	}
}

static void read_fault(struct yread *r, const struct ynode *n,
		       struct bench_profile *p)
{
	static const struct yfield fields[] = {
		{"kind", true}, {"suite", true}, {"figure", false}, {"what", true},
		{"missing", true}, {"marked", true}, {"ended", false},
		{NULL, false}};
	if (!yr_expect_map(r, n, "a fault"))
		return;
	yr_check_keys(r, n, "fault", fields);
	char kind[16] = "", suite[16] = "", figure[64] = "";
	profile_read_word(r, n, "kind", bench_fault_kind_names, kind,
			  sizeof(kind));
	if (profile_read_word(r, n, "suite", bench_suite_names, suite,
			      sizeof(suite)) == 1 && !profile_has_suite(p, suite))
		yr_error(r, ymap_get(n, "suite"), NULL,
			 "a fault in suite '%s', which options.suites does not list",
			 suite);
	profile_read_name(r, n, "figure", figure, sizeof(figure));
	char *what = NULL;
	yr_string(r, n, "what", &what);
	int k = bench_fault_kind_of(kind);
	size_t i = bench_faults_add(&p->figures.faults, k < 0 ? 0 : k, suite,
				    figure, "%s", what ? what : "");
	free(what);
	struct bench_fault *x = &p->figures.faults.v[i];
	read_names(r, n, "missing", sizeof(p->figures.v[0].name), &x->missing);
	read_names(r, n, "marked", sizeof(p->figures.v[0].name), &x->marked);
	if (k >= 0)
		read_ended(r, n, p, x);
	if (k == BENCH_FAULT_DEVICE_LOST && !ymap_get(n, "ended"))
		yr_error(r, n, NULL, "a device-lost fault needs 'ended'");
}

void profile_read_faults(struct yread *r, const struct ynode *root,
			 struct bench_profile *p)
{
	const struct ynode *s = ymap_get(root, "faults");
	if (!s || !yr_expect_seq(r, s, "faults"))
		return;
	for (size_t i = 0; i < s->n; i++)
		read_fault(r, s->items[i], p);
}

/* ---- the checks that tie figures, faults and samples together ---- */

/* "suite\x1fname": a figure's key in the map (the separator cannot be in
 * a name, which refuses control characters). */
static char *figure_key(const char *suite, const char *name)
{
	return xasprintf("%s\x1f%s", suite, name);
}

struct figure_index {
	struct strmap map;
	char **keys;		/* owned; the map borrows them */
	size_t n;
};

static void index_free(struct figure_index *x)
{
	strmap_free(&x->map);
	for (size_t i = 0; i < x->n; i++)
		free(x->keys[i]);
	free(x->keys);
}

/* Indexes the figures, reporting a duplicate at its item. */
static void index_figures(struct yread *r, const struct ynode *items,
			  const struct bench_profile *p, struct figure_index *x)
{
	strmap_init(&x->map);
	x->keys = xcalloc(p->figures.n ? p->figures.n : 1, sizeof(char *));
	x->n = 0;
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *f = &p->figures.v[i];
		char *key = figure_key(f->suite, f->name);
		size_t first;
		x->keys[x->n++] = key;
		if (!strmap_put(&x->map, key, i, &first))
			yr_error(r, ymap_get(items->items[i], "name"), NULL,
				 "figure '%s' of suite %s appears twice (first at line %d)",
				 f->name, f->suite, items->items[first]->line);
		if (!profile_has_suite(p, f->suite))
			yr_error(r, ymap_get(items->items[i], "suite"), NULL,
				 "a figure of suite '%s', which options.suites does not list",
				 f->suite);
	}
}

/* Which marks fault kind k stands for on a figure. */
static bool carries(const struct bench_figure *f, int k)
{
	if (k == BENCH_FAULT_THROTTLED)
		return f->throttled;
	return k == BENCH_FAULT_BAD_TIMER && f->time.rejected > 0;
}

/* Each fault's `missing` and `marked` against the figures; *listed[i]
 * gets the kinds of fault that marked figure i. */
static void check_fault_names(struct yread *r, const struct ynode *faults,
			      const struct bench_profile *p,
			      const struct figure_index *x, unsigned *listed)
{
	const struct bench_faults *l = &p->figures.faults;
	for (size_t i = 0; i < l->n; i++) {
		const struct bench_fault *ft = &l->v[i];
		const struct ynode *n = faults->items[i];
		for (size_t k = 0; k < ft->missing.n; k++) {
			char *key = figure_key(ft->suite, ft->missing.v[k]);
			if (strmap_get(&x->map, key, NULL))
				yr_error(r, ymap_get(n, "missing"), NULL,
					 "'%s' is named missing but is among the figures",
					 ft->missing.v[k]);
			free(key);
		}
		for (size_t k = 0; k < ft->marked.n; k++) {
			char *key = figure_key(ft->suite, ft->marked.v[k]);
			size_t at;
			if (!strmap_get(&x->map, key, &at))
				yr_error(r, ymap_get(n, "marked"), NULL,
					 "'%s' is named marked but no figure of suite %s has that name",
					 ft->marked.v[k], ft->suite);
			else if (!carries(&p->figures.v[at], (int)ft->kind))
				yr_error(r, ymap_get(n, "marked"), NULL,
					 "'%s' is named marked by a %s fault but carries no such mark",
					 ft->marked.v[k], bench_fault_kind_name(ft->kind));
			else
				listed[at] |= 1u << ft->kind;
			free(key);
		}
	}
}

/* A figure's marks against the faults that list it. */
static void check_marks(struct yread *r, const struct ynode *items,
			const struct bench_profile *p, const unsigned *listed)
{
	static const int kinds[] = {BENCH_FAULT_BAD_TIMER, BENCH_FAULT_THROTTLED};
	for (size_t i = 0; i < p->figures.n; i++)
		for (size_t k = 0; k < 2; k++)
			if (carries(&p->figures.v[i], kinds[k]) &&
			    !(listed[i] & (1u << kinds[k])))
				yr_error(r, items->items[i], NULL,
					 "figure '%s' is marked but no %s fault lists it in 'marked'",
					 p->figures.v[i].name,
					 bench_fault_kind_name(kinds[k]));
}

/* Each figure's throttled mark agrees with the samples taken while it
 * ran. */
static void check_throttled(struct yread *r, const struct ynode *items,
			    const struct bench_profile *p)
{
	uint64_t *slow = profile_slowing_per_figure(p);
	for (size_t i = 0; i < p->figures.n; i++)
		if ((slow[i] != 0) != p->figures.v[i].throttled)
			yr_error(r, items->items[i], NULL,
				 "figure '%s' is %smarked throttled but %s sample taken while it ran shows a slowing reason",
				 p->figures.v[i].name,
				 p->figures.v[i].throttled ? "" : "not ",
				 slow[i] ? "a" : "no");
	free(slow);
}

/* p2p and allreduce figures name GPUs of the host. */
static void check_gpus(struct yread *r, const struct ynode *items,
		       const struct bench_profile *p)
{
	int count = strcmp(p->device.kind, "cuda") ? 0 : p->device.gpu_count;
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *f = &p->figures.v[i];
		const struct ynode *par = ymap_get(items->items[i], "parameters");
		bool p2p = !strcmp(f->suite, "p2p");
		if (p2p && (f->from_gpu >= count || f->to_gpu >= count ||
			    f->from_gpu == f->to_gpu))
			yr_error(r, par, NULL,
				 "a p2p figure from GPU %d to GPU %d on a host with %d",
				 f->from_gpu, f->to_gpu, count);
		if ((!strcmp(f->suite, "allreduce") || !strcmp(f->suite, "overlap")) &&
		    f->gpus > count)
			yr_error(r, par, NULL,
				 "an %s over %d GPUs on a host with %d",
				 f->suite, f->gpus, count);
		if (!strcmp(f->suite, "spread") && f->gpu >= count)
			yr_error(r, par, NULL,
				 "a spread figure of GPU %d on a host with %d",
				 f->gpu, count);
	}
}

/* Each figure's clocks are its steady part's samples (profile.h). */
static void check_clocks(struct yread *r, const struct ynode *items,
			 const struct bench_profile *p)
{
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *f = &p->figures.v[i];
		struct gpu_window want;
		bench_profile_figure_window(p, f, &want);
		if (gpu_window_equal(&want, &f->clocks))
			continue;
		const struct ynode *at = ymap_get(items->items[i], "clocks");
		if (!want.samples)
			yr_error(r, at, NULL,
				 "'%s' has clocks, but no sample of the sampled GPU is labelled with its steady part",
				 f->name);
		else
			yr_error(r, at ? at : items->items[i], NULL,
				 "the clocks of '%s' are not its steady part's %zu sample%s (median SM clock %.17g Hz, power %.17g W)",
				 f->name, want.samples, want.samples == 1 ? "" : "s",
				 want.sm_clock_median_hz, want.power_median_w);
	}
}

void profile_check_figures(struct yread *r, const struct ynode *root,
			   const struct bench_profile *p)
{
	const struct ynode *items = ymap_get(root, "figures");
	const struct ynode *faults = ymap_get(root, "faults");
	if (!items || items->n != p->figures.n)
		return;
	struct figure_index x;
	index_figures(r, items, p, &x);
	unsigned *listed = xcalloc(p->figures.n ? p->figures.n : 1,
				   sizeof(unsigned));
	if (faults && faults->n == p->figures.faults.n)
		check_fault_names(r, faults, p, &x, listed);
	check_marks(r, items, p, listed);
	check_throttled(r, items, p);
	check_clocks(r, items, p);
	check_gpus(r, items, p);
	free(listed);
	index_free(&x);
}

/*
 * profile_load.c - the strict reader of measured profiles; see profile.h.
 * The sections with parts of their own are read by profile_figure.c,
 * profile_gpu.c and profile_fault.c, on the scalars of profile_read.c.
 * Every problem in the file is reported in one pass, each at the
 * line:column of the value (or of the mapping that lacks a key).
 */
#include "profile/profile.h"
#include "profile/profile_fault.h"
#include "profile/profile_figure.h"
#include "profile/profile_gpu.h"
#include "profile/profile_read.h"

#include <stdlib.h>
#include <string.h>

#include "core/utc_time.h"
#include "core/xalloc.h"
#include "core/yaml_read.h"
#include "core/yaml_tree.h"

/* ---- top-level parts ---- */

static void read_tool(struct yread *r, const struct ynode *root,
		      struct bench_profile *p)
{
	static const struct yfield fields[] = {{"name", true}, {"version", true}, {NULL, false}};
	static const char *const names[] = {"gpuplan", NULL};
	const struct ynode *t = ymap_get(root, "tool");
	char name[16];
	if (!t || !yr_expect_map(r, t, "tool"))
		return;
	yr_check_keys(r, t, "tool", fields);
	profile_read_word(r, t, "name", names, name, sizeof(name));
	profile_read_name(r, t, "version", p->tool_version, sizeof(p->tool_version));
}

static void read_host(struct yread *r, const struct ynode *root,
		      struct bench_profile *p)
{
	static const struct yfield fields[] = {
		{"hostname", true}, {"kernel", true}, {"cpu_model", false},
		{"logical_cpus", false}, {"physical_cores", false},
		{"memory_bytes", false},
		{"l1d_bytes", false}, {"l2_bytes", false}, {"l3_bytes", false},
		{"l3_instances", false}, {NULL, false}};
	const struct ynode *h = ymap_get(root, "host");
	struct cpu_info *c = &p->device.cpu;
	if (!h || !yr_expect_map(r, h, "host"))
		return;
	yr_check_keys(r, h, "host", fields);
	profile_read_name(r, h, "hostname", p->hostname, sizeof(p->hostname));
	profile_read_name(r, h, "kernel", p->kernel, sizeof(p->kernel));
	if (profile_read_name(r, h, "cpu_model", c->model, sizeof(c->model)) == 1)
		c->valid |= CPU_INFO_HAS_MODEL;
	if (yr_int(r, h, "logical_cpus", 1, 1L << 20, &c->logical_cpus) == 1)
		c->valid |= CPU_INFO_HAS_LOGICAL_CPUS;
	if (yr_int(r, h, "physical_cores", 1, 1L << 20, &c->physical_cores) == 1)
		c->valid |= CPU_INFO_HAS_CORES;
	struct { const char *key; uint32_t bit; uint64_t *v; } sizes[] = {
		{"memory_bytes", CPU_INFO_HAS_MEMORY, &c->memory_bytes},
		{"l1d_bytes", CPU_INFO_HAS_L1D, &c->l1d_bytes},
		{"l2_bytes", CPU_INFO_HAS_L2, &c->l2_bytes},
		{"l3_bytes", CPU_INFO_HAS_L3, &c->l3_bytes},
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		/* a whole number of bytes, at most 2^62: no cast of 1e30 */
		long v;
		if (yr_int(r, h, sizes[i].key, 0, 1L << 62, &v) == 1) {
			*sizes[i].v = (uint64_t)v;
			c->valid |= sizes[i].bit;
		}
	}
	long instances;
	if (yr_int(r, h, "l3_instances", 1, 1L << 20, &instances) == 1) {
		if (!(c->valid & CPU_INFO_HAS_L3))
			yr_error(r, ymap_get(h, "l3_instances"), NULL,
				 "l3_instances expects l3_bytes beside it");
		c->l3_instances = (unsigned)instances;
	}
}

static void read_device(struct yread *r, const struct ynode *root,
			struct bench_profile *p)
{
	/* kind, name, index, then the GPU's keys (profile_gpu.c) */
	static struct yfield fields[24] = {{"kind", true}, {"name", true}, {"index", false}};
	static const char *const kinds[] = {"cpu", "cuda", NULL};
	if (!fields[3].key)
		for (size_t i = 0; profile_gpu_keys[i]; i++)
			fields[3 + i] = (struct yfield){profile_gpu_keys[i], false};
	const struct ynode *d = ymap_get(root, "device");
	if (!d || !yr_expect_map(r, d, "device"))
		return;
	yr_check_keys(r, d, "device", fields);
	profile_read_word(r, d, "kind", kinds, p->device.kind, sizeof(p->device.kind));
	profile_read_name(r, d, "name", p->device.name, sizeof(p->device.name));
	profile_read_int(r, d, "index", 0, 1023, &p->device.index);
	if (!strcmp(p->device.kind, "cuda")) {
		profile_read_gpu(r, d, &p->device);
		return;
	}
	for (size_t i = 0; profile_gpu_keys[i]; i++)
		if (ymap_get(d, profile_gpu_keys[i]))
			yr_error(r, ymap_get(d, profile_gpu_keys[i]), NULL,
				 "'%s' belongs to a cuda device", profile_gpu_keys[i]);
}

/* The `policy:` of o (the options, or the options' model). */
static void read_policy(struct yread *r, const struct ynode *o,
			struct measure_policy *m)
{
	static const struct yfield fields[] = {
		{"warmup", true}, {"min_reps", true}, {"max_reps", true},
		{"rel_half_width", true}, {"time_cap_s", true}, {NULL, false}};
	const struct ynode *pn = ymap_get(o, "policy");
	if (!pn || !yr_expect_map(r, pn, "policy"))
		return;
	yr_check_keys(r, pn, "policy", fields);
	profile_read_int(r, pn, "warmup", 0, 1000000, &m->warmup);
	profile_read_int(r, pn, "min_reps", 0, 100000000, &m->min_reps);
	if (profile_read_int(r, pn, "max_reps", 1, 100000000, &m->max_reps) == 1 &&
	    m->max_reps < m->min_reps)
		yr_error(r, ymap_get(pn, "max_reps"), NULL,
			 "max_reps %d is below min_reps %d", m->max_reps,
			 m->min_reps);
	profile_read_number(r, pn, "rel_half_width", &m->rel_half_width);
	profile_read_number(r, pn, "time_cap_s", &m->time_cap_s);
}

static void read_suites(struct yread *r, const struct ynode *o,
			struct bench_profile *p)
{
	const struct ynode *s = ymap_get(o, "suites");
	if (!s || !yr_expect_seq(r, s, "options suites"))
		return;
	if (s->n > BENCH_PROFILE_MAX_SUITES) {
		yr_error(r, s, NULL, "more than %d suites", BENCH_PROFILE_MAX_SUITES);
		return;
	}
	for (size_t i = 0; i < s->n; i++) {
		char *name = NULL;
		if (yr_node_name(r, s->items[i], "suites", &name) <= 0)
			continue;
		bool known = false;
		for (const char *const *k = bench_suite_names; *k; k++)
			known |= strcmp(*k, name) == 0;
		if (!known)
			yr_error(r, s->items[i], NULL, "unknown suite '%.40s'", name);
		else if (profile_has_suite(p, name))
			yr_error(r, s->items[i], NULL, "suite '%s' is listed twice", name);
		else
			snprintf(p->suites[p->n_suites++], sizeof(p->suites[0]),
				 "%s", name);
		free(name);
	}
}

/* The training suites' settings: all three or none. */
static void read_training(struct yread *r, const struct ynode *m,
			  struct bench_profile *p)
{
	int given = (ymap_get(m, "micro_batch") != NULL) +
		    (ymap_get(m, "tp") != NULL) + (ymap_get(m, "sustain_s") != NULL);
	if (!given)
		return;
	if (given != 3) {
		yr_error(r, m, NULL, "the training suites' settings go together: micro_batch, tp and sustain_s");
		return;
	}
	yr_int(r, m, "micro_batch", 1, 1L << 24, &p->train_micro_batch);
	yr_int(r, m, "tp", 1, 1 << 16, &p->train_tp);
	if (profile_read_number(r, m, "sustain_s", &p->sustain_s) == 1 &&
	    !(p->sustain_s > 0))
		yr_error(r, ymap_get(m, "sustain_s"), NULL,
			 "'sustain_s' expects a number > 0, found 0");
}

static void read_model(struct yread *r, const struct ynode *o,
		       struct bench_profile *p)
{
	static const struct yfield fields[] = {
		{"name", true}, {"seq", true}, {"policy", true},
		{"step_cap_s", true}, {"max_batch", true}, {"micro_batch", false},
		{"tp", false}, {"sustain_s", false}, {NULL, false}};
	const struct ynode *m = ymap_get(o, "model");
	if (!m || !yr_expect_map(r, m, "options model"))
		return;
	yr_check_keys(r, m, "options model", fields);
	profile_read_name(r, m, "name", p->model_name, sizeof(p->model_name));
	yr_int(r, m, "seq", 0, 1L << 24, &p->model_seq);
	read_policy(r, m, &p->model_policy);
	profile_read_number(r, m, "step_cap_s", &p->model_step_cap_s);
	yr_int(r, m, "max_batch", 1, 1L << 40, &p->model_max_batch);
	read_training(r, m, p);
}

static void read_options(struct yread *r, const struct ynode *root,
			 struct bench_profile *p)
{
	static const struct yfield fields[] = {
		{"suites", true}, {"quick", true}, {"threads", true},
		{"policy", true}, {"model", false}, {NULL, false}};
	const struct ynode *o = ymap_get(root, "options");
	if (!o || !yr_expect_map(r, o, "options"))
		return;
	yr_check_keys(r, o, "options", fields);
	read_suites(r, o, p);
	yr_bool(r, o, "quick", &p->quick);
	profile_read_int(r, o, "threads", 1, 1 << 20, &p->threads);
	read_policy(r, o, &p->policy);
	read_model(r, o, p);
}

static void read_notes(struct yread *r, const struct ynode *root,
		       struct bench_profile *p)
{
	const struct ynode *s = ymap_get(root, "notes");
	if (!s || !yr_expect_seq(r, s, "notes"))
		return;
	for (size_t i = 0; i < s->n; i++) {
		char *text = NULL;
		if (yr_node_string(r, s->items[i], "notes", &text) == 1)
			bench_figures_note(&p->figures, "%s", text);
		free(text);
	}
}

static void read_figures(struct yread *r, const struct ynode *root,
			 struct bench_profile *p)
{
	const struct ynode *s = ymap_get(root, "figures");
	if (!s || !yr_expect_seq(r, s, "figures"))
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct bench_figure f;
		if (profile_read_figure(r, s->items[i], &f) == 0)
			bench_figures_push(&p->figures, &f);
		else
			measure_result_free(&f.time);
	}
}

static void read_root(struct yread *r, const struct ynode *root,
		      struct bench_profile *p)
{
	static const struct yfield fields[] = {
		{"schema", true}, {"tool", true}, {"when", true},
		{"host", true}, {"device", true}, {"options", true},
		{"notes", true}, {"faults", false}, {"figures", true},
		{"sampling", false}, {NULL, false}};
	size_t before = gp_errors_count(r->errs);
	if (yr_check_schema(r, root, BENCH_PROFILE_SCHEMA, "measured profile") < 0)
		return;
	yr_check_keys(r, root, "measured profile", fields);
	read_tool(r, root, p);
	if (profile_read_text(r, root, "when", p->when, sizeof(p->when)) == 1 &&
	    !utc_time_valid(p->when))
		yr_error(r, ymap_get(root, "when"), NULL,
			 "'when' expects a UTC time YYYY-MM-DDTHH:MM:SSZ, found '%s'",
			 p->when);
	read_host(r, root, p);
	read_device(r, root, p);
	read_options(r, root, p);
	read_notes(r, root, p);
	read_figures(r, root, p);
	profile_read_faults(r, root, p);
	profile_read_sampling(r, root, p);
	if (gp_errors_count(r->errs) == before)
		profile_check_figures(r, root, p);
}

static int load_tree(struct bench_profile *p, struct ytree *t,
		     struct gp_errors *errs)
{
	size_t before = gp_errors_count(errs);
	struct yread r = {t->file, errs};
	if (!t->root)
		gp_errors_add(errs, t->file, 0, 0, NULL,
			      "empty file: expected a measured profile");
	else
		read_root(&r, t->root, p);
	ytree_free(t);
	if (gp_errors_count(errs) == before)
		return 0;
	bench_profile_free(p);
	bench_figures_init(&p->figures);
	return -1;
}

int bench_profile_load(struct bench_profile *p, const char *path,
		       struct gp_errors *errs)
{
	bench_profile_init(p);
	struct ytree t;
	if (ytree_load(&t, path, path, errs) < 0) {
		ytree_free(&t);
		return -1;
	}
	return load_tree(p, &t, errs);
}

int bench_profile_parse(struct bench_profile *p, const char *name,
			const char *buf, size_t len, struct gp_errors *errs)
{
	bench_profile_init(p);
	struct ytree t;
	if (ytree_parse(&t, name, buf, len, errs) < 0) {
		ytree_free(&t);
		return -1;
	}
	return load_tree(p, &t, errs);
}

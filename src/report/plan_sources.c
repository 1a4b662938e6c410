/*
 * plan_sources.c - a plan's sources, assumptions, exchange rates and
 * "generated"; see plan_sources.h.
 */
#include "plan_sources.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/precision.h"
#include "core/strmap.h"
#include "core/xalloc.h"

/* The first entry of a "source" list, "" for what it lacks; every entry
 * must be an object. */
static void read_source(struct reader *rd, const struct record *r,
			const char *path, struct r_source *out)
{
	size_t at, el;
	struct jiter it;
	char p[900];
	*out = (struct r_source){"", "", ""};
	if (!rd_container(rd, r, "source", path, J_ARRAY, true, &at))
		return;
	jiter_begin(&rd->d, at, &it);
	for (size_t i = 0; !rd->failed && jiter_next(&rd->d, &it, NULL, &el); i++) {
		snprintf(p, sizeof(p), "%s.source[%zu]", path, i);
		if (!rd_record_read(rd, &rd->leaf, el, p) || i > 0)
			continue;
		const char *t = rd_string(rd, &rd->leaf, "title", p, true, TEXT);
		const char *u = rd_string(rd, &rd->leaf, "url", p, true, TEXT);
		const char *d = rd_string(rd, &rd->leaf, "retrieved", p, true, NAME);
		*out = (struct r_source){t ? t : "", u ? u : "", d ? d : ""};
	}
}

static void read_instance(struct reader *rd, size_t at, const char *path,
			  struct r_instance *in)
{
	if (!rd_record_read(rd, &rd->sub, at, path))
		return;
	in->defined_at = rd_string(rd, &rd->sub, "defined_at", path, true, TEXT);
	in->price_as_of = rd_string(rd, &rd->sub, "price_as_of", path, true, NAME);
	in->owned = rd_bool(rd, &rd->sub, "owned", path, false);
	in->illustrative = rd_bool(rd, &rd->sub, "illustrative", path, false);
	read_source(rd, &rd->sub, path, &in->source);
	if (!in->defined_at)
		in->defined_at = "";
}

static void read_accelerator(struct reader *rd, size_t at, const char *path,
			     struct r_accelerator *a)
{
	size_t pk;
	char pp[900];
	if (!rd_record_read(rd, &rd->sub, at, path))
		return;
	a->defined_at = rd_string(rd, &rd->sub, "defined_at", path, true, TEXT);
	if (!a->defined_at)
		a->defined_at = "";
	a->bandwidth = rd_number(rd, &rd->sub, "memory_bandwidth_bytes_per_s",
				 path, true, 0);
	read_source(rd, &rd->sub, path, &a->source);
	if (!rd_container(rd, &rd->sub, "peak_dense_ops_per_s", path, J_OBJECT,
			   true, &pk))
		return;
	snprintf(pp, sizeof(pp), "%s.peak_dense_ops_per_s", path);
	if (!rd_record_read(rd, &rd->leaf, pk, pp))
		return;
	/* precisions this build does not know are left alone */
	for (int p = 0; p < PREC_COUNT; p++)
		a->peaks[p] = rd_number(rd, &rd->leaf, precision_name(p), pp, true, 0);
}

/* A map of names to entries (sources.instances, sources.accelerators):
 * each entry read by `entry` into an array of `size`-byte structs whose
 * first member is the name, then sorted by name.  Names are interned, so
 * a duplicate is the same pointer twice. */
static void *read_named(struct reader *rd, size_t at, const char *outer,
			size_t size, size_t *n,
			void (*entry)(struct reader *, size_t, const char *, void *),
			int (*cmp)(const void *, const void *))
{
	struct jiter it;
	struct strmap seen;
	size_t key_at, value_at, cap = 0;
	char path[800];
	char *v = NULL;
	*n = 0;
	strmap_init(&seen);
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, &key_at, &value_at)) {
		if (*n == R_SOURCES_MAX) {
			rd_fail_at(rd, key_at, "%s: expected at most %d entries, found more",
				   outer, R_SOURCES_MAX);
			break;
		}
		const char *name = rd_key_name(rd, key_at, outer, path, sizeof(path));
		if (!rd->failed && !strmap_put(&seen, name, *n, NULL))
			rd_fail_at(rd, key_at, "%s: \"%s\" appears twice", outer, name);
		if (rd->failed)
			break;
		xgrow((void **)&v, &cap, *n + 1, size);
		memset(v + *n * size, 0, size);
		memcpy(v + *n * size, &name, sizeof(name));
		entry(rd, value_at, path, v + *n * size);
		(*n)++;
	}
	strmap_free(&seen);
	if (*n)
		qsort(v, *n, size, cmp);
	return v;
}

static void instance_entry(struct reader *rd, size_t at, const char *path,
			   void *out)
{
	read_instance(rd, at, path, out);
}

static void accelerator_entry(struct reader *rd, size_t at, const char *path,
			      void *out)
{
	read_accelerator(rd, at, path, out);
}

void r_read_plan_sources(struct reader *rd, struct r_plan *p)
{
	size_t at, m;
	if (!rd_container(rd, &rd->root, "sources", "", J_OBJECT, true, &at) ||
	    !rd_record_read(rd, &rd->workload, at, "sources"))
		return;
	/* rd->workload is free until the workloads are read */
	struct record *s = &rd->workload;
	if (rd_container(rd, s, "instances", "sources", J_OBJECT, true, &m))
		p->inst = read_named(rd, m, "sources.instances", sizeof(*p->inst),
				     &p->n_inst, instance_entry, by_instance_name);
	if (rd_container(rd, s, "accelerators", "sources", J_OBJECT, true, &m))
		p->acc = read_named(rd, m, "sources.accelerators", sizeof(*p->acc),
				    &p->n_acc, accelerator_entry, by_accelerator_name);
}

void r_read_assumptions(struct reader *rd, struct r_plan *p)
{
	size_t at, key_at, value_at, cap = 0;
	struct jiter it;
	char path[800];
	if (!rd_container(rd, &rd->root, "assumptions", "", J_OBJECT, true, &at) ||
	    !rd_record_read(rd, &rd->sub, at, "assumptions"))	/* duplicates */
		return;
	jiter_begin(&rd->d, at, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, &key_at, &value_at)) {
		const char *key = rd_key_name(rd, key_at, "assumptions", path, sizeof(path));
		if (!rd_record_read(rd, &rd->leaf, value_at, path))
			break;
		xgrow((void **)&p->assumptions, &cap, p->n_assumptions + 1,
		      sizeof(*p->assumptions));
		struct r_assumption *a = &p->assumptions[p->n_assumptions++];
		a->key = key;
		a->has_value = rd_field(&rd->leaf, "value") &&
			       jtype_at(&rd->d, rd_field(&rd->leaf, "value")->at) == J_NUMBER;
		a->value = rd_number(rd, &rd->leaf, "value", path, true, -R_NUMBER_MAX);
		a->from = rd_string(rd, &rd->leaf, "from", path, true, TEXT);
		if (!a->from)
			a->from = "";
	}
}

void r_read_rates(struct reader *rd, struct r_plan *p)
{
	size_t at;
	p->rates_base = p->rates_as_of = "";
	p->rates_source = (struct r_source){"", "", ""};
	if (!rd_container(rd, &rd->root, "exchange_rates", "", J_OBJECT, true, &at) ||
	    !rd_record_read(rd, &rd->sub, at, "exchange_rates"))
		return;
	p->has_rates = true;
	const char *base = rd_string(rd, &rd->sub, "base", "exchange_rates", true, NAME);
	const char *as_of = rd_string(rd, &rd->sub, "as_of", "exchange_rates", true, NAME);
	p->rates_base = base ? base : "";
	p->rates_as_of = as_of ? as_of : "";
	read_source(rd, &rd->sub, "exchange_rates", &p->rates_source);
}

/* "generated": the plan's date and tool version (page15); optional, as
 * plans made before it lack it. */
void r_read_generated(struct reader *rd, struct r_plan *p)
{
	size_t at;
	p->generated_date = p->generated_tool = "";
	if (!rd_container(rd, &rd->root, "generated", "", J_OBJECT, true, &at) ||
	    !rd_record_read(rd, &rd->sub, at, "generated"))
		return;
	const char *date = rd_string(rd, &rd->sub, "date", "generated", true, NAME);
	const char *tool = rd_string(rd, &rd->sub, "tool", "generated", true, NAME);
	p->generated_date = date ? date : "";
	p->generated_tool = tool ? tool : "";
}

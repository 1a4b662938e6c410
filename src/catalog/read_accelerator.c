/*
 * read_accelerator.c - one `accelerators:` entry: a datasheet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_read.h"
#include "core/suggest.h"
#include "core/xalloc.h"

/* A map keyed by precision names (fp32, bf16, ...): every key one. */
static int check_precision_keys(struct yread *r, const struct ynode *n,
				const char *what)
{
	struct yfield fields[PREC_COUNT + 1];
	for (int p = 0; p < PREC_COUNT; p++)
		fields[p] = (struct yfield){precision_name(p), false};
	fields[PREC_COUNT] = (struct yfield){NULL, false};
	return yr_check_keys(r, n, what, fields);
}

static int read_peaks(struct yread *r, const struct ynode *map,
		      const char *owner, struct accelerator *a)
{
	const struct ynode *n = ymap_get(map, "peak_dense");
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'peak_dense' of %s", owner);
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = check_precision_keys(r, n, what);
	if (n->n == 0) {
		yr_error(r, n, NULL, "%s lists no precision", what);
		bad = 1;
	}
	for (int p = 0; p < PREC_COUNT; p++) {
		struct unit_detail d;
		int rc = yr_quantity_in(r, n, precision_name(p), Q_PEAK,
					&a->peak[p], &d);
		if (rc < 0) {
			bad = 1;
			continue;
		}
		a->has_peak[p] = rc == 1;
		if (rc == 1 && d.integer_ops != precision_is_integer(p)) {
			yr_error(r, ymap_get(n, precision_name(p)), NULL,
				 "'%s' is %s: write it in %s",
				 precision_name(p),
				 d.integer_ops ? "a floating-point rate"
					       : "an integer rate",
				 d.integer_ops ? "FLOP/s (e.g. TFLOP/s)"
					       : "OPS (e.g. TOPS)");
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

/* `matmul_ceiling: {bf16: 86.9%, fp8: 70.9%}`: a measured share of each
 * precision's dense peak, for precisions the part has. */
static int read_ceilings(struct yread *r, const struct ynode *map,
			 const char *owner, struct accelerator *a)
{
	const struct ynode *n = ymap_get(map, "matmul_ceiling");
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'matmul_ceiling' of %s", owner);
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = check_precision_keys(r, n, what);
	for (int p = 0; p < PREC_COUNT; p++) {
		int rc = yr_number_in(r, n, precision_name(p), Q_EFFICIENCY,
				      &a->matmul_ceiling[p]);
		if (rc < 0) {
			bad = 1;
			continue;
		}
		if (rc == 1 && !a->has_peak[p]) {
			yr_error(r, ymap_get(n, precision_name(p)), NULL,
				 "%s gives '%s' but 'peak_dense' has no %s peak",
				 what, precision_name(p), precision_name(p));
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

/*
 * `lacks: [fp8]`: precisions the part does not have at all (no such
 * tensor-core format), as opposed to a precision whose peak the catalog
 * could not source.  The planner says "has no fp8" only for these.
 */
static int read_lacks(struct yread *r, const struct ynode *map,
		      const char *owner, struct accelerator *a)
{
	const struct ynode *n = ymap_get(map, "lacks");
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'lacks' of %s", owner);
	if (!yr_expect_seq(r, n, what))
		return -1;
	int bad = 0;
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *item = n->items[i];
		char *name = NULL;
		if (yr_node_name(r, item, what, &name) < 0) {
			bad = 1;
			continue;
		}
		int p = precision_from_name(name);
		if (p < 0) {
			yr_error(r, item, NULL,
				 "unknown precision '%.40s' in %s: expected one of fp64, fp64_tensor, fp32, tf32, fp16, bf16, fp8, int8",
				 name, what);
			bad = 1;
		} else if (a->has_peak[p]) {
			yr_error(r, item, NULL,
				 "%s lacks %s, yet 'peak_dense' gives it a peak",
				 owner, name);
			bad = 1;
		} else {
			a->lacks[p] = true;
		}
		free(name);
	}
	return bad ? -1 : 0;
}

static const struct yfield mig_fields[] = {
	{"profile", true}, {"memory", true}, {"max_instances", true},
	{NULL, false},
};

static int read_mig(struct yread *r, const struct ynode *map,
		    const char *owner, struct accelerator *a)
{
	const struct ynode *n = ymap_get(map, "mig");
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'mig' of %s", owner);
	if (!yr_expect_seq(r, n, what))
		return -1;
	a->mig = xcalloc(n->n, sizeof(*a->mig));
	a->n_mig = n->n;
	int bad = 0;
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *m = n->items[i];
		struct mig_profile *p = &a->mig[i];
		if (!yr_expect_map(r, m, what)) {
			bad = 1;
			continue;
		}
		long count = 0;
		bad |= yr_check_keys(r, m, "a MIG profile", mig_fields);
		bad |= yr_name(r, m, "profile", &p->profile) < 0;
		bad |= yr_quantity_in(r, m, "memory", Q_MEMORY, &p->memory,
				      NULL) < 0;
		bad |= yr_int(r, m, "max_instances", 1, 64, &count) < 0;
		p->max_instances = (int)count;
		/* a slice is a share of the GPU: the planner scales the GPU's
		 * bandwidth by slice / GPU memory */
		if (a->memory > 0 && p->memory > a->memory) {
			yr_error(r, ymap_get(m, "memory"), NULL,
				 "MIG profile '%s' of %s has more memory than the whole GPU",
				 p->profile ? p->profile : "?", owner);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

static const struct yfield accelerator_fields[] = {
	{"name", true}, {"vendor", true}, {"architecture", false},
	{"form_factor", true}, {"memory", true}, {"memory_type", false},
	{"memory_bandwidth", true}, {"peak_dense", true},
	{"interconnect", true}, {"host_interface", true}, {"tdp", true},
	{"memory_reported", false}, {"sustained_fraction", false},
	{"sms", false}, {"lacks", false}, {"mig", false},
	{"matmul_ceiling", false},
	{"illustrative", false},
	{"notes", false},
	{"source", true}, {NULL, false},
};

int read_accelerator(struct yread *r, const struct ynode *n,
			    size_t index, struct accelerator *a)
{
	char what[128];
	memset(a, 0, sizeof(*a));
	a->at.line = n->line;
	a->at.col = n->col;
	if (!yr_expect_map(r, n, "an accelerator"))
		return -1;
	yr_entry_label(n, "accelerator", index, what, sizeof(what));
	int bad = yr_check_keys(r, n, what, accelerator_fields);
	bad |= yr_name(r, n, "name", &a->name) < 0;
	bad |= yr_name(r, n, "vendor", &a->vendor) < 0;
	bad |= yr_name(r, n, "architecture", &a->architecture) < 0;
	bad |= yr_name(r, n, "form_factor", &a->form_factor) < 0;
	bad |= yr_name(r, n, "memory_type", &a->memory_type) < 0;
	bad |= yr_string(r, n, "notes", &a->notes) < 0;
	bad |= yr_quantity_in(r, n, "memory", Q_MEMORY, &a->memory, NULL) < 0;
	/* optional: 0 when absent (the datasheet figure is used) */
	bad |= yr_quantity_in(r, n, "memory_reported", Q_MEMORY,
			      &a->memory_reported, NULL) < 0;
	/* optional: 0 when absent (the datasheet clock is assumed held) */
	bad |= yr_number_in(r, n, "sustained_fraction", Q_EFFICIENCY,
			    &a->sustained_fraction) < 0;
	bad |= yr_quantity_in(r, n, "memory_bandwidth", Q_BANDWIDTH,
			      &a->memory_bandwidth, NULL) < 0;
	bad |= yr_quantity_in(r, n, "tdp", Q_POWER, &a->tdp, NULL) < 0;
	bad |= yr_bool(r, n, "illustrative", &a->illustrative) < 0;
	/* optional: 0 when absent (the planner then assumes a default) */
	bad |= yr_int(r, n, "sms", 1, 1000, &a->sms) < 0;
	bad |= read_peaks(r, n, what, a) < 0;
	bad |= read_lacks(r, n, what, a) < 0;
	bad |= read_ceilings(r, n, what, a) < 0;
	bad |= read_link(r, n, "interconnect", what, &a->interconnect) < 0;
	bad |= read_link(r, n, "host_interface", what, &a->host_interface) < 0;
	bad |= read_mig(r, n, what, a) < 0;
	bad |= read_sources(r, n, what, &a->sources) < 0;
	bad |= check_source_publishers(r, n, what) < 0;
	return bad ? -1 : 0;
}

void free_accelerator(struct accelerator *a)
{
	free(a->name);
	free(a->vendor);
	free(a->architecture);
	free(a->form_factor);
	free(a->memory_type);
	free(a->notes);
	for (size_t i = 0; i < a->n_mig; i++)
		free(a->mig[i].profile);
	free(a->mig);
	free_sources(&a->sources);
}

/*
 * fuzz_plan.c - a plan (gpuplan/plan/v1 JSON, as `plan --format json`
 * writes it), read as `report` reads it, then walked as the report walks
 * it (every option, the recommendation's indexes, the accelerators'
 * datasheet figures, the price dates).
 *
 * The reader reports through a `why` string, not a problem list: a
 * refusal must say why, naming the file first, and say it the same way
 * twice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "report/plan_load.h"
#include "report/report_data.h"

/* Touches every figure the report reads, and looks each name up as the
 * report does, so ASan sees any read past what the loader sized; returns
 * a sum so none of it is optimised away. */
static double walk(const struct r_plan *p)
{
	double sum = r_plan_assumption(p, "compute_efficiency", 0);
	const char *a, *b;
	r_plan_price_dates(p, &a, &b);
	sum += (double)strlen(a) + (double)strlen(b);
	for (size_t i = 0; i < p->n; i++) {
		const struct r_workload *w = &p->w[i];
		if (w->recommended >= (long)w->n || w->runner_up >= (long)w->n ||
		    w->obvious >= (long)w->n)
			fuzz_fail("r_plan_load", "workload %zu: an index past its %zu options",
				  i, w->n);
		for (size_t k = 0; k < w->n; k++) {
			const struct r_option *o = &w->v[k];
			sum += o->time_s + o->cost + o->memory + o->breakdown[3];
			if (!o->accelerator || !o->instance)
				continue;
			const struct r_accelerator *acc = r_plan_accelerator(p, o->accelerator);
			if (acc)
				sum += acc->bandwidth + (double)strlen(acc->source.url);
			const struct r_instance *inst = r_plan_instance(p, o->instance);
			if (inst)
				sum += (double)strlen(inst->name);
			sum += (double)r_plan_accelerator_rank(p, o->accelerator);
		}
		for (size_t k = 0; k < w->n_classes; k++)
			sum += w->classes[k].flops;
		for (size_t k = 0; k < w->n_curves; k++) {
			const struct r_load_curve *c = &w->curves[k];
			if (r_workload_curve(w, c->option) != c || c->n < 1 ||
			    c->n > R_CURVE_MAX_POINTS)
				fuzz_fail("r_plan_load", "workload %zu: curve %zu unfound or of %zu points",
					  i, k, c->n);
			for (size_t j = 0; j < c->n; j++)
				sum += c->pt[j].rate + c->pt[j].tpot_p99;
		}
	}
	return sum;
}

static int load(const char *path, char *why, size_t len)
{
	struct r_plan p;
	why[0] = '\0';
	int rc = r_plan_load(&p, path, why, len);
	if (rc == 0)
		(void)walk(&p);
	r_plan_free(&p);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files f;
	fuzz_write_file(data, size, "plan.json", &f);
	char why1[1024], why2[1024];
	int rc1 = load(f.path[0], why1, sizeof(why1));
	int rc2 = load(f.path[0], why2, sizeof(why2));
	if (rc1 != 0 && rc1 != -1)
		fuzz_fail("r_plan_load", "returned %d (not 0 or -1)", rc1);
	if (getenv("FUZZ_VERBOSE"))	/* what each input gave, for people */
		fprintf(stderr, "r_plan_load: %s\n%s\n", rc1 == 0 ? "loaded" : "refused",
			rc1 == 0 ? "" : why1);
	size_t n = strlen(f.path[0]);
	if (rc1 != 0 && (strncmp(why1, f.path[0], n) != 0 || why1[n] != ':'))
		fuzz_fail("r_plan_load", "refused without naming the file first: '%s'",
			  why1);
	if (rc1 != rc2 || (rc1 != 0 && strcmp(why1, why2) != 0))
		fuzz_fail("r_plan_load", "the same input read twice differs: '%s' then '%s'",
			  why1, why2);
	return 0;
}

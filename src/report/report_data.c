/*
 * report_data.c - a loaded plan's lookups, and its freeing; see
 * report_data.h.  Plans are read by plan_load.h.
 */
#include "report_data.h"

#include <stdlib.h>
#include <string.h>

#include "plan_strings.h"

int by_instance_name(const void *a, const void *b)
{
	return strcmp(((const struct r_instance *)a)->name,
		      ((const struct r_instance *)b)->name);
}

int by_accelerator_name(const void *a, const void *b)
{
	return strcmp(((const struct r_accelerator *)a)->name,
		      ((const struct r_accelerator *)b)->name);
}

void r_plan_free(struct r_plan *p)
{
	for (size_t i = 0; p->w && i < p->n; i++) {
		free(p->w[i].v);
		for (size_t k = 0; k < p->w[i].n_curves; k++)
			free(p->w[i].curves[k].pt);
		free(p->w[i].curves);
	}
	free(p->w);
	free(p->acc);
	free(p->inst);
	free(p->assumptions);
	r_strings_free(p->strings);
	memset(p, 0, sizeof(*p));
}

/* ---- lookups --------------------------------------------------------------- */

const struct r_accelerator *r_plan_accelerator(const struct r_plan *p,
					       const char *name)
{
	struct r_accelerator key = {.name = name};
	if (!p->n_acc || !name)
		return NULL;
	return bsearch(&key, p->acc, p->n_acc, sizeof(*p->acc), by_accelerator_name);
}

const struct r_instance *r_plan_instance(const struct r_plan *p,
					 const char *name)
{
	struct r_instance key = {.name = name};
	if (!p->n_inst || !name)
		return NULL;
	return bsearch(&key, p->inst, p->n_inst, sizeof(*p->inst), by_instance_name);
}

size_t r_plan_accelerator_rank(const struct r_plan *p, const char *name)
{
	size_t lo = 0, hi = p->n_acc;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(p->acc[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct r_load_curve *r_workload_curve(const struct r_workload *w,
					    long option)
{
	size_t lo = 0, hi = w->n_curves;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (w->curves[mid].option == option)
			return &w->curves[mid];
		if (w->curves[mid].option < option)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

double r_plan_assumption(const struct r_plan *p, const char *key, double dflt)
{
	for (size_t i = 0; i < p->n_assumptions; i++)
		if (!strcmp(p->assumptions[i].key, key))
			return p->assumptions[i].has_value ? p->assumptions[i].value
							   : dflt;
	return dflt;
}

void r_plan_price_dates(const struct r_plan *p, const char **earliest,
			const char **latest)
{
	const char *lo = NULL, *hi = NULL;
	for (size_t i = 0; i < p->n_inst; i++) {
		const char *d = p->inst[i].price_as_of;
		if (d && (!lo || strcmp(d, lo) < 0))
			lo = d;
		if (d && (!hi || strcmp(d, hi) > 0))
			hi = d;
	}
	*earliest = lo ? lo : "?";
	*latest = hi ? hi : "?";
}

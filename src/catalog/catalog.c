/*
 * catalog.c - the catalog's own names and lookups, below its readers:
 * link kinds by name, accelerators by name, the cost of owning an
 * instance, and money converted with the exchange rates (in the order
 * read_rates.c sorts them); see catalog.h.
 */
#include "catalog.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const link_names[] = {"none", "pcie", "nvlink",
					 "nvswitch"};

const char *link_kind_name(enum link_kind k)
{
	return link_names[k];
}

const struct accelerator *catalog_find_accelerator(const struct catalog *c,
						   const char *name)
{
	for (size_t i = 0; i < c->n_acc; i++)
		if (c->acc[i].name && strcasecmp(c->acc[i].name, name) == 0)
			return &c->acc[i];
	return NULL;
}

double accelerator_memory_capacity(const struct accelerator *a)
{
	return a->memory_reported > 0 ? a->memory_reported : a->memory;
}

double accelerator_sustained_peak(const struct accelerator *a,
				  enum precision p)
{
	if (!a->has_peak[p])
		return 0;
	/* the fraction is measured under tensor-core load; the plain fp32
	 * and fp64 units draw other power, and no source measures them */
	bool tensor = p != PREC_FP32 && p != PREC_FP64;
	double held = tensor && a->sustained_fraction > 0
			      ? a->sustained_fraction
			      : 1;
	return a->peak[p] * held;
}

struct money catalog_owning_cost_per_hour(const struct instance *inst)
{
	const struct purchase *p = &inst->purchase;
	double hours = p->lifetime / 3600.0;
	double it_watts = inst->gpus * inst->acc->tdp + p->host_power;
	double kwh_per_hour = it_watts * p->pue / 1000.0;
	struct money m = {
		.amount = p->price.amount / hours +
			  kwh_per_hour * p->power_price.amount,
		.per = MONEY_PER_HOUR,
	};
	memcpy(m.currency, p->price.currency, sizeof(m.currency));
	return m;
}

int rate_by_code(const void *a, const void *b)
{
	return strcmp(((const struct rate *)a)->code,
		      ((const struct rate *)b)->code);
}

/* Units of `code` per one unit of the base currency; 0 when unknown.
 * A binary search: every price of a large catalog is converted. */
static double per_base(const struct exchange_rates *fx, const char *code)
{
	if (strcmp(code, fx->base) == 0)
		return 1;
	struct rate key;
	snprintf(key.code, sizeof(key.code), "%s", code);
	const struct rate *r = fx->sorted
		? bsearch(&key, fx->sorted, fx->n, sizeof(*fx->sorted),
			  rate_by_code)
		: NULL;
	return r ? r->per_base : 0;
}

int catalog_convert_at(const struct catalog *c, const struct money *m,
		       const char *to, const struct origin *at,
		       const char *what, struct money *out, char *why,
		       size_t len)
{
	char inner[384];
	if (catalog_convert(c, m, to, out, inner, sizeof(inner)) == 0)
		return 0;
	if (at && at->file)
		snprintf(why, len, "%s:%d:%d: %s in %s: %s", at->file, at->line,
			 at->col > 0 ? at->col : 1, what, m->currency, inner);
	else
		snprintf(why, len, "%s in %s: %s", what, m->currency, inner);
	return -1;
}

int catalog_convert(const struct catalog *c, const struct money *m,
		    const char *to, struct money *out, char *why, size_t len)
{
	*out = *m;
	if (strcmp(m->currency, to) == 0)
		return 0;
	if (!c->fx.present) {
		snprintf(why, len, "no exchange rates loaded to convert %s to %s",
			 m->currency, to);
		return -1;
	}
	double from_rate = per_base(&c->fx, m->currency);
	double to_rate = per_base(&c->fx, to);
	if (from_rate == 0 || to_rate == 0) {
		snprintf(why, len, "no exchange rate for %s in %s (rates of %s)",
			 from_rate == 0 ? m->currency : to, c->fx.at.file,
			 c->fx.as_of);
		return -1;
	}
	out->amount = m->amount / from_rate * to_rate;
	memcpy(out->currency, to, 4);
	return 0;
}

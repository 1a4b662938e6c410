/*
 * read_rates.c - the `exchange_rates:` section.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_read.h"
#include "core/suggest.h"
#include "core/xalloc.h"

static const struct yfield fx_fields[] = {
	{"base", true}, {"as_of", true}, {"source", true}, {"rates", true},
	{NULL, false},
};

static int read_rates(struct yread *r, const struct ynode *n,
		      struct exchange_rates *fx)
{
	if (!yr_expect_map(r, n, "'rates'"))
		return -1;
	fx->v = xcalloc(n->n, sizeof(*fx->v));
	int bad = 0;
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *k = n->items[2 * i];
		if (!currency_code_valid(k->text)) {
			yr_error(r, k, NULL,
				 "'%.40s' is not a currency code: expected three capital letters like CNY",
				 k->text);
			bad = 1;
			continue;
		}
		double v;
		/* the value beside its key: a lookup by key per rate would
		 * make a long rates table quadratic */
		if (yr_node_number_in(r, n->items[2 * i + 1], k->text,
				      Q_EXCHANGE_RATE, &v) < 0) {
			bad = 1;
			continue;
		}
		memcpy(fx->v[fx->n].code, k->text, 4);
		fx->v[fx->n++].per_base = v;
	}
	fx->sorted = xcalloc(fx->n + 1, sizeof(*fx->sorted));
	memcpy(fx->sorted, fx->v, fx->n * sizeof(*fx->v));
	qsort(fx->sorted, fx->n, sizeof(*fx->sorted), rate_by_code);
	return bad ? -1 : 0;
}

int read_fx(struct yread *r, const struct ynode *n,
		   struct exchange_rates *fx)
{
	if (!yr_expect_map(r, n, "'exchange_rates'"))
		return -1;
	fx->present = true;
	fx->at.line = n->line;
	int bad = yr_check_keys(r, n, "'exchange_rates'", fx_fields);
	char *base = NULL;
	int rc = yr_name(r, n, "base", &base);
	if (rc == 1 && !currency_code_valid(base)) {
		yr_error(r, ymap_get(n, "base"), NULL,
			 "'base' expects a currency code like USD, found '%.40s'",
			 base);
		bad = 1;
	} else if (rc == 1)
		memcpy(fx->base, base, 4);
	free(base);
	bad |= rc < 0;
	bad |= yr_date(r, n, "as_of", &fx->as_of) < 0;
	bad |= read_sources(r, n, "'exchange_rates'", &fx->sources) < 0;
	bad |= check_source_publishers(r, n, "'exchange_rates'") < 0;
	const struct ynode *rates = ymap_get(n, "rates");
	if (rates)
		bad |= read_rates(r, rates, fx) < 0;
	return bad ? -1 : 0;
}

void free_fx(struct exchange_rates *fx)
{
	free(fx->as_of);
	free(fx->v);
	free(fx->sorted);
	free_sources(&fx->sources);
	memset(fx, 0, sizeof(*fx));
}

/*
 * read_instance.c - one `instances:` entry: a machine you rent or own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_read.h"
#include "core/suggest.h"
#include "core/xalloc.h"

static const struct yfield intra_fields[] = {
	{"kind", true}, {"bandwidth", false}, {NULL, false},
};

static int read_intra(struct yread *r, const struct ynode *map,
		      const char *owner, struct link *l)
{
	const struct ynode *n = ymap_get(map, "intra_node_link");
	memset(l, 0, sizeof(*l));
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'intra_node_link' of %s", owner);
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = yr_check_keys(r, n, what, intra_fields);
	bad |= read_link_kind(r, n, what, true, &l->kind) < 0;
	int has_bw = yr_quantity_in(r, n, "bandwidth", Q_BANDWIDTH,
				    &l->bandwidth, NULL);
	bad |= has_bw < 0;
	if (!bad && l->kind != LINK_NONE && has_bw == 0) {
		yr_error(r, n, NULL, "%s needs a 'bandwidth'", what);
		bad = 1;
	}
	if (!bad && l->kind == LINK_NONE && has_bw == 1) {
		yr_error(r, ymap_get(n, "bandwidth"), NULL,
			 "%s is 'none' and takes no bandwidth", what);
		bad = 1;
	}
	return bad ? -1 : 0;
}

static const struct yfield network_fields[] = {
	{"bandwidth", true}, {"rdma", true}, {"nics", false},
	{"gpudirect", false}, {"name", false}, {NULL, false},
};

/* `nics` (1..64, default 1) and `gpudirect` (default false; GPUDirect RDMA
 * is RDMA, so it needs `rdma: true`). */
static int read_nics_gpudirect(struct yread *r, const struct ynode *n,
			       const char *what, struct instance *in)
{
	long nics = 1;
	int bad = yr_int(r, n, "nics", 1, 64, &nics) < 0;
	in->network_nics = (int)nics;
	bad |= yr_bool(r, n, "gpudirect", &in->network_gpudirect) < 0;
	if (!bad && in->network_gpudirect && !in->network_rdma) {
		yr_error(r, ymap_get(n, "gpudirect"), NULL,
			 "%s has 'gpudirect: true' without 'rdma: true': GPUDirect RDMA needs RDMA",
			 what);
		bad = 1;
	}
	return bad ? -1 : 0;
}

static int read_network(struct yread *r, const struct ynode *map,
			const char *owner, struct instance *in)
{
	const struct ynode *n = ymap_get(map, "network");
	in->network_nics = 1;
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'network' of %s", owner);
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = yr_check_keys(r, n, what, network_fields);
	bad |= yr_quantity_in(r, n, "bandwidth", Q_BANDWIDTH,
			      &in->network_bandwidth, NULL) < 0;
	int rdma_bad = yr_bool(r, n, "rdma", &in->network_rdma) < 0;
	bad |= rdma_bad;
	if (rdma_bad)
		in->network_rdma = true;	/* no second error on gpudirect */
	bad |= read_nics_gpudirect(r, n, what, in) < 0;
	bad |= yr_name(r, n, "name", &in->network_name) < 0;
	return bad ? -1 : 0;
}

static const struct yfield price_fields[] = {
	{"on_demand", true}, {"spot", false}, {"spot_as_of", false},
	{NULL, false},
};

/* Spot prices move daily: one without the date it was read is refused,
 * as is a date without a spot price. */
static int read_spot_date(struct yread *r, const struct ynode *n,
			  const char *what, struct instance *in)
{
	int rc = yr_date(r, n, "spot_as_of", &in->spot_as_of);
	if (rc < 0)
		return -1;
	if (in->has_spot && rc == 0) {
		yr_error(r, ymap_get(n, "spot"),
			 "add 'spot_as_of: YYYY-MM-DD', the date the spot price was read",
			 "%s has a spot price without 'spot_as_of'", what);
		return -1;
	}
	if (!in->has_spot && rc == 1) {
		yr_error(r, ymap_get(n, "spot_as_of"), NULL,
			 "%s has 'spot_as_of' but no 'spot' price", what);
		return -1;
	}
	return 0;
}

static int read_price(struct yread *r, const struct ynode *map,
		      const char *owner, struct instance *in)
{
	const struct ynode *n = ymap_get(map, "price");
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'price' of %s", owner);
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = yr_check_keys(r, n, what, price_fields);
	bad |= yr_money_in(r, n, "on_demand", MONEY_PER_HOUR,
			   Q_PRICE_PER_HOUR, &in->on_demand) < 0;
	int spot = yr_money_in(r, n, "spot", MONEY_PER_HOUR, Q_PRICE_PER_HOUR,
			       &in->spot);
	bad |= spot < 0;
	in->has_spot = spot == 1;
	if (spot >= 0)
		bad |= read_spot_date(r, n, what, in) < 0;
	if (!bad && in->has_spot &&
	    strcmp(in->spot.currency, in->on_demand.currency) != 0) {
		yr_error(r, ymap_get(n, "spot"), NULL,
			 "spot price is in %s but on-demand is in %s: use one currency per instance",
			 in->spot.currency, in->on_demand.currency);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* Facility power over IT power: below 1 is a contradiction, said as
 * such; above the range a typo. */
static int read_pue(struct yread *r, const struct ynode *map, double *pue)
{
	double v;
	int rc = yr_positive(r, map, "pue", &v);
	if (rc <= 0)
		return rc;
	if (v < 1) {
		yr_error(r, ymap_get(map, "pue"), NULL,
			 "'pue' is facility power over IT power and cannot be below 1, found %g",
			 v);
		return -1;
	}
	return yr_number_in(r, map, "pue", Q_PUE, pue);
}

static const struct yfield purchase_fields[] = {
	{"price", true}, {"lifetime", true}, {"power_price", true},
	{"pue", true}, {"host_power", false}, {NULL, false},
};

static int read_purchase(struct yread *r, const struct ynode *map,
			 const char *owner, struct instance *in)
{
	const struct ynode *n = ymap_get(map, "purchase");
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'purchase' of %s", owner);
	if (!yr_expect_map(r, n, what))
		return -1;
	struct purchase *p = &in->purchase;
	in->owned = true;
	int bad = yr_check_keys(r, n, what, purchase_fields);
	bad |= yr_money_in(r, n, "price", MONEY_TOTAL, Q_PURCHASE_PRICE,
			   &p->price) < 0;
	bad |= yr_quantity_in(r, n, "lifetime", Q_LIFETIME, &p->lifetime,
			      NULL) < 0;
	bad |= yr_money_in(r, n, "power_price", MONEY_PER_KWH, Q_POWER_PRICE,
			   &p->power_price) < 0;
	bad |= read_pue(r, n, &p->pue) < 0;
	bad |= yr_quantity_in(r, n, "host_power", Q_POWER, &p->host_power,
			      NULL) < 0;
	if (!bad && strcmp(p->price.currency, p->power_price.currency) != 0) {
		yr_error(r, ymap_get(n, "power_price"), NULL,
			 "power price is in %s but the purchase price is in %s: use one currency",
			 p->power_price.currency, p->price.currency);
		bad = 1;
	}
	return bad ? -1 : 0;
}

static const struct yfield instance_fields[] = {
	{"name", true}, {"provider", true}, {"region", true},
	{"accelerator", true}, {"gpus", true}, {"vcpus", true},
	{"memory", true}, {"intra_node_link", true}, {"network", true},
	{"price", false}, {"purchase", false}, {"illustrative", false},
	{"notes", false}, {"source", true}, {"as_of", true}, {NULL, false},
};

static int check_price_or_purchase(struct yread *r, const struct ynode *n,
				   const char *what)
{
	bool price = ymap_get(n, "price"), purchase = ymap_get(n, "purchase");
	if (price && purchase) {
		yr_error(r, ymap_get(n, "purchase"), NULL,
			 "%s has both 'price' and 'purchase': rented or owned, not both",
			 what);
		return -1;
	}
	if (!price && !purchase) {
		yr_error(r, n, NULL,
			 "missing required key 'price' in %s (or 'purchase' for an owned machine)",
			 what);
		return -1;
	}
	return 0;
}

int read_instance(struct yread *r, const struct ynode *n, size_t index,
			 struct instance *in)
{
	char what[128];
	memset(in, 0, sizeof(*in));
	in->at.line = n->line;
	in->at.col = n->col;
	if (!yr_expect_map(r, n, "an instance"))
		return -1;
	yr_entry_label(n, "instance", index, what, sizeof(what));
	long gpus = 0, vcpus = 0;
	int bad = yr_check_keys(r, n, what, instance_fields);
	bad |= yr_name(r, n, "name", &in->name) < 0;
	bad |= yr_name(r, n, "provider", &in->provider) < 0;
	bad |= yr_name(r, n, "region", &in->region) < 0;
	bad |= yr_name(r, n, "accelerator", &in->accelerator_name) < 0;
	const struct ynode *acc_node = ymap_get(n, "accelerator");
	if (acc_node) {
		in->accelerator_at.line = acc_node->line;
		in->accelerator_at.col = acc_node->col;
	}
	bad |= yr_string(r, n, "notes", &in->notes) < 0;
	bad |= yr_int(r, n, "gpus", 1, 1024, &gpus) < 0;
	bad |= yr_int(r, n, "vcpus", 1, 100000, &vcpus) < 0;
	bad |= yr_quantity_in(r, n, "memory", Q_MEMORY, &in->memory, NULL) < 0;
	bad |= yr_bool(r, n, "illustrative", &in->illustrative) < 0;
	bad |= yr_date(r, n, "as_of", &in->as_of) < 0;
	bad |= read_intra(r, n, what, &in->intra) < 0;
	bad |= read_network(r, n, what, in) < 0;
	bad |= check_price_or_purchase(r, n, what) < 0;
	bad |= read_price(r, n, what, in) < 0;
	bad |= read_purchase(r, n, what, in) < 0;
	bad |= read_sources(r, n, what, &in->sources) < 0;
	bad |= check_source_publishers(r, n, what) < 0;
	in->gpus = (int)gpus;
	in->vcpus = (int)vcpus;
	if (!bad && in->gpus > 1 && in->intra.kind == LINK_NONE) {
		yr_error(r, ymap_get(n, "intra_node_link"), NULL,
			 "%s has %d GPUs, so its intra_node_link cannot be 'none'",
			 what, in->gpus);
		bad = 1;
	}
	return bad ? -1 : 0;
}

void free_instance(struct instance *in)
{
	free(in->name);
	free(in->provider);
	free(in->region);
	free(in->notes);
	free(in->as_of);
	free(in->label);
	free(in->shown);
	free(in->spot_as_of);
	free(in->accelerator_name);
	free(in->network_name);
	free_sources(&in->sources);
}

/*
 * An instance described somewhere else than a catalog (an outcome
 * record's inline hardware): its `intra_node_link:` and `network:` read
 * exactly as an instance's.
 */
int read_instance_links(struct yread *r, const struct ynode *map,
			const char *owner, struct instance *in)
{
	int bad = read_intra(r, map, owner, &in->intra) < 0;
	bad |= read_network(r, map, owner, in) < 0;
	return bad ? -1 : 0;
}

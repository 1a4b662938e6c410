#include "catalog_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/output.h"

static json_t *origin_to_json(const struct origin *o)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s:%d", o->file ? o->file : "?", o->line);
	return json_text(buf);
}

json_t *money_to_json(const struct money *m)
{
	json_t *j = json_object();
	json_object_set_new(j, "amount", json_number(m->amount));
	json_object_set_new(j, "currency", json_text(m->currency));
	json_object_set_new(j, "per", json_text(m->per == MONEY_TOTAL
							  ? "total"
							  : money_per_suffix(m->per) + 1));
	return j;
}

static json_t *link_to_json(const struct link *l)
{
	json_t *j = json_object();
	json_object_set_new(j, "kind", json_text(link_kind_name(l->kind)));
	if (l->generation)
		json_object_set_new(j, "generation",
				    json_integer(l->generation));
	if (l->lanes)
		json_object_set_new(j, "lanes", json_integer(l->lanes));
	if (l->kind != LINK_NONE)
		json_object_set_new(j, "bandwidth_bytes_per_s",
				    json_number(l->bandwidth));
	return j;
}

static json_t *peaks_to_json(const struct accelerator *a)
{
	json_t *j = json_object();
	for (int p = 0; p < PREC_COUNT; p++)
		if (a->has_peak[p])
			json_object_set_new(j, precision_name(p),
					    json_number(a->peak[p]));
	return j;
}

static json_t *mig_to_json(const struct accelerator *a)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < a->n_mig; i++) {
		json_t *m = json_object();
		json_object_set_new(m, "profile",
				    json_text(a->mig[i].profile));
		json_object_set_new(m, "memory_bytes",
				    json_number(a->mig[i].memory));
		json_object_set_new(m, "max_instances",
				    json_integer(a->mig[i].max_instances));
		json_array_append_new(arr, m);
	}
	return arr;
}

json_t *accelerator_to_json(const struct accelerator *a)
{
	json_t *j = json_object();
	json_object_set_new(j, "name", json_text(a->name));
	json_object_set_new(j, "vendor", json_text(a->vendor));
	json_object_set_new(j, "architecture",
			    json_string_or_null(a->architecture));
	json_object_set_new(j, "form_factor", json_text(a->form_factor));
	json_object_set_new(j, "memory_bytes", json_number(a->memory));
	json_object_set_new(j, "memory_reported_bytes",
			    a->memory_reported > 0
				    ? json_number(a->memory_reported)
				    : json_null());
	json_object_set_new(j, "sustained_fraction",
			    a->sustained_fraction > 0
				    ? json_number(a->sustained_fraction)
				    : json_null());
	json_object_set_new(j, "memory_type",
			    json_string_or_null(a->memory_type));
	json_object_set_new(j, "memory_bandwidth_bytes_per_s",
			    json_number(a->memory_bandwidth));
	json_object_set_new(j, "peak_dense_ops_per_s", peaks_to_json(a));
	json_object_set_new(j, "interconnect", link_to_json(&a->interconnect));
	json_object_set_new(j, "host_interface",
			    link_to_json(&a->host_interface));
	json_object_set_new(j, "tdp_watts", json_number(a->tdp));
	json_object_set_new(j, "mig", mig_to_json(a));
	json_object_set_new(j, "illustrative", json_boolean(a->illustrative));
	json_object_set_new(j, "notes", json_string_or_null(a->notes));
	json_object_set_new(j, "source", sources_to_json(&a->sources));
	json_object_set_new(j, "defined_at", origin_to_json(&a->at));
	return j;
}

static json_t *purchase_to_json(const struct purchase *p)
{
	json_t *j = json_object();
	json_object_set_new(j, "price", money_to_json(&p->price));
	json_object_set_new(j, "lifetime_s", json_number(p->lifetime));
	json_object_set_new(j, "power_price", money_to_json(&p->power_price));
	json_object_set_new(j, "pue", json_number(p->pue));
	json_object_set_new(j, "host_power_watts", json_number(p->host_power));
	return j;
}

static json_t *price_to_json(const struct instance *in,
			     const struct money *on_demand,
			     const struct money *spot)
{
	json_t *j = json_object();
	json_object_set_new(j, "currency", json_text(on_demand->currency));
	json_object_set_new(j, "on_demand_per_hour",
			    json_number(on_demand->amount));
	json_object_set_new(j, "on_demand_per_gpu_hour",
			    json_number(on_demand->amount / in->gpus));
	json_object_set_new(j, "spot_per_hour",
			    spot ? json_number(spot->amount) : json_null());
	json_object_set_new(j, "spot_as_of", spot && in->spot_as_of
				? json_text(in->spot_as_of) : json_null());
	json_object_set_new(j, "derived_from_purchase", json_boolean(in->owned));
	return j;
}

static json_t *network_to_json(const struct instance *in)
{
	json_t *j = json_object();
	json_object_set_new(j, "bandwidth_bytes_per_s",
			    json_number(in->network_bandwidth));
	json_object_set_new(j, "rdma", json_boolean(in->network_rdma));
	json_object_set_new(j, "nics", json_integer(in->network_nics));
	json_object_set_new(j, "gpudirect",
			    json_boolean(in->network_gpudirect));
	json_object_set_new(j, "name", json_string_or_null(in->network_name));
	return j;
}

/* Fills the price fields, converted to `currency` when asked. */
static int set_prices(json_t *j, const struct catalog *c,
		      const struct instance *in, const char *currency,
		      char *why, size_t len)
{
	struct money od = in->on_demand, sp = in->spot;
	if (currency) {
		char what[320];
		snprintf(what, sizeof(what), "instance '%s' is priced", in->name);
		if (catalog_convert_at(c, &in->on_demand, currency, &in->at,
				       what, &od, why, len) < 0)
			return -1;
		if (in->has_spot &&
		    catalog_convert_at(c, &in->spot, currency, &in->at, what,
				       &sp, why, len) < 0)
			return -1;
	}
	json_object_set_new(j, "price",
			    price_to_json(in, &od, in->has_spot ? &sp : NULL));
	if (currency && strcmp(currency, in->on_demand.currency) != 0)
		json_object_set_new(j, "price_original",
				    price_to_json(in, &in->on_demand,
						  in->has_spot ? &in->spot
							       : NULL));
	return 0;
}

json_t *instance_to_json(const struct catalog *c, const struct instance *in,
			 const char *currency, char *why, size_t len)
{
	json_t *j = json_object();
	json_object_set_new(j, "name", json_text(in->name));
	json_object_set_new(j, "provider", json_text(in->provider));
	json_object_set_new(j, "region", json_text(in->region));
	json_object_set_new(j, "label", json_text(in->label));
	json_object_set_new(j, "gpus", json_integer(in->gpus));
	json_object_set_new(j, "vcpus", json_integer(in->vcpus));
	json_object_set_new(j, "memory_bytes", json_number(in->memory));
	json_object_set_new(j, "intra_node_link", link_to_json(&in->intra));
	json_object_set_new(j, "network", network_to_json(in));
	if (set_prices(j, c, in, currency, why, len) < 0) {
		json_decref(j);
		return NULL;
	}
	if (in->owned)
		json_object_set_new(j, "purchase",
				    purchase_to_json(&in->purchase));
	json_object_set_new(j, "illustrative", json_boolean(in->illustrative));
	json_object_set_new(j, "notes", json_string_or_null(in->notes));
	json_object_set_new(j, "as_of", json_text(in->as_of));
	json_object_set_new(j, "source", sources_to_json(&in->sources));
	json_object_set_new(j, "defined_at", origin_to_json(&in->at));
	json_object_set_new(j, "accelerator", accelerator_to_json(in->acc));
	return j;
}

json_t *exchange_rates_to_json(const struct exchange_rates *fx)
{
	json_t *j = json_object();
	json_object_set_new(j, "base", json_text(fx->base));
	json_object_set_new(j, "as_of", json_text(fx->as_of));
	json_t *rates = json_object();
	for (size_t i = 0; i < fx->n; i++)
		json_object_set_new(rates, fx->v[i].code,
				    json_number(fx->v[i].per_base));
	json_object_set_new(j, "rates", rates);
	json_object_set_new(j, "source", sources_to_json(&fx->sources));
	json_object_set_new(j, "defined_at", origin_to_json(&fx->at));
	return j;
}

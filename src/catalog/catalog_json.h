/*
 * catalog_json.h - catalog entries as JSON, the form later stages read.
 *
 * Keys name their unit (memory_bytes, memory_bandwidth_bytes_per_s,
 * peak_dense_ops_per_s, tdp_watts); money is {amount, currency, per}.
 * Every entry carries its sources and "defined_at" (file:line), so a figure
 * can be traced to where it was typed and where it was read.
 * Ownership: each function returns a new reference the caller releases with
 * json_decref().
 */
#ifndef GPUPLAN_CATALOG_CATALOG_JSON_H
#define GPUPLAN_CATALOG_CATALOG_JSON_H

#include <jansson.h>

#include "catalog.h"
#include "core/output.h"

json_t *money_to_json(const struct money *m);
json_t *accelerator_to_json(const struct accelerator *a);

/* The instance with its accelerator inlined.  When `currency` is not NULL
 * prices are converted to it (the original stays under "price_original");
 * returns NULL with a reason in why when a rate is missing. */
json_t *instance_to_json(const struct catalog *c, const struct instance *in,
			 const char *currency, char *why, size_t len);

json_t *exchange_rates_to_json(const struct exchange_rates *fx);

#endif

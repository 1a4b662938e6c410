/*
 * catalog_read.h - the readers of catalog entries, shared inside
 * src/catalog/ only.
 *
 * Each reader follows yaml_read.h's convention: it checks its mapping's keys,
 * reads every field, records each problem in r->errs and returns -1 if there
 * was any, 0 otherwise.  The struct it fills owns its strings; free it with
 * the matching free_*() even after a failed read.
 */
#ifndef GPUPLAN_CATALOG_CATALOG_READ_H
#define GPUPLAN_CATALOG_CATALOG_READ_H

#include "catalog.h"
#include "core/yaml_read.h"

/* `kind:` of a link; nvswitch is allowed inside instances only. */
int read_link_kind(struct yread *r, const struct ynode *map, const char *what,
		   bool allow_nvswitch, enum link_kind *out);
/* An accelerator's `interconnect:` or `host_interface:`. */
int read_link(struct yread *r, const struct ynode *map, const char *key,
	      const char *owner, struct link *l);

int read_accelerator(struct yread *r, const struct ynode *n, size_t index,
		     struct accelerator *a);
void free_accelerator(struct accelerator *a);

int read_instance(struct yread *r, const struct ynode *n, size_t index,
		  struct instance *in);
void free_instance(struct instance *in);

/* `intra_node_link:` and `network:` of map into in, as read_instance()
 * reads them: for an instance described outside a catalog (an outcome's
 * inline hardware, src/backtest/outcome.c, the one user outside
 * src/catalog/). */
int read_instance_links(struct yread *r, const struct ynode *map,
			const char *owner, struct instance *in);

/* Every source of map's `source:` whose title names a publisher its URL
 * is not on (source_publisher.h), reported at the URL. */
int check_source_publishers(struct yread *r, const struct ynode *map,
			    const char *owner);

int read_fx(struct yread *r, const struct ynode *n, struct exchange_rates *fx);
void free_fx(struct exchange_rates *fx);

#endif

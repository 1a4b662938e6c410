/*
 * catalog_filter.h - the options that choose instances, shared by
 * `plan` and `catalog list`: lists of names given as repeatable options,
 * each a comma list (--instance a,b --instance c), and --region and
 * --provider as an instance_filter (catalog/instance_key.h).
 *
 * Ownership: a struct name_list owns its copies of the names; free with
 * name_list_free().  The filter borrows the lists' arrays.
 */
#ifndef GPUPLAN_CLI_CATALOG_FILTER_H
#define GPUPLAN_CLI_CATALOG_FILTER_H

#include <stddef.h>

#include "catalog/instance_key.h"
#include "options.h"

struct name_list {
	char *buf;		/* the names, NUL-separated */
	const char **v;		/* into buf */
	size_t n;
};

void name_list_free(struct name_list *l);

/* Option `key` of spec (OPT_LIST) into l, split at commas; an empty item
 * is a usage error ("--KEY expects WHAT, found ','").  0 or
 * OPTS_USAGE_ERROR. */
int cli_name_list(const struct parsed *p, const struct cmd_spec *spec,
		  const char *key, const char *what, struct name_list *l);

/* --region and --provider of spec into f (their lists in regions and
 * providers), each value checked against c: an unknown one is a usage
 * error with a did-you-mean.  0 or OPTS_USAGE_ERROR. */
int cli_instance_filter(const struct parsed *p, const struct cmd_spec *spec,
			const struct catalog *c, struct name_list *regions,
			struct name_list *providers,
			struct instance_filter *f);

#endif

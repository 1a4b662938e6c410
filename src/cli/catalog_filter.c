/*
 * catalog_filter.c - comma lists of names and --region/--provider; see
 * catalog_filter.h.
 */
#include "catalog_filter.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

void name_list_free(struct name_list *l)
{
	free(l->buf);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int cli_name_list(const struct parsed *p, const struct cmd_spec *spec,
		  const char *key, const char *what, struct name_list *l)
{
	const struct opt_result *r = opt_find(p, spec, key);
	size_t len = 1, most = 1;
	memset(l, 0, sizeof(*l));
	if (!r || !r->set)
		return 0;
	for (size_t i = 0; i < r->nlist; i++) {
		len += strlen(r->list[i]) + 1;
		for (const char *c = r->list[i]; *c; c++)
			most += *c == ',';
		most++;
	}
	char *b = l->buf = xcalloc(len, 1);
	l->v = xcalloc(most, sizeof(*l->v));
	for (size_t i = 0; i < r->nlist; i++) {
		strcpy(b, r->list[i]);
		char *item = b;
		b += strlen(b) + 1;
		for (;;) {
			char *comma = strchr(item, ',');
			if (comma)
				*comma = '\0';
			if (!item[0])
				return usage_error(spec, "--%s expects %s, found '%s'",
						   key, what, r->list[i]);
			l->v[l->n++] = item;
			if (!comma)
				break;
			item = comma + 1;
		}
	}
	return 0;
}

int cli_instance_filter(const struct parsed *p, const struct cmd_spec *spec,
			const struct catalog *c, struct name_list *regions,
			struct name_list *providers,
			struct instance_filter *f)
{
	memset(f, 0, sizeof(*f));
	int rc = cli_name_list(p, spec, "region", "region names", regions);
	if (!rc)
		rc = cli_name_list(p, spec, "provider", "provider names",
				   providers);
	if (rc)
		return rc;
	*f = (struct instance_filter){providers->v, providers->n, regions->v,
				      regions->n};
	char why[512];
	if (instance_filter_check(f, c, why, sizeof(why)) < 0)
		return usage_error(spec, "%s", why);
	return 0;
}

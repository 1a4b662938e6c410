/*
 * read_common.c - the pieces several catalog entries share: links and the label an entry goes by in messages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog_read.h"
#include "core/suggest.h"
#include "core/xalloc.h"
#include "source_publisher.h"

int read_link_kind(struct yread *r, const struct ynode *map,
			  const char *what, bool allow_nvswitch,
			  enum link_kind *out)
{
	char *kind = NULL;
	int rc = yr_name(r, map, "kind", &kind);
	if (rc <= 0)
		return rc;
	const char *link_names[] = {link_kind_name(LINK_NONE),
				    link_kind_name(LINK_PCIE),
				    link_kind_name(LINK_NVLINK),
				    link_kind_name(LINK_NVSWITCH)};
	size_t nk = allow_nvswitch ? 4 : 3;
	for (size_t i = 0; i < nk; i++)
		if (strcmp(kind, link_names[i]) == 0) {
			*out = (enum link_kind)i;
			free(kind);
			return 1;
		}
	char hint[96];
	const char *h = gp_errors_full(r->errs) ? NULL
		: suggest_hint(kind, link_names, nk, hint, sizeof(hint));
	yr_error(r, ymap_get(map, "kind"), h,
		 "unknown link kind '%.60s' in %s: expected %s", kind, what,
		 allow_nvswitch ? "nvswitch, nvlink, pcie or none"
				: "nvlink, pcie or none");
	free(kind);
	return -1;
}

static const struct yfield link_fields[] = {
	{"kind", true}, {"generation", false}, {"lanes", false},
	{"bandwidth", false}, {NULL, false},
};

/* An accelerator's interconnect or host interface. */
int read_link(struct yread *r, const struct ynode *map, const char *key,
		     const char *owner, struct link *l)
{
	const struct ynode *n = ymap_get(map, key);
	memset(l, 0, sizeof(*l));
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'%s' of %s", key, owner);
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = yr_check_keys(r, n, what, link_fields);
	bad |= read_link_kind(r, n, what, false, &l->kind) < 0;
	long gen = 0, lanes = 0;
	int has_gen = yr_int(r, n, "generation", 1, 10, &gen);
	int has_lanes = yr_int(r, n, "lanes", 1, 64, &lanes);
	int has_bw = yr_quantity_in(r, n, "bandwidth", Q_BANDWIDTH,
				    &l->bandwidth, NULL);
	bad |= has_gen < 0 || has_lanes < 0 || has_bw < 0;
	l->generation = (int)gen;
	l->lanes = (int)lanes;
	if (bad)
		return -1;
	if (l->kind != LINK_NONE && (has_gen == 0 || has_bw == 0)) {
		yr_error(r, n, NULL, "%s needs 'generation' and 'bandwidth'",
			 what);
		return -1;
	}
	if (l->kind == LINK_PCIE && has_lanes == 0) {
		yr_error(r, n, NULL, "%s is PCIe and needs 'lanes'", what);
		return -1;
	}
	return 0;
}

/* "accelerator 'H100-SXM'" or "accelerator #3" when the name is missing. */

/* One `source:` mapping: its title and url, checked as
 * source_publisher.h says, the problem reported at the url. */
static int check_one_source(struct yread *r, const struct ynode *s,
			    const char *owner)
{
	const struct ynode *t = ymap_get(s, "title"), *u = ymap_get(s, "url");
	if (!t || !u || t->kind != YNODE_SCALAR || u->kind != YNODE_SCALAR)
		return 0;	/* the reader of sources reports these */
	char why[640];
	if (source_publisher_agrees(t->text, u->text, why, sizeof(why)))
		return 0;
	yr_error(r, u, "cite the publisher's own page, or say 'mirror' in the title",
		 "%s in a source of %s", why, owner);
	return -1;
}

int check_source_publishers(struct yread *r, const struct ynode *map,
			    const char *owner)
{
	const struct ynode *n = ymap_get(map, "source");
	if (!n)
		return 0;
	if (n->kind == YNODE_MAP)
		return check_one_source(r, n, owner);
	if (n->kind != YNODE_SEQ)
		return 0;
	int bad = 0;
	for (size_t i = 0; i < n->n; i++)
		if (n->items[i]->kind == YNODE_MAP)
			bad |= check_one_source(r, n->items[i], owner) < 0;
	return bad ? -1 : 0;
}

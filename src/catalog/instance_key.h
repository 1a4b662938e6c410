/*
 * instance_key.h - how an instance is named: (provider, region, name).
 *
 * Clouds sell one instance type in many regions at different prices, so
 * a catalog keys an instance by its provider, region and name together.
 * Wherever a user names an instance (`catalog show`, `plan --instance`, a
 * workload's or an outcome's `instance:`) three spellings are accepted,
 * each compared case-blind as names are (name_index.h):
 *
 *   NAME                    every region that sells NAME
 *   REGION/NAME             that region's
 *   PROVIDER/REGION/NAME    exactly one entry
 *
 * A filter (plan) takes every match; a lookup of one entry (show, an
 * outcome) refuses a spelling that matches several and lists the full
 * spellings.  Labels are what outputs print: the bare name when the
 * catalog has it once, else the shortest spelling above that is unique.
 *
 * Ownership: labels belong to the instance (freed by free_instance());
 * the filter's lists are borrowed.
 */
#ifndef GPUPLAN_CATALOG_INSTANCE_KEY_H
#define GPUPLAN_CATALOG_INSTANCE_KEY_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"

/* Whether spec (NAME, REGION/NAME or PROVIDER/REGION/NAME) names in. */
bool instance_matches(const struct instance *in, const char *spec);

/* How many instances of c spec names; the first in *first (may be NULL). */
size_t catalog_count_matches(const struct catalog *c, const char *spec,
			     const struct instance **first);

/* The one instance `spec` names (NAME, REGION/NAME or
 * PROVIDER/REGION/NAME); NULL when none or several. */
const struct instance *catalog_find_instance(const struct catalog *c,
					     const char *spec);

/* The one instance spec names: 0 with *out; -1 when none (why holds a
 * did-you-mean or is empty); -2 when several (why lists their
 * PROVIDER/REGION/NAME spellings, "aws/us-east-1/g5.xlarge, ..."). */
int catalog_lookup_instance(const struct catalog *c, const char *spec,
			    const struct instance **out, char *why,
			    size_t len);

/* "did you mean 'X'?" for a spec that names nothing, X spelled as spec
 * is (NAME, REGION/NAME or PROVIDER/REGION/NAME); NULL when nothing is
 * close. */
const char *instance_hint(const struct catalog *c, const char *spec,
			  char *buf, size_t len);

/* "provider/region/name" into buf; returns buf. */
const char *instance_key_text(const struct instance *in, char *buf,
			      size_t len);

/* Gives every instance of c its label (see above) and sets what tables
 * show: the bare name, or, when show_regions (a plan whose options span
 * more than one provider or region), REGION/NAME, PROVIDER/REGION/NAME
 * where REGION/NAME alone repeats. */
void catalog_label_instances(struct catalog *c, bool show_regions);

/* --provider and --region of plan and catalog list: lists of values,
 * each compared case-blind; an empty list keeps everything. */
struct instance_filter {
	const char *const *providers;
	size_t n_providers;
	const char *const *regions;
	size_t n_regions;
};

bool instance_filter_keeps(const struct instance_filter *f,
			   const struct instance *in);

/* Checks every value of f against c: returns 0, or -1 with "unknown
 * region 'x' (did you mean 'y'?)" in why. */
int instance_filter_check(const struct instance_filter *f,
			  const struct catalog *c, char *why, size_t len);

#endif

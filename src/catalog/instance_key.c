/*
 * instance_key.c - naming instances by provider, region and name; see
 * instance_key.h.
 */
#include "instance_key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/suggest.h"
#include "core/xalloc.h"
#include "name_index.h"

/* Whether the len bytes at text equal word, case-blind. */
static bool part_is(const char *text, size_t len, const char *word)
{
	return word && strlen(word) == len && strncasecmp(text, word, len) == 0;
}

bool instance_matches(const struct instance *in, const char *spec)
{
	if (!in->name)
		return false;
	if (strcasecmp(in->name, spec) == 0)
		return true;
	/* the name is what follows the last slash: names hold none */
	const char *last = strrchr(spec, '/');
	if (!last || strcasecmp(last + 1, in->name) != 0)
		return false;
	const char *region = spec;
	const char *slash = memchr(spec, '/', (size_t)(last - spec));
	if (slash) {
		if (!part_is(spec, (size_t)(slash - spec), in->provider))
			return false;
		region = slash + 1;
	}
	return part_is(region, (size_t)(last - region), in->region);
}

size_t catalog_count_matches(const struct catalog *c, const char *spec,
			     const struct instance **first)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n_inst; i++)
		if (instance_matches(&c->inst[i], spec) && n++ == 0 && first)
			*first = &c->inst[i];
	return n;
}

const struct instance *catalog_find_instance(const struct catalog *c,
					     const char *spec)
{
	const struct instance *first = NULL;
	return catalog_count_matches(c, spec, &first) == 1 ? first : NULL;
}

const char *instance_key_text(const struct instance *in, char *buf,
			      size_t len)
{
	snprintf(buf, len, "%s/%s/%s", in->provider ? in->provider : "?",
		 in->region ? in->region : "?", in->name ? in->name : "?");
	return buf;
}

/* "aws/us-east-1/g5.xlarge, aws/cn-north-1/g5.xlarge" into why. */
static void list_matches(const struct catalog *c, const char *spec,
			 char *why, size_t len)
{
	size_t at = 0;
	why[0] = '\0';
	for (size_t i = 0; i < c->n_inst && at + 1 < len; i++) {
		if (!instance_matches(&c->inst[i], spec))
			continue;
		char key[800];
		int w = snprintf(why + at, len - at, "%s%s", at ? ", " : "",
				 instance_key_text(&c->inst[i], key, sizeof(key)));
		at += w > 0 ? (size_t)w : 0;
	}
}

const char *instance_hint(const struct catalog *c, const char *spec,
			  char *buf, size_t len)
{
	/* suggest in the spelling the user wrote: NAME, REGION/NAME or
	 * PROVIDER/REGION/NAME */
	size_t slashes = 0;
	for (const char *p = spec; *p; p++)
		slashes += *p == '/';
	const char **names = xcalloc(c->n_inst + 1, sizeof(char *));
	char **owned = xcalloc(c->n_inst + 1, sizeof(char *));
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct instance *in = &c->inst[i];
		if (slashes == 0 || !in->name || !in->region || !in->provider) {
			names[i] = in->name ? in->name : "";
			continue;
		}
		owned[i] = slashes == 1
			? xasprintf("%s/%s", in->region, in->name)
			: xasprintf("%s/%s/%s", in->provider, in->region, in->name);
		names[i] = owned[i];
	}
	const char *h = suggest_hint(spec, names, c->n_inst, buf, len);
	for (size_t i = 0; i < c->n_inst; i++)
		free(owned[i]);
	free(owned);
	free(names);
	return h;
}

int catalog_lookup_instance(const struct catalog *c, const char *spec,
			    const struct instance **out, char *why,
			    size_t len)
{
	*out = NULL;
	size_t n = catalog_count_matches(c, spec, out);
	if (n == 1)
		return 0;
	if (n > 1) {
		list_matches(c, spec, why, len);
		*out = NULL;
		return -2;
	}
	if (!instance_hint(c, spec, why, len) && len)
		why[0] = '\0';
	return -1;
}

/* ---- labels ---- */

static void set_text(char **slot, char *text)
{
	free(*slot);
	*slot = text;
}

/* How often each name, and each region/name, occurs in c. */
static void count_spellings(const struct catalog *c, size_t *per_name,
			    size_t *per_region_name)
{
	struct name_index names, region_names;
	name_index_init(&names);
	name_index_init(&region_names);
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct instance *in = &c->inst[i];
		size_t at;
		char *rn = xasprintf("%s/%s", in->region, in->name);
		if (!name_index_add(&names, in->name, i, &at))
			per_name[i] = at;
		else
			per_name[i] = i;
		if (!name_index_add(&region_names, rn, i, &at))
			per_region_name[i] = at;
		else
			per_region_name[i] = i;
		free(rn);
	}
	name_index_free(&names);
	name_index_free(&region_names);
}

void catalog_label_instances(struct catalog *c, bool show_regions)
{
	/* first_name[i]: the first instance with i's name (case-blind);
	 * n_name[first]: how many share it.  Likewise for region/name. */
	size_t *first_name = xcalloc(c->n_inst + 1, sizeof(size_t));
	size_t *first_rn = xcalloc(c->n_inst + 1, sizeof(size_t));
	size_t *n_name = xcalloc(c->n_inst + 1, sizeof(size_t));
	size_t *n_rn = xcalloc(c->n_inst + 1, sizeof(size_t));
	for (size_t i = 0; i < c->n_inst; i++)
		if (!c->inst[i].name || !c->inst[i].region ||
		    !c->inst[i].provider)
			goto out;	/* a failed load: nothing to label */
	count_spellings(c, first_name, first_rn);
	for (size_t i = 0; i < c->n_inst; i++) {
		n_name[first_name[i]]++;
		n_rn[first_rn[i]]++;
	}
	for (size_t i = 0; i < c->n_inst; i++) {
		struct instance *in = &c->inst[i];
		bool name_repeats = n_name[first_name[i]] > 1;
		bool rn_repeats = n_rn[first_rn[i]] > 1;
		char *full = xasprintf("%s/%s/%s", in->provider, in->region,
				       in->name);
		char *rn = xasprintf("%s/%s", in->region, in->name);
		set_text(&in->label, xstrdup(!name_repeats ? in->name
					     : rn_repeats ? full : rn));
		set_text(&in->shown, xstrdup(!show_regions ? in->name
					     : rn_repeats ? full : rn));
		free(full);
		free(rn);
	}
out:
	free(first_name);
	free(first_rn);
	free(n_name);
	free(n_rn);
}

/* ---- filters ---- */

static bool one_of(const char *value, const char *const *list, size_t n)
{
	if (n == 0)
		return true;
	for (size_t i = 0; i < n; i++)
		if (value && strcasecmp(value, list[i]) == 0)
			return true;
	return false;
}

bool instance_filter_keeps(const struct instance_filter *f,
			   const struct instance *in)
{
	return one_of(in->provider, f->providers, f->n_providers) &&
	       one_of(in->region, f->regions, f->n_regions);
}

/* Each value of field (a provider or region) once, in catalog order. */
static size_t distinct(const struct catalog *c, bool regions,
		       const char **out)
{
	struct name_index seen;
	name_index_init(&seen);
	size_t n = 0;
	for (size_t i = 0; i < c->n_inst; i++) {
		const char *v = regions ? c->inst[i].region : c->inst[i].provider;
		if (v && name_index_add(&seen, v, n, NULL))
			out[n++] = v;
	}
	name_index_free(&seen);
	return n;
}

static int check_values(const char *const *values, size_t n, bool regions,
			const struct catalog *c, char *why, size_t len)
{
	const char **known = xcalloc(c->n_inst + 1, sizeof(char *));
	size_t nk = distinct(c, regions, known);
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (one_of(values[i], known, nk))
			continue;
		char hint[128];
		const char *h = suggest_hint(values[i], known, nk, hint,
					     sizeof(hint));
		snprintf(why, len, "unknown %s '%s'%s%s%s",
			 regions ? "region" : "provider", values[i],
			 h ? " (" : "", h ? h : "", h ? ")" : "");
		rc = -1;
	}
	free(known);
	return rc;
}

int instance_filter_check(const struct instance_filter *f,
			  const struct catalog *c, char *why, size_t len)
{
	if (check_values(f->providers, f->n_providers, false, c, why, len))
		return -1;
	return check_values(f->regions, f->n_regions, true, c, why, len);
}

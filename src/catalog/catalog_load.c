/*
 * catalog_load.c - strict reading of catalog files into a struct catalog.
 *
 * Each reader takes one YAML node, checks its keys against a field table and
 * reads every field, recording each problem and carrying on, so that one
 * `catalog validate` run lists everything wrong with a file.
 */
#include "catalog.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/suggest.h"
#include "core/xalloc.h"
#include "core/yaml_read.h"

/* ---- sources ---- */

static const struct yfield source_fields[] = {
	{"title", true}, {"url", false}, {"document", false},
	{"retrieved", true}, {NULL, false},
};

static int read_one_source(struct yread *r, const struct ynode *n,
			   const char *owner, struct source *s)
{
	char what[160];
	snprintf(what, sizeof(what), "the source of %s", owner);
	memset(s, 0, sizeof(*s));
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = yr_check_keys(r, n, what, source_fields);
	bad |= yr_string(r, n, "title", &s->title) < 0;
	bad |= yr_string(r, n, "url", &s->url) < 0;
	bad |= yr_string(r, n, "document", &s->document) < 0;
	bad |= yr_date(r, n, "retrieved", &s->retrieved) < 0;
	if (!ymap_get(n, "url") && !ymap_get(n, "document")) {
		yr_error(r, n, NULL, "%s needs a 'url' or a 'document'", what);
		bad = 1;
	}
	return bad ? -1 : 0;
}

static int read_sources(struct yread *r, const struct ynode *map,
			const char *owner, struct sources *out)
{
	const struct ynode *n = ymap_get(map, "source");
	out->v = NULL;
	out->n = 0;
	if (!n)
		return 0;	/* reported as a missing required key */
	size_t count = n->kind == YNODE_SEQ ? n->n : 1;
	if (count == 0) {
		yr_error(r, n, NULL, "the source list of %s is empty", owner);
		return -1;
	}
	out->v = xcalloc(count, sizeof(*out->v));
	out->n = count;
	int bad = 0;
	for (size_t i = 0; i < count; i++) {
		const struct ynode *item = n->kind == YNODE_SEQ ? n->items[i] : n;
		bad |= read_one_source(r, item, owner, &out->v[i]) < 0;
	}
	return bad ? -1 : 0;
}

static void free_sources(struct sources *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].title);
		free(s->v[i].url);
		free(s->v[i].document);
		free(s->v[i].retrieved);
	}
	free(s->v);
}

/* ---- links ---- */

static const char *const link_names[] = {"none", "pcie", "nvlink",
					 "nvswitch"};

const char *link_kind_name(enum link_kind k)
{
	return link_names[k];
}

static int read_link_kind(struct yread *r, const struct ynode *map,
			  const char *what, bool allow_nvswitch,
			  enum link_kind *out)
{
	char *kind = NULL;
	int rc = yr_string(r, map, "kind", &kind);
	if (rc <= 0)
		return rc;
	size_t nk = allow_nvswitch ? 4 : 3;
	for (size_t i = 0; i < nk; i++)
		if (strcmp(kind, link_names[i]) == 0) {
			*out = (enum link_kind)i;
			free(kind);
			return 1;
		}
	char hint[96];
	const char *h = suggest_hint(kind, link_names, nk, hint, sizeof(hint));
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
static int read_link(struct yread *r, const struct ynode *map, const char *key,
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
	int has_bw = yr_quantity(r, n, "bandwidth", UNIT_RATE, &l->bandwidth,
				 NULL);
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

/* ---- accelerators ---- */

static const char *const precision_names[PREC_COUNT] = {
	"fp64", "fp64_tensor", "fp32", "tf32", "fp16", "bf16", "fp8", "int8",
};

const char *precision_name(enum precision p)
{
	return precision_names[p];
}

int precision_from_name(const char *name)
{
	for (int p = 0; p < PREC_COUNT; p++)
		if (strcmp(name, precision_names[p]) == 0)
			return p;
	return -1;
}

bool precision_is_integer(enum precision p)
{
	return p == PREC_INT8;
}

static int read_peaks(struct yread *r, const struct ynode *map,
		      const char *owner, struct accelerator *a)
{
	const struct ynode *n = ymap_get(map, "peak_dense");
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'peak_dense' of %s", owner);
	if (!yr_expect_map(r, n, what))
		return -1;
	struct yfield fields[PREC_COUNT + 1];
	for (int p = 0; p < PREC_COUNT; p++)
		fields[p] = (struct yfield){precision_names[p], false};
	fields[PREC_COUNT] = (struct yfield){NULL, false};
	int bad = yr_check_keys(r, n, what, fields);
	if (n->n == 0) {
		yr_error(r, n, NULL, "%s lists no precision", what);
		bad = 1;
	}
	for (int p = 0; p < PREC_COUNT; p++) {
		struct unit_detail d;
		int rc = yr_quantity(r, n, precision_names[p], UNIT_COMPUTE,
				     &a->peak[p], &d);
		if (rc < 0) {
			bad = 1;
			continue;
		}
		a->has_peak[p] = rc == 1;
		if (rc == 1 && d.integer_ops != precision_is_integer(p)) {
			yr_error(r, ymap_get(n, precision_names[p]), NULL,
				 "'%s' is %s: write it in %s",
				 precision_names[p],
				 d.integer_ops ? "a floating-point rate"
					       : "an integer rate",
				 d.integer_ops ? "FLOP/s (e.g. TFLOP/s)"
					       : "OPS (e.g. TOPS)");
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

static const struct yfield mig_fields[] = {
	{"profile", true}, {"memory", true}, {"max_instances", true},
	{NULL, false},
};

static int read_mig(struct yread *r, const struct ynode *map,
		    const char *owner, struct accelerator *a)
{
	const struct ynode *n = ymap_get(map, "mig");
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'mig' of %s", owner);
	if (!yr_expect_seq(r, n, what))
		return -1;
	a->mig = xcalloc(n->n, sizeof(*a->mig));
	a->n_mig = n->n;
	int bad = 0;
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *m = n->items[i];
		struct mig_profile *p = &a->mig[i];
		if (!yr_expect_map(r, m, what)) {
			bad = 1;
			continue;
		}
		long count = 0;
		bad |= yr_check_keys(r, m, "a MIG profile", mig_fields);
		bad |= yr_string(r, m, "profile", &p->profile) < 0;
		bad |= yr_quantity(r, m, "memory", UNIT_BYTES, &p->memory,
				   NULL) < 0;
		bad |= yr_int(r, m, "max_instances", 1, 64, &count) < 0;
		p->max_instances = (int)count;
	}
	return bad ? -1 : 0;
}

static const struct yfield accelerator_fields[] = {
	{"name", true}, {"vendor", true}, {"architecture", false},
	{"form_factor", true}, {"memory", true}, {"memory_type", false},
	{"memory_bandwidth", true}, {"peak_dense", true},
	{"interconnect", true}, {"host_interface", true}, {"tdp", true},
	{"mig", false}, {"illustrative", false}, {"notes", false},
	{"source", true}, {NULL, false},
};

/* "accelerator 'H100-SXM'" or "accelerator #3" when the name is missing. */
static void entry_label(const struct ynode *n, const char *kind, size_t index,
			char *buf, size_t len)
{
	const struct ynode *name = ymap_get(n, "name");
	if (name && name->kind == YNODE_SCALAR && name->text[0])
		snprintf(buf, len, "%s '%.80s'", kind, name->text);
	else
		snprintf(buf, len, "%s #%zu", kind, index + 1);
}

static int read_accelerator(struct yread *r, const struct ynode *n,
			    size_t index, struct accelerator *a)
{
	char what[128];
	memset(a, 0, sizeof(*a));
	a->at.line = n->line;
	a->at.col = n->col;
	if (!yr_expect_map(r, n, "an accelerator"))
		return -1;
	entry_label(n, "accelerator", index, what, sizeof(what));
	int bad = yr_check_keys(r, n, what, accelerator_fields);
	bad |= yr_string(r, n, "name", &a->name) < 0;
	bad |= yr_string(r, n, "vendor", &a->vendor) < 0;
	bad |= yr_string(r, n, "architecture", &a->architecture) < 0;
	bad |= yr_string(r, n, "form_factor", &a->form_factor) < 0;
	bad |= yr_string(r, n, "memory_type", &a->memory_type) < 0;
	bad |= yr_string(r, n, "notes", &a->notes) < 0;
	bad |= yr_quantity(r, n, "memory", UNIT_BYTES, &a->memory, NULL) < 0;
	bad |= yr_quantity(r, n, "memory_bandwidth", UNIT_RATE,
			   &a->memory_bandwidth, NULL) < 0;
	bad |= yr_quantity(r, n, "tdp", UNIT_POWER, &a->tdp, NULL) < 0;
	bad |= yr_bool(r, n, "illustrative", &a->illustrative) < 0;
	bad |= read_peaks(r, n, what, a) < 0;
	bad |= read_link(r, n, "interconnect", what, &a->interconnect) < 0;
	bad |= read_link(r, n, "host_interface", what, &a->host_interface) < 0;
	bad |= read_mig(r, n, what, a) < 0;
	bad |= read_sources(r, n, what, &a->sources) < 0;
	return bad ? -1 : 0;
}

static void free_accelerator(struct accelerator *a)
{
	free(a->name);
	free(a->vendor);
	free(a->architecture);
	free(a->form_factor);
	free(a->memory_type);
	free(a->notes);
	for (size_t i = 0; i < a->n_mig; i++)
		free(a->mig[i].profile);
	free(a->mig);
	free_sources(&a->sources);
}

/* ---- instances ---- */

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
	int has_bw = yr_quantity(r, n, "bandwidth", UNIT_RATE, &l->bandwidth,
				 NULL);
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
	{"bandwidth", true}, {"rdma", true}, {"name", false}, {NULL, false},
};

static int read_network(struct yread *r, const struct ynode *map,
			const char *owner, struct instance *in)
{
	const struct ynode *n = ymap_get(map, "network");
	if (!n)
		return 0;
	char what[160];
	snprintf(what, sizeof(what), "'network' of %s", owner);
	if (!yr_expect_map(r, n, what))
		return -1;
	int bad = yr_check_keys(r, n, what, network_fields);
	bad |= yr_quantity(r, n, "bandwidth", UNIT_RATE,
			   &in->network_bandwidth, NULL) < 0;
	bad |= yr_bool(r, n, "rdma", &in->network_rdma) < 0;
	bad |= yr_string(r, n, "name", &in->network_name) < 0;
	return bad ? -1 : 0;
}

static const struct yfield price_fields[] = {
	{"on_demand", true}, {"spot", false}, {NULL, false},
};

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
	bad |= yr_money(r, n, "on_demand", MONEY_PER_HOUR, &in->on_demand) < 0;
	int spot = yr_money(r, n, "spot", MONEY_PER_HOUR, &in->spot);
	bad |= spot < 0;
	in->has_spot = spot == 1;
	if (!bad && in->has_spot &&
	    strcmp(in->spot.currency, in->on_demand.currency) != 0) {
		yr_error(r, ymap_get(n, "spot"), NULL,
			 "spot price is in %s but on-demand is in %s: use one currency per instance",
			 in->spot.currency, in->on_demand.currency);
		bad = 1;
	}
	return bad ? -1 : 0;
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
	bad |= yr_money(r, n, "price", MONEY_TOTAL, &p->price) < 0;
	bad |= yr_quantity(r, n, "lifetime", UNIT_DURATION, &p->lifetime,
			   NULL) < 0;
	bad |= yr_money(r, n, "power_price", MONEY_PER_KWH,
			&p->power_price) < 0;
	bad |= yr_quantity(r, n, "host_power", UNIT_POWER, &p->host_power,
			   NULL) < 0;
	int has_pue = yr_positive(r, n, "pue", &p->pue);
	bad |= has_pue < 0;
	if (has_pue == 1 && p->pue < 1) {
		yr_error(r, ymap_get(n, "pue"), NULL,
			 "'pue' is facility power over IT power and cannot be below 1, found %g",
			 p->pue);
		bad = 1;
	}
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

static int read_instance(struct yread *r, const struct ynode *n, size_t index,
			 struct instance *in)
{
	char what[128];
	memset(in, 0, sizeof(*in));
	in->at.line = n->line;
	in->at.col = n->col;
	if (!yr_expect_map(r, n, "an instance"))
		return -1;
	entry_label(n, "instance", index, what, sizeof(what));
	long gpus = 0, vcpus = 0;
	int bad = yr_check_keys(r, n, what, instance_fields);
	bad |= yr_string(r, n, "name", &in->name) < 0;
	bad |= yr_string(r, n, "provider", &in->provider) < 0;
	bad |= yr_string(r, n, "region", &in->region) < 0;
	bad |= yr_string(r, n, "accelerator", &in->accelerator_name) < 0;
	const struct ynode *acc_node = ymap_get(n, "accelerator");
	if (acc_node) {
		in->accelerator_at.line = acc_node->line;
		in->accelerator_at.col = acc_node->col;
	}
	bad |= yr_string(r, n, "notes", &in->notes) < 0;
	bad |= yr_int(r, n, "gpus", 1, 1024, &gpus) < 0;
	bad |= yr_int(r, n, "vcpus", 1, 100000, &vcpus) < 0;
	bad |= yr_quantity(r, n, "memory", UNIT_BYTES, &in->memory, NULL) < 0;
	bad |= yr_bool(r, n, "illustrative", &in->illustrative) < 0;
	bad |= yr_date(r, n, "as_of", &in->as_of) < 0;
	bad |= read_intra(r, n, what, &in->intra) < 0;
	bad |= read_network(r, n, what, in) < 0;
	bad |= check_price_or_purchase(r, n, what) < 0;
	bad |= read_price(r, n, what, in) < 0;
	bad |= read_purchase(r, n, what, in) < 0;
	bad |= read_sources(r, n, what, &in->sources) < 0;
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

static void free_instance(struct instance *in)
{
	free(in->name);
	free(in->provider);
	free(in->region);
	free(in->notes);
	free(in->as_of);
	free(in->accelerator_name);
	free(in->network_name);
	free_sources(&in->sources);
}

/* ---- exchange rates ---- */

static const struct yfield fx_fields[] = {
	{"base", true}, {"as_of", true}, {"source", true}, {"rates", true},
	{NULL, false},
};

static bool is_currency_code(const char *s)
{
	return strlen(s) == 3 && isupper((unsigned char)s[0]) &&
	       isupper((unsigned char)s[1]) && isupper((unsigned char)s[2]);
}

static int read_rates(struct yread *r, const struct ynode *n,
		      struct exchange_rates *fx)
{
	if (!yr_expect_map(r, n, "'rates'"))
		return -1;
	fx->v = xcalloc(n->n, sizeof(*fx->v));
	int bad = 0;
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *k = n->items[2 * i];
		if (!is_currency_code(k->text)) {
			yr_error(r, k, NULL,
				 "'%.40s' is not a currency code: expected three capital letters like CNY",
				 k->text);
			bad = 1;
			continue;
		}
		double v;
		if (yr_positive(r, n, k->text, &v) < 0) {
			bad = 1;
			continue;
		}
		memcpy(fx->v[fx->n].code, k->text, 4);
		fx->v[fx->n++].per_base = v;
	}
	return bad ? -1 : 0;
}

static int read_fx(struct yread *r, const struct ynode *n,
		   struct exchange_rates *fx)
{
	if (!yr_expect_map(r, n, "'exchange_rates'"))
		return -1;
	fx->present = true;
	fx->at.line = n->line;
	int bad = yr_check_keys(r, n, "'exchange_rates'", fx_fields);
	char *base = NULL;
	int rc = yr_string(r, n, "base", &base);
	if (rc == 1 && !is_currency_code(base)) {
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
	const struct ynode *rates = ymap_get(n, "rates");
	if (rates)
		bad |= read_rates(r, rates, fx) < 0;
	return bad ? -1 : 0;
}

static void free_fx(struct exchange_rates *fx)
{
	free(fx->as_of);
	free(fx->v);
	free_sources(&fx->sources);
	memset(fx, 0, sizeof(*fx));
}

/* ---- files ---- */

void catalog_init(struct catalog *c)
{
	memset(c, 0, sizeof(*c));
}

void catalog_free(struct catalog *c)
{
	for (size_t i = 0; i < c->n_acc; i++)
		free_accelerator(&c->acc[i]);
	for (size_t i = 0; i < c->n_inst; i++)
		free_instance(&c->inst[i]);
	free(c->acc);
	free(c->inst);
	free_fx(&c->fx);
	for (size_t i = 0; i < c->n_files; i++)
		free(c->files[i]);
	free(c->files);
	catalog_init(c);
}

static const struct yfield file_fields[] = {
	{"schema", true}, {"accelerators", false}, {"instances", false},
	{"exchange_rates", false}, {NULL, false},
};

static int check_schema(struct yread *r, const struct ynode *root)
{
	const struct ynode *s = ymap_get(root, "schema");
	if (!s)
		return -1;	/* reported as missing */
	if (s->kind != YNODE_SCALAR || strcmp(s->text, CATALOG_SCHEMA) != 0) {
		char found[96];
		ynode_describe(s, found, sizeof(found));
		yr_error(r, s, NULL, "expected 'schema: %s', found %s",
			 CATALOG_SCHEMA, found);
		return -1;
	}
	return 0;
}

static int read_accelerators(struct yread *r, const struct ynode *list,
			     struct catalog *c, const char *file)
{
	if (!yr_expect_seq(r, list, "'accelerators'"))
		return -1;
	int bad = 0;
	for (size_t i = 0; i < list->n; i++) {
		xgrow((void **)&c->acc, &c->cap_acc, c->n_acc + 1,
		      sizeof(*c->acc));
		struct accelerator *a = &c->acc[c->n_acc++];
		bad |= read_accelerator(r, list->items[i], i, a) < 0;
		a->at.file = file;
	}
	return bad ? -1 : 0;
}

static int read_instances(struct yread *r, const struct ynode *list,
			  struct catalog *c, const char *file)
{
	if (!yr_expect_seq(r, list, "'instances'"))
		return -1;
	int bad = 0;
	for (size_t i = 0; i < list->n; i++) {
		xgrow((void **)&c->inst, &c->cap_inst, c->n_inst + 1,
		      sizeof(*c->inst));
		struct instance *in = &c->inst[c->n_inst++];
		bad |= read_instance(r, list->items[i], i, in) < 0;
		in->at.file = file;
		in->accelerator_at.file = file;
	}
	return bad ? -1 : 0;
}

/* Reads `path`; messages and provenance name it `shown` ("catalogs/aws.yaml"
 * for a shipped file, wherever the data folder is, so output does not depend
 * on where gpuplan was installed). */
static int load_one(struct catalog *c, const char *path, const char *shown,
		    struct gp_errors *errs)
{
	c->files = xrealloc(c->files, (c->n_files + 1) * sizeof(char *));
	const char *file = c->files[c->n_files++] = xstrdup(shown);
	struct ytree t;
	if (ytree_load(&t, path, file, errs) < 0) {
		ytree_free(&t);
		return -1;
	}
	struct yread r = {.file = file, .errs = errs};
	int bad = 0;
	if (!yr_expect_map(&r, t.root, "a catalog file")) {
		ytree_free(&t);
		return -1;
	}
	/* A file of another kind (a workload, say) would only produce a
	 * screenful of unknown keys: one error about its schema says it all. */
	if (ymap_get(t.root, "schema") && check_schema(&r, t.root) < 0) {
		ytree_free(&t);
		return -1;
	}
	bad |= yr_check_keys(&r, t.root, "a catalog file", file_fields) > 0;
	const struct ynode *n;
	if ((n = ymap_get(t.root, "accelerators")))
		bad |= read_accelerators(&r, n, c, file) < 0;
	if ((n = ymap_get(t.root, "instances")))
		bad |= read_instances(&r, n, c, file) < 0;
	if ((n = ymap_get(t.root, "exchange_rates"))) {
		if (c->fx.present) {
			yr_error(&r, n, NULL,
				 "exchange rates are already given in %s: keep one rates file",
				 c->fx.at.file);
			bad = 1;
		} else {
			bad |= read_fx(&r, n, &c->fx) < 0;
			c->fx.at.file = file;
		}
	}
	if (!bad && !ymap_get(t.root, "accelerators") &&
	    !ymap_get(t.root, "instances") &&
	    !ymap_get(t.root, "exchange_rates")) {
		yr_error(&r, t.root, NULL,
			 "catalog file holds no 'accelerators', 'instances' or 'exchange_rates'");
		bad = 1;
	}
	ytree_free(&t);
	return bad ? -1 : 0;
}

/* ---- cross-file checks ---- */

static void check_duplicate_names(struct catalog *c, struct gp_errors *errs)
{
	for (size_t i = 0; i < c->n_acc; i++)
		for (size_t j = 0; j < i; j++)
			if (c->acc[i].name && c->acc[j].name &&
			    strcasecmp(c->acc[i].name, c->acc[j].name) == 0) {
				char hint[256];
				snprintf(hint, sizeof(hint),
					 "first defined at %s:%d",
					 c->acc[j].at.file, c->acc[j].at.line);
				gp_errors_add(errs, c->acc[i].at.file,
					      c->acc[i].at.line, c->acc[i].at.col, hint,
					      "duplicate accelerator name '%s'",
					      c->acc[i].name);
				break;
			}
	for (size_t i = 0; i < c->n_inst; i++)
		for (size_t j = 0; j < i; j++)
			if (c->inst[i].name && c->inst[j].name &&
			    strcasecmp(c->inst[i].name, c->inst[j].name) == 0) {
				char hint[256];
				snprintf(hint, sizeof(hint),
					 "first defined at %s:%d",
					 c->inst[j].at.file, c->inst[j].at.line);
				gp_errors_add(errs, c->inst[i].at.file,
					      c->inst[i].at.line, c->inst[i].at.col, hint,
					      "duplicate instance name '%s'",
					      c->inst[i].name);
				break;
			}
}

static void resolve_accelerators(struct catalog *c, struct gp_errors *errs)
{
	const char **names = xcalloc(c->n_acc + 1, sizeof(char *));
	size_t nn = 0;
	for (size_t i = 0; i < c->n_acc; i++)
		if (c->acc[i].name)
			names[nn++] = c->acc[i].name;
	for (size_t i = 0; i < c->n_inst; i++) {
		struct instance *in = &c->inst[i];
		if (!in->accelerator_name)
			continue;
		in->acc = catalog_find_accelerator(c, in->accelerator_name);
		if (in->acc)
			continue;
		char hint[128];
		const char *h = suggest_hint(in->accelerator_name, names, nn,
					     hint, sizeof(hint));
		gp_errors_add(errs, in->at.file, in->accelerator_at.line,
			      in->accelerator_at.col, h,
			      "instance '%s' names unknown accelerator '%s'",
			      in->name ? in->name : "?", in->accelerator_name);
	}
	free(names);
}

static void derive_owning_costs(struct catalog *c)
{
	for (size_t i = 0; i < c->n_inst; i++)
		if (c->inst[i].owned && c->inst[i].acc)
			c->inst[i].on_demand =
				catalog_owning_cost_per_hour(&c->inst[i]);
}

static bool already_given(const char *const *paths, size_t n, const char *p)
{
	char a[PATH_MAX], b[PATH_MAX];
	if (!realpath(p, a))
		return false;
	for (size_t i = 0; i < n; i++)
		if (realpath(paths[i], b) && strcmp(a, b) == 0)
			return true;
	return false;
}

/* Adds the shipped accelerators / rates when the given files lack them. */
static int load_shipped_defaults(struct catalog *c, const char *const *paths,
				 size_t n, const char *data_dir,
				 struct gp_errors *errs)
{
	int bad = 0;
	if (c->n_acc == 0) {
		char *p = xasprintf("%s/catalogs/accelerators.yaml", data_dir);
		if (!already_given(paths, n, p))
			bad |= load_one(c, p, "catalogs/accelerators.yaml",
					errs) < 0;
		free(p);
	}
	if (!c->fx.present) {
		char *p = xasprintf("%s/catalogs/currency.yaml", data_dir);
		if (!already_given(paths, n, p))
			bad |= load_one(c, p, "catalogs/currency.yaml", errs) < 0;
		free(p);
	}
	return bad ? -1 : 0;
}

static int load_all(struct catalog *c, const char *const *paths,
		    const char *const *shown, size_t n, const char *data_dir,
		    struct gp_errors *errs)
{
	size_t before = errs->n;
	for (size_t i = 0; i < n; i++)
		load_one(c, paths[i], shown[i], errs);
	if (data_dir)
		load_shipped_defaults(c, paths, n, data_dir, errs);
	check_duplicate_names(c, errs);
	resolve_accelerators(c, errs);
	derive_owning_costs(c);
	return errs->n > before ? -1 : 0;
}

int catalog_load(struct catalog *c, const char *const *paths, size_t n,
		 const char *data_dir, struct gp_errors *errs)
{
	return load_all(c, paths, paths, n, data_dir, errs);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int catalog_load_shipped(struct catalog *c, const char *data_dir,
			 struct gp_errors *errs)
{
	char *dir = xasprintf("%s/catalogs", data_dir);
	DIR *d = opendir(dir);
	if (!d) {
		gp_errors_add(errs, dir, 0, 0,
			      "set GPUPLAN_DATA_DIR to the folder that holds catalogs/",
			      "cannot open the shipped catalogs");
		free(dir);
		return -1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0) {
			names = xrealloc(names, (n + 1) * sizeof(char *));
			names[n++] = xasprintf("catalogs/%s", e->d_name);
		}
	}
	closedir(d);
	if (n == 0) {
		free(names);
		gp_errors_add(errs, dir, 0, 0,
			      "set GPUPLAN_DATA_DIR to the folder that holds catalogs/",
			      "no catalog files (*.yaml) in the shipped catalogs");
		free(dir);
		return -1;
	}
	qsort(names, n, sizeof(char *), compare_names);
	char **paths = xcalloc(n, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		paths[i] = xasprintf("%s/%s", data_dir, names[i]);
	int rc = load_all(c, (const char *const *)paths,
			  (const char *const *)names, n, NULL, errs);
	for (size_t i = 0; i < n; i++) {
		free(paths[i]);
		free(names[i]);
	}
	free(paths);
	free(names);
	free(dir);
	return rc;
}

/*
 * catalog_list.c - `gpuplan catalog list`: instances with their accelerators
 * and prices, filtered, as a table, CSV or JSON.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog_json.h"
#include "catalog_cmds.h"
#include "catalog_filter.h"
#include "common.h"
#include "core/output.h"
#include "core/suggest.h"
#include "core/table.h"
#include "core/xalloc.h"

struct list_filter {
	const char *gpu;	/* substring of the accelerator name */
	struct instance_filter where;	/* --region, --provider */
	struct name_list regions, providers;	/* their values, owned */
	bool has_max_price;
	struct money max_price;	/* per hour, whole instance */
	const char *currency;	/* convert prices to this; NULL keeps each */
};

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

/* An unknown --gpu is a usage error with a suggestion (an unknown
 * --provider or --region too: catalog_filter.h). */
static int check_gpu_filter(const struct cmd_spec *s, const struct catalog *c,
			    const char *gpu)
{
	const char **names = xcalloc(c->n_acc + 1, sizeof(char *));
	bool any = false;
	for (size_t i = 0; i < c->n_acc; i++) {
		names[i] = c->acc[i].name;
		any |= contains_nocase(c->acc[i].name, gpu);
	}
	char hint[96];
	const char *h = any ? NULL : suggest_hint(gpu, names, c->n_acc, hint,
						  sizeof(hint));
	free(names);
	if (any)
		return 0;
	return h ? usage_error(s, "no accelerator matches '%s' (%s)", gpu, h)
		 : usage_error(s, "no accelerator matches '%s'", gpu);
}

/* --max-price takes '20 USD/h', '$20/h', '¥150/h', or a bare number in
 * the --currency. */
static int parse_max_price(const struct cmd_spec *s, const char *text,
			   const char *currency, struct money *out)
{
	struct unit_problem p;
	if (money_parse(text, out, &p) == 0) {
		if (out->per == MONEY_TOTAL)
			out->per = MONEY_PER_HOUR;
		if (out->per != MONEY_PER_HOUR)
			return usage_error(s, "--max-price is per hour, found '%s'",
					   text);
		return 0;
	}
	/* a bare amount is a plain decimal: strtod would also read "0x10"
	 * as 16 and "inf" or "nan", keeping or dropping every instance
	 * without a word */
	double v;
	struct unit_problem bare;
	if (currency && units_plain_number(text, &v, &bare) == 0) {
		out->amount = v;
		memcpy(out->currency, currency, 4);
		out->per = MONEY_PER_HOUR;
		return 0;
	}
	return usage_error(s, "--max-price: %s in '%s'%s", p.msg, text,
			   currency ? "" : " (or give --currency)");
}

/* Converts the instance's price m for comparison; a missing rate is
 * reported where the price was written, and fails. */
static int convert_or_say(const struct catalog *c, const struct instance *in,
			  const struct money *m, const char *to,
			  struct money *out)
{
	char why[1024], what[320];
	snprintf(what, sizeof(what), "instance '%s' is priced", in->name);
	if (catalog_convert_at(c, m, to, &in->at, what, out, why,
			       sizeof(why)) == 0)
		return 0;
	fprintf(stderr, "%s\n", why);
	return -1;
}

static int keep(const struct catalog *c, const struct instance *in,
		const struct list_filter *f, bool *out)
{
	*out = false;
	if (f->gpu && !contains_nocase(in->acc->name, f->gpu))
		return 0;
	if (!instance_filter_keeps(&f->where, in))
		return 0;
	if (f->has_max_price) {
		struct money price;
		if (convert_or_say(c, in, &in->on_demand, f->max_price.currency,
				   &price) < 0)
			return -1;
		if (price.amount > f->max_price.amount)
			return 0;
	}
	*out = true;
	return 0;
}

/* ---- list ---- */

static const struct opt_spec list_opts[] = {
	{"catalog", 'c', OPT_LIST, "FILE",
	 "read these catalog files instead of the shipped ones"},
	{"gpu", 'g', OPT_VALUE, "NAME",
	 "only instances whose accelerator name contains NAME (H100, A100-SXM)"},
	{"provider", 'p', OPT_LIST, "NAME",
	 "only these providers (aws, gcp, ...; repeatable, or a comma list)"},
	{"region", 0, OPT_LIST, "REGION",
	 "only these regions (us-east-1, cn-hangzhou, ...; repeatable, or a comma list)"},
	{"max-price", 0, OPT_VALUE, "AMOUNT",
	 "only instances at most this on-demand price per hour ('20 USD/h')"},
	{"currency", 0, OPT_VALUE, "CODE",
	 "show prices in this currency, converted at the catalog's dated rate"},
	FORMAT_OPTION,
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec list_spec = {
	"catalog list", NULL,
	"List the instances of the catalogs with their accelerators and prices.",
	list_opts, 0, 0,
	"Prices are on-demand and spot per hour for the whole instance, in the\n"
	"catalog's currency unless --currency is given.  '*' marks a price that\n"
	"could not be sourced (illustrative); '=' an owned machine's hourly\n"
	"cost, derived from its purchase price, lifetime and power.",
};

struct listing {
	const struct instance **v;
	size_t n;
	struct money *od, *spot;	/* converted prices, parallel to v */
};

static void listing_free(struct listing *l)
{
	free(l->v);
	free(l->od);
	free(l->spot);
}

static int build_listing(const struct catalog *c, const struct list_filter *f,
			 struct listing *l)
{
	l->v = xcalloc(c->n_inst + 1, sizeof(*l->v));
	l->od = xcalloc(c->n_inst + 1, sizeof(*l->od));
	l->spot = xcalloc(c->n_inst + 1, sizeof(*l->spot));
	l->n = 0;
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct instance *in = &c->inst[i];
		bool ok;
		if (keep(c, in, f, &ok) < 0)
			return -1;
		if (!ok)
			continue;
		const char *to = f->currency ? f->currency
					     : in->on_demand.currency;
		if (convert_or_say(c, in, &in->on_demand, to, &l->od[l->n]) < 0 ||
		    (in->has_spot &&
		     convert_or_say(c, in, &in->spot, to, &l->spot[l->n]) < 0))
			return -1;
		l->v[l->n++] = in;
	}
	return 0;
}

static const char *price_text(const struct money *m, const char *mark,
			      char *buf, size_t len)
{
	char tmp[64];
	struct money hourly = *m;
	hourly.per = MONEY_TOTAL;	/* the column header says per hour */
	snprintf(buf, len, "%s%s", money_format(&hourly, tmp, sizeof(tmp)),
		 mark);
	return buf;
}

static void list_table_row(struct table *t, const struct listing *l,
			   size_t i)
{
	const struct instance *in = l->v[i];
	char gpus[96], gmem[32], ram[32], link[48], net[64], od[64], sp[64],
		per_gpu[64], vcpus[16];
	snprintf(gpus, sizeof(gpus), "%d x %s", in->gpus, in->acc->name);
	units_format(UNIT_BYTES, in->acc->memory, NULL, gmem, sizeof(gmem));
	units_format(UNIT_BYTES, in->memory, NULL, ram, sizeof(ram));
	if (in->intra.kind == LINK_NONE)
		snprintf(link, sizeof(link), "-");
	else {
		char bw[32];
		units_format(UNIT_RATE, in->intra.bandwidth, NULL, bw,
			     sizeof(bw));
		snprintf(link, sizeof(link), "%s %s",
			 link_kind_name(in->intra.kind), bw);
	}
	struct unit_detail bits = {.bits = true};
	char nbw[32];
	units_format(UNIT_RATE, in->network_bandwidth, &bits, nbw, sizeof(nbw));
	char nics[24] = "";
	if (in->network_nics > 1)
		snprintf(nics, sizeof(nics), " %d NICs", in->network_nics);
	snprintf(net, sizeof(net), "%s%s%s", nbw, nics,
		 in->network_gpudirect ? " GDR" : in->network_rdma ? " RDMA" : "");
	const char *mark = in->illustrative ? " *" : in->owned ? " =" : "";
	price_text(&l->od[i], mark, od, sizeof(od));
	if (in->has_spot)
		price_text(&l->spot[i], mark, sp, sizeof(sp));
	else
		snprintf(sp, sizeof(sp), "-");
	struct money g = l->od[i];
	g.amount /= in->gpus;
	price_text(&g, mark, per_gpu, sizeof(per_gpu));
	snprintf(vcpus, sizeof(vcpus), "%d", in->vcpus);
	const char *row[] = {in->name, in->provider, in->region, gpus, gmem,
			     vcpus, ram, link, net, od, sp, per_gpu, in->as_of,
			     in->has_spot ? in->spot_as_of : "-"};
	table_add_row(t, row);
}

static void list_footnotes(const struct catalog *c, const struct listing *l,
			   const struct list_filter *f, FILE *out)
{
	bool illustrative = false, owned = false;
	for (size_t i = 0; i < l->n; i++) {
		illustrative |= l->v[i]->illustrative;
		owned |= l->v[i]->owned;
	}
	fprintf(out, "\n%zu instance%s.", l->n, l->n == 1 ? "" : "s");
	if (f->currency)
		fprintf(out, " Prices in %s at the rates of %s (%s).",
			f->currency, c->fx.as_of, c->fx.at.file);
	fputc('\n', out);
	if (illustrative)
		fprintf(out, "* illustrative: no published price was found; see 'gpuplan catalog show NAME'.\n");
	if (owned)
		fprintf(out, "= owned: purchase / lifetime + power x PUE, per hour, running flat out.\n");
}

static void list_table(const struct catalog *c, const struct listing *l,
		       const struct list_filter *f, FILE *out)
{
	static const char *const header[] = {
		"INSTANCE", "PROVIDER", "REGION", "GPUS", "GPU MEM", "VCPU",
		"RAM", "GPU LINK", "NETWORK", "ON-DEMAND/H", "SPOT/H",
		"PER GPU-H", "AS OF", "SPOT AS OF"};
	struct table t;
	table_init(&t, 14, header);
	for (size_t col = 4; col <= 11; col++)
		if (col != 7 && col != 8)
			table_right_align(&t, col);
	for (size_t i = 0; i < l->n; i++)
		list_table_row(&t, l, i);
	table_print(&t, out);
	table_free(&t);
	list_footnotes(c, l, f, out);
}

static void list_csv(const struct listing *l, FILE *out)
{
	static const char *const header[] = {
		"instance", "provider", "region", "accelerator", "gpus",
		"gpu_memory_bytes", "vcpus", "memory_bytes", "intra_node_link",
		"intra_node_bandwidth_bytes_per_s", "network_bytes_per_s",
		"rdma", "network_nics", "gpudirect", "currency",
		"on_demand_per_hour", "spot_per_hour", "on_demand_per_gpu_hour",
		"illustrative", "owned", "as_of", "spot_as_of"};
	struct table t;
	table_init(&t, 22, header);
	for (size_t i = 0; i < l->n; i++) {
		const struct instance *in = l->v[i];
		char f[9][32];
		snprintf(f[0], 32, "%d", in->gpus);
		snprintf(f[1], 32, "%.15g", in->acc->memory);
		snprintf(f[2], 32, "%d", in->vcpus);
		snprintf(f[3], 32, "%.15g", in->memory);
		snprintf(f[4], 32, "%.15g", in->intra.bandwidth);
		snprintf(f[5], 32, "%.15g", in->network_bandwidth);
		snprintf(f[6], 32, "%.15g", l->od[i].amount);
		snprintf(f[7], 32, "%.15g", l->od[i].amount / in->gpus);
		snprintf(f[8], 32, "%d", in->network_nics);
		char spot[32] = "";
		if (in->has_spot)
			snprintf(spot, sizeof(spot), "%.15g", l->spot[i].amount);
		const char *row[] = {
			in->name, in->provider, in->region, in->acc->name,
			f[0], f[1], f[2], f[3], link_kind_name(in->intra.kind),
			f[4], f[5], in->network_rdma ? "true" : "false", f[8],
			in->network_gpudirect ? "true" : "false",
			l->od[i].currency, f[6], spot, f[7],
			in->illustrative ? "true" : "false",
			in->owned ? "true" : "false", in->as_of,
			in->has_spot ? in->spot_as_of : ""};
		table_add_row(&t, row);
	}
	table_print_csv(&t, out);
	table_free(&t);
}

static int list_json(const struct catalog *c, const struct listing *l,
		     const struct list_filter *f, FILE *out)
{
	json_t *root = json_object();
	json_object_set_new(root, "schema",
			    json_text("gpuplan/catalog-list/v1"));
	json_object_set_new(root, "currency",
			    f->currency ? json_text(f->currency) : json_null());
	if (c->fx.present)
		json_object_set_new(root, "exchange_rates",
				    exchange_rates_to_json(&c->fx));
	json_t *arr = json_array();
	for (size_t i = 0; i < l->n; i++) {
		char why[256];
		json_t *j = instance_to_json(c, l->v[i], f->currency, why,
					     sizeof(why));
		if (!j) {
			fprintf(stderr, "gpuplan: %s\n", why);
			json_decref(arr);
			json_decref(root);
			return -1;
		}
		json_array_append_new(arr, j);
	}
	json_object_set_new(root, "instances", arr);
	json_write(out, root);
	json_decref(root);
	return 0;
}

static int read_filter(const struct parsed *p, const struct catalog *c,
		       struct list_filter *f)
{
	const struct cmd_spec *s = &list_spec;
	memset(f, 0, sizeof(*f));
	f->gpu = opt_value(p, s, "gpu");
	f->currency = opt_value(p, s, "currency");
	if (f->currency && !currency_code_valid(f->currency))
		return usage_error(s, "--currency expects a code like CNY or USD, found '%s'",
				   f->currency);
	if (f->gpu && check_gpu_filter(s, c, f->gpu))
		return OPTS_USAGE_ERROR;
	if (cli_instance_filter(p, s, c, &f->regions, &f->providers,
				&f->where))
		return OPTS_USAGE_ERROR;
	const char *max = opt_value(p, s, "max-price");
	if (max) {
		if (parse_max_price(s, max, f->currency, &f->max_price))
			return OPTS_USAGE_ERROR;
		f->has_max_price = true;
	}
	return 0;
}

int catalog_list(int argc, char **argv)
{
	struct parsed p;
	int rc = opts_parse(&list_spec, argc, argv, &p);
	enum out_format fmt = FORMAT_TABLE;
	struct catalog c;
	catalog_init(&c);
	struct listing l = {0};
	struct list_filter f = {0};
	if (rc != OPTS_OK || (rc = cli_format(&p, &list_spec, &fmt)) ||
	    (rc = cli_load_catalog(&p, &list_spec, &c)) ||
	    (rc = read_filter(&p, &c, &f)))
		goto out;
	if (build_listing(&c, &f, &l) < 0) {
		rc = 2;
		goto out;
	}
	struct output o;
	if ((rc = output_open_to(&o, opt_value(&p, &list_spec, "output"))))
		goto out;
	if (fmt == FORMAT_TABLE)
		list_table(&c, &l, &f, o.f);
	else if (fmt == FORMAT_CSV)
		list_csv(&l, o.f);
	else if (list_json(&c, &l, &f, o.f) < 0) {
		output_discard(&o);
		rc = 2;
		goto out;
	}
	rc = output_finish(&o, opt_value(&p, &list_spec, "output"));
out:
	listing_free(&l);
	name_list_free(&f.regions);
	name_list_free(&f.providers);
	catalog_free(&c);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}


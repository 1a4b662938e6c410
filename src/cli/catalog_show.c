/*
 * catalog_show.c - `gpuplan catalog show NAME`: one instance or accelerator,
 * every field with its source and the file:line it was read from.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog_json.h"
#include "catalog/instance_key.h"
#include "catalog_cmds.h"
#include "common.h"
#include "core/output.h"
#include "core/suggest.h"
#include "core/xalloc.h"

static const struct opt_spec show_opts[] = {
	{"catalog", 'c', OPT_LIST, "FILE",
	 "read these catalog files instead of the shipped ones"},
	{"currency", 0, OPT_VALUE, "CODE", "also show prices in this currency"},
	FORMAT_OPTION_NO_CSV,
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec show_spec = {
	"catalog show", "NAME",
	"Show one instance or accelerator: every field, with its source.",
	show_opts, 1, 1, NULL,
};

static void show_field(FILE *out, const char *key, const char *value)
{
	fprintf(out, "  %-18s %s\n", key, value);
}

static void show_sources(FILE *out, const struct sources *s)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct source *src = &s->v[i];
		char buf[1024];
		snprintf(buf, sizeof(buf), "%s%s%s%s%s%s (retrieved %s)",
			 src->title, src->document ? ", " : "",
			 src->document ? src->document : "",
			 src->url ? " <" : "", src->url ? src->url : "",
			 src->url ? ">" : "", src->retrieved);
		show_field(out, i == 0 ? "source" : "", buf);
	}
}

static void show_link(FILE *out, const char *key, const struct link *l)
{
	char buf[128], bw[32];
	if (l->kind == LINK_NONE) {
		show_field(out, key, "none");
		return;
	}
	units_format(UNIT_RATE, l->bandwidth, NULL, bw, sizeof(bw));
	if (l->lanes)
		snprintf(buf, sizeof(buf), "%s gen %d x%d, %s (both directions)",
			 link_kind_name(l->kind), l->generation, l->lanes, bw);
	else if (l->generation)
		snprintf(buf, sizeof(buf), "%s gen %d, %s (both directions)",
			 link_kind_name(l->kind), l->generation, bw);
	else
		snprintf(buf, sizeof(buf), "%s, %s (both directions)",
			 link_kind_name(l->kind), bw);
	show_field(out, key, buf);
}

/* What the device reports, which the planner fits work into, or that the
 * datasheet figure stands in for it. */
static const char *memory_reported_words(const struct accelerator *a,
					 char *buf, size_t len)
{
	char q[32];
	if (a->memory_reported <= 0)
		return "not in the catalog: the planner uses the datasheet memory";
	units_format(UNIT_BYTES, a->memory_reported, NULL, q, sizeof(q));
	snprintf(buf, len, "%s (%.0f MiB; the planner's capacity)", q,
		 a->memory_reported / (1024.0 * 1024.0));
	return buf;
}

static void show_accelerator(FILE *out, const struct accelerator *a)
{
	char buf[256], q[32];
	fprintf(out, "accelerator %s%s  (%s:%d)\n", a->name,
		a->illustrative ? " [illustrative]" : "", a->at.file,
		a->at.line);
	snprintf(buf, sizeof(buf), "%s %s%s%s", a->vendor,
		 a->architecture ? a->architecture : "",
		 a->architecture ? ", " : "", a->form_factor);
	show_field(out, "part", buf);
	units_format(UNIT_BYTES, a->memory, NULL, q, sizeof(q));
	snprintf(buf, sizeof(buf), "%s%s%s", q, a->memory_type ? " " : "",
		 a->memory_type ? a->memory_type : "");
	show_field(out, "memory", buf);
	show_field(out, "memory reported", memory_reported_words(a, buf,
							     sizeof(buf)));
	if (a->sustained_fraction > 0) {
		snprintf(buf, sizeof(buf),
			 "%.3g of the datasheet peaks under full load (power-limited clock)",
			 a->sustained_fraction);
		show_field(out, "sustained", buf);
	}
	show_field(out, "memory bandwidth",
		   units_format(UNIT_RATE, a->memory_bandwidth, NULL, q,
				sizeof(q)));
	for (int p = 0; p < PREC_COUNT; p++) {
		if (!a->has_peak[p])
			continue;
		struct unit_detail d = {.integer_ops = precision_is_integer(p)};
		char key[32];
		snprintf(key, sizeof(key), "peak %s", precision_name(p));
		snprintf(buf, sizeof(buf), "%s (dense)",
			 units_format(UNIT_COMPUTE, a->peak[p], &d, q,
				      sizeof(q)));
		show_field(out, key, buf);
	}
	show_link(out, "interconnect", &a->interconnect);
	show_link(out, "host interface", &a->host_interface);
	show_field(out, "tdp", units_format(UNIT_POWER, a->tdp, NULL, q,
					     sizeof(q)));
	for (size_t i = 0; i < a->n_mig; i++) {
		units_format(UNIT_BYTES, a->mig[i].memory, NULL, q, sizeof(q));
		snprintf(buf, sizeof(buf), "%s: %s, up to %d", a->mig[i].profile,
			 q, a->mig[i].max_instances);
		show_field(out, i == 0 ? "mig profiles" : "", buf);
	}
	if (a->notes)
		show_field(out, "notes", a->notes);
	show_sources(out, &a->sources);
}

static void show_price(FILE *out, const struct catalog *c,
		       const struct instance *in, const char *currency)
{
	char a[64], b[64], buf[200];
	const char *mark = in->illustrative ? " (illustrative)" : "";
	money_format(&in->on_demand, a, sizeof(a));
	struct money per_gpu = in->on_demand, conv;
	per_gpu.amount /= in->gpus;
	money_format(&per_gpu, b, sizeof(b));
	snprintf(buf, sizeof(buf), "%s (%s per GPU)%s%s", a, b,
		 in->owned ? ", owning cost" : "", mark);
	show_field(out, "on-demand", buf);
	if (in->has_spot) {
		snprintf(buf, sizeof(buf), "%s%s, as of %s",
			 money_format(&in->spot, a, sizeof(a)), mark,
			 in->spot_as_of);
		show_field(out, "spot", buf);
	}
	char why[256];
	if (currency && catalog_convert(c, &in->on_demand, currency, &conv, why,
					sizeof(why)) == 0 &&
	    strcmp(currency, in->on_demand.currency) != 0) {
		snprintf(buf, sizeof(buf), "%s (rates of %s)",
			 money_format(&conv, a, sizeof(a)), c->fx.as_of);
		show_field(out, "on-demand", buf);
	}
}

static void show_purchase(FILE *out, const struct instance *in)
{
	const struct purchase *p = &in->purchase;
	char a[64], q[32], buf[200];
	show_field(out, "purchase price", money_format(&p->price, a, sizeof(a)));
	show_field(out, "lifetime", units_format(UNIT_DURATION, p->lifetime,
						 NULL, q, sizeof(q)));
	show_field(out, "power price",
		   money_format(&p->power_price, a, sizeof(a)));
	snprintf(buf, sizeof(buf), "%g", p->pue);
	show_field(out, "pue", buf);
	show_field(out, "host power", units_format(UNIT_POWER, p->host_power,
						   NULL, q, sizeof(q)));
}

static void show_instance(FILE *out, const struct catalog *c,
			  const struct instance *in, const char *currency)
{
	char buf[256], q[32], r[32];
	fprintf(out, "instance %s%s  (%s:%d)\n", in->name,
		in->illustrative ? " [illustrative]" : "", in->at.file,
		in->at.line);
	snprintf(buf, sizeof(buf), "%s %s", in->provider, in->region);
	show_field(out, "provider", buf);
	snprintf(buf, sizeof(buf), "%d x %s", in->gpus, in->acc->name);
	show_field(out, "gpus", buf);
	snprintf(buf, sizeof(buf), "%d", in->vcpus);
	show_field(out, "vcpus", buf);
	show_field(out, "memory", units_format(UNIT_BYTES, in->memory, NULL, q,
					       sizeof(q)));
	if (in->intra.kind == LINK_NONE)
		show_field(out, "gpu link", "none (one GPU)");
	else {
		snprintf(buf, sizeof(buf), "%s, %s",
			 link_kind_name(in->intra.kind),
			 units_format(UNIT_RATE, in->intra.bandwidth, NULL, q,
				      sizeof(q)));
		show_field(out, "gpu link", buf);
	}
	struct unit_detail bits = {.bits = true};
	snprintf(buf, sizeof(buf), "%s over %d NIC%s%s%s%s%s",
		 units_format(UNIT_RATE, in->network_bandwidth, &bits, r,
			      sizeof(r)),
		 in->network_nics, in->network_nics == 1 ? "" : "s",
		 in->network_rdma ? ", RDMA" : ", no RDMA",
		 in->network_gpudirect ? ", GPUDirect" : "",
		 in->network_name ? ", " : "",
		 in->network_name ? in->network_name : "");
	show_field(out, "network", buf);
	show_price(out, c, in, currency);
	if (in->owned)
		show_purchase(out, in);
	show_field(out, "price as of", in->as_of);
	if (in->notes)
		show_field(out, "notes", in->notes);
	show_sources(out, &in->sources);
	fputc('\n', out);
	show_accelerator(out, in->acc);
}

static int show_not_found(const struct catalog *c, const char *name)
{
	const char **names = xcalloc(c->n_acc + c->n_inst + 1, sizeof(char *));
	size_t n = 0;
	for (size_t i = 0; i < c->n_inst; i++)
		names[n++] = c->inst[i].name;
	for (size_t i = 0; i < c->n_acc; i++)
		names[n++] = c->acc[i].name;
	char hint[128];
	const char *h = suggest_hint(name, names, n, hint, sizeof(hint));
	free(names);
	fprintf(stderr, "gpuplan: no instance or accelerator named '%s'%s%s%s\n",
		name, h ? " (" : "", h ? h : "", h ? ")" : "");
	return 2;
}

static int show_json(const struct catalog *c, const struct instance *in,
		     const struct accelerator *a, const char *currency,
		     FILE *out)
{
	json_t *j;
	char why[256];
	if (in) {
		j = instance_to_json(c, in, currency, why, sizeof(why));
		if (!j) {
			fprintf(stderr, "gpuplan: %s\n", why);
			return -1;
		}
	} else
		j = accelerator_to_json(a);
	json_t *root = json_object();
	json_object_set_new(root, "schema",
			    json_text("gpuplan/catalog-entry/v1"));
	json_object_set_new(root, in ? "instance" : "accelerator", j);
	json_write(out, root);
	json_decref(root);
	return 0;
}

int catalog_show(int argc, char **argv)
{
	struct parsed p;
	int rc = opts_parse(&show_spec, argc, argv, &p);
	enum out_format fmt = FORMAT_TABLE;
	struct catalog c;
	catalog_init(&c);
	if (rc != OPTS_OK || (rc = cli_format(&p, &show_spec, &fmt)) ||
	    (rc = cli_load_catalog(&p, &show_spec, &c)))
		goto out;
	const char *name = p.args[0];
	const char *currency = opt_value(&p, &show_spec, "currency");
	const struct instance *in = NULL;
	char why[1024];
	if (catalog_lookup_instance(&c, name, &in, why, sizeof(why)) == -2) {
		fprintf(stderr, "gpuplan: '%s' names %zu instances: %s (name one as PROVIDER/REGION/NAME or REGION/NAME)\n",
			name, catalog_count_matches(&c, name, NULL), why);
		rc = 2;
		goto out;
	}
	const struct accelerator *a = in ? NULL
					 : catalog_find_accelerator(&c, name);
	if (!in && !a) {
		rc = show_not_found(&c, name);
		goto out;
	}
	struct output o;
	output_open(&o);
	if (fmt == FORMAT_JSON) {
		if (show_json(&c, in, a, currency, o.f) < 0) {
			output_discard(&o);
			rc = 2;
			goto out;
		}
	} else if (in)
		show_instance(o.f, &c, in, currency);
	else
		show_accelerator(o.f, a);
	rc = output_finish(&o, opt_value(&p, &show_spec, "output"));
out:
	catalog_free(&c);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}


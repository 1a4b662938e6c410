/*
 * Catalog loading and arithmetic: a small fixture written here, with
 * figures computed by hand, and the shipped catalogs held against the
 * datasheet numbers in ../shared/reference/facts.md (NVIDIA H100/H200
 * product pages; A100 datasheet r4; T4 and L4 spec pages).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "catalog/instance_key.h"
#include "catalog/name_index.h"
#include "check.h"
#include "core/xalloc.h"

static const char *fixture =
	"schema: gpuplan/catalog/v1\n"
	"accelerators:\n"
	"  - name: X1\n"
	"    vendor: Test\n"
	"    form_factor: PCIe\n"
	"    memory: 16GB\n"
	"    memory_bandwidth: 300GB/s\n"
	"    peak_dense: {fp32: 10TFLOP/s, bf16: 100TFLOP/s, int8: 200TOPS}\n"
	"    interconnect: {kind: pcie, generation: 4, lanes: 16, bandwidth: 64GB/s}\n"
	"    host_interface: {kind: pcie, generation: 4, lanes: 16, bandwidth: 64GB/s}\n"
	"    tdp: 500W\n"
	"    source: {title: t, url: u, retrieved: 2026-11-30}\n"
	"instances:\n"
	"  - name: rent-4\n"
	"    provider: test\n"
	"    region: r\n"
	"    accelerator: X1\n"
	"    gpus: 4\n"
	"    vcpus: 32\n"
	"    memory: 256GiB\n"
	"    intra_node_link: {kind: pcie, bandwidth: 64GB/s}\n"
	"    network: {bandwidth: 100Gbit/s, rdma: false}\n"
	"    price: {on_demand: 10 USD/h, spot: 4 USD/h, spot_as_of: 2026-11-30}\n"
	"    source: {title: t, url: u, retrieved: 2026-11-30}\n"
	"    as_of: 2026-11-30\n"
	"  - name: own-8\n"
	"    provider: on-prem\n"
	"    region: here\n"
	"    accelerator: X1\n"
	"    gpus: 8\n"
	"    vcpus: 64\n"
	"    memory: 1TiB\n"
	"    intra_node_link: {kind: nvswitch, bandwidth: 900GB/s}\n"
	"    network: {bandwidth: 400Gbit/s, rdma: true}\n"
	"    purchase: {price: 262800 USD, lifetime: 3y, power_price: 0.1 USD/kWh, pue: 1.5, host_power: 1000W}\n"
	"    illustrative: true\n"
	"    source: {title: t, url: u, retrieved: 2026-11-30}\n"
	"    as_of: 2026-11\n"
	"exchange_rates:\n"
	"  base: USD\n"
	"  as_of: 2026-11-27\n"
	"  source: {title: t, url: u, retrieved: 2026-11-30}\n"
	"  rates: {CNY: 7.2, EUR: 0.9}\n";

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_fixture(void)
{
	const char *path = "/tmp/gpuplan-test-catalog.yaml";
	write_file(path, fixture);
	struct catalog c;
	struct gp_errors e;
	catalog_init(&c);
	gp_errors_init(&e);
	const char *paths[] = {path};
	int rc = catalog_load(&c, paths, 1, NULL, &e);
	gp_errors_print(&e, stderr);
	CHECK(rc == 0 && e.n == 0);
	CHECK(c.n_acc == 1 && c.n_inst == 2 && c.fx.present);

	const struct accelerator *a = catalog_find_accelerator(&c, "x1");
	CHECK(a && a->has_peak[PREC_BF16] && !a->has_peak[PREC_FP16]);
	CHECK_NEAR(a->peak[PREC_BF16], 100e12, 1e-12);
	CHECK_NEAR(a->peak[PREC_INT8], 200e12, 1e-12);

	const struct instance *r = catalog_find_instance(&c, "rent-4");
	CHECK(r && r->acc == a && r->has_spot && !r->owned);
	CHECK_NEAR(r->network_bandwidth, 12.5e9, 1e-12);
	CHECK_NEAR(r->memory, 274877906944.0, 1e-12);

	/* Owning cost by hand: 3 y = 26280 h, so 262800 USD / 26280 h =
	 * 10 USD/h; power (8 x 500 W + 1000 W) x 1.5 = 7.5 kW, x 0.1 USD/kWh
	 * = 0.75 USD/h; total 10.75 USD/h. */
	const struct instance *o = catalog_find_instance(&c, "own-8");
	CHECK(o && o->owned && o->illustrative);
	CHECK_NEAR(o->on_demand.amount, 10.75, 1e-12);
	CHECK_STR(o->on_demand.currency, "USD");
	CHECK(o->on_demand.per == MONEY_PER_HOUR);

	/* Conversion through the base: 10 USD = 72 CNY; 72 CNY = 9 EUR. */
	struct money m = {10, "USD", MONEY_PER_HOUR}, out;
	char why[256];
	CHECK(catalog_convert(&c, &m, "CNY", &out, why, sizeof(why)) == 0);
	CHECK_NEAR(out.amount, 72, 1e-12);
	CHECK_STR(out.currency, "CNY");
	struct money cny = {72, "CNY", MONEY_PER_HOUR};
	CHECK(catalog_convert(&c, &cny, "EUR", &out, why, sizeof(why)) == 0);
	CHECK_NEAR(out.amount, 9, 1e-12);
	CHECK(catalog_convert(&c, &m, "JPY", &out, why, sizeof(why)) == -1);
	CHECK(strstr(why, "no exchange rate for JPY") != NULL);

	/* A cheaper price never raises a converted cost. */
	struct money cheaper = {9.99, "USD", MONEY_PER_HOUR}, out2;
	catalog_convert(&c, &cheaper, "CNY", &out2, why, sizeof(why));
	CHECK(out2.amount < 72);

	catalog_free(&c);
	gp_errors_free(&e);
	remove(path);
}

/* Every problem is reported, not just the first. */
static void test_all_problems(void)
{
	const char *path = "/tmp/gpuplan-test-catalog-bad.yaml";
	write_file(path,
		   "schema: gpuplan/catalog/v1\n"
		   "instances:\n"
		   "  - name: a\n"
		   "    gpu_cout: 1\n"
		   "  - name: b\n"
		   "    gpus: zero\n");
	struct catalog c;
	struct gp_errors e;
	catalog_init(&c);
	gp_errors_init(&e);
	const char *paths[] = {path};
	CHECK(catalog_load(&c, paths, 1, NULL, &e) == -1);
	/* a: unknown key + 10 missing required keys; b: bad gpus + 10 missing. */
	CHECK(e.n >= 4);
	bool unknown = false, bad_gpus = false;
	for (size_t i = 0; i < e.n; i++) {
		unknown |= strstr(e.v[i].msg, "unknown key 'gpu_cout'") != NULL;
		bad_gpus |= strstr(e.v[i].msg, "'gpus' expects a whole number") != NULL;
	}
	CHECK(unknown && bad_gpus);
	catalog_free(&c);
	gp_errors_free(&e);
	remove(path);
}

struct datasheet_case {
	const char *name;
	enum precision p;
	double peak;
	double memory_bandwidth;
	double tdp;
};

/* Dense figures from facts.md, each with its source there. */
static const struct datasheet_case datasheet[] = {
	{"H100-SXM", PREC_BF16, 989.5e12, 3.35e12, 700},
	{"H100-SXM", PREC_FP8, 1979e12, 3.35e12, 700},
	{"H100-SXM", PREC_INT8, 1979e12, 3.35e12, 700},
	{"H200-SXM", PREC_BF16, 989.5e12, 4.8e12, 700},
	{"A100-SXM-80GB", PREC_BF16, 312e12, 2.039e12, 400},
	{"A100-PCIe-40GB", PREC_TF32, 156e12, 1.555e12, 250},
	{"L4", PREC_FP16, 121e12, 300e9, 72},
	{"T4", PREC_FP16, 65e12, 320e9, 70},
	{"L40S", PREC_BF16, 362e12, 864e9, 350},
};

static void test_shipped(void)
{
	struct catalog c;
	struct gp_errors e;
	catalog_init(&c);
	gp_errors_init(&e);
	int rc = catalog_load_shipped(&c, GPUPLAN_SOURCE_DIR, &e);
	gp_errors_print(&e, stderr);
	CHECK(rc == 0);
	for (size_t i = 0; i < sizeof(datasheet) / sizeof(datasheet[0]); i++) {
		const struct datasheet_case *d = &datasheet[i];
		const struct accelerator *a = catalog_find_accelerator(&c, d->name);
		if (!a)
			fprintf(stderr, "shipped catalog lacks %s\n", d->name);
		CHECK(a != NULL);
		if (!a)
			continue;
		CHECK(a->has_peak[d->p]);
		CHECK_NEAR(a->peak[d->p], d->peak, 1e-9);
		CHECK_NEAR(a->memory_bandwidth, d->memory_bandwidth, 1e-9);
		CHECK_NEAR(a->tdp, d->tdp, 1e-9);
	}
	/* A100 has no FP8 (a known error in circulation says 624). */
	const struct accelerator *a100 = catalog_find_accelerator(&c, "A100-SXM-80GB");
	CHECK(a100 && !a100->has_peak[PREC_FP8]);
	/* ... and says so (`lacks:`), where the A10G's missing int8 is a
	 * figure the catalog could not source, not a missing format. */
	CHECK(a100 && a100->lacks[PREC_FP8] && !a100->lacks[PREC_BF16]);
	const struct accelerator *a10g = catalog_find_accelerator(&c, "A10G");
	CHECK(a10g && !a10g->has_peak[PREC_INT8] && !a10g->lacks[PREC_INT8]);
	CHECK(a10g && a10g->has_peak[PREC_BF16]);
	const struct accelerator *t4 = catalog_find_accelerator(&c, "T4");
	CHECK(t4 && t4->lacks[PREC_BF16] && t4->lacks[PREC_TF32] &&
	      !t4->lacks[PREC_INT8]);
	/* Every instance resolved, priced and sourced. */
	bool providers[5] = {false};
	const char *want[] = {"aws", "gcp", "azure", "alibaba", "on-prem"};
	for (size_t i = 0; i < c.n_inst; i++) {
		const struct instance *in = &c.inst[i];
		CHECK(in->acc != NULL);
		CHECK(in->on_demand.amount > 0);
		CHECK(in->sources.n >= 1);
		for (int k = 0; k < 5; k++)
			providers[k] |= strcmp(in->provider, want[k]) == 0;
		if (strcmp(in->provider, "alibaba") == 0)
			CHECK_STR(in->on_demand.currency, "CNY");
	}
	for (int k = 0; k < 5; k++) {
		if (!providers[k])
			fprintf(stderr, "no %s instance shipped\n", want[k]);
		CHECK(providers[k]);
	}
	catalog_free(&c);
	gp_errors_free(&e);
}

/* Case-blind as strcasecmp in the C locale: ASCII letters fold, any
 * other byte is itself (so "É" and "é" are two names). */
static void test_name_index(void)
{
	struct name_index x;
	name_index_init(&x);
	size_t v = 99;
	CHECK(name_index_add(&x, "H100-SXM", 0, NULL));
	CHECK(name_index_add(&x, "a100-sxm-80gb", 1, NULL));
	CHECK(!name_index_add(&x, "h100-sxm", 2, &v) && v == 0);
	CHECK(!name_index_add(&x, "A100-SXM-80GB", 3, &v) && v == 1);
	CHECK(name_index_add(&x, "\xC3\x89", 4, NULL));		/* É */
	CHECK(name_index_add(&x, "\xC3\xA9", 5, NULL));		/* é */
	CHECK(name_index_find(&x, "H100-sxm", &v) && v == 0);
	CHECK(!name_index_find(&x, "H100", NULL));
	char *long_name = xcalloc(1001, 1);
	memset(long_name, 'Q', 1000);	/* longer than the lookup's buffer */
	CHECK(name_index_add(&x, long_name, 6, NULL));
	memset(long_name, 'q', 1000);
	CHECK(name_index_find(&x, long_name, &v) && v == 6);
	free(long_name);
	name_index_free(&x);
}

/*
 * Thousands of accelerators and instances, each instance naming its
 * accelerator in another case: every one resolves to the right entry
 * (through the index, not a scan per instance), a duplicate name is
 * reported at the later entry with where the first is, and an unknown
 * name gets its did-you-mean.
 */
static void test_many_names(void)
{
	const char *path = "/tmp/gpuplan-test-catalog-many.yaml";
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	const int n = 3000;
	fprintf(f, "schema: gpuplan/catalog/v1\naccelerators:\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "  - {name: Acc-%d, vendor: T, form_factor: PCIe, memory: 16GB,"
			   " memory_bandwidth: 300GB/s, peak_dense: {fp32: 10TFLOP/s},"
			   " interconnect: {kind: none}, host_interface: {kind: none},"
			   " tdp: 70W, source: {title: t, url: u, retrieved: 2026-11-30}}\n",
			i);
	fprintf(f, "instances:\n");
	/* instance i < n names ACC-(7i mod n); n names ACC-70x (unknown,
	 * one edit from Acc-70); n + 1 is INST-7, inst-7 again */
	for (int i = 0; i < n + 2; i++) {
		char acc[32];
		if (i < n)
			snprintf(acc, sizeof(acc), "ACC-%d", (7 * i) % n);
		fprintf(f, "  - {name: %s-%d, provider: p, region: r, accelerator: %s,"
			   " gpus: 1, vcpus: 4, memory: 16GB, intra_node_link: {kind: none},"
			   " network: {bandwidth: 10Gbit/s, rdma: false},"
			   " price: {on_demand: 1 USD/h},"
			   " source: {title: t, url: u, retrieved: 2026-11-30}, as_of: 2026-11-30}\n",
			i == n + 1 ? "INST" : "inst", i == n + 1 ? 7 : i,
			i < n ? acc : i == n ? "ACC-70x" : "acc-1");
	}
	fclose(f);
	struct catalog c;
	struct gp_errors e;
	catalog_init(&c);
	gp_errors_init(&e);
	const char *paths[] = {path};
	CHECK(catalog_load(&c, paths, 1, NULL, &e) == -1);
	CHECK(c.n_acc == (size_t)n && c.n_inst == (size_t)(n + 2));
	for (int i = 0; i < n; i++) {
		char want[32];
		snprintf(want, sizeof(want), "Acc-%d", (7 * i) % n);
		CHECK(c.inst[i].acc && strcmp(c.inst[i].acc->name, want) == 0);
	}
	CHECK(c.inst[n + 1].acc == &c.acc[1]);
	char msg[512];
	CHECK(e.n == 2);
	gp_error_format(&e.v[0], msg, sizeof(msg));
	CHECK_HAS(msg, ":6005:5: duplicate instance 'p/r/INST-7': the same provider, region and name (first defined at /tmp/gpuplan-test-catalog-many.yaml:3011:5)");
	gp_error_format(&e.v[e.n - 1], msg, sizeof(msg));
	CHECK_HAS(msg, "instance 'inst-3000' names unknown accelerator 'ACC-70x' (did you mean 'Acc-70'?)");
	catalog_free(&c);
	gp_errors_free(&e);
	remove(path);
}

/*
 * A flood of empty entries: every problem is still counted (the same
 * number per entry as for a few), but past the kept problems the entries
 * are not kept, so memory stays that of the file's tree.
 */
static size_t flood_problems(int entries, size_t *kept)
{
	const char *path = "/tmp/gpuplan-test-catalog-flood.yaml";
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return 0;
	fprintf(f, "schema: gpuplan/catalog/v1\ninstances:\n");
	for (int i = 0; i < entries; i++)
		fprintf(f, "  - {}\n");
	fclose(f);
	struct catalog c;
	struct gp_errors e;
	catalog_init(&c);
	gp_errors_init(&e);
	const char *paths[] = {path};
	CHECK(catalog_load(&c, paths, 1, NULL, &e) == -1);
	size_t n = gp_errors_count(&e);
	*kept = c.n_inst;
	catalog_free(&c);
	gp_errors_free(&e);
	remove(path);
	return n;
}

static void test_flood(void)
{
	size_t kept;
	size_t few = flood_problems(4, &kept);
	CHECK(few > 0 && few % 4 == 0 && kept == 4);
	size_t many = flood_problems(4000, &kept);
	CHECK(many == few / 4 * 4000);
	CHECK(kept * (few / 4) <= GP_ERRORS_MAX_KEPT + few / 4);
}

/* Rates are looked up by a sorted copy, and printed in file order. */
static void test_rates_order(void)
{
	const char *path = "/tmp/gpuplan-test-catalog-rates.yaml";
	write_file(path,
		   "schema: gpuplan/catalog/v1\n"
		   "exchange_rates:\n"
		   "  base: USD\n"
		   "  as_of: 2026-11-27\n"
		   "  source: {title: t, url: u, retrieved: 2026-11-30}\n"
		   "  rates: {ZAR: 18, CNY: 7.2, JPY: 150, EUR: 0.9, AUD: 1.5}\n");
	struct catalog c;
	struct gp_errors e;
	catalog_init(&c);
	gp_errors_init(&e);
	const char *paths[] = {path};
	CHECK(catalog_load(&c, paths, 1, NULL, &e) == 0);
	static const struct {
		const char *code;
		double per_usd;
	} want[] = {{"ZAR", 18}, {"CNY", 7.2}, {"JPY", 150}, {"EUR", 0.9},
		    {"AUD", 1.5}, {"USD", 1}};
	char why[256];
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct money m = {2, "USD", MONEY_TOTAL}, out;
		CHECK(catalog_convert(&c, &m, want[i].code, &out, why, sizeof(why)) == 0);
		CHECK_NEAR(out.amount, 2 * want[i].per_usd, 1e-12);
	}
	struct money m = {2, "USD", MONEY_TOTAL}, out;
	CHECK(catalog_convert(&c, &m, "GBP", &out, why, sizeof(why)) == -1);
	CHECK(c.fx.n == 5 && strcmp(c.fx.v[0].code, "ZAR") == 0 &&
	      strcmp(c.fx.v[4].code, "AUD") == 0);
	catalog_free(&c);
	gp_errors_free(&e);
	remove(path);
}

/* A MIG slice cannot hold more memory than its GPU. */
static void test_mig_memory(void)
{
	const char *path = "/tmp/gpuplan-test-catalog-mig.yaml";
	write_file(path,
		   "schema: gpuplan/catalog/v1\n"
		   "accelerators:\n"
		   "  - name: M1\n"
		   "    vendor: T\n"
		   "    form_factor: SXM\n"
		   "    memory: 40GB\n"
		   "    memory_bandwidth: 1.5TB/s\n"
		   "    peak_dense: {fp32: 19.5TFLOP/s}\n"
		   "    interconnect: {kind: none}\n"
		   "    host_interface: {kind: none}\n"
		   "    tdp: 400W\n"
		   "    mig: [{profile: 1g.80gb, memory: 80GB, max_instances: 7}]\n"
		   "    source: {title: t, url: u, retrieved: 2026-11-30}\n");
	struct catalog c;
	struct gp_errors e;
	catalog_init(&c);
	gp_errors_init(&e);
	const char *paths[] = {path};
	CHECK(catalog_load(&c, paths, 1, NULL, &e) == -1);
	char msg[300];
	CHECK(e.n == 1);
	gp_error_format(&e.v[0], msg, sizeof(msg));
	CHECK_STR(msg, "/tmp/gpuplan-test-catalog-mig.yaml:12:38: MIG profile '1g.80gb' of accelerator 'M1' has more memory than the whole GPU");
	catalog_free(&c);
	gp_errors_free(&e);
	remove(path);
}

int main(void)
{
	test_fixture();
	test_all_problems();
	test_shipped();
	test_name_index();
	test_many_names();
	test_rates_order();
	test_mig_memory();
	test_flood();
	return check_summary("catalog");
}

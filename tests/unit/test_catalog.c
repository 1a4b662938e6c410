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
#include "check.h"

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
	"    price: {on_demand: 10 USD/h, spot: 4 USD/h}\n"
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

int main(void)
{
	test_fixture();
	test_all_problems();
	test_shipped();
	return check_summary("catalog");
}

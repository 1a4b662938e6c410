/*
 * Instances keyed by provider, region and name (catalog/instance_key.h),
 * and the rule that a source's title and URL name one publisher
 * (catalog/source_publisher.h): a fixture written here, every answer
 * worked out by hand.
 */
#include <stdio.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/instance_key.h"
#include "catalog/source_publisher.h"
#include "check.h"

/* One accelerator; the type "t1" in three places (two AWS regions and a
 * second provider with a region named like the first), and "solo" once. */
#define ENTRY(name, provider, region, price)                               \
	"  - name: " name "\n"                                             \
	"    provider: " provider "\n"                                         \
	"    region: " region "\n"                                             \
	"    accelerator: X1\n"                                             \
	"    gpus: 1\n"                                                     \
	"    vcpus: 4\n"                                                    \
	"    memory: 16GiB\n"                                               \
	"    intra_node_link: {kind: none}\n"                               \
	"    network: {bandwidth: 10Gbit/s, rdma: false}\n"                 \
	"    price: {on_demand: " price ", spot: 0.5 USD/h, spot_as_of: 2026-11-30}\n" \
	"    source: {title: t, url: u, retrieved: 2026-11-30}\n"           \
	"    as_of: 2026-11-30\n"

static const char *fixture =
	"schema: gpuplan/catalog/v1\n"
	"accelerators:\n"
	"  - name: X1\n"
	"    vendor: Test\n"
	"    form_factor: PCIe\n"
	"    memory: 16GB\n"
	"    memory_bandwidth: 300GB/s\n"
	"    peak_dense: {fp32: 10TFLOP/s}\n"
	"    interconnect: {kind: pcie, generation: 4, lanes: 16, bandwidth: 64GB/s}\n"
	"    host_interface: {kind: pcie, generation: 4, lanes: 16, bandwidth: 64GB/s}\n"
	"    tdp: 100W\n"
	"    source: {title: t, url: u, retrieved: 2026-11-30}\n"
	"instances:\n"
	ENTRY("t1", "aws", "us-east-1", "1 USD/h")
	ENTRY("t1", "aws", "eu-central-1", "1.25 USD/h")
	ENTRY("T1", "other", "us-east-1", "0.9 USD/h")
	ENTRY("solo", "aws", "us-east-1", "2 USD/h");

static int load(struct catalog *c)
{
	const char *path = "/tmp/gpuplan-test-instance-key.yaml";
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return -1;
	fputs(fixture, f);
	fclose(f);
	struct gp_errors e;
	gp_errors_init(&e);
	const char *paths[] = {path};
	int rc = catalog_load(c, paths, 1, NULL, &e);
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	return rc;
}

static void test_matching(const struct catalog *c)
{
	const struct instance *first = NULL;
	/* a bare name takes every region and provider, case-blind */
	CHECK(catalog_count_matches(c, "T1", &first) == 3);
	CHECK(first == &c->inst[0]);
	/* REGION/NAME: us-east-1 has it from aws and from other */
	CHECK(catalog_count_matches(c, "us-east-1/t1", NULL) == 2);
	CHECK(catalog_count_matches(c, "EU-CENTRAL-1/t1", &first) == 1);
	CHECK(first == &c->inst[1]);
	/* PROVIDER/REGION/NAME: exactly one */
	CHECK(catalog_find_instance(c, "other/us-east-1/t1") == &c->inst[2]);
	CHECK(catalog_find_instance(c, "aws/us-east-1/t1") == &c->inst[0]);
	/* ambiguous or absent: no single answer */
	CHECK(catalog_find_instance(c, "t1") == NULL);
	CHECK(catalog_count_matches(c, "us-west-2/t1", NULL) == 0);
	CHECK(catalog_count_matches(c, "aws/eu-central-1/solo", NULL) == 0);
	CHECK(catalog_count_matches(c, "/t1", NULL) == 0);
	CHECK(catalog_count_matches(c, "aws//t1", NULL) == 0);
	CHECK(catalog_find_instance(c, "solo") == &c->inst[3]);
}

static void test_lookup(const struct catalog *c)
{
	const struct instance *in;
	char why[512];
	CHECK(catalog_lookup_instance(c, "t1", &in, why, sizeof(why)) == -2);
	CHECK(in == NULL);
	CHECK_STR(why, "aws/us-east-1/t1, aws/eu-central-1/t1, other/us-east-1/T1");
	CHECK(catalog_lookup_instance(c, "eu-central-1/t1", &in, why,
				      sizeof(why)) == 0);
	CHECK(in == &c->inst[1]);
	/* the suggestion is spelled as the question was */
	CHECK(catalog_lookup_instance(c, "eu-centrl-1/t1", &in, why,
				      sizeof(why)) == -1);
	CHECK_HAS(why, "eu-central-1/t1");
	CHECK(catalog_lookup_instance(c, "sol", &in, why, sizeof(why)) == -1);
	CHECK_HAS(why, "'solo'");
}

static void test_labels(struct catalog *c)
{
	/* after loading: the bare name when unique, else the shortest
	 * unique spelling */
	CHECK_STR(c->inst[0].label, "aws/us-east-1/t1");
	CHECK_STR(c->inst[1].label, "eu-central-1/t1");
	CHECK_STR(c->inst[2].label, "other/us-east-1/T1");
	CHECK_STR(c->inst[3].label, "solo");
	CHECK_STR(c->inst[3].shown, "solo");
	/* a plan spanning regions names the region of every option */
	catalog_label_instances(c, true);
	CHECK_STR(c->inst[3].shown, "us-east-1/solo");
	CHECK_STR(c->inst[1].shown, "eu-central-1/t1");
	CHECK_STR(c->inst[0].shown, "aws/us-east-1/t1");
	CHECK_STR(c->inst[3].label, "solo");
	catalog_label_instances(c, false);
	CHECK_STR(c->inst[3].shown, "solo");
	CHECK_STR(c->inst[1].shown, "t1");
}

static void test_filter(const struct catalog *c)
{
	const char *regions[] = {"US-EAST-1"};
	const char *providers[] = {"aws", "OTHER"};
	struct instance_filter f = {providers, 1, regions, 1};
	CHECK(instance_filter_keeps(&f, &c->inst[0]));
	CHECK(!instance_filter_keeps(&f, &c->inst[1]));	/* eu-central-1 */
	CHECK(!instance_filter_keeps(&f, &c->inst[2]));	/* other */
	f.n_providers = 2;
	CHECK(instance_filter_keeps(&f, &c->inst[2]));
	struct instance_filter none = {0};
	CHECK(instance_filter_keeps(&none, &c->inst[1]));

	char why[256];
	CHECK(instance_filter_check(&f, c, why, sizeof(why)) == 0);
	const char *bad_region[] = {"us-east-2"};
	struct instance_filter g = {NULL, 0, bad_region, 1};
	CHECK(instance_filter_check(&g, c, why, sizeof(why)) == -1);
	CHECK_STR(why, "unknown region 'us-east-2' (did you mean 'us-east-1'?)");
	const char *bad_provider[] = {"awz"};
	struct instance_filter h = {bad_provider, 1, NULL, 0};
	CHECK(instance_filter_check(&h, c, why, sizeof(why)) == -1);
	CHECK_STR(why, "unknown provider 'awz' (did you mean 'aws'?)");
}

static void test_publisher(void)
{
	char why[512] = "";
	/* the publisher's own host, or a subdomain of it */
	CHECK(source_publisher_agrees("Xinhua: rates", "https://english.news.cn/2026/c.html", why, sizeof(why)));
	CHECK(source_publisher_agrees("AWS Batch User Guide: GPU jobs", "https://docs.aws.amazon.com/batch/", why, sizeof(why)));
	CHECK(source_publisher_agrees("European Central Bank: reference rates", "https://www.ecb.europa.eu/stats", why, sizeof(why)));
	/* a mirror under the publisher's name */
	CHECK(!source_publisher_agrees("Xinhua: rates", "http://www.sjzmxmy.com/english/c.html", why, sizeof(why)));
	CHECK_STR(why, "the source title names Xinhua but its URL is on www.sjzmxmy.com, not news.cn or xinhuanet.com");
	/* a host that only ends in the domain's letters is not a subdomain */
	CHECK(!source_publisher_agrees("NVIDIA: datasheet", "https://notnvidia.com/x", why, sizeof(why)));
	CHECK(!source_publisher_agrees("Amazon EC2 guide: EFA", "https://docs---aws.amazon.com.rproxy.goskope.com/x", why, sizeof(why)));
	/* user, port and case do not matter */
	CHECK(source_publisher_agrees("nvidia: x", "https://u@DOCS.NVIDIA.COM:443/x", why, sizeof(why)));
	/* the rule does not apply: no colon, another first word, a
	 * title that says mirror, a word that only begins like a publisher */
	CHECK(source_publisher_agrees("Xinhua rates of Jan. 27", "http://example.com", why, sizeof(why)));
	CHECK(source_publisher_agrees("skypilot-org/skypilot-catalog vms.csv: AWS", "https://github.com/x", why, sizeof(why)));
	CHECK(source_publisher_agrees("Xinhua (mirror): rates", "http://www.sjzmxmy.com/c.html", why, sizeof(why)));
	CHECK(source_publisher_agrees("NVIDIA/nccl issue #527: bandwidth", "https://github.com/NVIDIA/nccl", why, sizeof(why)));
	CHECK(source_publisher_agrees("AWSome blog: x", "https://example.com", why, sizeof(why)));
	CHECK(source_publisher_agrees("Xinhua: rates", NULL, why, sizeof(why)));
}

int main(void)
{
	struct catalog c;
	catalog_init(&c);
	if (load(&c) == 0) {
		CHECK(c.n_inst == 4);
		test_matching(&c);
		test_lookup(&c);
		test_labels(&c);
		test_filter(&c);
	} else
		CHECK(!"the fixture loads: same names in other regions are no duplicates");
	catalog_free(&c);
	test_publisher();
	return check_summary("instance_key");
}

/*
 * Reference baselines (src/profile/baseline.h): the verdict arithmetic on
 * hand-computed cases, the strict loader's refusals with their positions,
 * the shipped file against the shipped catalog, and a verdict through the
 * catalog.  Run from the source root (ctest does).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/precision.h"
#include "profile/baseline.h"

static struct baseline_entry entry(enum baseline_figure f, int prec, double low,
				   double high)
{
	struct baseline_entry e;
	memset(&e, 0, sizeof(e));
	e.figure = f;
	e.precision = prec;
	e.low = low;
	e.high = high;
	return e;
}

/* bf16 GEMM, healthy 0.76-0.81 of 989.5 TFLOP/s:
 *   633.28 / 989.5 = 0.64      -> 64%, below 76: low
 *   794.5  / 989.5 = 0.80293   -> 80%: normal
 *   751.0  / 989.5 = 0.75897   -> 76% as printed: normal (the edge)
 *   746.0  / 989.5 = 0.75392   -> 75%: low
 *   811.39 / 989.5 = 0.82      -> 82%: high */
static void test_judge(void)
{
	int bf16 = precision_from_name("bf16");
	struct baseline_entry e = entry(BASE_GEMM, bf16, 0.76, 0.81);
	struct baseline_verdict v;
	baseline_judge(&e, 989.5e12, 633.28e12, &v);
	CHECK(v.kind == VERDICT_LOW);
	CHECK_NEAR(v.fraction, 0.64, 1e-12);
	CHECK_STR(v.text, "bf16 GEMM at 64% of datasheet, healthy parts reach 76\xe2\x80\x93" "81%: check clocks and throttling");
	baseline_judge(&e, 989.5e12, 794.5e12, &v);
	CHECK(v.kind == VERDICT_NORMAL);
	CHECK_STR(v.text, "bf16 GEMM at 80% of datasheet, healthy parts reach 76\xe2\x80\x93" "81%: normal");
	baseline_judge(&e, 989.5e12, 751.0e12, &v);
	CHECK(v.kind == VERDICT_NORMAL);
	baseline_judge(&e, 989.5e12, 746.0e12, &v);
	CHECK(v.kind == VERDICT_LOW);
	baseline_judge(&e, 989.5e12, 811.39e12, &v);
	CHECK(v.kind == VERDICT_HIGH);
	/* HBM: 1.31 TB/s of 2.039 TB/s = 0.6425 -> 64%, the example */
	e = entry(BASE_HBM, -1, 0.83, 0.89);
	baseline_judge(&e, 2039e9, 1310e9, &v);
	CHECK_STR(v.text, "HBM bandwidth at 64% of datasheet, healthy parts reach 83\xe2\x80\x93" "89%: check clocks and throttling");
	/* a slow link says what to check about a link */
	e = entry(BASE_H2D, -1, 0.57, 0.61);
	baseline_judge(&e, 16e9, 4.8e9, &v);
	CHECK(v.kind == VERDICT_LOW);
	CHECK_HAS(v.text, "host-to-device (pinned) at 30% of datasheet");
	CHECK_HAS(v.text, "check the link's width and generation");
}

static const char good[] =
	"schema: gpuplan/baselines/v1\n"
	"baselines:\n"
	"  - accelerator: H100-SXM\n"
	"    figure: gemm\n"
	"    precision: bf16\n"
	"    healthy: {low: 0.76, high: 0.81}\n"
	"    measured:\n"
	"      - {value: 794.5TFLOP/s, what: \"MAMF v2\"}\n"
	"    source:\n"
	"      - {title: t, url: https://example.org/, retrieved: 2026-12-02}\n";

/* The first problem of parsing text, as "line:col: message". */
static void first_problem(const char *text, char *buf, size_t len)
{
	struct baselines b;
	struct gp_errors errs;
	gp_errors_init(&errs);
	buf[0] = '\0';
	if (baselines_parse(&b, "b.yaml", text, strlen(text), &errs) < 0 && errs.n)
		snprintf(buf, len, "%d:%d: %s", errs.v[0].line, errs.v[0].col,
			 errs.v[0].msg);
	baselines_free(&b);
	gp_errors_free(&errs);
}

/* good with one line replaced (the first line holding `from`). */
static char *with(const char *from, const char *to)
{
	const char *at = strstr(good, from);
	size_t n = strlen(good) + strlen(to) + 1;
	char *s = malloc(n);
	snprintf(s, n, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
	return s;
}

static void test_refusals(void)
{
	static const struct {
		const char *from, *to, *want;
	} cases[] = {
		{"figure: gemm", "figure: flops", "4:13: expected 'figure' hbm_bandwidth, gemm or host_to_device, found 'flops'"},
		{"precision: bf16", "precision: bf17", "5:16: expected a precision like bf16 or fp8, found 'bf17'"},
		{"low: 0.76, high: 0.81", "low: 0.9, high: 0.81", "6:14: 'healthy' low 0.9 is above its high 0.81"},
		{"low: 0.76", "low: 1.5", "6:20: 'low' must be from 0.001 to 1, found '1.5'"},
		{"794.5TFLOP/s", "794.5GB/s", "8:22: 'value': unknown unit 'GB/s': expected a compute rate"},
		{"    precision: bf16\n", "", "3:5: a gemm baseline needs 'precision'"},
		{"    healthy:", "    healty:", "6:5: unknown key 'healty'"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = with(cases[i].from, cases[i].to), got[400];
		first_problem(text, got, sizeof(got));
		CHECK(strncmp(got, cases[i].want, strlen(cases[i].want)) == 0);
		if (strncmp(got, cases[i].want, strlen(cases[i].want)))
			fprintf(stderr, "  case %zu: got '%s'\n", i, got);
		free(text);
	}
	char got[400];
	first_problem(good, got, sizeof(got));
	CHECK_STR(got, "");
}

static void load_shipped(struct catalog *c, struct baselines *b)
{
	struct gp_errors errs;
	gp_errors_init(&errs);
	catalog_init(c);
	CHECK(catalog_load_shipped(c, ".", &errs) == 0);
	CHECK(baselines_load_shipped(b, ".", &errs) == 0);
	CHECK(baselines_check(b, c, &errs) == 0);
	if (errs.n)
		gp_errors_print(&errs, stderr);
	gp_errors_free(&errs);
}

/* The shipped file holds against the shipped catalog, and a verdict
 * through it: H100-SXM bf16 at 633.28 TFLOP/s is 64% of 989.5. */
static void test_shipped(void)
{
	struct catalog c;
	struct baselines b;
	load_shipped(&c, &b);
	CHECK(b.n > 0);
	struct baseline_verdict v;
	baseline_verdict(&b, &c, BASE_GEMM, precision_from_name("bf16"), 633.28e12,
			 "H100-SXM", &v);
	CHECK(v.kind == VERDICT_LOW);
	CHECK_HAS(v.text, "bf16 GEMM at 64% of datasheet");
	baseline_verdict(&b, &c, BASE_GEMM, precision_from_name("fp64"), 20e12,
			 "H100-SXM", &v);
	CHECK(v.kind == VERDICT_NONE);
	CHECK_HAS(v.text, "no published baseline for H100-SXM");
	baseline_verdict(&b, &c, BASE_HBM, -1, 1e11, "AMD EPYC", &v);
	CHECK(v.kind == VERDICT_NONE);
	CHECK_HAS(v.text, "'AMD EPYC' is not a catalog accelerator");
	baselines_free(&b);

	/* a measurement outside its own range, an unknown accelerator */
	struct gp_errors errs;
	gp_errors_init(&errs);
	char *text = with("794.5TFLOP/s", "600TFLOP/s");
	CHECK(baselines_parse(&b, "b.yaml", text, strlen(text), &errs) == 0);
	CHECK(baselines_check(&b, &c, &errs) == 1);
	CHECK(errs.n == 1 && errs.v[0].line == 8);
	if (errs.n)
		CHECK_HAS(errs.v[0].msg, "is 60.6% of H100-SXM's datasheet figure, outside its healthy 76\xe2\x80\x93" "81%");
	baselines_free(&b);
	free(text);
	gp_errors_free(&errs);
	gp_errors_init(&errs);
	text = with("H100-SXM", "H100-SMX");
	CHECK(baselines_parse(&b, "b.yaml", text, strlen(text), &errs) == 0);
	CHECK(baselines_check(&b, &c, &errs) == 1);
	if (errs.n) {
		CHECK_STR(errs.v[0].msg, "no accelerator 'H100-SMX' in the catalog");
		CHECK(errs.v[0].hint && strstr(errs.v[0].hint, "H100-SXM"));
	}
	baselines_free(&b);
	free(text);
	gp_errors_free(&errs);
	catalog_free(&c);
}

int main(void)
{
	test_judge();
	test_refusals();
	test_shipped();
	return check_summary("baseline");
}

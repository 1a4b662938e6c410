/*
 * The plan JSON reader (report/plan_load.h, report/json_read.h): a
 * table of small plans, each with the exact message it must give, its
 * line and column worked by hand, or NULL when it must load.  Then the
 * figures of a plan that loads, a plan that outlives its text (nothing
 * may point into it: ASan sees a use after free), a document gpuplan
 * built (r_plan_from_json), and the shipped plan's size in memory.
 *
 * Most cases change one line of one plan: line 4, an option's last
 * members, which must hold "cost" and "provider":
 *
 *   1 {"schema": "gpuplan/plan/v1", "currency": "USD", "workloads": [
 *   2 {"name": "w", ..., "recommended": 0, "options": [
 *   3 {"instance": "i", "accelerator": "a", ..., "reason_codes": [],
 *   4 X
 *   5 }]}]}
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/xalloc.h"
#include "report/json_read.h"
#include "report/plan_load.h"
#include "report/report_data.h"

#define L1 "{\"schema\": \"gpuplan/plan/v1\", \"currency\": \"USD\", \"workloads\": [\n"
#define L2 "{\"name\": \"w\", \"kind\": \"training\", \"model\": \"m\", " \
	"\"precision\": \"bf16\", \"recommendation\": \"r\", \"op_classes\": {}, " \
	"\"recommended\": 0, \"options\": [\n"
#define L3 "{\"instance\": \"i\", \"accelerator\": \"a\", \"gpus\": 1, " \
	"\"nodes\": 1, \"gpu_hours\": 1, \"memory_per_gpu_bytes\": 1, " \
	"\"memory_capacity_bytes\": 2, \"time_s\": 3, \"reason_codes\": [],\n"
#define PLAN(x) L1 L2 L3 x "\n}]}]}"
#define OK_X "\"cost\": 1, \"provider\": \"p\""

/*
 * Load curves: a service's option (line 3) whose "load_curve" opens on
 * line 4 and holds the points on line 5.
 */
#define S2 "{\"name\": \"s\", \"kind\": \"inference\", \"model\": \"m\", " \
	"\"precision\": \"bf16\", \"recommendation\": \"r\", \"op_classes\": {}, " \
	"\"recommended\": 0, \"options\": [\n"
#define S3 "{\"instance\": \"i\", \"provider\": \"p\", \"accelerator\": \"a\", " \
	"\"gpus\": 1, \"nodes\": 1, \"cost\": 1, \"gpu_hours\": 1, " \
	"\"memory_per_gpu_bytes\": 1, \"memory_capacity_bytes\": 2, " \
	"\"p99_latency_s\": 1, \"replicas\": 1, \"reason_codes\": [],\n"
#define CURVE(x) L1 S2 S3 "\"load_curve\": {\"replicas\": 1, \"points\": [\n" x "\n]}}]}]}"
#define PT(r) "{\"request_rate_per_s\": " r ", \"e2e_p50_s\": 1, \"e2e_p99_s\": 2, " \
	"\"saturated\": false}"
#define SAT(r) "{\"request_rate_per_s\": " r ", \"e2e_p99_s\": null, \"saturated\": true}"

struct read_case {
	const char *text;
	size_t len;		/* the literal's bytes: some hold a NUL */
	const char *want;	/* the whole message, or NULL: it loads */
};

#define CASE(text, want) {text, sizeof(text) - 1, want}

static const struct read_case cases[] = {
	CASE(PLAN(OK_X), NULL),
	/* wrong types and ranges, at the value, with the JSON path */
	CASE(PLAN("\"cost\": \"cheap\", \"provider\": \"p\""),
	     "p.json:4:9: workloads[0].options[0].cost: expected a number, found a string"),
	CASE(PLAN("\"cost\": -1, \"provider\": \"p\""),
	     "p.json:4:9: workloads[0].options[0].cost: expected a number from 0 to 1e+100, found -1"),
	CASE(PLAN("\"cost\": 1e101, \"provider\": \"p\""),
	     "p.json:4:9: workloads[0].options[0].cost: expected a number from 0 to 1e+100, found 1e+101"),
	CASE(PLAN("\"cost\": null, \"provider\": \"p\""),
	     "p.json:4:9: workloads[0].options[0].cost: expected a number, found null"),
	/* a subnormal price's cost is a number like any other */
	CASE(PLAN("\"cost\": 5e-324, \"provider\": \"p\""), NULL),
	CASE(PLAN(OK_X ", \"dp\": 1.5"),
	     "p.json:4:35: workloads[0].options[0].dp: expected a whole number from 0 to 1000000000, found 1.5"),
	CASE(PLAN(OK_X ", \"replicas\": 2e9, \"micro_batch\": -2"),
	     "p.json:4:61: workloads[0].options[0].micro_batch: expected a whole number from 0 to 1000000000, found -2"),
	CASE(PLAN(OK_X ", \"pareto\": \"yes\""),
	     "p.json:4:39: workloads[0].options[0].pareto: expected true or false, found a string"),
	CASE(PLAN(OK_X ", \"breakdown\": {\"compute_s\": []}"),
	     "p.json:4:56: workloads[0].options[0].breakdown.compute_s: expected a number, found a list"),
	CASE(PLAN(OK_X ", \"breakdown\": 7"),
	     "p.json:4:42: workloads[0].options[0].breakdown: expected an object, found a number"),
	/* a missing key is placed at its object */
	CASE(PLAN("\"provider\": \"p\""),
	     "p.json:3:1: workloads[0].options[0].cost: expected a number, found nothing (the key is missing)"),
	/* the same key twice: at the second */
	CASE(PLAN(OK_X ", \"cost\": 2"),
	     "p.json:4:29: workloads[0].options[0]: the key \"cost\" appears twice"),
	/* names: one line, no controls, at most 256 bytes; noncharacters
	 * load (the report draws them as U+FFFD) */
	CASE(PLAN("\"cost\": 1, \"provider\": \"a\\u001bb\""),
	     "p.json:4:24: workloads[0].options[0].provider: expected a name on one line without control characters, found an escape character"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"a\\tb\""),
	     "p.json:4:24: workloads[0].options[0].provider: expected a name on one line without control characters, found a tab"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"a\\u202eb\""),
	     "p.json:4:24: workloads[0].options[0].provider: expected a name on one line without control characters, found a bidirectional override"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"\\uFDD0\\uFFFE\xef\xbf\xbf\\uD83F\\uDFFF\""), NULL),
	CASE(PLAN("\"cost\": 1, \"provider\": \""
		  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		  "x\""),
	     "p.json:4:24: workloads[0].options[0].provider: expected a name of at most 256 bytes, found 257 bytes"),
	/* reasons: every entry checked, not only the first kept */
	CASE(L1 L2 "{\"instance\": \"i\", \"provider\": \"p\", \"accelerator\": \"a\", "
	     "\"gpus\": 1, \"nodes\": 1, \"cost\": 1, \"gpu_hours\": 1, "
	     "\"memory_per_gpu_bytes\": 1, \"memory_capacity_bytes\": 2, \"time_s\": 3,\n"
	     "\"reason_codes\": [{\"code\": \"x\"}, {\"code\": \"y\", \"n1\": -1}]}]}]}",
	     "p.json:4:53: workloads[0].options[0].reason_codes[1].n1: expected a whole number from 0 to 1000000000, found -1"),
	/* JSON itself: bytes, escapes, numbers, structure */
	CASE(PLAN("\"cost\": 1, \"provider\": \"\xff\""),
	     "p.json:4:25: not a plan: a byte that is not UTF-8 (0xFF) in a string"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"\xc0\xaf\""),
	     "p.json:4:25: not a plan: a byte that is not UTF-8 (0xC0) in a string"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"\xed\xa0\x80\""),
	     "p.json:4:25: not a plan: a byte that is not UTF-8 (0xED) in a string"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"a\0b\""),
	     "p.json:4:26: not a plan: a NUL byte in a string"),
	CASE(PLAN("\"cost\": 1\0, \"provider\": \"p\""),
	     "p.json:4:10: not a plan: expected ',' or '}' after a member of an object, found a NUL byte"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"a\\u0000\""),
	     "p.json:4:26: not a plan: a NUL character (\\u0000) in a string"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"a\x07\""),
	     "p.json:4:26: not a plan: a control character (U+0007) in a string: JSON writes it as \\u0007"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"\\uD800\""),
	     "p.json:4:25: not a plan: an unpaired surrogate \\uD800 in a string"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"\\uDC00\\uD800\""),
	     "p.json:4:25: not a plan: an unpaired surrogate \\uDC00 in a string"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"\\u12G4\""),
	     "p.json:4:25: not a plan: '\\u' in a string must be followed by four hex digits"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"\\x\""),
	     "p.json:4:25: not a plan: an unknown escape in a string: '\\' followed by 'x'"),
	CASE(PLAN("\"cost\": 1e999, \"provider\": \"p\""),
	     "p.json:4:9: not a plan: a number out of range: beyond the largest a double holds (1.8e308)"),
	CASE(PLAN("\"cost\": 01, \"provider\": \"p\""),
	     "p.json:4:9: not a plan: a malformed number: a leading zero"),
	CASE(PLAN("\"cost\": 1., \"provider\": \"p\""),
	     "p.json:4:9: not a plan: a malformed number: a digit must follow the '.'"),
	CASE(PLAN("\"cost\": -, \"provider\": \"p\""),
	     "p.json:4:9: not a plan: a malformed number: '-' must be followed by a digit"),
	CASE(PLAN("\"cost\": .5, \"provider\": \"p\""),
	     "p.json:4:9: not a plan: expected a value (an object, a list, a string, a number, true, false or null), found '.'"),
	CASE(PLAN("\"cost\": NaN, \"provider\": \"p\""),
	     "p.json:4:9: not a plan: expected a value (an object, a list, a string, a number, true, false or null), found 'N'"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"p\","),
	     "p.json:5:1: not a plan: expected a key (a string in double quotes), found '}'"),
	CASE(PLAN("\"cost\": 1 \"provider\": \"p\""),
	     "p.json:4:11: not a plan: expected ',' or '}' after a member of an object, found '\"'"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"p"),
	     "p.json:4:26: not a plan: a control character (U+000A) in a string: JSON writes it as \\u000A"),
	CASE(L1 "\"x",
	     "p.json:2:1: not a plan: a string that is never closed (no '\"' before the end of the file)"),
	CASE(PLAN("\"cost\": 1, \"provider\": \"p\", \"x\": "
		  "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
		  "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
		  "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
		  "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["),
	     "p.json:4:285: not a plan: objects and lists nested more than 256 deep"),
	CASE(PLAN(OK_X) " x",
	     "p.json:5:7: not a plan: expected the end of the file after the document, found 'x'"),
	CASE(PLAN(OK_X) "\n\xe4\xb8\xad",
	     "p.json:6:1: not a plan: expected the end of the file after the document, found '\xe4\xb8\xad'"),
	CASE("", "p.json:1:1: not a plan: expected a value, found the end of the file"),
	CASE("  \n ", "p.json:2:2: not a plan: expected a value, found the end of the file"),
	CASE("\xef\xbb\xbf{}",
	     "p.json:1:1: not a plan: expected a value (an object, a list, a string, a number, true, false or null), found a byte order mark (U+FEFF)"),
	/* the document's shape */
	CASE("[]", "p.json:1:1: not a plan: expected an object ({...}), found a list"),
	CASE("{\"currency\": \"USD\"}",
	     "p.json:1:1: schema: expected \"gpuplan/plan/v1\" (a file written by 'gpuplan plan --format json'), found nothing (the key is missing)"),
	CASE("{\"schema\": 1}",
	     "p.json:1:12: schema: expected \"gpuplan/plan/v1\" (a file written by 'gpuplan plan --format json'), found a number"),
	CASE("{\"schema\": \"gpuplan/plan/v1\", \"currency\": \"USD\", \"workloads\": {}}",
	     "p.json:1:63: workloads: expected a list, found an object"),
	CASE("{\"schema\": \"gpuplan/plan/v1\", \"currency\": \"USD\", \"schema\": \"x\"}",
	     "p.json:1:50: the key \"schema\" appears twice"),
	CASE(L1 "{\"name\": \"w\", \"kind\": \"pretraining\"}]}",
	     "p.json:2:23: workloads[0].kind: expected \"training\" or \"inference\", found \"pretraining\""),
	CASE(L1 "{\"name\": \"w\", \"kind\": \"training\", \"model\": \"m\", "
	     "\"precision\": \"bf16\", \"recommendation\": \"r\", \"op_classes\": {}, "
	     "\"recommended\": 1, \"options\": []}]}",
	     "p.json:2:126: workloads[0].recommended: expected an option index below 0 or null, found 1"),
	CASE(L1 "{\"name\": \"w\", \"kind\": \"training\", \"model\": \"m\", "
	     "\"precision\": \"bf16\", \"recommendation\": \"a\\u001b[2Jb\", "
	     "\"op_classes\": {}, \"options\": []}]}",
	     "p.json:2:88: workloads[0].recommendation: expected text without control characters, found an escape character"),
	CASE(L1 "{\"name\": \"w\", \"kind\": \"inference\", \"model\": \"m\", "
	     "\"precision\": \"bf16\", \"recommendation\": \"line one\\nline two\", "
	     "\"op_classes\": {\"gemm\": {\"flops_per_sample\": 1, \"weight_bytes\": 2, "
	     "\"activation_bytes_per_sample\": 3}, \"gemm\": {}}, \"options\": []}]}",
	     "p.json:2:212: workloads[0].op_classes: the key \"gemm\" appears twice"),
	/* sources: each name once, each field of its type */
	CASE("{\"schema\": \"gpuplan/plan/v1\", \"currency\": \"USD\", \"sources\": "
	     "{\"instances\": {\"i\": {}, \"j\": {}, \"i\": {}}}, \"workloads\": []}",
	     "p.json:1:94: sources.instances: \"i\" appears twice"),
	CASE("{\"schema\": \"gpuplan/plan/v1\", \"currency\": \"USD\", \"sources\": "
	     "{\"instances\": {\"i\": {\"owned\": \"yes\"}}}, \"workloads\": []}",
	     "p.json:1:91: sources.instances[\"i\"].owned: expected true or false, found a string"),
	CASE("{\"schema\": \"gpuplan/plan/v1\", \"currency\": \"USD\", \"sources\": "
	     "{\"accelerators\": {\"a\": {\"peak_dense_ops_per_s\": {\"bf16\": -1}}}}, "
	     "\"workloads\": []}",
	     "p.json:1:118: sources.accelerators[\"a\"].peak_dense_ops_per_s.bf16: expected a number from 0 to 1e+100, found -1"),
	CASE("{\"schema\": \"gpuplan/plan/v1\", \"currency\": \"USD\", \"sources\": "
	     "{\"accelerators\": {\"a\": {\"source\": [{\"title\": 7}]}}}, "
	     "\"workloads\": []}",
	     "p.json:1:106: sources.accelerators[\"a\"].source[0].title: expected a string, found a number"),
	CASE("{\"schema\": \"gpuplan/plan/v1\", \"currency\": \"USD\", "
	     "\"assumptions\": {\"x\": {\"value\": 1e300}}, \"workloads\": []}",
	     "p.json:1:81: assumptions[\"x\"].value: expected a number from -1e+100 to 1e+100, found 1e+300"),
	CASE("{\"schema\": \"gpuplan/plan/v1\", \"currency\": \"USD\", \"workloads\": []}",
	     "p.json:1:63: workloads: expected a list of at least one workload, found an empty list"),
	/* load curves: numbers, whole replicas, rates that increase, no
	 * latency where the queue grows without bound */
	CASE(CURVE(PT("0") ", " PT("0.5") ", " SAT("4") ", " SAT("8")), NULL),
	CASE(CURVE("{\"request_rate_per_s\": 1, \"e2e_p50_s\": 1, \"e2e_p99_s\": 2, "
		   "\"ttft_p99_s\": 0.1, \"tpot_p99_s\": null, \"saturated\": false}"), NULL),
	/* a training option's curve is none of the report's business */
	CASE(PLAN(OK_X ", \"load_curve\": 7"), NULL),
	CASE(CURVE(PT("1") ", " PT("\"2/s\"")),
	     "p.json:5:103: workloads[0].options[0].load_curve.points[1].request_rate_per_s: expected a number, found a string"),
	CASE(CURVE(PT("2") ", " PT("2")),
	     "p.json:5:103: workloads[0].options[0].load_curve.points[1].request_rate_per_s: expected a rate above the previous point's 2 (rates increase along a curve), found 2"),
	CASE(CURVE(PT("-1")),
	     "p.json:5:24: workloads[0].options[0].load_curve.points[0].request_rate_per_s: expected a number from 0 to 1e+100, found -1"),
	CASE(CURVE("{\"request_rate_per_s\": 1, \"e2e_p50_s\": 1, \"e2e_p99_s\": -2, \"saturated\": false}"),
	     "p.json:5:56: workloads[0].options[0].load_curve.points[0].e2e_p99_s: expected a number from 0 to 1e+100, found -2"),
	CASE(CURVE("{\"request_rate_per_s\": 1, \"e2e_p50_s\": 1, \"e2e_p99_s\": null, \"saturated\": false}"),
	     "p.json:5:56: workloads[0].options[0].load_curve.points[0].e2e_p99_s: expected a number, found null"),
	CASE(CURVE("{\"request_rate_per_s\": 1, \"e2e_p50_s\": 1, \"e2e_p99_s\": 2, "
		   "\"tpot_p99_s\": \"fast\", \"saturated\": false}"),
	     "p.json:5:73: workloads[0].options[0].load_curve.points[0].tpot_p99_s: expected a number, found a string"),
	CASE(CURVE("{\"request_rate_per_s\": 1, \"e2e_p99_s\": 9, \"saturated\": true}"),
	     "p.json:5:40: workloads[0].options[0].load_curve.points[0].e2e_p99_s: expected null at a saturated point, found a number"),
	CASE(CURVE("{\"request_rate_per_s\": 1, \"e2e_p99_s\": null}"),
	     "p.json:5:1: workloads[0].options[0].load_curve.points[0].saturated: expected true or false, found nothing (the key is missing)"),
	CASE(CURVE("{\"request_rate_per_s\": 1, \"saturated\": 1}"),
	     "p.json:5:40: workloads[0].options[0].load_curve.points[0].saturated: expected true or false, found a number"),
	CASE(CURVE(""),
	     "p.json:4:41: workloads[0].options[0].load_curve.points: expected a list of 1 to 64 points, found an empty list"),
	CASE(CURVE("7"),
	     "p.json:5:1: workloads[0].options[0].load_curve.points[0]: expected an object, found a number"),
	CASE(L1 S2 S3 "\"load_curve\": {\"replicas\": 0, \"points\": [" PT("1") "]}}]}]}",
	     "p.json:4:28: workloads[0].options[0].load_curve.replicas: expected a whole number from 1 to 1000000000, found 0"),
	CASE(L1 S2 S3 "\"load_curve\": {\"replicas\": 1.5, \"points\": [" PT("1") "]}}]}]}",
	     "p.json:4:28: workloads[0].options[0].load_curve.replicas: expected a whole number from 1 to 1000000000, found 1.5"),
	CASE(L1 S2 S3 "\"load_curve\": {\"points\": {}}}]}]}",
	     "p.json:4:15: workloads[0].options[0].load_curve.replicas: expected a whole number, found nothing (the key is missing)"),
	CASE(L1 S2 S3 "\"load_curve\": []}]}]}",
	     "p.json:4:15: workloads[0].options[0].load_curve: expected an object, found a list"),
	/* the service's targets and rate */
	CASE(L1 "{\"name\": \"w\", \"kind\": \"inference\", \"model\": \"m\", "
	     "\"precision\": \"bf16\", \"recommendation\": \"r\", \"op_classes\": {}, "
	     "\"tpot_p99_target_s\": -0.05, \"options\": []}]}",
	     "p.json:2:133: workloads[0].tpot_p99_target_s: expected a number from 0 to 1e+100, found -0.05"),
	CASE(L1 "{\"name\": \"w\", \"kind\": \"inference\", \"model\": \"m\", "
	     "\"precision\": \"bf16\", \"recommendation\": \"r\", \"op_classes\": {}, "
	     "\"request_rate_per_s\": \"2/s\", \"options\": []}]}",
	     "p.json:2:134: workloads[0].request_rate_per_s: expected a number, found a string"),
};

static void table(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct read_case *c = &cases[i];
		char *text = malloc(c->len + 1);
		memcpy(text, c->text, c->len);
		text[c->len] = '\0';
		struct r_plan p;
		char why[1200] = "";
		int rc = r_plan_parse(&p, text, c->len, "p.json", true, why,
				      sizeof(why));
		free(text);
		if (c->want) {
			CHECK(rc == -1);
			CHECK_STR(why, c->want);
		} else {
			CHECK(rc == 0);
			if (rc)
				fprintf(stderr, "  case %zu: %s\n", i, why);
		}
		if (rc != 0 && c->want && strcmp(why, c->want))
			fprintf(stderr, "  (case %zu)\n", i);
		r_plan_free(&p);
	}
}

/* A plan that loads: its figures copied, defaults where absent, names
 * interned (one copy each), and nothing pointing into the text, which
 * is freed first. */
static void figures(void)
{
	static const char src[] =
		"{\"schema\": \"gpuplan/plan/v1\", \"currency\": \"CNY\",\n"
		" \"assumptions\": {\"compute_efficiency\": {\"value\": 0.5, \"from\": \"f\"},\n"
		"   \"memory_efficiency\": {\"from\": \"no value\"}},\n"
		" \"exchange_rates\": {\"base\": \"USD\", \"as_of\": \"2026-01-27\",\n"
		"   \"source\": [{\"title\": \"t\", \"url\": \"u\"}]},\n"
		" \"sources\": {\"instances\": {\"z\": {\"owned\": true, \"price_as_of\": \"2026-02\"},\n"
		"   \"i\": {\"illustrative\": true, \"price_as_of\": \"2025-11\"}},\n"
		"  \"accelerators\": {\"b\": {}, \"a\": {\"memory_bandwidth_bytes_per_s\": 5e-324,\n"
		"    \"peak_dense_ops_per_s\": {\"bf16\": 1e15, \"fp99\": 3}}}},\n"
		" \"workloads\": [{\"name\": \"w\", \"kind\": \"inference\", \"model\": \"m\",\n"
		"   \"precision\": \"bf16\", \"recommendation\": \"r\", \"recommended\": 1,\n"
		"   \"runner_up\": null, \"op_classes\": {\"gemm\": {\"flops_per_sample\": 1,\n"
		"   \"weight_bytes\": 2, \"activation_bytes_per_sample\": 3}},\n"
		"   \"options\": [\n"
		"  {\"instance\": \"i\", \"provider\": \"p\", \"accelerator\": \"a\", \"gpus\": 0,\n"
		"   \"nodes\": 0, \"cost\": 2, \"cost_spot\": null, \"gpu_hours\": 0,\n"
		"   \"memory_per_gpu_bytes\": 0, \"memory_capacity_bytes\": 0, \"p99_latency_s\": 0,\n"
		"   \"replicas\": 0, \"reason_codes\": [{\"code\": \"serve_rate\", \"n1\": 4, \"a\": -2},\n"
		"   {\"code\": \"other\"}]},\n"
		"  {\"instance\": \"z\", \"provider\": \"p\", \"accelerator\": \"a\", \"gpus\": 8,\n"
		"   \"nodes\": 1, \"cost\": 3, \"cost_spot\": 1.5, \"gpu_hours\": 1, \"feasible\": true,\n"
		"   \"memory_per_gpu_bytes\": 1, \"memory_capacity_bytes\": 2, \"p99_latency_s\": 0.1,\n"
		"   \"replicas\": 2, \"sharing\": \"mig 1g\", \"reason_codes\": [],\n"
		"   \"memory\": {\"kv_cache_bytes\": 7}, \"breakdown\": {\"input_s\": 0.25}}]}]}\n";
	char *text = malloc(sizeof(src));
	memcpy(text, src, sizeof(src));
	struct r_plan p;
	char why[600];
	int rc = r_plan_parse(&p, text, sizeof(src) - 1, "f.json", true, why, sizeof(why));
	memset(text, 'x', sizeof(src) - 1);
	free(text);
	CHECK(rc == 0);
	if (rc) {
		fprintf(stderr, "  %s\n", why);
		return;
	}
	CHECK_STR(p.currency, "CNY");
	CHECK(p.n_assumptions == 2);
	CHECK(r_plan_assumption(&p, "compute_efficiency", 9) == 0.5);
	CHECK(r_plan_assumption(&p, "memory_efficiency", 9) == 9);	/* no value */
	CHECK(r_plan_assumption(&p, "nowhere", 9) == 9);
	CHECK(p.has_rates);
	CHECK_STR(p.rates_as_of, "2026-01-27");
	CHECK_STR(p.rates_source.url, "u");
	CHECK_STR(p.rates_source.retrieved, "");
	/* sorted by name; ranks by name */
	CHECK(p.n_inst == 2 && !strcmp(p.inst[0].name, "i"));
	CHECK(p.n_acc == 2 && !strcmp(p.acc[0].name, "a"));
	CHECK(r_plan_accelerator_rank(&p, "a") == 0);
	CHECK(r_plan_accelerator_rank(&p, "b") == 1);
	CHECK(r_plan_accelerator_rank(&p, "c") == 2);
	const struct r_accelerator *a = r_plan_accelerator(&p, "a");
	CHECK(a && a->bandwidth == 5e-324 && a->peaks[PREC_BF16] == 1e15);
	CHECK(a && a->peaks[PREC_FP32] == 0);
	CHECK(!r_plan_accelerator(&p, "nowhere"));
	const char *lo, *hi;
	r_plan_price_dates(&p, &lo, &hi);
	CHECK_STR(lo, "2025-11");
	CHECK_STR(hi, "2026-02");
	const struct r_workload *w = &p.w[0];
	CHECK(p.n == 1 && w->n == 2 && !w->training);
	CHECK(w->recommended == 1 && w->runner_up == -1 && w->obvious == -1);
	CHECK(w->n_classes == 1 && !strcmp(w->classes[0].name, "gemm"));
	CHECK(w->classes[0].act_bytes == 3);
	const struct r_option *o0 = &w->v[0], *o1 = &w->v[1];
	CHECK(o0->illustrative && !o0->owned && !o0->has_spot && !o0->feasible);
	CHECK(o0->n_reasons == 2 && !strcmp(o0->reason.code, "serve_rate"));
	CHECK(o0->reason.n1 == 4 && o0->reason.a == -2 && o0->reason.s1 == NULL);
	CHECK(o1->owned && o1->has_spot && o1->cost_spot == 1.5 && o1->feasible);
	CHECK(o1->runnable);		/* feasible: runnable when not stated */
	CHECK(o1->memory_parts[4] == 7 && o1->breakdown[3] == 0.25);
	CHECK_STR(o1->sharing, "mig 1g");
	/* one copy of each name */
	CHECK(o0->provider == o1->provider && o0->accelerator == o1->accelerator);
	CHECK(o0->accelerator == p.acc[0].name);
	r_plan_free(&p);
}

/* A service's targets and its load curves as read: nulls as NAN, one
 * curve per option that has one, found by option index; 64 points load,
 * a 65th is refused where it starts. */
static void load_curves(void)
{
	static const char src[] = L1
		"{\"name\": \"s\", \"kind\": \"inference\", \"model\": \"m\", "
		"\"precision\": \"bf16\", \"recommendation\": \"r\", \"op_classes\": {}, "
		"\"recommended\": 1, \"runner_up\": 0, \"p99_target_s\": 10, "
		"\"ttft_p99_target_s\": 0.5, \"tpot_p99_target_s\": null, "
		"\"request_rate_per_s\": 2, \"options\": [\n"
		S3 "\"load_curve\": {\"replicas\": 3, \"points\": [" PT("1") "]}},\n"
		S3 "\"x\": 0},\n"
		S3 "\"load_curve\": {\"replicas\": 1, \"points\": [\n"
		"{\"request_rate_per_s\": 0.5, \"e2e_p50_s\": 1, \"e2e_p99_s\": 2, "
		"\"ttft_p99_s\": 0.1, \"tpot_p99_s\": 0.01, \"saturated\": false},\n"
		"{\"request_rate_per_s\": 4, \"e2e_p50_s\": null, \"e2e_p99_s\": null, "
		"\"ttft_p99_s\": null, \"tpot_p99_s\": null, \"saturated\": true}]}}]}]}";
	struct r_plan p;
	char why[600];
	int rc = r_plan_parse(&p, src, sizeof(src) - 1, "c.json", true, why, sizeof(why));
	CHECK(rc == 0);
	if (rc) {
		fprintf(stderr, "  %s\n", why);
		return;
	}
	const struct r_workload *w = &p.w[0];
	CHECK(w->target_s[TARGET_P99] == 10 && w->target_s[TARGET_TTFT_P99] == 0.5);
	CHECK(w->target_s[TARGET_TPOT_P99] == 0 && w->target_s[TARGET_TPOT_P50] == 0);
	CHECK(w->request_rate == 2);
	CHECK(w->n == 3 && w->n_curves == 2);
	const struct r_load_curve *c0 = r_workload_curve(w, 0), *c2 = r_workload_curve(w, 2);
	CHECK(c0 && c0->replicas == 3 && c0->n == 1 && c0->pt[0].rate == 1);
	CHECK(c0 && isnan(c0->pt[0].ttft_p99) && c0->pt[0].e2e_p99 == 2);
	CHECK(!r_workload_curve(w, 1) && !r_workload_curve(w, 3) && !r_workload_curve(w, -1));
	CHECK(c2 && c2->n == 2 && c2->pt[0].tpot_p99 == 0.01 && !c2->pt[0].saturated);
	CHECK(c2 && c2->pt[1].saturated && c2->pt[1].rate == 4 && isnan(c2->pt[1].e2e_p50));
	r_plan_free(&p);

	/* R_CURVE_MAX_POINTS points, then one more */
	for (int extra = 0; extra <= 1; extra++) {
		char *text = xasprintf("%s", L1 S2 S3 "\"load_curve\": {\"replicas\": 1, \"points\": [\n");
		size_t at65 = 0;
		for (int i = 0; i < R_CURVE_MAX_POINTS + extra; i++) {
			char *more = xasprintf("%s%s" PT("%d"), text, i ? ", " : "", i + 1);
			if (i == R_CURVE_MAX_POINTS)
				at65 = strlen(text) + 2 - (strrchr(text, '\n') - text);
			free(text);
			text = more;
		}
		char *whole = xasprintf("%s\n]}}]}]}", text);
		rc = r_plan_parse(&p, whole, strlen(whole), "c.json", true, why, sizeof(why));
		if (!extra) {
			CHECK(rc == 0);
			CHECK(rc || (p.w[0].n_curves == 1 && p.w[0].curves[0].n == R_CURVE_MAX_POINTS));
		} else {
			char want[300];
			snprintf(want, sizeof(want), "c.json:5:%zu: workloads[0].options[0].load_curve.points: expected a list of 1 to 64 points, found more",
				 at65);
			CHECK(rc == -1);
			CHECK_STR(why, want);
		}
		r_plan_free(&p);
		free(whole);
		free(text);
	}
}

/* A document gpuplan built: read from its JSON text as json_write prints
 * it, so a message's line and column are those of a plan file. */
static void from_json(void)
{
	json_t *doc = json_pack("{s:s, s:s, s:[{s:s, s:s, s:s, s:s, s:s, s:{}, s:[{s:s}]}]}",
				"schema", "gpuplan/plan/v1", "currency", "USD",
				"workloads", "name", "w", "kind", "training",
				"model", "m", "precision", "bf16",
				"recommendation", "r", "op_classes",
				"options", "instance", "i");
	struct r_plan p;
	char why[600];
	CHECK(r_plan_from_json(&p, doc, "plan.json", why, sizeof(why)) == -1);
	/* json_dumps keeps insertion order, 2 spaces a level: the option's
	 * '{' opens line 13 at column 9 */
	CHECK_STR(why, "plan.json:13:9: workloads[0].options[0].provider: expected a string, found nothing (the key is missing)");
	json_decref(doc);
	r_plan_free(&p);
}

/* Offsets to line and column: columns count characters, not bytes. */
static void positions(void)
{
	static const char s[] = "ab\n\xe4\xb8\xad\xe6\x96\x87x\n\n";
	struct jdoc d = {s, sizeof(s) - 1, NULL, 0, 0};
	static const struct { size_t at; int line, col; } want[] = {
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {6, 2, 2}, {9, 2, 3},
		{10, 2, 4}, {11, 3, 1}, {12, 4, 1}, {99, 4, 1},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int line, col;
		jdoc_position(&d, want[i].at, &line, &col);
		CHECK(line == want[i].line && col == want[i].col);
	}
}

/* A file past PLAN_MAX_BYTES is refused while it is read, not after. */
static void too_large(void)
{
	char path[] = "/tmp/gpuplan-plan-read-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(ftruncate(fd, (off_t)PLAN_MAX_BYTES + 1) == 0);
	close(fd);
	struct r_plan p;
	char why[600], want[700];
	CHECK(r_plan_load(&p, path, why, sizeof(why)) == -1);
	snprintf(want, sizeof(want), "%s: file too large: a plan may be at most 256 MiB",
		 path);
	CHECK_STR(why, want);
	r_plan_free(&p);
	unlink(path);
}

int main(void)
{
	table();
	figures();
	load_curves();
	from_json();
	positions();
	too_large();
	return check_summary("plan_read");
}

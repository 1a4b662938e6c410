/* The option table: values, lists, flags, --x=v, positionals, errors. */
#include <string.h>

#include "check.h"
#include "cli/options.h"

static const struct opt_spec opts[] = {
	{"catalog", 'c', OPT_LIST, "FILE", "catalog files"},
	{"currency", 0, OPT_VALUE, "CODE", "currency"},
	{"spot", 0, OPT_FLAG, NULL, "spot prices"},
	{"output", 'o', OPT_VALUE, "FILE", "output file"},
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec spec = {"test cmd", "[NAME]", "A test.", opts,
				     0, 1, NULL};

static int parse(int argc, const char **argv, struct parsed *p)
{
	return opts_parse(&spec, argc, (char **)argv, p);
}

/* Whole numbers on the command line: digits only, within the range. */
static void test_whole(void)
{
	static const struct {
		const char *text;
		bool ok;
		long want;
	} cases[] = {
		{"5", true, 5}, {"100000", true, 100000}, {"1", true, 1},
		{"0", false, 0}, {"100001", false, 0}, {" 5", false, 0},
		{"+5", false, 0}, {"-5", false, 0}, {"5 ", false, 0},
		{"1e3", false, 0}, {"0x10", false, 0}, {"", false, 0},
		{"99999999999999999999", false, 0}, {"0005", true, 5},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		long v = -1;
		CHECK(opt_whole(cases[i].text, 1, 100000, &v) == cases[i].ok);
		if (cases[i].ok)
			CHECK(v == cases[i].want);
	}
}

/* Empty values name nothing: usage errors before any work. */
static void test_empty_values(void)
{
	struct parsed p;
	const char *a[] = {"cmd", "-o", ""};
	CHECK(parse(3, a, &p) == OPTS_USAGE_ERROR);
	opts_free(&p);
	const char *b[] = {"cmd", "--output="};
	CHECK(parse(2, b, &p) == OPTS_USAGE_ERROR);
	opts_free(&p);
	const char *c[] = {"cmd", "--catalog", "a.yaml", ""};
	CHECK(parse(4, c, &p) == OPTS_USAGE_ERROR);
	opts_free(&p);
}

int main(void)
{
	test_whole();
	test_empty_values();
	struct parsed p;
	const char *a1[] = {"cmd", "--catalog", "a.yaml", "b.yaml", "--spot",
			    "-o", "x.json", "--currency=CNY", "-c", "c.yaml"};
	CHECK(parse(10, a1, &p) == OPTS_OK);
	const struct opt_result *cat = opt_find(&p, &spec, "catalog");
	CHECK(cat->set && cat->nlist == 3);
	CHECK_STR(cat->list[0], "a.yaml");
	CHECK_STR(cat->list[2], "c.yaml");
	CHECK(opt_flag(&p, &spec, "spot"));
	CHECK_STR(opt_value(&p, &spec, "output"), "x.json");
	CHECK_STR(opt_value(&p, &spec, "currency"), "CNY");
	CHECK(p.nargs == 0);
	opts_free(&p);

	const char *a2[] = {"cmd", "NAME", "--currency", "USD"};
	CHECK(parse(4, a2, &p) == OPTS_OK);
	CHECK(p.nargs == 1 && strcmp(p.args[0], "NAME") == 0);
	CHECK(!opt_flag(&p, &spec, "spot"));
	opts_free(&p);

	const char *a3[] = {"cmd", "--curency", "CNY"};
	CHECK(parse(3, a3, &p) == OPTS_USAGE_ERROR);
	opts_free(&p);
	const char *a4[] = {"cmd", "--currency"};
	CHECK(parse(2, a4, &p) == OPTS_USAGE_ERROR);
	opts_free(&p);
	const char *a5[] = {"cmd", "one", "two"};
	CHECK(parse(3, a5, &p) == OPTS_USAGE_ERROR);
	opts_free(&p);
	const char *a6[] = {"cmd", "--spot=yes"};
	CHECK(parse(2, a6, &p) == OPTS_USAGE_ERROR);
	opts_free(&p);
	const char *a7[] = {"cmd", "--", "--spot"};
	CHECK(parse(3, a7, &p) == OPTS_OK);
	CHECK(p.nargs == 1 && !opt_flag(&p, &spec, "spot"));
	opts_free(&p);
	return check_summary("options");
}

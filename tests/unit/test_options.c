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

int main(void)
{
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

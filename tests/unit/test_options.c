/* The option table: values, lists, flags, --x=v, positionals, errors. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli/options.h"

static const struct opt_spec opts[] = {
	{"catalog", 'c', OPT_LIST, "FILE", "catalog files"},
	{"currency", 0, OPT_VALUE, "CODE", "currency"},
	{"spot", 0, OPT_FLAG, NULL, "spot prices"},
	{"output", 'o', OPT_VALUE, "FILE", "output file"},
	{"top", 'n', OPT_VALUE, "N", "how many"},
	{"format", 'f', OPT_VALUE, "FMT", "format"},
	{"quick", 'q', OPT_FLAG, NULL, "quick"},
	{"verbose", 'v', OPT_FLAG, NULL, "verbose"},
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

/* Percentages and shares (--fail-above, --max-error, --coverage-min):
 * plain decimals with an optional '%'; hex, signs, "inf" and spaces are
 * refused (strtod read "0x10" as 16: issue 28). */
static void test_number_or_percent(void)
{
	static const struct {
		const char *text;
		bool ok, percent;
		double want;
	} cases[] = {
		{"15", true, false, 15}, {"15%", true, true, 15},
		{"0.75", true, false, 0.75}, {"2.5%", true, true, 2.5},
		{"1e1", true, false, 10}, {"0x10", false, false, 0},
		{"-5", false, false, 0}, {"inf", false, false, 0},
		{" 5", false, false, 0}, {"5 %", false, false, 0},
		{"%", false, false, 0}, {"", false, false, 0},
		{"15%%", false, false, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		double x = -1;
		bool pct = false;
		CHECK(opt_number_or_percent(cases[i].text, &x, &pct) == cases[i].ok);
		if (cases[i].ok) {
			CHECK(x == cases[i].want);
			CHECK(pct == cases[i].percent);
		}
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

/* Parses argv with stderr caught; returns the status, the message in err. */
static int parse_err(int argc, const char *const *argv, struct parsed *p,
		     char *err, size_t len)
{
	fflush(stderr);
	FILE *tmp = tmpfile();
	int saved = dup(2);
	CHECK(tmp && saved >= 0);
	dup2(fileno(tmp), 2);
	int rc = opts_parse(&spec, argc, (char **)argv, p);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(err, 1, len - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	return rc;
}

/* getopt_long's short forms: attached values, combined flags, and a flag
 * cluster ending in a value letter. */
static void test_short_forms(void)
{
	struct parsed p;
	const char *a[] = {"cmd", "-n1", "-fcsv", "-qv"};
	CHECK(parse(4, a, &p) == OPTS_OK);
	CHECK_STR(opt_value(&p, &spec, "top"), "1");
	CHECK_STR(opt_value(&p, &spec, "format"), "csv");
	CHECK(opt_flag(&p, &spec, "quick") && opt_flag(&p, &spec, "verbose"));
	CHECK(p.nargs == 0);
	opts_free(&p);

	const char *b[] = {"cmd", "-n", "1", "-f", "csv", "NAME"};
	CHECK(parse(6, b, &p) == OPTS_OK);
	CHECK_STR(opt_value(&p, &spec, "top"), "1");
	CHECK_STR(opt_value(&p, &spec, "format"), "csv");
	CHECK(p.nargs == 1 && strcmp(p.args[0], "NAME") == 0);
	opts_free(&p);

	/* -qn1: q a flag, then n takes the rest; -vo- is -v -o - */
	const char *c[] = {"cmd", "-qn12", "-vo-"};
	CHECK(parse(3, c, &p) == OPTS_OK);
	CHECK(opt_flag(&p, &spec, "quick") && opt_flag(&p, &spec, "verbose"));
	CHECK_STR(opt_value(&p, &spec, "top"), "12");
	CHECK_STR(opt_value(&p, &spec, "output"), "-");
	opts_free(&p);

	/* a value may start with a dash: -n -5 reaches the command's check */
	const char *d[] = {"cmd", "-n", "-5", "--top", "-6"};
	CHECK(parse(5, d, &p) == OPTS_OK);
	CHECK_STR(opt_value(&p, &spec, "top"), "-6");
	opts_free(&p);

	/* an attached list value, then the list goes on */
	const char *e[] = {"cmd", "-ca.yaml", "b.yaml", "-q"};
	CHECK(parse(4, e, &p) == OPTS_OK);
	const struct opt_result *cat = opt_find(&p, &spec, "catalog");
	CHECK(cat->nlist == 2);
	CHECK_STR(cat->list[0], "a.yaml");
	CHECK_STR(cat->list[1], "b.yaml");
	opts_free(&p);

	/* after --, "-qv" is a positional */
	const char *f[] = {"cmd", "--", "-qv"};
	CHECK(parse(3, f, &p) == OPTS_OK);
	CHECK(p.nargs == 1 && !opt_flag(&p, &spec, "quick"));
	CHECK_STR(p.args[0], "-qv");
	opts_free(&p);

	/* --name value and --name=value */
	const char *g[] = {"cmd", "--top", "3", "--format=json"};
	CHECK(parse(4, g, &p) == OPTS_OK);
	CHECK_STR(opt_value(&p, &spec, "top"), "3");
	CHECK_STR(opt_value(&p, &spec, "format"), "json");
	opts_free(&p);
}

/* Each usage error's message, as the user reads it. */
static void test_messages(void)
{
	static const struct {
		int argc;
		const char *argv[4];
		const char *want;
	} cases[] = {
		{2, {"cmd", "-x"}, "gpuplan: unknown option '-x'\n"},
		{2, {"cmd", "-qx"}, "gpuplan: unknown option '-x' in '-qx'\n"},
		{2, {"cmd", "--fromat"},
		 "gpuplan: unknown option '--fromat' (did you mean '--format'?)\n"},
		{2, {"cmd", "--fromat=csv"},
		 "gpuplan: unknown option '--fromat' (did you mean '--format'?)\n"},
		{2, {"cmd", "--to"}, "gpuplan: unknown option '--to'"},
		{2, {"cmd", "-n"}, "gpuplan: option '-n' needs a N\n"},
		{2, {"cmd", "-qn"}, "gpuplan: option '-n' needs a N\n"},
		{2, {"cmd", "--top"}, "gpuplan: option '--top' needs a N\n"},
		{3, {"cmd", "-o", ""},
		 "gpuplan: option '-o' needs a FILE, found an empty value\n"},
		{2, {"cmd", "--output="},
		 "gpuplan: option '--output' needs a FILE, found an empty value\n"},
		{2, {"cmd", "--quick=yes"},
		 "gpuplan: option '--quick' takes no value, found '--quick=yes'\n"},
		/* issue 28: "--help=x" was an unknown option whose nearest
		 * name is --help ("did you mean '--help'?") */
		{2, {"cmd", "--help=x"},
		 "gpuplan: option '--help' takes no value, found '--help=x'\n"},
		{3, {"cmd", "a", "b"}, "gpuplan: unexpected argument 'b'\n"},
		{2, {"cmd", ""}, "gpuplan: an argument is empty: name a [NAME]\n"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct parsed p;
		char err[512];
		CHECK(parse_err(cases[i].argc, cases[i].argv, &p, err,
				sizeof(err)) == OPTS_USAGE_ERROR);
		CHECK_HAS(err, cases[i].want);
		CHECK_HAS(err, "Try 'gpuplan test cmd --help'.\n");
		opts_free(&p);
	}
}

/* -h in a cluster is help, as --help and -h are. */
static void test_help_cluster(void)
{
	struct parsed p;
	fflush(stdout);
	FILE *tmp = tmpfile();
	int saved = dup(1);
	dup2(fileno(tmp), 1);
	const char *a[] = {"cmd", "-qh"};
	int rc = parse(2, a, &p);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	CHECK(rc == OPTS_HELP_SHOWN);
	char out[4096];
	rewind(tmp);
	size_t n = fread(out, 1, sizeof(out) - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	CHECK_HAS(out, "usage: gpuplan test cmd [options] [NAME]");
	CHECK_HAS(out, "-n, --top N");
	opts_free(&p);
}

static void collect_one(const struct cmd_spec *s, void *ctx)
{
	*(const struct cmd_spec **)ctx = s;
}

/* A collector gets the table and nothing is parsed or printed. */
static void test_collect(void)
{
	const struct cmd_spec *got = NULL;
	opts_collect(collect_one, &got);
	CHECK(opts_collecting());
	struct parsed p;
	const char *a[] = {"cmd", "--no-such-option"};
	CHECK(parse(2, a, &p) == OPTS_HELP_SHOWN);
	CHECK(got == &spec);
	opts_free(&p);
	opts_collect(NULL, NULL);
	CHECK(!opts_collecting());
}

int main(void)
{
	test_short_forms();
	test_messages();
	test_help_cluster();
	test_collect();
	test_whole();
	test_number_or_percent();
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

/*
 * fuzz_options.c - the command line as opts_parse reads it (getopt_long's
 * forms: -n1, -qv, --x=v, --), on the input as argv, one argument a line.
 *
 * Besides "no crash": the result is OK, a usage error or help; an OK parse
 * has every value and list item non-empty and taken from argv, and its
 * positionals within the table's bounds, none of them an option unless
 * "--" came first.  Messages go to /dev/null.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"
#include "fuzz.h"

#define MAX_ARGS 32

static const struct opt_spec opts[] = {
	{"catalog", 'c', OPT_LIST, "FILE", "a list"},
	{"currency", 0, OPT_VALUE, "CODE", "a long-only value"},
	{"top", 'n', OPT_VALUE, "N", "a value"},
	{"format", 'f', OPT_VALUE, "FMT", "a value"},
	{"quick", 'q', OPT_FLAG, NULL, "a flag"},
	{"verbose", 'v', OPT_FLAG, NULL, "a flag"},
	{"spot", 0, OPT_FLAG, NULL, "a long-only flag"},
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec spec = {"fuzz", "[NAME...]", "Fuzzing.", opts,
				     0, 3, NULL};

static int from_argv(const char *v, char **argv, int argc)
{
	for (int i = 0; i < argc; i++)
		if (v >= argv[i] && v < argv[i] + strlen(argv[i]) + 1)
			return 1;
	return 0;
}

static void check(const struct parsed *p, char **argv, int argc)
{
	int dashdash = 0;
	for (int i = 1; i < argc; i++)
		dashdash |= strcmp(argv[i], "--") == 0;
	if (p->nargs > 3)
		fuzz_fail("opts_parse", "%zu positionals, the table allows 3", p->nargs);
	for (size_t i = 0; i < p->nargs; i++) {
		if (!from_argv(p->args[i], argv, argc))
			fuzz_fail("opts_parse", "positional %zu not from argv", i);
		if (!dashdash && p->args[i][0] == '-' && p->args[i][1])
			fuzz_fail("opts_parse", "'%s' taken as a positional", p->args[i]);
	}
	for (size_t k = 0; k < p->nopt; k++) {
		const struct opt_result *r = &p->opt[k];
		if (!r->set)
			continue;
		if (opts[k].arg == OPT_VALUE &&
		    (!r->value || !*r->value || !from_argv(r->value, argv, argc)))
			fuzz_fail("opts_parse", "--%s set without a value from argv",
				  opts[k].name);
		if (opts[k].arg == OPT_LIST && r->nlist == 0)
			fuzz_fail("opts_parse", "--%s set with no items", opts[k].name);
		for (size_t j = 0; j < r->nlist; j++)
			if (!*r->list[j] || !from_argv(r->list[j], argv, argc))
				fuzz_fail("opts_parse", "--%s item %zu empty or not from argv",
					  opts[k].name, j);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[1025];
	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	char *argv[MAX_ARGS + 1] = {"fuzz"};
	int argc = 1;
	for (char *line = text, *nl; line && argc < MAX_ARGS; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		if (nl || *line)
			argv[argc++] = line;
	}
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY);
	dup2(null, 1);
	dup2(null, 2);
	struct parsed p;
	int rc = opts_parse(&spec, argc, argv, &p);
	fflush(stdout);
	fflush(stderr);
	dup2(out, 1);
	dup2(err, 2);
	close(out);
	close(err);
	close(null);
	if (rc != OPTS_OK && rc != OPTS_USAGE_ERROR && rc != OPTS_HELP_SHOWN)
		fuzz_fail("opts_parse", "returned %d", rc);
	if (rc == OPTS_OK)
		check(&p, argv, argc);
	opts_free(&p);
	return 0;
}

/*
 * options.h - one table per command drives parsing, defaults and --help.
 *
 * A command declares its options and positional arguments in a cmd_spec;
 * opts_parse() reads argv against it and generates the help text from the
 * same table, so the help can never drift from what is accepted.  An
 * unknown option gets a did-you-mean from the table.  Every command gets
 * --help (-h) without declaring it.
 *
 * The forms are getopt_long's: "--name value" and "--name=value"; "-n 1"
 * and "-n1" (a value attached); flags combined ("-qv", "-qn1": the first
 * letter that takes a value takes the rest); "--" ends the options.  Long
 * names are matched whole (no prefixes).  Unlike getopt_long, an OPT_LIST
 * option also takes every following argument up to the next option.
 *
 * Ownership: a struct parsed points into argv; opts_free() releases only
 * the arrays it allocated.
 */
#ifndef GPUPLAN_CLI_OPTIONS_H
#define GPUPLAN_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum opt_arg {
	OPT_FLAG,	/* --spot */
	OPT_VALUE,	/* --currency CNY (the last one given wins) */
	OPT_LIST,	/* --catalog A.yaml B.yaml --catalog C.yaml */
};

struct opt_spec {
	const char *name;	/* long name without the dashes */
	char short_name;	/* 0 for none */
	enum opt_arg arg;
	const char *metavar;	/* "FILE", "NAME", ... */
	const char *help;
};

struct cmd_spec {
	const char *path;	/* "catalog list" */
	const char *args;	/* positional synopsis ("NAME"), or NULL */
	const char *summary;	/* one line */
	const struct opt_spec *opts;	/* terminated by {NULL} */
	int min_args, max_args;	/* positionals; max_args -1: no limit */
	const char *details;	/* paragraph after the options, or NULL */
};

struct opt_result {
	bool set;
	const char *value;	/* OPT_VALUE */
	const char **list;	/* OPT_LIST */
	size_t nlist;
};

struct parsed {
	struct opt_result *opt;	/* parallel to spec->opts */
	size_t nopt;
	const char **args;
	size_t nargs;
};

/* OPTS_HELP_SHOWN is no exit status: commands turn it into 0. */
enum { OPTS_OK = 0, OPTS_USAGE_ERROR = 2, OPTS_HELP_SHOWN = -1 };

/* Parses argv[1..argc-1] (argv[0] is the command's own name). */
int opts_parse(const struct cmd_spec *s, int argc, char **argv,
	       struct parsed *p);
void opts_free(struct parsed *p);

void opts_print_help(const struct cmd_spec *s, FILE *out);

/*
 * While a collector is set (fn non-NULL), opts_parse() parses nothing: it
 * hands its table to fn and returns OPTS_HELP_SHOWN, so calling a command
 * with "--help" yields its table without its help text.  This is how the
 * man page and the shell completion (cli/help_gen.h) see every table
 * without each command exporting its own.  opts_collect(NULL, NULL) ends it.
 */
void opts_collect(void (*fn)(const struct cmd_spec *s, void *ctx), void *ctx);
bool opts_collecting(void);

const struct opt_result *opt_find(const struct parsed *p,
				  const struct cmd_spec *s, const char *name);
bool opt_flag(const struct parsed *p, const struct cmd_spec *s,
	      const char *name);
const char *opt_value(const struct parsed *p, const struct cmd_spec *s,
		      const char *name);

/* An option's whole number: decimal digits only (no sign, no spaces, no
 * "1e3"), from min to max.  True with the value in *out. */
bool opt_whole(const char *text, long min, long max, long *out);

/* A plain decimal number, optionally followed by '%' ("15", "15%",
 * "0.75"): true with *x and *percent set, false for anything else (hex
 * such as "0x10", a sign, "inf", spaces, other letters), which strtod
 * would partly read. */
bool opt_number_or_percent(const char *text, double *x, bool *percent);

/* Prints "gpuplan: MSG" and "Try 'gpuplan PATH --help'." on stderr and
 * returns OPTS_USAGE_ERROR. */
int usage_error(const struct cmd_spec *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif

/*
 * dispatch.h - a table of commands and running one of them: the top-level
 * table in main.c and the subcommand tables of catalog, model and workload
 * all go through here, so `--help`, a missing command and a misspelt one
 * read the same everywhere.
 *
 * Ownership: tables are static data of their callers; nothing here
 * allocates what it returns.
 */
#ifndef GPUPLAN_CLI_DISPATCH_H
#define GPUPLAN_CLI_DISPATCH_H

#include <stdio.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;	/* one line */
};

/* The entry of table named name, or NULL. */
const struct command *command_find(const struct command *table,
				   const char *name);

/* Says name is not a command of table ("gpuplan PARENT NAME", with a
 * did-you-mean) on standard error; returns the exit status, 2. */
int command_unknown(const char *parent, const struct command *table,
		    const char *name);

/* Runs argv[1] from table, with "gpuplan PARENT" in messages; prints the
 * table for --help (exit 0) or when no subcommand is given (exit 2). */
int run_subcommand(const char *parent, const struct command *table,
		   int argc, char **argv);

/* Prints "  name   help" for each entry. */
void print_command_table(const struct command *table, FILE *out);

#endif

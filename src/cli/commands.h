/*
 * commands.h - the subcommand table and the entry point of each command.
 *
 * Every command is `int cmd_NAME(int argc, char **argv)` where argv[0] is
 * the command's own name; it returns the exit status (0 ok, 1 runtime
 * failure, 2 usage or input error).  main.c holds the top-level table;
 * commands with subcommands (catalog) dispatch with run_subcommand().
 */
#ifndef GPUPLAN_CLI_COMMANDS_H
#define GPUPLAN_CLI_COMMANDS_H

#include <stdio.h>

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;	/* one line */
};

int cmd_backtest(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_catalog(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_diagnose(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_workload(int argc, char **argv);

/* Runs argv[1] from table, with "gpuplan PARENT" in messages; prints the
 * table for --help (exit 0) or when no subcommand is given (exit 2). */
int run_subcommand(const char *parent, const struct command *table,
		   int argc, char **argv);

/* Prints "  name   help" for each entry. */
void print_command_table(const struct command *table, FILE *out);

#endif

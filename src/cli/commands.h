/*
 * commands.h - the entry point of each command (the table they sit in is
 * dispatch.h's struct command).
 *
 * Every command is `int cmd_NAME(int argc, char **argv)` where argv[0] is
 * the command's own name; it returns the exit status (0 ok, 1 runtime
 * failure, 2 usage or input error).  main.c holds the top-level table;
 * commands with subcommands (catalog) dispatch with run_subcommand()
 * (dispatch.h).
 */
#ifndef GPUPLAN_CLI_COMMANDS_H
#define GPUPLAN_CLI_COMMANDS_H

#include "dispatch.h"

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

#endif

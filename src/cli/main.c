/*
 * main.c - gpuplan's entry point: a dispatcher and nothing more.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/plugin_loader.h"
#include "commands.h"
#include "core/io_guard.h"
#include "core/paths.h"
#include "core/suggest.h"
#include "core/term_safe.h"
#include "core/xalloc.h"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "0.0.0"
#endif

static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
	{"plan", cmd_plan, "which instance, how many, how long and at what cost, per workload"},
	{"backtest", cmd_backtest, "the planner against recorded outcomes of real runs: predicted vs measured"},
	{"report", cmd_report, "a plan as a PDF report and PNG/SVG charts, in English or Chinese"},
	{"catalog", cmd_catalog, "list, show and validate instance and accelerator catalogs"},
	{"model", cmd_model, "parameters, FLOPs, bytes and memory of a model, derived from its description"},
	{"bench", cmd_bench, "measure a device (the CPU, or a CUDA GPU through the plugin) -> measured profile"},
	{"fit", cmd_fit, "fit scaling curves (transfer, step time and memory, GEMM) to measured profiles, with intervals"},
	{"devices", cmd_devices, "list the devices gpuplan can measure here (CPU, CUDA GPUs)"},
	{"diagnose", cmd_diagnose, "why a GPU starves or throttles, from an nvidia-smi log or live NVML"},
	{"workload", cmd_workload, "list and validate workloads: what the planner plans"},
	{"run", cmd_run, "run a command N times: wall time, metrics from its output, GPU samples -> run record"},
	{"compare", cmd_compare, "two runs, profiles or plans: changes with 95% intervals and verdicts, or a cost diff"},
	{"help", cmd_help, "show help for a command: gpuplan help catalog list"},
	{NULL, NULL, NULL},
};

void print_command_table(const struct command *table, FILE *out)
{
	for (const struct command *c = table; c->name; c++)
		fprintf(out, "  %-12s %s\n", c->name, c->help);
}

static void print_overview(FILE *out)
{
	fprintf(out,
		"usage: gpuplan [--version] [--help] COMMAND [ARGS]\n\n"
		"Which GPU instance to rent, how many, how long and at what cost.\n\n"
		"commands:\n");
	print_command_table(commands, out);
	fprintf(out, "\nRun 'gpuplan COMMAND --help' for a command's options.\n");
}

static const struct command *find(const struct command *table,
				  const char *name)
{
	for (const struct command *c = table; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static int unknown_command(const char *parent, const struct command *table,
			   const char *name)
{
	const char *names[32];
	size_t n = 0;
	for (const struct command *c = table; c->name && n < 32; c++)
		names[n++] = c->name;
	char hint[96];
	const char *h = suggest_hint(name, names, n, hint, sizeof(hint));
	fprintf(stderr, "gpuplan: unknown command '%s%s%s'%s%s%s\n",
		parent ? parent : "", parent ? " " : "", name, h ? " (" : "",
		h ? h : "", h ? ")" : "");
	fprintf(stderr, "Try 'gpuplan %s%s--help'.\n", parent ? parent : "",
		parent ? " " : "");
	return 2;
}

int run_subcommand(const char *parent, const struct command *table, int argc,
		   char **argv)
{
	bool help = argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
				  strcmp(argv[1], "-h") == 0);
	if (argc < 2 || help) {
		FILE *out = help ? stdout : stderr;
		fprintf(out, "usage: gpuplan %s COMMAND [options]\n\ncommands:\n",
			parent);
		print_command_table(table, out);
		fprintf(out, "\nRun 'gpuplan %s COMMAND --help' for its options.\n",
			parent);
		return help ? 0 : 2;
	}
	const struct command *c = find(table, argv[1]);
	if (!c)
		return unknown_command(parent, table, argv[1]);
	return c->run(argc - 1, argv + 1);
}

/* `gpuplan help CMD [SUB]` is `gpuplan CMD [SUB] --help`. */
static int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		print_overview(stdout);
		return 0;
	}
	const struct command *c = find(commands, argv[1]);
	if (!c || c->run == cmd_help)
		return c ? cmd_help(1, argv) : unknown_command(NULL, commands, argv[1]);
	char *args[4] = {argv[1], NULL, NULL, NULL};
	int n = 1;
	if (argc >= 3)
		args[n++] = argv[2];
	args[n++] = "--help";
	return c->run(n, args);
}

static int print_version(void)
{
	printf("gpuplan %s\n", GPUPLAN_VERSION);
	if (cuda_plugin_was_built())
		printf("cuda plugin: built (libgpuplan-cuda.so); loaded only when a command asks for a GPU\n");
	else
		printf("cuda plugin: not built (no CUDA Toolkit at build time); GPU measurement unavailable\n");
	struct cuda_plugin_dirs dirs;
	cuda_plugin_search_dirs(&dirs);
	/* folders come from the environment: printed spelled out */
	printf("plugin search path:");
	for (size_t i = 0; i < dirs.count; i++) {
		char *shown = term_escape_dup(dirs.dir[i], 0);
		printf("%s %s", i ? "," : "", shown);
		free(shown);
	}
	printf("%s\n", dirs.count ? "" : " (none: /proc/self/exe unreadable)");
	char *data = data_dir_find();
	char *shown = data ? term_escape_dup(data, 0) : NULL;
	printf("data folder: %s\n", shown ? shown : "(not found; set GPUPLAN_DATA_DIR)");
	free(shown);
	free(data);
	return 0;
}

/* A write error on stdout (a full disk, a closed pipe) is a failure: the
 * user would otherwise take a truncated listing for a whole one. */
static int finish(int rc)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "gpuplan: cannot write to standard output\n");
		return rc ? rc : 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	/* Every message from here on is escaped (core/term_safe.h): names and
	 * arguments can hold bytes a terminal would obey. */
	term_safe_stderr();
	io_guard_install();
	if (argc < 2) {
		print_overview(stderr);
		return 2;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		print_overview(stdout);
		return finish(0);
	}
	if (strcmp(argv[1], "--version") == 0)
		return finish(print_version());
	if (argv[1][0] == '-') {
		fprintf(stderr, "gpuplan: unknown option '%s'\nTry 'gpuplan --help'.\n",
			argv[1]);
		return 2;
	}
	const struct command *c = find(commands, argv[1]);
	if (!c)
		return unknown_command(NULL, commands, argv[1]);
	return finish(c->run(argc - 1, argv + 1));
}

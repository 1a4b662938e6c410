/*
 * main.c - gpuplan's entry point: a dispatcher and nothing more.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "bench/plugin_loader.h"
#include "commands.h"
#include "common.h"
#include "core/output.h"
#include "help_gen.h"
#include "core/io_guard.h"
#include "core/paths.h"
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

/* The top-level help: the command table, then what this build has (the
 * plugin and the data, probed now), so no line can go stale. */
static void print_overview(FILE *out)
{
	fprintf(out,
		"usage: gpuplan [--version] [--help] COMMAND [ARGS]\n\n"
		"Which GPU instance to rent, how many, how long and at what cost.\n\n"
		"commands:\n");
	print_command_table(commands, out);
	struct cuda_plugin_info info;
	cuda_plugin_probe(&info);
	char line[sizeof(info.why) + PATH_MAX + 256];
	cuda_plugin_describe(&info, line, sizeof(line));
	char *shown = term_escape_dup(line, 0);
	fprintf(out, "\nthis build:\n  cuda plugin: %s\n", shown);
	free(shown);
	if (!info.usable)
		fprintf(out, "  so 'bench --device cuda' and 'devices --check' have no GPU to use\n");
	char why[2 * PATH_MAX];
	char *data = data_dir_search(why, sizeof(why));
	shown = term_escape_dup(data ? data : why, 0);
	fprintf(out, "  data folder: %s%s\n", data ? "" : "not found: looked in ",
		shown);
	free(shown);
	free(data);
	fprintf(out, "  data search order: %s\n", data_dir_order());
	fprintf(out, "\nRun 'gpuplan COMMAND --help' for a command's options.\n");
}

static const struct opt_spec help_opts[] = {
	{"man", 0, OPT_FLAG, NULL,
	 "print the man page (roff), generated from the option tables"},
	{"completion", 0, OPT_VALUE, "SHELL",
	 "print the bash or zsh completion script, generated from the option tables"},
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec help_spec = {
	"help", "[COMMAND [SUBCOMMAND]]",
	"Show help for a command: 'gpuplan help catalog list' is "
	"'gpuplan catalog list --help'.",
	help_opts, 0, 2,
	"The build makes gpuplan.1, gpuplan.bash and _gpuplan with --man and\n"
	"--completion; 'cmake --install' puts them where man, bash and zsh look.",
};

/* --man or --completion SHELL: generated text, to stdout or -o FILE. */
static int help_generate(const struct parsed *p)
{
	const char *shell = opt_value(p, &help_spec, "completion");
	if (opt_flag(p, &help_spec, "man") && shell)
		return usage_error(&help_spec, "--man and --completion: choose one");
	if (shell && strcmp(shell, "bash") != 0 && strcmp(shell, "zsh") != 0)
		return usage_error(&help_spec,
				   "--completion takes bash or zsh, not '%s'", shell);
	struct help_tables t;
	help_collect(commands, &t);
	struct output o;
	output_open(&o);
	if (shell)
		help_completion(&t, shell, o.f);
	else
		help_man(&t, GPUPLAN_VERSION, o.f);
	help_tables_free(&t);
	return output_finish(&o, opt_value(p, &help_spec, "output"));
}

/* `gpuplan help CMD [SUB]` is `gpuplan CMD [SUB] --help`. */
static int cmd_help(int argc, char **argv)
{
	struct parsed p;
	int rc = opts_parse(&help_spec, argc, argv, &p);
	if (rc != OPTS_OK)
		goto out;
	if (opt_flag(&p, &help_spec, "man") ||
	    opt_value(&p, &help_spec, "completion")) {
		rc = p.nargs ? usage_error(&help_spec, "--man and --completion take no COMMAND")
			     : help_generate(&p);
		goto out;
	}
	if (p.nargs == 0) {
		print_overview(stdout);
		goto out;
	}
	const struct command *c = command_find(commands, p.args[0]);
	if (!c) {
		rc = command_unknown(NULL, commands, p.args[0]);
		goto out;
	}
	if (c->run == cmd_help) {
		print_overview(stdout);
		goto out;
	}
	char *args[4] = {(char *)p.args[0], NULL, NULL, NULL};
	int n = 1;
	if (p.nargs >= 2)
		args[n++] = (char *)p.args[1];
	args[n++] = "--help";
	rc = c->run(n, args);
out:
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

static int print_version(void)
{
	printf("gpuplan %s\n", GPUPLAN_VERSION);
	struct cuda_plugin_info info;
	cuda_plugin_probe(&info);
	char line[sizeof(info.why) + PATH_MAX + 256];
	cuda_plugin_describe(&info, line, sizeof(line));
	/* paths come from the environment: printed spelled out */
	char *shown = term_escape_dup(line, 0);
	printf("cuda plugin: %s\n", shown);
	free(shown);
	struct cuda_plugin_dirs dirs;
	cuda_plugin_search_dirs(&dirs);
	printf("plugin search path:");
	for (size_t i = 0; i < dirs.count; i++) {
		shown = term_escape_dup(dirs.dir[i], 0);
		printf("%s %s", i ? "," : "", shown);
		free(shown);
	}
	printf("%s\n", dirs.count ? "" : " (none: /proc/self/exe unreadable)");
	char why[2 * PATH_MAX];
	char *data = data_dir_search(why, sizeof(why));
	shown = term_escape_dup(data ? data : why, 0);
	printf("data folder: %s%s\n", data ? "" : "not found: looked in ", shown);
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
	/* GSL's default handler prints and calls abort(); every GSL call
	 * checks its own status or result (each site also turns the handler
	 * off around itself, for the library's other callers), so none may
	 * end the process with exit 134. */
	gsl_set_error_handler_off();
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
	const struct command *c = command_find(commands, argv[1]);
	if (!c)
		return command_unknown(NULL, commands, argv[1]);
	return finish(c->run(argc - 1, argv + 1));
}

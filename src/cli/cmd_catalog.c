/*
 * cmd_catalog.c - `gpuplan catalog list|show|validate`: the dispatcher and
 * validate; list and show have files of their own.
 */
#include <stdio.h>

#include "catalog_cmds.h"
#include "commands.h"
#include "common.h"

static const struct opt_spec validate_opts[] = {
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec validate_spec = {
	"catalog validate", "FILE...",
	"Check catalog files and report every problem in every file.",
	validate_opts, 1, -1,
	"The files are loaded together; an instance's accelerator must be defined\n"
	"in one of them, or in the shipped accelerators.yaml when none of them\n"
	"defines accelerators.  Exit status 2 when any problem is found.",
};

static int catalog_validate(int argc, char **argv)
{
	struct parsed p;
	int rc = opts_parse(&validate_spec, argc, argv, &p);
	if (rc != OPTS_OK ||
	    (rc = cli_one_stdin_of(&p, &validate_spec, (const char *const[]){NULL}, true)))
		goto out;
	struct catalog c;
	rc = cli_load_catalog_files(p.args, p.nargs, &c);
	if (rc == 0) {
		printf("ok: %zu file%s, %zu accelerators, %zu instances%s%s",
		       p.nargs, p.nargs == 1 ? "" : "s", c.n_acc, c.n_inst,
		       c.fx.present ? ", exchange rates of " : "",
		       c.fx.present ? c.fx.as_of : "");
		/* Say which shipped files filled in what the given ones lack. */
		for (size_t i = p.nargs; i < c.n_files; i++)
			printf("%s%s", i == p.nargs ? " (with shipped " : ", ",
			       c.files[i]);
		printf("%s\n", c.n_files > p.nargs ? ")" : "");
		catalog_free(&c);
	}
out:
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

/* ---- dispatch ---- */

static const struct command catalog_commands[] = {
	{"list", catalog_list, "list instances with accelerators and prices"},
	{"show", catalog_show, "show one instance or accelerator with sources"},
	{"validate", catalog_validate, "check catalog files, every problem"},
	{NULL, NULL, NULL},
};

int cmd_catalog(int argc, char **argv)
{
	return run_subcommand("catalog", catalog_commands, argc, argv);
}

/*
 * help_gen.h - the man page and the bash and zsh completion, generated
 * from the command tables and every command's option table.
 *
 * The tables are gathered by calling each command with "--help" while an
 * options.h collector is set (help_collect); run_subcommand() walks its own
 * table then.  Nothing is written by hand, so the page and the completion
 * list exactly what the parser accepts.  Output is the same bytes for the
 * same build (no dates).
 *
 * Ownership: a struct help_tables holds pointers to static tables; only
 * its array is allocated, released by help_tables_free().
 */
#ifndef GPUPLAN_CLI_HELP_GEN_H
#define GPUPLAN_CLI_HELP_GEN_H

#include <stddef.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/options.h"

struct help_tables {
	const struct command *commands;	/* the top-level table */
	const struct cmd_spec **spec;	/* in table order, no duplicates */
	size_t n;
};

void help_collect(const struct command *commands, struct help_tables *t);
void help_tables_free(struct help_tables *t);

/* The man page, roff, section 1: a subsection per command with every
 * option of its table. */
void help_man(const struct help_tables *t, const char *version, FILE *out);

/* The completion script for shell "bash" or "zsh"; -1 for another. */
int help_completion(const struct help_tables *t, const char *shell,
		    FILE *out);

#endif

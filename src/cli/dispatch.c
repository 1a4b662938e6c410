/*
 * dispatch.c - finding a command in a table and running it, or saying
 * which one was meant.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/suggest.h"
#include "dispatch.h"
#include "options.h"

void print_command_table(const struct command *table, FILE *out)
{
	for (const struct command *c = table; c->name; c++)
		fprintf(out, "  %-12s %s\n", c->name, c->help);
}

const struct command *command_find(const struct command *table,
				  const char *name)
{
	for (const struct command *c = table; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

int command_unknown(const char *parent, const struct command *table,
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
	/* help_gen.h gathering the tables: every subcommand's */
	if (opts_collecting()) {
		for (const struct command *c = table; c->name; c++) {
			char *args[] = {(char *)c->name, "--help", NULL};
			c->run(2, args);
		}
		return 0;
	}
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
	const struct command *c = command_find(table, argv[1]);
	if (!c)
		return command_unknown(parent, table, argv[1]);
	return c->run(argc - 1, argv + 1);
}

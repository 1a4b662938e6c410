/*
 * common.h - what several commands share: output format, catalog loading.
 */
#ifndef GPUPLAN_CLI_COMMON_H
#define GPUPLAN_CLI_COMMON_H

#include "catalog/catalog.h"
#include "model/graph.h"
#include "options.h"
#include "workload/workload.h"

enum out_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

/*
 * The --format option of a listing command.  Its help begins with the
 * formats the command accepts, and cli_format() reads them back from
 * there: the one list both parses and documents, so --help never
 * advertises a format the command refuses.
 */
#define FORMAT_OPTION_OF(accepted, extensions)                               \
	{"format", 'f', OPT_VALUE, "FMT",                                    \
	 accepted " (default: table, or by the -o file's extension " extensions ")"}
#define FORMAT_OPTION FORMAT_OPTION_OF("table, csv or json", ".json/.csv")
#define FORMAT_OPTION_NO_CSV FORMAT_OPTION_OF("table or json", ".json")
#define OUTPUT_OPTION                                                        \
	{"output", 'o', OPT_VALUE, "FILE",                                   \
	 "write to FILE (atomically) instead of standard output; - is standard output"}

/*
 * Reads --format: one of the names its help text begins with (the words
 * before the first parenthesis, FORMAT_OPTION_OF).  Without it, the human
 * table whether or not stdout is a terminal (DESIGN.md), except that -o
 * FILE.json gives json and -o FILE.csv csv where the command accepts it.
 * Returns 0, or OPTS_USAGE_ERROR after printing why.
 */
int cli_format(const struct parsed *p, const struct cmd_spec *s,
	       enum out_format *out);

/*
 * `-o -` for a file its writer makes by path (a PDF, a chart): a fresh
 * temporary folder holding `name` (its extension tells the writer the
 * format) in *tmp.  Binary bytes on a terminal help nobody, so standard
 * output that is a terminal is refused.  0, or 1 (no temporary folder)
 * or OPTS_USAGE_ERROR after printing why.  *tmp is the caller's until
 * cli_stdout_finish.
 */
int cli_stdout_stage(const struct cmd_spec *s, const char *option,
		     const char *name, char **tmp);
/* With deliver, copies *tmp's bytes to standard output; then removes the
 * file and its folder and frees *tmp.  Returns rc, or 1 when the copy
 * failed. */
int cli_stdout_finish(char **tmp, bool deliver, int rc);

/*
 * A file argument "-" is standard input, which can be read once: with
 * more than one of paths[0..n-1] (NULL entries skipped) "-", prints a
 * usage error and returns OPTS_USAGE_ERROR; else 0.
 */
int cli_one_stdin(const struct cmd_spec *s, const char *const *paths, size_t n);

/* The files of option `name` (OPT_LIST or OPT_VALUE) and of every
 * positional argument, checked by cli_one_stdin; names: NULL-terminated. */
int cli_one_stdin_of(const struct parsed *p, const struct cmd_spec *s,
		     const char *const *names, bool positionals);

/*
 * Loads the catalogs named by the --catalog option, or every shipped one
 * when it was not given.  On problems prints each on stderr and returns 2;
 * when the data folder cannot be found returns 1.  Returns 0 on success.
 */
int cli_load_catalog(const struct parsed *p, const struct cmd_spec *s,
		     struct catalog *c);

/* Loads exactly `files` (validate).  Same returns as cli_load_catalog. */
int cli_load_catalog_files(const char *const *files, size_t n,
			   struct catalog *c);

/* Prints every problem, then a count when there is more than one; returns
 * 2 (an input error). */
int cli_report_problems(const struct gp_errors *errs);

/*
 * Loads `file`, or the shipped profiles/workloads/default.yaml when file is
 * NULL.  Returns 0; 2 after printing every problem; 1 when the data folder
 * cannot be found.
 */
int cli_load_workloads(const char *file, struct workload_file *wf);

/*
 * Loads a model given as a path, or by the name of a shipped one
 * ("resnet-50": profiles/models/resnet-50.yaml), and builds it for seq
 * tokens (0: its own length).  With list_ops > 0, a model that expands to
 * more ops than `model show --ops` lists is refused from its description,
 * before any op is built.  Returns 0; 2 after printing every problem.
 * m and g are the caller's to free either way.
 */
int cli_load_model(const char *arg, long seq, long list_ops, struct model *m,
		   struct model_graph *g);

#endif

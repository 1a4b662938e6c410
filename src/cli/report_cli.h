/*
 * report_cli.h - what `gpuplan report` and `gpuplan plan --report` share:
 * reading the report options, checking the targets before any work, and
 * writing the report's files all or nothing with their messages.
 *
 * A report run stages every file (the PDF, each PNG and SVG, and for
 * `plan -o FILE --report` the plan itself) into one atomic set and
 * renames them together at the end; on any failure the staged files and
 * the folders the run made are removed, so nothing of the run is left.
 * Ownership: struct report_run owns its staged files and the names of
 * the folders it made until report_commit or report_abort.
 */
#ifndef GPUPLAN_CLI_REPORT_CLI_H
#define GPUPLAN_CLI_REPORT_CLI_H

#include "options.h"
#include "out_dirs.h"
#include "report/report.h"

/* --lang, --title, --rows, --png, --svg.  0 or OPTS_USAGE_ERROR. */
int report_options_read(const struct parsed *p, const struct cmd_spec *s,
			struct report_options *o);

/* The targets checked before any work: the PDF (named by the option
 * pdf_option, "-o" or "--report") neither one of this run's inputs nor a
 * folder, and no part of the PDF's folder, --png or --svg an existing
 * file.  0, or 2 after printing why. */
int report_check_targets(const struct report_options *o,
			 const char *pdf_option);

struct report_run {
	struct atomic_set set;
	struct out_dirs dirs;	/* the folders this run made */
	struct report_stats stats;
	const struct report_options *o;
	struct stale_files stale;	/* charts of earlier runs, removed on commit */
};

/*
 * Finds the font (first: a machine without one gets the install line and
 * not even an empty folder), makes the folders, renders and stages every
 * file into run->set.  0, or 1 (the machine, cairo, a full disk) or 2 (a
 * target that may not be written) after printing why and undoing it all.
 */
int report_stage(struct report_run *run, const struct r_plan *plan,
		 const struct report_options *o);

/* Renames every staged file into place and says where they are (stderr).
 * 0, or 1 after printing why (what was staged is removed). */
int report_commit(struct report_run *run);

/* Removes the staged files and the folders the run made. */
void report_abort(struct report_run *run);

/* Stage then commit: `gpuplan report`.  0, 1 or 2 as above. */
int report_write(const struct r_plan *plan, const struct report_options *o);

#endif

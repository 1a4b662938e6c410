/*
 * report_cli.h - what `gpuplan report` and `gpuplan plan --report` share:
 * reading the report options and writing the report with its messages.
 */
#ifndef GPUPLAN_CLI_REPORT_CLI_H
#define GPUPLAN_CLI_REPORT_CLI_H

#include "options.h"
#include "report/report.h"

/* --lang, --title, --rows, --png, --svg.  0 or OPTS_USAGE_ERROR. */
int report_options_read(const struct parsed *p, const struct cmd_spec *s,
			struct report_options *o);

/* Creates the folders, renders, says where the files are (stderr).
 * Returns 0, or 1 after printing why. */
int report_write(const struct r_plan *plan, const struct report_options *o);

#endif

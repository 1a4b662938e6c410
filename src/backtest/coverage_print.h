/*
 * coverage_print.h - `gpuplan backtest --coverage` for people: one
 * aligned line per stratum (overall first), one per source with the
 * overall share without it, then what was left out and why; the same as
 * GitHub Markdown for a pull-request comment.  (The JSON is
 * coverage_json().)
 */
#ifndef GPUPLAN_BACKTEST_COVERAGE_PRINT_H
#define GPUPLAN_BACKTEST_COVERAGE_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "coverage.h"

void coverage_print(FILE *out, const struct coverage *cv, bool markdown);

#endif

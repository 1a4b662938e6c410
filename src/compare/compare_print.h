/*
 * compare_print.h - a comparison's JSON (compare_runs.h, compare_plans.h)
 * drawn as the human table or as Markdown for a pull-request comment.
 * Everything printed comes from the JSON, so the views cannot disagree
 * with it.
 *
 * Ownership: nothing is kept; j is only read.
 */
#ifndef GPUPLAN_COMPARE_COMPARE_PRINT_H
#define GPUPLAN_COMPARE_COMPARE_PRINT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

void compare_print_runs(const json_t *j, bool markdown, FILE *out);
void compare_print_plans(const json_t *j, bool markdown, FILE *out);

#endif

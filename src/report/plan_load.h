/*
 * plan_load.h - a plan (gpuplan/plan/v1 JSON) loaded into report_data.h's
 * struct r_plan: from a file, from text in memory, or from the document
 * `gpuplan plan --report` built.
 *
 * The loader checks every field it uses and says where a bad one is, by
 * file, line, column and JSON path ("plan.json:12:7:
 * workloads[0].options[3].cost: expected a number, found a string"): the
 * report never draws from a half-read plan.  It copies what the report
 * draws into report_data.h's structs (what a plan may hold is said
 * there) and keeps nothing of the JSON text: the text itself
 * (json_read.h) is read in place and freed when loading ends.
 * Ownership: a loaded plan owns everything it points to; free it with
 * r_plan_free().  After a failure there is nothing to free.
 */
#ifndef GPUPLAN_REPORT_PLAN_LOAD_H
#define GPUPLAN_REPORT_PLAN_LOAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "report_data.h"

/* Reads `path` (at most PLAN_MAX_BYTES); 0, or -1 with why. */
int r_plan_load(struct r_plan *p, const char *path, char *why, size_t len);

/*
 * The same from text in memory: text[len] must be '\0'.  `name` starts
 * every message; with `positions`, messages give the line and column in
 * text.  This is the plan JSON reader's whole input surface (its fuzz
 * harness calls it).
 */
int r_plan_parse(struct r_plan *p, const char *text, size_t len,
		 const char *name, bool positions, char *why, size_t whylen);

/* The same from a document gpuplan built (`gpuplan plan --report`): the
 * document as json_write prints it, so positions match a plan written
 * with -o.  name is used in messages. */
int r_plan_from_json(struct r_plan *p, const json_t *root, const char *name,
		     char *why, size_t len);

#endif

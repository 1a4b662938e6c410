/*
 * reason.h - an option's coded reasons (option.h) in words: the sentence
 * fragment each code makes with its figures, the code's stable name in
 * JSON, and why a weighed layout lost to the chosen one.
 *
 * Ownership: every function writes into a caller's buffer or returns a
 * static string (or one the reason points at, which outlives the result).
 */
#ifndef GPUPLAN_OPTION_REASON_H
#define GPUPLAN_OPTION_REASON_H

#include <stddef.h>

#include "option/option.h"

#define PLAN_REASON_LEN 1400	/* longest reason, formatted: room for two
				 * names of YR_NAME_MAX bytes and their words */

/* The reason's first and second words as plan_reason_format() and the
 * JSON's "s1"/"s2" give them: a name, a currency code, or NULL. */
const char *plan_reason_s1(const struct plan_reason *r);
const char *plan_reason_s2(const struct plan_reason *r);
/* Copies a currency code into r->currency[i]. */
void plan_reason_currency(struct plan_reason *r, int i, const char *code);

/* Why l lost to `chosen` (the first of the list), as a sentence
 * fragment; "chosen" for the chosen one. */
void plan_layout_why(const struct plan_layout *l, const struct plan_layout *chosen,
		     double capacity, char *buf, size_t len);

/* "deadline", "memory", ...: the code's stable name in JSON. */
const char *plan_reason_code_name(enum reason_code c);
/* Reason i of o as a sentence fragment, lowercase, no full stop. */
void plan_reason_format(const struct plan_option *o, int i, char *buf,
			size_t len);

#endif

/*
 * yaml_read.h - strict, typed reading of a ytree, every problem recorded.
 *
 * A loader describes each mapping with a table of fields, asks
 * yr_check_keys() to flag unknown keys (with a did-you-mean) and missing
 * required ones, then reads each value with a typed getter.  Getters return
 *    1  the key is present and its value is valid (stored in *out),
 *    0  the key is absent (*out untouched; required keys were already
 *       reported by yr_check_keys),
 *   -1  the value is wrong; a located error was added to r->errs.
 * so a loader reads every field and reports every problem in one pass.
 *
 * Ownership: strings returned through char ** are new copies the caller
 * frees; nodes stay owned by their ytree.
 */
#ifndef GPUPLAN_CORE_YAML_READ_H
#define GPUPLAN_CORE_YAML_READ_H

#include <stdbool.h>

#include "error.h"
#include "units.h"
#include "yaml_tree.h"

struct yread {
	const char *file;
	struct gp_errors *errs;
};

struct yfield {
	const char *key;
	bool required;
};

/* Records an error at node n. */
void yr_error(struct yread *r, const struct ynode *n, const char *hint,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* True when n is a mapping; else records "expected a mapping for WHAT". */
bool yr_expect_map(struct yread *r, const struct ynode *n, const char *what);
bool yr_expect_seq(struct yread *r, const struct ynode *n, const char *what);

/* Flags unknown and missing keys of map against fields (terminated by a
 * {NULL} entry).  `what` names the mapping in messages ("instance
 * 'p5.48xlarge'").  Returns the number of problems found. */
int yr_check_keys(struct yread *r, const struct ynode *map, const char *what,
		  const struct yfield *fields);

/* Text: any UTF-8 without terminal controls (term_safe.h); line breaks
 * and tabs are allowed (descriptions, notes). */
int yr_string(struct yread *r, const struct ynode *map, const char *key,
	      char **out);
/* A name (instance, accelerator, workload, model, op, tensor): one line of
 * plain text, at most YR_NAME_MAX bytes; control characters, line breaks
 * and tabs are refused with their position. */
#define YR_NAME_MAX 256
int yr_name(struct yread *r, const struct ynode *map, const char *key,
	    char **out);
int yr_int(struct yread *r, const struct ynode *map, const char *key,
	   long min, long max, long *out);
int yr_bool(struct yread *r, const struct ynode *map, const char *key,
	    bool *out);
/* A plain number strictly greater than zero (a ratio such as PUE). */
int yr_positive(struct yread *r, const struct ynode *map, const char *key,
		double *out);
/* A plain (unquoted) finite decimal number of any sign: a measured
 * figure, a fitted parameter.  n NULL (a key that is absent) gives 0. */
int yr_node_real(struct yread *r, const struct ynode *n, const char *what,
		 double *out);

/* A quantity with a unit, strictly greater than zero.  detail may be NULL. */
int yr_quantity(struct yread *r, const struct ynode *map, const char *key,
		enum unit_kind kind, double *out, struct unit_detail *detail);
/* Money per `per` (a price per hour, per kWh, or a plain amount), > 0. */
int yr_money(struct yread *r, const struct ynode *map, const char *key,
	     enum money_per per, struct money *out);
/*
 * The same within the range of a kind of quantity (units.h: quantity_range()),
 * refused outside it with the range in the message ("'memory_bandwidth'
 * must be from 1 MB/s to 1 PB/s, found '1e-300TB/s'").  Loaders read every
 * quantity the planner computes with through these, so that whatever they
 * accept gives finite results.  yr_quantity_in reads the unit the range
 * names; yr_number_in a plain number (a PUE, an efficiency, a rate).
 */
int yr_quantity_in(struct yread *r, const struct ynode *map, const char *key,
		   enum quantity q, double *out, struct unit_detail *detail);
int yr_money_in(struct yread *r, const struct ynode *map, const char *key,
		enum money_per per, enum quantity q, struct money *out);
int yr_number_in(struct yread *r, const struct ynode *map, const char *key,
		 enum quantity q, double *out);
/* yr_number_in for a node already in hand (a value of a mapping read by
 * its items, not by key). */
int yr_node_number_in(struct yread *r, const struct ynode *n, const char *key,
		      enum quantity q, double *out);
/* A date written YYYY-MM-DD or YYYY-MM, checked for a real month and day
 * (leap years included: 2024-02-29 is a date, 2025-02-29 and 2100-02-29
 * are not), in the years 1990 to 2100. */
int yr_date(struct yread *r, const struct ynode *map, const char *key,
	    char **out);

/* The gate before anything else of a file is read: root must be a
 * mapping whose `schema:` is `want`.  Returns 0, or -1 with one located
 * error, and the file is then left unread: "expected 'schema: WANT',
 * found 'gpuplan/...'" for another gpuplan kind or version, else "not a
 * gpuplan WHAT" (what: "catalog file").  Nothing of a file that is not a
 * gpuplan file (/etc/passwd, another program's YAML) is quoted. */
int yr_check_schema(struct yread *r, const struct ynode *root,
		    const char *want, const char *what);

/* A list item as messages name it: "accelerator 'H100-SXM'", or
 * "accelerator #3" when its `name:` is missing (index counts from 0). */
void yr_entry_label(const struct ynode *n, const char *kind, size_t index,
		    char *buf, size_t len);

/* Parses a scalar's text as the value types above use; these are what the
 * getters call once they hold the node.  Exposed for list items. */
int yr_node_string(struct yread *r, const struct ynode *n, const char *what,
		   char **out);
int yr_node_name(struct yread *r, const struct ynode *n, const char *what,
		 char **out);

#endif

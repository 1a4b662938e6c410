#include "yaml_read.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#include "term_safe.h"
#include "xalloc.h"

void yr_error(struct yread *r, const struct ynode *n, const char *hint,
	      const char *fmt, ...)
{
	/* once problems are only counted (error.h), count this one without
	 * formatting it: a flood of a million entries would otherwise spend
	 * its time in printf for messages nobody sees */
	if (gp_errors_full(r->errs)) {
		gp_errors_add(r->errs, NULL, 0, 0, NULL, "%s", "");
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	gp_errors_add(r->errs, r->file, n ? n->line : 0, n ? n->col : 0, hint,
		      "%s", msg);
	free(msg);
}

static bool expect_kind(struct yread *r, const struct ynode *n,
			enum ynode_kind kind, const char *what)
{
	if (n && n->kind == kind)
		return true;
	char found[96];
	ynode_describe(n, found, sizeof(found));
	yr_error(r, n, NULL, "expected %s for %s, found %s",
		 kind == YNODE_MAP ? "a mapping" : "a list", what, found);
	return false;
}

bool yr_expect_map(struct yread *r, const struct ynode *n, const char *what)
{
	return expect_kind(r, n, YNODE_MAP, what);
}

bool yr_expect_seq(struct yread *r, const struct ynode *n, const char *what)
{
	return expect_kind(r, n, YNODE_SEQ, what);
}

int yr_check_keys(struct yread *r, const struct ynode *map, const char *what,
		  const struct yfield *fields)
{
	const char *names[64];
	size_t nf = 0;
	for (const struct yfield *f = fields; f->key && nf < 64; f++)
		names[nf++] = f->key;
	int problems = 0;
	for (size_t i = 0; i < map->n; i++) {
		const struct ynode *k = map->items[2 * i];
		bool known = false;
		for (size_t j = 0; j < nf; j++)
			known |= strcmp(k->text, names[j]) == 0;
		if (known)
			continue;
		char hint[128];
		const char *h = suggest_hint(k->text, names, nf, hint,
					     sizeof(hint));
		yr_error(r, k, h, "unknown key '%.100s' in %s", k->text, what);
		problems++;
	}
	for (const struct yfield *f = fields; f->key; f++) {
		if (f->required && !ymap_get(map, f->key)) {
			yr_error(r, map, NULL, "missing required key '%s' in %s",
				 f->key, what);
			problems++;
		}
	}
	return problems;
}

/* The value of key, or NULL; a present key with a non-scalar value is an
 * error (-1 through *bad). */
static const struct ynode *scalar_of(struct yread *r, const struct ynode *map,
				     const char *key, const char *expects,
				     int *bad)
{
	*bad = 0;
	const struct ynode *n = ymap_get(map, key);
	if (!n)
		return NULL;
	if (n->kind != YNODE_SCALAR || n->text[0] == '\0') {
		char found[96];
		ynode_describe(n, found, sizeof(found));
		yr_error(r, n, NULL, "'%s' expects %s, found %s", key, expects,
			 found);
		*bad = 1;
		return NULL;
	}
	return n;
}

/* Column of a byte offset inside a scalar: exact for plain one-line
 * scalars, one further for a quoted one. */
static int col_at(const struct ynode *n, size_t offset)
{
	return n->col + (int)offset + (n->quoted ? 1 : 0);
}

/* Text a terminal would obey, or that is not UTF-8, is refused where it is
 * read (term_safe.h); names also refuse line breaks and tabs. */
static int check_text(struct yread *r, const struct ynode *n,
		      const char *what, unsigned flags)
{
	const char *why;
	long at = text_control_char(n->text, flags, &why);
	if (at < 0)
		return 0;
	gp_errors_add(r->errs, r->file, n->line, col_at(n, (size_t)at),
		      flags & TERM_KEEP_LINES ? NULL : "a name is one line of plain text",
		      "'%s' holds %s", what, why);
	return -1;
}

static int node_text(struct yread *r, const struct ynode *n, const char *what,
		     unsigned flags, size_t max, char **out)
{
	if (n->kind != YNODE_SCALAR || n->text[0] == '\0') {
		char found[96];
		ynode_describe(n, found, sizeof(found));
		yr_error(r, n, NULL, "'%s' expects a text value, found %s",
			 what, found);
		return -1;
	}
	if (check_text(r, n, what, flags) < 0)
		return -1;
	if (strlen(n->text) > max) {
		yr_error(r, n, NULL, "'%s' is too long: %zu bytes, at most %zu",
			 what, strlen(n->text), max);
		return -1;
	}
	*out = xstrdup(n->text);
	return 1;
}

int yr_node_string(struct yread *r, const struct ynode *n, const char *what,
		   char **out)
{
	return node_text(r, n, what, TERM_KEEP_LINES, (size_t)-1, out);
}

int yr_node_name(struct yread *r, const struct ynode *n, const char *what,
		 char **out)
{
	return node_text(r, n, what, 0, YR_NAME_MAX, out);
}

int yr_string(struct yread *r, const struct ynode *map, const char *key,
	      char **out)
{
	const struct ynode *n = ymap_get(map, key);
	if (!n)
		return 0;
	return yr_node_string(r, n, key, out);
}

int yr_name(struct yread *r, const struct ynode *map, const char *key,
	    char **out)
{
	const struct ynode *n = ymap_get(map, key);
	if (!n)
		return 0;
	return yr_node_name(r, n, key, out);
}

int yr_int(struct yread *r, const struct ynode *map, const char *key,
	   long min, long max, long *out)
{
	int bad;
	const struct ynode *n = scalar_of(r, map, key, "a whole number", &bad);
	if (!n)
		return bad ? -1 : 0;
	const char *s = n->text;
	size_t i = 0;
	if (s[0] == '-' && isdigit((unsigned char)s[1]) && !n->quoted) {
		yr_error(r, n, NULL, "'%s' must be between %ld and %ld, found %.40s",
			 key, min, max, s);
		return -1;
	}
	while (isdigit((unsigned char)s[i]))
		i++;
	errno = 0;
	long v = i > 0 && i < 19 && !s[i] && !n->quoted ? strtol(s, NULL, 10)
							 : -1;
	if (v < 0 || errno) {
		yr_error(r, n, NULL, "'%s' expects a whole number, found '%.60s'",
			 key, s);
		return -1;
	}
	if (v < min || v > max) {
		yr_error(r, n, NULL,
			 "'%s' must be between %ld and %ld, found %ld", key,
			 min, max, v);
		return -1;
	}
	*out = v;
	return 1;
}

int yr_bool(struct yread *r, const struct ynode *map, const char *key,
	    bool *out)
{
	int bad;
	const struct ynode *n = scalar_of(r, map, key, "true or false", &bad);
	if (!n)
		return bad ? -1 : 0;
	if (!n->quoted && strcmp(n->text, "true") == 0)
		*out = true;
	else if (!n->quoted && strcmp(n->text, "false") == 0)
		*out = false;
	else {
		yr_error(r, n, NULL, "'%s' expects true or false, found '%.60s'",
			 key, n->text);
		return -1;
	}
	return 1;
}

/* Every quantity gpuplan reads is a size, a rate or a price: zero is as
 * wrong as negative. */
static int require_positive(struct yread *r, const struct ynode *n,
			    const char *key, double v)
{
	if (v > 0)
		return 0;
	yr_error(r, n, NULL, "'%s' must be greater than zero, found '%s'", key,
		 n->text);
	return -1;
}

static void unit_error(struct yread *r, const struct ynode *n,
		       const char *key, const struct unit_problem *p)
{
	gp_errors_add(r->errs, r->file, n->line, col_at(n, p->offset), NULL,
		      "'%s': %s, found '%.60s'", key, p->msg, n->text);
}

/* A value outside q's range, with the range: the bounds are where the
 * planner's arithmetic stays finite (units.h). */
static int require_range(struct yread *r, const struct ynode *n,
			 const char *key, enum quantity q, double v)
{
	if (quantity_in_range(q, v))
		return 0;
	yr_error(r, n, NULL, "'%s' must be from %s, found '%.60s'", key,
		 quantity_range(q)->range, n->text);
	return -1;
}

/* A plain number (no unit, no count suffix), > 0, within q's range
 * when q >= 0. */
static int node_positive(struct yread *r, const struct ynode *n,
			 const char *key, int q, double *out)
{
	struct unit_problem p;
	double v;
	int rc = strpbrk(n->text, "KkMBT") ? -1
		 : units_parse(UNIT_COUNT, n->text, &v, NULL, &p);
	if (rc < 0 && !strpbrk(n->text, "KkMBT") && p.out_of_range && q >= 0)
		return require_range(r, n, key, (enum quantity)q, 0);
	if (rc < 0) {
		yr_error(r, n, NULL, "'%s' expects a plain number, found '%.60s'",
			 key, n->text);
		return -1;
	}
	if (require_positive(r, n, key, v) < 0)
		return -1;
	if (q >= 0 && require_range(r, n, key, (enum quantity)q, v) < 0)
		return -1;
	*out = v;
	return 1;
}

int yr_positive(struct yread *r, const struct ynode *map, const char *key,
		double *out)
{
	int bad;
	const struct ynode *n = scalar_of(r, map, key, "a number", &bad);
	if (!n)
		return bad ? -1 : 0;
	return node_positive(r, n, key, -1, out);
}

int yr_node_real(struct yread *r, const struct ynode *n, const char *what,
		 double *out)
{
	if (!n)
		return 0;
	char *end = NULL;
	errno = 0;
	double v = n->kind == YNODE_SCALAR && !n->quoted && n->text[0] &&
		   strspn(n->text, "0123456789.eE+-") == strlen(n->text)
		? strtod(n->text, &end) : NAN;
	if (!end || *end || errno == ERANGE || !isfinite(v)) {
		char found[96];
		ynode_describe(n, found, sizeof(found));
		yr_error(r, n, NULL, "'%s' expects a finite number, found %s",
			 what, found);
		return -1;
	}
	*out = v;
	return 1;
}

int yr_node_number_in(struct yread *r, const struct ynode *n, const char *key,
		      enum quantity q, double *out)
{
	if (n->kind != YNODE_SCALAR || n->text[0] == '\0') {
		char found[96];
		ynode_describe(n, found, sizeof(found));
		yr_error(r, n, NULL, "'%s' expects a number, found %s", key,
			 found);
		return -1;
	}
	return node_positive(r, n, key, (int)q, out);
}

int yr_number_in(struct yread *r, const struct ynode *map, const char *key,
		 enum quantity q, double *out)
{
	int bad;
	const struct ynode *n = scalar_of(r, map, key, "a number", &bad);
	if (!n)
		return bad ? -1 : 0;
	return yr_node_number_in(r, n, key, q, out);
}

/* The quantity at n, > 0; q < 0: any size. */
static int node_quantity(struct yread *r, const struct ynode *n,
			 const char *key, enum unit_kind kind, int q,
			 double *out, struct unit_detail *detail)
{
	struct unit_problem p;
	double v;
	if (units_parse(kind, n->text, &v, detail, &p) < 0) {
		if (q >= 0 && p.out_of_range)	/* 1e-310TB/s: say the range */
			return require_range(r, n, key, (enum quantity)q, 0);
		unit_error(r, n, key, &p);
		return -1;
	}
	if (require_positive(r, n, key, v) < 0)
		return -1;
	if (q >= 0 && require_range(r, n, key, (enum quantity)q, v) < 0)
		return -1;
	*out = v;
	return 1;
}

int yr_quantity(struct yread *r, const struct ynode *map, const char *key,
		enum unit_kind kind, double *out, struct unit_detail *detail)
{
	int bad;
	const struct ynode *n = scalar_of(r, map, key, units_example(kind),
					  &bad);
	if (!n)
		return bad ? -1 : 0;
	return node_quantity(r, n, key, kind, -1, out, detail);
}

int yr_quantity_in(struct yread *r, const struct ynode *map, const char *key,
		   enum quantity q, double *out, struct unit_detail *detail)
{
	enum unit_kind kind = quantity_range(q)->unit;
	int bad;
	const struct ynode *n = scalar_of(r, map, key, units_example(kind),
					  &bad);
	if (!n)
		return bad ? -1 : 0;
	return node_quantity(r, n, key, kind, (int)q, out, detail);
}

/* The money at n, per `per`, > 0; q < 0: any amount. */
static int node_money(struct yread *r, const struct ynode *n, const char *key,
		      enum money_per per, int q, struct money *out)
{
	struct unit_problem p;
	if (money_parse(n->text, out, &p) < 0) {
		if (q >= 0 && p.out_of_range)
			return require_range(r, n, key, (enum quantity)q, 0);
		unit_error(r, n, key, &p);
		return -1;
	}
	if (out->per != per) {
		static const char *const wanted[] = {
			[MONEY_TOTAL] = "an amount like '250000 USD'",
			[MONEY_PER_HOUR] = "a price per hour like '32.77 USD/h'",
			[MONEY_PER_KWH] = "a price per kWh like '0.12 USD/kWh'",
			[MONEY_PER_MONTH] = "a price per month like '1000 USD/month'",
		};
		yr_error(r, n, NULL, "'%s' expects %s, found '%.60s'", key,
			 wanted[per], n->text);
		return -1;
	}
	if (require_positive(r, n, key, out->amount) < 0)
		return -1;
	if (q >= 0 && require_range(r, n, key, (enum quantity)q, out->amount) < 0)
		return -1;
	return 1;
}

int yr_money(struct yread *r, const struct ynode *map, const char *key,
	     enum money_per per, struct money *out)
{
	int bad;
	const struct ynode *n = scalar_of(r, map, key,
					  "an amount like '32.77 USD/h'", &bad);
	if (!n)
		return bad ? -1 : 0;
	return node_money(r, n, key, per, -1, out);
}

int yr_money_in(struct yread *r, const struct ynode *map, const char *key,
		enum money_per per, enum quantity q, struct money *out)
{
	int bad;
	const struct ynode *n = scalar_of(r, map, key,
					  "an amount like '32.77 USD/h'", &bad);
	if (!n)
		return bad ? -1 : 0;
	return node_money(r, n, key, per, (int)q, out);
}

static bool valid_date(const char *s)
{
	int y, m, d = 1;
	char tail;
	size_t len = strlen(s);
	if (len == 7) {
		if (sscanf(s, "%4d-%2d%c", &y, &m, &tail) != 2)
			return false;
	} else if (len == 10) {
		if (sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3)
			return false;
	} else
		return false;
	for (size_t i = 0; i < len; i++)
		if (!(isdigit((unsigned char)s[i]) || (s[i] == '-' && (i == 4 || i == 7))))
			return false;
	static const int days[] = {31, 28, 31, 30, 31, 30,
				   31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	return y >= 1990 && y <= 2100 && m >= 1 && m <= 12 && d >= 1 &&
	       d <= days[m - 1] + (m == 2 && leap);
}

int yr_date(struct yread *r, const struct ynode *map, const char *key,
	    char **out)
{
	int bad;
	const struct ynode *n = scalar_of(r, map, key, "a date like 2026-11-30",
					  &bad);
	if (!n)
		return bad ? -1 : 0;
	if (!valid_date(n->text)) {
		yr_error(r, n, NULL,
			 "'%s' expects a date like 2026-11-30 or 2026-11, found '%.60s'",
			 key, n->text);
		return -1;
	}
	*out = xstrdup(n->text);
	return 1;
}

/* A schema value worth quoting: another gpuplan kind or version. */
static bool looks_like_schema(const char *text)
{
	if (strncmp(text, "gpuplan/", 8) != 0 || strlen(text) > 40)
		return false;
	return strspn(text, "abcdefghijklmnopqrstuvwxyz0123456789/-_.") ==
	       strlen(text);
}

int yr_check_schema(struct yread *r, const struct ynode *root,
		    const char *want, const char *what)
{
	const struct ynode *s = ymap_get(root, "schema");
	if (s && s->kind == YNODE_SCALAR && strcmp(s->text, want) == 0)
		return 0;
	if (s && s->kind == YNODE_SCALAR && looks_like_schema(s->text)) {
		yr_error(r, s, NULL, "expected 'schema: %s', found '%s'", want,
			 s->text);
		return -1;
	}
	/* the file as a whole, at its start: an empty document's root sits
	 * at the end, where nothing is to be seen */
	char hint[160];
	snprintf(hint, sizeof(hint), "a %s is a YAML mapping with 'schema: %s'",
		 what, want);
	gp_errors_add(r->errs, r->file, 1, 1, hint, "not a gpuplan %s", what);
	return -1;
}

void yr_entry_label(const struct ynode *n, const char *kind, size_t index,
		    char *buf, size_t len)
{
	const struct ynode *name = ymap_get(n, "name");
	if (name && name->kind == YNODE_SCALAR && name->text[0])
		snprintf(buf, len, "%s '%.80s'", kind, name->text);
	else
		snprintf(buf, len, "%s #%zu", kind, index + 1);
}

/*
 * plan_money.c - one rate for two plans' money, or none; see plan_money.h.
 */
#include "compare/plan_money.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* One plan's table and the rates of the two currencies in it (1 for the
 * base).  0, or -1 with what is missing in why. */
static int table_of(const char *text, size_t n, const char *const code[2],
		    struct plan_rates *r, double rate[2], const char *shown,
		    char *why, size_t len)
{
	memset(r, 0, sizeof(*r));
	json_t *doc = json_loadb(text, n, 0, NULL);
	const json_t *x = json_object_get(doc, "exchange_rates");
	const char *base = json_string_value(json_object_get(x, "base"));
	const char *as_of = json_string_value(json_object_get(x, "as_of"));
	int rc = 0;
	if (!base || !as_of) {
		snprintf(why, len, "'%s' carries no exchange rates", shown);
		rc = -1;
	}
	for (int i = 0; i < 2 && rc == 0; i++) {
		const json_t *v = json_object_get(json_object_get(x, "rates"), code[i]);
		rate[i] = !strcmp(base, code[i]) ? 1
			: json_is_number(v) ? json_number_value(v) : NAN;
		if (!(rate[i] > 0 && isfinite(rate[i]))) {
			snprintf(why, len, "'%s' carries no %s rate in its exchange rates",
				 shown, code[i]);
			rc = -1;
		}
	}
	if (rc == 0) {
		r->present = true;
		snprintf(r->base, sizeof(r->base), "%s", base);
		snprintf(r->as_of, sizeof(r->as_of), "%s", as_of);
	}
	json_decref(doc);
	return rc;
}

static int refuse(const char *cb, const char *nb, const char *ca,
		  const char *na, const char *what, char *why, size_t len)
{
	snprintf(why, len,
		 "'%s' is priced in %s and '%s' in %s, and %s: no one rate of the plans' own converts them; plan both with --currency %s",
		 nb, cb, na, ca, what, cb);
	return -1;
}

int plan_money_bridge(const char *tb, size_t lb, const char *cb, const char *nb,
		      const char *ta, size_t la, const char *ca, const char *na,
		      struct money_bridge *m, char *why, size_t len)
{
	memset(m, 0, sizeof(*m));
	m->factor = 1;
	if (!strcmp(cb, ca))
		return 0;
	const char *const code[2] = {cb, ca};
	struct plan_rates rb, ra;
	double in_b[2], in_a[2];
	char what[300];
	if (table_of(tb, lb, code, &rb, in_b, nb, what, sizeof(what)) < 0 ||
	    table_of(ta, la, code, &ra, in_a, na, what, sizeof(what)) < 0)
		return refuse(cb, nb, ca, na, what, why, len);
	if (strcmp(rb.base, ra.base) || strcmp(rb.as_of, ra.as_of) ||
	    in_b[0] != in_a[0] || in_b[1] != in_a[1]) {
		snprintf(what, sizeof(what),
			 "their exchange rates differ (1 %s = %.6g %s as of %s before, %.6g %s as of %s after)",
			 ca, in_b[0] / in_b[1], cb, rb.as_of, in_a[0] / in_a[1],
			 cb, ra.as_of);
		return refuse(cb, nb, ca, na, what, why, len);
	}
	m->converted = true;
	m->factor = in_b[0] / in_b[1];	/* units of cb per unit of ca */
	snprintf(m->from, sizeof(m->from), "%s", ca);
	snprintf(m->to, sizeof(m->to), "%s", cb);
	snprintf(m->base, sizeof(m->base), "%s", rb.base);
	snprintf(m->as_of, sizeof(m->as_of), "%s", rb.as_of);
	m->rate_from = in_b[1];
	m->rate_to = in_b[0];
	return 0;
}

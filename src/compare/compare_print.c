/*
 * compare_print.c - comparisons as tables and Markdown; see
 * compare_print.h.
 */
#include "compare/compare_print.h"

#include <math.h>
#include <string.h>

#include "core/table.h"
#include "core/units.h"

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static void print_tab(const struct table *t, bool markdown, FILE *out)
{
	if (markdown)
		table_print_markdown(t, out);
	else
		table_print(t, out);
}

/* ---- runs ---- */

/* "1.234 s" or "1.234" (a metric without a unit); "-" for none. */
static void value(double v, const char *unit, bool sign, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, sign ? "%+.4g%s%s" : "%.4g%s%s", v,
			 unit[0] ? " " : "", unit);
}

static void stats_cell(const json_t *s, const char *unit, char *buf, size_t len)
{
	char m[48], sd[48];
	value(num(s, "mean"), unit, false, m, sizeof(m));
	value(num(s, "sd"), "", false, sd, sizeof(sd));
	long n = (long)json_integer_value(json_object_get(s, "n"));
	long miss = (long)json_integer_value(json_object_get(s, "missing"));
	snprintf(buf, len, "%s ± %s (n=%ld%s)", m, sd, n,
		 miss ? ", some missing" : "");
}

static void interval_cell(const json_t *a, const char *unit, bool sign,
			  char *buf, size_t len)
{
	if (!json_is_array(a)) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, sign ? "[%+.4g, %+.4g]%s%s" : "[%.4g, %.4g]%s%s",
		 json_number_value(json_array_get(a, 0)),
		 json_number_value(json_array_get(a, 1)), unit[0] ? " " : "", unit);
}

static void p_cell(double p, char *buf, size_t len)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

static void run_row(struct table *t, const json_t *m)
{
	const char *unit = str(m, "unit");
	char b[160], a[160], ch[96], ci[96], r[48], ri[96], p[16], pct[32];
	stats_cell(json_object_get(m, "before"), unit, b, sizeof(b));
	stats_cell(json_object_get(m, "after"), unit, a, sizeof(a));
	value(num(m, "change"), unit, true, ch, sizeof(ch));
	double mb = num(json_object_get(m, "before"), "mean");
	/* divided first: a change near 1.8e308 times 100 is no number */
	double share = mb != 0 ? 100 * (num(m, "change") / fabs(mb)) : NAN;
	if (isfinite(share)) {
		size_t l = strlen(ch);
		snprintf(pct, sizeof(pct), " (%+.1f%%)", share);
		snprintf(ch + l, sizeof(ch) - l, "%s", pct);
	}
	interval_cell(json_object_get(m, "change_interval"), unit, true, ci, sizeof(ci));
	value(num(m, "ratio"), "", false, r, sizeof(r));
	interval_cell(json_object_get(m, "ratio_interval"), "", false, ri, sizeof(ri));
	p_cell(num(m, "p_value"), p, sizeof(p));
	const char *cells[] = {str(m, "name"), str(m, "better"), b, a, ch, ci,
			       r, ri, p, str(m, "verdict")};
	table_add_row(t, cells);
}

static void side_line(const char *label, const json_t *s, bool md, FILE *out)
{
	fprintf(out, "%s%s:%s ", md ? "- **" : "", label, md ? "**" : "");
	size_t i;
	json_t *a;
	json_array_foreach(json_object_get(s, "command"), i, a)
		fprintf(out, "%s%s", i ? " " : "", json_string_value(a));
	if (json_object_get(s, "device")) {	/* a measured profile */
		fprintf(out, " (%s; %s on %s, %s)\n", str(s, "file"),
			str(s, "device"), str(s, "host"), str(s, "when"));
		return;
	}
	fprintf(out, " (%s; %lld runs: %lld counted, %lld warm-up, %lld failed; GPU: %s)\n",
		str(s, "file"),
		json_integer_value(json_object_get(s, "runs")),
		json_integer_value(json_object_get(s, "counted")),
		json_integer_value(json_object_get(s, "warmup")),
		json_integer_value(json_object_get(s, "failed")),
		json_is_string(json_object_get(s, "gpu")) ? str(s, "gpu")
			: "absent");
}

static void list_line(const char *label, const json_t *a, FILE *out)
{
	if (!json_array_size(a))
		return;
	fprintf(out, "%s:", label);
	size_t i;
	json_t *v;
	json_array_foreach(a, i, v)
		fprintf(out, "%s %s", i ? "," : "", json_string_value(v));
	fputc('\n', out);
}

void compare_print_runs(const json_t *j, bool md, FILE *out)
{
	static const char *const header[] = {"METRIC", "BETTER", "BEFORE",
		"AFTER", "CHANGE", "95% INTERVAL", "RATIO", "95% INTERVAL",
		"P", "VERDICT"};
	if (md)
		fprintf(out, "### gpuplan compare: %s\n\n", str(j, "kind"));
	side_line("before", json_object_get(j, "before"), md, out);
	side_line("after", json_object_get(j, "after"), md, out);
	fputc('\n', out);
	struct table t;
	table_init(&t, 10, header);
	for (size_t c = 4; c < 9; c++)
		table_right_align(&t, c);
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(j, "metrics"), i, m)
		run_row(&t, m);
	print_tab(&t, md, out);
	table_free(&t);
	fputc('\n', out);
	json_array_foreach(json_object_get(j, "metrics"), i, m)
		if (json_is_string(json_object_get(m, "note")))
			fprintf(out, "%s: %s\n", str(m, "name"), str(m, "note"));
	list_line("only in before (not compared)", json_object_get(j, "only_before"), out);
	list_line("only in after (not compared)", json_object_get(j, "only_after"), out);
	json_array_foreach(json_object_get(j, "notes"), i, m)
		fprintf(out, "note: %s\n", json_string_value(m));
	fprintf(out, "%s%s\n", md ? "\n" : "", str(j, "method"));
}

/* ---- plans ---- */

static void money(double v, const char *currency, bool sign, char *buf,
		  size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	struct money m = {fabs(v), "", MONEY_TOTAL};
	size_t cl = strlen(currency) < 3 ? strlen(currency) : 3;
	memcpy(m.currency, currency, cl);	/* plan currencies are ISO codes */
	char a[60];
	money_format(&m, a, sizeof(a));
	snprintf(buf, len, "%s%s", v < 0 ? "-" : sign ? "+" : "", a);
}

static void pct_cell(double v, char *buf, size_t len)
{
	if (isfinite(v))
		snprintf(buf, len, "%+.1f%%", v);
	else
		snprintf(buf, len, "-");
}

static void time_cell(const json_t *o, char *buf, size_t len)
{
	double t = num(o, "time_s");
	if (!isfinite(t))
		t = num(o, "p99_latency_s");
	if (!isfinite(t)) {
		snprintf(buf, len, "-");
		return;
	}
	units_format(UNIT_DURATION, t, NULL, buf, len);
}

static void choice(const json_t *o, const char *cur, char *buf, size_t len)
{
	if (!json_is_object(o)) {
		snprintf(buf, len, "none");
		return;
	}
	char t[48], c[64];
	time_cell(o, t, sizeof(t));
	money(num(o, "cost"), cur, false, c, sizeof(c));
	long long g = json_integer_value(json_object_get(o, "gpus"));
	bool mig = json_is_string(json_object_get(o, "sharing"));
	snprintf(buf, len, "%lld GPU%s on %s%s%s%s, %s, %s", g, g == 1 ? "" : "s",
		 str(o, "instance"), mig ? " (MIG " : "", str(o, "sharing"),
		 mig ? ")" : "", t, c);
}

/* The options whose cost or time changed; a count of the rest. */
static void options_table(const json_t *w, const char *cb, const char *ca,
			  bool md, FILE *out)
{
	static const char *const header[] = {"OPTION", "GPUS", "COST BEFORE",
		"COST AFTER", "CHANGE", "CHANGE %", "TIME BEFORE", "TIME AFTER"};
	struct table t;
	table_init(&t, 8, header);
	for (size_t c = 1; c < 8; c++)
		table_right_align(&t, c);
	size_t i, same = 0;
	json_t *o;
	json_array_foreach(json_object_get(w, "options"), i, o) {
		const json_t *b = json_object_get(o, "before"), *a = json_object_get(o, "after");
		double dc = num(o, "cost_change"), dt = num(o, "time_change_pct");
		bool runnable_same = json_equal(json_object_get(b, "runnable"),
						json_object_get(a, "runnable"));
		if (runnable_same && (dc == 0 || !isfinite(dc)) &&
		    (dt == 0 || !isfinite(dt))) {
			same++;
			continue;
		}
		char g[24], c1[64], c2[64], d[64], p[24], t1[48], t2[48];
		snprintf(g, sizeof(g), "%lld", json_integer_value(json_object_get(o, "gpus")));
		money(num(b, "cost"), cb, false, c1, sizeof(c1));
		money(num(a, "cost"), ca, false, c2, sizeof(c2));
		money(dc, cb, true, d, sizeof(d));	/* changes: before's currency */
		pct_cell(num(o, "cost_change_pct"), p, sizeof(p));
		time_cell(b, t1, sizeof(t1));
		time_cell(a, t2, sizeof(t2));
		char name[320];
		snprintf(name, sizeof(name), "%s%s%s", str(o, "instance"),
			 json_is_string(json_object_get(o, "sharing")) ? " on " : "",
			 str(o, "sharing"));
		const char *cells[] = {name, g, c1, c2, d, p, t1, t2};
		table_add_row(&t, cells);
	}
	if (t.nrows)
		print_tab(&t, md, out);
	table_free(&t);
	fprintf(out, "%s%zu options changed, %zu unchanged; %zu only before, %zu only after\n",
		md ? "\n" : "", json_array_size(json_object_get(w, "options")) - same, same,
		json_array_size(json_object_get(w, "options_only_before")),
		json_array_size(json_object_get(w, "options_only_after")));
}

static void workload_block(const json_t *w, const char *cb, const char *ca,
			   bool md, FILE *out)
{
	const json_t *r = json_object_get(w, "recommended");
	char b[256], a[256], d[64], p[24];
	choice(json_object_get(r, "before"), cb, b, sizeof(b));
	choice(json_object_get(r, "after"), ca, a, sizeof(a));
	money(num(r, "cost_change"), cb, true, d, sizeof(d));
	pct_cell(num(r, "cost_change_pct"), p, sizeof(p));
	bool kind_changed = json_is_string(json_object_get(w, "kind_after"));
	fprintf(out, "\n%s%s (%s, cost per %s%s%s%s%s%s%s)%s\n", md ? "#### " : "workload ",
		str(w, "name"), str(w, "kind"), str(w, "cost_period"),
		kind_changed ? " before; " : "", kind_changed ? str(w, "kind_after") : "",
		kind_changed ? ", cost per " : "",
		kind_changed ? str(w, "cost_period_after") : "",
		kind_changed ? " after" : "",
		strcmp(str(w, "in"), "both") ? (strcmp(str(w, "in"), "before")
			? "; only in after" : "; only in before") : "",
		md ? "\n" : "");
	fprintf(out, "%srecommended before: %s\n", md ? "- " : "  ", b);
	fprintf(out, "%srecommended after:  %s%s\n", md ? "- " : "  ", a,
		json_is_true(json_object_get(r, "changed")) ? "  (a different option)" : "");
	if (kind_changed) {
		fprintf(out, "%snot compared: %s\n", md ? "- " : "  ", str(w, "note"));
		return;
	}
	fprintf(out, "%scost change: %s (%s); time change: ", md ? "- " : "  ", d, p);
	pct_cell(num(r, "time_change_pct"), p, sizeof(p));
	fprintf(out, "%s\n", p);
	if (strcmp(str(r, "reason_before"), str(r, "reason_after")) != 0) {
		fprintf(out, "%sreason before: %s\n", md ? "- " : "  ", str(r, "reason_before"));
		fprintf(out, "%sreason after:  %s\n", md ? "- " : "  ", str(r, "reason_after"));
	}
	if (json_is_array(json_object_get(w, "options"))) {
		fputc('\n', out);
		options_table(w, cb, ca, md, out);
	}
}

static void totals_table(const json_t *j, bool md, FILE *out)
{
	static const char *const header[] = {"SPEND (RECOMMENDED)", "BEFORE",
		"AFTER", "CHANGE", "CHANGE %"};
	struct table t;
	table_init(&t, 5, header);
	for (size_t c = 1; c < 5; c++)
		table_right_align(&t, c);
	size_t i;
	json_t *s;
	json_array_foreach(json_object_get(j, "totals"), i, s) {
		char b[64], a[64], d[64], p[24];
		money(num(s, "before"), str(s, "currency_before"), false, b, sizeof(b));
		money(num(s, "after"), str(s, "currency_after"), false, a, sizeof(a));
		money(num(s, "change"), str(s, "currency_before"), true, d, sizeof(d));
		pct_cell(num(s, "change_pct"), p, sizeof(p));
		const char *cells[] = {str(s, "spend"), b, a, d, p};
		table_add_row(&t, cells);
	}
	print_tab(&t, md, out);
	table_free(&t);
}

void compare_print_plans(const json_t *j, bool md, FILE *out)
{
	const json_t *b = json_object_get(j, "before"), *a = json_object_get(j, "after");
	const char *cb = str(b, "currency"), *ca = str(a, "currency");
	fprintf(out, "%sbefore: %s (%s)\n%safter:  %s (%s)\n",
		md ? "### gpuplan compare: plans\n\n- " : "", str(b, "file"), cb,
		md ? "- " : "", str(a, "file"), ca);
	size_t i;
	json_t *w;
	const json_t *conv = json_object_get(j, "conversion");
	if (json_is_object(conv))
		fprintf(out, "%sconverted: %s\n", md ? "- " : "", str(conv, "note"));
	json_array_foreach(json_object_get(j, "workloads"), i, w)
		workload_block(w, cb, ca, md, out);
	fprintf(out, "\n%s\n", md ? "#### Total spend at the recommendations\n" : "total spend at the recommendations:");
	totals_table(j, md, out);
}

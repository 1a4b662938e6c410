/*
 * fuzz_compare.c - `gpuplan compare` on two fuzzed inputs: run records,
 * measured profiles or plans, as the command loads and compares them.
 *
 * The input is split in two at the separator (fuzz.h): the first file is
 * BEFORE, the second AFTER (an input of one file is compared with
 * itself).  A file whose first character past white space is '{' is a
 * plan (r_plan_parse); otherwise YAML whose schema says run record or
 * measured profile.
 *
 * Invariants, each a crash when broken:
 *   - no abort (GSL's default handler is left on, as a library caller
 *     leaves it: a statistic that reaches it ends the harness);
 *   - a side that does not load says why: at least one problem, or a
 *     message naming the file;
 *   - two plans of two currencies either compare through a bridge or are
 *     refused with why;
 *   - a comparison is finite: every figure the JSON must hold is there
 *     (jansson refuses NaN and infinity, so a figure that was not finite
 *     goes missing), a metric's change is null only when a side has no
 *     value or a note says it is past a double's range, p-values lie in
 *     [0, 1], and the document and its table write.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_plans.h"
#include "compare/compare_print.h"
#include "compare/compare_profiles.h"
#include "compare/compare_runs.h"
#include "compare/plan_money.h"
#include "core/file_read.h"
#include "core/output.h"
#include "core/yaml_tree.h"
#include "fuzz.h"
#include "profile/profile.h"
#include "report/plan_load.h"
#include "run/record.h"

enum kind { NONE, RUN, PROFILE, PLAN };

struct side {
	enum kind kind;
	char *text;
	size_t len;
	struct run_record run;
	struct bench_profile profile;
	struct r_plan plan;
};

static enum kind yaml_kind(const char *name, const char *text, size_t len)
{
	struct gp_errors errs;
	struct ytree t = {0};
	gp_errors_init(&errs);
	enum kind k = NONE;
	if (ytree_parse(&t, name, text, len, &errs) == 0 && t.root &&
	    t.root->kind == YNODE_MAP) {
		const struct ynode *s = ymap_get(t.root, "schema");
		const char *v = s && s->kind == YNODE_SCALAR ? s->text : "";
		k = !strncmp(v, "gpuplan/run/", 12) ? RUN
		    : !strncmp(v, "gpuplan/measured/", 17) ? PROFILE : NONE;
	}
	ytree_free(&t);
	gp_errors_free(&errs);
	return k;
}

/* Loads one side; its kind stays NONE when it does not load (and then it
 * must have said why). */
static void load_side(const char *path, const char *name, struct side *s)
{
	memset(s, 0, sizeof(*s));
	run_record_init(&s->run);
	bench_profile_init(&s->profile);
	if (file_read_all(path, 1u << 24, &s->text, &s->len) != FILE_READ_OK)
		fuzz_fail("compare", "cannot read back %s", name);
	size_t i = strspn(s->text, " \t\r\n");
	if (i < s->len && s->text[i] == '{') {
		char why[600] = "";
		if (r_plan_parse(&s->plan, s->text, s->len, name, true, why,
				 sizeof(why)) == 0)
			s->kind = PLAN;
		else if (!strstr(why, name))
			fuzz_fail("r_plan_parse", "refused without naming the file: '%s'", why);
		return;
	}
	enum kind k = yaml_kind(name, s->text, s->len);
	if (k == NONE)
		return;
	struct gp_errors errs;
	gp_errors_init(&errs);
	int rc = k == RUN ? run_record_parse(&s->run, name, s->text, s->len, &errs)
		 : bench_profile_parse(&s->profile, name, s->text, s->len, &errs);
	if (rc == 0)
		s->kind = k;
	else if (gp_errors_count(&errs) == 0)
		fuzz_fail("compare", "%s refused with no problem", name);
	gp_errors_free(&errs);
}

static void free_side(struct side *s)
{
	run_record_free(&s->run);
	bench_profile_free(&s->profile);
	if (s->kind == PLAN)
		r_plan_free(&s->plan);
	free(s->text);
}

static void need(const json_t *o, const char *key, const char *where)
{
	if (!json_object_get(o, key))
		fuzz_fail("compare", "%s lacks \"%s\": a figure that was not finite", where, key);
}

static void check_metric(const json_t *m)
{
	static const char *const keys[] = {"name", "better", "unit", "before",
		"after", "change", "change_interval", "ratio", "ratio_interval",
		"df", "p_value", "verdict", "note"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		need(m, keys[i], "a metric");
	need(json_object_get(m, "before"), "mean", "a metric's before");
	need(json_object_get(m, "before"), "sd", "a metric's before");
	need(json_object_get(m, "after"), "sd", "a metric's after");
	const json_t *p = json_object_get(m, "p_value");
	if (json_is_number(p) && !(json_number_value(p) >= 0 && json_number_value(p) <= 1))
		fuzz_fail("compare", "p-value %g", json_number_value(p));
	long long nb = json_integer_value(json_object_get(json_object_get(m, "before"), "n"));
	long long na = json_integer_value(json_object_get(json_object_get(m, "after"), "n"));
	const char *note = json_string_value(json_object_get(m, "note"));
	if (nb && na && json_is_null(json_object_get(m, "change")) &&
	    !(note && strstr(note, "past a double's range")))
		fuzz_fail("compare", "a change of two measured sides is null, unsaid");
}

static void check_plans(const json_t *j)
{
	size_t i;
	json_t *t, *w;
	json_array_foreach(json_object_get(j, "totals"), i, t) {
		need(t, "before", "a total");
		need(t, "after", "a total");
		need(t, "change", "a total");
		need(t, "change_pct", "a total");
	}
	json_array_foreach(json_object_get(j, "workloads"), i, w) {
		const json_t *r = json_object_get(w, "recommended");
		need(r, "cost_change", "a recommendation");
		need(r, "cost_change_pct", "a recommendation");
		need(r, "time_change_pct", "a recommendation");
	}
}

static void writes(const json_t *j, bool plans)
{
	char *text = json_dumps(j, 0);
	if (!text)
		fuzz_fail("compare", "the comparison does not write as JSON");
	free(text);
	FILE *null = fopen("/dev/null", "w");
	if (!null)
		return;
	if (plans)
		compare_print_plans(j, false, null);
	else
		compare_print_runs(j, true, null);
	fclose(null);
}

static void compare(struct side *b, const char *nb, struct side *a, const char *na)
{
	json_t *j = NULL;
	if (b->kind == RUN) {
		j = compare_runs(&b->run, nb, &a->run, na);
	} else if (b->kind == PROFILE) {
		j = compare_profiles(&b->profile, nb, &a->profile, na);
	} else {
		struct money_bridge m;
		char why[800] = "";
		if (plan_money_bridge(b->text, b->len, b->plan.currency, nb, a->text,
				      a->len, a->plan.currency, na, &m, why,
				      sizeof(why)) < 0) {
			if (!strstr(why, "plan both with --currency"))
				fuzz_fail("plan_money_bridge", "refused without why: '%s'", why);
			return;
		}
		if (!(m.factor > 0 && isfinite(m.factor)))
			fuzz_fail("plan_money_bridge", "factor %g", m.factor);
		j = compare_plans(&b->plan, nb, &a->plan, na, &m);
	}
	if (b->kind == PLAN) {
		check_plans(j);
	} else {
		size_t i;
		json_t *m;
		json_array_foreach(json_object_get(j, "metrics"), i, m)
			check_metric(m);
	}
	writes(j, b->kind == PLAN);
	json_decref(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files f;
	fuzz_write_files(data, size, "before.yaml", &f);
	size_t ia = f.n > 1 ? 1 : 0;
	struct side b, a;
	load_side(f.path[0], f.name[0], &b);
	load_side(f.path[ia], f.name[ia], &a);
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz_compare: %s (%d) against %s (%d)%s\n",
			f.name[0], b.kind, f.name[ia], a.kind,
			b.kind != NONE && b.kind == a.kind ? ": compared" : "");
	if (b.kind != NONE && b.kind == a.kind)
		compare(&b, f.name[0], &a, f.name[ia]);
	free_side(&b);
	free_side(&a);
	return 0;
}

/* The YAML tree: positions, refusals and limits. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/xalloc.h"
#include "core/yaml_read.h"
#include "core/yaml_tree.h"

/* Parses text and returns the first error message ("" when none). */
static const char *parse_error(const char *text, char *buf, size_t len)
{
	struct ytree t;
	struct gp_errors e;
	gp_errors_init(&e);
	int rc = ytree_parse(&t, "t.yaml", text, strlen(text), &e);
	buf[0] = '\0';
	if (rc < 0 && e.n > 0)
		gp_error_format(&e.v[0], buf, len);
	CHECK((rc < 0) == (e.n > 0));
	ytree_free(&t);
	gp_errors_free(&e);
	return buf;
}

static void test_positions(void)
{
	const char *text = "schema: x\nitems:\n  - name: a\n    n: \"8\"\n";
	struct ytree t;
	struct gp_errors e;
	gp_errors_init(&e);
	CHECK(ytree_parse(&t, "t.yaml", text, strlen(text), &e) == 0);
	const struct ynode *items = ymap_get(t.root, "items");
	CHECK(items && items->kind == YNODE_SEQ && items->n == 1);
	const struct ynode *item = items->items[0];
	CHECK(item->line == 3 && item->col == 5);
	const struct ynode *n = ymap_get(item, "n");
	CHECK(n->line == 4 && n->col == 8 && n->quoted);
	CHECK_STR(n->text, "8");
	CHECK(ymap_get(item, "missing") == NULL);
	ytree_free(&t);
	gp_errors_free(&e);
}

static void test_refusals(void)
{
	char buf[512];
	CHECK(strstr(parse_error("", buf, 512), "file is empty"));
	CHECK(strstr(parse_error("# only a comment\n", buf, 512), "file is empty"));
	CHECK(strstr(parse_error("a: 1\na: 2\n", buf, 512),
		     "t.yaml:2:1: duplicate key 'a' (first given at line 1)"));
	CHECK(strstr(parse_error("a: &x 1\nb: *x\n", buf, 512), "anchors are not supported"));
	CHECK(strstr(parse_error("a: !!str 1\n", buf, 512), "tags are not supported"));
	CHECK(strstr(parse_error("a: 1\n---\nb: 2\n", buf, 512), "second YAML document"));
	CHECK(strstr(parse_error("a: [1, 2\n", buf, 512), "not valid YAML"));
	CHECK(strstr(parse_error("? [a]\n: 1\n", buf, 512), "mapping key must be a plain word"));
	CHECK(strstr(parse_error("a:\tb: c\n", buf, 512), "not valid YAML") ||
	      buf[0] == '\0');
}

static void test_depth_limit(void)
{
	char *deep = xmalloc(4 * (YTREE_MAX_DEPTH + 2) + 1);
	size_t k = 0;
	for (int i = 0; i < YTREE_MAX_DEPTH + 1; i++)
		deep[k++] = '[';
	for (int i = 0; i < YTREE_MAX_DEPTH + 1; i++)
		deep[k++] = ']';
	deep[k] = '\0';
	char buf[512];
	CHECK(strstr(parse_error(deep, buf, 512), "nested too deeply"));
	/* exactly at the limit is fine */
	deep[YTREE_MAX_DEPTH] = ' ';
	deep[YTREE_MAX_DEPTH + 1] = ' ';
	CHECK_STR(parse_error(deep, buf, 512), "");
	free(deep);
}

static void test_size_limit(void)
{
	/* ytree_load refuses a file over the size limit before parsing. */
	const char *path = "/tmp/gpuplan-test-large.yaml";
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	for (size_t i = 0; i < YTREE_MAX_BYTES / 16 + 1; i++)
		fputs("# padding line.\n", f); /* 16 bytes */
	fputs("a: 1\n", f);
	fclose(f);
	struct ytree t;
	struct gp_errors e;
	gp_errors_init(&e);
	CHECK(ytree_load(&t, path, path, &e) < 0);
	CHECK(e.n == 1 && strstr(e.v[0].msg, "file too large"));
	ytree_free(&t);
	gp_errors_free(&e);
	remove(path);
}

/* ---- the typed getters on quantities (yaml_read.h) ---- */

enum getter { G_QUANTITY, G_MONEY_HOUR, G_MONEY_TOTAL, G_NUMBER, G_DATE };

struct getter_case {
	enum getter g;
	enum quantity q;
	const char *text;	/* the value of key 'v' */
	int rc;			/* 1 read, -1 refused */
	double want;		/* when read */
	const char *msg;	/* when refused: the whole message */
};

/* Reads `v: TEXT` with the getter; the first message, or "". */
static int read_one(const struct getter_case *c, double *v, char *msg,
		    size_t len)
{
	char *text = xasprintf("v: %s\n", c->text);
	struct ytree t;
	struct gp_errors e;
	gp_errors_init(&e);
	CHECK(ytree_parse(&t, "t.yaml", text, strlen(text), &e) == 0);
	struct yread r = {.file = "t.yaml", .errs = &e};
	struct money m = {0};
	char *date = NULL;
	int rc = 0;
	switch (c->g) {
	case G_QUANTITY: rc = yr_quantity_in(&r, t.root, "v", c->q, v, NULL); break;
	case G_MONEY_HOUR: rc = yr_money_in(&r, t.root, "v", MONEY_PER_HOUR, c->q, &m); break;
	case G_MONEY_TOTAL: rc = yr_money_in(&r, t.root, "v", MONEY_TOTAL, c->q, &m); break;
	case G_NUMBER: rc = yr_number_in(&r, t.root, "v", c->q, v); break;
	case G_DATE: rc = yr_date(&r, t.root, "v", &date); break;
	}
	if (c->g == G_MONEY_HOUR || c->g == G_MONEY_TOTAL)
		*v = m.amount;
	msg[0] = '\0';
	if (e.n)
		gp_error_format(&e.v[0], msg, len);
	CHECK((rc < 0) == (gp_errors_count(&e) > 0));
	free(date);
	free(text);
	ytree_free(&t);
	gp_errors_free(&e);
	return rc;
}

/* Hand-computed: the bounds of each range are taken exactly, the first
 * value past them is refused with the range, and so is a value no double
 * holds (1e-310TB/s underflows, 1e400 overflows). */
static const struct getter_case getter_cases[] = {
	{G_QUANTITY, Q_BANDWIDTH, "1MB/s", 1, 1e6, NULL},
	{G_QUANTITY, Q_BANDWIDTH, "1PB/s", 1, 1e15, NULL},
	{G_QUANTITY, Q_BANDWIDTH, "1000TB/s", 1, 1e15, NULL},
	{G_QUANTITY, Q_BANDWIDTH, "999kB/s", -1, 0,
	 "t.yaml:1:4: 'v' must be from 1 MB/s to 1 PB/s, found '999kB/s'"},
	{G_QUANTITY, Q_BANDWIDTH, "1e-310TB/s", -1, 0,
	 "t.yaml:1:4: 'v' must be from 1 MB/s to 1 PB/s, found '1e-310TB/s'"},
	{G_QUANTITY, Q_BANDWIDTH, "1e400TB/s", -1, 0,
	 "t.yaml:1:4: 'v' must be from 1 MB/s to 1 PB/s, found '1e400TB/s'"},
	{G_QUANTITY, Q_BANDWIDTH, "0TB/s", -1, 0,
	 "t.yaml:1:4: 'v' must be greater than zero, found '0TB/s'"},
	{G_QUANTITY, Q_BANDWIDTH, "5TB", -1, 0,
	 "t.yaml:1:5: 'v': unknown unit 'TB': expected a rate like '3.35TB/s' or '400Gbit/s', found '5TB'"},
	{G_QUANTITY, Q_PEAK, "1EFLOP/s", 1, 1e18, NULL},
	{G_QUANTITY, Q_PEAK, "1001PFLOP/s", -1, 0,
	 "t.yaml:1:4: 'v' must be from 1 MFLOP/s to 1 EFLOP/s (OPS alike), found '1001PFLOP/s'"},
	{G_QUANTITY, Q_REQUEST_RATE, "1/h", 1, 1 / 3600.0, NULL},
	{G_QUANTITY, Q_REQUEST_RATE, "10M/s", 1, 1e7, NULL},
	{G_QUANTITY, Q_REQUEST_RATE, "1e18/s", -1, 0,
	 "t.yaml:1:4: 'v' must be from 1/h to 10M/s, found '1e18/s'"},
	{G_QUANTITY, Q_SERVING_TIME, "744h", 1, 744 * 3600.0, NULL},
	{G_QUANTITY, Q_SERVING_TIME, "745h", -1, 0,
	 "t.yaml:1:4: 'v' must be from 1 h to 744 h (a 31-day month), found '745h'"},
	{G_QUANTITY, Q_LATENCY, "1us", 1, 1e-6, NULL},
	{G_QUANTITY, Q_LIFETIME, "50y", 1, 50 * 365 * 86400.0, NULL},
	{G_QUANTITY, Q_LIFETIME, "23h", -1, 0,
	 "t.yaml:1:4: 'v' must be from 1 d to 50 y, found '23h'"},
	{G_MONEY_HOUR, Q_PRICE_PER_HOUR, "1e-4 USD/h", 1, 1e-4, NULL},
	{G_MONEY_HOUR, Q_PRICE_PER_HOUR, "\xC2\xA5" "1e8/h", 1, 1e8, NULL},
	{G_MONEY_HOUR, Q_PRICE_PER_HOUR, "1e-307 USD/h", -1, 0,
	 "t.yaml:1:4: 'v' must be from 1e-4 to 1e8 an hour, in its currency, found '1e-307 USD/h'"},
	{G_MONEY_HOUR, Q_PRICE_PER_HOUR, "1e-320 USD/h", -1, 0,
	 "t.yaml:1:4: 'v' must be from 1e-4 to 1e8 an hour, in its currency, found '1e-320 USD/h'"},
	{G_MONEY_HOUR, Q_PRICE_PER_HOUR, "250000 USD", -1, 0,
	 "t.yaml:1:4: 'v' expects a price per hour like '32.77 USD/h', found '250000 USD'"},
	{G_MONEY_TOTAL, Q_BUDGET, "0.01 USD", 1, 0.01, NULL},
	{G_MONEY_TOTAL, Q_BUDGET, "2e15 USD", -1, 0,
	 "t.yaml:1:4: 'v' must be from 0.01 to 1e15, in its currency, found '2e15 USD'"},
	{G_NUMBER, Q_PUE, "1", 1, 1, NULL},
	{G_NUMBER, Q_PUE, "10", 1, 10, NULL},
	{G_NUMBER, Q_PUE, "10.5", -1, 0,
	 "t.yaml:1:4: 'v' must be from 1 to 10, found '10.5'"},
	{G_NUMBER, Q_EXCHANGE_RATE, "1e-9", 1, 1e-9, NULL},
	{G_NUMBER, Q_EXCHANGE_RATE, "1e-400", -1, 0,
	 "t.yaml:1:4: 'v' must be from 1e-9 to 1e9 units per unit of the base, found '1e-400'"},
	{G_NUMBER, Q_EFFICIENCY, "2K", -1, 0,
	 "t.yaml:1:4: 'v' expects a plain number, found '2K'"},
	{G_NUMBER, Q_EFFICIENCY, "0", -1, 0,
	 "t.yaml:1:4: 'v' must be greater than zero, found '0'"},
	/* dates are calendar dates: 2024 and 2000 are leap years, 2025 is
	 * not, and 2100 is not (divisible by 100, not by 400) */
	{G_DATE, Q_MEMORY, "2024-02-29", 1, 0, NULL},
	{G_DATE, Q_MEMORY, "2000-02-29", 1, 0, NULL},
	{G_DATE, Q_MEMORY, "2025-02-29", -1, 0,
	 "t.yaml:1:4: 'v' expects a date like 2026-11-30 or 2026-11, found '2025-02-29'"},
	{G_DATE, Q_MEMORY, "2100-02-29", -1, 0,
	 "t.yaml:1:4: 'v' expects a date like 2026-11-30 or 2026-11, found '2100-02-29'"},
	{G_DATE, Q_MEMORY, "2100-02-28", 1, 0, NULL},
	{G_DATE, Q_MEMORY, "2026-04-31", -1, 0,
	 "t.yaml:1:4: 'v' expects a date like 2026-11-30 or 2026-11, found '2026-04-31'"},
	{G_DATE, Q_MEMORY, "2026-11", 1, 0, NULL},
	{G_DATE, Q_MEMORY, "1989-12-31", -1, 0,
	 "t.yaml:1:4: 'v' expects a date like 2026-11-30 or 2026-11, found '1989-12-31'"},
};

static void test_getters(void)
{
	size_t n = sizeof(getter_cases) / sizeof(getter_cases[0]);
	for (size_t i = 0; i < n; i++) {
		const struct getter_case *c = &getter_cases[i];
		double v = -1;
		char msg[400];
		int rc = read_one(c, &v, msg, sizeof(msg));
		if (rc != c->rc)
			fprintf(stderr, "case '%s': rc %d, message '%s'\n",
				c->text, rc, msg);
		CHECK(rc == c->rc);
		if (c->rc == 1 && c->g != G_DATE)
			CHECK(v == c->want);
		if (c->rc < 0)
			CHECK_STR(msg, c->msg);
	}
}

/* A rate read by its node (exchange rates are read by their items, not
 * looked up by key: yr_node_number_in). */
static void test_node_number(void)
{
	const char *text = "rates: {CNY: 7.1, XLO: 1e-10}\n";
	struct ytree t;
	struct gp_errors e;
	gp_errors_init(&e);
	CHECK(ytree_parse(&t, "t.yaml", text, strlen(text), &e) == 0);
	struct yread r = {.file = "t.yaml", .errs = &e};
	const struct ynode *rates = ymap_get(t.root, "rates");
	double v = 0;
	CHECK(yr_node_number_in(&r, rates->items[1], "CNY", Q_EXCHANGE_RATE, &v) == 1);
	CHECK(v == 7.1);
	CHECK(yr_node_number_in(&r, rates->items[3], "XLO", Q_EXCHANGE_RATE, &v) == -1);
	char msg[300];
	CHECK(e.n == 1);
	gp_error_format(&e.v[0], msg, sizeof(msg));
	CHECK_STR(msg, "t.yaml:1:24: 'XLO' must be from 1e-9 to 1e9 units per unit of the base, found '1e-10'");
	ytree_free(&t);
	gp_errors_free(&e);
}

int main(void)
{
	test_positions();
	test_refusals();
	test_depth_limit();
	test_size_limit();
	test_getters();
	test_node_number();
	return check_summary("yaml");
}

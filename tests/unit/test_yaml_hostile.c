/* The YAML tree and the string readers against hostile input: reader
 * errors placed at line:column, NUL and control characters, names that
 * would break a terminal or a table, and duplicate keys in large maps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/xalloc.h"
#include "core/yaml_read.h"
#include "core/yaml_tree.h"

/* The first problem parsing len bytes of text, formatted ("" when none). */
static const char *first_error(const char *text, size_t len, char *buf,
			       size_t n)
{
	struct ytree t;
	struct gp_errors e;
	gp_errors_init(&e);
	ytree_parse(&t, "t.yaml", text, len, &e);
	buf[0] = '\0';
	if (e.n)
		gp_error_format(&e.v[0], buf, n);
	ytree_free(&t);
	gp_errors_free(&e);
	return buf;
}

static void test_reader_positions(void)
{
	char buf[512];
	/* libyaml gives only a byte offset for these: now line and column */
	const char nul[] = "a: 1\nbb: x\0y\n";
	CHECK_STR(first_error(nul, sizeof(nul) - 1, buf, sizeof(buf)),
		  "t.yaml:2:6: not valid YAML: control characters are not allowed");
	const char bad_utf8[] = "a: 1\n\xe4\xb8\xad: \xff\n";
	CHECK_STR(first_error(bad_utf8, sizeof(bad_utf8) - 1, buf, sizeof(buf)),
		  "t.yaml:2:4: not valid YAML: invalid leading UTF-8 octet");
	const char ctl[] = "name: a\x01";
	CHECK_STR(first_error(ctl, sizeof(ctl) - 1, buf, sizeof(buf)),
		  "t.yaml:1:8: not valid YAML: control characters are not allowed");
}

/* Parses text and reads key with the name or string reader. */
static const char *read_text(const char *text, bool name, char *buf,
			     size_t n)
{
	struct ytree t;
	struct gp_errors e;
	gp_errors_init(&e);
	buf[0] = '\0';
	if (ytree_parse(&t, "t.yaml", text, strlen(text), &e) == 0) {
		struct yread r = {"t.yaml", &e};
		char *out = NULL;
		int rc = name ? yr_name(&r, t.root, "k", &out)
			      : yr_string(&r, t.root, "k", &out);
		CHECK((rc == 1) == (e.n == 0));
		free(out);
	}
	if (e.n)
		gp_error_format(&e.v[0], buf, n);
	ytree_free(&t);
	gp_errors_free(&e);
	return buf;
}

/* Columns point at the character itself: in a quoted value, at the
 * escape that wrote it. */
static void test_text_refusals(void)
{
	char buf[512];
	CHECK_STR(read_text("k: plain name\n", true, buf, 512), "");
	CHECK_STR(read_text("k: \"\xe4\xb8\xad\xe6\x96\x87\"\n", true, buf, 512), "");
	CHECK_STR(read_text("k: \"a\\tb\"\n", true, buf, 512),
		  "t.yaml:1:6: 'k' holds a tab (a name is one line of plain text)");
	CHECK_STR(read_text("k: \"ab\\ncd\"\n", true, buf, 512),
		  "t.yaml:1:7: 'k' holds a line break (a name is one line of plain text)");
	CHECK_STR(read_text("k: \"x\\e[2J\"\n", true, buf, 512),
		  "t.yaml:1:6: 'k' holds an escape character (a name is one line of plain text)");
	CHECK_STR(read_text("k: \"x\\u202Ey\"\n", true, buf, 512),
		  "t.yaml:1:6: 'k' holds a bidirectional override (a name is one line of plain text)");
	/* free text keeps its lines, never its escapes */
	CHECK_STR(read_text("k: |\n  two\n  lines\n", false, buf, 512), "");
	CHECK_STR(read_text("k: \"x\\e[2J\"\n", false, buf, 512),
		  "t.yaml:1:6: 'k' holds an escape character");
	CHECK_STR(read_text("k: \"\\x85\"\n", false, buf, 512),
		  "t.yaml:1:5: 'k' holds a control character");
	/* a name has a length limit; free text does not */
	char *long_name = xmalloc(YR_NAME_MAX + 16);
	memcpy(long_name, "k: ", 3);
	memset(long_name + 3, 'n', YR_NAME_MAX + 1);
	strcpy(long_name + 3 + YR_NAME_MAX + 1, "\n");
	CHECK_STR(read_text(long_name, true, buf, 512),
		  "t.yaml:1:4: 'k' is too long: 257 bytes, at most 256");
	CHECK_STR(read_text(long_name, false, buf, 512), "");
	long_name[3 + YR_NAME_MAX] = '\n';
	long_name[3 + YR_NAME_MAX + 1] = '\0';
	CHECK_STR(read_text(long_name, true, buf, 512), "");
	free(long_name);
}

/* 200,000 keys: the duplicate check is by hash (this took minutes when
 * every key was compared with every earlier one), and the one duplicate
 * at the end is found with the line of the first. */
static void test_many_keys(void)
{
	enum { N = 200000 };
	size_t cap = (size_t)N * 16 + 64, k = 0;
	char *text = xmalloc(cap);
	for (int i = 0; i < N; i++)
		k += (size_t)snprintf(text + k, cap - k, "k%d: 1\n", i);
	k += (size_t)snprintf(text + k, cap - k, "k17: 2\n");
	char buf[512];
	CHECK_STR(first_error(text, k, buf, sizeof(buf)),
		  "t.yaml:200001:1: duplicate key 'k17' (first given at line 18)");
	free(text);
}

static void test_dates(void)
{
	static const struct {
		const char *date;
		bool ok;
	} cases[] = {
		{"2024-02-29", true},	/* leap year */
		{"2000-02-29", true},	/* divisible by 400 */
		{"2025-02-29", false},
		{"2100-02-29", false},	/* divisible by 100, not 400 */
		{"2025-02-28", true},
		{"2025-04-31", false},
		{"2025-13", false},
		{"2025-12", true},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char text[64];
		snprintf(text, sizeof(text), "d: %s\n", cases[i].date);
		struct ytree t;
		struct gp_errors e;
		gp_errors_init(&e);
		CHECK(ytree_parse(&t, "t.yaml", text, strlen(text), &e) == 0);
		struct yread r = {"t.yaml", &e};
		char *out = NULL;
		int rc = yr_date(&r, t.root, "d", &out);
		CHECK((rc == 1) == cases[i].ok);
		if (rc != 1 && e.n)
			CHECK_HAS(e.v[0].msg, "expects a date like 2026-11-30");
		free(out);
		ytree_free(&t);
		gp_errors_free(&e);
	}
}

int main(void)
{
	test_reader_positions();
	test_text_refusals();
	test_many_keys();
	test_dates();
	return check_summary("yaml_hostile");
}

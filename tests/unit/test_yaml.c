/* The YAML tree: positions, refusals and limits. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/xalloc.h"
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

int main(void)
{
	test_positions();
	test_refusals();
	test_depth_limit();
	test_size_limit();
	return check_summary("yaml");
}

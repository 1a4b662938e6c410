/* Problems with locations: the flood cap and escaped printing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/error.h"

/* What gp_errors_print writes, as one string. */
static char *printed(const struct gp_errors *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	gp_errors_print(e, f);
	fclose(f);
	return buf;
}

static void test_flood(void)
{
	struct gp_errors e;
	gp_errors_init(&e);
	/* 990,000 problems (a file of empty instances) keep 200 and a count. */
	for (int i = 0; i < 990000; i++)
		gp_errors_add(&e, "c.yaml", i + 2, 3, NULL, "instance %d is empty", i);
	CHECK(e.n == GP_ERRORS_MAX_KEPT);
	CHECK(gp_errors_count(&e) == 990000);
	CHECK(gp_errors_full(&e));
	char *out = printed(&e);
	size_t lines = 0;
	for (const char *p = out; *p; p++)
		lines += *p == '\n';
	CHECK(lines == GP_ERRORS_MAX_KEPT + 1);
	CHECK_HAS(out, "c.yaml:2:3: instance 0 is empty\n");
	CHECK_HAS(out, "c.yaml:201:3: instance 199 is empty\n");
	CHECK_HAS(out, "... and 989800 more problems (only the first 200 are shown)\n");
	free(out);
	gp_errors_free(&e);
	CHECK(gp_errors_count(&e) == 0 && !gp_errors_full(&e));

	/* exactly at the cap: no "more" line */
	for (int i = 0; i < GP_ERRORS_MAX_KEPT; i++)
		gp_errors_add(&e, NULL, 0, 0, NULL, "p");
	out = printed(&e);
	CHECK(strstr(out, "more problem") == NULL);
	free(out);
	gp_errors_add(&e, NULL, 0, 0, NULL, "p");
	out = printed(&e);
	CHECK_HAS(out, "... and 1 more problem (only");
	free(out);
	gp_errors_free(&e);
}

/* Names and values inside messages are spelled out, never sent raw. */
static void test_escaped(void)
{
	struct gp_errors e;
	gp_errors_init(&e);
	gp_errors_add(&e, "a\x1b]0;title\x07.yaml", 1, 2, "did you mean 'x\ny'?",
		      "unknown key '%s'", "k\x1b[31m");
	char *out = printed(&e);
	CHECK_STR(out, "a\\x1b]0;title\\x07.yaml:1:2: unknown key 'k\\x1b[31m' (did you mean 'x\\ny'?)\n");
	free(out);
	gp_errors_free(&e);
}

int main(void)
{
	test_flood();
	test_escaped();
	return check_summary("errors");
}

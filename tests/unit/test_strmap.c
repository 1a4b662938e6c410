/* The string map behind duplicate checks and name lookups. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "core/strmap.h"
#include "core/xalloc.h"

static void test_put_get(void)
{
	struct strmap m;
	strmap_init(&m);
	size_t v = 99;
	CHECK(!strmap_get(&m, "a", &v));	/* empty: no table yet */
	CHECK(strmap_put(&m, "a", 1, NULL));
	CHECK(strmap_put(&m, "b", 2, NULL));
	CHECK(!strmap_put(&m, "a", 7, &v) && v == 1);	/* first kept */
	CHECK(strmap_get(&m, "b", &v) && v == 2);
	CHECK(!strmap_get(&m, "c", NULL));
	CHECK(!strmap_get(&m, "", NULL));
	CHECK(strmap_put(&m, "", 3, NULL));	/* the empty key is a key */
	CHECK(strmap_get(&m, "", &v) && v == 3);
	strmap_set(&m, "a", 5);	/* a later tensor shadows the earlier one */
	CHECK(strmap_get(&m, "a", &v) && v == 5);
	strmap_set(&m, "d", 6);
	CHECK(strmap_get(&m, "d", &v) && v == 6 && m.n == 4);
	strmap_free(&m);
	CHECK(m.n == 0 && m.cap == 0);
}

/* 100,000 keys through several growths: every one found with its own
 * value, none invented. */
static void test_many(void)
{
	enum { N = 100000 };
	char **keys = xcalloc(N, sizeof(*keys));
	struct strmap m;
	strmap_init(&m);
	for (size_t i = 0; i < N; i++) {
		keys[i] = xasprintf("key-%zu", i * 7919);
		CHECK(strmap_put(&m, keys[i], i, NULL) || !"fresh key refused");
	}
	size_t wrong = 0, v;
	for (size_t i = 0; i < N; i++)
		wrong += !strmap_get(&m, keys[i], &v) || v != i;
	CHECK(wrong == 0);
	CHECK(!strmap_get(&m, "key-1", NULL));
	CHECK(m.n == N && m.cap >= 2 * N);
	strmap_free(&m);
	for (size_t i = 0; i < N; i++)
		free(keys[i]);
	free(keys);
}

int main(void)
{
	test_put_get();
	test_many();
	return check_summary("strmap");
}

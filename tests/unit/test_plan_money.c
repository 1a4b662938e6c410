/*
 * test_plan_money.c - when two plans' money compares, and at what rate
 * (compare/plan_money.h): one currency as it is; two through the rates
 * both plans carry; refused when a plan carries none, lacks a currency,
 * or the plans' rates or dates differ.
 */
#include <string.h>

#include "check.h"
#include "compare/plan_money.h"

#define RATES(date, cny) \
	"{\"currency\": \"X\", \"exchange_rates\": {\"base\": \"USD\", \"as_of\": \"" date \
	"\", \"rates\": {\"CNY\": " cny ", \"EUR\": 0.8442}}}"

static int bridge(const char *b, const char *cb, const char *a, const char *ca,
		  struct money_bridge *m, char *why, size_t len)
{
	return plan_money_bridge(b, strlen(b), cb, "b.json", a, strlen(a), ca,
				 "a.json", m, why, len);
}

static void one_currency(void)
{
	struct money_bridge m;
	char why[600];
	/* no rates needed, none read */
	CHECK(bridge("{}", "USD", "not json", "USD", &m, why, sizeof(why)) == 0);
	CHECK(!m.converted && m.factor == 1);
}

static void converted(void)
{
	struct money_bridge m;
	char why[600];
	const char *p = RATES("2026-01-27", "6.9858");
	CHECK(bridge(p, "USD", p, "CNY", &m, why, sizeof(why)) == 0);
	CHECK(m.converted);
	CHECK_NEAR(m.factor, 1 / 6.9858, 1e-15);
	CHECK_STR(m.from, "CNY");
	CHECK_STR(m.to, "USD");
	CHECK_STR(m.as_of, "2026-01-27");
	/* neither is the base: the cross rate */
	CHECK(bridge(p, "EUR", p, "CNY", &m, why, sizeof(why)) == 0);
	CHECK_NEAR(m.factor, 0.8442 / 6.9858, 1e-15);
}

static void refused(void)
{
	struct money_bridge m;
	char why[600];
	const char *p = RATES("2026-01-27", "6.9858");
	CHECK(bridge("{\"currency\": \"CNY\"}", "CNY", p, "USD", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "'b.json' is priced in CNY and 'a.json' in USD, and 'b.json' carries no exchange rates");
	CHECK_HAS(why, "plan both with --currency CNY");
	CHECK(bridge(p, "USD", p, "JPY", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "'b.json' carries no JPY rate");
	const char *later = RATES("2026-06-01", "6.9858");
	CHECK(bridge(p, "USD", later, "CNY", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "their exchange rates differ (1 CNY = 0.143148 USD as of 2026-01-27 before, 0.143148 USD as of 2026-06-01 after)");
	const char *other = RATES("2026-01-27", "7.1");
	CHECK(bridge(p, "USD", other, "CNY", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "their exchange rates differ");
	/* a rate that is no rate */
	const char *zero = RATES("2026-01-27", "0");
	CHECK(bridge(zero, "USD", zero, "CNY", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "carries no CNY rate");
}

int main(void)
{
	one_currency();
	converted();
	refused();
	return check_summary("plan_money");
}

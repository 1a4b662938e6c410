/*
 * Erlang B and C and the M/M/c waiting-time quantile, against textbook
 * values and published Erlang B table entries.
 */
#include <math.h>

#include "check.h"
#include "plan/queue.h"

static double erlang_b(long n, double a)
{
	double b = 1;
	for (long k = 1; k <= n; k++)
		b = erlang_b_next(b, k, a);
	return b;
}

/* Erlang C straight from its definition (Kleinrock 1975, eq. 3.40), with
 * factorials: only for small c, as a check on the recursion. */
static double erlang_c_direct(long c, double a)
{
	double term = 1, sum = 0;
	for (long k = 0; k < c; k++) {
		sum += term;
		term *= a / (k + 1);
	}
	double last = term * c / (c - a);	/* a^c / c! x c / (c - a) */
	return last / (sum + last);
}

/* One server: P(wait) is the utilisation.  Two servers at one Erlang:
 * B(2) = 1/5, C = 2 (1/5) / (2 - 4/5) = 1/3. */
static void textbook(void)
{
	const double rhos[] = {0.1, 0.5, 0.9, 0.99};
	for (int i = 0; i < 4; i++)
		CHECK_NEAR(erlang_c(1, rhos[i]), rhos[i], 1e-12);
	CHECK_NEAR(erlang_c(2, 1.0), 1.0 / 3, 1e-12);
	CHECK_NEAR(erlang_b(2, 1.0), 0.2, 1e-12);
	/* c = 2, a = 0.5: B = 1/13, C = 0.1 */
	CHECK_NEAR(erlang_c(2, 0.5), 0.1, 1e-12);
	/* unstable and empty queues */
	CHECK(erlang_c(4, 4.0) == 1);
	CHECK(erlang_c(4, 5.0) == 1);
	CHECK(erlang_c(4, 0) == 0);
	for (long c = 1; c <= 30; c++)
		for (double a = 0.25; a < c; a += 0.5)
			CHECK_NEAR(erlang_c(c, a), erlang_c_direct(c, a), 1e-9);
}

/*
 * Erlang B tables give the largest load whose blocking stays within a
 * grade of service.  These entries are the ones printed in the Erlang B
 * tables of telephone traffic engineering (the classic lookup tables for
 * trunk dimensioning, e.g. Westbay Engineers' and the ITU-T teletraffic
 * handbook's): 5 servers at 1%: 1.36 E; 10 servers at 1%: 4.46 E and at
 * 2%: 5.08 E; 100 servers at 1%: 84.06 E.  Tables round the load, so the
 * blocking lands within 5% of the grade (the recursion gives 0.00998,
 * 0.00999, 0.01992 and 0.00999).
 */
static void erlang_b_table(void)
{
	const struct { long n; double a, grade; } t[] = {
		{5, 1.36, 0.01}, {10, 4.46, 0.01}, {10, 5.08, 0.02},
		{100, 84.06, 0.01},
	};
	for (int i = 0; i < 4; i++)
		CHECK_NEAR(erlang_b(t[i].n, t[i].a), t[i].grade, 0.05);
}

/* More servers never raise P(wait); more load never lowers it; thousands
 * of servers stay finite and in [0, 1]. */
static void monotonic(void)
{
	for (double a = 0.5; a < 60; a *= 1.7) {
		double last = 2;
		for (long c = (long)a + 1; c < (long)a + 40; c++) {
			double p = erlang_c(c, a);
			CHECK(p <= last);
			CHECK(p >= 0 && p <= 1);
			last = p;
		}
	}
	double last = -1;
	for (double a = 0; a < 50; a += 0.5) {
		double p = erlang_c(50, a);
		CHECK(p >= last);
		last = p;
	}
	double big = erlang_c(10000, 9900);
	CHECK(isfinite(big) && big > 0 && big < 1);
	CHECK(erlang_c(10000, 9000) < 1e-9);
	CHECK(erlang_c(20000, 19990) > erlang_c(20000, 19900));
}

/*
 * Waiting-time quantile: P(W > t) = C exp(-(c mu - lambda) t).
 * M/M/1 at lambda 0.5/s, mu 1/s: C = 0.5, p99 = ln(50) / 0.5 = 7.824 s.
 * M/M/2 at the same rates: C = 0.1, p99 = ln(10) / 1.5 = 1.535 s.
 * M/M/2 at lambda 0.1/s: C = 1/210 (< 1%), so the p99 wait is 0.
 */
static void quantiles(void)
{
	CHECK_NEAR(mmc_wait_quantile(1, 0.5, 1, 0.99), log(50) / 0.5, 1e-12);
	CHECK_NEAR(mmc_wait_quantile(2, 0.5, 1, 0.99), log(10) / 1.5, 1e-12);
	CHECK_NEAR(erlang_c(2, 0.1), 1.0 / 210, 1e-9);
	CHECK(mmc_wait_quantile(2, 0.1, 1, 0.99) == 0);
	CHECK(mmc_wait_quantile(1, 1, 1, 0.99) == HUGE_VAL);
	CHECK(mmc_wait_quantile(2, 3, 1, 0.99) == HUGE_VAL);
	/* the median is below the p99; more servers shorten the p99 */
	CHECK(mmc_wait_quantile(3, 2.5, 1, 0.5) <
	      mmc_wait_quantile(3, 2.5, 1, 0.99));
	double last = HUGE_VAL;
	for (long c = 3; c < 12; c++) {
		double q = mmc_wait_quantile(c, 2.5, 1, 0.99);
		CHECK(q <= last);
		last = q;
	}
}

/*
 * erlang_b_at() against the recursion (the definition the tables above
 * hold) on both sides of QUEUE_RECURSION_MAX, at loads from a tenth of the
 * servers to just under them, and at the start of a service search
 * (servers = floor(load) + 1) up to millions of servers, where the
 * recursion takes millions of steps and the sum a few thousand terms.
 */
static void erlang_b_large(void)
{
	const long servers[] = {999, 1000, 1001, 5000, 100000, 3000001};
	const double share[] = {0.1, 0.5, 0.9, 0.999};
	for (size_t i = 0; i < sizeof(servers) / sizeof(servers[0]); i++) {
		for (size_t k = 0; k < sizeof(share) / sizeof(share[0]); k++) {
			/* relative, down to where B is below what matters
			 * (1e-300: the recursion goes subnormal, the sum to 0) */
			double a = servers[i] * share[k];
			double got = erlang_b_at(servers[i], a);
			double want = erlang_b(servers[i], a);
			CHECK(fabs(got - want) <= 1e-9 * want + 1e-300);
		}
		double a = servers[i] - 0.5;	/* floor(a) + 1 = servers */
		CHECK_NEAR(erlang_b_at(servers[i], a), erlang_b(servers[i], a),
			   1e-9);
	}
	/* the edges: no servers block everything, no load nothing, and
	 * far more servers than load block nothing a double can tell */
	CHECK(erlang_b_at(0, 5) == 1);
	CHECK(erlang_b_at(2000, 0) == 0);
	CHECK(erlang_b_at(5000000, 10) == 0);
	CHECK(erlang_c(3000001, 3000000.5) > 0 && erlang_c(3000001, 3000000.5) < 1);
}

int main(void)
{
	textbook();
	erlang_b_table();
	monotonic();
	quantiles();
	erlang_b_large();
	return check_summary("queue");
}

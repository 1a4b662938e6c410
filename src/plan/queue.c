#include "queue.h"

#include <math.h>

/* Kleinrock 1975, section 3.5: B(k) = a B(k-1) / (k + a B(k-1)). */
double erlang_b_next(double b_prev, long servers, double offered_load)
{
	double ab = offered_load * b_prev;
	return ab / ((double)servers + ab);
}

double erlang_b_at(long servers, double offered_load)
{
	if (servers <= 0)
		return 1;
	if (!(offered_load > 0))
		return 0;
	if (servers <= QUEUE_RECURSION_MAX || (double)servers < offered_load) {
		double b = 1;
		for (long k = 1; k <= servers; k++)
			b = erlang_b_next(b, k, offered_load);
		return b;
	}
	/* 1/B(c, a) = sum_{j=0}^{c} c! / ((c - j)! a^j): term j + 1 is term
	 * j times (c - j) / a.  An infinite sum (terms past the doubles)
	 * gives B = 0, as the limit is. */
	double term = 1, sum = 1;
	for (long j = 0; j < servers && term > sum * 1e-17; j++) {
		term *= (double)(servers - j) / offered_load;
		sum += term;
	}
	return 1 / sum;
}

/* C = c B / (c - a (1 - B)), valid for a < c (the denominator is then
 * positive: c - a + a B > 0). */
double erlang_c_from_b(double b, long servers, double offered_load)
{
	double c = (double)servers;
	if (offered_load >= c)
		return 1;
	if (offered_load <= 0)
		return 0;
	double pw = c * b / (c - offered_load * (1 - b));
	return pw > 1 ? 1 : pw;
}

double erlang_c(long servers, double offered_load)
{
	if (servers < 1 || offered_load >= (double)servers)
		return 1;
	if (offered_load <= 0)
		return 0;
	return erlang_c_from_b(erlang_b_at(servers, offered_load), servers,
			       offered_load);
}

/* P(W > t) = C exp(-(c mu - lambda) t); solve for P = 1 - q. */
double mmc_wait_quantile(long servers, double arrival_rate,
			 double service_rate, double q)
{
	double drain = servers * service_rate - arrival_rate;
	if (drain <= 0)
		return HUGE_VAL;
	double pw = erlang_c(servers, arrival_rate / service_rate);
	double tail = 1 - q;
	return pw > tail ? log(pw / tail) / drain : 0;
}

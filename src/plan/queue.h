/*
 * queue.h - waiting times in an M/M/c queue (Poisson arrivals, exponential
 * service, c identical servers, first come first served).
 *
 * The planner sizes inference replicas with it: a batch of requests is one
 * customer and a model replica is one server (serve.c says why M/M/c).
 * Formulas: Erlang B by its recursion B(0) = 1,
 * B(k) = a B(k-1) / (k + a B(k-1)), and Erlang C from it,
 * C = c B / (c - a (1 - B)) (Kleinrock, Queueing Systems vol. 1, 1975,
 * section 3.5; the recursion is the standard stable way to evaluate both:
 * no factorials or powers, every term in [0, 1]).  The waiting time of an
 * M/M/c queue is 0 with probability 1 - C and otherwise exponential with
 * rate c mu - lambda, so P(W > t) = C exp(-(c mu - lambda) t).
 *
 * Nothing here allocates or keeps state.
 */
#ifndef GPUPLAN_PLAN_QUEUE_H
#define GPUPLAN_PLAN_QUEUE_H

/*
 * Erlang B, one step of the recursion: the blocking probability with
 * `servers` servers from the one with servers - 1 (b_prev; 1 for 0
 * servers) at offered load a (Erlangs).
 */
double erlang_b_next(double b_prev, long servers, double offered_load);

/*
 * Erlang B for `servers` servers at offered load a, in O(servers) below
 * QUEUE_RECURSION_MAX servers or below the load (the recursion above), and
 * otherwise in O(servers - a + sqrt(a)) from 1/B = sum over j of
 * prod_{i<j} (servers - i) / a (the recursion unrolled: every term
 * positive, so nothing cancels), stopping once the terms, which fall off
 * like exp(-j^2 / 2a) past the load, no longer change the sum.  Sizing a
 * service starts at servers = floor(a) + 1, so a load of ten million
 * costs some 30,000 terms instead of ten million steps.
 */
#define QUEUE_RECURSION_MAX 1000
double erlang_b_at(long servers, double offered_load);

/* Erlang C (probability that an arrival waits) from Erlang B with the same
 * servers and load; 1 when the load is at or past the servers. */
double erlang_c_from_b(double b, long servers, double offered_load);

/*
 * The probability that an arrival waits, for `servers` servers and an
 * offered load of arrival rate / service rate Erlangs.  1 when the queue is
 * unstable (load >= servers), 0 for no load.  As erlang_b_at() costs.
 */
double erlang_c(long servers, double offered_load);

/*
 * The q-quantile (0 < q < 1, e.g. 0.99) of the time an arrival waits before
 * service starts, s: ln(C / (1 - q)) / (c mu - lambda) when C > 1 - q,
 * else 0.  Rates per second; HUGE_VAL when the queue is unstable.
 */
double mmc_wait_quantile(long servers, double arrival_rate,
			 double service_rate, double q);

#endif

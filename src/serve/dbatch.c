#include "serve/dbatch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

struct sim {
	const struct dbatch_config *c;
	const struct dbatch_load *l;
	long n, per;		/* requests; requests a batch holds at most */
	double *at;		/* arrival of each request, s (sorted) */
	long arrived;		/* at[0..arrived) are known */
	double *lat;		/* measured latencies */
	long from, misses, allowed;
	double free_at, busy, first_done, last_done;
	long done_after;	/* measured requests answered after first_done */
	long batches;
	bool capped;
};

static bool valid(const struct dbatch_config *c, const struct dbatch_load *l)
{
	bool traffic = l->clients > 0 ? l->rate == 0 && l->clients <= l->requests
				      : l->rate > 0 && isfinite(l->rate);
	long samples = l->samples > 0 ? l->samples : 1;
	return c->max_batch >= samples && c->max_delay >= 0 &&
	       isfinite(c->max_delay) && traffic && l->requests >= 20 &&
	       l->p99_target >= 0;
}

/*
 * When the batch that starts with request i leaves, given the replica is
 * free from `free_at`: at once when the whole maximum batch is waiting by
 * then (or no delay is allowed), otherwise when the oldest has waited the
 * delay or the batch fills, whichever comes first.  Closed-loop requests
 * not yet sent (at HUGE_VAL) fill nothing.
 */
static double batch_start(const struct sim *s, long i)
{
	double ready = fmax(s->free_at, s->at[i]);
	long last = i + s->per - 1;
	double full = last < s->arrived ? s->at[last] : HUGE_VAL;
	if (full <= ready || s->c->max_delay == 0)
		return ready;
	return fmax(ready, fmin(s->at[i] + s->c->max_delay, full));
}

/* Requests k of a batch answered at s->free_at; in a closed loop each
 * client sends its next request then. */
static void answered(struct sim *s, long k)
{
	if (k >= s->from) {
		double v = s->free_at - s->at[k];
		s->lat[k - s->from] = v;
		s->misses += s->l->p99_target > 0 && v > s->l->p99_target;
		if (k == s->from)
			s->first_done = s->free_at;
		else if (s->free_at > s->first_done)
			s->done_after++;
		s->last_done = s->free_at;
	}
	if (s->l->clients > 0 && s->arrived < s->n)
		s->at[s->arrived++] = s->free_at;
}

static void run(struct sim *s, dbatch_cost_fn cost, void *ctx)
{
	long samples = s->l->samples > 0 ? s->l->samples : 1;
	for (long i = 0; i < s->n && s->misses <= s->allowed;) {
		double start = batch_start(s, i);
		long b = 0;
		while (b < s->per && i + b < s->arrived && s->at[i + b] <= start)
			b++;
		s->capped |= b == s->per && i + b < s->arrived &&
			     s->at[i + b] <= start;
		double t = cost(b * samples, ctx);
		s->free_at = start + t;
		s->busy += t;
		s->batches++;
		for (long k = i; k < i + b; k++)
			answered(s, k);
		i += b;
	}
}

int dbatch_simulate(const struct dbatch_config *c, const struct dbatch_load *l,
		    dbatch_cost_fn cost, void *ctx, struct dbatch_result *out)
{
	memset(out, 0, sizeof(*out));
	if (!valid(c, l))
		return -1;
	long samples = l->samples > 0 ? l->samples : 1;
	struct sim s = {.c = c, .l = l, .n = l->requests,
			.per = c->max_batch / samples};
	/* an open queue holds only below the batcher's throughput bound; a
	 * closed loop always does (its clients wait) */
	if (l->clients == 0 &&
	    l->rate * (double)samples * cost(s.per * samples, ctx) >=
	    (double)(s.per * samples)) {
		out->saturated = true;
		return 0;
	}
	s.from = s.n / 10;
	long m = s.n - s.from;
	/* the p99 of m requests is the ceil(0.99 m)-th: it misses once more
	 * than m - ceil(0.99 m) of them do */
	s.allowed = m - (long)ceil(0.99 * (double)m);
	s.at = xmalloc((size_t)s.n * sizeof(double));
	s.lat = xmalloc((size_t)m * sizeof(double));
	if (l->clients > 0) {
		for (long i = 0; i < l->clients; i++)
			s.at[i] = 0;
		s.arrived = l->clients;
	} else {
		if (l->trace && l->trace->arrival)
			sim_trace_arrivals(s.at, s.n, l->trace);
		else
			sim_poisson_arrivals(s.at, s.n, l->rate, l->seed);
		s.arrived = s.n;
	}
	run(&s, cost, ctx);
	out->missed = s.misses > s.allowed;
	out->capped = s.capped;
	if (!out->missed) {
		sim_quantiles(s.lat, m, &out->latency);
		out->measured = m;
		out->mean_batch = (double)s.n / (double)s.batches;
		out->busy = s.free_at > 0 ? s.busy / s.free_at : 0;
		/* closed loop: the answers after the first measured one's
		 * batch, over the time they took; open: every measured
		 * request over the time from its first arrival */
		bool closed = l->clients > 0;
		double span = s.last_done - (closed ? s.first_done : s.at[s.from]);
		double done = closed ? (double)s.done_after : (double)m;
		out->samples_per_s = span > 0 ? done * (double)samples / span : 0;
	}
	free(s.at);
	free(s.lat);
	return 0;
}

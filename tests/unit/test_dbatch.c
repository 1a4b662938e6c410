/*
 * test_dbatch.c - Triton's dynamic batcher as simulated (src/serve/dbatch.h)
 * against cases worked by hand and against queueing theory.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "serve/dbatch.h"

/* S(b) = a + c b: a fixed part of the pass and a part per request. */
struct affine {
	double a, c;
};

static double affine(long b, void *ctx)
{
	const struct affine *k = ctx;
	return k->a + k->c * (double)b;
}

static struct dbatch_result run(long max_batch, double delay, double rate,
				struct affine k, double target)
{
	struct dbatch_config c = {max_batch, delay};
	struct dbatch_load l = {.rate = rate, .requests = 20000, .seed = 7,
				.p99_target = target};
	struct dbatch_result r;
	CHECK(dbatch_simulate(&c, &l, affine, &k, &r) == 0);
	return r;
}

/*
 * One request a second, 1 ms each: the replica is busy 0.1% of the time,
 * so nearly every request finds it free and is answered in exactly 1 ms,
 * the median and the p99 alike (a wait needs another arrival within 1 ms
 * before it: probability 0.1%).
 */
static void idle(void)
{
	struct dbatch_result r = run(8, 0, 1, (struct affine){1e-3, 0}, 0);
	CHECK(!r.saturated && !r.missed);
	CHECK_NEAR(r.latency.p50, 1e-3, 1e-9);
	CHECK_NEAR(r.latency.p99, 1e-3, 1e-9);
	CHECK(r.mean_batch < 1.01);
	CHECK(r.measured == 18000);
}

/*
 * Batch 1, 1 s each, 0.5 requests a second: M/D/1 at load 0.5.  The
 * Pollaczek-Khinchine mean wait is rho S / (2 (1 - rho)) = 0.5 s, so the
 * mean latency is 1.5 s; 18,000 requests put the sample mean within a
 * few percent of it.
 */
static void md1(void)
{
	struct dbatch_result r = run(1, 0, 0.5, (struct affine){1, 0}, 0);
	CHECK(!r.saturated);
	CHECK(fabs(r.latency.mean - 1.5) < 0.05 * 1.5);
	CHECK(r.latency.p50 >= 1);
	CHECK(r.latency.p99_lo <= r.latency.p99 && r.latency.p99 <= r.latency.p99_hi);
	CHECK_NEAR(r.mean_batch, 1, 0);
	CHECK(fabs(r.busy - 1) < 1e-12 || r.busy <= 1);
}

/*
 * A pass that costs the same at any batch (1 ms), 4 requests per ms and a
 * maximum of 16: the batcher takes what waited during the last pass,
 * about 4, so no request waits more than the pass in progress plus its
 * own: p99 at most 2 ms while the queue stays under 16 (almost surely).
 * One replica at batch 1 could not hold this (4 per ms against 1).
 */
static void batching(void)
{
	struct dbatch_result r = run(16, 0, 4000, (struct affine){1e-3, 0}, 0);
	CHECK(!r.saturated && !r.missed);
	CHECK(r.mean_batch > 3 && r.mean_batch < 5.5);
	CHECK(r.latency.p99 <= 2e-3 + 1e-9);
	CHECK(r.latency.p50 >= 1e-3);
	CHECK(run(1, 0, 4000, (struct affine){1e-3, 0}, 0).saturated);
}

/*
 * A 5 ms maximum queue delay and a batch of 4 at 100 requests a second
 * (4 arrivals take some 30 ms): a batch mostly leaves when its oldest
 * request has waited 5 ms, so that request is answered in 5 + 1 ms, never
 * later (the queue never outgrows a batch at this load); requests that
 * joined it waited less.  Without the delay the median is the 1 ms pass.
 */
static void delay(void)
{
	struct dbatch_result r = run(4, 5e-3, 100, (struct affine){1e-3, 0}, 0);
	CHECK(r.latency.p99 <= 6e-3 + 1e-9);
	CHECK(r.latency.p99 > 5.5e-3);
	CHECK(r.latency.p50 > 1e-3);
	CHECK(r.mean_batch > 1.2);
	struct dbatch_result now = run(4, 0, 100, (struct affine){1e-3, 0}, 0);
	CHECK_NEAR(now.latency.p50, 1e-3, 1e-9);
}

/* Saturation is the throughput bound: rate x S(max) >= max. */
static void saturation(void)
{
	/* S(8) = 1 + 8 = 9 ms: 8 requests per 9 ms is 888.9 a second */
	struct affine k = {1e-3, 1e-3};
	CHECK(run(8, 0, 889, k, 0).saturated);
	CHECK(!run(8, 0, 880, k, 0).saturated);
}

/* A target below the pass itself is missed, and found missed early; one
 * of two passes is met (a request waits at most for the pass in progress,
 * under 2 ms, then its own). */
static void target(void)
{
	struct dbatch_result r = run(4, 0, 10, (struct affine){2e-3, 0}, 1e-3);
	CHECK(r.missed && !r.saturated && r.measured == 0);
	r = run(4, 0, 10, (struct affine){2e-3, 0}, 4e-3);
	CHECK(!r.missed && r.latency.p99 <= 4e-3);
}

/*
 * Closed loop: 8 clients, a maximum batch of 4, S(b) = 1 + 0.25 b ms.
 * All 8 send at once; batches of 4 alternate, each 2 ms, so every request
 * waits for the other half's batch and its own: 4 ms, and 4 requests per
 * 2 ms is 2,000 a second.  With requests of 2 samples each, a batch holds
 * 2 requests (4 samples, still 2 ms): 8 clients wait 4 batches, 8 ms,
 * and 4 samples leave every 2 ms, 2,000 samples a second.
 */
static void closed_loop(void)
{
	struct affine k = {1e-3, 0.25e-3};
	struct dbatch_config c = {4, 0};
	struct dbatch_load l = {.clients = 8, .requests = 2000, .seed = 1};
	struct dbatch_result r;
	CHECK(dbatch_simulate(&c, &l, affine, &k, &r) == 0);
	CHECK(!r.saturated && !r.missed);
	CHECK_NEAR(r.latency.p50, 4e-3, 1e-12);
	CHECK_NEAR(r.latency.p99, 4e-3, 1e-12);
	CHECK_NEAR(r.samples_per_s, 2000, 1e-6);
	CHECK_NEAR(r.mean_batch, 4, 1e-12);
	l.samples = 2;
	CHECK(dbatch_simulate(&c, &l, affine, &k, &r) == 0);
	CHECK_NEAR(r.latency.p50, 8e-3, 1e-12);
	CHECK_NEAR(r.samples_per_s, 2000, 1e-6);
	/* a request larger than the maximum batch is refused */
	l.samples = 5;
	CHECK(dbatch_simulate(&c, &l, affine, &k, &r) == -1);
}

static void same_twice(void)
{
	struct affine k = {1e-3, 2e-4};
	struct dbatch_result a = run(8, 1e-3, 600, k, 0);
	struct dbatch_result b = run(8, 1e-3, 600, k, 0);
	CHECK(a.latency.p99 == b.latency.p99 && a.latency.mean == b.latency.mean &&
	      a.mean_batch == b.mean_batch);
}

static void refused(void)
{
	struct affine k = {1e-3, 0};
	struct dbatch_result r;
	struct dbatch_load l = {.rate = 10, .requests = 20000, .seed = 1};
	struct dbatch_config zero = {0, 0}, neg = {4, -1}, inf = {4, INFINITY};
	CHECK(dbatch_simulate(&zero, &l, affine, &k, &r) == -1);
	CHECK(dbatch_simulate(&neg, &l, affine, &k, &r) == -1);
	CHECK(dbatch_simulate(&inf, &l, affine, &k, &r) == -1);
	struct dbatch_config ok = {4, 0};
	struct dbatch_load few = {.rate = 10, .requests = 19, .seed = 1};
	struct dbatch_load nan_rate = {.rate = NAN, .requests = 100, .seed = 1};
	CHECK(dbatch_simulate(&ok, &few, affine, &k, &r) == -1);
	CHECK(dbatch_simulate(&ok, &nan_rate, affine, &k, &r) == -1);
	CHECK(r.measured == 0 && !r.saturated);
}

static int ascending(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;
	return (a > b) - (a < b);
}

/*
 * The quantiles found by selection are those of the sorted values
 * (nearest rank): 1..n shuffled, with ties, at sizes around the ranks'
 * edges.
 */
static void quantiles_as_sorted(void)
{
	static const long sizes[] = {1, 2, 99, 100, 101, 1000, 18000};
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		long n = sizes[s];
		double *v = malloc((size_t)n * sizeof(double));
		double *w = malloc((size_t)n * sizeof(double));
		unsigned x = 12345;
		for (long i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			v[i] = w[i] = (double)((x >> 8) % 997);
		}
		qsort(w, (size_t)n, sizeof(double), ascending);
		struct sim_quantiles q;
		sim_quantiles(v, n, &q);
		long k50 = (long)ceil(0.5 * (double)n) - 1, k99 = (long)ceil(0.99 * (double)n) - 1;
		CHECK(q.p50 == w[k50 < 0 ? 0 : k50]);
		CHECK(q.p99 == w[k99 < 0 ? 0 : k99]);
		CHECK(q.p99_lo <= q.p99 && q.p99 <= q.p99_hi && q.p99_hi <= w[n - 1]);
		free(v);
		free(w);
	}
}

int main(void)
{
	quantiles_as_sorted();
	idle();
	md1();
	batching();
	delay();
	saturation();
	target();
	closed_loop();
	same_twice();
	refused();
	return check_summary("dbatch");
}

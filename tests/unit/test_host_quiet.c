/*
 * test_host_quiet.c - the verdict on a figure's host (src/bench/
 * host_quiet.h) from accounting worked by hand: one thread, one second.
 */
#include "check.h"
#include "bench/host_quiet.h"

/* One thread for one second with the given CPU time, involuntary
 * switches, stolen share of 100 s of machine time, and slowest repetition
 * over a 1 ms median. */
static bool judge(double cpu, long switches, double stolen, double slowest,
		  char *why, size_t len)
{
	struct host_window w = {
		.before = {.wall = 10, .cpu = 5, .nivcsw = 7, .steal = 1,
			   .busy_total = 1000},
		.after = {.wall = 11, .cpu = 5 + cpu, .nivcsw = 7 + switches,
			  .steal = 1 + stolen, .busy_total = 1100},
		.threads = 1, .slowest = slowest * 1e-3, .median = 1e-3,
	};
	return host_quiet_judge(&w, why, len);
}

int main(void)
{
	char why[256];
	/* quiet: the thread held its core 99% of the second, 5 switches, no
	 * steal, the slowest repetition 1.2 times the median */
	CHECK(!judge(0.99, 5, 0, 1.2, why, sizeof(why)));
	CHECK_STR(why, "");
	/* each sign alone, at its threshold's other side (host_quiet.c):
	 * 85% of the time, 50 switches a second, 5% stolen, 5 x the median */
	CHECK(!judge(0.86, 50, 5, 5, why, sizeof(why)));
	/* switches are said beside a sign: a short window's 11 beside half
	 * the CPU time, 10 not (a short figure sees a few on any host) */
	struct host_window short_one = {
		.before = {.wall = 1}, .after = {.wall = 1.01, .cpu = 0.005, .nivcsw = 10},
		.threads = 1};
	CHECK(host_quiet_judge(&short_one, why, sizeof(why)));
	CHECK_STR(why, "its 1 thread had their cores 50% of the time");
	short_one.after.nivcsw = 11;
	CHECK(host_quiet_judge(&short_one, why, sizeof(why)));
	CHECK_STR(why, "its 1 thread had their cores 50% of the time; 11 involuntary context switches in 0.01 s");
	/* every sign, joined */
	CHECK(judge(0.4, 300, 20, 9, why, sizeof(why)));
	CHECK_STR(why, "its 1 thread had their cores 40% of the time; 20% of the machine's time stolen by the hypervisor; a repetition took 9.0 times the median; 300 involuntary context switches in 1 s");
	/* a window of no time says nothing */
	struct host_window none = {.threads = 2};
	CHECK(!host_quiet_judge(&none, why, sizeof(why)));
	return check_summary("host_quiet");
}

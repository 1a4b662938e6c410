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
	/* a short window: 10 switches in 0.01 s are 1000 a second, but no
	 * more than any host gives a short figure */
	struct host_window short_one = {
		.before = {.wall = 1}, .after = {.wall = 1.01, .cpu = 0.01, .nivcsw = 10},
		.threads = 1};
	CHECK(!host_quiet_judge(&short_one, why, sizeof(why)));
	short_one.after.nivcsw = 11;
	CHECK(host_quiet_judge(&short_one, why, sizeof(why)));
	CHECK(judge(0.5, 5, 0, 1, why, sizeof(why)));
	CHECK_STR(why, "its 1 thread had their cores 50% of the time");
	CHECK(judge(0.99, 120, 0, 1, why, sizeof(why)));
	CHECK_STR(why, "120 involuntary context switches in 1 s");
	CHECK(judge(0.99, 0, 10, 1, why, sizeof(why)));
	CHECK_STR(why, "10% of the machine's time stolen by the hypervisor");
	CHECK(judge(0.99, 0, 0, 6, why, sizeof(why)));
	CHECK_STR(why, "a repetition took 6.0 times the median");
	/* every sign, joined */
	CHECK(judge(0.4, 300, 20, 9, why, sizeof(why)));
	CHECK_STR(why, "its 1 thread had their cores 40% of the time; 300 involuntary context switches in 1 s; 20% of the machine's time stolen by the hypervisor; a repetition took 9.0 times the median");
	/* a window of no time says nothing */
	struct host_window none = {.threads = 2};
	CHECK(!host_quiet_judge(&none, why, sizeof(why)));
	return check_summary("host_quiet");
}

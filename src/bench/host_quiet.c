/*
 * host_quiet.c - the accounting around a figure and the verdict on it;
 * see host_quiet.h.
 */
#include "host_quiet.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/*
 * Assumptions, not measurements: on a quiet host a figure's threads hold
 * their cores nearly all the time (OpenMP's threads spin between
 * kernels), so below 85% of it they were waiting for other programs; more
 * than 5% of the machine's time stolen by a hypervisor means its other
 * guests were busy; one repetition over five times the median was stopped
 * outright.  Involuntary context switches (more than 50 a second per
 * thread, and more than 10 in all) are evidence, said beside a sign above,
 * not a sign alone: the process's own threads take them from each other
 * too (OpenBLAS's pool beside OpenMP's spinning team on a quiet host).
 */
#define QUIET_CPU_SHARE 0.85
#define QUIET_SWITCHES_PER_S 50.0
#define QUIET_SWITCHES_FEWEST 10
#define QUIET_STEAL_SHARE 0.05
#define QUIET_SLOWEST_OVER_MEDIAN 5.0

/* The first line of /proc/stat: "cpu user nice system idle iowait irq
 * softirq steal ...", in clock ticks; false where it cannot be read. */
static bool read_proc_stat(double *steal, double *total)
{
	FILE *f = fopen("/proc/stat", "r");
	if (!f)
		return false;
	unsigned long long v[8] = {0};
	int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		       &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
	fclose(f);
	if (n < 8)
		return false;
	long hz = sysconf(_SC_CLK_TCK);
	double tick = hz > 0 ? 1.0 / (double)hz : 0.01;
	double sum = 0;
	for (int i = 0; i < 8; i++)
		sum += (double)v[i];
	*steal = (double)v[7] * tick;
	*total = sum * tick;
	return true;
}

void host_sample_take(struct host_sample *s)
{
	memset(s, 0, sizeof(*s));
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	s->wall = (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
	struct rusage u;
	if (getrusage(RUSAGE_SELF, &u) == 0) {
		s->cpu = (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 +
			 (double)u.ru_stime.tv_sec + (double)u.ru_stime.tv_usec * 1e-6;
		s->nivcsw = u.ru_nivcsw;
	}
	if (!read_proc_stat(&s->steal, &s->busy_total))
		s->steal = s->busy_total = 0;
}

/* Appends "; " and the formatted text to why at *at. */
static void add(char *why, size_t len, size_t *at, const char *text)
{
	if (*at >= len)
		return;
	int w = snprintf(why + *at, len - *at, "%s%s", *at ? "; " : "", text);
	if (w > 0)
		*at += (size_t)w;
}

bool host_quiet_judge(const struct host_window *w, char *why, size_t len)
{
	size_t at = 0;
	char text[160];
	bool disturbed = false;
	if (len)
		why[0] = '\0';
	double wall = w->after.wall - w->before.wall;
	int threads = w->threads > 0 ? w->threads : 1;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	/* threads past the cores cannot all run: judged on what could */
	double could = (double)(online > 0 && threads > online ? online : threads);
	if (wall <= 0)
		return false;
	double share = (w->after.cpu - w->before.cpu) / (wall * could);
	if (share < QUIET_CPU_SHARE) {
		snprintf(text, sizeof(text), "its %d thread%s had their cores %.0f%% of the time",
			 threads, threads == 1 ? "" : "s", 100 * share);
		add(why, len, &at, text);
		disturbed = true;
	}
	double switches = (double)(w->after.nivcsw - w->before.nivcsw);
	bool switched = switches > QUIET_SWITCHES_FEWEST &&
			switches / (wall * could) > QUIET_SWITCHES_PER_S;
	double machine = w->after.busy_total - w->before.busy_total;
	double stolen = w->after.steal - w->before.steal;
	if (machine > 0 && stolen / machine > QUIET_STEAL_SHARE) {
		snprintf(text, sizeof(text), "%.0f%% of the machine's time stolen by the hypervisor",
			 100 * stolen / machine);
		add(why, len, &at, text);
		disturbed = true;
	}
	if (w->median > 0 && w->slowest > QUIET_SLOWEST_OVER_MEDIAN * w->median) {
		snprintf(text, sizeof(text), "a repetition took %.1f times the median",
			 w->slowest / w->median);
		add(why, len, &at, text);
		disturbed = true;
	}
	if (disturbed && switched) {
		snprintf(text, sizeof(text), "%.0f involuntary context switches in %.3g s",
			 switches, wall);
		add(why, len, &at, text);
	}
	if (!disturbed && len)
		why[0] = '\0';
	return disturbed;
}

/* One way of measuring a figure: measure_run or measure_sustained. */
struct loop {
	const struct measure_policy *policy;
	const struct sustain_policy *sustain;
};

static int run_loop(const struct loop *l, measure_rep_fn rep, void *ctx,
		    struct measure_result *r, char *why, size_t len)
{
	return l->sustain ? measure_sustained(l->sustain, rep, ctx, r, why, len)
			  : measure_run(l->policy, rep, ctx, r, why, len);
}

static int watched(const struct loop *l, measure_rep_fn rep, void *ctx,
		   int threads, struct measure_result *r, char *disturbed,
		   size_t dlen, char *why, size_t len)
{
	int rc = 0;
	for (int attempt = 0; attempt < HOST_QUIET_ATTEMPTS; attempt++) {
		if (attempt > 0)
			measure_result_free(r);
		struct host_window w = {.threads = threads};
		host_sample_take(&w.before);
		rc = run_loop(l, rep, ctx, r, why, len);
		host_sample_take(&w.after);
		if (rc < 0)
			return rc;
		w.slowest = r->max;
		w.median = r->median;
		if (!host_quiet_judge(&w, disturbed, dlen))
			return 0;
	}
	return rc;
}

int host_quiet_measure(const struct measure_policy *p, measure_rep_fn rep,
		       void *ctx, int threads, struct measure_result *r,
		       char *disturbed, size_t dlen, char *why, size_t len)
{
	struct loop l = {p, NULL};
	return watched(&l, rep, ctx, threads, r, disturbed, dlen, why, len);
}

int host_quiet_sustained(const struct sustain_policy *p, measure_rep_fn rep,
			 void *ctx, int threads, struct measure_result *r,
			 char *disturbed, size_t dlen, char *why, size_t len)
{
	struct loop l = {NULL, p};
	return watched(&l, rep, ctx, threads, r, disturbed, dlen, why, len);
}

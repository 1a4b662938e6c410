/*
 * host_quiet.h - whether the host stayed quiet while a CPU figure was
 * measured.
 *
 * A figure measured while other programs want the same cores is slow in a
 * consistent way: every repetition waits for a core, so the interval is
 * narrow around a wrong value, and convergence says nothing.  What does
 * tell is the accounting around the figure:
 *   - CPU time: the process's user + system time over the wall time the
 *     threads had (getrusage).  A thread that is runnable but not running
 *     accrues none; OpenMP's threads spin while they wait for work, so on
 *     a quiet host the share is close to 1;
 *   - involuntary context switches (getrusage ru_nivcsw): a thread taken
 *     off its core for another;
 *   - stolen time (/proc/stat, a virtual machine's host running others);
 *   - repetitions far apart: the slowest over the median.
 * host_quiet_judge() turns a before/after pair into a verdict with the
 * evidence in words.  The thresholds are assumptions, stated where they
 * are defined (host_quiet.c).
 *
 * Ownership: plain values.
 */
#ifndef GPUPLAN_BENCH_HOST_QUIET_H
#define GPUPLAN_BENCH_HOST_QUIET_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/measure.h"

struct host_sample {
	double wall;		/* s, monotonic */
	double cpu;		/* s of user + system time, this process */
	long nivcsw;		/* involuntary context switches, this process */
	double steal;		/* s stolen from the whole machine (/proc/stat;
				 * 0 where it cannot be read) */
	double busy_total;	/* s of every CPU's time, same source */
};

/* Now, for this process. */
void host_sample_take(struct host_sample *s);

/* What a measurement saw: its samples around it, the threads it ran on,
 * and its repetitions' slowest and median times. */
struct host_window {
	struct host_sample before, after;
	int threads;
	double slowest, median;	/* s per repetition */
};

/*
 * True when the window was disturbed: too little CPU time for its
 * threads, time stolen, or a repetition far off (context switches are
 * evidence beside those, not a sign alone); why gets the evidence ("its 2
 * threads had their cores 58% of the time; 140 involuntary context
 * switches in 0.1 s"), "" otherwise.
 */
bool host_quiet_judge(const struct host_window *w, char *why, size_t len);

/* Runs of a figure the host disturbed before it is kept as disturbed. */
#define HOST_QUIET_ATTEMPTS 3

/*
 * measure_run(), watched: a run on `threads` threads that the host
 * disturbed is run again, up to HOST_QUIET_ATTEMPTS times in all, and the
 * last is kept; disturbed gets its evidence when it too was disturbed, ""
 * otherwise.  Returns what measure_run() returns.  For work that keeps
 * its threads on the CPU (a GPU run waits for the device, which looks
 * like a busy host).
 */
int host_quiet_measure(const struct measure_policy *p, measure_rep_fn rep,
		       void *ctx, int threads, struct measure_result *r,
		       char *disturbed, size_t dlen, char *why, size_t len);

/* The same for the sustained loop (measure.h: measure_sustained). */
int host_quiet_sustained(const struct sustain_policy *p, measure_rep_fn rep,
			 void *ctx, int threads, struct measure_result *r,
			 char *disturbed, size_t dlen, char *why, size_t len);

#endif

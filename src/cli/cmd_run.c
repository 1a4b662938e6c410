/*
 * cmd_run.c - `gpuplan run [-n N] [--warmup W] [--metric SPEC...] -- CMD
 * ARGS...`: runs the user's own command N times as given (no shell) and
 * writes a run record (run/record.h) with wall times, exit statuses,
 * metrics captured from the output, host and GPU identity and NVML
 * samples taken during each run.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cpu_info.h"
#include "bench/gpu_sampler.h"
#include "commands.h"
#include "common.h"
#include "core/output.h"
#include "core/xalloc.h"
#include "out_dirs.h"
#include "profile/profile.h"
#include "run/capture.h"
#include "run/exec.h"
#include "run/record.h"

#define RUN_SAMPLE_INTERVAL_S 0.1	/* as bench samples */

static const struct opt_spec run_opts[] = {
	{"runs", 'n', OPT_VALUE, "N", "measured runs (default 5; 1 to 10000)"},
	{"warmup", 0, OPT_VALUE, "N",
	 "warm-up runs first, recorded but not compared (default 1)"},
	{"metric", 'm', OPT_LIST, "SPEC",
	 "NAME[:higher|:lower][:stdout|:stderr]=REGEX: a figure from the output, the first group of the last match"},
	{"gpu", 0, OPT_VALUE, "N", "sample NVML GPU N during the runs (default 0)"},
	OUTPUT_OPTION,
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec run_spec = {
	"run", "-- CMD [ARGS...]",
	"Run a command N times and record wall time, metrics and GPU samples.",
	run_opts, 1, -1,
	"CMD runs as given, without a shell (write `sh -c '...'` for one), with\n"
	"standard input from /dev/null, in a process group of its own with\n"
	"default signal actions.  Its stdout and stderr are read apart, line by\n"
	"line (a line ends at a newline or a carriage return; one over 64 KiB\n"
	"is matched in pieces); each --metric's regular expression (POSIX\n"
	"extended: back-references such as \\1 are refused) is matched against\n"
	"each line of both streams, or of the one named by :stdout or :stderr,\n"
	"and the first capture group of the last match is the value.  A run\n"
	"where it does not match records the metric as missing, never 0.\n"
	"Without :higher or :lower the direction is taken from the name when\n"
	"clear (throughput, tokens_per_s, accuracy: higher; loss, latency, time,\n"
	"ms: lower).  Wall time is always recorded (so no metric may be named\n"
	"wall_time_s): it runs from the start to the command's own exit.  A\n"
	"process the command leaves behind is not waited for: once the command\n"
	"has exited its output is read while it keeps coming, for at most 1 s,\n"
	"and a run whose output was still held open then says so\n"
	"(output_held_open in the record).  A run that exits non-zero or is\n"
	"killed is recorded as failing, with the tail of its stderr, and left\n"
	"out of statistics.  GPU samples come from NVML when present; the record\n"
	"says why when not.  The record (schema gpuplan/run/v1) goes to -o or\n"
	"standard output, and -o is checked before the first run (its folder\n"
	"must exist and be writable); compare two with `gpuplan compare`.\n"
	"SIGINT, SIGTERM or SIGHUP during a run is passed on to the command's\n"
	"process group (a second one as SIGKILL); gpuplan waits for the command\n"
	"to end, writes nothing and dies of the signal.\n"
	"Exit status: 0; 1 when no measured run succeeded (the record is still\n"
	"written); 2 for bad usage, an -o that cannot be written or a command\n"
	"that cannot be found; 128+N after signal N.",
};

struct run_args {
	long runs, warmup, gpu;
	struct run_record rec;
	int interrupted;	/* the signal that stopped the runs; 0: none */
};

static int read_count(const struct parsed *p, const char *name, long min,
		      long max, long dflt, long *out)
{
	const char *v = opt_value(p, &run_spec, name);
	*out = dflt;
	if (v && !opt_whole(v, min, max, out))
		return usage_error(&run_spec, "--%s expects a whole number from %ld to %ld, found '%s'",
				   name, min, max, v);
	return 0;
}

static int read_metrics(const struct parsed *p, struct run_record *rec)
{
	const struct opt_result *m = opt_find(p, &run_spec, "metric");
	if (m->nlist > RUN_MAX_METRICS)
		return usage_error(&run_spec, "at most %d --metric", RUN_MAX_METRICS);
	rec->metrics = xcalloc(m->nlist + 1, sizeof(*rec->metrics));
	for (size_t i = 0; i < m->nlist; i++) {
		char why[400];
		struct metric x;
		if (metric_parse(m->list[i], &x, why, sizeof(why)) < 0)
			return usage_error(&run_spec, "%s", why);
		for (size_t k = 0; k < rec->n_metrics; k++)
			if (strcmp(rec->metrics[k].name, x.name) == 0) {
				metric_free(&x);
				return usage_error(&run_spec, "--metric '%s' given twice",
						   rec->metrics[k].name);
			}
		rec->metrics[rec->n_metrics++] = x;
	}
	return 0;
}

static int read_args(const struct parsed *p, struct run_args *a)
{
	int rc;
	if ((rc = read_count(p, "runs", 1, RUN_MAX_RUNS / 2, 5, &a->runs)) ||
	    (rc = read_count(p, "warmup", 0, 100, 1, &a->warmup)) ||
	    (rc = read_count(p, "gpu", 0, 1023, 0, &a->gpu)) ||
	    (rc = read_metrics(p, &a->rec)))
		return rc;
	const char *out = opt_value(p, &run_spec, "output");
	char why[600];
	if (out && strcmp(out, "-") && (rc = out_file_usable("-o", out)))
		return rc;
	if (!exec_findable(p->args[0], why, sizeof(why))) {
		fprintf(stderr, "gpuplan: %s: %s\n", p->args[0], why);
		return 2;
	}
	return 0;
}

/* Host identity: hostname and kernel as a measured profile has them,
 * the CPU from /proc/cpuinfo. */
static void stamp(const struct parsed *p, struct run_record *rec)
{
	struct bench_profile bp;
	bench_profile_init(&bp);
	bench_profile_stamp(&bp);
	memcpy(rec->tool_version, bp.tool_version, sizeof(rec->tool_version));
	memcpy(rec->when, bp.when, sizeof(rec->when));
	memcpy(rec->hostname, bp.hostname, sizeof(rec->hostname));
	memcpy(rec->kernel, bp.kernel, sizeof(rec->kernel));
	bench_profile_free(&bp);
	struct cpu_info ci;
	cpu_info_read(&ci);
	if (ci.valid & CPU_INFO_HAS_MODEL)
		snprintf(rec->cpu, sizeof(rec->cpu), "%s", ci.model);
	if (ci.valid & CPU_INFO_HAS_LOGICAL_CPUS)
		rec->logical_cpus = ci.logical_cpus;
	rec->argc = p->nargs;
	rec->argv = xcalloc(p->nargs + 1, sizeof(char *));
	for (size_t i = 0; i < p->nargs; i++)
		rec->argv[i] = xstrdup(p->args[i]);
}

/* What a run's output gave each metric; a miss said on stderr. */
static void take_values(struct run_record *rec, struct run_one *u,
			const struct capture *cap, const struct exec_result *x,
			const char *label)
{
	for (size_t i = 0; i < rec->n_metrics; i++) {
		char why[160] = "not found in the output";
		int rc = capture_value(cap, i, &u->value[i], why, sizeof(why));
		u->present[i] = rc == 1;
		if (rc != 1 && !exec_failed(x))
			fprintf(stderr, "gpuplan: %s: metric '%s' %s (recorded as missing)\n",
				label, rec->metrics[i].name, why);
	}
}

static void record_one(struct run_record *rec, bool warmup,
		       const struct exec_result *x, const struct capture *cap,
		       const char *label)
{
	struct run_one *u = run_record_add(rec);
	u->warmup = warmup;
	u->wall_s = x->wall_s;
	u->signaled = x->signaled;
	u->signal = x->signal;
	u->exit_code = x->exec_failed ? 127 : x->exit_code;
	u->not_started = x->exec_failed;
	u->output_held = x->output_held;
	take_values(rec, u, cap, x, label);
	if (x->output_held)
		fprintf(stderr, "gpuplan: %s: a process the command started kept its output open after it exited; reading stopped (the wall time is the command's own)\n",
			label);
	if (exec_failed(x))
		u->stderr_tail = xstrdup(x->stderr_tail);
	if (x->signaled)
		fprintf(stderr, "gpuplan: %s: %.4g s, killed by signal %d (recorded as failing)\n",
			label, x->wall_s, x->signal);
	else
		fprintf(stderr, "gpuplan: %s: %.4g s, exit %d%s\n", label,
			x->wall_s, u->exit_code,
			exec_failed(x) ? " (recorded as failing)" : "");
}

static void label_of(long i, long warmup, char *buf, size_t len)
{
	if (i < warmup)
		snprintf(buf, len, "warm-up %ld", i + 1);
	else
		snprintf(buf, len, "run %ld", i - warmup + 1);
}

/* One run, its output captured and recorded.  0; 1 when the command
 * could not be started (said); -1 when a signal stopped it (in
 * a->interrupted, said). */
static int run_one(struct run_args *a, bool warmup, const char *label)
{
	struct capture cap;
	struct exec_result x;
	char why[200];
	capture_init(&cap, a->rec.metrics, a->rec.n_metrics);
	int rc = exec_run(a->rec.argv, &cap, &x, why, sizeof(why));
	if (rc < 0) {
		fprintf(stderr, "gpuplan: %s: %s\n", label, why);
		rc = 1;
	} else if (x.interrupted) {
		a->interrupted = x.interrupted;
		fprintf(stderr, "gpuplan: %s: interrupted by signal %d, passed on to the command, which has ended; nothing written\n",
			label, x.interrupted);
		rc = -1;
	} else {
		record_one(&a->rec, warmup, &x, &cap, label);
	}
	capture_free(&cap);
	return rc;
}

/* Every run, with the sampler (NULL without NVML) labelling its samples.
 * Returns as run_one, at the first that does not succeed. */
static int run_all(struct run_args *a, struct gpu_sampler *s)
{
	for (long i = 0; i < a->warmup + a->runs; i++) {
		char label[32];
		label_of(i, a->warmup, label, sizeof(label));
		if (s)
			gpu_sampler_mark(s, label);
		int rc = run_one(a, i < a->warmup, label);
		if (rc)
			return rc;
		if (s)
			gpu_sampler_mark(s, "between runs");
	}
	return 0;
}

static struct gpu_sampler *start_gpu(struct run_args *a)
{
	char why[256] = "";
	struct run_record *r = &a->rec;
	struct gpu_sampler *s = gpu_sampler_start_index((unsigned)a->gpu,
		RUN_SAMPLE_INTERVAL_S, why, sizeof(why));
	if (!s) {
		snprintf(r->gpu_absent, sizeof(r->gpu_absent), "%s", why);
		fprintf(stderr, "gpuplan: no GPU samples: %s\n", why);
		return NULL;
	}
	r->gpu = true;
	r->gpu_index = (unsigned)a->gpu;
	gpu_sampler_identity(s, r->gpu_name, sizeof(r->gpu_name), r->gpu_uuid,
			     sizeof(r->gpu_uuid));
	return s;
}

static void finish_gpu(struct run_args *a, struct gpu_sampler *s)
{
	struct run_record *r = &a->rec;
	if (!s)
		return;
	gpu_sampler_stop(s, &r->samples);
	r->samples.interval_s = RUN_SAMPLE_INTERVAL_S;
	for (size_t i = 0; i < r->n_runs; i++) {
		char label[32];
		label_of((long)i, a->warmup, label, sizeof(label));
		run_gpu_summarise(&r->samples, label, &r->runs[i].gpu);
	}
	run_record_thin_samples(r);
}

static int write_record(const struct parsed *p, const struct run_args *a)
{
	struct output o;
	output_open(&o);
	run_record_emit(&a->rec, o.f);
	int rc = output_finish(&o, opt_value(p, &run_spec, "output"));
	if (rc)
		return rc;
	size_t ok = 0, failed = 0;
	for (size_t i = 0; i < a->rec.n_runs; i++) {
		ok += run_counts(&a->rec.runs[i]);
		failed += !a->rec.runs[i].warmup && run_failed(&a->rec.runs[i]);
	}
	if (failed)
		fprintf(stderr, "gpuplan: %zu of %ld runs failed: recorded, left out of statistics\n",
			failed, a->runs);
	return ok ? 0 : 1;
}

int cmd_run(int argc, char **argv)
{
	struct parsed p;
	struct run_args a;
	memset(&a, 0, sizeof(a));
	run_record_init(&a.rec);
	int rc = opts_parse(&run_spec, argc, argv, &p);
	if (rc == OPTS_OK && (rc = read_args(&p, &a)) == 0) {
		stamp(&p, &a.rec);
		struct gpu_sampler *s = start_gpu(&a);
		rc = run_all(&a, s);
		finish_gpu(&a, s);
		if (rc == 0)
			rc = write_record(&p, &a);
	}
	run_record_free(&a.rec);
	opts_free(&p);
	if (a.interrupted) {	/* nothing written: die of it, as unasked */
		raise(a.interrupted);
		return 128 + a.interrupted;
	}
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

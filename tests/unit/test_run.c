/*
 * test_run.c - the run command's parts: metric specs and the direction a
 * name gives, capture of the last match (line by line, each stream apart,
 * whatever the chunks), the executor (a real command: exit status,
 * signal, both pipes, command not found, a background child holding the
 * pipes, signals passed on, the child's signal state) and the run
 * record's round trip through its writer and strict loader.
 */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "run/backlog.h"
#include "run/capture.h"
#include "run/exec.h"
#include "run/metric.h"
#include "run/record.h"

static void infer(void)
{
	static const struct { const char *name; int want; } t[] = {
		/* 1 higher, 0 lower, -1 refused */
		{"throughput", 1}, {"tokens_per_s", 1}, {"images/s", 1},
		{"samples_per_sec", 1}, {"accuracy", 1}, {"val_acc", 1},
		{"loss", 0}, {"latency_ms", 0}, {"step_time", 0}, {"p99_ms", 0},
		{"epoch_seconds", 0}, {"ppl", 0},
		{"score_loss", -1},	/* both kinds of word */
		{"widgets", -1},	/* neither */
		{"lossy", -1},		/* a word, not a prefix */
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		enum better b;
		bool ok = metric_infer_better(t[i].name, &b);
		CHECK(ok == (t[i].want >= 0));
		if (ok && t[i].want >= 0)
			CHECK(b == (t[i].want ? BETTER_HIGHER : BETTER_LOWER));
		if (ok != (t[i].want >= 0))
			fprintf(stderr, "  name '%s'\n", t[i].name);
	}
}

static void parse(void)
{
	struct metric m;
	char why[400];
	CHECK(metric_parse("rate:lower=x ([0-9]+)", &m, why, sizeof(why)) == 0);
	CHECK(m.better == BETTER_LOWER);
	CHECK_STR(m.name, "rate");
	metric_free(&m);
	CHECK(metric_parse("widgets=([0-9]+)", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "widgets:higher");
	CHECK(metric_parse("loss=no group", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "no capture group");
	CHECK(metric_parse("loss=([0-9]", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "bad regular expression");
	CHECK(metric_parse("x:sideways=(1)", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, ":higher' or ':lower'");
	CHECK(metric_parse("noequals", &m, why, sizeof(why)) < 0);
	CHECK(metric_parse("wall_time_s:lower=(1)", &m, why, sizeof(why)) < 0);
}

/* Nested bounded repeats are refused before regcomp copies them out: the
 * fuzzer found "((a{255}){255}){255}"-like patterns costing gigabytes. */
static void regex_size(void)
{
	struct metric m;
	char why[400];
	CHECK(metric_parse("t:lower=t=([0-9]{1,6}[.][0-9]{0,9})", &m, why, sizeof(why)) == 0);
	metric_free(&m);
	/* 40 x 50 = 2,000 pieces: the limit itself is allowed */
	CHECK(metric_parse("t:lower=((a{40}){50})", &m, why, sizeof(why)) == 0);
	metric_free(&m);
	CHECK(metric_parse("t:lower=((a{41}){50})", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "over 2000 pieces");
	CHECK(metric_parse("t:lower=(((a{255}){255}){255})", &m, why, sizeof(why)) < 0);
	CHECK(metric_parse("t:lower=((ab+){1000})", &m, why, sizeof(why)) < 0);
	CHECK(metric_parse("t:lower=((x){2001,})", &m, why, sizeof(why)) < 0);
	/* groups 31 deep are taken, 32 deep refused */
	char deep[200];
	snprintf(deep, sizeof(deep), "t:lower=%.31s1%.31s",
		 "(((((((((((((((((((((((((((((((((((", "))))))))))))))))))))))))))))))))))");
	CHECK(metric_parse(deep, &m, why, sizeof(why)) == 0);
	metric_free(&m);
	snprintf(deep, sizeof(deep), "t:lower=%.32s1%.32s",
		 "(((((((((((((((((((((((((((((((((((", "))))))))))))))))))))))))))))))))))");
	CHECK(metric_parse(deep, &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "32 deep");
	/* a bracket's '{' and an escaped one are no repeat counts */
	CHECK(metric_parse("t:lower=([{]9999})", &m, why, sizeof(why)) == 0);
	metric_free(&m);
	CHECK(metric_parse("t:lower=(\\{9999})", &m, why, sizeof(why)) == 0);
	metric_free(&m);
}

/* The figure of metric m in text fed as one piece of stdout: 1, 0 or -1
 * as capture_value. */
static int capture_text(const struct metric *m, const char *text, size_t n,
			double *v, char *why, size_t len)
{
	struct capture c;
	capture_init(&c, m, 1);
	capture_feed(&c, CAPTURE_STDOUT, text, n);
	capture_end(&c);
	int rc = capture_value(&c, 0, v, why, len);
	capture_free(&c);
	return rc;
}
#define CAPTURE_TEXT(m, s, v) capture_text(m, s, strlen(s), v, why, sizeof(why))

static void capture(void)
{
	struct metric m;
	char why[400];
	double v = 0;
	CHECK(metric_parse("loss=loss ([-0-9.e]+)", &m, why, sizeof(why)) == 0);
	/* the last match counts: the final loss, not the first */
	CHECK(CAPTURE_TEXT(&m, "loss 2.5\nstep\nloss 1.25\nloss -3e-1\n", &v) == 1);
	CHECK(v == -0.3);
	CHECK(CAPTURE_TEXT(&m, "nothing here\n", &v) == 0);
	CHECK(CAPTURE_TEXT(&m, "loss 1.2.3\n", &v) == -1);
	CHECK_HAS(why, "not a number");
	/* the last match of a line, and a last line with no newline */
	CHECK(CAPTURE_TEXT(&m, "loss 1 loss 2\nloss 3 loss 4", &v) == 1);
	CHECK(v == 4);
	/* a NUL byte hides nothing after it, on its line or later */
	CHECK(capture_text(&m, "a\0b loss 5\nloss 6\0x\n", 18, &v, why,
			   sizeof(why)) == 1);
	CHECK(v == 6);
	CHECK(capture_text(&m, "a\0b loss 5\n", 11, &v, why, sizeof(why)) == 1);
	CHECK(v == 5);
	/* a carriage return ends a line: a progress bar's last update */
	CHECK(CAPTURE_TEXT(&m, "loss 9\rloss 8\r\n", &v) == 1);
	CHECK(v == 8);
	metric_free(&m);
	/* an anchored pattern matches at each line's start */
	CHECK(metric_parse("tput:higher=^t=([0-9]+)", &m, why, sizeof(why)) == 0);
	CHECK(CAPTURE_TEXT(&m, "t=1\nxt=9\nt=7\n", &v) == 1);
	CHECK(v == 7);
	CHECK(CAPTURE_TEXT(&m, "t=1\nt=2 t=3\n", &v) == 1);
	CHECK(v == 2);
	metric_free(&m);
}

/* A stdout line written in two pieces with stderr between them is still
 * one line; a metric reading one stream ignores the other. */
static void capture_streams(void)
{
	struct metric m[3];
	char why[400];
	double v = 0;
	CHECK(metric_parse("throughput=throughput: ([0-9.]+)", &m[0], why, sizeof(why)) == 0);
	CHECK(metric_parse("loss:stdout=loss ([0-9.]+)", &m[1], why, sizeof(why)) == 0);
	CHECK(metric_parse("err_loss:lower:stderr=loss ([0-9.]+)", &m[2], why, sizeof(why)) == 0);
	CHECK(m[1].stream == METRIC_STDOUT && m[2].stream == METRIC_STDERR);
	struct capture c;
	capture_init(&c, m, 3);
	capture_feed(&c, CAPTURE_STDOUT, "loss 1\nthroughput: 12", 21);
	capture_feed(&c, CAPTURE_STDERR, "loss 2\nwarn", 11);
	capture_feed(&c, CAPTURE_STDOUT, "34.5\n", 5);
	capture_feed(&c, CAPTURE_STDERR, "ing\n", 4);
	capture_end(&c);
	CHECK(capture_value(&c, 0, &v, why, sizeof(why)) == 1);
	CHECK(v == 1234.5);
	CHECK(capture_value(&c, 1, &v, why, sizeof(why)) == 1);
	CHECK(v == 1);
	CHECK(capture_value(&c, 2, &v, why, sizeof(why)) == 1);
	CHECK(v == 2);
	capture_free(&c);
	/* either stream: the last line to end wins, whichever stream */
	capture_init(&c, m, 1);
	capture_feed(&c, CAPTURE_STDERR, "throughput: 5", 13);
	capture_feed(&c, CAPTURE_STDOUT, "throughput: 6\n", 14);
	capture_feed(&c, CAPTURE_STDERR, "\n", 1);
	capture_end(&c);
	CHECK(capture_value(&c, 0, &v, why, sizeof(why)) == 1);
	CHECK(v == 5);
	capture_free(&c);
	for (int i = 0; i < 3; i++)
		metric_free(&m[i]);
}

/* A line over CAPTURE_LINE_MAX is matched in pieces, the lines after it
 * whole; byte by byte gives what one piece gives. */
static void capture_long_lines(void)
{
	struct metric m;
	char why[400];
	double v = 0, w = 0;
	CHECK(metric_parse("loss=loss ([0-9.]+)", &m, why, sizeof(why)) == 0);
	size_t n = 3 * CAPTURE_LINE_MAX;
	char *text = malloc(n + 32);
	memset(text, 'x', n);
	memcpy(text + n, "\nloss 5\n", 9);
	CHECK(capture_text(&m, text, n + 8, &v, why, sizeof(why)) == 1);
	CHECK(v == 5);
	struct capture c;
	capture_init(&c, &m, 1);
	for (size_t i = 0; i < n + 8; i++)
		capture_feed(&c, CAPTURE_STDOUT, text + i, 1);
	capture_end(&c);
	CHECK(capture_value(&c, 0, &w, why, sizeof(why)) == 1);
	CHECK(w == v);
	capture_free(&c);
	free(text);
	metric_free(&m);
}

/* Through a backlog stepped a slice at a time, with the streams' ends
 * queued in place, the figures are those of feeding directly. */
static void backlog_order(void)
{
	struct metric m;
	char why[400];
	double v = 0;
	CHECK(metric_parse("loss=loss ([0-9.]+)", &m, why, sizeof(why)) == 0);
	struct capture c;
	struct backlog q;
	capture_init(&c, &m, 1);
	backlog_init(&q);
	backlog_add(&q, CAPTURE_STDOUT, "loss 1\nloss 2", 13);
	backlog_add(&q, CAPTURE_STDERR, "loss 3\n", 7);
	backlog_step(&q, &c);
	backlog_end(&q, CAPTURE_STDOUT);	/* "loss 2" ends here */
	backlog_add(&q, CAPTURE_STDOUT, "loss 4", 6);	/* after the end: a new line */
	CHECK(!backlog_empty(&q));
	backlog_flush(&q, &c);
	CHECK(backlog_empty(&q) && backlog_waiting(&q) == 0);
	capture_end(&c);
	CHECK(capture_value(&c, 0, &v, why, sizeof(why)) == 1);
	CHECK(v == 4);
	capture_free(&c);
	backlog_free(&q);
	metric_free(&m);
}

/* Back-references are not ERE (and exponential): refused, located by
 * character; a backslash-digit inside brackets is a plain class. */
static void backreferences(void)
{
	struct metric m;
	char why[400];
	CHECK(metric_parse("x:lower=(a*)*\\1b([0-9])", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "back-reference '\\1' (character 6)");
	CHECK(metric_parse("x:lower=([\\1]+)", &m, why, sizeof(why)) == 0);
	metric_free(&m);
	CHECK(metric_parse("x:lower=(\\\\1)", &m, why, sizeof(why)) == 0);
	metric_free(&m);
}

static void qualifiers(void)
{
	struct metric m;
	char why[400];
	CHECK(metric_parse("loss:stderr:lower=l ([0-9]+)", &m, why, sizeof(why)) == 0);
	CHECK(m.stream == METRIC_STDERR && m.better == BETTER_LOWER);
	metric_free(&m);
	CHECK(metric_parse("loss=l ([0-9]+)", &m, why, sizeof(why)) == 0);
	CHECK(m.stream == METRIC_ANY_STREAM);
	metric_free(&m);
	CHECK(metric_parse("loss:stderr:stdout=l ([0-9]+)", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "found ':stdout'");
	CHECK(metric_parse("loss:lower:higher=l ([0-9]+)", &m, why, sizeof(why)) < 0);
	CHECK(metric_parse("widgets:stdout=l ([0-9]+)", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "not clear from the name");
	CHECK(metric_parse("loss:=l ([0-9]+)", &m, why, sizeof(why)) < 0);
	CHECK(metric_parse("wall_time_s:lower:stdout=(1)", &m, why, sizeof(why)) < 0);
	CHECK_HAS(why, "recorded for every run already");
}

static void exec_cases(void)
{
	char why[200];
	CHECK(exec_findable("sh", why, sizeof(why)));
	CHECK(!exec_findable("gpuplan-no-such-command", why, sizeof(why)));
	CHECK_STR(why, "command not found");
	CHECK(!exec_findable("./no/such/path", why, sizeof(why)));

	struct exec_result r;
	struct metric m[2];
	CHECK(metric_parse("o:lower:stdout=^(out)$", &m[0], why, sizeof(why)) == 0);
	CHECK(metric_parse("e:lower:stderr=^(err)$", &m[1], why, sizeof(why)) == 0);
	struct capture c;
	capture_init(&c, m, 2);
	char *both[] = {"sh", "-c", "echo out; echo err >&2; exit 3", NULL};
	CHECK(exec_run(both, &c, &r, why, sizeof(why)) == 0);
	CHECK(r.exit_code == 3 && !r.signaled && exec_failed(&r));
	CHECK(c.hits[0].found && c.hits[1].found);
	CHECK_STR(r.stderr_tail, "err\n");
	CHECK(!r.output_held && !r.interrupted);
	capture_free(&c);
	metric_free(&m[0]);
	metric_free(&m[1]);

	char *killed[] = {"sh", "-c", "kill -9 $$", NULL};
	CHECK(exec_run(killed, NULL, &r, why, sizeof(why)) == 0);
	CHECK(r.signaled && r.signal == 9 && exec_failed(&r));

	/* both pipes full at once: 1 MiB on each, no deadlock */
	char *flood[] = {"sh", "-c",
		"head -c 1048576 /dev/zero | tr '\\0' a & head -c 1048576 /dev/zero | tr '\\0' b >&2; wait",
		NULL};
	CHECK(exec_run(flood, NULL, &r, why, sizeof(why)) == 0);
	CHECK(r.exit_code == 0);
	CHECK(strlen(r.stderr_tail) == EXEC_TAIL_BYTES);

	char *missing[] = {"gpuplan-no-such-command", NULL};
	CHECK(exec_run(missing, NULL, &r, why, sizeof(why)) == 0);
	CHECK(r.exec_failed && exec_failed(&r));
}

/* The time is the command's own: a background child holding the pipes
 * for 3 s neither counts nor keeps the run waiting. */
static void exec_background_child(void)
{
	char why[200];
	struct exec_result r;
	char *held[] = {"sh", "-c", "sleep 3 & echo started", NULL};
	CHECK(exec_run(held, NULL, &r, why, sizeof(why)) == 0);
	CHECK(r.exit_code == 0 && r.output_held);
	CHECK(r.wall_s < 1.5);
}

/*
 * The command starts with default signal actions and nothing blocked,
 * though gpuplan ignores SIGXFSZ and this test blocks SIGUSR1: the shell
 * exits 0 only when bit 25 (SIGXFSZ, the seventh hex digit from the
 * right) of SigIgn is clear and SigBlk is all zeros.
 */
static void exec_child_signals(void)
{
	char why[200];
	struct exec_result r;
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	sigset_t usr1, old;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old);
	char *probe[] = {"sh", "-c",
		"grep -q '^SigBlk:[[:space:]]*0*$' /proc/$$/status && "
		"awk '/^SigIgn/ { d = substr($2, length($2) - 6, 1); exit (d ~ /[13579bdf]/) }' /proc/$$/status",
		NULL};
	CHECK(exec_run(probe, NULL, &r, why, sizeof(why)) == 0);
	CHECK(r.exit_code == 0 && !r.signaled);
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGXFSZ, was);
}

/* SIGTERM to gpuplan during a run goes to the command's group; the run
 * returns once the command has ended, saying so, and the test process's
 * own SIGTERM action is back as it was. */
static void exec_signal_passed_on(void)
{
	char why[200];
	struct exec_result r;
	char *term[] = {"sh", "-c", "kill -TERM $PPID; sleep 5; echo late", NULL};
	CHECK(exec_run(term, NULL, &r, why, sizeof(why)) == 0);
	CHECK(r.interrupted == SIGTERM);
	CHECK(r.signaled && r.signal == SIGTERM);
	CHECK(r.wall_s < 4);
	struct sigaction now;
	sigaction(SIGTERM, NULL, &now);
	CHECK(now.sa_handler == SIG_DFL);
}

static void fill(struct run_record *rec)
{
	char why[200];
	run_record_init(rec);
	snprintf(rec->tool_version, sizeof(rec->tool_version), "1.0");
	snprintf(rec->when, sizeof(rec->when), "2026-12-02T10:00:00Z");
	rec->argc = 2;
	rec->argv = calloc(3, sizeof(char *));
	rec->argv[0] = strdup("printf");
	rec->argv[1] = strdup("loss \"1\"\n\t\x1b");
	snprintf(rec->hostname, sizeof(rec->hostname), "h");
	snprintf(rec->kernel, sizeof(rec->kernel), "Linux 6 x86_64");
	rec->gpu = true;
	snprintf(rec->gpu_name, sizeof(rec->gpu_name), "Fake GPU");
	rec->samples.interval_s = 0.1;
	rec->metrics = calloc(2, sizeof(struct metric));
	CHECK(metric_parse("loss=loss ([0-9.]+)", &rec->metrics[0], why, sizeof(why)) == 0);
	CHECK(metric_parse("tput:higher=t ([0-9.]+)", &rec->metrics[1], why, sizeof(why)) == 0);
	rec->n_metrics = 2;
	struct run_one *u = run_record_add(rec);
	u->warmup = true;
	u->wall_s = 0.5;
	u->present[0] = true, u->value[0] = 1.5;
	u->present[1] = true, u->value[1] = -2;
	u = run_record_add(rec);
	u->signaled = true, u->signal = 9, u->wall_s = 0.25;
	u->stderr_tail = strdup("killed\n");
	struct gpu_sample s = {.t_s = 0.1, .util_gpu_pct = 50, .power_w = 300,
		.throttle = GPU_THROTTLE_SW_POWER_CAP,
		.valid = GPU_SAMPLE_UTILIZATION | GPU_SAMPLE_POWER | GPU_SAMPLE_THROTTLE};
	snprintf(s.during, sizeof(s.during), "run 1");
	gpu_samples_push(&rec->samples, &s);
	run_gpu_summarise(&rec->samples, "run 1", &u->gpu);
}

static char *render(const struct run_record *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	run_record_emit(r, f);
	fclose(f);
	return buf;
}

static void round_trip(void)
{
	struct run_record a, b;
	fill(&a);
	CHECK(a.runs[1].gpu.samples == 1 && a.runs[1].gpu.util_mean_pct == 50);
	CHECK(!run_counts(&a.runs[0]) && !run_counts(&a.runs[1]));
	size_t n1, n2;
	char *t1 = render(&a, &n1);
	struct gp_errors errs;
	gp_errors_init(&errs);
	int rc = run_record_parse(&b, "a.yaml", t1, n1, &errs);
	if (rc)
		gp_errors_print(&errs, stderr);
	CHECK(rc == 0);
	char *t2 = render(&b, &n2);
	CHECK(n1 == n2 && memcmp(t1, t2, n1) == 0);
	CHECK_STR(b.argv[1], "loss \"1\"\n\t\\x1b");	/* spelt out, not raw */
	CHECK(b.runs[1].signaled && b.runs[1].signal == 9);
	CHECK(b.runs[0].value[1] == -2);
	CHECK(b.runs[1].gpu.throttle_seen == GPU_THROTTLE_SW_POWER_CAP);
	free(t1);
	free(t2);
	run_record_free(&a);
	run_record_free(&b);
	gp_errors_free(&errs);
}

/* Hours of samples thin to every k-th, said in the record, read back. */
static void thinning(void)
{
	struct run_record a, b;
	fill(&a);
	for (size_t i = 0; i < 45000; i++) {
		struct gpu_sample s = {.t_s = 0.1 * (double)i, .power_w = 100,
				       .valid = GPU_SAMPLE_POWER};
		gpu_samples_push(&a.samples, &s);
	}
	run_record_thin_samples(&a);
	/* 45,001 samples: every 3rd, the first kept */
	CHECK(a.samples_every == 3 && a.samples.n == 15001);
	CHECK(a.samples.v[1].t_s == 0.1 * 2);
	size_t n;
	char *t = render(&a, &n);
	CHECK_HAS(t, "  samples_every: 3\n");
	struct gp_errors errs;
	gp_errors_init(&errs);
	CHECK(run_record_parse(&b, "a.yaml", t, n, &errs) == 0);
	CHECK(b.samples_every == 3 && b.samples.n == 15001);
	free(t);
	run_record_free(&a);
	run_record_free(&b);
	gp_errors_free(&errs);
}

/* A located message for each kind of mistake. */
static void bad_records(void)
{
	static const struct { const char *text, *want; } t[] = {
		{"schema: gpuplan/run/v2\n", "a.yaml:1:9: expected 'schema: gpuplan/run/v1', found 'gpuplan/run/v2'"},
		{"schema: gpuplan/run/v1\ntool_version: \"1\"\nwhen: \"x\"\ncommand: [a]\n"
		 "host: {hostname: h, kernel: k}\ngpu: {absent: none}\nmetrics: []\n"
		 "runs:\n  - warmup: false\n    exit_code: 0\n    signal: 9\n    wall_time_s: 1\n",
		 "a.yaml:9:5: a run needs exactly one of 'exit_code' and 'signal'"},
		{"schema: gpuplan/run/v1\ntool_version: \"1\"\nwhen: \"x\"\ncommand: [a]\n"
		 "host: {hostname: h, kernel: k}\ngpu: {absent: none}\n"
		 "metrics: [{name: loss, better: lower, regex: \"l ([0-9]+)\"}]\n"
		 "runs:\n  - warmup: false\n    exit_code: 0\n    wall_time_s: 1\n",
		 "run neither measures nor lists as missing metric 'loss'"},
		{"schema: gpuplan/run/v1\ntool_version: \"1\"\nwhen: \"x\"\ncommand: [a]\n"
		 "host: {hostname: h, kernel: k}\ngpu: {absent: none}\nmetrics: []\n"
		 "runs:\n  - warmup: false\n    exit_code: 0\n    wall_time_s: -1\n",
		 "a.yaml:11:18: 'wall_time_s' must be zero or more"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct run_record r;
		struct gp_errors errs;
		gp_errors_init(&errs);
		CHECK(run_record_parse(&r, "a.yaml", t[i].text, strlen(t[i].text), &errs) < 0);
		char msg[400] = "";
		if (errs.n)
			gp_error_format(&errs.v[0], msg, sizeof(msg));
		CHECK_HAS(msg, t[i].want);
		run_record_free(&r);
		gp_errors_free(&errs);
	}
}

int main(void)
{
	infer();
	parse();
	regex_size();
	capture();
	capture_streams();
	capture_long_lines();
	backlog_order();
	backreferences();
	qualifiers();
	exec_cases();
	exec_background_child();
	exec_child_signals();
	exec_signal_passed_on();
	round_trip();
	thinning();
	bad_records();
	return check_summary("run");
}

/*
 * test_trace.c - recorded request traces (src/workload/trace.h): our
 * columns, BurstGPT's and Azure's, date-times worked by hand, every
 * refusal with its place; and a trace as the simulations replay it
 * (src/serve/sim_stats.h, src/serve/dbatch.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "core/error.h"
#include "serve/dbatch.h"
#include "serve/sim_stats.h"
#include "workload/trace.h"

static char dir[] = "/tmp/gpuplan-trace.XXXXXX";

/* Loads `text` as a trace file; 0 or -1, with the first problem in msg. */
static int load(const char *text, struct request_trace *t, char *msg,
		size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	FILE *f = fopen(path, "wb");
	fputs(text, f);
	fclose(f);
	struct gp_errors errs;
	gp_errors_init(&errs);
	int rc = request_trace_load(t, path, "t.csv", &errs);
	msg[0] = '\0';
	if (errs.n > 0)
		gp_error_format(&errs.v[0], msg, len);
	gp_errors_free(&errs);
	return rc;
}

/* Our own columns: the rate over the span, lengths summarised. */
static void own_columns(void)
{
	struct request_trace t;
	char msg[512];
	CHECK(load("# a comment\n"
		   "arrival_s,prompt_tokens,output_tokens\r\n"
		   "10.0,100,20\r\n"
		   "\n"
		   "10.5, 300 ,40\n"
		   "12.0,\"200\",30\n", &t, msg, sizeof(msg)) == 0);
	CHECK(t.n == 3);
	CHECK_NEAR(t.arrival[0], 0, 0);
	CHECK_NEAR(t.arrival[1], 0.5, 1e-12);
	CHECK_NEAR(t.span, 2.0, 1e-12);
	CHECK_NEAR(t.rate, 1.0, 1e-12);	/* 2 gaps over 2 s */
	CHECK_NEAR(t.prompt_mean, 200, 1e-12);
	CHECK(t.prompt_range[0] == 100 && t.prompt_range[1] == 300);
	CHECK_NEAR(t.output_mean, 30, 1e-12);
	CHECK(t.output_range[0] == 20 && t.output_range[1] == 40);
	CHECK(t.longest == 340);
	request_trace_free(&t);
}

/* BurstGPT's header (Model and Log Type skipped), lengths only. */
static void burstgpt_and_lengths_only(void)
{
	struct request_trace t;
	char msg[512];
	CHECK(load("Timestamp,Model,Request tokens,Response tokens,Total tokens,Log Type\n"
		   "5,ChatGPT,472,18,490,Conversation log\n"
		   "45,ChatGPT,1087,230,1317,Conversation log\n"
		   "118,GPT-4,417,276,693,Conversation log\n", &t, msg,
		   sizeof(msg)) == 0);
	CHECK(t.n == 3 && t.arrival && t.prompt && t.output);
	CHECK_NEAR(t.span, 113, 1e-12);
	CHECK(t.longest == 1317);
	request_trace_free(&t);
	CHECK(load("prompt_tokens\n7\n9\n", &t, msg, sizeof(msg)) == 0);
	CHECK(!t.arrival && !t.output && t.n == 2 && t.rate == 0);
	CHECK(t.longest == 9);
	request_trace_free(&t);
}

/*
 * Azure's date-times: 23:59:59.5 to 00:00:00.25 the next day is 0.75 s;
 * 2024-02-28 23:00 to 2024-03-01 01:00 crosses the leap day, 26 h.
 */
static void azure_datetimes(void)
{
	struct request_trace t;
	char msg[512];
	CHECK(load("TIMESTAMP,ContextTokens,GeneratedTokens\n"
		   "2023-11-16 23:59:59.5000000,4808,10\n"
		   "2023-11-17 00:00:00.2500000,3180,8\n", &t, msg,
		   sizeof(msg)) == 0);
	CHECK_NEAR(t.arrival[1], 0.75, 1e-9);
	request_trace_free(&t);
	CHECK(load("arrival_s\n2024-02-28T23:00:00Z\n2024-03-01T01:00:00Z\n",
		   &t, msg, sizeof(msg)) == 0);
	CHECK_NEAR(t.arrival[1], 26 * 3600.0, 1e-12);
	request_trace_free(&t);
}

/*
 * Azure's 2024 traces give each time an offset from UTC
 * ("2024-05-10 00:00:00.009930+00:00"): read as UTC, so rows written in
 * different offsets still order and space by the true moment.  23:30 at
 * -01:00 is 00:30 UTC the next day, an hour after 23:30 UTC; 'Z' is +00:00.
 */
static void datetime_offsets(void)
{
	struct request_trace t;
	char msg[512];
	CHECK(load("TIMESTAMP,ContextTokens,GeneratedTokens\n"
		   "2024-05-10 00:00:00.009930+00:00,2162,5\n"
		   "2024-05-10 00:00:00.016826+00:00,2399,7\n"
		   "2024-05-10 05:30:00.509930+05:30,2399,7\n", &t, msg,
		   sizeof(msg)) == 0);
	CHECK_NEAR(t.arrival[1], 0.006896, 1e-9);
	CHECK_NEAR(t.arrival[2], 0.5, 1e-9);
	request_trace_free(&t);
	CHECK(load("arrival_s\n2024-05-10T23:30:00Z\n2024-05-10 23:30:00-01:00\n"
		   "2024-05-11 14:30:00+14:00\n", &t, msg, sizeof(msg)) == 0);
	CHECK_NEAR(t.arrival[1], 3600, 1e-9);
	CHECK_NEAR(t.arrival[2], 3600, 1e-9);
	request_trace_free(&t);
}

/* A CSV saved with UTF-8's byte-order mark (Excel's "CSV UTF-8") reads
 * as one without: the mark is not part of the first column's name. */
static void byte_order_mark(void)
{
	struct request_trace t;
	char msg[512];
	CHECK(load("\xef\xbb\xbf" "arrival_s,prompt_tokens\n1,10\n2,20\n", &t, msg,
		   sizeof(msg)) == 0);
	CHECK(t.n == 2 && t.arrival && t.prompt);
	CHECK_NEAR(t.rate, 1.0, 1e-12);
	request_trace_free(&t);
}

/* A file that is not a trace (trace: /etc/passwd) is refused at 1:1
 * with nothing of its content in the message. */
static void not_a_trace_quotes_nothing(void)
{
	struct request_trace t;
	char msg[512];
	CHECK(load("root:x:0:0:root:/root:/bin/bash\nSECRET_TOKEN=abc123\n", &t, msg,
		   sizeof(msg)) == -1);
	CHECK_HAS(msg, "t.csv:1:1: not a request trace");
	CHECK(strstr(msg, "root") == NULL && strstr(msg, "SECRET") == NULL);
	request_trace_free(&t);
}

/* Each refusal, where it is and what it says. */
static void refusals(void)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"arrival_s\n1\n0.5\n",
		 "t.csv:3:1: arrival '0.5' is earlier than a row above it"},
		{"prompt_tokens,output_tokens\n10,0\n",
		 "t.csv:2:4: output tokens: expected a whole number of tokens from 1 to 100000000, found '0' (a failed request?"},
		{"prompt_tokens\n10.5\n",
		 "t.csv:2:1: prompt tokens: expected a whole number"},
		{"arrival_s\n2023-02-29 00:00:00\n",
		 "t.csv:2:1: arrival: expected seconds (a number) or a date-time"},
		{"arrival_s\n2023-02-28 00:00:00\n7\n",
		 "t.csv:3:1: arrival: expected a date-time 'YYYY-MM-DD HH:MM:SS[.frac][+HH:MM]' as the first row's, found '7'"},
		{"arrival_s,prompt_tokens\n1,2,3\n",
		 "t.csv:2:1: expected 2 fields, as the header has, found 3"},
		{"arrival_s,promt_tokens\n1,2\n",
		 "t.csv:1:11: unknown column 'promt_tokens'"},
		{"when,what\n1,2\n",
		 "t.csv:1:1: not a request trace: expected a header row naming its columns (a trace is CSV whose header row names one or more of arrival_s"},
		{"arrival_s,timestamp\n1,2\n",
		 "t.csv:1:11: column 'timestamp' says again what column 'arrival_s' says"},
		{"prompt_tokens\n\"12\n",
		 "t.csv:2:1: a quoted field runs past the end of the line"},
		{"arrival_s\n5\n",
		 "t.csv: the arrivals span no time (one row)"},
		{"arrival_s\n5\n5\n",
		 "t.csv: the arrivals span no time (every row at one instant)"},
		{"arrival_s\n", "t.csv: expected rows of requests below the header"},
		{"", "t.csv: expected a header row naming the columns"},
		{"# only\n\n", "t.csv: expected a header row naming the columns (arrival_s, prompt_tokens, output_tokens), found only blank lines"},
		{"arrival_s\n1e400\n", "t.csv:2:1: arrival: expected seconds"},
		{"prompt_tokens\n\"5\"junk\n", "t.csv:2:1: prompt tokens: expected a whole number"},
		{"prompt_tokens\n0x10\n", "t.csv:2:1: prompt tokens: expected a whole number"},
		{"arrival_s\n2024-01-01 00:00:00.0000000000000000000000000000000000000000000000000001x\n1\n",
		 "t.csv:2:1: arrival: expected seconds (a number) or a date-time"},
		{"prompt_tokens_and_a_very_long_name_past_what_a_field_holds_of_sixty_four_bytes\n1\n",
		 "t.csv:1:1: not a request trace"},
		/* offsets past the world's time zones, or not HH:MM */
		{"arrival_s\n2024-05-10 00:00:00+15:00\n2024-05-10 00:00:01+15:00\n",
		 "t.csv:2:1: arrival: expected seconds (a number) or a date-time 'YYYY-MM-DD HH:MM:SS[.frac][+HH:MM]', found '2024-05-10 00:00:00+15:00'"},
		{"arrival_s\n2024-05-10 00:00:00-00:60\n2024-05-10 00:00:01\n",
		 "t.csv:2:1: arrival: expected seconds"},
		{"arrival_s\n2024-05-10 00:00:00Z+01:00\n2024-05-10 00:00:01\n",
		 "t.csv:2:1: arrival: expected seconds"},
		{"arrival_s\n2024-05-10 00:00:00+0100\n2024-05-10 00:00:01\n",
		 "t.csv:2:1: arrival: expected seconds"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct request_trace t;
		char msg[512];
		CHECK(load(cases[i].text, &t, msg, sizeof(msg)) == -1);
		CHECK_HAS(msg, cases[i].want);
		request_trace_free(&t);
	}
	/* a NUL byte, at its line and column */
	char path[64];
	snprintf(path, sizeof(path), "%s/nul.csv", dir);
	FILE *f = fopen(path, "wb");
	fwrite("arrival_s\n12\0", 1, 13, f);
	fclose(f);
	struct gp_errors errs;
	gp_errors_init(&errs);
	struct request_trace t;
	CHECK(request_trace_load(&t, path, "nul.csv", &errs) == -1);
	char msg[512];
	gp_error_format(&errs.v[0], msg, sizeof(msg));
	CHECK_HAS(msg, "nul.csv:2:3: a NUL byte");
	gp_errors_free(&errs);
	request_trace_free(&t);
}

/*
 * Replay: rows at 0, 1, 2, 3 s dealt to 2 replicas, at twice the trace's
 * rate, give replica 0 rows 0 and 2 at 0 and 1 s; looped, the next lap
 * starts one mean gap (0.5 s after scaling) past the span: 2 and 3 s.
 */
static void replay(void)
{
	double arrival[] = {0, 1, 2, 3};
	long prompt[] = {10, 20, 30, 40};
	struct sim_trace t = {.arrival = arrival, .prompt = prompt, .n = 4,
			      .span = 3, .stride = 2, .time_scale = 0.5};
	CHECK(sim_trace_share(&t) == 2);
	double at[5];
	sim_trace_arrivals(at, 5, &t);
	CHECK_NEAR(at[0], 0, 0);
	CHECK_NEAR(at[1], 1, 1e-12);
	CHECK_NEAR(at[2], 2, 1e-12);
	CHECK_NEAR(at[3], 3, 1e-12);
	CHECK_NEAR(at[4], 4, 1e-12);
	long p[3] = {0}, o[3] = {7, 7, 7};
	sim_trace_lengths(p, o, 3, &t, 1);
	CHECK(p[0] == 10 && p[1] == 30 && p[2] == 10);
	CHECK(o[0] == 7);	/* no output column: left alone */
	/* 3 rows at 0, 1 and 2 s over 2 replicas: the looped trace's
	 * requests at 0, 1, 2, 3, ... s (laps 3 s apart), and replica 0 gets
	 * every other one: 0, 2, 4, 6 s, rows 0, 2, 1, 0 */
	double three[] = {0, 1, 2};
	long p3[] = {1, 2, 3}, l3[4];
	struct sim_trace u = {.arrival = three, .prompt = p3, .n = 3, .span = 2,
			      .stride = 2, .time_scale = 1};
	sim_trace_arrivals(at, 4, &u);
	CHECK_NEAR(at[1], 2, 1e-12);
	CHECK_NEAR(at[2], 4, 1e-12);
	CHECK_NEAR(at[3], 6, 1e-12);
	sim_trace_lengths(l3, NULL, 4, &u, 1);
	CHECK(l3[0] == 1 && l3[1] == 3 && l3[2] == 2 && l3[3] == 1);
	/* without arrivals, rows are drawn: every one from the trace */
	t.arrival = NULL;
	long drawn[1000];
	sim_trace_lengths(drawn, drawn, 1000, &t, 3);
	long seen[4] = {0};
	for (int i = 0; i < 1000; i++)
		seen[drawn[i] / 10 - 1]++;
	CHECK(seen[0] > 150 && seen[1] > 150 && seen[2] > 150 && seen[3] > 150);
}

static double one_ms(long b, void *ctx)
{
	(void)b;
	(void)ctx;
	return 1e-3;
}

/*
 * The batcher on a trace: requests 10 ms apart, 1 ms each, never wait
 * (every latency exactly 1 ms), where Poisson arrivals at the same rate
 * sometimes collide; a burst of 5 at one instant is one batch of 5.
 */
static void batcher_on_trace(void)
{
	double arrival[100];
	for (int i = 0; i < 100; i++)
		arrival[i] = i * 0.01;
	struct sim_trace t = {.arrival = arrival, .n = 100, .span = 0.99,
			      .stride = 1, .time_scale = 1};
	struct dbatch_config c = {8, 0};
	struct dbatch_load l = {.rate = 100, .requests = 100, .seed = 1,
				.trace = &t};
	struct dbatch_result r;
	CHECK(dbatch_simulate(&c, &l, one_ms, NULL, &r) == 0);
	CHECK_NEAR(r.latency.p99, 1e-3, 1e-12);
	CHECK_NEAR(r.latency.p50, 1e-3, 1e-12);
	l.trace = NULL;
	CHECK(dbatch_simulate(&c, &l, one_ms, NULL, &r) == 0);
	CHECK(r.latency.p99 > 1e-3);
	double burst[25];
	for (int i = 0; i < 25; i++)
		burst[i] = (double)(i / 5);	/* 5 at each of 0..4 s */
	t = (struct sim_trace){.arrival = burst, .n = 25, .span = 4,
			       .stride = 1, .time_scale = 1};
	l = (struct dbatch_load){.rate = 5, .requests = 25, .seed = 1,
				 .trace = &t};
	CHECK(dbatch_simulate(&c, &l, one_ms, NULL, &r) == 0);
	/* each instant's five arrive together and go as one batch */
	CHECK_NEAR(r.latency.p99, 1e-3, 1e-12);
	CHECK_NEAR(r.mean_batch, 5, 1e-12);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	own_columns();
	burstgpt_and_lengths_only();
	datetime_offsets();
	byte_order_mark();
	not_a_trace_quotes_nothing();
	azure_datetimes();
	refusals();
	replay();
	batcher_on_trace();
	char path[64];
	snprintf(path, sizeof(path), "%s/t.csv", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/nul.csv", dir);
	unlink(path);
	rmdir(dir);
	return check_summary("trace");
}

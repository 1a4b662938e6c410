/*
 * test_diagnose.c - `gpuplan diagnose`'s parts: nvidia-smi's date-times
 * (core/utc_time.h), the log reader (src/diagnose/smi_log.h) on values
 * worked by hand, and each detector (src/diagnose/findings.h) on a
 * series whose figures are worked by hand.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/error.h"
#include "core/utc_time.h"
#include "diagnose/findings.h"
#include "diagnose/smi_log.h"

/* 2017-03-19 is day 17244 from 1970-01-01; 17:32:29.613 is 63149.613 s. */
static void civil_times(void)
{
	long days;
	double sec;
	CHECK(utc_civil_parse("2017/03/19 17:32:29.613", '/', &days, &sec));
	CHECK(days == 17244);
	CHECK_NEAR(sec, 63149.613, 1e-12);
	CHECK(!utc_civil_parse("2017-03-19 17:32:29", '/', &days, &sec));
	CHECK(!utc_civil_parse("2017/02/29 00:00:00", '/', &days, &sec));
	CHECK(utc_civil_parse("2016/02/29 23:59:59", '/', &days, &sec));
	char buf[40];
	utc_civil_format(17244, 63149.613, '/', buf, sizeof(buf));
	CHECK_STR(buf, "2017/03/19 17:32:29.613");
	utc_civil_format(17244, 86400.5, '/', buf, sizeof(buf));	/* carried */
	CHECK_STR(buf, "2017/03/20 00:00:00.500");
}

/* Parses text; the first problem (or "") into msg. */
static int parse(const char *text, const char *query, struct smi_log *log,
		 char *msg, size_t len)
{
	struct gp_errors errs;
	gp_errors_init(&errs);
	smi_log_init(log);
	int rc = smi_log_parse(log, text, strlen(text), "x.csv", query, 0, &errs);
	msg[0] = '\0';
	if (errs.n)
		gp_error_format(&errs.v[0], msg, len);
	gp_errors_free(&errs);
	return rc;
}

static void reader(void)
{
	struct smi_log log;
	char msg[400];
	CHECK(parse("timestamp, index, utilization.gpu [%], memory.used [MiB], clocks.current.sm [MHz], power.draw [W], clocks_event_reasons.active\n"
		    "2017/03/19 17:32:29.613, 0, 45 %, 1234 MiB, 1410 MHz, 250.50 W, 0x0000000000000024\n"
		    "2017/03/19 17:32:29.613, 1, [N/A], [N/A], 1410 MHz, [N/A], 0x0000000000000000\n"
		    "timestamp, index, utilization.gpu [%], memory.used [MiB], clocks.current.sm [MHz], power.draw [W], clocks_event_reasons.active\n"
		    "2017/03/19 17:32:30.113, 0, 46 %, 1234 MiB, 1410 MHz, 250.50 W, 0x0000000000000000\n",
		    NULL, &log, msg, sizeof(msg)) == 0);
	CHECK_STR(msg, "");
	CHECK(log.n == 2 && log.rows == 3);
	const struct sample_series *a = &log.gpu[0].s, *b = &log.gpu[1].s;
	CHECK(a->n == 2 && log.gpu[0].index == 0);
	CHECK_NEAR(series_get(a, SC_UTIL, 0), 45, 0);
	CHECK_NEAR(series_get(a, SC_MEM_USED, 0), 1234.0 * 1048576, 0);
	CHECK_NEAR(series_get(a, SC_SM_CLOCK, 0), 1.41e9, 1e-15);
	CHECK_NEAR(series_get(a, SC_POWER, 0), 250.5, 0);
	CHECK(series_throttle(a, 0) == (GPU_THROTTLE_SW_POWER_CAP | GPU_THROTTLE_SW_THERMAL));
	CHECK(series_has_throttle(a, 0));
	CHECK_NEAR(a->t_s[1], 0.5, 1e-9);
	/* [N/A]: absent, never 0 */
	CHECK(!series_has(b, SC_UTIL, 0) && !series_has(b, SC_MEM_USED, 0) &&
	      !series_has(b, SC_POWER, 0));
	CHECK(series_has(b, SC_SM_CLOCK, 0));
	/* a field the log lacks takes no memory */
	CHECK(a->col[SC_TEMP] == NULL && a->col[SC_POWER_LIMIT] == NULL);
	smi_log_free(&log);

	/* nounits, an older driver's names, noheader with --query */
	CHECK(parse("2017/03/19 17:32:29.613, 45, Active\n", "timestamp,utilization.gpu,clocks_throttle_reasons.hw_thermal_slowdown",
		    &log, msg, sizeof(msg)) == 0);
	CHECK(log.n == 1 && series_throttle(&log.gpu[0].s, 0) == GPU_THROTTLE_HW_THERMAL);
	CHECK(log.gpu[0].reasons_read == GPU_THROTTLE_HW_THERMAL);
	smi_log_free(&log);

	/* refusals, each with its place */
	CHECK(parse("timestamp, utilization.gpu [%]\n2017/03/19 17:32:29.613, 45 MiB\n",
		    NULL, &log, msg, sizeof(msg)) < 0);
	CHECK_STR(msg, "x.csv:2:26: expected a percentage like '45 %' (0 to 100), found '45 MiB'");
	smi_log_free(&log);
	CHECK(parse("timestamp, utilization.gpu [%]\n2017/03/19 17:32:29.613, 101 %\n",
		    NULL, &log, msg, sizeof(msg)) < 0);
	CHECK_HAS(msg, "found '101 %'");
	smi_log_free(&log);
	CHECK(parse("timestamp, utilization.gpu [%]\n2017/03/19 17:32:29.613, 45 %\n2017/03/19 17:32:30",
		    NULL, &log, msg, sizeof(msg)) < 0);
	CHECK_STR(msg, "x.csv:3:1: expected 2 fields as the header has, found 1 (the log ends mid-line: cut short while nvidia-smi wrote it?)");
	CHECK(log.rows == 1);	/* what could be read is kept */
	smi_log_free(&log);
	CHECK(parse("utilization.gpu [%]\n45 %\n", NULL, &log, msg, sizeof(msg)) < 0);
	CHECK_HAS(msg, "expected a timestamp field, found none");
	smi_log_free(&log);
}

/* n samples a second apart, utilisation u(i), everything else steady. */
static void series(struct gpu_samples *s, size_t n, double (*u)(size_t))
{
	gpu_samples_init(s);
	for (size_t i = 0; i < n; i++) {
		struct gpu_sample x;
		memset(&x, 0, sizeof(x));
		x.t_s = (double)i;
		x.util_gpu_pct = u(i);
		x.sm_clock_hz = 1.98e9;
		x.mem_used_bytes = 70.0 * 1073741824;
		x.mem_total_bytes = 80.0 * 1073741824;
		x.valid = GPU_SAMPLE_UTILIZATION | GPU_SAMPLE_SM_CLOCK | GPU_SAMPLE_MEMORY;
		gpu_samples_push(s, &x);
	}
}

static double u40(size_t i) { (void)i; return 40; }
static double beat(size_t i) { return i % 5 == 4 ? 0 : 100; }
static double gaps(size_t i) { return i >= 10 && i < 25 ? 0 : 100; }

static const struct diagnose_context plain = {false, NAN, NAN, 0, NULL, NULL};

static void detectors(void)
{
	struct gpu_samples s;
	struct gpu_diagnosis d;
	/* 40 % for 10 s: low, 6 GPU-s lost */
	series(&s, 10, u40);
	diagnose_gpu(&s, &plain, &d);
	CHECK(d.n == 1 && d.f[0].kind == FIND_LOW_UTILIZATION && d.f[0].severity == SEV_WARNING);
	CHECK_NEAR(d.util_mean, 0.4, 1e-12);
	CHECK_NEAR(d.f[0].lost_s, 6, 1e-12);
	gpu_diagnosis_free(&d);
	gpu_samples_free(&s);
	/* a 1 s drop every 5 s for 40 s: 8 drops, period 5 s; 80 % mean */
	series(&s, 40, beat);
	diagnose_gpu(&s, &plain, &d);
	CHECK(d.n == 1 && d.f[0].kind == FIND_HEARTBEAT);
	CHECK_NEAR(d.heartbeat_period_s, 5, 0);
	CHECK_NEAR(d.f[0].lost_s, 8, 1e-12);
	CHECK_NEAR(d.lost_s, 8, 1e-9);
	CHECK_HAS(d.f[0].evidence, "8 drops");
	gpu_diagnosis_free(&d);
	gpu_samples_free(&s);
	/* 15 s at 0 % in 40 s: one gap, 37.5 % idle (critical) */
	series(&s, 40, gaps);
	diagnose_gpu(&s, &plain, &d);
	CHECK(d.n == 1 && d.f[0].kind == FIND_IDLE_GAPS && d.f[0].severity == SEV_CRITICAL);
	CHECK_NEAR(d.idle_s, 15, 0);
	CHECK_NEAR(d.f[0].start_s, 10, 0);
	CHECK_NEAR(d.f[0].end_s, 25, 0);
	gpu_diagnosis_free(&d);
	/* 20 of 80 GiB: 60 GiB free, a batch 0.9 * 80 / 20 = 3.6x larger */
	for (size_t i = 0; i < s.n; i++)
		s.v[i].util_gpu_pct = 100, s.v[i].mem_used_bytes = 20.0 * 1073741824;
	diagnose_gpu(&s, &plain, &d);
	CHECK(d.n == 1 && d.f[0].kind == FIND_MEMORY_HEADROOM);
	CHECK_NEAR(d.f[0].figure, 60.0 * 1073741824, 0);
	CHECK_HAS(d.f[0].suggestion, "3.6x larger");
	gpu_diagnosis_free(&d);
	/* from 20 s on, 1500 of 1980 MHz with sw_thermal: 20 s thermal,
	 * 20 * (1 - 1500/1980) = 4.848 GPU-s lost */
	for (size_t i = 0; i < s.n; i++) {
		s.v[i].mem_used_bytes = 70.0 * 1073741824;
		s.v[i].valid |= GPU_SAMPLE_THROTTLE;
		if (i >= 20)
			s.v[i].sm_clock_hz = 1.5e9, s.v[i].throttle = GPU_THROTTLE_SW_THERMAL;
	}
	struct diagnose_context ctx = plain;
	ctx.sm_clock_max_hz = 1.98e9;
	ctx.reasons_read = GPU_THROTTLE_SLOWING;
	diagnose_gpu(&s, &ctx, &d);
	CHECK(d.n == 1 && d.f[0].kind == FIND_THERMAL_THROTTLING);
	CHECK_NEAR(d.f[0].start_s, 20, 0);
	CHECK_NEAR(d.throttled_s[TR_SW_THERMAL], 20, 0);
	CHECK_NEAR(d.f[0].lost_s, 20 * (1 - 1500.0 / 1980), 1e-12);
	CHECK_NEAR(d.f[0].figure, 20, 0);
	CHECK(strstr(d.f[0].evidence, "first active") == NULL);
	gpu_diagnosis_free(&d);
	/* the reason active from 15 s at full clock: the finding still starts
	 * where the clock fell (20 s) and says when the reason led it */
	for (size_t i = 15; i < 20; i++)
		s.v[i].throttle = GPU_THROTTLE_SW_THERMAL;
	diagnose_gpu(&s, &ctx, &d);
	CHECK(d.n == 1 && d.f[0].kind == FIND_THERMAL_THROTTLING);
	CHECK_NEAR(d.f[0].start_s, 20, 0);
	CHECK_HAS(d.f[0].evidence, "first active at +15.0 s, before the clock fell");
	gpu_diagnosis_free(&d);
	for (size_t i = 15; i < 20; i++)
		s.v[i].throttle = 0;
	/* the same clocks with sw_power_cap: power */
	for (size_t i = 20; i < s.n; i++)
		s.v[i].throttle = GPU_THROTTLE_SW_POWER_CAP;
	diagnose_gpu(&s, &ctx, &d);
	CHECK(d.n == 1 && d.f[0].kind == FIND_POWER_THROTTLING);
	gpu_diagnosis_free(&d);
	/* sw_power_cap at full clocks is the boost governor, no finding */
	for (size_t i = 20; i < s.n; i++)
		s.v[i].sm_clock_hz = 1.98e9;
	diagnose_gpu(&s, &ctx, &d);
	CHECK(d.n == 0);
	CHECK_NEAR(d.throttled_s[TR_SW_POWER_CAP], 20, 0);
	gpu_diagnosis_free(&d);
	/* no reason fields: from 20 s the limit is lowered from 400 to 300 W
	 * and the draw sits at it with the clock at 1500 of 1980 MHz: power
	 * throttling by the limit in force, which the log's highest limit
	 * (400 W, 300 W drawn: 75 %) would miss */
	struct diagnose_context no_reasons = plain;
	no_reasons.sm_clock_max_hz = 1.98e9;
	no_reasons.power_limit_w = 400;
	for (size_t i = 0; i < s.n; i++) {
		s.v[i].valid = (s.v[i].valid & ~(uint32_t)GPU_SAMPLE_THROTTLE) |
			       GPU_SAMPLE_POWER | GPU_SAMPLE_POWER_LIMIT |
			       GPU_SAMPLE_TEMPERATURE;
		s.v[i].temperature_c = 60;
		s.v[i].power_limit_w = i >= 20 ? 300 : 400;
		s.v[i].power_w = i >= 20 ? 299 : 250;
		s.v[i].sm_clock_hz = i >= 20 ? 1.5e9 : 1.98e9;
	}
	diagnose_gpu(&s, &no_reasons, &d);
	CHECK(d.n == 1 && d.f[0].kind == FIND_POWER_THROTTLING);
	CHECK_NEAR(d.f[0].start_s, 20, 0);
	CHECK_HAS(d.f[0].evidence, "299 W of a 300 W limit");
	CHECK_HAS(d.f[0].evidence, "highest power.limit is 400 W");
	gpu_diagnosis_free(&d);
	for (size_t i = 0; i < s.n; i++) {
		s.v[i].valid &= ~(uint32_t)(GPU_SAMPLE_POWER | GPU_SAMPLE_POWER_LIMIT |
					    GPU_SAMPLE_TEMPERATURE);
		s.v[i].valid |= GPU_SAMPLE_THROTTLE;
		s.v[i].sm_clock_hz = 1.98e9;
	}
	/* live: two processes from 30 s */
	for (size_t i = 0; i < s.n; i++) {
		s.v[i].valid |= GPU_SAMPLE_PROCESSES;
		s.v[i].processes = i >= 30 ? 2 : 1;
	}
	ctx.live = true;
	diagnose_gpu(&s, &ctx, &d);
	CHECK(d.n == 1 && d.f[0].kind == FIND_SHARED_GPU);
	CHECK_NEAR(d.f[0].start_s, 30, 0);
	gpu_diagnosis_free(&d);
	gpu_samples_free(&s);
}

/*
 * The verdict of a GPU with no finding claims only what its readings show:
 * without utilisation nothing is "busy"; at 95 C nothing is "cool".
 */
static void verdicts(void)
{
	struct gpu_diagnosis d;
	char v[400];
	memset(&d, 0, sizeof(d));
	d.readings = GPU_SAMPLE_UTILIZATION | GPU_SAMPLE_TEMPERATURE;
	d.temperature_max_c = 70;
	diagnosis_verdict(&d, v, sizeof(v));
	CHECK_STR(v, "no finding: the GPU looks busy, cool and well used");
	d.readings = GPU_SAMPLE_TEMPERATURE;
	d.temperature_max_c = 95;
	diagnosis_verdict(&d, v, sizeof(v));
	CHECK_STR(v, "no finding in what the log shows: utilisation: not in the log, so how busy the GPU was cannot be told; hot, 95 C at its hottest (83 C or more is hot), and with no SM clock or throttle reason in the log nothing tells whether it throttled");
	d.readings = GPU_SAMPLE_UTILIZATION | GPU_SAMPLE_TEMPERATURE | GPU_SAMPLE_SM_CLOCK;
	diagnosis_verdict(&d, v, sizeof(v));
	CHECK_STR(v, "no finding in what the log shows: busy and well used; hot, 95 C at its hottest (83 C or more is hot), though its clocks were not held down");
	d.readings = GPU_SAMPLE_UTILIZATION;
	d.temperature_max_c = NAN;
	diagnosis_verdict(&d, v, sizeof(v));
	CHECK_STR(v, "no finding in what the log shows: busy and well used; temperature: not in the log");
}

/* The hottest reading and what was read come from the samples. */
static void readings_of_a_log(void)
{
	struct smi_log log;
	char msg[400];
	CHECK(parse("timestamp, temperature.gpu\n2026/11/30 10:15:00.000, 94\n"
		    "2026/11/30 10:15:01.000, 95\n2026/11/30 10:15:02.000, [N/A]\n",
		    NULL, &log, msg, sizeof(msg)) == 0);
	struct gpu_diagnosis d;
	diagnose_series(&log.gpu[0].s, &plain, &d);
	CHECK(d.readings == GPU_SAMPLE_TEMPERATURE);
	CHECK_NEAR(d.temperature_max_c, 95, 0);
	CHECK(d.n == 0 && isnan(d.util_mean));
	gpu_diagnosis_free(&d);
	smi_log_free(&log);
}

/*
 * The period and the percentiles are counted where readings repeat and
 * sorted where they do not: both ways give the same figures.  5,001
 * samples spaced 1 + i/10^6 s (5,000 distinct spacings, past the count's
 * table) are sorted for their median; utilisation 0.5 % apart (not whole
 * percents) is sorted for its percentiles.
 */
static void counted_or_sorted(void)
{
	struct sample_series x;
	series_init(&x);
	double t = 0;
	for (size_t i = 0; i < 5001; i++) {
		struct series_row r;
		series_row_clear(&r, t);
		r.v[SC_UTIL] = 0.5 * (double)(i % 201);	/* 0, 0.5, ... 100 % */
		series_push(&x, &r);
		t += 1 + (double)i * 1e-6;
	}
	struct gpu_diagnosis d;
	diagnose_series(&x, &plain, &d);
	/* spacings 1 + i e-6 for i = 0..4999: the middle two are i = 2499 and
	 * 2500, whose mean is 1.0024995 */
	CHECK_NEAR(d.period_s, 1.0024995, 1e-9);
	/* 0, 0.5, ..., 100 % about 25 times each (the mean just under 50 %):
	 * the median of the sorted readings 50 %, the 90th percentile 90 % */
	CHECK(d.n == 2 && d.f[0].kind == FIND_LOW_UTILIZATION);	/* and idle gaps */
	CHECK_HAS(d.f[0].evidence, "(median 50 %, 90th percentile 90 %)");
	gpu_diagnosis_free(&d);
	series_free(&x);
	/* a steady 1 s period and whole percents: counted, the same as sorted */
	series_init(&x);
	for (size_t i = 0; i < 1000; i++) {
		struct series_row r;
		series_row_clear(&r, (double)i);
		r.v[SC_UTIL] = (double)(i % 10 == 0 ? 10 : 95);
		series_push(&x, &r);
	}
	diagnose_series(&x, &plain, &d);
	CHECK_NEAR(d.period_s, 1, 0);
	CHECK(d.n == 1 && d.f[0].kind == FIND_HEARTBEAT);
	CHECK_HAS(d.f[0].evidence, "half the busy level of 95 %");
	CHECK_HAS(d.f[0].evidence, "100 drops");
	gpu_diagnosis_free(&d);
	series_free(&x);
}

int main(void)
{
	civil_times();
	reader();
	detectors();
	verdicts();
	readings_of_a_log();
	counted_or_sorted();
	return check_summary("diagnose");
}

/*
 * profile_figure.c - reading one figure of a measured profile, and the
 * checks that its summary follows from its repetitions: n is the count of
 * samples_s, median_s and the interval are the samples' own
 * (measure_summarise), and value, low and high are work over those times
 * (bench_figure_rate).  All are compared exactly: the writer printed every
 * double as the shortest text that reads back exactly (num_format.h), so
 * nothing is lost on the way.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile/profile_figure.h"
#include "profile/profile_gpu.h"
#include "profile/profile_read.h"
#include "core/precision.h"
#include "core/xalloc.h"

/* The units a figure may have; a loaded figure points at these. */
static const char *const units[] = {"FLOP/s", "OP/s", "B/s", "launch/s", NULL};

static void read_parameters(struct yread *r, const struct ynode *fig,
			    struct bench_figure *f)
{
	static const struct yfield fields[] = {
		{"precision", false}, {"m", false}, {"n", false}, {"k", false},
		{"bytes", false}, {"elements", false}, {"threads", true},
		{"iterations", true}, {"batch", false}, {"seq", false},
		{"memory_bytes", false}, {"from_gpu", false}, {"to_gpu", false},
		{"gpus", false}, {"gpu", false}, {"occurrences", false},
		{NULL, false}};
	const struct ynode *p = ymap_get(fig, "parameters");
	if (!p || !yr_expect_map(r, p, "figure parameters"))
		return;
	yr_check_keys(r, p, "figure parameters", fields);
	if (profile_read_name(r, p, "precision", f->precision,
			      sizeof(f->precision)) == 1 &&
	    precision_from_name(f->precision) < 0)
		yr_error(r, ymap_get(p, "precision"), NULL,
			 "unknown precision '%s'", f->precision);
	yr_int(r, p, "m", 1, 1L << 40, &f->m);
	yr_int(r, p, "n", 1, 1L << 40, &f->n);
	yr_int(r, p, "k", 1, 1L << 40, &f->k);
	profile_read_number(r, p, "bytes", &f->bytes);
	profile_read_number(r, p, "elements", &f->elements);
	profile_read_int(r, p, "threads", 1, 1 << 20, &f->threads);
	yr_int(r, p, "iterations", 1, 1L << 40, &f->iterations);
	yr_int(r, p, "batch", 1, 1L << 40, &f->batch);
	yr_int(r, p, "seq", 0, 1L << 24, &f->seq);
	profile_read_number(r, p, "memory_bytes", &f->memory_bytes);
	profile_read_int(r, p, "from_gpu", 0, 1 << 16, &f->from_gpu);
	profile_read_int(r, p, "to_gpu", 0, 1 << 16, &f->to_gpu);
	profile_read_int(r, p, "gpus", 1, 1 << 16, &f->gpus);
	if (!strcmp(f->suite, "allreduce") && f->gpus == 1)
		yr_error(r, ymap_get(p, "gpus"), NULL,
			 "an all-reduce figure expects 'gpus' of 2 or more, found 1");
	profile_read_int(r, p, "gpu", 0, 1 << 16, &f->gpu);
	yr_int(r, p, "occurrences", 1, 1L << 40, &f->occurrences);
	if (ymap_get(p, "gpu") && strcmp(f->suite, "spread"))
		yr_error(r, ymap_get(p, "gpu"), NULL,
			 "'gpu' belongs to a spread figure, not %s", f->suite);
	if (!strcmp(f->suite, "spread") && !ymap_get(p, "gpu"))
		yr_error(r, p, NULL, "a spread figure needs 'gpu'");
}

/* clocks: the steady part's samples (profile.h); whether they are the
 * samples' own is checked with the figures (profile_fault.c). */
static void read_clocks(struct yread *r, const struct ynode *fig,
			struct bench_figure *f)
{
	static const struct yfield fields[] = {
		{"samples", true}, {"sm_clock_median_hz", false},
		{"power_median_w", false}, {"temperature_max_c", false},
		{"throttle", true}, {NULL, false}};
	const struct ynode *c = ymap_get(fig, "clocks");
	if (!c || !yr_expect_map(r, c, "figure clocks"))
		return;
	yr_check_keys(r, c, "figure clocks", fields);
	struct gpu_window *w = &f->clocks;
	long n = 0;
	if (yr_int(r, c, "samples", 1, 100000000, &n) == 1)
		w->samples = (size_t)n;
	w->has_sm_clock = profile_read_number(r, c, "sm_clock_median_hz",
					      &w->sm_clock_median_hz) == 1;
	w->has_power = profile_read_number(r, c, "power_median_w",
					   &w->power_median_w) == 1;
	w->has_temperature = profile_read_number(r, c, "temperature_max_c",
						 &w->temperature_max_c) == 1;
	profile_read_reasons(r, c, "throttle", &w->throttle);
}

/* work against the suite's rule: a profile whose work was edited, or
 * written by a tool counting differently, is refused rather than read as
 * a different rate. */
static void check_work(struct yread *r, const struct ynode *fig,
		       const struct bench_figure *f)
{
	double per = bench_figure_rule_work(f);
	if (per < 0)
		return;
	double want = per * (double)f->iterations;
	if (want != f->work)
		yr_error(r, ymap_get(fig, "work"), NULL,
			 "work %.17g is not the %s rule for these parameters (%.17g)",
			 f->work, f->suite, want);
}

/* Each a time a timer gave and measure_run kept: finite and > 0 (a
 * reading of 0 was discarded, never a sample). */
static void read_samples(struct yread *r, const struct ynode *time,
			 struct measure_result *t)
{
	const struct ynode *s = ymap_get(time, "samples_s");
	if (!s || !yr_expect_seq(r, s, "samples_s"))
		return;
	t->samples = xcalloc(s->n ? s->n : 1, sizeof(double));
	for (size_t i = 0; i < s->n; i++) {
		double v;
		if (profile_read_node_number(r, s->items[i], "samples_s", &v) != 1)
			continue;
		if (!measure_reading_good(v))
			yr_error(r, s->items[i], NULL,
				 "'samples_s' expects times > 0, found %s",
				 s->items[i]->text);
		else
			t->samples[t->n++] = v;
	}
}

/* The written summary against the one the samples give. */
static void check_summary(struct yread *r, const struct ynode *time,
			  const struct measure_result *written, long n,
			  const struct measure_result *t)
{
	if ((size_t)n != t->n) {
		yr_error(r, ymap_get(time, "n"), NULL,
			 "n is %ld but samples_s holds %zu repetitions", n, t->n);
		return;
	}
	const struct { const char *key; double want, got; } v[] = {
		{"median_s", t->median, written->median},
		{"ci_low_s", t->ci_low, written->ci_low},
		{"ci_high_s", t->ci_high, written->ci_high},
	};
	for (size_t i = 0; i < 3; i++)
		if (v[i].want != v[i].got)
			yr_error(r, ymap_get(time, v[i].key), NULL,
				 "%s %.17g does not follow from samples_s (%.17g)",
				 v[i].key, v[i].got, v[i].want);
	if (written->has_ci != t->has_ci)
		yr_error(r, ymap_get(time, "has_ci"), NULL,
			 "has_ci is %s but %zu repetitions %s an interval",
			 written->has_ci ? "true" : "false", t->n,
			 t->has_ci ? "give" : "do not give");
}

static void read_time(struct yread *r, const struct ynode *fig,
		      struct measure_result *t)
{
	static const struct yfield fields[] = {
		{"median_s", true}, {"ci_low_s", true}, {"ci_high_s", true},
		{"n", true}, {"converged", true}, {"has_ci", true},
		{"elapsed_s", true}, {"rejected", false}, {"too_few", false},
		{"samples_s", true}, {NULL, false}};
	const struct ynode *tn = ymap_get(fig, "time");
	if (!tn || !yr_expect_map(r, tn, "figure time"))
		return;
	size_t before = gp_errors_count(r->errs);
	yr_check_keys(r, tn, "figure time", fields);
	struct measure_result w = {0};
	long n = 0;
	profile_read_number(r, tn, "median_s", &w.median);
	profile_read_number(r, tn, "ci_low_s", &w.ci_low);
	profile_read_number(r, tn, "ci_high_s", &w.ci_high);
	yr_int(r, tn, "n", 1, 100000000, &n);
	yr_bool(r, tn, "converged", &t->converged);
	yr_bool(r, tn, "has_ci", &w.has_ci);
	profile_read_number(r, tn, "elapsed_s", &t->elapsed_s);
	long rejected = 0;
	yr_int(r, tn, "rejected", 1, 100000000, &rejected);
	t->rejected = (size_t)rejected;
	yr_bool(r, tn, "too_few", &t->too_few);
	read_samples(r, tn, t);
	if (gp_errors_count(r->errs) != before)
		return;
	/* too_few is what discarded readings do (timing.h) */
	if (t->too_few && (!t->rejected || t->converged))
		yr_error(r, ymap_get(tn, "too_few"), NULL,
			 "too_few needs rejected readings and converged false");
	struct measure_result kept = *t;
	measure_summarise(t);
	t->converged = kept.converged;
	t->elapsed_s = kept.elapsed_s;
	check_summary(r, tn, &w, n, t);
}

/* value, low and high against work and the times. */
static void check_rate(struct yread *r, const struct ynode *fig,
		       const struct bench_figure *f)
{
	struct bench_figure want = *f;
	bench_figure_rate(&want);
	const struct { const char *key; double want, got; } v[] = {
		{"value", want.value, f->value},
		{"low", want.low, f->low},
		{"high", want.high, f->high},
	};
	for (size_t i = 0; i < 3; i++)
		if (v[i].want != v[i].got)
			yr_error(r, ymap_get(fig, v[i].key), NULL,
				 "%s %.17g is not work / time (%.17g)",
				 v[i].key, v[i].got, v[i].want);
}

/* Each repetition's rate, work / its time, is a double: compare and fit
 * take the rates of single repetitions, which the summary's checks do not
 * cover (a repetition faster than ci_low). */
static void check_sample_rates(struct yread *r, const struct ynode *fig,
			       const struct bench_figure *f)
{
	const struct ynode *s = ymap_get(ymap_get(fig, "time"), "samples_s");
	for (size_t i = 0; s && i < f->time.n && i < s->n; i++)
		if (!isfinite(f->work / f->time.samples[i])) {
			yr_error(r, s->items[i], NULL,
				 "'samples_s' %s s makes a rate (work %.17g / time) past the largest double (1.8e308)",
				 s->items[i]->text, f->work);
			return;
		}
}

int profile_read_figure(struct yread *r, const struct ynode *n,
			struct bench_figure *f)
{
	static const struct yfield fields[] = {
		{"suite", true}, {"name", true}, {"kernel", true},
		{"parameters", true}, {"work", true}, {"unit", true},
		{"value", true}, {"low", true}, {"high", true},
		{"throttled", false}, {"disturbed", false}, {"clocks", false},
		{"time", true}, {NULL, false}};
	memset(f, 0, sizeof(*f));
	if (!yr_expect_map(r, n, "a figure"))
		return -1;
	size_t before = gp_errors_count(r->errs);
	yr_check_keys(r, n, "figure", fields);
	profile_read_word(r, n, "suite", bench_suite_names, f->suite,
			  sizeof(f->suite));
	profile_read_name(r, n, "name", f->name, sizeof(f->name));
	profile_read_name(r, n, "kernel", f->kernel, sizeof(f->kernel));
	read_parameters(r, n, f);
	if (profile_read_number(r, n, "work", &f->work) == 1 && !(f->work > 0))
		yr_error(r, ymap_get(n, "work"), NULL,
			 "'work' expects a number > 0, found 0");
	char unit[16];
	if (profile_read_word(r, n, "unit", units, unit, sizeof(unit)) == 1)
		for (const char *const *u = units; *u; u++)
			if (!strcmp(*u, unit))
				f->unit = *u;
	profile_read_number(r, n, "value", &f->value);
	profile_read_number(r, n, "low", &f->low);
	profile_read_number(r, n, "high", &f->high);
	yr_bool(r, n, "throttled", &f->throttled);
	/* the evidence; profile_read_text() refuses an empty one */
	profile_read_text(r, n, "disturbed", f->disturbed, sizeof(f->disturbed));
	read_clocks(r, n, f);
	read_time(r, n, &f->time);
	if (gp_errors_count(r->errs) == before) {
		check_work(r, n, f);
		check_rate(r, n, f);
		check_sample_rates(r, n, f);
	}
	return gp_errors_count(r->errs) == before ? 0 : -1;
}

/*
 * test_fitted.c - curves from a measured profile (src/fit/curves.h) and
 * the fitted file (src/fit/fitted.h): a profile whose figures follow known
 * curves exactly gives those curves back, a disturbed figure is left out
 * and counted, the file round-trips, and an edited or broken fitted file
 * is refused where it is wrong.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "core/error.h"
#include "fit/fitted.h"
#include "profile/profile.h"

static struct bench_figure *figure(struct bench_profile *p, const char *suite,
				   const char *kernel, double median)
{
	struct bench_figure f;
	memset(&f, 0, sizeof(f));
	snprintf(f.suite, sizeof(f.suite), "%s", suite);
	snprintf(f.kernel, sizeof(f.kernel), "%s", kernel);
	f.iterations = 1;
	f.time.n = 10;
	f.time.median = median;
	bench_figures_push(&p->figures, &f);
	return &p->figures.v[p->figures.n - 1];
}

/*
 * A CPU profile: memcpy of 4 KiB x 4^k (6 sizes) at 20 us + bytes / 10
 * GB/s; a model's step at batch 1..32 taking 5 ms + 2 ms a sample and
 * holding 100 MB + 10 MB a sample; fp32 GEMMs at n = 64..2048 running
 * 100 GFLOP/s x n / (n + 256); and one more memcpy, disturbed.
 */
static void fill(struct bench_profile *p)
{
	bench_profile_init(p);
	snprintf(p->device.kind, sizeof(p->device.kind), "cpu");
	snprintf(p->device.name, sizeof(p->device.name), "Test CPU");
	snprintf(p->when, sizeof(p->when), "2026-12-01T10:00:00Z");
	snprintf(p->model_name, sizeof(p->model_name), "tiny");
	for (int k = 0; k < 6; k++) {
		double bytes = 4096.0 * pow(4, k);
		figure(p, "transfer", "memcpy", 20e-6 + bytes / 10e9)->bytes = bytes;
	}
	struct bench_figure *busy = figure(p, "transfer", "memcpy", 1);
	busy->bytes = 1 << 30;
	snprintf(busy->disturbed, sizeof(busy->disturbed), "its 2 threads had their cores 50%% of the time");
	for (long b = 1; b <= 32; b *= 2) {
		struct bench_figure *f = figure(p, "model", "step", 5e-3 + 2e-3 * (double)b);
		f->batch = b;
		f->memory_bytes = 100e6 + 10e6 * (double)b;
		snprintf(f->precision, sizeof(f->precision), "fp32");
	}
	for (long n = 64; n <= 2048; n *= 2) {
		struct bench_figure *f = figure(p, "gemm", "sgemm", 1);
		f->m = f->n = f->k = n;
		f->value = 100e9 * (double)n / ((double)n + 256);
		snprintf(f->precision, sizeof(f->precision), "fp32");
	}
}

static const struct scaling_curve *find(const struct curve_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

static void from_profile(struct curve_list *l)
{
	struct bench_profile p;
	fill(&p);
	curves_from_profile(&p, "m.yaml", l);
	bench_profile_free(&p);
	const struct scaling_curve *t = find(l, "transfer memcpy");
	CHECK(t && t->ok && t->n == 6 && t->left_out == 1);
	if (t) {
		CHECK_NEAR(t->fit.p[0].value, 20e-6, 1e-9);
		CHECK_NEAR(1 / t->fit.p[1].value, 10e9, 1e-9);
		CHECK_STR(t->left_out_why, "measured on a busy host");
		CHECK_STR(t->device, "cpu: Test CPU");
		CHECK_STR(t->measured, "2026-12-01T10:00:00Z");
	}
	const struct scaling_curve *s = NULL, *m = NULL;
	for (size_t i = 0; i < l->n; i++) {
		if (l->v[i].kind == CURVE_STEP_TIME)
			s = &l->v[i];
		if (l->v[i].kind == CURVE_STEP_MEMORY)
			m = &l->v[i];
	}
	CHECK(s && s->ok && m && m->ok);
	if (s && m) {
		CHECK_STR(s->name, "model tiny fp32 step time");
		CHECK_STR(m->name, "model tiny fp32 step memory");
		CHECK_NEAR(s->fit.p[0].value, 5e-3, 1e-9);
		CHECK_NEAR(s->fit.p[1].value, 2e-3, 1e-9);
		CHECK_NEAR(m->fit.p[0].value, 100e6, 1e-9);
		CHECK_NEAR(m->fit.p[1].value, 10e6, 1e-9);
	}
	const struct scaling_curve *g = find(l, "gemm fp32");
	CHECK(g && g->ok && g->n == 6);
	if (g) {
		CHECK_NEAR(g->fit.p[0].value, 100e9, 1e-6);
		CHECK_NEAR(g->fit.p[1].value, 256, 1e-6);
	}
}

static char dir[] = "/tmp/gpuplan-fitted.XXXXXX";

static int load_text(const char *text, struct curve_list *l, char *first,
		     size_t len)
{
	char path[64];
	snprintf(path, sizeof(path), "%s/f.yaml", dir);
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	struct gp_errors errs;
	gp_errors_init(&errs);
	int rc = fitted_load(l, path, "f.yaml", &errs);
	first[0] = '\0';
	if (errs.n)
		gp_error_format(&errs.v[0], first, len);
	gp_errors_free(&errs);
	return rc;
}

static char *emitted(const struct curve_list *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fitted_emit(l, f);
	fclose(f);
	return buf;
}

/* Replaces the first `from` in text by `to` (a new string). */
static char *edited(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	CHECK(at != NULL);
	if (!at)
		return strdup(text);
	size_t a = (size_t)(at - text), n = strlen(text) - strlen(from) + strlen(to);
	char *out = malloc(n + 1);
	memcpy(out, text, a);
	strcpy(out + a, to);
	strcat(out, at + strlen(from));
	return out;
}

static void round_trip(const struct curve_list *l)
{
	char *text = emitted(l);
	struct curve_list back;
	char first[512];
	CHECK(load_text(text, &back, first, sizeof(first)) == 0);
	CHECK_STR(first, "");
	CHECK(back.n == l->n);
	char *again = emitted(&back);
	CHECK_STR(again, text);
	free(again);
	curve_list_free(&back);
	static const struct {
		const char *from, *to, *want;
	} bad[] = {
		{"schema: gpuplan/fitted/v1", "schema: gpuplan/fitted/v2", "f.yaml:1:9: expected 'schema: gpuplan/fitted/v1'"},
		{"kind: transfer", "kind: transfr", "unknown kind 'transfr'"},
		{"latency_s: {value: ", "latency_s: {value: 3e-05, x: ", "unknown key 'x'"},
		{"r2: ", "r2: high", "'r2' expects a finite number, found 'high"},
		{"points: [[", "points: [[1], [", "a point expects [x, y], found a list"},
		{"figures_left_out: 1", "figures_left_out: -1", "figures_left_out"},
		{"covariance: [[", "covariance: [[1], [", "'covariance' expects [[a, b], [b, c]], found a list"},
		{"r2: 1", "r2: 0.5", "r2 0.5"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *t = edited(text, bad[i].from, bad[i].to);
		struct curve_list b;
		CHECK(load_text(t, &b, first, sizeof(first)) == -1);
		CHECK(strstr(first, bad[i].want) != NULL);
		if (!strstr(first, bad[i].want))
			fprintf(stderr, "  case %zu: got '%s'\n", i, first);
		curve_list_free(&b);
		free(t);
	}
	/* a covariance that is not one: not symmetric, nor its diagonal the
	 * se's squares */
	char *line = strstr(text, "    covariance: ");
	CHECK(line != NULL);
	if (line) {
		size_t head = (size_t)(line - text);
		const char *rest = strchr(line, '\n');
		char *cov = malloc(strlen(text) + 64);
		memcpy(cov, text, head);
		strcpy(cov + head, "    covariance: [[1, 2], [3, 4]]");
		strcat(cov, rest);
		struct curve_list b;
		CHECK(load_text(cov, &b, first, sizeof(first)) == -1);
		CHECK(strstr(first, "'covariance' expects a symmetric matrix whose diagonal is each parameter's se squared") != NULL);
		curve_list_free(&b);
		free(cov);
	}
	free(text);
	/* a parameter edited away from what its points give, inside its own
	 * interval so that only the refit notices: noisy points, 20 us and
	 * 10 GB/s give or take 3% */
	struct curve_list noisy = {0};
	struct scaling_curve *c = curve_list_add(&noisy);
	c->kind = CURVE_TRANSFER;
	snprintf(c->name, sizeof(c->name), "transfer noisy");
	snprintf(c->source, sizeof(c->source), "m.yaml");
	snprintf(c->device, sizeof(c->device), "cpu: Test CPU");
	snprintf(c->measured, sizeof(c->measured), "2026-12-01T10:00:00Z");
	c->n = 6;
	c->x = malloc(6 * sizeof(double));
	c->y = malloc(6 * sizeof(double));
	static const double wobble[6] = {0.03, -0.02, 0.01, -0.03, 0.02, -0.01};
	for (int k = 0; k < 6; k++) {
		c->x[k] = 4096.0 * pow(4, k);
		c->y[k] = (20e-6 + c->x[k] / 10e9) * (1 + wobble[k]);
	}
	const struct curve_form *form = curve_form(CURVE_TRANSFER);
	char why[200];
	c->ok = fit_curve(form->form, c->x, c->y, 6, form->sign, form->param,
			  &c->fit, why, sizeof(why)) == 0;
	CHECK(c->ok);
	text = emitted(&noisy);
	double v = c->fit.p[0].value, inside = (v + c->fit.p[0].hi) / 2;
	char from[128], to[128];
	snprintf(from, sizeof(from), "latency_s: {value: %.17g,", v);
	snprintf(to, sizeof(to), "latency_s: {value: %.17g,", inside);
	char *e = edited(text, from, to);
	struct curve_list b;
	CHECK(load_text(e, &b, first, sizeof(first)) == -1);
	CHECK(strstr(first, "is not what the points give") != NULL);
	if (!strstr(first, "is not what the points give"))
		fprintf(stderr, "  got '%s'\n", first);
	curve_list_free(&b);
	curve_list_free(&noisy);
	free(e);
	free(text);
}

/*
 * A full CPU profile's order of series: GEMM fp64 and fp32, memcpy and
 * the four membw kernels (seven series) before the model's step time and
 * memory.  Making the ninth series grows the list past its first eight
 * places (core/xalloc.h), which once left the step time's pointer behind
 * and lost the sweep's first point.  The CPU has a 1 MiB L2 and no L3, so
 * STREAM's rule puts memory from 256 MiB on (profile/stream_rule.h): the
 * 16 KiB footprints are left out as in a cache, and 256 MiB, 512 MiB and
 * 1 GiB at 1 ms + bytes / 50 GB/s give the memory's line exactly.
 */
static void test_memory_series(void)
{
	struct bench_profile p;
	bench_profile_init(&p);
	snprintf(p.device.kind, sizeof(p.device.kind), "cpu");
	snprintf(p.device.name, sizeof(p.device.name), "Test CPU");
	snprintf(p.when, sizeof(p.when), "2026-12-01T10:00:00Z");
	snprintf(p.model_name, sizeof(p.model_name), "tiny");
	p.device.cpu.valid = CPU_INFO_HAS_L2;
	p.device.cpu.l2_bytes = 1 << 20;
	static const char *const prec[] = {"fp64", "fp32"};
	for (int k = 0; k < 2; k++)
		for (long n = 256; n <= 1024; n *= 2) {
			struct bench_figure *f = figure(&p, "gemm", "gemm", 1);
			f->m = f->n = f->k = n;
			f->value = 100e9 * (double)n / ((double)n + 128);
			snprintf(f->precision, sizeof(f->precision), "%s", prec[k]);
		}
	for (int k = 0; k < 3; k++)
		figure(&p, "transfer", "memcpy", 1e-3 * (k + 1))->bytes = 4096.0 * (k + 1);
	static const char *const kernels[] = {"copy", "scale", "add", "triad"};
	static const double footprint[] = {16384, 256.0 * (1 << 20),
					   512.0 * (1 << 20), 1024.0 * (1 << 20)};
	for (int s = 0; s < 4; s++)
		for (int k = 0; k < 4; k++) {
			/* STREAM counts 2 arrays for copy and scale, 3 for add
			 * and triad: of the footprint's 3 */
			double work = footprint[s] * (k < 2 ? 2.0 / 3 : 1);
			struct bench_figure *f = figure(&p, "membw", kernels[k],
							1e-3 + work / 50e9);
			f->bytes = footprint[s];
			f->work = work;
		}
	for (long b = 1; b <= 8; b *= 2) {
		struct bench_figure *f = figure(&p, "model", "step", 5e-3 + 2e-3 * (double)b);
		f->batch = b;
		f->memory_bytes = 100e6 + 10e6 * (double)b;
		snprintf(f->precision, sizeof(f->precision), "fp32");
	}
	struct curve_list l = {0};
	curves_from_profile(&p, "m.yaml", &l);
	bench_profile_free(&p);
	const struct scaling_curve *s = find(&l, "model tiny fp32 step time");
	CHECK(s && s->ok && s->n == 4);
	if (s) {
		CHECK(s->x[0] == 1);
		CHECK_NEAR(s->fit.p[0].value, 5e-3, 1e-9);
	}
	for (int k = 0; k < 4; k++) {
		char name[64];
		snprintf(name, sizeof(name), "membw %s in memory", kernels[k]);
		const struct scaling_curve *m = find(&l, name);
		CHECK(m && m->ok && m->n == 3 && m->left_out == 1 &&
		      m->kind == CURVE_MEMBW_MEMORY);
		if (!m)
			continue;
		CHECK_NEAR(m->fit.p[0].value, 1e-3, 1e-9);
		CHECK_NEAR(1 / m->fit.p[1].value, 50e9, 1e-9);
		CHECK(strstr(m->left_out_why, "in a cache (footprint below 256 MiB") != NULL);
	}
	curve_list_free(&l);
}

/*
 * A curve with its fixed cost held at 0 (fit/lsq.h) goes out and comes
 * back as it was, held_at_zero and all; a file that holds a parameter the
 * points do not hold, or drops the mark where they do, is refused.
 */
static void test_held_round_trip(void)
{
	struct curve_list l = {0};
	struct scaling_curve *c = curve_list_add(&l);
	c->kind = CURVE_STEP_TIME;
	snprintf(c->name, sizeof(c->name), "model tiny fp32 step time");
	snprintf(c->source, sizeof(c->source), "m.yaml");
	snprintf(c->device, sizeof(c->device), "cpu: Test CPU");
	snprintf(c->measured, sizeof(c->measured), "2026-12-01T10:00:00Z");
	static const double x[] = {1, 2, 4, 8}, y[] = {0.95, 2.1, 3.9, 8.1};
	c->n = 4;
	c->x = malloc(sizeof(x));
	c->y = malloc(sizeof(y));
	memcpy(c->x, x, sizeof(x));
	memcpy(c->y, y, sizeof(y));
	const struct curve_form *form = curve_form(c->kind);
	char why[200], first[512];
	c->ok = fit_curve(form->form, c->x, c->y, 4, form->sign, form->param,
			  &c->fit, why, sizeof(why)) == 0;
	CHECK(c->ok && c->fit.p[0].held);
	char *text = emitted(&l);
	CHECK(strstr(text, "fixed_s: {value: 0, se: 0, ci95: [0, 0], held_at_zero: {free_value: -0.05463517804622") != NULL);
	struct curve_list back;
	CHECK(load_text(text, &back, first, sizeof(first)) == 0);
	CHECK_STR(first, "");
	CHECK(back.n == 1 && back.v[0].fit.p[0].held);
	char *again = emitted(&back);
	CHECK_STR(again, text);
	free(again);
	curve_list_free(&back);
	/* the mark dropped: the points still hold it */
	char *cut = strstr(text, ", held_at_zero: {");
	CHECK(cut != NULL);
	if (cut) {
		char *t = strdup(text);
		char *at = t + (cut - text), *end = strstr(at, "}}");
		memmove(at, end + 1, strlen(end + 1) + 1);
		CHECK(load_text(t, &back, first, sizeof(first)) == -1);
		CHECK(strstr(first, "fixed_s is not held at zero, but the points hold it") != NULL);
		curve_list_free(&back);
		free(t);
	}
	/* a free estimate that cannot be held: above 0 */
	char *e = edited(text, "free_value: -0.05", "free_value: 0.05");
	CHECK(load_text(e, &back, first, sizeof(first)) == -1);
	CHECK(strstr(first, "held at zero expects value 0, se 0 and a free estimate below 0") != NULL);
	curve_list_free(&back);
	free(e);
	free(text);
	curve_list_free(&l);
}

/*
 * A launch rate (curves.h: a figure that is no curve) goes out under
 * `rates` and comes back as it was; one measured on a busy host goes out
 * under `left_out` with why; a rate of another unit, or outside its own
 * interval, is refused where it is wrong.
 */
static void test_rates(void)
{
	struct curve_list l = {0};
	struct measured_rate *m = curve_list_add_rate(&l);
	snprintf(m->name, sizeof(m->name), "empty kernel launch");
	snprintf(m->source, sizeof(m->source), "m.yaml");
	snprintf(m->device, sizeof(m->device), "cuda: Test GPU");
	snprintf(m->measured, sizeof(m->measured), "2026-12-01T10:00:00Z");
	snprintf(m->unit, sizeof(m->unit), "launch/s");
	m->value = 250000;
	m->low = 240000;
	m->high = 260000;
	m->ok = true;
	struct measured_rate *busy = curve_list_add_rate(&l);
	*busy = *m;
	snprintf(busy->name, sizeof(busy->name), "busy launch");
	busy->ok = false;
	snprintf(busy->why, sizeof(busy->why), "measured on a busy host");
	char *text = emitted(&l);
	CHECK(strstr(text, "rates:\n  - name: \"empty kernel launch\"\n") != NULL);
	CHECK(strstr(text, "    unit: launch/s\n    value: 250000\n    ci95: [240000, 260000]\n") != NULL);
	CHECK(strstr(text, "left_out:\n  - {name: \"busy launch\", source: \"m.yaml\", why: \"measured on a busy host\"}") != NULL);
	struct curve_list back;
	char first[512];
	CHECK(load_text(text, &back, first, sizeof(first)) == 0);
	CHECK_STR(first, "");
	CHECK(back.n_rates == 1 && back.rates[0].ok && back.rates[0].value == 250000);
	curve_list_free(&back);
	static const struct { const char *from, *to, *want; } bad[] = {
		{"unit: launch/s", "unit: s", "unknown unit 's': a rate is the launch suite's, launch/s"},
		{"value: 250000", "value: 300000", "expected a value above 0 within [low, high], found 300000 [240000, 260000]"},
		{"measured: \"2026-12-01T10:00:00Z\"\n    unit", "measured: \"2026-13-01T10:00:00Z\"\n    unit", "'measured' expects the profile's UTC time"},
		{"    ci95: [240000, 260000]\n", "", "missing"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *t = edited(text, bad[i].from, bad[i].to);
		CHECK(load_text(t, &back, first, sizeof(first)) == -1);
		CHECK(strstr(first, bad[i].want) != NULL);
		if (!strstr(first, bad[i].want))
			fprintf(stderr, "  rate case %zu: got '%s'\n", i, first);
		curve_list_free(&back);
		free(t);
	}
	free(text);
	curve_list_free(&l);
}

/*
 * The same CPU at 1, 2, 4 and 8 threads: a step of 2 ms that does not
 * divide and 8 ms that does, each point off by +-1% in turn.  The
 * scaling curve recovers both within their intervals, and the efficiency
 * at 8 ranks is (2 + 8) / (8 x 2 + 8) = 0.4167 (by hand).  A figure at
 * one thread count only is not a series; a GPU's profiles give none.
 */
static void test_scaling_across_threads(void)
{
	struct bench_profile p[4];
	const struct bench_profile *ptr[4];
	const char *names[4] = {"t1.yaml", "t2.yaml", "t4.yaml", "t8.yaml"};
	for (int k = 0; k < 4; k++) {
		double n = (double)(1 << k);
		bench_profile_init(&p[k]);
		snprintf(p[k].device.kind, sizeof(p[k].device.kind), "cpu");
		snprintf(p[k].device.name, sizeof(p[k].device.name), "Test CPU");
		snprintf(p[k].when, sizeof(p[k].when), "2026-12-01T10:00:00Z");
		p[k].threads = 1 << k;
		struct bench_figure *f = figure(&p[k], "model", "step",
						(2e-3 + 8e-3 / n) * (k % 2 ? 1.01 : 0.99));
		snprintf(f->name, sizeof(f->name), "tiny batch 8");
		snprintf(f->precision, sizeof(f->precision), "fp32");
		f->batch = 8;
		if (k == 0) {	/* measured at one thread count only */
			f = figure(&p[k], "model", "step", 1);
			snprintf(f->name, sizeof(f->name), "tiny batch 16");
			snprintf(f->precision, sizeof(f->precision), "fp32");
		}
		ptr[k] = &p[k];
	}
	struct curve_list l = {0};
	curves_scaling(ptr, names, 4, &l);
	CHECK(l.n == 1);
	const struct scaling_curve *c = find(&l, "scaling tiny batch 8 fp32");
	CHECK(c && c->ok && c->kind == CURVE_SCALING && c->n == 4);
	if (c && c->ok) {
		CHECK(c->fit.p[0].lo < 2e-3 && 2e-3 < c->fit.p[0].hi);
		CHECK(c->fit.p[1].lo < 8e-3 && 8e-3 < c->fit.p[1].hi);
		CHECK_NEAR(curve_scaling_efficiency(&c->fit, 8), 10.0 / 24.0, 0.03);
		CHECK_STR(c->source, "t1.yaml and 3 more");
		/* written and read back like every curve */
		char first[4096];
		char *text = emitted(&l);
		struct curve_list back = {0};
		CHECK(load_text(text, &back, first, sizeof(first)) == 0);
		CHECK(back.n == 1 && back.v[0].kind == CURVE_SCALING);
		curve_list_free(&back);
		free(text);
	}
	curve_list_free(&l);
	snprintf(p[0].device.kind, sizeof(p[0].device.kind), "cuda");
	curves_scaling(ptr, names, 4, &l);
	CHECK(l.n == 0);
	for (int k = 0; k < 4; k++)
		bench_profile_free(&p[k]);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	struct curve_list l = {0};
	from_profile(&l);
	round_trip(&l);
	curve_list_free(&l);
	test_scaling_across_threads();
	test_memory_series();
	test_held_round_trip();
	test_rates();
	char path[64];
	snprintf(path, sizeof(path), "%s/f.yaml", dir);
	unlink(path);
	rmdir(dir);
	return check_summary("fitted");
}

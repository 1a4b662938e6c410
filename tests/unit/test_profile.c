/*
 * test_profile.c - the measured profile: a write and a load give back the
 * same doubles bit for bit and the same bytes on a second write; a real
 * (tiny) CPU measurement survives the trip; the strict loader reports
 * unknown keys, wrong types, missing fields and a summary that does not
 * follow from its repetitions, each at file:line:column; the Prometheus
 * text names each figure once per family.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/cpu_membw.h"
#include "bench/profile.h"
#include "bench/prom.h"
#include "check.h"

static char *emit(const struct bench_profile *p,
		  void (*fn)(const struct bench_profile *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(p, f);
	fclose(f);
	char *copy = strdup(buf);	/* not buf itself: gcc takes it for a local */
	free(buf);
	return copy;
}

/* A figure whose times are awkward doubles (no short decimal form). */
static void add_figure(struct bench_profile *p, const char *suite,
		       const char *kernel, size_t n, double scale)
{
	struct bench_figure f = {.threads = 3, .iterations = 7};
	snprintf(f.suite, sizeof(f.suite), "%s", suite);
	snprintf(f.kernel, sizeof(f.kernel), "%s", kernel);
	snprintf(f.name, sizeof(f.name), "%s \"quoted\" \\ name", kernel);
	f.unit = strcmp(suite, "gemm") ? "B/s" : "FLOP/s";
	if (!strcmp(suite, "gemm")) {
		snprintf(f.precision, sizeof(f.precision), "fp64");
		f.m = f.n = f.k = 1024;
		f.work = 2.0 * 1024 * 1024 * 1024 * 7;
	} else {
		f.bytes = 3 * 8 * 1e6 / 3;
		f.elements = 1e6 / 3;
		/* STREAM's count: 3 arrays of doubles for triad, 2 for copy; 7 iterations */
		f.work = (strcmp(kernel, "triad") ? 2 : 3) * 8 * f.elements * 7;
	}
	f.time.samples = calloc(n, sizeof(double));
	for (size_t i = 0; i < n; i++)
		f.time.samples[i] = scale * (1.0 / 3 + (double)((i * 7) % 5) * 1e-7 / 7);
	f.time.n = n;
	f.time.converged = n > 6;
	f.time.elapsed_s = 0.1 * 3.0;
	measure_summarise(&f.time);
	bench_figure_rate(&f);
	bench_figures_push(&p->figures, &f);
}

static void fill(struct bench_profile *p)
{
	bench_profile_init(p);
	bench_profile_stamp(p);
	snprintf(p->device.kind, sizeof(p->device.kind), "cpu");
	snprintf(p->device.name, sizeof(p->device.name), "Test CPU \"x\"\t@ 1GHz");
	p->device.cpu = (struct cpu_info){.logical_cpus = 8, .l3_bytes = 32 << 20,
		.valid = CPU_INFO_HAS_LOGICAL_CPUS | CPU_INFO_HAS_L3 | CPU_INFO_HAS_MODEL};
	snprintf(p->device.cpu.model, sizeof(p->device.cpu.model), "%s", p->device.name);
	snprintf(p->suites[p->n_suites++], sizeof(p->suites[0]), "gemm");
	snprintf(p->suites[p->n_suites++], sizeof(p->suites[0]), "membw");
	p->quick = true;
	p->threads = 3;
	p->policy = (struct measure_policy){1, 6, 200, 0.02, 0.05, NULL};
	add_figure(p, "gemm", "dgemm", 6, 1e-3);
	add_figure(p, "membw", "triad", 13, 2.5e-5);
	add_figure(p, "membw", "copy", 3, 7e-9);	/* no interval */
}

static bool same_figure(const struct bench_figure *a, const struct bench_figure *b)
{
	if (strcmp(a->suite, b->suite) || strcmp(a->name, b->name) ||
	    strcmp(a->kernel, b->kernel) || strcmp(a->precision, b->precision) ||
	    strcmp(a->unit, b->unit) || a->m != b->m || a->n != b->n ||
	    a->k != b->k || a->bytes != b->bytes || a->elements != b->elements ||
	    a->threads != b->threads || a->iterations != b->iterations ||
	    a->work != b->work || a->value != b->value || a->low != b->low ||
	    a->high != b->high || a->time.n != b->time.n ||
	    a->time.median != b->time.median || a->time.ci_low != b->time.ci_low ||
	    a->time.ci_high != b->time.ci_high ||
	    a->time.converged != b->time.converged ||
	    a->time.has_ci != b->time.has_ci ||
	    a->time.elapsed_s != b->time.elapsed_s)
		return false;
	return memcmp(a->time.samples, b->time.samples,
		      a->time.n * sizeof(double)) == 0;
}

static void round_trip_of(const struct bench_profile *p)
{
	char *text = emit(p, bench_profile_emit);
	struct bench_profile q;
	struct gp_errors errs;
	gp_errors_init(&errs);
	CHECK(bench_profile_parse(&q, "p.yaml", text, strlen(text), &errs) == 0);
	gp_errors_print(&errs, stderr);
	CHECK(q.figures.n == p->figures.n);
	for (size_t i = 0; i < q.figures.n && i < p->figures.n; i++)
		CHECK(same_figure(&q.figures.v[i], &p->figures.v[i]));
	CHECK_STR(q.when, p->when);
	CHECK_STR(q.hostname, p->hostname);
	CHECK_STR(q.device.name, p->device.name);
	CHECK(q.device.cpu.valid == p->device.cpu.valid);
	CHECK(q.policy.time_cap_s == p->policy.time_cap_s);
	CHECK(q.n_suites == p->n_suites && q.threads == p->threads);
	char *again = emit(&q, bench_profile_emit);
	CHECK_STR(again, text);
	free(again);
	free(text);
	bench_profile_free(&q);
	gp_errors_free(&errs);
}

static void round_trip(void)
{
	struct bench_profile p;
	fill(&p);
	round_trip_of(&p);
	bench_profile_free(&p);
}

/* Real figures from the membw suite at 16 KiB, 6 repetitions. */
static void real_round_trip(void)
{
	static const struct measure_policy tiny = {0, 6, 6, 0, 0, NULL};
	const struct cpu_suite_options o = {1, true, &tiny};
	struct bench_profile p;
	fill(&p);
	char why[256];
	CHECK(cpu_membw_measure(1u << MEMBW_TRIAD, 16384, &o, &p.figures, why,
				sizeof(why)) == 0);
	CHECK(p.figures.n == 4 && p.figures.v[3].value > 0);
	round_trip_of(&p);
	bench_profile_free(&p);
}

/* The model sweep's options, a model figure's parameters and the notes
 * come back as written. */
static void model_round_trip(void)
{
	struct bench_profile p;
	fill(&p);
	snprintf(p.model_name, sizeof(p.model_name), "tiny-cnn");
	p.model_policy = (struct measure_policy){1, 6, 20, 0.02, 0.5, NULL};
	p.model_step_cap_s = 0.25;
	p.model_max_batch = 256;
	struct bench_figure *f = &p.figures.v[0];
	snprintf(f->suite, sizeof(f->suite), "model");
	f->batch = 8;
	f->seq = 0;
	f->memory_bytes = 6460864;
	bench_figures_note(&p.figures, "model tiny-cnn: out of memory at batch 16 (\"x\"); the largest batch that fits is 11");
	round_trip_of(&p);
	bench_profile_free(&p);
}

static void file_round_trip(void)
{
	struct bench_profile p, q;
	fill(&p);
	char dir[] = "/tmp/gpuplan-profile.XXXXXX", path[64], why[256];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/p.yaml", dir);
	CHECK(bench_profile_write(&p, path, why, sizeof(why)) == 0);
	struct gp_errors errs;
	gp_errors_init(&errs);
	CHECK(bench_profile_load(&q, path, &errs) == 0);
	CHECK(q.figures.n == 3 && same_figure(&q.figures.v[1], &p.figures.v[1]));
	remove(path);
	remove(dir);
	bench_profile_free(&p);
	bench_profile_free(&q);
	gp_errors_free(&errs);
}

/* The first problem the loader reports for text, formatted. */
static void first_error(const char *text, char *buf, size_t len)
{
	struct bench_profile p;
	struct gp_errors errs;
	gp_errors_init(&errs);
	buf[0] = '\0';
	if (bench_profile_parse(&p, "bad.yaml", text, strlen(text), &errs) != 0 &&
	    errs.n > 0)
		gp_error_format(&errs.v[0], buf, len);
	bench_profile_free(&p);
	gp_errors_free(&errs);
}

/* Replaces the first `from` in a good profile's text with `to`. */
static char *edited(const char *from, const char *to)
{
	struct bench_profile p;
	fill(&p);
	char *text = emit(&p, bench_profile_emit);
	bench_profile_free(&p);
	char *at = strstr(text, from);
	if (!at)
		return text;
	size_t head = (size_t)(at - text);
	char *out = malloc(strlen(text) + strlen(to) + 1);
	memcpy(out, text, head);
	strcpy(out + head, to);
	strcat(out, at + strlen(from));
	free(text);
	return out;
}

static void bad_inputs(void)
{
	static const struct { const char *from, *to, *want; } cases[] = {
		{"schema: gpuplan/measured/v1", "schema: gpuplan/catalog/v1", "bad.yaml:1:9: "},
		{"  quick: true", "  quick: yes", "bad.yaml:17:10: 'quick' expects true or false"},
		{"  quick: true", "  quick: true\n  speedy: 1", "bad.yaml:18:3: unknown key 'speedy'"},
		{"  threads: 3\n", "", "bad.yaml:16:3: missing required key 'threads'"},
		{"    work: ", "    wrok: ", "unknown key 'wrok'"},
		{"    unit: FLOP/s", "    unit: FLOPS", "unknown unit 'FLOPS'"},
		{"      n: 6\n", "      n: 7\n", "n is 7 but samples_s holds 6"},
		{"median_s: 0.", "median_s: 1", "does not follow from samples_s"},
		{"    value: ", "    value: 1", "is not work / time"},
		{"samples_s: [", "samples_s: [-1, ", "expects a finite number >= 0"},
		{"when: \"", "when: \"x", "'when' expects a UTC time"},
		{"  - suite: gemm", "  - suite: gem", "unknown suite 'gem'"},
		{"    work: 15032385536\n", "    work: 15032385537\n", "work 15032385537 is not the gemm rule for these parameters (15032385536)"},
		{"notes: []", "notes: []\nsampling: {}", "'sampling' belongs to cuda profiles only"},
		{"notes: []", "notes: [[1]]", "notes"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = edited(cases[i].from, cases[i].to);
		char got[512];
		first_error(text, got, sizeof(got));
		check_count++;
		if (!strstr(got, cases[i].want)) {
			check_failures++;
			fprintf(stderr, "case %zu: got '%s', want '%s'\n", i, got,
				cases[i].want);
		}
		free(text);
	}
}

static void prometheus(void)
{
	struct bench_profile p;
	fill(&p);
	char *text = emit(&p, bench_prom_emit);
	CHECK(strstr(text, "# TYPE gpuplan_bench_bytes_per_second gauge\n") != NULL);
	CHECK(strstr(text, "# TYPE gpuplan_bench_flops_per_second_high gauge\n") != NULL);
	CHECK(strstr(text, "gpuplan_bench_flops_per_second{device=\"cpu\",suite=\"gemm\",kernel=\"dgemm\",precision=\"fp64\",m=\"1024\",n=\"1024\",k=\"1024\",threads=\"3\"} ") != NULL);
	CHECK(strstr(text, "gpuplan_bench_bytes_per_second_low{device=\"cpu\",suite=\"membw\",kernel=\"triad\",bytes=\"8000000\",threads=\"3\"} ") != NULL);
	size_t lines = 0;
	for (const char *c = text; *c; c++)
		lines += *c == '\n';
	CHECK(lines == 6 * 2 + 3 * 3);	/* 6 families, 3 figures */
	free(text);
	bench_profile_free(&p);
}

int main(void)
{
	round_trip();
	real_round_trip();
	model_round_trip();
	file_round_trip();
	bad_inputs();
	prometheus();
	return check_summary("profile");
}

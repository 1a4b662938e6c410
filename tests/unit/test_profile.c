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
#include "bench/prom.h"
#include "check.h"
#include "profile/profile.h"

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
	snprintf(p->device.name, sizeof(p->device.name), "Test CPU \"x\" @ 1GHz");
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
	snprintf(p->figures.v[2].disturbed, sizeof(p->figures.v[2].disturbed),
		 "its 3 threads had their cores 52%% of the time");
}

/* fill(), plus a fault of each shape: a figure missing, a figure marked
 * by discarded timer readings, a device lost with the suites it ended. */
static void fill_faults(struct bench_profile *p)
{
	fill(p);
	snprintf(p->when, sizeof(p->when), "2026-01-02T03:04:05Z");
	struct bench_faults *l = &p->figures.faults;
	size_t i = bench_faults_add(l, BENCH_FAULT_ERROR, "gemm", "fp64 m=n=k=2048",
				    "simulated launch failure; the device passed its health check");
	bench_names_add(&l->v[i].missing, "fp64 m=n=k=2048");
	struct bench_figure *triad = &p->figures.v[1];
	triad->time.rejected = 3;
	triad->time.rejected_kinds = MEASURE_REJECTED_NEGATIVE;
	i = bench_faults_add(l, BENCH_FAULT_BAD_TIMER, "membw", triad->name,
			     "3 timer readings discarded (negative)");
	bench_names_add(&l->v[i].marked, triad->name);
	i = bench_faults_add(l, BENCH_FAULT_DEVICE_LOST, "membw", "add 16 KiB",
			     "device lost");
	bench_names_add(&l->v[i].missing, "add 16 KiB");
	bench_names_add(&l->v[i].ended, "membw");
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
	    a->time.elapsed_s != b->time.elapsed_s ||
	    strcmp(a->disturbed, b->disturbed))
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
	snprintf(p.suites[p.n_suites++], sizeof(p.suites[0]), "model");
	snprintf(f->suite, sizeof(f->suite), "model");
	f->batch = 8;
	f->seq = 0;
	f->memory_bytes = 6460864;
	bench_figures_note(&p.figures, "model tiny-cnn: out of memory at batch 16 (\"x\"); the largest batch that fits is 11");
	round_trip_of(&p);
	bench_profile_free(&p);
}

/* Faults and marks come back as written, byte for byte on a second write. */
static void faults_round_trip(void)
{
	struct bench_profile p;
	fill_faults(&p);
	char *text = emit(&p, bench_profile_emit);
	CHECK_HAS(text, "faults:\n  - kind: error\n    suite: gemm\n"
		  "    figure: \"fp64 m=n=k=2048\"\n"
		  "    what: \"simulated launch failure; the device passed its health check\"\n"
		  "    missing: [\"fp64 m=n=k=2048\"]\n    marked: []\n");
	CHECK_HAS(text, "    ended: [membw]\n");
	CHECK_HAS(text, "      rejected: 3\n      samples_s: [");
	free(text);
	round_trip_of(&p);
	bench_profile_free(&p);
}

/* Names and text from the system or a plugin holding what a terminal
 * obeys are written spelt out (term_escape), and load back as that text:
 * what the writer writes, the loader takes back. */
static void hostile_names(void)
{
	struct bench_profile p, q;
	fill(&p);
	snprintf(p.hostname, sizeof(p.hostname), "evil\x1b]0;pwned\x07host");
	snprintf(p.device.name, sizeof(p.device.name), "GPU \xc2\x9b" "31m\tx\xff");
	memset(p.device.cpu.model, 0x01, 200);	/* 200 x "\x01": 800 bytes */
	p.device.cpu.model[200] = '\0';
	bench_figures_note(&p.figures, "note \x1b[2J and a\nline break");
	char *text = emit(&p, bench_profile_emit);
	struct gp_errors errs;
	gp_errors_init(&errs);
	int rc = bench_profile_parse(&q, "p.yaml", text, strlen(text), &errs);
	gp_errors_print(&errs, stderr);
	CHECK(rc == 0);
	if (rc == 0) {
		CHECK_STR(q.hostname, "evil\\x1b]0;pwned\\x07host");
		CHECK_STR(q.device.name, "GPU \\u009b31m\\tx\\xff");
		/* cut to the field, at a whole escape: 63 x 4 bytes */
		CHECK(strlen(q.device.cpu.model) == 252 &&
		      !strncmp(q.device.cpu.model, "\\x01\\x01", 8));
		CHECK(q.figures.n_notes == 1 &&
		      !strcmp(q.figures.notes[0], "note \\x1b[2J and a\nline break"));
	}
	free(text);
	bench_profile_free(&p);
	bench_profile_free(&q);
	gp_errors_free(&errs);
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

/* Replaces the first `from` in a good profile's text (fill, or another
 * filler) with `to`. */
static char *edited_from(void (*filler)(struct bench_profile *),
			 const char *from, const char *to)
{
	struct bench_profile p;
	filler(&p);
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

static char *edited(const char *from, const char *to)
{
	return edited_from(fill, from, to);
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
		{"samples_s: [", "samples_s: [0x1p-6, ", "expects a finite number >= 0, found '0x1p-6'"},
		{"samples_s: [", "samples_s: [1e-320, ", "'samples_s' 1e-320 is below the smallest normal double (2.2e-308)"},
		{"samples_s: [", "samples_s: [1e400, ", "'samples_s' 1e400 is beyond the largest double (1.8e308)"},
		{"when: \"", "when: \"x", "'when' expects a UTC time"},
		{"  - suite: gemm", "  - suite: gem", "unknown suite 'gem'"},
		{"    work: 15032385536\n", "    work: 15032385537\n", "work 15032385537 is not the gemm rule for these parameters (15032385536)"},
		{"notes: []", "notes: []\nsampling: {}", "'sampling' belongs to cuda profiles only"},
		{"notes: []", "notes: [[1]]", "notes"},
		{"    disturbed: \"its", "    disturbed: \"\"\n    x: \"its", "unknown key 'x'"},
		{"    disturbed: \"its 3 threads had their cores 52% of the time\"", "    disturbed: \"\"",
		 "'disturbed' expects a text value, found an empty value"},
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

/* fill_faults() on a GPU: a p2p figure between the host's 2 GPUs, and
 * NVML samples, the second slowed (sw_thermal) while the triad ran, so
 * the triad is marked throttled under a throttled fault. */
static void fill_gpu(struct bench_profile *p)
{
	fill_faults(p);
	snprintf(p->device.kind, sizeof(p->device.kind), "cuda");
	p->device.gpu = (struct gpuplan_cuda_device_info){.cc_major = 9,
		.sm_count = 132, .total_mem_bytes = 1ULL << 30};
	p->device.gpu_count = 2;
	snprintf(p->suites[p->n_suites++], sizeof(p->suites[0]), "p2p");
	struct bench_figure f = {.threads = 1, .iterations = 3, .from_gpu = 0,
				 .to_gpu = 1, .bytes = 1048576, .unit = "B/s"};
	snprintf(f.suite, sizeof(f.suite), "p2p");
	snprintf(f.kernel, sizeof(f.kernel), "p2p");
	snprintf(f.name, sizeof(f.name), "p2p 0->1 1 MiB");
	f.work = 3 * 1048576.0;
	f.time.samples = calloc(6, sizeof(double));
	for (size_t i = 0; i < 6; i++)
		f.time.samples[i] = 1e-5;
	f.time.n = 6;
	measure_summarise(&f.time);
	bench_figure_rate(&f);
	bench_figures_push(&p->figures, &f);
	p->samples.interval_s = 0.1;
	struct gpu_sample s = {.t_s = 0, .valid = GPU_SAMPLE_THROTTLE};
	gpu_samples_push(&p->samples, &s);
	s.t_s = 0.1;
	s.throttle = GPU_THROTTLE_SW_THERMAL;
	bench_figure_label(&p->figures.v[1], s.during, sizeof(s.during));
	gpu_samples_push(&p->samples, &s);
	bench_profile_mark_throttled(p);
}

/* Each bad edit's first problem, exactly. */
static void check_first_errors(void (*filler)(struct bench_profile *),
			       const char *const (*cases)[3], size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *text = edited_from(filler, cases[i][0], cases[i][1]);
		char got[512];
		first_error(text, got, sizeof(got));
		check_count++;
		if (strcmp(got, cases[i][2])) {
			check_failures++;
			fprintf(stderr, "case %zu:\n  got  '%s'\n  want '%s'\n", i,
				got, cases[i][2]);
		}
		free(text);
	}
}

/* The profile as outside input: names, numbers, dates, counts, and the
 * faults and marks tied to the figures, each refused where it is. */
static void bad_outside_input(void)
{
	static const char *const cases[][3] = {
		{"  - kind: error", "  - kind: eror",
		 "bad.yaml:27:11: unknown kind 'eror'"},
		{"    suite: gemm\n    figure", "    suite: p2p\n    figure",
		 "bad.yaml:28:12: a fault in suite 'p2p', which options.suites does not list"},
		{"missing: [\"fp64 m=n=k=2048\"]", "missing: [\"dgemm \\\"quoted\\\" \\\\ name\"]",
		 "bad.yaml:31:14: 'dgemm \"quoted\" \\ name' is named missing but is among the figures"},
		{"marked: [\"triad", "marked: [\"triad 1 GiB\", \"triad",
		 "bad.yaml:38:13: 'triad 1 GiB' is named marked but no figure of suite membw has that name"},
		{"    marked: [\"triad \\\"quoted\\\" \\\\ name\"]", "    marked: []",
		 "bad.yaml:72:5: figure 'triad \"quoted\" \\ name' is marked but no bad-timer fault lists it in 'marked'"},
		{"      rejected: 3\n", "",
		 "bad.yaml:38:13: 'triad \"quoted\" \\ name' is named marked by a bad-timer fault but carries no such mark"},
		{"    marked: []\n  - kind: bad-timer", "    marked: []\n    ended: [gemm]\n  - kind: bad-timer",
		 "bad.yaml:33:12: 'ended' belongs to a device-lost fault, not error"},
		{"    ended: [membw]\n", "",
		 "bad.yaml:39:5: a device-lost fault needs 'ended'"},
		{"ended: [membw]", "ended: [membw, p2p]",
		 "bad.yaml:45:20: 'ended' names 'p2p', which options.suites does not list"},
		{"      rejected: 3\n", "      rejected: 3\n      too_few: true\n",
		 "bad.yaml:94:16: too_few needs rejected readings and converged false"},
		{"rejected: 3", "rejected: 0",
		 "bad.yaml:93:17: 'rejected' must be between 1 and 100000000, found 0"},
		{"samples_s: [8.333333333333334e-06,", "samples_s: [0,",
		 "bad.yaml:94:19: 'samples_s' expects times > 0, found 0"},
		{"    work: 56000000", "    work: 0",
		 "bad.yaml:80:11: 'work' expects a number > 0, found 0"},
		{"name: \"copy", "name: \"triad",
		 "bad.yaml:99:11: figure 'triad \"quoted\" \\ name' of suite membw appears twice (first at line 72)"},
		{"2026-01-02T03:04:05Z", "2025-02-29T03:04:05Z",
		 "bad.yaml:5:7: 'when' expects a UTC time YYYY-MM-DDTHH:MM:SSZ, found '2025-02-29T03:04:05Z'"},
		{"2026-01-02T03:04:05Z", "2026-01-02T24:04:05Z",
		 "bad.yaml:5:7: 'when' expects a UTC time YYYY-MM-DDTHH:MM:SSZ, found '2026-01-02T24:04:05Z'"},
		{"    name: \"dgemm", "    name: \"dg\\temm",
		 "bad.yaml:48:14: 'name' holds a tab (a name is one line of plain text)"},
		{"notes: []", "notes: [\"a\\x1b[2Jb\"]",
		 "bad.yaml:25:11: 'notes' holds an escape character"},
		{"suites: [gemm, membw]", "suites: [gemm, membw, gemm]",
		 "bad.yaml:16:25: suite 'gemm' is listed twice"},
		{"    max_reps: 200", "    max_reps: 5",
		 "bad.yaml:22:15: max_reps 5 is below min_reps 6"},
		{"      precision: fp64", "      precision: fp65",
		 "bad.yaml:51:18: unknown precision 'fp65'"},
		{"suites: [gemm, membw]", "suites: [membw]",
		 "bad.yaml:28:12: a fault in suite 'gemm', which options.suites does not list"},
	};
	check_first_errors(fill_faults, cases, sizeof(cases) / sizeof(cases[0]));
}

/* A GPU profile's samples, throttle marks and GPUs, refused where wrong. */
static void bad_gpu_input(void)
{
	struct bench_profile p;
	fill_gpu(&p);
	round_trip_of(&p);	/* the good one loads */
	bench_profile_free(&p);
	static const char *const cases[][3] = {
		{"    throttled: true\n", "",
		 "bad.yaml:55:13: 'triad \"quoted\" \\ name' is named marked by a throttled fault but carries no such mark"},
		{"  - kind: throttled", "  - kind: bad-timer",
		 "bad.yaml:92:5: figure 'triad \"quoted\" \\ name' is marked but no throttled fault lists it in 'marked'"},
		{"    - t_s: 0\n", "    - t_s: 0.5\n",
		 "bad.yaml:63:12: t_s 0.10000000000000001 is before the sample above it (0.5)"},
		{"interval_s: 0.1\n", "interval_s: 0\n",
		 "bad.yaml:57:15: 'interval_s' expects a number > 0, found 0"},
		{"      to_gpu: 1", "      to_gpu: 2",
		 "bad.yaml:146:7: a p2p figure from GPU 0 to GPU 2 on a host with 2"},
		{"throttle: [sw_thermal]", "throttle: []",
		 "bad.yaml:58:14: throttled is true but the samples show no slowing reason"},
	};
	check_first_errors(fill_gpu, cases, sizeof(cases) / sizeof(cases[0]));
}

static void prometheus(void)
{
	struct bench_profile p;
	fill(&p);
	char *text = emit(&p, bench_prom_emit);
	CHECK(strstr(text, "# TYPE gpuplan_bench_bytes_per_second gauge\n") != NULL);
	CHECK(strstr(text, "# TYPE gpuplan_bench_ci95_high_flops_per_second gauge\n") != NULL);
	CHECK(strstr(text, "gpuplan_bench_flops_per_second{device=\"cpu\",suite=\"gemm\",kernel=\"dgemm\",precision=\"fp64\",m=\"1024\",n=\"1024\",k=\"1024\",threads=\"3\"} ") != NULL);
	CHECK(strstr(text, "gpuplan_bench_ci95_low_bytes_per_second{device=\"cpu\",suite=\"membw\",kernel=\"triad\",bytes=\"8000000\",threads=\"3\"} ") != NULL);
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
	faults_round_trip();
	hostile_names();
	bad_inputs();
	bad_outside_input();
	bad_gpu_input();
	prometheus();
	return check_summary("profile");
}

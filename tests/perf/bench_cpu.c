/*
 * bench_cpu - runs the cpu backend's suites (src/bench/cpu_*.c) and prints
 * one line per figure, then each suite's wall time.  Used by
 * tests/perf/bench-accuracy.sh and to time the suites; not a test and not
 * the `gpuplan bench` command.
 *
 *   bench_cpu [--quick] [--threads N] [SUITE...]
 *   bench_cpu [--threads N] --triad|--copy FOOTPRINT_BYTES|top
 *   bench_cpu [--threads N] --gemm fp64|fp32 SIZE
 *
 * SUITE is membw, transfer or gemm (default: all three).  --triad, --copy
 * and --gemm measure one figure with the full suite's policy; `top` is the
 * membw sweep's largest footprint on this machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cpu_gemm.h"
#include "bench/cpu_info.h"
#include "bench/cpu_membw.h"
#include "profile/stream_rule.h"
#include "bench/cpu_transfer.h"

typedef int (*suite_fn)(const struct cpu_suite_options *,
			struct bench_figures *, char *, size_t);

static const struct { const char *name; suite_fn run; } suites[] = {
	{"membw", cpu_membw_suite},
	{"transfer", cpu_transfer_suite},
	{"gemm", cpu_gemm_suite},
};

static void print_figure(const struct bench_figure *f)
{
	printf("%-9s %-22s threads=%d calls/rep=%-7ld reps=%-4zu %s "
	       "median=%.6g s  %.2f G%s [%.2f, %.2f]%s%s\n",
	       f->suite, f->name, f->threads, f->iterations, f->time.n,
	       f->time.converged ? "conv" : "cap ", f->time.median,
	       f->value / 1e9, f->unit, f->low / 1e9, f->high / 1e9,
	       f->disturbed[0] ? "  DISTURBED: " : "", f->disturbed);
}

static int run_suite(const char *name, const struct cpu_suite_options *o)
{
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
		if (strcmp(suites[i].name, name) != 0)
			continue;
		struct bench_figures l;
		char why[300];
		bench_figures_init(&l);
		double t0 = cpu_suite_now();
		int rc = suites[i].run(o, &l, why, sizeof(why));
		double t = cpu_suite_now() - t0;
		for (size_t j = 0; j < l.n; j++)
			print_figure(&l.v[j]);
		if (rc < 0)
			fprintf(stderr, "bench_cpu: %s\n", why);
		printf("suite %s: %zu figures in %.2f s\n", name, l.n, t);
		bench_figures_free(&l);
		return rc;
	}
	fprintf(stderr, "bench_cpu: unknown suite '%s'\n", name);
	return -1;
}

/* BYTES, or "top": the first footprint resident in memory here
 * (profile/stream_rule.h), where the membw sweep's memory figures begin. */
static uint64_t triad_size(const char *arg)
{
	if (strcmp(arg, "top") != 0)
		return strtoull(arg, NULL, 10);
	struct cpu_info ci;
	cpu_info_read(&ci);
	return stream_memory_footprint(stream_llc_bytes(&ci));
}

static int run_one(int argc, char **argv, int i, const struct cpu_suite_options *o)
{
	struct bench_figures l;
	char why[300];
	int rc = -1;
	bench_figures_init(&l);
	if ((strcmp(argv[i], "--triad") == 0 || strcmp(argv[i], "--copy") == 0) &&
	    i + 1 < argc)
		rc = cpu_membw_measure(1u << (argv[i][2] == 't' ? MEMBW_TRIAD : MEMBW_COPY),
				       triad_size(argv[i + 1]), o, &l, why, sizeof(why));
	else if (strcmp(argv[i], "--gemm") == 0 && i + 2 < argc)
		rc = cpu_gemm_measure(strcmp(argv[i + 1], "fp32") == 0 ? GEMM_FP32 : GEMM_FP64,
				      strtol(argv[i + 2], NULL, 10), o, &l, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "usage: --triad BYTES | --copy BYTES | --gemm fp64|fp32 N");
	for (size_t j = 0; j < l.n; j++)
		print_figure(&l.v[j]);
	if (rc < 0)
		fprintf(stderr, "bench_cpu: %s\n", why);
	bench_figures_free(&l);
	return rc;
}

int main(int argc, char **argv)
{
	struct cpu_suite_options o = {0, false, NULL};
	int i = 1, rc = 0, ran = 0;
	for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
		if (strcmp(argv[i], "--quick") == 0)
			o.quick = true;
		else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
			o.threads = atoi(argv[++i]);
		else
			return run_one(argc, argv, i, &o) < 0;
	}
	double t0 = cpu_suite_now();
	for (; i < argc; i++, ran++)
		rc |= run_suite(argv[i], &o);
	for (size_t j = 0; !ran && j < sizeof(suites) / sizeof(suites[0]); j++)
		rc |= run_suite(suites[j].name, &o);
	printf("total: %.2f s\n", cpu_suite_now() - t0);
	return rc ? 1 : 0;
}

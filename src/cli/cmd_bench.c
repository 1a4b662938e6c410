/*
 * cmd_bench.c - `gpuplan bench`: measure a device and write a measured
 * profile (profile/profile.h).
 *
 * The profile (YAML) goes to -o FILE, written atomically, or to standard
 * output; progress lines, notes and the summary table go to standard
 * error, so `gpuplan bench > p.yaml` leaves a clean file.  The device is
 * the CPU (backend_cpu.c) or a CUDA GPU through the plugin
 * (backend_cuda.c); on a GPU, NVML samples clocks, temperature, power and
 * throttle reasons while the suites run (gpu_sampler.h).
 *
 * Faults while measuring (profile/fault.h: a job that fails, a lost device,
 * memory that runs out, a timer that lies, a throttling GPU) do not end
 * the run: each is recorded in the profile's `faults:` and said on
 * standard error, and the run carries on with what it can still measure.
 * Exit status: 0 when the profile was written, faults or not (it says what
 * is missing); 1 when faults left nothing measured (nothing is written:
 * a profile of no figures would only hide the failure), or on a runtime
 * failure; 2 on bad usage or input, or when -o or --prom names one of the
 * command's inputs (the --model file, or a file it includes), refused
 * before anything is measured.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/backend.h"
#include "bench/cpu_suite.h"
#include "bench/gpu_sampler.h"
#include "bench/host_quiet.h"
#include "bench/model_program.h"
#include "bench/model_sweep.h"
#include "bench/plugin_loader.h"
#include "bench/prom.h"
#include "bench/train_shapes.h"
#include "bench/verdicts.h"
#include "commands.h"
#include "core/atomic_file.h"
#include "core/paths.h"
#include "core/xalloc.h"
#include "common.h"
#include "out_dirs.h"
#include "core/suggest.h"
#include "core/table.h"
#include "core/units.h"
#include "profile/profile.h"

#define MAX_THREADS 4096

static const struct opt_spec bench_opts[] = {
	{"device", 'd', OPT_VALUE, "DEV",
	 "auto (the first GPU, else the CPU; the default), cpu, cuda or cuda:N"},
	{"suite", 's', OPT_VALUE, "LIST",
	 "comma-separated: gemm,membw,transfer,p2p,allreduce,launch,model,train-gemm,overlap,spread,layer (default: every suite the device has; those that need a model with --model)"},
	{"quick", 'q', OPT_FLAG, NULL,
	 "fewer sizes and shorter repetitions: a first look in seconds"},
	{"threads", 't', OPT_VALUE, "N",
	 "CPU threads for the kernels (default: every online CPU)"},
	{"model", 'm', OPT_VALUE, "PROFILE",
	 "also run this model's step at doubling batch sizes until memory runs out (a file, or a shipped model's name)"},
	{"seq", 0, OPT_VALUE, "N",
	 "tokens per sample for a sequence model (default: the model's own length)"},
	{"precision", 'p', OPT_VALUE, "P",
	 "the model's precision: fp32 or fp64 on the CPU; fp32, tf32, fp16 or bf16 on a GPU (default fp32; bf16 on GPUs that have it)"},
	{"memory-limit", 0, OPT_VALUE, "SIZE",
	 "CPU: memory the model's step may hold, e.g. 4GiB (default: 90% of what the kernel reports available)"},
	{"micro-batch", 0, OPT_VALUE, "N",
	 "training suites: samples per micro-batch the model's GEMMs and layer are cut for (default 1)"},
	{"tp", 0, OPT_VALUE, "N",
	 "training suites: the tensor-parallel degree that divides the model's GEMMs (default 1)"},
	{"sustain", 0, OPT_VALUE, "TIME",
	 "training suites: each figure's sustained phase, its first half settling, e.g. 20s (default 20s on a GPU, 1s on the CPU; --quick 4s and 0.25s)"},
	{"output", 'o', OPT_VALUE, "FILE",
	 "write the profile to FILE (atomically) instead of standard output"},
	{"prom", 0, OPT_VALUE, "FILE",
	 "also write the summaries in Prometheus text format (atomically)"},
	{"baselines", 0, OPT_VALUE, "FILE",
	 "judge a GPU's figures against these reference baselines (default: the shipped catalogs/baselines/accelerators.yaml)"},
	{NULL, 0, 0, NULL, NULL},
};

static const struct cmd_spec bench_spec = {
	"bench", NULL,
	"Measure a device (the CPU, a CUDA GPU) and write a measured profile.",
	bench_opts, 0, 0,
	"The profile (schema gpuplan/measured/v1: host, device, options, every\n"
	"figure with every raw repetition) goes to -o FILE or standard output;\n"
	"progress and the summary table go to standard error.  The CPU has\n"
	"gemm, membw and transfer; a GPU has gemm, membw, transfer, p2p,\n"
	"allreduce and launch; both run model when --model is given, and the\n"
	"training suites: train-gemm (the model's forward, data- and\n"
	"weight-gradient GEMMs, random data, sustained), overlap (the largest\n"
	"one beside a collective), spread (on every GPU of the host) and layer\n"
	"(one transformer layer forward and backward).",
};

struct bench_request {
	const char *suites[BENCH_PROFILE_MAX_SUITES];	/* asked for, in bench_suite_names order */
	size_t n_suites;	/* 0: the device's own */
	bool quick;
	int threads;		/* 0: the default */
	const char *device;	/* "auto", "cpu", "cuda", "cuda:N" */
	int cuda_index;
	const char *model;	/* --model, or NULL */
	long seq;		/* --seq; 0: the model's own */
	enum bench_precision precision;	/* --precision; 0: the device's default */
	uint64_t memory_limit;	/* --memory-limit; 0: the default */
	long micro_batch, tp;	/* --micro-batch, --tp (1 by default) */
	double sustain_s;	/* --sustain; 0: the device's default */
};

/* ---- options ---- */

static int parse_suites(const char *list, struct bench_request *q)
{
	bool want[BENCH_PROFILE_MAX_SUITES] = {false};
	char *copy = strdup(list ? list : "");
	int rc = 0;
	for (char *save = NULL, *s = strtok_r(copy, ",", &save); s && !rc;
	     s = strtok_r(NULL, ",", &save)) {
		size_t i = 0;
		while (bench_suite_names[i] && strcmp(bench_suite_names[i], s))
			i++;
		if (bench_suite_names[i]) {
			want[i] = true;
			continue;
		}
		char hint[96];
		const char *h = suggest_hint(s, bench_suite_names, (size_t)-1,
					     hint, sizeof(hint));
		rc = usage_error(&bench_spec, "unknown suite '%s'%s%s%s", s,
				 h ? " (" : "", h ? h : "", h ? ")" : "");
	}
	free(copy);
	for (size_t i = 0; bench_suite_names[i]; i++)
		if (want[i])
			q->suites[q->n_suites++] = bench_suite_names[i];
	if (!rc && q->n_suites == 0)
		rc = usage_error(&bench_spec, "--suite needs at least one suite");
	return rc;
}

static int parse_device(const char *d, struct bench_request *q)
{
	q->device = d ? d : "auto";
	if (!strcmp(q->device, "auto") || !strcmp(q->device, "cpu") ||
	    !strcmp(q->device, "cuda"))
		return 0;
	const char *n = !strncmp(q->device, "cuda:", 5) ? q->device + 5 : NULL;
	char *end = NULL;
	long v = n && *n >= '0' && *n <= '9' ? strtol(n, &end, 10) : -1;
	if (v < 0 || v > 1023 || *end)
		return usage_error(&bench_spec,
				   "--device '%s': expected auto, cpu, cuda or cuda:N",
				   q->device);
	q->cuda_index = (int)v;
	return 0;
}

/* --micro-batch, --tp and --sustain: the training suites' settings. */
static int parse_training_options(const struct parsed *p, struct bench_request *q)
{
	const char *mb = opt_value(p, &bench_spec, "micro-batch");
	const char *tp = opt_value(p, &bench_spec, "tp");
	const char *sustain = opt_value(p, &bench_spec, "sustain");
	q->micro_batch = q->tp = 1;
	if (mb && !opt_whole(mb, 1, 1L << 20, &q->micro_batch))
		return usage_error(&bench_spec,
				   "--micro-batch '%s': expected a whole number of samples from 1 to %ld",
				   mb, 1L << 20);
	if (tp && !opt_whole(tp, 1, 1024, &q->tp))
		return usage_error(&bench_spec,
				   "--tp '%s': expected a whole number of GPUs from 1 to 1024", tp);
	if (sustain) {
		struct unit_problem up;
		if (units_parse(UNIT_DURATION, sustain, &q->sustain_s, NULL, &up) < 0 ||
		    !(q->sustain_s >= 0.01 && q->sustain_s <= 3600))
			return usage_error(&bench_spec,
					   "--sustain '%s': expected a time from 10ms to 1h like '20s' or '200ms'",
					   sustain);
	}
	return 0;
}

/* --model, --seq, --precision, --memory-limit and the training suites'. */
static int parse_model_options(const struct parsed *p, struct bench_request *q)
{
	q->model = opt_value(p, &bench_spec, "model");
	const char *seq = opt_value(p, &bench_spec, "seq");
	const char *prec = opt_value(p, &bench_spec, "precision");
	const char *limit = opt_value(p, &bench_spec, "memory-limit");
	const char *train = opt_value(p, &bench_spec, "micro-batch") ? "micro-batch"
			    : opt_value(p, &bench_spec, "tp") ? "tp"
			    : opt_value(p, &bench_spec, "sustain") ? "sustain" : NULL;
	const char *needs = NULL;
	for (size_t i = 0; i < q->n_suites && !needs; i++)
		if (bench_suite_needs_model(q->suites[i]))
			needs = q->suites[i];
	if (needs && !q->model)
		return usage_error(&bench_spec, "the %s suite needs --model PROFILE", needs);
	if (!q->model && (seq || prec || limit || train))
		return usage_error(&bench_spec, "--%s applies to --model, which was not given",
				   seq ? "seq" : prec ? "precision" : limit ? "memory-limit" : train);
	int rc = parse_training_options(p, q);
	if (rc)
		return rc;
	if (seq) {
		if (!opt_whole(seq, 1, 1L << 24, &q->seq))
			return usage_error(&bench_spec,
					   "--seq '%s': expected a whole number of tokens from 1 to %ld",
					   seq, 1L << 24);
	}
	if (prec) {
		int core = precision_from_name(prec);
		q->precision = core >= 0 ? bench_precision_of(core) : 0;
		if (!q->precision || q->precision == BENCH_INT8 ||
		    q->precision == BENCH_FP8_E4M3)
			return usage_error(&bench_spec,
					   "--precision '%s': expected fp64, fp32, tf32, fp16 or bf16",
					   prec);
	}
	if (limit) {
		double bytes;
		struct unit_problem up;
		if (units_parse(UNIT_BYTES, limit, &bytes, NULL, &up) != 0 ||
		    !(bytes >= 1) || bytes > 0x1p62)
			return usage_error(&bench_spec,
					   "--memory-limit '%s': expected %s",
					   limit, units_example(UNIT_BYTES));
		q->memory_limit = (uint64_t)bytes;
	}
	return 0;
}

static int parse_request(const struct parsed *p, struct bench_request *q)
{
	memset(q, 0, sizeof(*q));
	q->quick = opt_flag(p, &bench_spec, "quick");
	const char *t = opt_value(p, &bench_spec, "threads");
	if (t) {
		long v;
		if (!opt_whole(t, 1, MAX_THREADS, &v))
			return usage_error(&bench_spec,
					   "--threads '%s': expected a whole number from 1 to %d",
					   t, MAX_THREADS);
		q->threads = (int)v;
		long online = sysconf(_SC_NPROCESSORS_ONLN);
		/* allowed (a scaling study may want it) but never silent:
		 * oversubscribed figures can be 100x slow */
		if (online > 0 && v > online)
			fprintf(stderr, "gpuplan: note: --threads %ld is more than the %ld online "
				"CPUs: the figures will measure oversubscription\n", v, online);
	}
	const char *s = opt_value(p, &bench_spec, "suite");
	int rc = s ? parse_suites(s, q) : 0;
	if (!rc)
		rc = parse_model_options(p, q);
	return rc ? rc : parse_device(opt_value(p, &bench_spec, "device"), q);
}

/* ---- the device ---- */

/* How many CUDA GPUs the plugin sees: >= 0, or -1 with why. */
static int probe_gpus(char *why, size_t len)
{
	struct cuda_plugin_handle h;
	if (cuda_plugin_load(&h, why, len) != 0)
		return -1;
	int n = h.api->device_count();
	cuda_plugin_unload(&h);
	if (n <= 0) {
		snprintf(why, len, "the driver reports no device");
		return -1;
	}
	return n;
}

/* Picks the backend: 0 with *b set, or 1 after saying why not. */
static int choose_backend(const struct bench_request *q,
			  const struct bench_backend **b)
{
	*b = bench_backend_cpu();
	if (!strcmp(q->device, "cpu"))
		return 0;
	char why[512];
	int n = probe_gpus(why, sizeof(why));
	bool want_cuda = strcmp(q->device, "auto") != 0;
	if (n < 0 && !want_cuda) {
		fprintf(stderr, "gpuplan bench: no CUDA GPU (%s): measuring the CPU\n", why);
		return 0;
	}
	if (n < 0) {
		fprintf(stderr, "gpuplan bench: no CUDA GPU: %s\n", why);
		return 1;
	}
	if (q->cuda_index >= n) {
		fprintf(stderr, "gpuplan bench: no device cuda:%d: the driver reports %d (cuda:0 to cuda:%d)\n",
			q->cuda_index, n, n - 1);
		return 1;
	}
	*b = bench_backend_cuda(q->cuda_index);
	return 0;
}

/* The suites to run on b into p->suites.  Asked-for suites the device
 * lacks are skipped with a note; none left is a usage error. */
static int pick_suites(const struct bench_request *q,
		       const struct bench_backend *b, struct bench_profile *p)
{
	const char *const *names = q->n_suites ? q->suites : bench_suite_names;
	size_t n = q->n_suites ? q->n_suites : (size_t)-1;
	for (size_t i = 0; i < n && names[i]; i++) {
		/* by default the suites that need a model run when there is one */
		if (!q->n_suites && bench_suite_needs_model(names[i]) && !q->model)
			continue;
		if (b->has_suite(names[i])) {
			snprintf(p->suites[p->n_suites++], sizeof(p->suites[0]),
				 "%s", names[i]);
		} else if (q->n_suites) {
			fprintf(stderr, "gpuplan bench: the %s has no %s suite (GPUs only): skipped\n",
				b->name, names[i]);
		}
	}
	if (p->n_suites == 0)
		return usage_error(&bench_spec, "nothing to measure on the %s (it has gemm, membw, transfer and, with --model, model, train-gemm, overlap, spread and layer)",
				   b->name);
	return 0;
}

/* ---- progress ---- */

/*
 * One line per measurement step: which suite, how far, what, and how long
 * the suite has left at the pace of its figures so far (a suite's sizes
 * grow, so the estimate is low early on; it says "about").  On a GPU the
 * sampler is told what is being measured, so its samples are labelled.
 */
struct progress {
	bool tty;		/* stderr is a terminal: redraw one line */
	size_t suite_index, n_suites;
	double suite_start;	/* s, monotonic */
	bool open;		/* a line without its newline is on screen */
	struct gpu_sampler *sampler;	/* NULL: none */
};

static void progress_line(void *ctx, const char *what, size_t done,
			  size_t total)
{
	struct progress *g = ctx;
	char left[48] = "";
	double spent = cpu_suite_now() - g->suite_start;
	if (done > 0 && total > done)
		snprintf(left, sizeof(left), ", about %.0f s left in this suite",
			 spent / (double)done * (double)(total - done));
	fprintf(stderr, "%sbench [suite %zu/%zu, figure %zu of %zu%s] %s%s",
		g->tty ? "\r\033[K" : "", g->suite_index + 1, g->n_suites,
		done + 1, total > done ? total : done + 1, left, what,
		g->tty ? "" : "\n");
	g->open = g->tty;
	fflush(stderr);
	if (g->sampler)
		gpu_sampler_mark(g->sampler, what);
}

static void progress_end(struct progress *g)
{
	if (g->open)
		fputc('\n', stderr);
	g->open = false;
}

static int run_suites(const struct bench_backend *b,
		      const struct bench_request *q, const struct model_graph *model,
		      struct bench_profile *p, struct gpu_sampler *sampler)
{
	struct bench_run_options o = {
		.quick = q->quick, .threads = q->threads, .policy = NULL,
		.model = model, .model_name = p->model_name,
		.precision = q->precision, .memory_limit = q->memory_limit,
		.micro_batch = q->micro_batch, .tp = q->tp,
		.sustain_s = p->sustain_s};
	struct progress g = {isatty(STDERR_FILENO) != 0, 0, p->n_suites, 0,
			     false, sampler};
	for (size_t i = 0; i < p->n_suites; i++) {
		g.suite_index = i;
		g.suite_start = cpu_suite_now();
		if (b->run_suite(p->suites[i], &o, &p->figures, progress_line,
				 &g) != 0) {
			progress_end(&g);
			fprintf(stderr, "gpuplan bench: %s: %s\n", p->suites[i],
				b->last_error());
			return 1;
		}
	}
	progress_end(&g);
	return 0;
}

/* ---- summary ---- */

/*
 * Figures measured while other programs held the cores are said so,
 * loudly, with the first one's evidence: their rates are the busy host's,
 * not the machine's (host_quiet.h).
 */
static void say_disturbed(const struct bench_figures *l)
{
	size_t n = 0;
	const struct bench_figure *first = NULL;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].disturbed[0]) {
			n++;
			if (!first)
				first = &l->v[i];
		}
	if (!first)
		return;
	fprintf(stderr, "gpuplan bench: DISTURBED: %zu of %zu figures were measured while other programs held the cores, after %d tries each (first, '%s': %s); "
		"their rates are the busy host's, marked 'disturbed' in the profile: measure again on a quiet host\n",
		n, l->n, HOST_QUIET_ATTEMPTS, first->name, first->disturbed);
}

/* A figure's rate in its unit: bytes and FLOP/s (or OPS for integer
 * GEMMs) with a prefix; launches as the latency of one, which is what
 * anyone asks of them. */
static void format_rate(const struct bench_figure *f, double v, char *buf,
			size_t len)
{
	if (!strcmp(f->unit, "launch/s")) {
		snprintf(buf, len, "%.3g us/launch", v > 0 ? 1e6 / v : 0);
		return;
	}
	struct unit_detail d = {.integer_ops = !strcmp(f->unit, "OP/s")};
	units_format(strcmp(f->unit, "B/s") ? UNIT_COMPUTE : UNIT_RATE, v, &d,
		     buf, len);
}

static void summary_table(const struct bench_profile *p, double seconds)
{
	static const char *const header[] = {"SUITE", "FIGURE", "RATE",
					     "95% INTERVAL", "REPS", "CONVERGED"};
	struct table t;
	table_init(&t, 6, header);
	table_right_align(&t, 2);
	table_right_align(&t, 4);
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *f = &p->figures.v[i];
		char rate[32], lo[32], hi[32], ci[72], reps[16], state[64];
		format_rate(f, f->value, rate, sizeof(rate));
		format_rate(f, f->low, lo, sizeof(lo));
		format_rate(f, f->high, hi, sizeof(hi));
		snprintf(ci, sizeof(ci), "%s .. %s", lo, hi);
		snprintf(reps, sizeof(reps), "%zu", f->time.n);
		/* a mark (profile/fault.h) is said where the figure is */
		int at = snprintf(state, sizeof(state), "%s",
				  f->time.too_few ? "no (too few)"
				  : f->time.converged ? "yes" : "no (cap)");
		if (f->time.rejected)
			at += snprintf(state + at, sizeof(state) - (size_t)at,
				       ", %zu bad timer reading%s", f->time.rejected,
				       f->time.rejected == 1 ? "" : "s");
		if (f->throttled)
			at += snprintf(state + at, sizeof(state) - (size_t)at, ", throttled");
		if (f->disturbed[0] && at < (int)sizeof(state))
			snprintf(state + at, sizeof(state) - (size_t)at, ", DISTURBED");
		const char *row[] = {f->suite, f->name, rate, ci, reps, state};
		table_add_row(&t, row);
	}
	table_print(&t, stderr);
	table_free(&t);
	say_disturbed(&p->figures);
	for (size_t i = 0; i < p->figures.n_notes; i++)
		fprintf(stderr, "note: %s\n", p->figures.notes[i]);
	if (!strcmp(p->device.kind, "cpu"))
		fprintf(stderr, "%zu figures of the cpu '%s' in %.1f s, %d thread%s\n",
			p->figures.n, p->device.name, seconds, p->threads,
			p->threads == 1 ? "" : "s");
	else
		fprintf(stderr, "%zu figures of cuda:%d '%s' in %.1f s\n",
			p->figures.n, p->device.index, p->device.name, seconds);
}

/* ---- output ---- */

/* Renders one output and stages it in set: an ATOMIC_* code, why set. */
static int stage(struct atomic_set *set,
		 void (*emit)(const struct bench_profile *, FILE *),
		 const struct bench_profile *p, const char *path, char *why,
		 size_t len)
{
	size_t size;
	char *buf = bench_profile_render(emit, p, &size);
	if (!buf) {
		snprintf(why, len, "cannot write '%s': out of memory", path);
		return ATOMIC_FAILED;
	}
	int rc = atomic_set_add(set, path, buf, size, why, len);
	free(buf);
	return rc;
}

/* The profile and the Prometheus text as one set (atomic_file.h): both
 * are written or neither.  0, 1 on a failure, 2 when a target is refused. */
static int write_outputs(const struct bench_profile *p, const char *out,
			 const char *prom)
{
	char why[512] = "";
	bool to_file = out && strcmp(out, "-") != 0;
	struct atomic_set set;
	atomic_set_init(&set);
	int rc = ATOMIC_OK;
	if (to_file)
		rc = stage(&set, bench_profile_emit, p, out, why, sizeof(why));
	bool prom_out = prom && !strcmp(prom, "-");	/* -o FILE: checked */
	if (rc == ATOMIC_OK && prom && !prom_out)
		rc = stage(&set, bench_prom_emit, p, prom, why, sizeof(why));
	if (rc == ATOMIC_OK)
		rc = atomic_set_commit(&set, why, sizeof(why));
	else
		atomic_set_abort(&set);
	if (rc != ATOMIC_OK) {
		fprintf(stderr, "gpuplan bench: %s\n", why);
		return rc == ATOMIC_REFUSED ? 2 : 1;
	}
	if (to_file)
		fprintf(stderr, "profile written to %s\n", out);
	else
		bench_profile_emit(p, stdout);
	if (prom_out)
		bench_prom_emit(p, stdout);
	return 0;
}

/* -o and --prom, checked once the inputs are read and before minutes of
 * measuring: neither may name an input (the model or a file it includes),
 * a folder, or a file in a folder that is missing or may not be written
 * (a typo costs a second, not a run), and they may not name one file.
 * 0, or 2 after saying why. */
static int check_targets(const char *out, const char *prom)
{
	const char *t[2] = {out && strcmp(out, "-") ? out : NULL,
			    prom && strcmp(prom, "-") ? prom : NULL};
	const char *option[2] = {"-o", "--prom"};
	for (int i = 0; i < 2; i++)
		if (t[i] && out_file_usable(option[i], t[i]))
			return 2;
	/* one file by name or by inode; a device (/dev/null) takes both */
	struct stat a, b;
	bool a_is = t[0] && stat(t[0], &a) == 0, b_is = t[1] && stat(t[1], &b) == 0;
	bool same = t[0] && t[1] &&
		    (a_is ? b_is && S_ISREG(a.st_mode) && a.st_dev == b.st_dev &&
				    a.st_ino == b.st_ino
			  : !strcmp(t[0], t[1]));
	if (same)
		return usage_error(&bench_spec, "-o and --prom name the same file '%s'",
				   t[1]);
	return 0;
}

/* The model, loaded and built before anything is measured: a typo in it
 * costs a second.  0, or 2 after printing the problems. */
static int load_model(const struct bench_request *q, struct model *m,
		      struct model_graph *g, struct bench_profile *p)
{
	memset(m, 0, sizeof(*m));
	memset(g, 0, sizeof(*g));
	if (!q->model)
		return 0;
	int rc = cli_load_model(q->model, q->seq, 0, m, g);
	if (rc == 0) {
		struct model_sweep_options s = model_sweep_defaults(q->quick);
		snprintf(p->model_name, sizeof(p->model_name), "%s", m->name);
		p->model_seq = g->seq;
		p->model_policy = s.policy;
		p->model_step_cap_s = s.step_cap_s;
		p->model_max_batch = s.max_batch;
	}
	return rc;
}

/* The model's products cut for --micro-batch and --tp before anything is
 * measured (train_shapes.h): a tp that leaves a fraction of a layer's
 * features is a usage error, not a minute's bench that fails.  0 or 2. */
static int check_shapes(const struct bench_request *q,
			const struct model_graph *g, const struct bench_profile *p)
{
	bool gemms = false;
	for (size_t i = 0; i < p->n_suites; i++)
		gemms |= bench_suite_sustained(p->suites[i]) &&
			 strcmp(p->suites[i], "layer") != 0;
	struct train_shapes s;
	char why[256];
	if (!gemms || train_shapes_of(g, q->micro_batch, q->tp, &s, why,
				      sizeof(why)) == 0)
		return 0;
	return usage_error(&bench_spec, "%s: %s", p->model_name, why);
}

/* --precision against what the device's executor runs: the CPU's OpenBLAS
 * programs are fp32 or fp64; GPU programs fp32, tf32, fp16 or bf16. */
static int check_precision(const struct bench_request *q,
			   const struct bench_backend *b)
{
	if (!q->precision)
		return 0;
	bool cpu = !strcmp(b->name, "cpu");
	bool ok = cpu ? q->precision == BENCH_FP32 || q->precision == BENCH_FP64
		      : q->precision != BENCH_FP64;
	if (ok)
		return 0;
	return usage_error(&bench_spec, "--precision %s: the %s runs models at %s",
			   precision_name(bench_precision_core(q->precision)),
			   b->name, cpu ? "fp32 or fp64" : "fp32, tf32, fp16 or bf16");
}

/* On a GPU: NVML samples while the suites run, or a note saying why not. */
static struct gpu_sampler *start_sampler(struct bench_profile *p)
{
	if (strcmp(p->device.kind, "cuda") != 0)
		return NULL;
	char why[256];
	struct gpu_sampler *s = NULL;
	p->samples.interval_s = 0.1;
	if (!(p->device.gpu.valid & GPUPLAN_CUDA_HAS_UUID))
		snprintf(why, sizeof(why), "the driver gave no UUID to find the GPU in NVML by");
	else
		s = gpu_sampler_start(p->device.gpu.uuid, p->samples.interval_s,
				      why, sizeof(why));
	if (!s) {
		snprintf(p->sampling_note, sizeof(p->sampling_note), "%s", why);
		fprintf(stderr, "gpuplan bench: note: no clock, temperature or throttle samples: %s\n", why);
	}
	return s;
}

/* A throttled run is said so, loudly: its figures are below the board's. */
static void say_throttled(const struct gpu_samples *s)
{
	if (!s->throttled)
		return;
	char names[160];
	gpu_throttle_names(s->throttle_seen & GPU_THROTTLE_SLOWING, names,
			   sizeof(names));
	/* the first slowed sample; "" there is before the first figure */
	const char *during = NULL;
	for (size_t i = 0; i < s->n && !during; i++)
		if (s->v[i].throttle & GPU_THROTTLE_SLOWING)
			during = s->v[i].during;
	char when[BENCH_LABEL_MAX + 16] = "before the first figure";
	if (during && *during)
		snprintf(when, sizeof(when), "during '%s'", during);
	fprintf(stderr, "gpuplan bench: THROTTLED: the GPU slowed its clocks (%s), first %s; "
		"figures measured then are below what this board gives when cool and within its power limit\n",
		names, when);
}

/* The training suites' settings into p, when one of them runs: the
 * sustained phase the device gets by default unless --sustain gave one. */
static void training_settings(const struct bench_request *q,
			      struct bench_profile *p)
{
	bool training = false;
	for (size_t i = 0; i < p->n_suites; i++)
		training |= bench_suite_sustained(p->suites[i]);
	if (!training)
		return;
	p->train_micro_batch = q->micro_batch;
	p->train_tp = q->tp;
	p->sustain_s = q->sustain_s > 0
		? q->sustain_s
		: sustain_default_s(strcmp(p->device.kind, "cpu") != 0, q->quick);
}

/* Each sustained figure's clocks in its steady part (profile.h), one line
 * each: what the GPU held while the figure was measured. */
static void say_clocks(const struct bench_profile *p)
{
	bool any = false;
	for (size_t i = 0; i < p->figures.n; i++) {
		const struct bench_figure *f = &p->figures.v[i];
		const struct gpu_window *w = &f->clocks;
		if (!bench_suite_sustained(f->suite))
			continue;
		any = true;
		if (!w->samples)
			continue;
		char names[160] = "none";
		if (w->throttle)
			gpu_throttle_names(w->throttle, names, sizeof(names));
		fprintf(stderr, "clocks: %s '%s': ", f->suite, f->name);
		if (w->has_sm_clock)
			fprintf(stderr, "median SM clock %.0f MHz, ", w->sm_clock_median_hz / 1e6);
		if (w->has_power)
			fprintf(stderr, "median power %.0f W, ", w->power_median_w);
		if (w->has_temperature)
			fprintf(stderr, "hottest %.0f C, ", w->temperature_max_c);
		fprintf(stderr, "throttle reasons: %s (%zu sample%s of the steady part)\n",
			names, w->samples, w->samples == 1 ? "" : "s");
	}
	if (any && !strcmp(p->device.kind, "cpu"))
		fprintf(stderr, "clocks: not sampled on the CPU (NVML samples GPUs only)\n");
}

/* Each fault, on its own line: what, where, and what it cost. */
static void say_faults(const struct bench_faults *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct bench_fault *f = &l->v[i];
		fprintf(stderr, "gpuplan bench: FAULT (%s) in %s%s%s%s: %s",
			bench_fault_kind_name(f->kind), f->suite,
			f->figure[0] ? ", '" : "", f->figure,
			f->figure[0] ? "'" : "", f->what);
		if (f->missing.n)
			fprintf(stderr, "; missing: %zu figure%s", f->missing.n,
				f->missing.n == 1 ? "" : "s");
		if (f->marked.n)
			fprintf(stderr, "; marked: %zu figure%s", f->marked.n,
				f->marked.n == 1 ? "" : "s");
		for (size_t k = 0; k < f->ended.n; k++)
			fprintf(stderr, "%s%s", k ? ", " : "; suites ended: ",
				f->ended.v[k]);
		fputc('\n', stderr);
	}
	if (l->n)
		fprintf(stderr, "gpuplan bench: %zu fault%s: the profile's 'faults:' "
			"says which figures are missing or marked\n", l->n,
			l->n == 1 ? "" : "s");
}

/* Faults that left no figure at all: exit 1, nothing written. */
static int nothing_measured(const struct bench_profile *p)
{
	if (p->figures.n || !p->figures.faults.n)
		return 0;
	fprintf(stderr, "gpuplan bench: nothing could be measured on %s '%s': "
		"no profile written\n", p->device.kind, p->device.name);
	return 1;
}

static int measure(const struct bench_request *q, const struct bench_backend *b,
		   const struct parsed *parsed)
{
	struct bench_profile p;
	struct model m;
	struct model_graph g;
	struct bench_verdicts verdicts;
	bench_profile_init(&p);
	memset(&verdicts, 0, sizeof(verdicts));
	catalog_init(&verdicts.catalog);
	int rc = load_model(q, &m, &g, &p);
	if (!rc)
		rc = check_precision(q, b);
	if (!rc)
		rc = pick_suites(q, b, &p);
	if (!rc)
		rc = check_shapes(q, &g, &p);
	if (rc)
		goto out;
	const char *prom = opt_value(parsed, &bench_spec, "prom");
	const char *out_file = opt_value(parsed, &bench_spec, "output");
	if (prom && !strcmp(prom, "-") && (!out_file || !strcmp(out_file, "-"))) {
		rc = usage_error(&bench_spec, "--prom - and the profile would share standard output: write the profile with -o FILE");
		goto out;
	}
	if ((rc = check_targets(opt_value(parsed, &bench_spec, "output"), prom)) ||
	    (rc = bench_verdicts_load(&verdicts, opt_value(parsed, &bench_spec, "baselines"))))
		goto out;
	if (b->init() != 0) {
		fprintf(stderr, "gpuplan bench: %s: %s\n", b->name, b->last_error());
		rc = 1;
		goto out;
	}
	if (b->describe(&p.device) != 0) {
		fprintf(stderr, "gpuplan bench: %s: %s\n", b->name, b->last_error());
		b->shutdown();
		rc = 1;
		goto out;
	}
	bench_profile_stamp(&p);
	if (q->memory_limit && strcmp(p.device.kind, "cpu") != 0)
		fprintf(stderr, "gpuplan bench: note: --memory-limit applies to the CPU: "
			"on a GPU the model's sweep runs until the GPU's own memory ends it\n");
	struct cpu_suite_options co = {q->threads, q->quick, NULL};
	training_settings(q, &p);
	p.quick = q->quick;
	p.threads = strcmp(p.device.kind, "cpu") ? 1 : cpu_suite_threads(&co);
	p.policy = b->policy(q->quick);
	struct gpu_sampler *sampler = start_sampler(&p);
	double start = cpu_suite_now();
	rc = run_suites(b, q, q->model ? &g : NULL, &p, sampler);
	if (sampler)
		gpu_sampler_stop(sampler, &p.samples);
	b->shutdown();
	if (rc == 0) {
		bench_profile_mark_throttled(&p);
		bench_profile_window_clocks(&p);
		summary_table(&p, cpu_suite_now() - start);
		say_clocks(&p);
		say_throttled(&p.samples);
		say_faults(&p.figures.faults);
		bench_verdicts_say(&verdicts, &p, stderr);
		rc = nothing_measured(&p);
	}
	if (rc == 0)
		rc = write_outputs(&p, opt_value(parsed, &bench_spec, "output"),
				   opt_value(parsed, &bench_spec, "prom"));
out:
	bench_verdicts_free(&verdicts);
	model_graph_free(&g);
	model_free(&m);
	bench_profile_free(&p);
	return rc;
}

int cmd_bench(int argc, char **argv)
{
	struct parsed p;
	struct bench_request q;
	const struct bench_backend *b = NULL;
	char why[256];
	int rc = opts_parse(&bench_spec, argc, argv, &p);
	if (rc == OPTS_OK)
		rc = parse_request(&p, &q);
	if (rc == OPTS_OK)
		rc = choose_backend(&q, &b);
	if (rc == OPTS_OK && bench_backend_check(b, why, sizeof(why)) != 0) {
		fprintf(stderr, "gpuplan bench: %s\n", why);
		rc = 1;
	}
	if (rc == OPTS_OK)
		rc = measure(&q, b, &p);
	opts_free(&p);
	return rc == OPTS_HELP_SHOWN ? 0 : rc;
}

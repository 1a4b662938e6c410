/*
 * backend_cpu.c - the built-in CPU backend: struct bench_backend over the
 * gemm, membw and transfer suites (cpu_gemm.h, cpu_membw.h,
 * cpu_transfer.h), one measurement step at a time so that a progress line
 * can say how far a suite has got.  The sweeps are the suites' own: the
 * sizes come from cpu_*_sizes and GEMM stops where cpu_gemm_sweep_stops
 * says, exactly as cpu_gemm_suite does.
 *
 * The last error is kept in a static buffer: the backend is a singleton
 * used by one command at a time, like a plugin.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench/backend.h"
#include "bench/cpu_gemm.h"
#include "bench/cpu_membw.h"
#include "bench/cpu_program.h"
#include "bench/cpu_train.h"
#include "bench/cpu_transfer.h"
#include "bench/layer_program.h"
#include "bench/model_sweep.h"
#include "bench/train_suite.h"
#include "profile/stream_rule.h"

static char last_error[512];

/* A suite's run: the options, where figures go, and the progress hook. */
struct cpu_run {
	struct cpu_suite_options o;
	const struct bench_run_options *opts;
	struct bench_figures *out;
	bench_progress_fn progress;
	void *ctx;
	size_t done, total;	/* figures of this suite */
};

static void step(struct cpu_run *r, const char *what)
{
	if (r->progress)
		r->progress(r->ctx, what, r->done, r->total);
}

static int cpu_init(void)
{
	last_error[0] = '\0';
	return 0;
}

static int cpu_describe(struct bench_device *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->kind, sizeof(out->kind), "cpu");
	cpu_info_read(&out->cpu);
	snprintf(out->name, sizeof(out->name), "%s",
		 (out->cpu.valid & CPU_INFO_HAS_MODEL) ? out->cpu.model
						       : "unknown CPU");
	return 0;
}

/*
 * Faults (profile/fault.h): buffers that cannot be allocated at a size are an
 * out-of-memory fault naming that size's figures and every larger size's
 * (a series that ran out of memory is not tried further up); output that
 * does not check out is a wrong-result fault naming the figure.  The suite
 * goes on either way; only CPU_MEASURE_FAILED ends it.
 */

/* A series of sizes: after an out-of-memory fault, its index. */
struct series {
	bool full;
	size_t fault;
};

/* Records what a measure function's rc (not 0, not FAILED) cost: the
 * figures of names not pushed since `before`. */
static void cpu_fault(struct cpu_run *r, const char *suite, int rc,
		      const char *const *names, size_t n_names, size_t before,
		      struct series *s)
{
	struct bench_figures *l = r->out;
	struct bench_names missing = {0};
	for (size_t k = 0; k < n_names; k++) {
		bool pushed = false;
		for (size_t j = before; j < l->n && !pushed; j++)
			pushed = !strcmp(l->v[j].name, names[k]);
		if (!pushed)
			bench_names_add(&missing, names[k]);
	}
	size_t i = bench_faults_add(&l->faults, rc == CPU_MEASURE_NO_MEMORY
					? BENCH_FAULT_OUT_OF_MEMORY
					: BENCH_FAULT_WRONG_RESULT,
				    suite, missing.n ? missing.v[0] : names[0],
				    "%s", last_error);
	l->faults.v[i].missing = missing;
	if (s && rc == CPU_MEASURE_NO_MEMORY) {
		s->full = true;
		s->fault = i;
	}
}

/* Names the figures of a size a full series skips; true when it did. */
static bool skipped(struct cpu_run *r, const struct series *s,
		    const char *const *names, size_t n_names)
{
	if (!s->full)
		return false;
	for (size_t k = 0; k < n_names; k++)
		bench_fault_skip(&r->out->faults.v[s->fault], names[k]);
	return true;
}

/* After a figure was pushed: discarded timer readings are marked. */
static void measured(struct cpu_run *r, size_t before)
{
	for (size_t j = before; j < r->out->n; j++)
		bench_figures_timer_fault(r->out, &r->out->v[j], true);
}

static int run_gemm(struct cpu_run *r)
{
	long sizes[16];
	size_t count = cpu_gemm_sizes(r->o.quick, sizes, 16);
	r->total = 2 * count;
	for (int p = GEMM_FP64; p <= GEMM_FP32; p++) {
		double last_rate = 0;
		size_t measured_n = 0;
		struct series s = {false, 0};
		for (size_t i = 0; i < count; i++, measured_n++) {
			char what[96], name[64];
			const char *names[1] = {name};
			snprintf(name, sizeof(name), "%s m=n=k=%ld",
				 gemm_precision_name(p), sizes[i]);
			snprintf(what, sizeof(what), "gemm %s", name);
			if (skipped(r, &s, names, 1)) {
				r->done++;
				continue;
			}
			step(r, what);
			size_t before = r->out->n;
			int rc = cpu_gemm_measure(p, sizes[i], &r->o, r->out,
						  last_error, sizeof(last_error));
			r->done++;
			if (rc == CPU_MEASURE_FAILED)
				return -1;
			if (rc != 0) {
				cpu_fault(r, "gemm", rc, names, 1, before, &s);
				continue;
			}
			measured(r, before);
			const struct bench_figure *f = &r->out->v[r->out->n - 1];
			if (cpu_gemm_sweep_stops(&r->o, f, last_rate,
						 measured_n + 1))
				break;
			last_rate = f->value;
		}
		/* the sizes a plateau skipped are no longer expected */
		r->total -= count - (measured_n < count ? measured_n + 1 : count);
	}
	return 0;
}

static int run_membw(struct cpu_run *r)
{
	struct cpu_info ci;
	cpu_info_read(&ci);
	uint64_t sizes[32];
	size_t count = cpu_membw_sizes(r->o.quick, stream_llc_bytes(&ci),
				       (ci.valid & CPU_INFO_HAS_MEMORY) ? ci.memory_bytes : 0,
				       sizes, 32);
	r->total = count * MEMBW_KERNELS;
	struct series s = {false, 0};
	for (size_t i = 0; i < count; i++) {
		char size[32], what[96], names[MEMBW_KERNELS][64];
		const char *p[MEMBW_KERNELS];
		cpu_suite_size_name((double)sizes[i], size, sizeof(size));
		for (int k = 0; k < MEMBW_KERNELS; k++) {
			snprintf(names[k], sizeof(names[k]), "%s %s",
				 membw_kernel_name((enum membw_kernel)k), size);
			p[k] = names[k];
		}
		if (skipped(r, &s, p, MEMBW_KERNELS)) {
			r->done += MEMBW_KERNELS;
			continue;
		}
		snprintf(what, sizeof(what), "membw %s: copy, scale, add, triad",
			 size);
		step(r, what);
		size_t before = r->out->n;
		int rc = cpu_membw_measure((1u << MEMBW_KERNELS) - 1, sizes[i],
					   &r->o, r->out, last_error,
					   sizeof(last_error));
		r->done += MEMBW_KERNELS;
		if (rc == CPU_MEASURE_FAILED)
			return -1;
		measured(r, before);
		if (rc != 0)
			cpu_fault(r, "membw", rc, p, MEMBW_KERNELS, before, &s);
	}
	return 0;
}

static int run_transfer(struct cpu_run *r)
{
	uint64_t sizes[16];
	size_t count = cpu_transfer_sizes(r->o.quick, sizes, 16);
	r->total = count;
	struct series s = {false, 0};
	for (size_t i = 0; i < count; i++) {
		char size[32], what[96], name[64];
		const char *names[1] = {name};
		cpu_suite_size_name((double)sizes[i], size, sizeof(size));
		snprintf(name, sizeof(name), "memcpy %s", size);
		snprintf(what, sizeof(what), "transfer %s", name);
		if (skipped(r, &s, names, 1)) {
			r->done++;
			continue;
		}
		step(r, what);
		size_t before = r->out->n;
		int rc = cpu_transfer_measure(sizes[i], &r->o, r->out, last_error,
					      sizeof(last_error));
		r->done++;
		if (rc == CPU_MEASURE_FAILED)
			return -1;
		if (rc != 0)
			cpu_fault(r, "transfer", rc, names, 1, before, &s);
		else
			measured(r, before);
	}
	return 0;
}

/* ---- the model suite: programs on the CPU (cpu_program.h) ---- */

/* Bytes the kernel says a process may still allocate without swapping
 * (MemAvailable, /proc/meminfo); 0 when it cannot be read. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return 0;
	char line[256];
	unsigned long long kib = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

struct cpu_executor {
	uint64_t limit;
	int threads;
};

static int cpu_prepare(void *ctx, const struct bench_program *p, void **run,
		       double *bytes, char *why, size_t len)
{
	struct cpu_executor *e = ctx;
	uint64_t held = 0;
	int st = cpu_program_prepare(p, e->limit, e->threads,
				     (struct cpu_program **)run, &held, why,
				     len);
	*bytes = (double)held;
	return st;
}

static int cpu_step(void *run, double *seconds, char *why, size_t len)
{
	double t0 = cpu_suite_now();
	int st = cpu_program_run(run, 1, why, len);
	*seconds = cpu_suite_now() - t0;
	return st;
}

static int cpu_check(void *run, char *why, size_t len)
{
	return cpu_program_check(run, why, len);
}

static void cpu_release(void *run)
{
	cpu_program_free(run);
}

static int run_model(struct cpu_run *r)
{
	const struct bench_run_options *o = r->opts;
	if (!o->model) {
		snprintf(last_error, sizeof(last_error),
			 "the model suite needs a model (--model PROFILE)");
		return -1;
	}
	struct cpu_executor e = {o->memory_limit, cpu_suite_threads(&r->o)};
	if (!e.limit)
		e.limit = mem_available() / 10 * 9;
	if (!e.limit) {
		snprintf(last_error, sizeof(last_error),
			 "cannot read MemAvailable from /proc/meminfo; give --memory-limit");
		return -1;
	}
	/* the CPU cannot be lost: no health check */
	struct program_executor x = {&e, cpu_prepare, cpu_step, cpu_check,
				     cpu_release, NULL};
	struct model_sweep_options s = model_sweep_defaults(o->quick);
	s.graph = o->model;
	s.model_name = o->model_name;
	s.precision = o->precision ? o->precision : BENCH_FP32;
	s.threads = e.threads;
	s.watch_host = true;
	if (o->policy)
		s.policy = *o->policy;
	return model_sweep_run(&s, &x, r->out, r->progress, r->ctx, last_error,
			       sizeof(last_error));
}

/* ---- the training suites (train_suite.h) ---- */

/* The model's precision for the CPU's GEMMs: fp32 unless fp64 was asked. */
static enum gemm_precision train_precision(const struct cpu_run *r)
{
	return r->opts->precision == BENCH_FP64 ? GEMM_FP64 : GEMM_FP32;
}

static int need_model(const struct cpu_run *r, const char *suite)
{
	if (r->opts->model)
		return 0;
	snprintf(last_error, sizeof(last_error),
		 "the %s suite needs a model (--model PROFILE)", suite);
	return -1;
}

/* One of the model's GEMMs into figure f, sustained; a fault is recorded
 * and the suite goes on.  -1 only when the suite must end. */
static int train_one(struct cpu_run *r, const struct cpu_suite_options *o,
		     struct bench_figure *f, const struct train_gemm *g)
{
	char label[BENCH_LABEL_MAX];
	const char *names[1] = {f->name};
	bench_figure_label(f, label, sizeof(label));
	step(r, label);
	size_t before = r->out->n;
	int rc = cpu_train_gemm(train_precision(r), g, o, r->opts->sustain_s, f,
				r->out, last_error, sizeof(last_error));
	r->done++;
	if (rc == CPU_MEASURE_FAILED)
		return -1;
	if (rc != 0)
		cpu_fault(r, f->suite, rc, names, 1, before, NULL);
	else
		measured(r, before);
	return 0;
}

static int run_train_gemm(struct cpu_run *r)
{
	struct train_shapes s;
	if (need_model(r, "train-gemm") < 0 ||
	    train_suite_shapes(r->opts, &s, r->out, last_error,
			       sizeof(last_error)) < 0)
		return -1;
	r->total = s.n * TRAIN_ROLES;
	const char *prec = gemm_precision_name(train_precision(r));
	for (size_t i = 0; i < s.n; i++)
		for (int role = 0; role < TRAIN_ROLES; role++) {
			struct bench_figure f;
			struct train_gemm g;
			train_suite_figure(&f, "train-gemm", prec, &s.v[i],
					   (enum train_role)role, "", r->opts, &g);
			if (train_one(r, &r->o, &f, &g) < 0)
				return -1;
		}
	return 0;
}

/*
 * The largest product's forward GEMM alone, then beside a thread copying
 * memory: the CPU's stand-in for a collective (cpu_train.h).  The GEMM
 * runs on one thread fewer than asked when it can, so the copy thread has
 * a core of its own and the slowdown is the memory's, not a core shared.
 */
static int run_overlap(struct cpu_run *r)
{
	struct train_shapes s;
	if (need_model(r, "overlap") < 0 ||
	    train_suite_shapes(r->opts, &s, r->out, last_error,
			       sizeof(last_error)) < 0)
		return -1;
	struct cpu_suite_options o = r->o;
	int team = cpu_suite_threads(&r->o);
	o.threads = team > 1 ? team - 1 : 1;
	r->total = 2;
	const char *prec = gemm_precision_name(train_precision(r));
	struct bench_figure f;
	struct train_gemm g;
	train_suite_figure(&f, "overlap", prec, &s.v[0], TRAIN_FORWARD, "alone",
			   r->opts, &g);
	if (train_one(r, &o, &f, &g) < 0)
		return -1;
	struct cpu_copier *c = cpu_copier_start(TRAIN_OVERLAP_BYTES, last_error,
						sizeof(last_error));
	if (!c) {
		bench_figures_note(r->out, "overlap: no copy thread (%s): the GEMM beside one is not measured",
				   last_error);
		return 0;
	}
	train_suite_figure(&f, "overlap", prec, &s.v[0], TRAIN_FORWARD,
			   "beside memcpy", r->opts, &g);
	f.bytes = (double)TRAIN_OVERLAP_BYTES;
	int rc = train_one(r, &o, &f, &g);
	double rate = cpu_copier_stop(c);
	bench_figures_note(r->out,
			   "overlap on the CPU: a thread copying %llu MiB buffers (%.3g GB/s) beside the GEMM on %d thread%s stands in for a collective: it takes memory bandwidth, not a GPU's SMs",
			   TRAIN_OVERLAP_BYTES >> 20, rate / 1e9, o.threads,
			   o.threads == 1 ? "" : "s");
	return rc;
}

static int run_spread(struct cpu_run *r)
{
	if (need_model(r, "spread") < 0)
		return -1;
	bench_figures_note(r->out, "spread: not measurable with one device (the CPU): the spread of a GEMM's rate across the GPUs of a node, the straggler term, needs a node's GPUs");
	return 0;
}

/* One run of the layer's program per call. */
static int layer_kernel(void *ctx, long iterations, char *why, size_t len)
{
	return cpu_program_run(ctx, iterations, why, len) == BENCH_OK ? 0 : -1;
}

/* Prepares, measures and checks the layer's program into f. */
static int layer_measure(struct cpu_run *r, const struct bench_program *p,
			 struct bench_figure *f)
{
	struct cpu_executor e = {r->opts->memory_limit, cpu_suite_threads(&r->o)};
	if (!e.limit)
		e.limit = mem_available() / 10 * 9;
	struct cpu_program *c = NULL;
	uint64_t held = 0;
	int st = cpu_program_prepare(p, e.limit, e.threads, &c, &held, last_error,
				     sizeof(last_error));
	if (st == BENCH_OUT_OF_MEMORY)
		return CPU_MEASURE_NO_MEMORY;
	if (st != BENCH_OK)
		return CPU_MEASURE_FAILED;
	f->memory_bytes = (double)held;
	int rc = cpu_suite_measure_sustained(&r->o, layer_kernel, c,
					     bench_program_flops(p),
					     r->opts->sustain_s, f, last_error,
					     sizeof(last_error));
	if (rc == 0 && cpu_program_check(c, last_error, sizeof(last_error)) != BENCH_OK)
		rc = CPU_MEASURE_WRONG;
	cpu_program_free(c);
	return rc;
}

static int run_layer(struct cpu_run *r)
{
	const struct bench_run_options *o = r->opts;
	if (need_model(r, "layer") < 0)
		return -1;
	if (!layer_program_has_layer(o->model)) {
		bench_figures_note(r->out, "layer: %s has no transformer layer (ops 'layer 0 ...'): nothing to time",
				   o->model_name);
		return 0;
	}
	enum bench_precision prec = o->precision ? o->precision : BENCH_FP32;
	struct model_program lp;
	size_t forward;
	if (layer_program_build(o->model, o->micro_batch, prec, &lp, &forward,
				last_error, sizeof(last_error)) < 0)
		return -1;
	struct bench_figure f = {.suite = "layer", .kernel = "layer",
				 .unit = "FLOP/s", .batch = o->micro_batch,
				 .seq = train_suite_seq(o)};
	snprintf(f.precision, sizeof(f.precision), "%s",
		 precision_name(bench_precision_core(prec)));
	snprintf(f.name, sizeof(f.name), "%s layer 0 fwd+bwd batch %ld",
		 f.precision, o->micro_batch);
	const char *names[1] = {f.name};
	r->total = 1;
	step(r, f.name);
	size_t before = r->out->n;
	int rc = layer_measure(r, &lp.prog, &f);
	r->done++;
	model_program_free(&lp);
	if (rc == CPU_MEASURE_FAILED) {
		measure_result_free(&f.time);
		return -1;
	}
	if (rc != 0) {
		measure_result_free(&f.time);
		cpu_fault(r, "layer", rc, names, 1, before, NULL);
		return 0;
	}
	bench_figures_push(r->out, &f);
	measured(r, before);
	bench_figures_note(r->out, "layer: %s's first layer at micro-batch %ld x %ld tokens, forward (%zu kernels) and backward on one device; per micro-batch",
			   o->model_name, o->micro_batch, f.seq, forward);
	return 0;
}

static const struct {
	const char *name;
	int (*run)(struct cpu_run *r);
} suites[] = {
	{"gemm", run_gemm},
	{"membw", run_membw},
	{"transfer", run_transfer},
	{"model", run_model},
	{"train-gemm", run_train_gemm},
	{"overlap", run_overlap},
	{"spread", run_spread},
	{"layer", run_layer},
};

static int cpu_has_suite(const char *suite)
{
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		if (strcmp(suites[i].name, suite) == 0)
			return 1;
	return 0;
}

/* What set the suites' shortest repetition, in the notes once. */
static void note_repetitions(struct cpu_run *r)
{
	double res, wake;
	double floor = cpu_suite_repetition_floor(&r->o, &res, &wake);
	char note[256];
	snprintf(note, sizeof(note),
		 "repetitions last at least %.3g ms: the clock resolves %.3g ns and waking the %d-thread team takes %.3g us (at least 1000 and 100 times those)",
		 floor / 2 * 1e3, res * 1e9, cpu_suite_threads(&r->o), wake * 1e6);
	for (size_t i = 0; i < r->out->n_notes; i++)
		if (!strncmp(r->out->notes[i], "repetitions last at least", 25))
			return;
	bench_figures_note(r->out, "%s", note);
}

static int cpu_run_suite(const char *suite, const struct bench_run_options *o,
			 struct bench_figures *out, bench_progress_fn progress,
			 void *progress_ctx)
{
	struct cpu_run r = {{o->threads, o->quick, o->policy}, o, out, progress,
			    progress_ctx, 0, 0};
	last_error[0] = '\0';
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		if (strcmp(suites[i].name, suite) == 0) {
			if (!bench_suite_needs_model(suite))
				note_repetitions(&r);
			return suites[i].run(&r);
		}
	snprintf(last_error, sizeof(last_error),
		 "the cpu has no '%s' suite (it has gemm, membw, transfer, model, train-gemm, overlap, spread, layer)",
		 suite);
	return -1;
}

static struct measure_policy cpu_policy(bool quick)
{
	return cpu_suite_policy(quick);
}

static void cpu_shutdown(void)
{
}

static const char *cpu_last_error(void)
{
	return last_error;
}

static const struct bench_backend cpu_backend = {
	BENCH_BACKEND_ABI_VERSION,
	sizeof(struct bench_backend),
	"cpu",
	cpu_init,
	cpu_describe,
	cpu_has_suite,
	cpu_run_suite,
	cpu_policy,
	cpu_shutdown,
	cpu_last_error,
};

const struct bench_backend *bench_backend_cpu(void)
{
	return &cpu_backend;
}

int bench_backend_check(const struct bench_backend *b, char *why, size_t len)
{
	if (!b) {
		snprintf(why, len, "no backend");
		return -1;
	}
	if (b->abi_version != BENCH_BACKEND_ABI_VERSION) {
		snprintf(why, len, "backend ABI version %u, gpuplan expects %d",
			 (unsigned)b->abi_version, BENCH_BACKEND_ABI_VERSION);
		return -1;
	}
	if (b->struct_size < sizeof(struct bench_backend)) {
		snprintf(why, len, "backend table of %u bytes, gpuplan needs %zu",
			 (unsigned)b->struct_size, sizeof(struct bench_backend));
		return -1;
	}
	if (!b->name || !b->init || !b->describe || !b->has_suite ||
	    !b->run_suite || !b->policy || !b->shutdown || !b->last_error) {
		snprintf(why, len, "backend '%s' lacks a required hook",
			 b->name ? b->name : "?");
		return -1;
	}
	return 0;
}

/*
 * backend_cuda.c - the CUDA backend: struct bench_backend over the plugin's
 * jobs (cuda/plugin_abi.h).  The plugin runs and times; the sweeps, the
 * sizes and what counts as work are here (profile/figure.h states the rules).
 *
 * Suites:
 *   gemm       every precision the device has (fp64, fp32, tf32, fp16,
 *              bf16, int8, fp8), square m = n = k from 1024 doubling to
 *              16384 (quick: 4096, 8192), each precision until its rate
 *              stops growing (< 3% better) or the device's memory ends it;
 *   membw      the copy and triad kernels, 16 MiB to 1 GiB per array
 *              (quick: 256 MiB);
 *   transfer   host to device and back, pageable and pinned, 4 KiB to
 *              1 GiB by 4x (quick: 4 KiB, 1 MiB, 64 MiB); device to device;
 *   p2p        every ordered pair of GPUs, one way and both ways, 1 MiB
 *              and 256 MiB (quick: 64 MiB);
 *   allreduce  NCCL sum over every GPU of the host, fp32, 1 MiB to 1 GiB
 *              by 4x (quick: 64 MiB), bus bandwidth as nccl-tests;
 *   launch     empty kernels back to back;
 *   model      the model's step (model_sweep.h) through the PROGRAM job;
 *   train-gemm, overlap, spread, layer   the training suites
 *              (train_suite.h), sustained (measure.h), at the model's
 *              precision (bf16 where the device has it).
 * A suite that needs two GPUs on a host with one, a precision the device
 * lacks, or NCCL where it is not installed is noted and skipped, not
 * failed.
 *
 * Faults (profile/fault.h) are recorded and the run goes on.  A job that
 * fails or gives a wrong result is followed by a health check of every
 * device it used: the plugin's self-test, a small triad checked element
 * by element (a sticky CUDA error fails every later call, so it fails
 * this too).  A device that passes: the figure is missing, the suite goes
 * on.  One that fails is lost: the suite ends there, and every later
 * suite that needs it (all of them for the measured device; p2p and
 * allreduce for any of the host's GPUs) is named in the fault's `ended`
 * instead of running.  A size that does not fit (at prepare or while
 * running) is missing with the larger sizes of its series, which are not
 * tried.
 *
 * State (the loaded plugin, the device) is static: the backend is a
 * singleton used by one command at a time, like the plugin itself.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench/backend.h"
#include "bench/cpu_info.h"
#include "bench/cpu_suite.h"
#include "bench/cuda_job.h"
#include "bench/model_program.h"
#include "bench/layer_program.h"
#include "bench/model_sweep.h"
#include "bench/plugin_loader.h"
#include "bench/train_suite.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)

/* GPUs a host may have for this backend: the lost set is a 64-bit mask,
 * and p2p's pairs grow as the square. */
#define MAX_GPUS 64
/* The health check's triad: 3 x 512 KiB, enough to launch, copy and
 * check, small enough to fit beside anything. */
#define HEALTH_ELEMENTS ((size_t)1 << 16)

static struct {
	struct cuda_plugin_handle h;
	int device;
	int count;
	struct gpuplan_cuda_device_info info;
	uint64_t lost;		/* devices that failed their health check */
	char error[512];
} g;

struct cuda_run {
	const char *suite;
	const struct bench_run_options *o;
	struct cuda_job_options jo;
	struct bench_figures *out;
	bench_progress_fn progress;
	void *ctx;
	size_t done, total;
};

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(g.error, sizeof(g.error), fmt, ap);
	va_end(ap);
}

/* A figure with the fields every CUDA figure shares. */
static void figure_init(struct bench_figure *f, const char *suite,
			const char *kernel, const char *unit)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->suite, sizeof(f->suite), "%s", suite);
	snprintf(f->kernel, sizeof(f->kernel), "%s", kernel);
	f->threads = 1;
	f->unit = unit;
}

/* ---- faults ---- */

static uint64_t bit(int device)
{
	return device >= 0 && device < MAX_GPUS ? 1ULL << device : 0;
}

/* Every GPU of the host. */
static uint64_t all_gpus(void)
{
	return g.count >= MAX_GPUS ? ~0ULL : (1ULL << g.count) - 1;
}

/* The devices a job runs on. */
static uint64_t job_devices(const struct gpuplan_cuda_job *job)
{
	uint64_t m = bit(job->device);
	if (job->kind == GPUPLAN_JOB_P2P)
		m |= bit(job->peer);
	for (int i = 1; job->kind == GPUPLAN_JOB_ALLREDUCE && i < job->n_devices; i++)
		m |= bit(job->device + i);
	/* a GEMM beside an all-reduce runs on every GPU of it, from 0 */
	for (int i = 0; job->kind == GPUPLAN_JOB_GEMM &&
			(job->flags & GPUPLAN_JOB_BESIDE_COMM) && i < job->n_devices; i++)
		m |= bit(i);
	return m;
}

/* Runs the health check on every device of mask; returns the ones that
 * fail it, the first one's reason in why. */
static uint64_t health_check(uint64_t mask, char *why, size_t len)
{
	uint64_t failed = 0;
	for (int d = 0; d < g.count && d < MAX_GPUS; d++) {
		if (!(mask & bit(d)))
			continue;
		struct gpuplan_cuda_self_test t;
		char said[256] = "";
		if (g.h.api->self_test(d, HEALTH_ELEMENTS, &t, said,
				       sizeof(said)) == 0)
			continue;
		if (!failed)
			snprintf(why, len, "cuda:%d: %s", d, said);
		failed |= bit(d);
	}
	return failed;
}

/* A run of sizes of one kernel: once a size does not fit, the larger ones
 * are not tried but named missing under that out-of-memory fault. */
struct series {
	bool full;
	size_t fault;
};

/* What measure() did with a job: MEASURED; SKIPPED (noted: the device
 * lacks it; or out of memory); FAILED (a fault recorded, the suite goes
 * on); LOST (the device is lost: the suite ends). */
enum outcome { MEASURED, SKIPPED, FAILED, LOST };

/* A job failed or gave a wrong result: health-checks its devices and
 * records the fault; LOST when one of them is gone. */
static enum outcome job_fault(struct cuda_run *r,
			      const struct gpuplan_cuda_job *job,
			      const struct bench_figure *f, bool wrong,
			      const char *reason)
{
	char why[320] = "";
	uint64_t lost = health_check(job_devices(job), why, sizeof(why));
	struct bench_faults *l = &r->out->faults;
	size_t i;
	if (lost) {
		g.lost |= lost;
		i = bench_faults_add(l, BENCH_FAULT_DEVICE_LOST, r->suite, f->name,
				     "%s%s; then the health check failed on %s: "
				     "nothing more is measured that needs it",
				     wrong ? "wrong result: " : "", reason, why);
		bench_names_add(&l->v[i].ended, r->suite);
	} else {
		i = bench_faults_add(l, wrong ? BENCH_FAULT_WRONG_RESULT
					      : BENCH_FAULT_ERROR,
				     r->suite, f->name, "%s; the device passed its "
				     "health check: the suite goes on", reason);
	}
	bench_names_add(&l->v[i].missing, f->name);
	return lost ? LOST : FAILED;
}

/* The job ran out of memory: the figure is missing, and the rest of its
 * series with it. */
static enum outcome no_room(struct cuda_run *r, const struct bench_figure *f,
			    struct series *s, const char *reason)
{
	size_t i = bench_faults_add(&r->out->faults, BENCH_FAULT_OUT_OF_MEMORY,
				    r->suite, f->name, "%s", reason);
	bench_names_add(&r->out->faults.v[i].missing, f->name);
	if (s) {
		s->full = true;
		s->fault = i;
	}
	return SKIPPED;
}

/*
 * Measures one job into a figure, its work counted by the suite's rule
 * from the figure's parameters (bench_figure_rule_work), and records what
 * went wrong (profile/fault.h).  A note from prepare is kept (once per distinct
 * text).  s, when not NULL, is the series the figure belongs to.
 */
static enum outcome measure_work(struct cuda_run *r,
				 const struct gpuplan_cuda_job *job,
				 struct bench_figure *f, struct series *s,
				 double work);

static enum outcome measure(struct cuda_run *r,
			    const struct gpuplan_cuda_job *job,
			    struct bench_figure *f, struct series *s)
{
	return measure_work(r, job, f, s, bench_figure_rule_work(f));
}

/* measure() with the work of one iteration given: a figure whose suite's
 * rule needs what the figure does not hold (the layer's program). */
static enum outcome measure_work(struct cuda_run *r,
				 const struct gpuplan_cuda_job *job,
				 struct bench_figure *f, struct series *s,
				 double work)
{
	char label[BENCH_LABEL_MAX], reason[256];
	bench_figure_label(f, label, sizeof(label));
	r->done++;
	if (s && s->full) {
		bench_fault_skip(&r->out->faults.v[s->fault], f->name);
		return SKIPPED;
	}
	if (r->progress)
		r->progress(r->ctx, label, r->done - 1, r->total);
	struct gpuplan_cuda_job_info info;
	int res = cuda_job_measure(&r->jo, job, work, f, r->out, &info, reason,
				   sizeof(reason));
	switch (res) {
	case CUDA_JOB_MEASURED:
		bench_figures_timer_fault(r->out, &r->out->v[r->out->n - 1], true);
		break;
	case CUDA_JOB_UNSUPPORTED:
		bench_figures_note(r->out, "%s skipped: %s", label, reason);
		return SKIPPED;
	case CUDA_JOB_OUT_OF_MEMORY:
		return no_room(r, f, s, reason);
	case CUDA_JOB_NO_READING:
		bench_figures_timer_fault(r->out, f, false);
		return FAILED;
	default:
		return job_fault(r, job, f, res == CUDA_JOB_WRONG, reason);
	}
	if (info.note[0]) {
		const struct bench_figures *l = r->out;
		if (!l->n_notes || strcmp(l->notes[l->n_notes - 1], info.note))
			bench_figures_note(r->out, "%s", info.note);
	}
	return MEASURED;
}

/* ---- gemm ---- */

static const enum bench_precision gemm_precisions[] = {
	BENCH_FP64, BENCH_FP32, BENCH_TF32, BENCH_FP16, BENCH_BF16,
	BENCH_INT8, BENCH_FP8_E4M3,
};

#define GEMM_PLATEAU 1.03

/* One precision's sweep: until the rate stops growing, the device lacks
 * the precision or the sizes end; a size that does not fit names the
 * larger ones missing.  LOST ends the suite. */
static enum outcome gemm_precision(struct cuda_run *r, enum bench_precision p,
				   const long *sizes, size_t count)
{
	enum precision core = bench_precision_core(p);
	struct series s = {false, 0};
	double last = 0;
	for (size_t i = 0; i < count; i++) {
		long n = sizes[i];
		struct bench_figure f;
		figure_init(&f, "gemm", precision_name(core),
			    precision_is_integer(core) ? "OP/s" : "FLOP/s");
		snprintf(f.name, sizeof(f.name), "%s m=n=k=%ld",
			 precision_name(core), n);
		snprintf(f.precision, sizeof(f.precision), "%s",
			 precision_name(core));
		f.m = f.n = f.k = n;
		struct gpuplan_cuda_job job = {.kind = GPUPLAN_JOB_GEMM,
					       .precision = p,
					       .device = g.device,
					       .m = n, .n = n, .k = n};
		enum outcome m = measure(r, &job, &f, &s);
		if (m == LOST || (m == SKIPPED && !s.full))
			return m;
		if (m != MEASURED)
			continue;
		double rate = r->out->v[r->out->n - 1].value;
		if (rate < last * GEMM_PLATEAU)
			return MEASURED;
		last = rate;
	}
	return MEASURED;
}

static int run_gemm(struct cuda_run *r)
{
	static const long full[] = {1024, 2048, 4096, 8192, 16384};
	static const long quick[] = {4096, 8192};
	const long *sizes = r->o->quick ? quick : full;
	size_t count = r->o->quick ? 2 : 5;
	size_t np = sizeof(gemm_precisions) / sizeof(gemm_precisions[0]);
	r->total = np * count;
	for (size_t i = 0; i < np; i++) {
		size_t before = r->done;
		if (gemm_precision(r, gemm_precisions[i], sizes, count) == LOST)
			return 0;
		/* sizes a plateau or a skip left out are no longer expected */
		r->total -= count - (r->done - before);
	}
	return 0;
}

/* ---- membw ---- */

static int run_membw(struct cuda_run *r)
{
	static const unsigned long long full[] = {16 * MiB, 64 * MiB, 256 * MiB,
						  1 * GiB};
	static const unsigned long long quick[] = {256 * MiB};
	const unsigned long long *sizes = r->o->quick ? quick : full;
	size_t count = r->o->quick ? 1 : 4;
	r->total = 2 * count;
	static const struct { uint32_t kind; const char *name; int arrays; } k[] = {
		{GPUPLAN_JOB_COPY, "copy", 2}, {GPUPLAN_JOB_TRIAD, "triad", 3}};
	struct series s[2] = {{false, 0}, {false, 0}};
	for (size_t i = 0; i < count; i++)
		for (size_t j = 0; j < 2; j++) {
			char size[32];
			cpu_suite_size_name((double)sizes[i], size, sizeof(size));
			struct bench_figure f;
			figure_init(&f, "membw", k[j].name, "B/s");
			snprintf(f.name, sizeof(f.name), "%s %s", k[j].name, size);
			/* figure.h: bytes is the footprint, elements per array */
			f.bytes = k[j].arrays * (double)sizes[i];
			f.elements = (double)sizes[i] / 8;
			struct gpuplan_cuda_job job = {.kind = k[j].kind,
						       .device = g.device,
						       .bytes = sizes[i]};
			if (measure(r, &job, &f, &s[j]) == LOST)
				return 0;
		}
	return 0;
}

/* ---- transfer ---- */

static enum outcome transfer_one(struct cuda_run *r, uint32_t kind,
				 uint32_t flags, const char *kernel,
				 unsigned long long bytes, struct series *s)
{
	char size[32];
	cpu_suite_size_name((double)bytes, size, sizeof(size));
	struct bench_figure f;
	figure_init(&f, "transfer", kernel, "B/s");
	snprintf(f.name, sizeof(f.name), "%s %s", kernel, size);
	f.bytes = (double)bytes;
	struct gpuplan_cuda_job job = {.kind = kind, .flags = flags,
				       .device = g.device, .bytes = bytes};
	return measure(r, &job, &f, s);
}

static int run_transfer(struct cuda_run *r)
{
	unsigned long long sizes[12];
	size_t count = 0;
	if (r->o->quick) {
		sizes[count++] = 4 * KiB;
		sizes[count++] = 1 * MiB;
		sizes[count++] = 64 * MiB;
	} else {
		for (unsigned long long b = 4 * KiB; b <= 1 * GiB; b *= 4)
			sizes[count++] = b;
	}
	static const struct { uint32_t kind, flags; const char *name; } modes[] = {
		{GPUPLAN_JOB_H2D, 0, "h2d-pageable"},
		{GPUPLAN_JOB_H2D, GPUPLAN_JOB_PINNED, "h2d-pinned"},
		{GPUPLAN_JOB_D2H, 0, "d2h-pageable"},
		{GPUPLAN_JOB_D2H, GPUPLAN_JOB_PINNED, "d2h-pinned"},
		{GPUPLAN_JOB_D2D, 0, "d2d"},
	};
	r->total = 5 * count;
	for (size_t m = 0; m < 5; m++) {
		struct series s = {false, 0};
		for (size_t i = 0; i < count; i++)
			if (transfer_one(r, modes[m].kind, modes[m].flags,
					 modes[m].name, sizes[i], &s) == LOST)
				return 0;
	}
	return 0;
}

/* ---- p2p ---- */

static enum outcome p2p_one(struct cuda_run *r, int from, int to, int both,
			    unsigned long long bytes, struct series *s)
{
	const char *kernel = both ? "p2p-bidir" : "p2p";
	char size[32];
	cpu_suite_size_name((double)bytes, size, sizeof(size));
	struct bench_figure f;
	figure_init(&f, "p2p", kernel, "B/s");
	snprintf(f.name, sizeof(f.name), "%s %d->%d %.16s", kernel, from, to, size);
	f.bytes = (double)bytes;
	f.from_gpu = from;
	f.to_gpu = to;
	struct gpuplan_cuda_job job = {
		.kind = GPUPLAN_JOB_P2P, .device = from, .peer = to,
		.flags = both ? GPUPLAN_JOB_BIDIRECTIONAL : 0, .bytes = bytes};
	return measure(r, &job, &f, s);
}

static int run_p2p(struct cuda_run *r)
{
	if (g.count < 2) {
		bench_figures_note(r->out, "p2p needs two GPUs; this host has %d",
				   g.count);
		return 0;
	}
	static const unsigned long long full[] = {1 * MiB, 256 * MiB};
	static const unsigned long long quick[] = {64 * MiB};
	const unsigned long long *sizes = r->o->quick ? quick : full;
	size_t count = r->o->quick ? 1 : 2;
	r->total = (size_t)g.count * (size_t)(g.count - 1) * 2 * count;
	for (int a = 0; a < g.count; a++)
		for (int b = 0; b < g.count; b++)
			for (int both = 0; both < 2 && a != b; both++) {
				struct series s = {false, 0};
				for (size_t i = 0; i < count; i++)
					if (p2p_one(r, a, b, both, sizes[i],
						    &s) == LOST)
						return 0;
			}
	return 0;
}

/* ---- allreduce ---- */

static int run_allreduce(struct cuda_run *r)
{
	if (g.count < 2) {
		bench_figures_note(r->out, "allreduce needs two GPUs; this host has %d",
				   g.count);
		return 0;
	}
	unsigned long long sizes[8];
	size_t count = 0;
	if (r->o->quick)
		sizes[count++] = 64 * MiB;
	else
		for (unsigned long long b = 1 * MiB; b <= 1 * GiB; b *= 4)
			sizes[count++] = b;
	int n = g.count;
	r->total = count;
	struct series s = {false, 0};
	for (size_t i = 0; i < count; i++) {
		char size[32];
		cpu_suite_size_name((double)sizes[i], size, sizeof(size));
		struct bench_figure f;
		figure_init(&f, "allreduce", "allreduce", "B/s");
		snprintf(f.name, sizeof(f.name), "allreduce fp32 %.16s x %d GPUs",
			 size, n);
		snprintf(f.precision, sizeof(f.precision), "fp32");
		f.bytes = (double)sizes[i];
		f.gpus = n;
		struct gpuplan_cuda_job job = {.kind = GPUPLAN_JOB_ALLREDUCE,
					       .precision = BENCH_FP32,
					       .device = 0, .n_devices = n,
					       .bytes = sizes[i]};
		enum outcome m = measure(r, &job, &f, &s);
		/* no NCCL: no other size will run */
		if (m == LOST || (m == SKIPPED && !s.full))
			return 0;
	}
	return 0;
}

/* ---- launch ---- */

static int run_launch(struct cuda_run *r)
{
	r->total = 1;
	struct bench_figure f;
	figure_init(&f, "launch", "launch", "launch/s");
	snprintf(f.name, sizeof(f.name), "empty kernel launch");
	struct gpuplan_cuda_job job = {.kind = GPUPLAN_JOB_LAUNCH,
				       .device = g.device};
	measure(r, &job, &f, NULL);
	return 0;
}

/* ---- model ---- */

static int gpu_prepare(void *ctx, const struct bench_program *p, void **run,
		       double *bytes, char *why, size_t len)
{
	(void)ctx;
	struct gpuplan_cuda_job job = {.kind = GPUPLAN_JOB_PROGRAM,
				       .precision = p->precision,
				       .device = g.device, .program = p};
	struct gpuplan_cuda_job_info info;
	memset(&info, 0, sizeof(info));
	int st = g.h.api->job_prepare(&job, run, &info, why, len);
	*bytes = (double)info.device_bytes;
	return st;
}

static int gpu_step(void *run, double *seconds, char *why, size_t len)
{
	return g.h.api->job_run(run, 1, seconds, why, len);
}

static int gpu_check(void *run, char *why, size_t len)
{
	return g.h.api->job_check(run, why, len);
}

static void gpu_release(void *run)
{
	g.h.api->job_release(run);
}

/* The sweep's health check: the measured device's; a failure loses it. */
static int gpu_healthy(void *ctx, char *why, size_t len)
{
	(void)ctx;
	uint64_t lost = health_check(bit(g.device), why, len);
	g.lost |= lost;
	return lost ? -1 : 0;
}

/* bf16 where the device has it (sm_80 and newer), else fp16. */
static enum bench_precision default_model_precision(void)
{
	return g.info.cc_major >= 8 ? BENCH_BF16 : BENCH_FP16;
}

static int run_model(struct cuda_run *r)
{
	const struct bench_run_options *o = r->o;
	if (!o->model) {
		fail("the model suite needs a model (--model PROFILE)");
		return -1;
	}
	struct program_executor x = {NULL, gpu_prepare, gpu_step, gpu_check,
				     gpu_release, gpu_healthy};
	struct model_sweep_options s = model_sweep_defaults(o->quick);
	s.graph = o->model;
	s.model_name = o->model_name;
	s.precision = o->precision ? o->precision : default_model_precision();
	s.threads = 1;
	return model_sweep_run(&s, &x, r->out, r->progress, r->ctx, g.error,
			       sizeof(g.error));
}

/* ---- the training suites (train_suite.h) ---- */

static enum bench_precision train_precision(const struct cuda_run *r)
{
	return r->o->precision ? r->o->precision : default_model_precision();
}

static int need_model(const char *suite, const struct cuda_run *r)
{
	if (r->o->model)
		return 0;
	fail("the %s suite needs a model (--model PROFILE)", suite);
	return -1;
}

/* The model's products, and the sustained loop for every figure of the
 * suite (measure.h): runs of CUDA_SUSTAIN_RUN_S, policy sp. */
static int train_setup(struct cuda_run *r, const char *suite,
		       struct train_shapes *s, struct sustain_policy *sp)
{
	if (need_model(suite, r) < 0 ||
	    train_suite_shapes(r->o, s, r->out, g.error, sizeof(g.error)) < 0)
		return -1;
	*sp = sustain_policy_of(r->o->sustain_s);
	r->jo.sustain = sp;
	r->jo.min_run_s = CUDA_SUSTAIN_RUN_S;
	return 0;
}

/* The GEMM job of gm on device: its layout as train_shapes.h calls it. */
static struct gpuplan_cuda_job train_job(const struct train_gemm *gm,
					 enum bench_precision p, int device)
{
	uint32_t flags = (gm->trans_a ? 0 : GPUPLAN_JOB_A_PLAIN) |
			 (gm->trans_b ? GPUPLAN_JOB_B_TRANSPOSED : 0);
	return (struct gpuplan_cuda_job){.kind = GPUPLAN_JOB_GEMM,
					 .precision = p, .flags = flags,
					 .device = device, .m = gm->m,
					 .n = gm->n, .k = gm->k};
}

static int run_train_gemm(struct cuda_run *r)
{
	struct train_shapes s;
	struct sustain_policy sp;
	if (train_setup(r, "train-gemm", &s, &sp) < 0)
		return -1;
	enum bench_precision p = train_precision(r);
	const char *prec = precision_name(bench_precision_core(p));
	r->total = s.n * TRAIN_ROLES;
	for (size_t i = 0; i < s.n; i++) {
		/* a product that does not fit is not tried in its other roles */
		struct series full = {false, 0};
		for (int role = 0; role < TRAIN_ROLES; role++) {
			struct bench_figure f;
			struct train_gemm gm;
			train_suite_figure(&f, "train-gemm", prec, &s.v[i],
					   (enum train_role)role, "", r->o, &gm);
			struct gpuplan_cuda_job job = train_job(&gm, p, g.device);
			enum outcome m = measure(r, &job, &f, &full);
			/* lost, or the device lacks the precision (noted) */
			if (m == LOST || (m == SKIPPED && !full.full))
				return 0;
		}
	}
	return 0;
}

/* The GEMM of pr beside n GPUs' all-reduce, or a copy on one GPU. */
static enum outcome overlap_beside(struct cuda_run *r,
				   const struct train_product *pr,
				   enum bench_precision p, int n)
{
	struct bench_figure f;
	struct train_gemm gm;
	train_suite_figure(&f, "overlap", precision_name(bench_precision_core(p)),
			   pr, TRAIN_FORWARD,
			   n >= 2 ? "beside allreduce" : "beside d2d copy", r->o, &gm);
	f.gpus = n;
	f.bytes = (double)TRAIN_OVERLAP_BYTES;
	struct gpuplan_cuda_job job = train_job(&gm, p, g.device);
	job.flags |= GPUPLAN_JOB_BESIDE_COMM;
	job.n_devices = n;
	job.bytes = TRAIN_OVERLAP_BYTES;
	return measure(r, &job, &f, NULL);
}

/*
 * The largest product's forward GEMM alone, then beside a collective on
 * every GPU of the host (NCCL's all-reduce; a device-to-device copy on a
 * host of one GPU, or without NCCL, said so).
 */
static int run_overlap(struct cuda_run *r)
{
	struct train_shapes s;
	struct sustain_policy sp;
	if (train_setup(r, "overlap", &s, &sp) < 0)
		return -1;
	enum bench_precision p = train_precision(r);
	r->total = 2;
	struct bench_figure f;
	struct train_gemm gm;
	train_suite_figure(&f, "overlap", precision_name(bench_precision_core(p)),
			   &s.v[0], TRAIN_FORWARD, "alone", r->o, &gm);
	struct gpuplan_cuda_job job = train_job(&gm, p, g.device);
	enum outcome m = measure(r, &job, &f, NULL);
	if (m != MEASURED)
		return 0;
	int n = g.count >= 2 ? g.count : 1;
	size_t faults = r->out->faults.n;
	m = overlap_beside(r, &s.v[0], p, n);
	if (m == SKIPPED && n >= 2 && r->out->faults.n == faults) {
		/* no NCCL (noted): a copy stands in, as on one GPU */
		r->total++;
		n = 1;
		m = overlap_beside(r, &s.v[0], p, n);
	}
	if (m == MEASURED && n == 1)
		bench_figures_note(r->out, "overlap: a device-to-device copy of %llu MiB on cuda:%d stands in for the all-reduce (%s): it loads memory and the copy engines, not SMs as NCCL's kernels do, so the slowdown it shows is a lower bound",
				   TRAIN_OVERLAP_BYTES >> 20, g.device,
				   g.count < 2 ? "one GPU" : "no NCCL");
	return 0;
}

/* The largest product's forward GEMM on each GPU of the host, one after
 * another: each part's own sustained rate, the spread a synchronous step
 * waits on. */
static int run_spread(struct cuda_run *r)
{
	if (need_model("spread", r) < 0)
		return -1;
	if (g.count < 2) {
		bench_figures_note(r->out, "spread needs two GPUs; this host has %d: the straggler term is not measurable with one device",
				   g.count);
		return 0;
	}
	struct train_shapes s;
	struct sustain_policy sp;
	if (train_setup(r, "spread", &s, &sp) < 0)
		return -1;
	enum bench_precision p = train_precision(r);
	r->total = (size_t)g.count;
	for (int d = 0; d < g.count; d++) {
		char suffix[16];
		struct bench_figure f;
		struct train_gemm gm;
		snprintf(suffix, sizeof(suffix), "gpu %d", d);
		train_suite_figure(&f, "spread", precision_name(bench_precision_core(p)),
				   &s.v[0], TRAIN_FORWARD, suffix, r->o, &gm);
		f.gpu = d;
		struct gpuplan_cuda_job job = train_job(&gm, p, d);
		if (measure(r, &job, &f, NULL) == LOST)
			return 0;
	}
	bench_figures_note(r->out, "spread: the same GEMM on each of the host's %d GPUs in turn, each sustained alone; NVML clocks are sampled on cuda:%d only",
			   g.count, g.device);
	return 0;
}

static int run_layer(struct cuda_run *r)
{
	const struct bench_run_options *o = r->o;
	if (need_model("layer", r) < 0)
		return -1;
	if (!layer_program_has_layer(o->model)) {
		bench_figures_note(r->out, "layer: %s has no transformer layer (ops 'layer 0 ...'): nothing to time",
				   o->model_name);
		return 0;
	}
	enum bench_precision p = train_precision(r);
	struct model_program lp;
	size_t forward;
	if (layer_program_build(o->model, o->micro_batch, p, &lp, &forward,
				g.error, sizeof(g.error)) < 0)
		return -1;
	struct sustain_policy sp = sustain_policy_of(o->sustain_s);
	r->jo.sustain = &sp;
	r->jo.min_run_s = CUDA_SUSTAIN_RUN_S;
	r->total = 1;
	struct bench_figure f;
	figure_init(&f, "layer", "layer", "FLOP/s");
	snprintf(f.precision, sizeof(f.precision), "%s",
		 precision_name(bench_precision_core(p)));
	snprintf(f.name, sizeof(f.name), "%s layer 0 fwd+bwd batch %ld",
		 f.precision, o->micro_batch);
	f.batch = o->micro_batch;
	f.seq = train_suite_seq(o);
	f.memory_bytes = bench_program_bytes(&lp.prog);
	struct gpuplan_cuda_job job = {.kind = GPUPLAN_JOB_PROGRAM,
				       .precision = p, .device = g.device,
				       .program = &lp.prog};
	if (measure_work(r, &job, &f, NULL, bench_program_flops(&lp.prog)) == MEASURED)
		bench_figures_note(r->out, "layer: %s's first layer at micro-batch %ld x %ld tokens, forward (%zu kernels) and backward on cuda:%d; per micro-batch",
				   o->model_name, o->micro_batch, f.seq, forward, g.device);
	model_program_free(&lp);
	return 0;
}

/* ---- the backend table ---- */

static const struct {
	const char *name;
	int (*run)(struct cuda_run *r);
	bool every_gpu;		/* needs every GPU of the host, not just g.device */
} suites[] = {
	{"gemm", run_gemm, false},
	{"membw", run_membw, false},
	{"transfer", run_transfer, false},
	{"p2p", run_p2p, true},
	{"allreduce", run_allreduce, true},
	{"launch", run_launch, false},
	{"model", run_model, false},
	{"train-gemm", run_train_gemm, false},
	{"overlap", run_overlap, true},
	{"spread", run_spread, true},
	{"layer", run_layer, false},
};

static int cuda_init(void)
{
	g.error[0] = '\0';
	g.lost = 0;
	if (cuda_plugin_load(&g.h, g.error, sizeof(g.error)) != 0)
		return -1;
	g.count = g.h.api->device_count();
	if (g.count > MAX_GPUS) {
		fail("the plugin reports %d devices; gpuplan measures hosts of at most %d",
		     g.count, MAX_GPUS);
		cuda_plugin_unload(&g.h);
		return -1;
	}
	if (g.device < 0 || g.device >= g.count) {
		fail("no device cuda:%d: the driver reports %d", g.device,
		     g.count);
		cuda_plugin_unload(&g.h);
		return -1;
	}
	if (g.h.api->device_info(g.device, &g.info, g.error,
				 sizeof(g.error)) != 0) {
		cuda_plugin_unload(&g.h);
		return -1;
	}
	return 0;
}

static int cuda_describe(struct bench_device *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->kind, sizeof(out->kind), "cuda");
	snprintf(out->name, sizeof(out->name), "%s", g.info.name);
	out->index = g.device;
	cpu_info_read(&out->cpu);
	out->gpu = g.info;
	snprintf(out->plugin_build, sizeof(out->plugin_build), "%s",
		 g.h.api->build_info ? g.h.api->build_info : "");
	out->gpu_count = g.count;
	return 0;
}

static int cuda_has_suite(const char *suite)
{
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		if (strcmp(suites[i].name, suite) == 0)
			return 1;
	return 0;
}

/* A suite a lost device keeps from running: named in the loss's `ended`. */
static bool kept_by_loss(const char *suite, bool every_gpu,
			 struct bench_figures *out)
{
	uint64_t needs = every_gpu && g.count >= 2 ? all_gpus() : bit(g.device);
	if (!(g.lost & needs))
		return false;
	struct bench_fault *f = bench_faults_last(&out->faults,
						  BENCH_FAULT_DEVICE_LOST);
	if (f && !bench_names_has(&f->ended, suite))
		bench_names_add(&f->ended, suite);
	return true;
}

static int cuda_run_suite(const char *suite, const struct bench_run_options *o,
			  struct bench_figures *out, bench_progress_fn progress,
			  void *progress_ctx)
{
	g.error[0] = '\0';
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++) {
		if (strcmp(suites[i].name, suite) != 0)
			continue;
		if (kept_by_loss(suite, suites[i].every_gpu, out))
			return 0;
		struct cuda_run r = {suites[i].name, o,
				     cuda_job_defaults(g.h.api, o->quick), out,
				     progress, progress_ctx, 0, 0};
		if (o->policy)
			r.jo.policy = *o->policy;
		return suites[i].run(&r);
	}
	fail("cuda has no '%s' suite", suite);
	return -1;
}

static struct measure_policy cuda_policy(bool quick)
{
	return cuda_job_defaults(NULL, quick).policy;
}

static void cuda_shutdown(void)
{
	cuda_plugin_unload(&g.h);
}

static const char *cuda_last_error(void)
{
	return g.error;
}

static const struct bench_backend cuda_backend = {
	BENCH_BACKEND_ABI_VERSION,
	sizeof(struct bench_backend),
	"cuda",
	cuda_init,
	cuda_describe,
	cuda_has_suite,
	cuda_run_suite,
	cuda_policy,
	cuda_shutdown,
	cuda_last_error,
};

const struct bench_backend *bench_backend_cuda(int device)
{
	g.device = device;
	return &cuda_backend;
}

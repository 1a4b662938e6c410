/*
 * backend_cuda.c - the CUDA backend: struct bench_backend over the plugin's
 * jobs (cuda/plugin_abi.h).  The plugin runs and times; the sweeps, the
 * sizes and what counts as work are here (figure.h states the rules).
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
 *   model      the model's step (model_sweep.h) through the PROGRAM job.
 * A suite that needs two GPUs on a host with one, a precision the device
 * lacks, or NCCL where it is not installed is noted and skipped, not
 * failed.
 *
 * State (the loaded plugin, the device) is static: the backend is a
 * singleton used by one command at a time, like the plugin itself.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/backend.h"
#include "bench/cpu_suite.h"
#include "bench/cuda_job.h"
#include "bench/model_program.h"
#include "bench/model_sweep.h"
#include "bench/plugin_loader.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)

static struct {
	struct cuda_plugin_handle h;
	int device;
	int count;
	struct gpuplan_cuda_device_info info;
	char error[512];
} g;

struct cuda_run {
	const struct bench_run_options *o;
	struct cuda_job_options jo;
	struct bench_figures *out;
	bench_progress_fn progress;
	void *ctx;
	size_t done, total;
};

static void step(struct cuda_run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void step(struct cuda_run *r, const char *fmt, ...)
{
	if (!r->progress)
		return;
	char what[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	r->progress(r->ctx, what, r->done, r->total);
}

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

/* What measure() did with a job. */
enum outcome { MEASURED, SKIPPED, FAILED };

/*
 * Measures one job into a figure, its work counted by the suite's rule
 * from the figure's parameters (bench_figure_rule_work).  A note from prepare is kept (once per
 * distinct text).  A job the device cannot hold or does not support is
 * SKIPPED with a note "<suite> <figure> skipped: <why>"; any other failure
 * is FAILED with g.error set.
 */
static enum outcome measure(struct cuda_run *r,
			    const struct gpuplan_cuda_job *job,
			    struct bench_figure *f)
{
	struct gpuplan_cuda_job_info info;
	char reason[256];
	int st = cuda_job_measure(&r->jo, job, bench_figure_rule_work(f), f,
				  r->out, &info, reason, sizeof(reason));
	r->done++;
	if (st == BENCH_ERROR) {
		fail("%s: %s", f->name, reason);
		return FAILED;
	}
	if (st != BENCH_OK) {
		bool named = !strncmp(f->name, f->suite, strlen(f->suite));
		bench_figures_note(r->out, "%s%s%s skipped: %s",
				   named ? "" : f->suite, named ? "" : " ",
				   f->name, reason);
		return SKIPPED;
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

static int gemm_precision(struct cuda_run *r, enum bench_precision p,
			  const long *sizes, size_t count)
{
	enum precision core = bench_precision_core(p);
	double last = 0;
	for (size_t i = 0; i < count; i++) {
		long n = sizes[i];
		step(r, "gemm %s m=n=k=%ld", precision_name(core), n);
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
		enum outcome m = measure(r, &job, &f);
		if (m != MEASURED)
			return m == FAILED ? -1 : 0;
		double rate = r->out->v[r->out->n - 1].value;
		if (rate < last * GEMM_PLATEAU)
			return 0;
		last = rate;
	}
	return 0;
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
		if (gemm_precision(r, gemm_precisions[i], sizes, count) < 0)
			return -1;
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
	for (size_t i = 0; i < count; i++)
		for (size_t j = 0; j < 2; j++) {
			char size[32];
			cpu_suite_size_name((double)sizes[i], size, sizeof(size));
			step(r, "membw %s %s", k[j].name, size);
			struct bench_figure f;
			figure_init(&f, "membw", k[j].name, "B/s");
			snprintf(f.name, sizeof(f.name), "%s %s", k[j].name, size);
			/* figure.h: bytes is the footprint, elements per array */
			f.bytes = k[j].arrays * (double)sizes[i];
			f.elements = (double)sizes[i] / 8;
			struct gpuplan_cuda_job job = {.kind = k[j].kind,
						       .device = g.device,
						       .bytes = sizes[i]};
			if (measure(r, &job, &f) == FAILED)
				return -1;
		}
	return 0;
}

/* ---- transfer ---- */

static int transfer_one(struct cuda_run *r, uint32_t kind, uint32_t flags,
			const char *kernel, unsigned long long bytes)
{
	char size[32];
	cpu_suite_size_name((double)bytes, size, sizeof(size));
	step(r, "transfer %s %s", kernel, size);
	struct bench_figure f;
	figure_init(&f, "transfer", kernel, "B/s");
	snprintf(f.name, sizeof(f.name), "%s %s", kernel, size);
	f.bytes = (double)bytes;
	struct gpuplan_cuda_job job = {.kind = kind, .flags = flags,
				       .device = g.device, .bytes = bytes};
	return measure(r, &job, &f) == FAILED ? -1 : 0;
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
	for (size_t m = 0; m < 5; m++)
		for (size_t i = 0; i < count; i++)
			if (transfer_one(r, modes[m].kind, modes[m].flags,
					 modes[m].name, sizes[i]) < 0)
				return -1;
	return 0;
}

/* ---- p2p ---- */

static int p2p_one(struct cuda_run *r, int from, int to, int both,
		   unsigned long long bytes)
{
	const char *kernel = both ? "p2p-bidir" : "p2p";
	char size[32];
	cpu_suite_size_name((double)bytes, size, sizeof(size));
	step(r, "%s %d->%d %.16s", kernel, from, to, size);
	struct bench_figure f;
	figure_init(&f, "p2p", kernel, "B/s");
	snprintf(f.name, sizeof(f.name), "%s %d->%d %.16s", kernel, from, to, size);
	f.bytes = (double)bytes;
	f.from_gpu = from;
	f.to_gpu = to;
	struct gpuplan_cuda_job job = {
		.kind = GPUPLAN_JOB_P2P, .device = from, .peer = to,
		.flags = both ? GPUPLAN_JOB_BIDIRECTIONAL : 0, .bytes = bytes};
	return measure(r, &job, &f) == FAILED ? -1 : 0;
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
			for (int both = 0; both < 2 && a != b; both++)
				for (size_t i = 0; i < count; i++)
					if (p2p_one(r, a, b, both, sizes[i]) < 0)
						return -1;
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
	for (size_t i = 0; i < count; i++) {
		char size[32];
		cpu_suite_size_name((double)sizes[i], size, sizeof(size));
		step(r, "allreduce %s x %d GPUs", size, n);
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
		enum outcome m = measure(r, &job, &f);
		if (m != MEASURED)	/* no NCCL: no other size will run */
			return m == FAILED ? -1 : 0;
	}
	return 0;
}

/* ---- launch ---- */

static int run_launch(struct cuda_run *r)
{
	r->total = 1;
	step(r, "launch: empty kernels");
	struct bench_figure f;
	figure_init(&f, "launch", "launch", "launch/s");
	snprintf(f.name, sizeof(f.name), "empty kernel launch");
	struct gpuplan_cuda_job job = {.kind = GPUPLAN_JOB_LAUNCH,
				       .device = g.device};
	return measure(r, &job, &f) == FAILED ? -1 : 0;
}

/* ---- model ---- */

struct gpu_program {
	void *job;
};

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
				     gpu_release};
	struct model_sweep_options s = model_sweep_defaults(o->quick);
	s.graph = o->model;
	s.model_name = o->model_name;
	s.precision = o->precision ? o->precision : default_model_precision();
	s.threads = 1;
	return model_sweep_run(&s, &x, r->out, r->progress, r->ctx, g.error,
			       sizeof(g.error));
}

/* ---- the backend table ---- */

static const struct {
	const char *name;
	int (*run)(struct cuda_run *r);
} suites[] = {
	{"gemm", run_gemm},
	{"membw", run_membw},
	{"transfer", run_transfer},
	{"p2p", run_p2p},
	{"allreduce", run_allreduce},
	{"launch", run_launch},
	{"model", run_model},
};

static int cuda_init(void)
{
	g.error[0] = '\0';
	if (cuda_plugin_load(&g.h, g.error, sizeof(g.error)) != 0)
		return -1;
	g.count = g.h.api->device_count();
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

static int cuda_run_suite(const char *suite, const struct bench_run_options *o,
			  struct bench_figures *out, bench_progress_fn progress,
			  void *progress_ctx)
{
	struct cuda_run r = {o, cuda_job_defaults(g.h.api, o->quick), out,
			     progress, progress_ctx, 0, 0};
	if (o->policy)
		r.jo.policy = *o->policy;
	g.error[0] = '\0';
	for (size_t i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
		if (strcmp(suites[i].name, suite) == 0)
			return suites[i].run(&r);
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

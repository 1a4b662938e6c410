/*
 * test_backend_cuda.c - the host side of the CUDA bench (backend_cuda.c,
 * cuda_job.c, model_sweep.c) on the simulated plugin (tests/sim), whose
 * times follow a fixed roofline, so the figures can be held to
 * hand-computed values: the work each suite counts, nccl-tests' bus
 * bandwidth, the model sweep's out-of-memory bisection against the
 * program's own bytes, a GPU profile written and read back exactly, and
 * every fault in measurement the sim's switches make (a job that fails, a
 * wrong result, a device lost mid-run, memory that runs out at prepare and
 * while running, a timer that lies): recorded where it happened, the
 * figures it cost named, and the run carried on.
 * The sim's constants (tests/sim/sim_plugin.c): bf16 800e12 FLOP/s, peer
 * 300e9 B/s, launch 3e-6 s, 5e-6 s per run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/backend.h"
#include "bench/model_program.h"
#include "bench/prom.h"
#include "check.h"
#include "profile/profile.h"

static const char *plugin_dir;

static const char *const fault_switches[] = {
	"GPUPLAN_SIM_FAIL_JOB", "GPUPLAN_SIM_LOSE_AFTER", "GPUPLAN_SIM_LOSE_DEVICE",
	"GPUPLAN_SIM_OOM_RUN", "GPUPLAN_SIM_TIMER", "GPUPLAN_SIM_BAD_CHECK", NULL,
};

static void sim_env(const char *devices, const char *memory)
{
	setenv("GPUPLAN_PLUGIN_DIR", plugin_dir, 1);
	setenv("GPUPLAN_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
	setenv("GPUPLAN_SIM_DEVICES", devices, 1);
	setenv("GPUPLAN_SIM_MEMORY", memory, 1);
	for (const char *const *k = fault_switches; *k; k++)
		unsetenv(*k);
}

/* Runs each of suites (NULL-terminated) in turn on cuda:0 into p, after
 * one init, as `gpuplan bench` does; returns the first run_suite failure. */
static int run_all(const char *const *suites, const struct bench_run_options *o,
		   struct bench_profile *p)
{
	const struct bench_backend *b = bench_backend_cuda(0);
	char why[256];
	CHECK(bench_backend_check(b, why, sizeof(why)) == 0);
	if (b->init() != 0) {
		printf("  init: %s\n", b->last_error());
		CHECK(0);
		return -1;
	}
	CHECK(b->describe(&p->device) == 0);
	p->policy = b->policy(true);
	int rc = 0;
	for (size_t i = 0; suites[i] && !rc; i++) {
		snprintf(p->suites[p->n_suites++], sizeof(p->suites[0]), "%s",
			 suites[i]);
		rc = b->run_suite(suites[i], o, &p->figures, NULL, NULL);
		if (rc)
			printf("  %s: %s\n", suites[i], b->last_error());
	}
	b->shutdown();
	return rc;
}

/* Runs `suite` quick on cuda:0 into p; returns run_suite's result. */
static int run(const char *suite, const struct bench_run_options *o,
	       struct bench_profile *p)
{
	const char *const one[] = {suite, NULL};
	return run_all(one, o, p);
}

static const struct bench_figure *find(const struct bench_profile *p,
				       const char *name)
{
	for (size_t i = 0; i < p->figures.n; i++)
		if (!strcmp(p->figures.v[i].name, name))
			return &p->figures.v[i];
	return NULL;
}

static void gemm_and_allreduce(void)
{
	sim_env("4", "1073741824");
	struct bench_profile p;
	bench_profile_init(&p);
	struct bench_run_options o = {.quick = true};
	CHECK(run("gemm", &o, &p) == 0);
	const struct bench_figure *f = find(&p, "bf16 m=n=k=4096");
	CHECK(f != NULL);
	if (f) {
		/* 2 n^3 FLOPs per call, unit FLOP/s; the sim's bf16 peak
		 * 800e12 less its 5 us per run */
		CHECK(f->work == 2.0 * 4096 * 4096 * 4096 * f->iterations);
		CHECK(!strcmp(f->unit, "FLOP/s"));
		CHECK(f->value <= 800e12 && f->value > 0.95 * 800e12);
		/* calibrated to runs of at least 1 ms (quick) */
		CHECK(f->time.median >= 1e-3);
	}
	f = find(&p, "int8 m=n=k=4096");
	CHECK(f && !strcmp(f->unit, "OP/s"));
	bench_profile_free(&p);

	bench_profile_init(&p);
	CHECK(run("allreduce", &o, &p) == 0);
	f = find(&p, "allreduce fp32 64 MiB x 4 GPUs");
	CHECK(f != NULL);
	if (f) {
		/* nccl-tests' bus bandwidth: S x 2(n-1)/n per iteration; the
		 * sim's ring runs at its 300e9 B/s peer rate, so busbw is
		 * 300e9 less the per-run overhead */
		double s = 64.0 * 1024 * 1024;
		CHECK(f->work == s * 2 * 3 / 4 * f->iterations);
		CHECK(f->gpus == 4);
		CHECK(f->value <= 300e9 && f->value > 0.95 * 300e9);
	}
	bench_profile_free(&p);

	bench_profile_init(&p);
	CHECK(run("p2p", &o, &p) == 0);
	/* 4 GPUs: 12 ordered pairs, one way and both ways, one size */
	CHECK(p.figures.n == 24);
	f = find(&p, "p2p-bidir 2->3 64 MiB");
	CHECK(f && f->from_gpu == 2 && f->to_gpu == 3 &&
	      f->work == 2.0 * 64 * 1024 * 1024 * f->iterations);
	bench_profile_free(&p);

	bench_profile_init(&p);
	CHECK(run("membw", &o, &p) == 0);
	/* figure.h: bytes is the arrays' footprint, elements one array's;
	 * work is STREAM's arrays x 8 B x elements */
	f = find(&p, "triad 256 MiB");
	CHECK(f && f->bytes == 3.0 * 256 * 1024 * 1024 &&
	      f->elements == 32.0 * 1024 * 1024 &&
	      f->work == 3 * 8 * f->elements * f->iterations);
	f = find(&p, "copy 256 MiB");
	CHECK(f && f->bytes == 2.0 * 256 * 1024 * 1024);
	bench_profile_free(&p);

	bench_profile_init(&p);
	CHECK(run("launch", &o, &p) == 0);
	/* launch 3e-6 s each, plus 5e-6 s per run of N launches */
	f = find(&p, "empty kernel launch");
	CHECK(f && f->value < 1 / 3e-6 && f->value > 0.95 / 3e-6);
	bench_profile_free(&p);
}

/* The sweep stops at the first batch the device cannot hold and bisects
 * to the largest that fits: compare with the program's own bytes. */
static void model_back_off(void)
{
	sim_env("1", "1073741824");	/* 1 GiB */
	struct model m;
	struct model_graph g;
	struct gp_errors e;
	gp_errors_init(&e);
	char path[512];
	snprintf(path, sizeof(path), "%s/profiles/models/resnet-50.yaml",
		 GPUPLAN_SOURCE_DIR);
	CHECK(model_load(&m, path, &e) == 0 && model_build(&m, 0, &g, &e) == 0);
	gp_errors_free(&e);
	long largest = 0;
	for (long b = 1; b < 4096; b++) {
		struct model_program mp;
		char why[128];
		CHECK(model_program_build(&g, b, BENCH_BF16, &mp, why, sizeof(why)) == 0);
		double bytes = bench_program_bytes(&mp.prog);
		model_program_free(&mp);
		if (bytes > 1073741824.0)
			break;
		largest = b;
	}
	printf("  resnet-50 bf16 in 1 GiB: largest batch %ld\n", largest);
	CHECK(largest >= 2);

	struct bench_profile p;
	bench_profile_init(&p);
	struct bench_run_options o = {.quick = true, .model = &g,
				      .model_name = "resnet-50"};
	CHECK(run("model", &o, &p) == 0);
	char want[160];
	long fail = 1;
	while (fail <= largest)
		fail *= 2;
	snprintf(want, sizeof(want),
		 "out of memory at batch %ld (", fail);
	CHECK(p.figures.n_notes == 1);
	if (p.figures.n_notes == 1) {
		CHECK(strstr(p.figures.notes[0], want) != NULL);
		snprintf(want, sizeof(want), "the largest batch that fits is %ld",
			 largest);
		CHECK(strstr(p.figures.notes[0], want) != NULL);
		printf("  %s\n", p.figures.notes[0]);
	}
	/* one figure per doubling that fitted, bf16 by default at cc 9.0 */
	CHECK(p.figures.n == (size_t)log2((double)fail));
	const struct bench_figure *f = &p.figures.v[p.figures.n - 1];
	struct model_cost c;
	model_cost(&g, f->batch, 2, &c);
	CHECK(!strcmp(f->precision, "bf16") && f->work == c.flops_per_step);
	CHECK(f->memory_bytes > 0 && f->memory_bytes <= 1073741824.0);
	bench_profile_free(&p);
	model_graph_free(&g);
	model_free(&m);
}

/* A GPU profile with samples and notes survives a write and a load. */
static void gpu_round_trip(void)
{
	sim_env("2", "1073741824");
	struct bench_profile p, q;
	bench_profile_init(&p);
	struct bench_run_options o = {.quick = true};
	CHECK(run("transfer", &o, &p) == 0);
	bench_profile_stamp(&p);
	p.threads = 1;
	bench_figures_note(&p.figures, "a note with \"quotes\"");
	p.samples.interval_s = 0.1;
	struct gpu_sample s = {.t_s = 0.25, .sm_clock_hz = 1.98e9,
			       .power_w = 700.5, .throttle = 0x4 | 0x400,
			       .valid = GPU_SAMPLE_SM_CLOCK | GPU_SAMPLE_POWER |
					GPU_SAMPLE_THROTTLE};
	/* the sampler's first sample, before any figure: no label */
	gpu_samples_push(&p.samples, &s);
	snprintf(s.during, sizeof(s.during), "transfer d2d 1 MiB");
	gpu_samples_push(&p.samples, &s);
	/* the figure the second sample was taken during is marked, with one
	 * throttled fault for the suite */
	bench_profile_mark_throttled(&p);
	const struct bench_figure *d2d = find(&p, "d2d 1 MiB");
	CHECK(d2d && d2d->throttled && find(&p, "d2d 4 KiB") &&
	      !find(&p, "d2d 4 KiB")->throttled);
	CHECK(p.figures.faults.n == 1);
	if (p.figures.faults.n == 1) {
		const struct bench_fault *t = &p.figures.faults.v[0];
		CHECK(t->kind == BENCH_FAULT_THROTTLED && t->marked.n == 1 &&
		      !strcmp(t->marked.v[0], "d2d 1 MiB") && !t->missing.n);
		CHECK_HAS(t->what, "(sw_power_cap)");
	}
	char dir[] = "/tmp/gpuplan-backend-cuda.XXXXXX", path[96], why[256];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/p.yaml", dir);
	CHECK(bench_profile_write(&p, path, why, sizeof(why)) == 0);
	struct gp_errors e;
	gp_errors_init(&e);
	int rc = bench_profile_load(&q, path, &e);
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	CHECK(rc == 0);
	CHECK(q.figures.n == p.figures.n && q.figures.n_notes == p.figures.n_notes);
	CHECK(!strcmp(q.device.gpu.uuid, p.device.gpu.uuid));
	CHECK(q.device.gpu.valid == p.device.gpu.valid);
	CHECK(q.device.gpu.mem_bandwidth_bytes_per_s ==
	      p.device.gpu.mem_bandwidth_bytes_per_s);
	CHECK(q.device.gpu_count == 2 && q.device.gpu.cc_major == 9);
	CHECK(q.samples.n == 2 && !q.samples.v[0].during[0] &&
	      !strcmp(q.samples.v[1].during, "transfer d2d 1 MiB"));
	CHECK(find(&q, "d2d 1 MiB") && find(&q, "d2d 1 MiB")->throttled &&
	      q.figures.faults.n == 1);
	CHECK(q.samples.throttled &&
	      q.samples.v[0].throttle == (0x4 | 0x400) &&
	      q.samples.v[0].power_w == 700.5 &&
	      !(q.samples.v[0].valid & GPU_SAMPLE_TEMPERATURE));
	for (size_t i = 0; i < q.figures.n && i < p.figures.n; i++)
		CHECK(q.figures.v[i].value == p.figures.v[i].value &&
		      q.figures.v[i].work == p.figures.v[i].work);
	/* Prometheus: the GPU's index and the transfer's size as labels */
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	bench_prom_emit(&q, f);
	fclose(f);
	CHECK_HAS(text, "gpuplan_bench_bytes_per_second{device=\"cuda\",gpu=\"0\",suite=\"transfer\",kernel=\"h2d-pinned\",bytes=\"1048576\",threads=\"1\"} ");
	free(text);
	remove(path);
	remove(dir);
	bench_profile_free(&p);
	bench_profile_free(&q);
}

/* ---- faults in measurement ---- */

/* The names in l, joined by "|", for one comparison. */
static void joined(const struct bench_names *l, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < l->n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? "|" : "",
				       l->v[i]);
}

/* Fault i of p is kind in suite at figure, missing, marked and ended
 * exactly these ("|"-joined), its text holding what. */
static void check_fault(const struct bench_profile *p, size_t i,
			enum bench_fault_kind kind, const char *suite,
			const char *figure, const char *missing,
			const char *marked, const char *ended, const char *what)
{
	CHECK(p->figures.faults.n > i);
	if (p->figures.faults.n <= i)
		return;
	const struct bench_fault *f = &p->figures.faults.v[i];
	char got[512];
	CHECK_STR(bench_fault_kind_name(f->kind), bench_fault_kind_name(kind));
	CHECK_STR(f->suite, suite);
	CHECK_STR(f->figure, figure);
	joined(&f->missing, got, sizeof(got));
	CHECK_STR(got, missing);
	joined(&f->marked, got, sizeof(got));
	CHECK_STR(got, marked);
	joined(&f->ended, got, sizeof(got));
	CHECK_STR(got, ended);
	CHECK_HAS(f->what, what);
}

/* The profile p, written and loaded back: its faults and marks pass the
 * loader's checks and come back as they were. */
static void survives_the_loader(struct bench_profile *p)
{
	struct bench_profile q;
	char dir[] = "/tmp/gpuplan-faults.XXXXXX", path[96], why[256];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/p.yaml", dir);
	bench_profile_stamp(p);
	p->threads = 1;
	p->samples.interval_s = 0.1;	/* as `gpuplan bench` sets it */
	CHECK(bench_profile_write(p, path, why, sizeof(why)) == 0);
	struct gp_errors e;
	gp_errors_init(&e);
	int rc = bench_profile_load(&q, path, &e);
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	CHECK(rc == 0);
	CHECK(q.figures.n == p->figures.n &&
	      q.figures.faults.n == p->figures.faults.n);
	for (size_t i = 0; i < q.figures.faults.n && i < p->figures.faults.n; i++) {
		const struct bench_fault *a = &p->figures.faults.v[i],
					 *b = &q.figures.faults.v[i];
		CHECK(a->kind == b->kind && !strcmp(a->what, b->what) &&
		      a->missing.n == b->missing.n && a->marked.n == b->marked.n &&
		      a->ended.n == b->ended.n);
	}
	for (size_t i = 0; i < q.figures.n && i < p->figures.n; i++)
		CHECK(q.figures.v[i].time.rejected == p->figures.v[i].time.rejected &&
		      q.figures.v[i].time.too_few == p->figures.v[i].time.too_few);
	remove(path);
	remove(dir);
	bench_profile_free(&q);
}

/* A job that fails, and one whose result is wrong: the device passes its
 * health check, so only that figure is missing and the suite goes on. */
static void job_faults(void)
{
	sim_env("1", "1073741824");
	setenv("GPUPLAN_SIM_FAIL_JOB", "1", 1);	/* membw's copy */
	struct bench_profile p;
	bench_profile_init(&p);
	struct bench_run_options o = {.quick = true};
	CHECK(run("membw", &o, &p) == 0);
	CHECK(p.figures.n == 1 && find(&p, "triad 256 MiB"));
	CHECK(p.figures.faults.n == 1);
	check_fault(&p, 0, BENCH_FAULT_ERROR, "membw", "copy 256 MiB",
		    "copy 256 MiB", "", "",
		    "unspecified launch failure (simulated, job 1); the device passed its health check");
	survives_the_loader(&p);
	bench_profile_free(&p);

	sim_env("1", "1073741824");
	setenv("GPUPLAN_SIM_BAD_CHECK", "3", 1);	/* GPUPLAN_JOB_TRIAD */
	bench_profile_init(&p);
	CHECK(run("membw", &o, &p) == 0);
	CHECK(p.figures.n == 1 && find(&p, "copy 256 MiB"));
	check_fault(&p, 0, BENCH_FAULT_WRONG_RESULT, "membw", "triad 256 MiB",
		    "triad 256 MiB", "", "", "simulated wrong result at element 7");
	bench_profile_free(&p);
}

/* A device lost mid-suite: the suite ends at the figure it died on, and
 * the later suites do not run, each named in `ended`. */
static void device_lost(void)
{
	sim_env("1", "4294967296");	/* 4 GiB: fp64 8192 fits (1.5 GiB) */
	setenv("GPUPLAN_SIM_LOSE_AFTER", "1", 1);
	struct bench_profile p;
	bench_profile_init(&p);
	struct bench_run_options o = {.quick = true};
	const char *const suites[] = {"gemm", "membw", "launch", NULL};
	CHECK(run_all(suites, &o, &p) == 0);
	/* job 1 is fp64 4096; job 2, fp64 8192, dies */
	CHECK(p.figures.n == 1 && find(&p, "fp64 m=n=k=4096"));
	CHECK(p.figures.faults.n == 1);
	check_fault(&p, 0, BENCH_FAULT_DEVICE_LOST, "gemm", "fp64 m=n=k=8192",
		    "fp64 m=n=k=8192", "", "gemm|membw|launch",
		    "illegal memory access was encountered (simulated: the device is lost); then the health check failed on cuda:0");
	survives_the_loader(&p);
	bench_profile_free(&p);

	/* only the peer is lost: p2p ends, allreduce (every GPU) does not
	 * run, launch on cuda:0 still does */
	sim_env("2", "1073741824");
	setenv("GPUPLAN_SIM_LOSE_AFTER", "0", 1);
	setenv("GPUPLAN_SIM_LOSE_DEVICE", "1", 1);
	bench_profile_init(&p);
	const char *const peers[] = {"p2p", "allreduce", "launch", NULL};
	CHECK(run_all(peers, &o, &p) == 0);
	CHECK(p.figures.n == 1 && find(&p, "empty kernel launch"));
	check_fault(&p, 0, BENCH_FAULT_DEVICE_LOST, "p2p", "p2p 0->1 64 MiB",
		    "p2p 0->1 64 MiB", "", "p2p|allreduce",
		    "then the health check failed on cuda:1:");
	bench_profile_free(&p);
}

/* Memory that runs out: at prepare, the size and the larger ones of its
 * series are missing under one fault; while running, that size is. */
static void out_of_memory(void)
{
	sim_env("1", "629145600");	/* 600 MiB */
	struct bench_profile p;
	bench_profile_init(&p);
	struct bench_run_options o = {.quick = false};
	CHECK(run("membw", &o, &p) == 0);
	/* copy holds 2 arrays, triad 3: copy fits to 256 MiB (512 MiB),
	 * triad to 64 MiB (192 MiB); triad 256 MiB needs 768 MiB */
	CHECK(p.figures.n == 5 && find(&p, "copy 256 MiB") &&
	      find(&p, "triad 64 MiB") && !find(&p, "triad 256 MiB"));
	CHECK(p.figures.faults.n == 2);
	check_fault(&p, 0, BENCH_FAULT_OUT_OF_MEMORY, "membw", "triad 256 MiB",
		    "triad 256 MiB|triad 1 GiB", "", "",
		    "out of memory on cuda:0: job needs 805306368 bytes, 629145600 of 629145600 free; the larger sizes were not tried");
	check_fault(&p, 1, BENCH_FAULT_OUT_OF_MEMORY, "membw", "copy 1 GiB",
		    "copy 1 GiB", "", "", "job needs 2147483648 bytes");
	survives_the_loader(&p);
	bench_profile_free(&p);

	sim_env("1", "1073741824");
	setenv("GPUPLAN_SIM_OOM_RUN", "629145600", 1);
	bench_profile_init(&p);
	o.quick = true;
	CHECK(run("membw", &o, &p) == 0);
	CHECK(p.figures.n == 1 && find(&p, "copy 256 MiB"));
	check_fault(&p, 0, BENCH_FAULT_OUT_OF_MEMORY, "membw", "triad 256 MiB",
		    "triad 256 MiB", "", "",
		    "while running: out of memory for the run's workspace (simulated: the job holds 805306368 bytes");
	bench_profile_free(&p);
}

/*
 * A timer that lies, on the launch job (quick: 1 warm-up, 6 to 50 runs,
 * runs of 1 ms; a launch is 3 us plus 5 us a run).  Calibration grows the
 * iterations 1 -> 16 -> 256 -> 398 over its good readings (8 us, 53 us,
 * 773 us, then 1.199 ms is long enough).
 */
static void bad_timer(void)
{
	struct bench_run_options o = {.quick = true};
	struct bench_profile p;
	const struct bench_figure *f;

	/* every other reading NaN: calibration's 4 good readings take 7 runs
	 * (3 NaN), the warm-up is NaN, then 6 good among 11 runs: 9 discarded */
	sim_env("1", "1073741824");
	setenv("GPUPLAN_SIM_TIMER", "gn", 1);
	bench_profile_init(&p);
	CHECK(run("launch", &o, &p) == 0);
	f = find(&p, "empty kernel launch");
	CHECK(f && f->time.n == 6 && f->time.rejected == 9 && !f->time.too_few &&
	      f->time.converged && f->iterations == 398 &&
	      f->time.rejected_kinds == MEASURE_REJECTED_NON_FINITE);
	check_fault(&p, 0, BENCH_FAULT_BAD_TIMER, "launch", "empty kernel launch",
		    "", "empty kernel launch", "",
		    "9 timer readings discarded (not finite); the figure stands on 6 good repetitions");
	survives_the_loader(&p);
	bench_profile_free(&p);

	/* one good reading in 12, the rest backwards: calibration's 16 tries
	 * give 2 (iterations 256), the warm-up is bad, and 50 attempts give
	 * 4 good: fewer than 6, marked too_few; 14 + 1 + 46 discarded */
	sim_env("1", "1073741824");
	setenv("GPUPLAN_SIM_TIMER", "gbbbbbbbbbbb", 1);
	bench_profile_init(&p);
	CHECK(run("launch", &o, &p) == 0);
	f = find(&p, "empty kernel launch");
	CHECK(f && f->time.n == 4 && f->time.rejected == 61 && f->time.too_few &&
	      !f->time.converged && !f->time.has_ci && f->iterations == 256 &&
	      f->time.rejected_kinds == MEASURE_REJECTED_NEGATIVE);
	check_fault(&p, 0, BENCH_FAULT_BAD_TIMER, "launch", "empty kernel launch",
		    "", "empty kernel launch", "",
		    "61 timer readings discarded (negative); the figure stands on 4 good repetitions, fewer than the policy's minimum: marked too_few, not converged");
	survives_the_loader(&p);
	bench_profile_free(&p);

	/* never a good reading: calibration gives up after 16, no figure */
	sim_env("1", "1073741824");
	setenv("GPUPLAN_SIM_TIMER", "zi", 1);
	bench_profile_init(&p);
	CHECK(run("launch", &o, &p) == 0);
	CHECK(p.figures.n == 0);
	check_fault(&p, 0, BENCH_FAULT_BAD_TIMER, "launch", "empty kernel launch",
		    "empty kernel launch", "", "",
		    "16 timer readings discarded (zero, not finite) and none was good: no figure");
	bench_profile_free(&p);
}

/* The model sweep's faults on a GPU: a failed step costs its batch and the
 * sweep goes on; a lost device ends it; memory running out while a step
 * runs ends it at that batch. */
static void model_faults(void)
{
	struct model m;
	struct model_graph g;
	struct gp_errors e;
	gp_errors_init(&e);
	char path[512];
	snprintf(path, sizeof(path), "%s/profiles/models/resnet-50.yaml",
		 GPUPLAN_SOURCE_DIR);
	CHECK(model_load(&m, path, &e) == 0 && model_build(&m, 0, &g, &e) == 0);
	gp_errors_free(&e);
	struct bench_run_options o = {.quick = true, .model = &g,
				      .model_name = "resnet-50"};
	struct bench_profile p;

	sim_env("1", "1073741824");
	setenv("GPUPLAN_SIM_FAIL_JOB", "2", 1);	/* batch 2's program */
	bench_profile_init(&p);
	CHECK(run("model", &o, &p) == 0);
	CHECK(find(&p, "resnet-50 batch 1") && !find(&p, "resnet-50 batch 2") &&
	      find(&p, "resnet-50 batch 4"));
	CHECK(p.figures.faults.n == 1);
	check_fault(&p, 0, BENCH_FAULT_ERROR, "model", "resnet-50 batch 2",
		    "resnet-50 batch 2", "", "",
		    "unspecified launch failure (simulated, job 2); the device passed its health check: the sweep goes on");
	CHECK(p.figures.n_notes == 1 &&
	      strstr(p.figures.notes[0], "the largest batch that fits is"));
	survives_the_loader(&p);
	bench_profile_free(&p);

	sim_env("1", "1073741824");
	setenv("GPUPLAN_SIM_LOSE_AFTER", "1", 1);
	bench_profile_init(&p);
	CHECK(run("model", &o, &p) == 0);
	CHECK(p.figures.n == 1 && find(&p, "resnet-50 batch 1") &&
	      p.figures.n_notes == 0);
	check_fault(&p, 0, BENCH_FAULT_DEVICE_LOST, "model", "resnet-50 batch 2",
		    "resnet-50 batch 2", "", "model",
		    "then the device failed its health check (cuda:0: an illegal memory access");
	bench_profile_free(&p);

	/* the first doubling whose program holds 500 MiB or more runs out */
	long first = 1;
	for (;; first *= 2) {
		struct model_program mp;
		char why[128];
		CHECK(model_program_build(&g, first, BENCH_BF16, &mp, why, sizeof(why)) == 0);
		double bytes = bench_program_bytes(&mp.prog);
		model_program_free(&mp);
		if (bytes >= 500.0 * 1024 * 1024 || first > 4096)
			break;
	}
	char name[64];
	snprintf(name, sizeof(name), "resnet-50 batch %ld", first);
	printf("  resnet-50 bf16: batch %ld holds 500 MiB or more\n", first);
	sim_env("1", "1073741824");
	setenv("GPUPLAN_SIM_OOM_RUN", "524288000", 1);
	bench_profile_init(&p);
	CHECK(run("model", &o, &p) == 0);
	CHECK(p.figures.n == (size_t)log2((double)first) && !find(&p, name) &&
	      p.figures.n_notes == 0);
	check_fault(&p, 0, BENCH_FAULT_OUT_OF_MEMORY, "model", name, name, "", "",
		    "while running: out of memory for the run's workspace");
	survives_the_loader(&p);
	bench_profile_free(&p);
	model_graph_free(&g);
	model_free(&m);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_backend_cuda SIM_PLUGIN_DIR\n");
		return 2;
	}
	plugin_dir = argv[1];
	gemm_and_allreduce();
	model_back_off();
	gpu_round_trip();
	job_faults();
	device_lost();
	out_of_memory();
	bad_timer();
	model_faults();
	return check_summary("backend_cuda");
}

/*
 * test_backend_cuda.c - the host side of the CUDA bench (backend_cuda.c,
 * cuda_job.c, model_sweep.c) on the simulated plugin (tests/sim), whose
 * times follow a fixed roofline, so the figures can be held to
 * hand-computed values: the work each suite counts, nccl-tests' bus
 * bandwidth, the model sweep's out-of-memory bisection against the
 * program's own bytes, and a GPU profile written and read back exactly.
 * The sim's constants (tests/sim/sim_plugin.c): bf16 800e12 FLOP/s, peer
 * 300e9 B/s, launch 3e-6 s, 5e-6 s per run.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/backend.h"
#include "bench/model_program.h"
#include "bench/profile.h"
#include "bench/prom.h"
#include "check.h"

static const char *plugin_dir;

static void sim_env(const char *devices, const char *memory)
{
	setenv("GPUPLAN_PLUGIN_DIR", plugin_dir, 1);
	setenv("GPUPLAN_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
	setenv("GPUPLAN_SIM_DEVICES", devices, 1);
	setenv("GPUPLAN_SIM_MEMORY", memory, 1);
}

/* Runs `suite` quick on cuda:0 into p; returns run_suite's result. */
static int run(const char *suite, const struct bench_run_options *o,
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
	snprintf(p->suites[p->n_suites++], sizeof(p->suites[0]), "%s", suite);
	p->policy = b->policy(true);
	int rc = b->run_suite(suite, o, &p->figures, NULL, NULL);
	if (rc)
		printf("  %s: %s\n", suite, b->last_error());
	b->shutdown();
	return rc;
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
	CHECK_HAS(text, "gpuplan_bench_bytes_per_second{device=\"cuda\",index=\"0\",suite=\"transfer\",kernel=\"h2d-pinned\",bytes=\"1048576\",threads=\"1\"} ");
	free(text);
	remove(path);
	remove(dir);
	bench_profile_free(&p);
	bench_profile_free(&q);
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
	return check_summary("backend_cuda");
}

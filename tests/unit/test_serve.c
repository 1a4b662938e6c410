/*
 * The inference planner: service time per batch against hand rooflines and
 * roofline_forward(), memory against memory_serving(), replica sizing
 * against hand-computed M/M/c cases, and the shipped chat and inspection
 * workloads on shipped instances (feasible and infeasible cases, costs,
 * and costs that move the right way when rate, target or price move),
 * options kept per hardware signature equal to options found afresh, and
 * the inference reasons in words.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/instance_key.h"
#include "check.h"
#include "hwmodel/roofline.h"
#include "option/reason.h"
#include "serve/serve.h"
#include "serve/serve_llm.h"
#include "serve/serve_prep.h"
#include "workload/workload_file.h"

/* ---- fixtures ---- */

struct fixture {
	struct catalog cat;
	struct workload_file wf;
	struct plan_settings s;
};

static bool fixture_load(struct fixture *f)
{
	struct gp_errors e;
	gp_errors_init(&e);
	catalog_init(&f->cat);
	char path[512];
	snprintf(path, sizeof(path), "%s/profiles/workloads/default.yaml",
		 GPUPLAN_SOURCE_DIR);
	bool ok = catalog_load_shipped(&f->cat, GPUPLAN_SOURCE_DIR, &e) == 0 &&
		  workload_file_load(&f->wf, path, &e) == 0;
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	memset(&f->s, 0, sizeof(f->s));
	memcpy(f->s.currency, "USD", 4);
	efficiency_default(&f->s.eff);
	CHECK(ok);
	return ok;
}

static const struct instance *inst(const struct fixture *f, const char *name)
{
	const struct instance *in = catalog_find_instance(&f->cat, name);
	CHECK(in != NULL);
	return in;
}

static bool has_reason(const struct plan_option *o, const char *text)
{
	char buf[512];
	for (int i = 0; i < o->n_reasons; i++) {
		plan_reason_format(o, i, buf, sizeof(buf));
		if (strstr(buf, text))
			return true;
	}
	fprintf(stderr, "no reason containing '%s' among %d\n", text,
		o->n_reasons);
	for (int i = 0; i < o->n_reasons; i++) {
		plan_reason_format(o, i, buf, sizeof(buf));
		fprintf(stderr, "  reason: %s\n", buf);
	}
	return false;
}

static void result_free(struct plan_result *r)
{
	plan_result_free(r);
}

/* The whole-GPU option (sharing "") of a result; NULL when none. */
static const struct plan_option *whole(const struct plan_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (!r->v[i].sharing[0])
			return &r->v[i];
	return NULL;
}

/* The cheapest feasible option's monthly cost; HUGE_VAL when none. */
static double cheapest(const struct plan_result *r)
{
	double best = HUGE_VAL;
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].feasible && r->v[i].cost < best)
			best = r->v[i].cost;
	return best;
}

static double plan_cost(const struct fixture *f, const struct instance *in,
			const struct workload *w)
{
	char why[256];
	struct serve_prep *sp = serve_prepare(w, why, sizeof(why));
	struct plan_result r = {0};
	plan_inference(&f->cat, in, w, sp, &f->s, &r);
	double c = cheapest(&r);
	result_free(&r);
	serve_prep_free(sp);
	return c;
}

/* ---- a hand roofline ---- */

static const char one_linear[] =
	"schema: gpuplan/model/v1\n"
	"name: one-linear\n"
	"kind: graph\n"
	"description: one linear layer and a relu, for hand-checked rooflines\n"
	"input: {tokens: 1, features: 4096}\n"
	"ops:\n"
	"  - linear: {out: 4096, bias: false}\n"
	"  - relu\n";

/*
 * A 4096 x 4096 linear layer and a relu, bf16, on a T4 (no bf16: runs as
 * fp16, 2-byte elements; 40 SMs).  Matrix peak 65 T x 0.8 (the ceiling) =
 * 52 TFLOP/s before the shape factor, fp32 peak 8.1 T x 0.8, bandwidth
 * 320 G x 0.8 = 256 GB/s.
 * Batch 1: linear reads 16,777,216 weights and moves 8,192 activation
 * elements: 33,570,816 B / 256 GB/s = 131.136 us; its 33,554,432 FLOPs
 * (one row: 16x128 tiles, 32 of them in one wave of 40 SMs, 1/16 of each
 * used, at 4/9 for a 16-wide tile's reuse, k 4096 / 4160) take 29.5 us:
 * memory-bound; relu moves 8,192 elements, 16,384 B = 0.064 us.
 * S(1) = 131.2 us.
 * Batch 256: a 256 x 4096 x 4096 GEMM; its best tiles are 64x64: 4 x 64
 * = 256 tiles in 7 waves of 40 (256 / 280), k 4096 / 4160: shape
 * 0.900220, so 8,589,934,592 FLOPs / (52 T x 0.900220) = 183.50 us
 * against (16,777,216 + 2,097,152) x 2 B / 256 G = 147.456 us:
 * compute-bound; relu 16,384 x 256 B / 256 G = 16.384 us.
 * Two kernels launched from the host (efficiency.h): each leaves a 0.9 us
 * gap, and 2 x 3.8 us of launches hide under the 131.2 us of work, so
 * 1.8 us more at either batch, counted as compute.
 */
static void hand_roofline(const struct fixture *f)
{
	char dir[] = "/tmp/gpuplan-serve-XXXXXX", path[600];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/one.yaml", dir);
	FILE *fp = fopen(path, "w");
	fputs(one_linear, fp);
	fclose(fp);
	struct model m;
	struct gp_errors e;
	gp_errors_init(&e);
	int rc = model_load(&m, path, &e);
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	unlink(path);
	rmdir(dir);
	CHECK(rc == 0);
	if (rc < 0) {
		model_free(&m);
		return;
	}
	struct workload w = {
		.name = "one-linear", .kind = WORKLOAD_INFERENCE,
		.model_file = path, .model = &m, .precision = PREC_BF16,
		.infer = {.request_rate = 1000, .target[TARGET_P99] = 1e-3,
			  .serving_per_month = 730 * 3600.0},
	};
	char why[256];
	struct serve_prep *sp = serve_prepare(&w, why, sizeof(why));
	CHECK(sp != NULL);
	const struct accelerator *t4 = catalog_find_accelerator(&f->cat, "T4");
	struct serve_device d;
	serve_device_init(&d, t4, PREC_BF16, &f->s.eff, 1, 1, 1, NULL);
	CHECK(d.used == PREC_FP16);
	CHECK(d.elem == 2);
	struct serve_time t;
	CHECK(sp->prefill.kernels == 2);
	serve_batch_time(sp, &d, 0, &t);
	CHECK_NEAR(t.total, 131.2e-6 + 1.8e-6, 1e-9);
	CHECK_NEAR(t.split.memory, 131.2e-6, 1e-9);
	CHECK_NEAR(t.split.compute, 1.8e-6, 1e-12);
	serve_batch_time(sp, &d, 8, &t);
	double shape = 256.0 / 280 * 4096 / 4160;
	/* the T4 holds 0.566 of its boost clock under tensor load
	 * (catalogs/accelerators.yaml, sustained_fraction) */
	double peak = 52e12 * 0.566;
	CHECK_NEAR(t.total, 8589934592.0 / (peak * shape) + 16.384e-6 + 1.8e-6,
		   1e-9);
	CHECK_NEAR(t.split.compute, 8589934592.0 / (peak * shape) + 1.8e-6,
		   1e-9);
	CHECK_NEAR(t.split.memory, 16.384e-6, 1e-9);
	/* work shorter than the launches: 2 kernels take 2 x 3.8 us */
	CHECK_NEAR(serve_launch_time(sp, 0, &d, false, 1e-6), 7.6e-6 - 1e-6,
		   1e-15);
	CHECK_NEAR(serve_launch_time(sp, 0, &d, true, 1e-6), 2 * 0.5e-6, 1e-15);

	/* on g4dn.xlarge: feasible, one instance, and the note */
	struct plan_result r = {0};
	plan_inference(&f->cat, inst(f, "us-east-1/g4dn.xlarge"), &w, sp, &f->s, &r);
	CHECK(r.n == 1);
	const struct plan_option *o = &r.v[0];
	CHECK(o->feasible && o->runnable);
	CHECK(o->nodes == 1);
	CHECK(o->p99_latency_s <= 1e-3);
	CHECK(o->precision_used == PREC_FP16);
	CHECK(has_reason(o, "runs as fp16: T4 has no bf16"));
	/* cost: 1 x 0.526 USD/h x 730 h = 383.98 USD; per million requests
	 * 383.98 / (1000/s x 730 x 3600 s) x 1e6 = 0.14611 USD */
	CHECK_NEAR(o->cost, 0.526 * 730, 1e-9);
	CHECK_NEAR(o->cost_per_million, 0.526 * 730 / (1000 * 730 * 3600.0) * 1e6,
		   1e-9);
	CHECK_NEAR(o->gpu_hours, 730, 1e-12);
	CHECK_NEAR(o->energy_kwh, 70 * 730 / 1000.0, 1e-12);
	result_free(&r);
	serve_prep_free(sp);
	model_free(&m);
}

/* ---- the fast roofline equals roofline_forward() ---- */

/* The planner's efficiencies without the launch costs: roofline_forward()
 * prices work only. */
static struct efficiency work_only(const struct fixture *f)
{
	struct efficiency e = f->s.eff;
	e.graph_gap = e.stream_gap = e.stream_floor = 0;
	return e;
}

static void same_as_roofline(const struct fixture *f, const char *wname,
			     long seq)
{
	const struct workload *w0 = workload_find(&f->wf, wname);
	CHECK(w0 != NULL);
	if (!w0)
		return;
	struct workload w = *w0;
	w.infer.output_tokens = 0;	/* the prompt's pass only */
	w.infer.output_range[0] = w.infer.output_range[1] = 0;
	char why[256];
	struct serve_prep *sp = serve_prepare(&w, why, sizeof(why));
	struct model_graph g;
	struct gp_errors e;
	gp_errors_init(&e);
	CHECK(model_build(w.model, seq, &g, &e) == 0);
	gp_errors_free(&e);
	struct efficiency e0 = work_only(f);
	const char *accs[] = {"T4", "A10G", "L4", "A100-SXM-40GB", "H100-SXM"};
	for (int i = 0; i < 5; i++) {
		const struct accelerator *a =
			catalog_find_accelerator(&f->cat, accs[i]);
		CHECK(a != NULL);
		for (int bi = 0; bi < SERVE_BATCHES; bi += 2) {
			struct serve_device d;
			struct serve_time t;
			struct roofline rf;
			serve_device_init(&d, a, w.precision, &e0, 1, 1, 1,
					  NULL);
			serve_batch_time(sp, &d, bi, &t);
			roofline_forward(&g, 1L << bi, a, w.precision,
					 FUSION_TENSORRT, 1, 1, &f->s.eff, &rf);
			CHECK_NEAR(t.total, rf.time, 1e-9);
			CHECK_NEAR(t.split.compute, rf.compute_bound, 1e-9);
			CHECK_NEAR(t.split.memory, rf.memory_bound, 1e-9);
			/* a MIG-style fraction of both */
			serve_device_init(&d, a, w.precision, &e0, 1,
					  3 / 7.0, 3 / 7.0, NULL);
			serve_batch_time(sp, &d, bi, &t);
			roofline_forward(&g, 1L << bi, a, w.precision,
					 FUSION_TENSORRT, 1, 3 / 7.0, &f->s.eff,
					 &rf);
			CHECK_NEAR(t.total, rf.time, 1e-9);
		}
	}
	model_graph_free(&g);
	serve_prep_free(sp);
}

/*
 * Decode: S(b) = prefill + output x (forward at seq 1 + KV read).  For
 * Llama-2-7B, bf16 KV: 2 x 32 layers x 32 heads x 128 x 2 B = 512 KiB per
 * token; average context 1024 + 256 / 2 = 1152 tokens; on an A100-40GB
 * at 1555 GB/s x 0.8 = 1244 GB/s, batch 1 reads 603,979,776 B = 485.5 us
 * of KV cache per step.
 */
static void decode_time(const struct fixture *f)
{
	const struct workload *w = workload_find(&f->wf, "llama7b-chat");
	char why[256];
	struct serve_prep *sp = serve_prepare(w, why, sizeof(why));
	const struct accelerator *a =
		catalog_find_accelerator(&f->cat, "A100-SXM-40GB");
	struct model_graph g1, gp;
	struct gp_errors e;
	gp_errors_init(&e);
	CHECK(model_build(w->model, 1, &g1, &e) == 0);
	CHECK(model_build(w->model, 1024, &gp, &e) == 0);
	gp_errors_free(&e);
	struct efficiency e0 = work_only(f);
	/* Llama's decode pass launches 387 kernels: the embedding, 12 per
	 * layer (2 norms, q/k/v, attention, its output, gate, SiLU, up, the
	 * product, down, 2 residual adds) x 32, the final norm, the head */
	CHECK(sp->decode.kernels == 387);
	for (int bi = 0; bi < SERVE_BATCHES; bi += 4) {
		long b = 1L << bi;
		struct serve_device d;
		struct serve_time t;
		struct roofline r1, rp;
		serve_device_init(&d, a, PREC_BF16, &e0, 1, 1, 1, NULL);
		serve_batch_time(sp, &d, bi, &t);
		roofline_forward(&g1, b, a, PREC_BF16, FUSION_TENSORRT, 1, 1,
				 &f->s.eff, &r1);
		roofline_forward(&gp, b, a, PREC_BF16, FUSION_TENSORRT, 1, 1,
				 &f->s.eff, &rp);
		double kv = 524288.0 * 1152 * b / (1555e9 * 0.8);
		CHECK_NEAR(t.kv_read, kv, 1e-12);
		CHECK_NEAR(t.prefill, rp.time, 1e-9);
		CHECK_NEAR(t.decode_step, r1.time + kv, 1e-9);
		CHECK_NEAR(t.total, rp.time + 256 * (r1.time + kv), 1e-9);
		CHECK(t.comm == 0);
	}
	CHECK_NEAR(524288.0 * 1152 / (1555e9 * 0.8), 485.5e-6, 1e-3);
	/* tensor parallel over 2: less per GPU, plus all-reduces */
	struct serve_device d1, d2;
	struct serve_time t1, t2;
	serve_device_init(&d1, a, PREC_BF16, &e0, 1, 1, 1, NULL);
	serve_device_init(&d2, a, PREC_BF16, &e0, 2, 1, 1,
			  &inst(f, "p4d.24xlarge")->intra);
	serve_batch_time(sp, &d1, 0, &t1);
	serve_batch_time(sp, &d2, 0, &t2);
	CHECK(t2.comm > 0);
	/* half the work per GPU, at the shape factors of the split GEMMs:
	 * the fast roofline still equals roofline_forward() at share 1/2 */
	struct roofline rh;
	roofline_forward(&gp, 1, a, PREC_BF16, FUSION_TENSORRT, 0.5, 1, &f->s.eff,
			 &rh);
	CHECK_NEAR(t2.prefill, rh.time, 1e-9);
	CHECK(t2.prefill < t1.prefill && t2.prefill >= t1.prefill / 2);
	CHECK_NEAR(t2.kv_read, t1.kv_read / 2, 1e-9);
	CHECK(t2.total < t1.total);
	model_graph_free(&g1);
	model_graph_free(&gp);
	serve_prep_free(sp);
}

/*
 * Pipeline stages (serve_llm.c).  A hand-off is the stage's activations,
 * tokens x hidden x 2 bytes in bf16, over the link, plus the 10 us
 * start-up: 1024 x 4096 x 2 B at 100 GB/s = 83.886 us + 10 us.  Each of a
 * 2-stage replica's GPUs holds half the weights.  Its 2 engines each see
 * what one of 2 single-stage replicas sees (the same share of the same
 * arrivals and lengths), each iteration 10 us longer for its hand-off
 * when the link is too fast to matter: the same throughput, the TPOT
 * 10 us longer (the decode iterations' gap, give or take the schedule).
 */
static void pipeline_stages(const struct fixture *f)
{
	const struct workload *w = workload_find(&f->wf, "llama7b-chat");
	char why[256];
	struct serve_prep *sp = serve_prepare(w, why, sizeof(why));
	const struct accelerator *a =
		catalog_find_accelerator(&f->cat, "A100-SXM-40GB");
	struct efficiency e0 = work_only(f);
	struct serve_device d1, d2;
	serve_device_init(&d1, a, PREC_BF16, &e0, 1, 1, 1, NULL);
	d2 = d1;
	d2.pp = 2;
	d2.link = 100e9;
	CHECK(serve_stage_send_time(sp, &d1, 1024) == 0);
	CHECK_NEAR(serve_stage_send_time(sp, &d2, 1024),
		   1024.0 * 4096 * 2 / 100e9 + 10e-6, 1e-12);
	double p1[MEM_PARTS] = {0}, p2[MEM_PARTS] = {0};
	double kv1 = llm_kv_tokens(sp, &d1, a->memory, 2048, 64, p1);
	double kv2 = llm_kv_tokens(sp, &d2, a->memory, 2048, 64, p2);
	CHECK_NEAR(p2[MEM_WEIGHTS], p1[MEM_WEIGHTS] / 2, 1e-12);
	CHECK(kv2 > kv1);	/* the freed weights hold cache */
	d2.link = HUGE_VAL;
	struct cb_result r1, r2;
	CHECK(llm_simulate_rate(sp, &d1, 64, 2048, kv1, 4, 2, &r1) == 0);
	CHECK(llm_simulate_rate(sp, &d2, 64, 2048, kv1, 4, 1, &r2) == 0);
	CHECK(!r1.saturated && !r2.saturated);
	CHECK_NEAR(r2.requests_per_s, r1.requests_per_s, 0.01);
	/* The last stage also holds the output head, 4,096 x 32,000 weights
	 * of 2 bytes (262.144 MB): with 2 batches in flight each iteration
	 * takes 2 periods of that stage, one head more than equal stages
	 * would, read at the memory rate (a few tokens' product is far
	 * below it), plus the 10 us hand-off; give or take the schedule (a
	 * slower iteration finds a few more sequences live). */
	double head = 4096.0 * 32000 * 2 / (a->memory_bandwidth * e0.memory);
	struct cb_iteration it = {.decodes = 8, .decode_context = 8 * 1152.0};
	d2.link = 100e9;
	CHECK_NEAR(llm_iteration_time(sp, &d2, 2048, &it) -
			   llm_iteration_time(sp, &d1, 2048, &it),
		   head + 8.0 * 4096 * 2 / 100e9 + 10e-6, 1e-9);
	CHECK(r2.tpot.p50 - r1.tpot.p50 > head);
	serve_prep_free(sp);
}

/*
 * 8-bit weights keep 16-bit activations (serve_prep.h, enum serve_sizes):
 * the Llama-2-7B chat service at FP8 on an H100 reads its weights at one
 * byte but moves its activations, and all-reduces them, at two, as at
 * BF16; its embedding and output head (32,000 x 4,096 each, untied) stay
 * at two bytes: 6.738e9 x 1 + 2 x 131,072,000 x 1 more bytes of weights.
 */
static void mixed_precision(const struct fixture *f)
{
	struct workload w = *workload_find(&f->wf, "llama7b-chat");
	w.precision = PREC_FP8;
	char why[256];
	struct serve_prep *sp8 = serve_prepare(&w, why, sizeof(why));
	const struct workload *w16 = workload_find(&f->wf, "llama7b-chat");
	struct serve_prep *sp16 = serve_prepare(w16, why, sizeof(why));
	CHECK(sp8 && sp16);
	if (!sp8 || !sp16)
		return;
	const struct accelerator *a = catalog_find_accelerator(&f->cat, "H100-SXM");
	struct efficiency e0 = work_only(f);
	struct link nv = {.kind = LINK_NVLINK, .bandwidth = 900e9};
	struct serve_device d8, d16;
	serve_device_init(&d8, a, PREC_FP8, &e0, 2, 1, 1, &nv);
	serve_device_init(&d16, a, PREC_BF16, &e0, 2, 1, 1, &nv);
	CHECK(d8.elem == 1 && serve_act_bytes(sp8, &d8) == 2);
	CHECK(serve_act_bytes(sp16, &d16) == 2);
	CHECK_NEAR(serve_allreduce_time(sp8, &d8, 512),
		   serve_allreduce_time(sp16, &d16, 512), 1e-15);
	double p8[MEM_PARTS] = {0}, p16[MEM_PARTS] = {0};
	llm_kv_tokens(sp8, &d8, a->memory, 2048, 64, p8);
	llm_kv_tokens(sp16, &d16, a->memory, 2048, 64, p16);
	CHECK_NEAR(p8[MEM_WEIGHTS],
		   (sp8->params + 2.0 * 32000 * 4096) / 2, 1e-12);
	CHECK_NEAR(p8[MEM_ACTIVATIONS], p16[MEM_ACTIVATIONS], 1e-12);
	/* a decode's weights are read at half the bytes, so it is faster,
	 * but not twice: its activations are as wide as at BF16 */
	struct cb_iteration it = {.decodes = 64, .decode_context = 64 * 1152.0};
	double t8 = llm_iteration_time(sp8, &d8, 2048, &it);
	double t16 = llm_iteration_time(sp16, &d16, 2048, &it);
	CHECK(t8 < t16 && t8 > t16 / 2);
	serve_prep_free(sp8);
	serve_prep_free(sp16);
}

/*
 * The replica search finds the fewest replicas whatever its analytic
 * seed: at the count it returns the simulation meets every target, one
 * replica fewer it does not (saturated, or a target missed).  Llama-2-7B
 * chat at 20 requests a second on A100-SXM-80GB.
 */
static void fewest_replicas(const struct fixture *f)
{
	struct workload w = *workload_find(&f->wf, "llama7b-chat");
	w.infer.request_rate = 20;
	char why[256];
	struct serve_prep *sp = serve_prepare(&w, why, sizeof(why));
	const struct accelerator *a =
		catalog_find_accelerator(&f->cat, "A100-SXM-80GB");
	struct serve_device d;
	serve_device_init(&d, a, PREC_BF16, &f->s.eff, 1, 1, 1, NULL);
	struct llm_sizing z;
	llm_size_placement(sp, &d, a->memory, 1, 64, &z);	/* 1 a node: no filling */
	CHECK(z.ok && z.replicas >= 2);
	struct cb_result r;
	CHECK(llm_simulate_rate(sp, &d, z.max_seqs, z.token_budget, z.kv_tokens,
				20, z.replicas - 1, &r) == 0);
	double got, want;
	CHECK(r.saturated || r.missed ||
	      llm_missed_target(&w.infer, &r, &got, &want) != NULL);
	serve_prep_free(sp);
}

/*
 * The KV cache as each engine sizes it (engine.h, kv_fraction_base), on
 * an A100-SXM-80GB for the Llama-2-7B chat service, with F the weights,
 * activations and workspace: vLLM 0.10.2 takes 0.9 of all memory for
 * everything, (0.9 C - F); LMDeploy 0.6.0 0.8 of what is free,
 * 0.8 (C - F); LMDeploy 0.1.0a1 0.5 of all memory for the cache alone,
 * min(0.5 C, C - F).  Tokens: bytes over the KV bytes per token.
 */
static void kv_share_by_engine(const struct fixture *f)
{
	struct workload w = *workload_find(&f->wf, "llama7b-chat");
	const struct accelerator *a =
		catalog_find_accelerator(&f->cat, "A100-SXM-80GB");
	double c = accelerator_memory_capacity(a);
	static const struct {
		const char *name, *version;
	} engines[] = {{"vllm", "0.10.2"}, {"lmdeploy", "0.6.0"},
		       {"lmdeploy", "0.1.0a1"}};
	for (int i = 0; i < 3; i++) {
		engine_config_init(&w.infer.engine,
				   engine_find(engines[i].name, engines[i].version));
		char why[256];
		struct serve_prep *sp = serve_prepare(&w, why, sizeof(why));
		struct serve_device d;
		serve_device_init(&d, a, PREC_BF16, &f->s.eff, 1, 1, 1, NULL);
		double parts[MEM_PARTS] = {0};
		double kv = llm_kv_tokens(sp, &d, c, 2048, 64, parts);
		double fixed = parts[MEM_WEIGHTS] + parts[MEM_ACTIVATIONS] +
			       parts[MEM_WORKSPACE];
		double bytes = i == 0 ? 0.9 * c - fixed
			     : i == 1 ? 0.8 * (c - fixed)
				      : fmin(0.5 * c, c - fixed);
		CHECK_NEAR(kv, bytes / sp->kv_per_token, 1e-12);
		serve_prep_free(sp);
	}
}

/* serve_memory() is memory_serving()'s total. */
static void memory_matches(const struct fixture *f)
{
	const struct workload *w = workload_find(&f->wf, "llama7b-chat");
	char why[256];
	struct serve_prep *sp = serve_prepare(w, why, sizeof(why));
	struct model_graph g;
	struct gp_errors e;
	gp_errors_init(&e);
	CHECK(model_build(w->model, 1024, &g, &e) == 0);
	gp_errors_free(&e);
	for (int ti = 0; ti < 4; ti++)
		for (int bi = 0; bi < SERVE_BATCHES; bi += 3) {
			struct serve_setup s = {PREC_BF16, PREC_BF16, 1L << bi,
						1280, 1L << ti};
			struct memory_breakdown mb;
			memory_serving(w->model, &g, &s, &mb);
			CHECK_NEAR(serve_memory(sp, ti, bi, 2), mb.total, 1e-12);
		}
	model_graph_free(&g);
	serve_prep_free(sp);
}

/* ---- shipped workloads on shipped instances ---- */

/*
 * Llama-2-7B chat (bf16, 2 requests/s, 1024 in, 256 out, p99 10 s, 308 h
 * a month).  On a T4 (16 GB) the weights alone are 13.5 GB and with the
 * KV cache and the workspace allowance it does not fit: infeasible with
 * the memory reason.  On p4d.24xlarge (8 x A100-40GB) one GPU holds a
 * replica; one instance serves it: 21.957642 USD/h x 308 h = 6762.95 USD
 * a month, 3049.67 USD per million requests, 2464 GPU-hours, 985.6 kWh
 * at 400 W.  An LLM is sized by continuous batching (serve_llm.c); at the
 * rent of one instance, its 8 GPUs all serve, split the way that answers
 * soonest.
 */
static void llama_chat(const struct fixture *f)
{
	const struct workload *w = workload_find(&f->wf, "llama7b-chat");
	char why[256];
	struct serve_prep *sp = serve_prepare(w, why, sizeof(why));
	CHECK(sp != NULL);

	struct plan_result r = {0};
	plan_inference(&f->cat, inst(f, "us-east-1/g4dn.xlarge"), w, sp, &f->s, &r);
	CHECK(r.n == 1);
	CHECK(!r.v[0].feasible && !r.v[0].runnable);
	/* the T4 reports 15,360 MiB (16.1 GB; memory_reported) */
	CHECK(has_reason(&r.v[0], "at batch 1; T4 has 16.1 GB"));
	CHECK(r.v[0].memory_per_gpu > 16e9);
	result_free(&r);

	plan_inference(&f->cat, inst(f, "p4d.24xlarge"), w, sp, &f->s, &r);
	const struct plan_option *o = whole(&r);
	CHECK(o && o->feasible);
	if (o) {
		CHECK(o->nodes == 1);
		CHECK(o->p99_latency_s <= 10);
		CHECK(o->batch_latency_s <= o->p99_latency_s);
		CHECK(o->replicas >= 1 && o->replicas <= 8);
		/* the instance filled: replicas x tp x pp = its 8 GPUs */
		CHECK(o->gpus == o->replicas * o->tp * o->pp);
		CHECK(o->gpus == 8);
		CHECK_NEAR(o->cost, 21.957642 * 308, 1e-9);
		CHECK_NEAR(o->cost_per_million,
			   21.957642 * 308 / (2 * 308 * 3600.0) * 1e6, 1e-9);
		CHECK_NEAR(o->gpu_hours, 8 * 308, 1e-12);
		CHECK_NEAR(o->energy_kwh, 8 * 400 * 308 / 1000.0, 1e-12);
		CHECK(o->memory_per_gpu < o->memory_capacity);
		CHECK_NEAR(o->memory_capacity, 40e9, 1e-12);
		CHECK(o->precision_used == PREC_BF16);
		CHECK(o->n_reasons == 0);
		/* sized by continuous batching (serve_llm.c) */
		CHECK(o->has_llm);
		CHECK(o->batch == o->llm.max_seqs);
		CHECK(o->llm.peak_concurrency >= 1 &&
		      o->llm.peak_concurrency <= o->llm.max_seqs);
		CHECK(o->llm.ttft_p50 <= o->llm.ttft_p99);
		CHECK(o->llm.tpot_p50 <= o->llm.tpot_p99);
		CHECK(o->llm.e2e_p50 <= o->p99_latency_s);
		CHECK(o->llm.e2e_p99_lo <= o->p99_latency_s &&
		      o->p99_latency_s <= o->llm.e2e_p99_hi);
		/* a request is at least its prefill and 255 decodes */
		CHECK(o->p99_latency_s >= o->llm.ttft_p99);
		/* the engines' throughput is the traffic's, 2 x 256 tokens/s,
		 * over the GPUs */
		CHECK_NEAR(o->llm.tokens_per_s_per_gpu * (double)o->gpus, 512, 0.15);
		CHECK(o->llm.kv_peak > 0 && o->llm.kv_peak <= 1);
		/* the iteration's breakdown adds up to its time */
		CHECK_NEAR(o->per_step.compute + o->per_step.memory +
			   o->per_step.communication, o->step_s, 1e-12);
		/* the memory parts are the paged-cache sizing's */
		double sum = 0;
		for (int p = 0; p < MEM_PARTS; p++)
			sum += o->memory_parts[p];
		CHECK_NEAR(sum, o->memory_per_gpu, 1e-12);
		CHECK(o->memory_per_gpu <= 0.9 * 40e9);
	}
	/* MIG: 3g.20gb holds the 7B model (2 slices per GPU); 1g.5gb does
	 * not; 4g.20gb and 7g.40gb (one slice per GPU) are not offered */
	bool mig3 = false;
	for (size_t i = 0; i < r.n; i++) {
		const struct plan_option *m = &r.v[i];
		if (!m->sharing[0])
			continue;
		CHECK(strcmp(m->sharing, "1g.5gb") != 0);
		CHECK(strcmp(m->sharing, "4g.20gb") != 0);
		CHECK(strcmp(m->sharing, "7g.40gb") != 0);
		CHECK(has_reason(m, "MIG slices are isolated in hardware: no interference assumed"));
		if (strcmp(m->sharing, "3g.20gb") == 0) {
			mig3 = true;
			CHECK_NEAR(m->memory_capacity, 20e9, 1e-12);
			CHECK(m->memory_per_gpu <= 20e9);
			/* a replica per slice, two 3g.20gb slices to a
			 * physical GPU: GPUs are never counted as slices */
			CHECK(m->slices == m->replicas);
			CHECK(m->slices_per_gpu == 2);
			CHECK(m->gpus == (m->replicas + 1) / 2);
			CHECK(m->gpus <= m->nodes * m->inst->gpus);
			if (m->feasible && o)
				CHECK(m->batch_latency_s > o->batch_latency_s);
		}
	}
	CHECK(mig3);
	result_free(&r);
	serve_prep_free(sp);
}

/* A target below one request's service time: infeasible, with the time. */
static void too_slow(const struct fixture *f)
{
	struct workload w = *workload_find(&f->wf, "llama7b-chat");
	w.infer.target[TARGET_P99] = 0.1;
	char why[256];
	struct serve_prep *sp = serve_prepare(&w, why, sizeof(why));
	struct plan_result r = {0};
	plan_inference(&f->cat, inst(f, "p4d.24xlarge"), &w, sp, &f->s, &r);
	const struct plan_option *o = whole(&r);
	CHECK(o && !o->feasible && o->runnable);
	if (o) {
		CHECK(has_reason(o, "one request takes"));
		CHECK(has_reason(o, "above the 100 ms p99 target"));
		/* still priced, at the latency it does reach */
		CHECK(o->cost > 0 && o->p99_latency_s > 0.1);
	}
	for (size_t i = 0; i < r.n; i++)
		CHECK(!r.v[i].feasible);
	result_free(&r);
	serve_prep_free(sp);

	/* on a T4 the detector at int8: 50 ms is met */
	const struct workload *d = workload_find(&f->wf, "inspect-serve");
	sp = serve_prepare(d, why, sizeof(why));
	plan_inference(&f->cat, inst(f, "us-east-1/g4dn.xlarge"), d, sp, &f->s, &r);
	CHECK(r.n == 1 && r.v[0].feasible);
	CHECK(r.v[0].precision_used == PREC_INT8);
	CHECK(r.v[0].p99_latency_s <= 0.05);
	CHECK(r.v[0].nodes == 1);
	result_free(&r);
	serve_prep_free(sp);
}

/* Llama-2-7B served in fp32: 4-byte weights (27 GB) do not fit one 24 GB
 * A10G; g5.12xlarge splits the model over 2 or 4 GPUs with tensor
 * parallelism (the split that rents fewest instances). */
static void tensor_parallel(const struct fixture *f)
{
	struct workload w = *workload_find(&f->wf, "llama7b-chat");
	w.precision = PREC_FP32;
	char why[256];
	struct serve_prep *sp = serve_prepare(&w, why, sizeof(why));
	struct plan_result r = {0};
	plan_inference(&f->cat, inst(f, "us-east-1/g5.xlarge"), &w, sp, &f->s, &r);
	CHECK(r.n == 1 && !r.v[0].feasible);
	CHECK(has_reason(&r.v[0], "A10G has 24 GB"));
	result_free(&r);
	plan_inference(&f->cat, inst(f, "g5.12xlarge"), &w, sp, &f->s, &r);
	CHECK(r.n == 1);
	CHECK(r.v[0].tp == 2 || r.v[0].tp == 4);
	CHECK(r.v[0].precision_used == PREC_FP32);
	CHECK(r.v[0].per_step.communication > 0);
	CHECK(r.v[0].memory_per_gpu <= 24e9);
	result_free(&r);
	/* bf16 (70 TFLOP/s dense on an A10G) holds on one GPU */
	struct serve_prep *bf = serve_prepare(workload_find(&f->wf, "llama7b-chat"),
					      why, sizeof(why));
	plan_inference(&f->cat, inst(f, "us-east-1/g5.xlarge"),
		       workload_find(&f->wf, "llama7b-chat"), bf, &f->s, &r);
	CHECK(r.n == 1 && r.v[0].runnable && r.v[0].tp == 1 &&
	      r.v[0].precision_used == PREC_BF16);
	result_free(&r);
	serve_prep_free(bf);
	serve_prep_free(sp);
}

/* A price in a currency with no rate; an illustrative price; --spot. */
static void prices(struct fixture *f)
{
	const struct workload *w = workload_find(&f->wf, "inspect-serve");
	char why[256];
	struct serve_prep *sp = serve_prepare(w, why, sizeof(why));
	struct plan_result r = {0};
	memcpy(f->s.currency, "XYZ", 4);
	plan_inference(&f->cat, inst(f, "us-east-1/g4dn.xlarge"), w, sp, &f->s, &r);
	CHECK(r.n == 1 && !r.v[0].feasible && !r.v[0].runnable);
	CHECK(has_reason(&r.v[0], "no exchange rate from USD to XYZ"));
	result_free(&r);
	memcpy(f->s.currency, "USD", 4);

	f->s.spot = true;
	plan_inference(&f->cat, inst(f, "ecs.gn6i-c4g1.xlarge"), w, sp, &f->s,
		       &r);
	CHECK(r.n == 1 && r.v[0].feasible);
	CHECK(has_reason(&r.v[0], "price is illustrative"));
	CHECK(has_reason(&r.v[0], "not put on spot capacity"));
	CHECK(!r.v[0].has_spot);
	result_free(&r);
	f->s.spot = false;
	serve_prep_free(sp);
}

/* More traffic never costs less; a looser target never costs more; a
 * cheaper price never costs more. */
static void monotonic(const struct fixture *f)
{
	const char *names[] = {"us-east-1/g4dn.xlarge", "g5.12xlarge", "p4d.24xlarge",
			       "p5.48xlarge", "g5.48xlarge"};
	const char *wl[] = {"llama7b-chat", "inspect-serve"};
	for (int k = 0; k < 2; k++) {
		struct workload w = *workload_find(&f->wf, wl[k]);
		double base_rate = w.infer.request_rate;
		double base_p99 = w.infer.target[TARGET_P99];
		for (int i = 0; i < 5; i++) {
			const struct instance *in = inst(f, names[i]);
			double last = 0;
			for (double m = 0.25; m <= 64; m *= 2) {
				w.infer.request_rate = base_rate * m;
				double c = plan_cost(f, in, &w);
				CHECK(c >= last);
				last = c;
			}
			w.infer.request_rate = base_rate;
			last = HUGE_VAL;
			for (double m = 0.5; m <= 8; m *= 1.5) {
				w.infer.target[TARGET_P99] = base_p99 * m;
				double c = plan_cost(f, in, &w);
				CHECK(c <= last);
				last = c;
			}
			w.infer.target[TARGET_P99] = base_p99;
			struct instance cheap = *in;
			cheap.on_demand.amount *= 0.7;
			CHECK(plan_cost(f, &cheap, &w) <= plan_cost(f, in, &w));
		}
	}
}

/* ---- options kept per hardware signature ---- */

/* Two options alike in every figure and reason (owner and reason indices
 * aside).  Byte for byte: options start zeroed (plan_result_add()), so
 * their padding compares equal too. */
static bool same_option(const struct plan_option *a, const struct plan_option *b)
{
	struct plan_option x, y;
	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	x.owner = y.owner = NULL;
	x.first_reason = y.first_reason = 0;
	if (memcmp(&x, &y, sizeof(x)) != 0)
		return false;
	char ra[512], rb[512];
	for (int i = 0; i < a->n_reasons; i++) {
		plan_reason_format(a, i, ra, sizeof(ra));
		plan_reason_format(b, i, rb, sizeof(rb));
		if (strcmp(ra, rb) != 0)
			return false;
	}
	return true;
}

/* Plans `in` on one serve_prep kept across calls (shared) and on a fresh
 * one; the two must agree option for option.  r gets the shared result. */
static void kept_matches_fresh(const struct fixture *f,
			       const struct instance *in,
			       const struct workload *w,
			       struct serve_prep *shared,
			       const struct plan_settings *s,
			       struct plan_result *r)
{
	char why[256];
	struct serve_prep *sp = serve_prepare(w, why, sizeof(why));
	struct plan_result fresh = {0};
	plan_inference(&f->cat, in, w, sp, s, &fresh);
	plan_inference(&f->cat, in, w, shared, s, r);
	CHECK(r->n == fresh.n);
	for (size_t i = 0; i < r->n && i < fresh.n; i++)
		CHECK(same_option(&r->v[i], &fresh.v[i]));
	result_free(&fresh);
	serve_prep_free(sp);
}

/* Whether an earlier instance of the catalog has the same name (as
 * instance_key.h matches names): the same shape sold in another region,
 * the same hardware at another price. */
static bool shape_seen(const struct catalog *cat, size_t i)
{
	const struct instance *first = NULL;
	catalog_count_matches(cat, cat->inst[i].name, &first);
	return first != &cat->inst[i];
}

/*
 * Every shipped shape (one region each: the regions' copies differ only in
 * price, which the renamed pass covers), then each again renamed at 80% of
 * the price with the illustrative mark flipped: the second pass reuses the
 * first's options, and must price them as a fresh plan does (cost 0.8 x,
 * the illustrative note added or dropped), with --spot and without.
 */
static void kept_per_hardware(const struct fixture *f)
{
	const char *wl[] = {"llama7b-chat", "inspect-serve"};
	for (int k = 0; k < 4; k++) {
		const struct workload *w = workload_find(&f->wf, wl[k % 2]);
		struct plan_settings s = f->s;
		s.spot = k >= 2;
		char why[256];
		struct serve_prep *shared = serve_prepare(w, why, sizeof(why));
		size_t n = f->cat.n_inst;
		struct plan_result *first = calloc(n, sizeof(*first));
		for (size_t i = 0; i < n; i++)
			if (!shape_seen(&f->cat, i))
				kept_matches_fresh(f, &f->cat.inst[i], w,
						   shared, &s, &first[i]);
		for (size_t i = 0; i < n; i++) {
			if (shape_seen(&f->cat, i))
				continue;
			struct instance v = f->cat.inst[i];
			v.name = "renamed";
			v.on_demand.amount *= 0.8;
			v.illustrative = !v.illustrative;
			struct plan_result r = {0};
			kept_matches_fresh(f, &v, w, shared, &s, &r);
			CHECK(r.n == first[i].n);
			for (size_t j = 0; j < r.n && j < first[i].n; j++) {
				const struct plan_option *a = &first[i].v[j],
							 *b = &r.v[j];
				CHECK(b->inst == &v && a->inst == &f->cat.inst[i]);
				CHECK_NEAR(b->cost, 0.8 * a->cost, 1e-9 * a->cost);
				CHECK(b->p99_latency_s == a->p99_latency_s);
				CHECK(b->nodes == a->nodes);
				CHECK(abs(b->n_reasons - a->n_reasons) <= 1);
			}
			result_free(&r);
		}
		for (size_t i = 0; i < n; i++)
			result_free(&first[i]);
		free(first);
		serve_prep_free(shared);
	}
}

/*
 * What tells hardware apart: the same accelerator on fewer GPUs or a
 * slower link is sized anew, and other efficiencies drop what was kept.
 */
static void kept_signature(const struct fixture *f)
{
	/* fp32: too big for one A10G (tensor_parallel()) */
	struct workload w32 = *workload_find(&f->wf, "llama7b-chat");
	w32.precision = PREC_FP32;
	const struct workload *w = &w32;
	const struct instance *g5 = inst(f, "g5.12xlarge");
	char why[256];
	struct serve_prep *shared = serve_prepare(w, why, sizeof(why));
	struct plan_result base = {0}, r = {0};
	kept_matches_fresh(f, g5, w, shared, &f->s, &base);
	CHECK(base.n == 1 && base.v[0].tp >= 2);

	/* a slower link: sized anew, more time all-reducing at a split */
	struct instance slow = *g5;
	slow.intra.bandwidth /= 4;
	kept_matches_fresh(f, &slow, w, shared, &f->s, &r);
	CHECK(r.n == 1 && base.n == 1);
	if (r.n == 1 && base.n == 1 && r.v[0].tp == base.v[0].tp)
		CHECK(r.v[0].per_step.communication >
		      base.v[0].per_step.communication);
	result_free(&r);

	/* one GPU: the model does not fit (tensor_parallel()) */
	struct instance one = *g5;
	one.gpus = 1;
	kept_matches_fresh(f, &one, w, shared, &f->s, &r);
	CHECK(r.n == 1 && !r.v[0].runnable);
	CHECK(has_reason(&r.v[0], "A10G has 24 GB"));
	result_free(&r);

	/* half the memory efficiency: sized anew (kept_matches_fresh()),
	 * not the options kept for the default */
	struct plan_settings s = f->s;
	s.eff.memory /= 2;
	kept_matches_fresh(f, g5, w, shared, &s, &r);
	CHECK(r.n == 1);
	if (r.n == 1 && base.n == 1)
		CHECK(!same_option(&r.v[0], &base.v[0]));
	result_free(&r);
	/* and back */
	kept_matches_fresh(f, g5, w, shared, &f->s, &r);
	CHECK(r.n == 1 && same_option(&r.v[0], &base.v[0]));
	result_free(&r);
	result_free(&base);
	serve_prep_free(shared);
}

/* The inference reasons in words (the wording from before they were
 * coded). */
static void reason_words(void)
{
	static const struct {
		struct plan_reason r;
		const char *want;
	} cases[] = {
		{{.code = REASON_SERVE_MEMORY, .a = 16.84e9, .b = 16e9, .n1 = 1,
		  .s1 = "T4"},
		 "needs 16.8 GB at batch 1; T4 has 16 GB"},
		{{.code = REASON_SERVE_MEMORY, .a = 27.04e9, .b = 24e9, .n1 = 2,
		  .s1 = "A10G"},
		 "needs 27 GB per GPU at batch 1 even split over 2 GPUs; A10G has 24 GB"},
		{{.code = REASON_SERVE_SLOW, .a = 0.25, .b = 0.1, .n1 = 1,
		  .s1 = "T4"},
		 "one request takes 250 ms on T4, above the 100 ms p99 target"},
		{{.code = REASON_SERVE_SLOW, .a = 0.25, .b = 0.1, .n1 = 4,
		  .s1 = "A10G"},
		 "one request takes 250 ms on 4 x A10G (tensor parallel), above the 100 ms p99 target"},
		{{.code = REASON_SERVE_SLOW, .a = 0.25, .b = 0.1, .n1 = 1,
		  .s1 = "A100-SXM-40GB", .s2 = "1g.5gb"},
		 "one request takes 250 ms on a 1g.5gb slice of A100-SXM-40GB, above the 100 ms p99 target"},
		{{.code = REASON_SERVE_RATE, .n1 = PLAN_MAX_NODES, .a = 2500},
		 "needs more than 512 instances to serve 2500 requests/s"},
		{{.code = REASON_SERVE_RATE, .n1 = PLAN_MAX_NODES, .a = 123456},
		 "needs more than 512 instances to serve 1.235e+05 requests/s"},
		{{.code = REASON_SERVE_P99, .n1 = PLAN_MAX_NODES, .a = 0.1},
		 "needs more than 512 instances to hold the p99 under 100 ms"},
		{{.code = REASON_MIG_ISOLATED},
		 "MIG slices are isolated in hardware: no interference assumed"},
		{{.code = REASON_SERVE_ON_DEMAND},
		 "on demand: serving is not put on spot capacity, which can be reclaimed mid-request"},
	};
	struct plan_result r = {0};
	char buf[PLAN_REASON_LEN];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct plan_option *o = plan_result_add(&r);
		plan_option_code(o, &cases[i].r);
		plan_reason_format(o, 0, buf, sizeof(buf));
		if (strcmp(buf, cases[i].want) != 0)
			fprintf(stderr, "got  '%s'\nwant '%s'\n", buf,
				cases[i].want);
		CHECK(strcmp(buf, cases[i].want) == 0);
	}
	result_free(&r);
}

int main(void)
{
	struct fixture f;
	if (!fixture_load(&f))
		return check_summary("serve");
	hand_roofline(&f);
	same_as_roofline(&f, "llama7b-chat", 1024);
	same_as_roofline(&f, "inspect-serve", 0);
	decode_time(&f);
	memory_matches(&f);
	llama_chat(&f);
	too_slow(&f);
	tensor_parallel(&f);
	pipeline_stages(&f);
	mixed_precision(&f);
	fewest_replicas(&f);
	kv_share_by_engine(&f);
	prices(&f);
	monotonic(&f);
	kept_per_hardware(&f);
	kept_signature(&f);
	reason_words();
	workload_file_free(&f.wf);
	catalog_free(&f.cat);
	return check_summary("serve");
}

/*
 * test_fusion.c - graphs as inference engines run them (src/hwmodel/
 * fusion.c): TensorRT's convolution epilogues (batch norm, residual add,
 * activation) by hand on small graphs, where a chain stops, ResNet-50's
 * res2 stage as the MLPerf plugin's one kernel, which engines get which
 * rules, and the serving planner's fast roofline under each rule set
 * equal to roofline_forward().
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "hwmodel/efficiency.h"
#include "hwmodel/fusion.h"
#include "hwmodel/roofline.h"
#include "model_fixture.h"
#include "serve/serve_prep.h"

static struct catalog cat;
static struct efficiency eff;

/* A model description written to a temporary file and built. */
static bool build_text(struct built *b, const char *text)
{
	char dir[] = "/tmp/gpuplan-fusion-XXXXXX", path[600];
	memset(b, 0, sizeof(*b));
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/m.yaml", dir);
	FILE *fp = fopen(path, "w");
	fputs(text, fp);
	fclose(fp);
	struct gp_errors e;
	gp_errors_init(&e);
	b->ok = model_load(&b->m, path, &e) == 0 &&
		model_build(&b->m, 0, &b->g, &e) == 0;
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	unlink(path);
	rmdir(dir);
	CHECK(b->ok);
	return b->ok;
}

/* Kernels and, per sample, activation elements, weights and FLOPs of g
 * under rules r. */
struct fused_totals {
	long kernels;
	double act, weights, flops;
};

static struct fused_totals totals(const struct model_graph *g,
				  enum fusion_rules r)
{
	struct op *ops = calloc(g->n, sizeof(*ops));
	bool *launches = calloc(g->n, sizeof(*launches));
	struct fused_totals t = {fusion_apply(g, r, ops, launches), 0, 0, 0};
	for (size_t i = 0; i < g->n; i++) {
		t.act += ops[i].act_read + ops[i].act_written;
		t.weights += op_weight_reads(&ops[i]);
		t.flops += ops[i].flops;
	}
	free(launches);
	free(ops);
	return t;
}

static const char conv_bn_relu[] =
	"schema: gpuplan/model/v1\n"
	"name: conv-bn-relu\n"
	"kind: graph\n"
	"description: one 3x3 convolution with its batch norm and relu\n"
	"input: {channels: 64, height: 56, width: 56}\n"
	"ops:\n"
	"  - conv: {out: 64, kernel: 3, padding: 1, norm: batchnorm, act: relu}\n";

/*
 * conv -> batch norm -> relu, 64 x 56 x 56 in and out, one sample, FP16
 * on a T4 (2-byte elements).  TensorRT runs one kernel: it reads the
 * input (200,704 elements) and the weights (64 x 64 x 9 = 36,864) and
 * writes the output (200,704): 438,272 elements, 876,544 B; its FLOPs are
 * the convolution's, 2 x 200,704 x 576 = 231,211,008.  Op by op adds the
 * norm (reads and writes 200,704, reads 2 x 64 = 128 parameters: 401,536
 * elements; 2 FLOPs per element, 401,408) and the relu (401,408 elements,
 * 200,704 FLOPs): 2,482,432 B and 231,813,120 FLOPs over three kernels.
 */
static void one_chain(const struct accelerator *t4)
{
	struct built b;
	if (!build_text(&b, conv_bn_relu)) {
		done(&b);
		return;
	}
	CHECK(b.g.n == 3);
	struct fused_totals trt = totals(&b.g, FUSION_TENSORRT);
	struct fused_totals none = totals(&b.g, FUSION_NONE);
	CHECK(trt.kernels == 1);
	CHECK(none.kernels == 3);
	CHECK_NEAR(trt.act + trt.weights, 438272, 0);
	CHECK_NEAR(trt.flops, 231211008, 0);
	struct roofline rt, rn;
	roofline_forward(&b.g, 1, t4, PREC_FP16, FUSION_TENSORRT, 1, 1, &eff, &rt);
	roofline_forward(&b.g, 1, t4, PREC_FP16, FUSION_NONE, 1, 1, &eff, &rn);
	CHECK_NEAR(rt.bytes, 876544, 0);
	CHECK_NEAR(rt.flops, 231211008, 0);
	CHECK_NEAR(rn.bytes, 2482432, 0);
	CHECK_NEAR(rn.flops, 231813120, 0);
	/* the norm and the relu cost nothing fused, not even vector time,
	 * and the convolution the same either way */
	CHECK_NEAR(rt.class_time[OPC_NORM] + rt.class_time[OPC_ELEMENTWISE], 0, 0);
	CHECK(rn.class_time[OPC_NORM] > 0 && rn.class_time[OPC_ELEMENTWISE] > 0);
	CHECK_NEAR(rt.time, rn.class_time[OPC_GEMM], 1e-15);
	done(&b);
}

static const char bottleneck[] =
	"schema: gpuplan/model/v1\n"
	"name: bottleneck\n"
	"kind: graph\n"
	"description: one ResNet-50 bottleneck with an identity shortcut\n"
	"input: {channels: 256, height: 56, width: 56}\n"
	"ops:\n"
	"  - residual:\n"
	"      ops:\n"
	"        - conv: {out: 64, kernel: 1, norm: batchnorm, act: relu}\n"
	"        - conv: {out: 64, kernel: 3, padding: 1, norm: batchnorm, act: relu}\n"
	"        - conv: {out: 256, kernel: 1, norm: batchnorm}\n"
	"  - relu\n";

/*
 * A bottleneck with an identity shortcut: ten ops (three conv -> norm
 * [-> relu], the add, the relu), three kernels under TensorRT, the last
 * convolution taking the add and the relu.  Elements per sample:
 *   1x1 256->64:  16,384 weights + 802,816 in + 200,704 out = 1,019,904
 *   3x3  64->64:  36,864 + 200,704 + 200,704                =   438,272
 *   1x1  64->256: 16,384 + 200,704 + 802,816                = 1,019,904
 *   the add's other input, x (256 x 56 x 56)                =   802,816
 * 3,280,896 elements, 6,561,792 B at FP16.
 */
static void residual_block(const struct accelerator *t4)
{
	struct built b;
	if (!build_text(&b, bottleneck)) {
		done(&b);
		return;
	}
	CHECK(b.g.n == 10);
	struct fused_totals trt = totals(&b.g, FUSION_TENSORRT);
	CHECK(trt.kernels == 3);
	CHECK(totals(&b.g, FUSION_NONE).kernels == 10);
	CHECK_NEAR(trt.act + trt.weights, 3280896, 0);
	struct roofline r;
	roofline_forward(&b.g, 1, t4, PREC_FP16, FUSION_TENSORRT, 1, 1, &eff, &r);
	CHECK_NEAR(r.bytes, 6561792, 0);
	done(&b);
}

static const char relu_then_norm[] =
	"schema: gpuplan/model/v1\n"
	"name: relu-then-norm\n"
	"kind: graph\n"
	"description: a norm after the activation, which no epilogue takes\n"
	"input: {channels: 64, height: 56, width: 56}\n"
	"ops:\n"
	"  - conv: {out: 64, kernel: 1, act: relu}\n"
	"  - batchnorm\n"
	"  - relu\n";

/* conv -> relu -> batch norm -> relu: the norm comes after the
 * activation, so it is a kernel of its own (reading and writing 200,704
 * elements and its 128 parameters) and the relu after it too. */
static void chain_stops(void)
{
	struct built b;
	if (!build_text(&b, relu_then_norm)) {
		done(&b);
		return;
	}
	CHECK(b.g.n == 4);
	struct op ops[4];
	bool launches[4];
	CHECK(fusion_apply(&b.g, FUSION_TENSORRT, ops, launches) == 3);
	CHECK(launches[0] && !launches[1] && launches[2] && launches[3]);
	CHECK_NEAR(ops[2].act_read + ops[2].act_written + ops[2].params,
		   401536, 0);
	done(&b);
}

/*
 * ResNet-50 v1's res2 (shipped resnet-50-v1.yaml): three bottlenecks at
 * 56 x 56, ten convolutions, one kernel under the MLPerf plugin instead
 * of ten.  Its traffic per sample under TensorRT, in elements:
 *   res2a: 1x1 64->64 (200,704 in, 200,704 out), 3x3 (200,704, 200,704),
 *          1x1 64->256 (200,704, 802,816), the shortcut 1x1 64->256
 *          (200,704, 802,816), the add's other input 802,816: 3,612,672
 *   res2b, res2c: 1x1 256->64 (802,816, 200,704), 3x3 (200,704,
 *          200,704), 1x1 64->256 (200,704, 802,816), add 802,816:
 *          3,211,264 each
 * 10,035,200 in all; the plugin reads the pooled stem output once
 * (200,704) and writes res2c's output once (802,816): 1,003,520.  So the
 * pass moves 9,031,680 elements fewer; weights and FLOPs are unchanged.
 */
static void res2_stage(const struct accelerator *t4)
{
	struct built b;
	build(&b, "resnet-50-v1.yaml", 0);
	if (!b.ok) {
		done(&b);
		return;
	}
	struct fused_totals trt = totals(&b.g, FUSION_TENSORRT);
	struct fused_totals res2 = totals(&b.g, FUSION_RES2);
	CHECK(trt.kernels - res2.kernels == 9);
	CHECK_NEAR(trt.act - res2.act, 9031680, 1e-15);
	CHECK_NEAR(res2.weights, trt.weights, 0);
	CHECK_NEAR(res2.flops, trt.flops, 0);
	struct roofline rt, rr;
	roofline_forward(&b.g, 64, t4, PREC_INT8, FUSION_TENSORRT, 1, 1, &eff, &rt);
	roofline_forward(&b.g, 64, t4, PREC_INT8, FUSION_RES2, 1, 1, &eff, &rr);
	CHECK_NEAR(rt.bytes - rr.bytes, 9031680.0 * 64, 1e-12);
	CHECK(rr.time < rt.time);
	done(&b);
}

/*
 * ResNet-50 v1.5 (shipped resnet-50.yaml) has the same res2; its res3a
 * strides in the 3x3, so res3a's first 1x1 convolution (128 outputs)
 * still runs at 56 x 56 and must stay outside the span: the same nine
 * kernels and 9,031,680 elements fewer as v1.
 */
static void res2_of_v1_5(void)
{
	struct built b;
	build(&b, "resnet-50.yaml", 0);
	if (b.ok) {
		struct fused_totals trt = totals(&b.g, FUSION_TENSORRT);
		struct fused_totals res2 = totals(&b.g, FUSION_RES2);
		CHECK(trt.kernels - res2.kernels == 9);
		CHECK_NEAR(trt.act - res2.act, 9031680, 1e-15);
	}
	done(&b);
}

/* A graph without ResNet-50's res2 (the bottleneck alone: no stem pool)
 * runs as stock TensorRT under the res2 rules. */
static void res2_needs_its_stage(void)
{
	struct built b;
	if (!build_text(&b, bottleneck)) {
		done(&b);
		return;
	}
	struct fused_totals trt = totals(&b.g, FUSION_TENSORRT);
	struct fused_totals res2 = totals(&b.g, FUSION_RES2);
	CHECK(res2.kernels == trt.kernels);
	CHECK_NEAR(res2.act, trt.act, 0);
	done(&b);
}

/* The plugin only where NVIDIA's code inserts it: INT8 on Turing and
 * Ampere; stock TensorRT for any other engine, precision or part. */
static void rules_by_engine(void)
{
	const struct accelerator *t4 = catalog_find_accelerator(&cat, "T4");
	const struct accelerator *a100 =
		catalog_find_accelerator(&cat, "A100-SXM-80GB");
	const struct accelerator *v100 =
		catalog_find_accelerator(&cat, "V100-PCIe-32GB");
	const struct accelerator *l4 = catalog_find_accelerator(&cat, "L4");
	CHECK(t4 && a100 && v100 && l4);
	if (!t4 || !a100 || !v100 || !l4)
		return;
	const char *mlperf = FUSION_MLPERF_ENGINE;
	CHECK(fusion_rules_for(mlperf, t4, PREC_INT8) == FUSION_RES2);
	CHECK(fusion_rules_for(mlperf, a100, PREC_INT8) == FUSION_RES2);
	CHECK(fusion_rules_for(mlperf, v100, PREC_INT8) == FUSION_TENSORRT);
	CHECK(fusion_rules_for(mlperf, l4, PREC_INT8) == FUSION_TENSORRT);
	CHECK(fusion_rules_for(mlperf, t4, PREC_FP16) == FUSION_TENSORRT);
	CHECK(fusion_rules_for("tensorrt", t4, PREC_INT8) == FUSION_TENSORRT);
	CHECK(fusion_rules_for(NULL, t4, PREC_INT8) == FUSION_TENSORRT);
	CHECK_STR(fusion_rules_name(FUSION_RES2), "tensorrt+res2");
	CHECK_STR(fusion_rules_name(FUSION_NONE), "none");
}

/*
 * The serving planner's pass (serve_prep.c: ops sorted by intensity)
 * under each rule set prices ResNet-50 v1 as roofline_forward() does op
 * by op, launch costs aside, and counts the plugin's kernels.
 */
static void serve_pass_follows(const struct accelerator *t4)
{
	struct built b;
	build(&b, "resnet-50-v1.yaml", 0);
	if (!b.ok) {
		done(&b);
		return;
	}
	struct workload w = {
		.name = "resnet", .kind = WORKLOAD_INFERENCE,
		.model_file = "resnet-50-v1.yaml", .model = &b.m,
		.precision = PREC_INT8,
		.infer = {.request_rate = 100, .target[TARGET_P99] = 1,
			  .serving_per_month = 3600.0},
	};
	struct efficiency e0 = eff;
	e0.graph_gap = e0.stream_gap = e0.stream_floor = 0;
	enum fusion_rules rules[2] = {FUSION_TENSORRT, FUSION_RES2};
	long kernels[2] = {0, 0};
	for (int k = 0; k < 2; k++) {
		char why[256];
		struct serve_prep *sp = serve_prepare_fused(&w, rules[k], why,
							    sizeof(why));
		CHECK(sp != NULL);
		if (!sp)
			continue;
		kernels[k] = sp->prefill.kernels;
		struct serve_device d;
		serve_device_init(&d, t4, PREC_INT8, &e0, 1, 1, 1, NULL);
		for (int bi = 0; bi < SERVE_BATCHES; bi += 3) {
			struct serve_time t;
			struct roofline r;
			serve_batch_time(sp, &d, bi, &t);
			roofline_forward(&b.g, 1L << bi, t4, PREC_INT8, rules[k],
					 1, 1, &eff, &r);
			CHECK_NEAR(t.total, r.time, 1e-9);
		}
		serve_prep_free(sp);
	}
	CHECK(kernels[0] - kernels[1] == 9);
	done(&b);
}

int main(void)
{
	struct gp_errors e;
	gp_errors_init(&e);
	catalog_init(&cat);
	bool ok = catalog_load_shipped(&cat, GPUPLAN_SOURCE_DIR, &e) == 0;
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	CHECK(ok);
	efficiency_default(&eff);
	const struct accelerator *t4 = catalog_find_accelerator(&cat, "T4");
	CHECK(t4 != NULL);
	if (ok && t4) {
		one_chain(t4);
		residual_block(t4);
		res2_stage(t4);
		serve_pass_follows(t4);
	}
	chain_stops();
	res2_of_v1_5();
	res2_needs_its_stage();
	if (ok)
		rules_by_engine();
	catalog_free(&cat);
	return check_summary("fusion");
}

/*
 * test_roofline.c - the formats a forward pass runs in (src/hwmodel/roofline.c):
 * FP8 training as Transformer Engine runs it (linear layers of the
 * repeated blocks in FP8, attention, norms and activations at 16 bits, a
 * quantisation pass for each FP8 input no norm wrote) against FP8 serving,
 * where everything is FP8.  Llama-2-7B at 2,048 tokens on the shipped
 * H100 SXM (989.5 TFLOP/s BF16, 1,979 FP8 dense, 3.35 TB/s: NVIDIA H100
 * datasheet, catalogs/accelerators.yaml).
 */
#include <string.h>

#include "check.h"
#include "core/precision.h"
#include "model_fixture.h"
#include "hwmodel/efficiency.h"
#include "hwmodel/roofline.h"

#define SEQ 2048
#define LAYERS 32
#define HIDDEN 4096.0
#define FFN 11008.0

static struct catalog cat;
static struct efficiency eff;
static const struct accelerator *h100;

static void train(const struct built *b, enum precision p, long layers,
		  struct roofline *r)
{
	roofline_forward_tp(&b->g, layers, 1, h100, p, 1, false, &eff, r);
}

/* Attention and norms cost the same in FP8 and BF16 training; only the
 * linear layers speed up. */
static void sixteen_bit_outside_linear(const struct built *b)
{
	struct roofline bf, f8;
	train(b, PREC_BF16, LAYERS, &bf);
	train(b, PREC_FP8, LAYERS, &f8);
	CHECK_NEAR(f8.class_time[OPC_ATTENTION], bf.class_time[OPC_ATTENTION],
		   1e-15);
	CHECK_NEAR(f8.class_time[OPC_NORM], bf.class_time[OPC_NORM], 1e-15);
	CHECK_NEAR(f8.class_time[OPC_DATA], bf.class_time[OPC_DATA], 1e-15);
	CHECK(f8.class_time[OPC_GEMM] < bf.class_time[OPC_GEMM]);
}

/*
 * The quantisation passes, by hand: per layer the attention output
 * projection (input h, written by attention) and the down projection
 * (input f, written by gate x up) are cast; q/k/v, gate and up read the
 * norm's output, cast by the norm.  Each pass reads 2 bytes and writes 1
 * per element: 32 x 2048 x (4096 + 11008) x 3 = 2,969,567,232 bytes, at
 * 80% of 3.35 TB/s.
 */
static void casts_by_hand(const struct built *b)
{
	struct roofline bf, f8;
	train(b, PREC_BF16, LAYERS, &bf);
	train(b, PREC_FP8, LAYERS, &f8);
	double bytes = LAYERS * SEQ * (HIDDEN + FFN) * 3;
	CHECK_NEAR(bytes, 2969567232.0, 0);
	CHECK_NEAR(h100->memory_bandwidth, 3.35e12, 0);
	double cast_s = bytes / (3.35e12 * 0.80);
	CHECK_NEAR(f8.class_time[OPC_ELEMENTWISE] - bf.class_time[OPC_ELEMENTWISE],
		   cast_s, 1e-12);
}

/*
 * Every product of Llama-2-7B at 2,048 tokens is bound by compute at both
 * precisions, so with every linear layer in FP8 (layers 0) the matrix
 * time falls as the peaks times their measured ceilings do (the catalog's
 * matmul_ceiling, MAMF: bf16 80.3% of 989.5, fp8 70.9% of 1,979; the
 * planner's 0.948 of each cancels): 0.566; keeping the output head at 16
 * bits (layers 32) costs more than that.
 */
static void linear_time_follows_the_peak(const struct built *b)
{
	struct roofline bf, all, inner;
	train(b, PREC_BF16, LAYERS, &bf);
	train(b, PREC_FP8, 0, &all);
	train(b, PREC_FP8, LAYERS, &inner);
	CHECK_NEAR(all.class_time[OPC_GEMM] / bf.class_time[OPC_GEMM],
		   (989.5 * 0.803) / (1979.0 * 0.709), 1e-12);
	CHECK(inner.class_time[OPC_GEMM] > all.class_time[OPC_GEMM]);
}

/* Serving at FP8 runs the whole network in it: the norms move half the
 * bytes of BF16 serving (they are bound by memory). */
static void serving_is_all_fp8(const struct built *b)
{
	struct roofline bf, f8;
	roofline_forward(&b->g, 1, h100, PREC_BF16, FUSION_TENSORRT, 1, 1, &eff,
			 &bf);
	roofline_forward(&b->g, 1, h100, PREC_FP8, FUSION_TENSORRT, 1, 1, &eff,
			 &f8);
	CHECK_NEAR(f8.class_time[OPC_NORM], bf.class_time[OPC_NORM] / 2, 1e-15);
}

/* Activations of FP8 training are stored at 16 bits. */
static void activation_bytes(void)
{
	CHECK(precision_training_activation_bytes(PREC_FP8) == 2);
	CHECK(precision_training_activation_bytes(PREC_BF16) == 2);
	CHECK(precision_training_activation_bytes(PREC_FP32) == 4);
}

/*
 * efficiency_default() sets every field, whatever the struct held: one
 * filled with 0xA5 bytes and one zeroed must come out the same, field by
 * field (padding aside).  A field the function left alone would keep
 * 0xA5A5... in one and 0 in the other.
 */
static void efficiency_default_sets_every_field(void)
{
	struct efficiency g, z;
	memset(&g, 0xA5, sizeof(g));
	memset(&z, 0, sizeof(z));
	efficiency_default(&g);
	efficiency_default(&z);
	CHECK(matrix_eff_equal(&g.matrix, &z.matrix));
	CHECK(g.matrix.measured_half_n == 0 && z.matrix.measured_half_n == 0);
	CHECK(g.matrix.from == z.matrix.from);
	const double gd[] = {g.compute, g.memory, g.link, g.network_rdma,
			     g.network_tcp, g.spot_overhead,
			     g.host_link, g.graph_gap, g.stream_gap,
			     g.stream_floor, g.iteration_host,
			     g.overlap_slowdown, g.straggler_cv};
	const double zd[] = {z.compute, z.memory, z.link, z.network_rdma,
			     z.network_tcp, z.spot_overhead,
			     z.host_link, z.graph_gap, z.stream_gap,
			     z.stream_floor, z.iteration_host,
			     z.overlap_slowdown, z.straggler_cv};
	for (size_t i = 0; i < sizeof(gd) / sizeof(gd[0]); i++)
		CHECK(gd[i] == zd[i]);
	CHECK(g.fused_attention == z.fused_attention);
	const char *gs[] = {g.host_link_from, g.launch_from, g.iteration_from,
			    g.compute_from, g.memory_from, g.network_from,
			    g.spot_from, g.link_from, g.matrix.from,
			    g.overlap_from, g.straggler_from};
	const char *zs[] = {z.host_link_from, z.launch_from, z.iteration_from,
			    z.compute_from, z.memory_from, z.network_from,
			    z.spot_from, z.link_from, z.matrix.from,
			    z.overlap_from, z.straggler_from};
	for (size_t i = 0; i < sizeof(gs) / sizeof(gs[0]); i++)
		CHECK(gs[i] && gs[i] == zs[i]);
}

/*
 * The sustained clock fraction scales the peak every consumer takes
 * (roofline_matrix_peak): the shipped T4 holds 0.566 of its clock under
 * tensor load, so its fp16 peak is 65 x 0.566 = 36.79 TFLOP/s and a bf16
 * request (T4 lacks bf16) falls back to that fp16 figure; its fp32 peak
 * (CUDA cores, not what was measured) stays 8.1 TFLOP/s.  H100 SXM gives
 * no fraction: its 989.5 TFLOP/s bf16 peak is taken as it is.
 */
static void sustained_peak(void)
{
	const struct accelerator *t4 = catalog_find_accelerator(&cat, "T4");
	CHECK(t4 != NULL);
	if (!t4)
		return;
	enum precision used;
	CHECK_NEAR(roofline_matrix_peak(t4, PREC_BF16, &used), 36.79e12, 1e-9);
	CHECK(used == PREC_FP16);
	CHECK_NEAR(roofline_matrix_peak(t4, PREC_FP32, &used), 8.1e12, 1e-12);
	CHECK_NEAR(roofline_matrix_peak(h100, PREC_BF16, &used), 989.5e12,
		   1e-12);
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
	h100 = catalog_find_accelerator(&cat, "H100-SXM");
	CHECK(h100 != NULL);
	struct built b;
	build(&b, "llama-2-7b.yaml", SEQ);
	if (ok && h100 && b.ok) {
		sixteen_bit_outside_linear(&b);
		casts_by_hand(&b);
		linear_time_follows_the_peak(&b);
		serving_is_all_fp8(&b);
	}
	activation_bytes();
	efficiency_default_sets_every_field();
	if (ok && h100)
		sustained_peak();
	done(&b);
	catalog_free(&cat);
	return check_summary("roofline");
}

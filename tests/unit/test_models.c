/*
 * The shipped models against their published figures.  Each case names its
 * source; the tolerance is what the publication's rounding allows, or 0
 * where the published count is exact.  Hand-computed figures show their
 * arithmetic.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "model_fixture.h"
#include "model/graph.h"

/* Relative difference, for messages. */
static void report(const char *what, double got, double want)
{
	printf("  %-34s derived %.6g, published %.6g (%+.2f%%)\n", what, got,
	       want, 100 * (got - want) / want);
}

static void resnet50(void)
{
	struct built b;
	build(&b, "resnet-50.yaml", 0);
	if (!b.ok)
		return done(&b);
	/* torchvision resnet50 weights metadata: num_params 25,557,032 (exact),
	 * "GFLOPS" 4.09, which counts multiply-adds (4.09 G MACs). */
	report("resnet-50 params", b.c.params, 25557032);
	CHECK(b.c.params == 25557032);
	report("resnet-50 MACs / image", b.c.macs_per_sample, 4.09e9);
	CHECK_NEAR(b.c.macs_per_sample, 4.09e9, 0.01);
	CHECK(b.g.output.kind == SHAPE_VEC && b.g.output.d[0] == 1000);
	done(&b);
}

/*
 * ResNet-50 v1: the same layers, the downsampling stride in each first
 * bottleneck's 1x1 convolution instead of its 3x3 (NVIDIA's ResNet-50
 * v1.5 README), so the 3x3 runs on the smaller map: fewer multiply-adds,
 * the same parameters.  He et al. 2015, Table 1: "FLOPs ... 3.8x10^9"
 * for the 50-layer net (multiply-adds, given to two figures: 3.86 G
 * derived is within the rounding of 3.8-3.9).
 */
static void resnet50_v1(void)
{
	struct built b;
	build(&b, "resnet-50-v1.yaml", 0);
	if (!b.ok)
		return done(&b);
	report("resnet-50-v1 params", b.c.params, 25557032);
	CHECK(b.c.params == 25557032);
	report("resnet-50-v1 MACs / image", b.c.macs_per_sample, 3.8e9);
	CHECK(b.c.macs_per_sample >= 3.8e9 && b.c.macs_per_sample < 3.9e9);
	done(&b);
}

static void vit_b16(void)
{
	struct built b;
	build(&b, "vit-b-16.yaml", 0);
	if (!b.ok)
		return done(&b);
	/* torchvision vit_b_16: num_params 86,567,656; "GFLOPS" 17.564
	 * (multiply-adds, attention products included). */
	report("vit-b-16 params", b.c.params, 86567656);
	CHECK(b.c.params == 86567656);
	report("vit-b-16 MACs / image", b.c.macs_per_sample, 17.564e9);
	CHECK_NEAR(b.c.macs_per_sample, 17.564e9, 0.01);
	done(&b);
}

static void bert_base(void)
{
	struct built b;
	build(&b, "bert-base.yaml", 128);
	if (!b.ok)
		return done(&b);
	/* Devlin et al. 2019: BERT-base 110M parameters (rounded: 1%).
	 * By hand: embeddings 30522x768 + 512x768 + 2x768 + LN 1536 =
	 * 23,837,184; per layer 4x(768^2+768) + 2x1536 + 768x3072 + 3072 +
	 * 3072x768 + 768 = 7,087,872, x12 = 85,054,464; pooler 768^2 + 768 =
	 * 590,592; total 109,482,240. */
	report("bert-base params", b.c.params, 110e6);
	CHECK_NEAR(b.c.params, 110e6, 0.01);
	CHECK(b.c.params == 109482240);
	done(&b);
}

static void llama2_7b(void)
{
	struct built b;
	build(&b, "llama-2-7b.yaml", 4096);
	if (!b.ok)
		return done(&b);
	/* facts.md (HF config.json, derived): 6,738,415,616 parameters. */
	report("llama-2-7b params", b.c.params, 6738415616.0);
	CHECK(b.c.params == 6738415616.0);
	/* Forward FLOPs per token, PaLM appendix B: 2N (matrix weights, the
	 * embedding lookup excluded) + 4 L d s for the two attention products.
	 * N - embedding = 6,738,415,616 - 131,072,000; 4 x 32 x 4096 x 4096 =
	 * 2,147,483,648.  Element-wise work adds well under 1%. */
	double want = 2 * (6738415616.0 - 131072000.0) + 2147483648.0;
	double per_token = b.c.flops_per_sample / 4096;
	report("llama-2-7b forward FLOPs / token", per_token, want);
	CHECK_NEAR(per_token, want, 0.01);
	CHECK(per_token >= want);
	done(&b);
}

static void llama2_70b(void)
{
	struct built b;
	build(&b, "llama-2-70b.yaml", 4096);
	if (!b.ok)
		return done(&b);
	/* Touvron et al. 2023: "70B" (rounded to 2 significant digits: 2%).
	 * By hand: embedding and head 2 x 32000 x 8192 = 524,288,000; per
	 * layer q, o 2 x 8192^2 + k, v 2 x 8192 x 1024 + FFN 3 x 8192 x 28672
	 * + 2 norms x 8192 = 855,654,400, x80 = 68,452,352,000; final norm
	 * 8192; total 68,976,648,192. */
	report("llama-2-70b params", b.c.params, 70e9);
	CHECK_NEAR(b.c.params, 70e9, 0.02);
	CHECK(b.c.params == 68976648192.0);
	done(&b);
}

/*
 * Llama 3 (grouped-query attention, 8 KV heads of 128, vocab 128,256), by
 * hand.  8B: embedding and head 2 x 128256 x 4096 = 1,050,673,152; per
 * layer q, o 2 x 4096^2 + k, v 2 x 4096 x 1024 + FFN 3 x 4096 x 14336 + 2
 * norms x 4096 = 218,112,000, x32 = 6,979,584,000; final norm 4,096:
 * 8,030,261,248 ("8B").  70B: 2 x 128256 x 8192 = 2,101,346,304; per
 * layer 2 x 8192^2 + 2 x 8192 x 1024 + 3 x 8192 x 28672 + 2 x 8192 =
 * 855,654,400, x80 = 68,452,352,000; final norm 8,192: 70,553,706,496.
 */
static void llama3(void)
{
	struct built b;
	build(&b, "llama-3-8b.yaml", 8192);
	if (b.ok) {
		report("llama-3-8b params", b.c.params, 8e9);
		CHECK(b.c.params == 8030261248.0);
	}
	done(&b);
	build(&b, "llama-3-70b.yaml", 8192);
	if (b.ok) {
		report("llama-3-70b params", b.c.params, 70e9);
		CHECK(b.c.params == 70553706496.0);
	}
	done(&b);
}

/*
 * Llama 3.1 keeps Llama 3's shapes (its config changes only the context,
 * 131,072, and the rope scaling, which has no parameters), so the same
 * hand counts hold: 8,030,261,248 and 70,553,706,496.  Built at 2,048
 * tokens, the longest prompt of the serving records that use them.
 */
static void llama31(void)
{
	struct built b;
	build(&b, "llama-3.1-8b.yaml", 2048);
	if (b.ok) {
		report("llama-3.1-8b params", b.c.params, 8e9);
		CHECK(b.c.params == 8030261248.0);
	}
	done(&b);
	build(&b, "llama-3.1-70b.yaml", 2048);
	if (b.ok) {
		report("llama-3.1-70b params", b.c.params, 70e9);
		CHECK(b.c.params == 70553706496.0);
	}
	done(&b);
}

static void yolo(void)
{
	struct built b;
	build(&b, "yolo-inspect-640.yaml", 0);
	if (!b.ok)
		return done(&b);
	/* ultralytics/yolov5 README, YOLOv5s at 640: 7.2M parameters,
	 * 16.5 GFLOPs (2 FLOPs per multiply-add).  Both are rounded; the
	 * FLOPs tool also counts a little beyond convolutions: 2%. */
	report("yolo (YOLOv5s) params", b.c.params, 7.2e6);
	CHECK_NEAR(b.c.params, 7.2e6, 0.01);
	/* Exactly what ultralytics' model summary prints for YOLOv5s before
	 * fusing batch norm into the convolutions: 7,235,389 parameters. */
	CHECK(b.c.params == 7235389);
	report("yolo (YOLOv5s) GFLOPs / image", 2 * b.c.macs_per_sample, 16.5e9);
	CHECK_NEAR(2 * b.c.macs_per_sample, 16.5e9, 0.02);
	done(&b);
}

static void tiny_cnn(void)
{
	struct built b;
	build(&b, "tiny-cnn.yaml", 0);
	if (!b.ok)
		return done(&b);
	/* By hand: conv 32x1x9+32 = 320; conv 64x32x9+64 = 18,496; linear
	 * 3136x128+128 = 401,536; linear 128x10+10 = 1,290: 421,642.
	 * MACs: 28x28x32x9 = 225,792; 14x14x64x32x9 = 3,612,672; 401,408;
	 * 1,280: 4,241,152. */
	CHECK(b.c.params == 421642);
	CHECK(b.c.macs_per_sample == 4241152);
	done(&b);
}

int main(void)
{
	resnet50();
	resnet50_v1();
	vit_b16();
	bert_base();
	llama2_7b();
	llama2_70b();
	llama3();
	llama31();
	yolo();
	tiny_cnn();
	return check_summary("models");
}

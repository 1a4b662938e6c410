/*
 * fusion.c - the rule sets of fusion.h.
 *
 * TensorRT's layer fusions (NVIDIA TensorRT documentation, "Layer Fusion
 * Catalog", docs.nvidia.com/deeplearning/tensorrt/latest/performance/
 * fusion-catalog.html: "The internal implementation of convolution
 * supports computing the ReLU function on the output in one step directly
 * from the convolution kernel without requiring a second kernel call"; its
 * section "Types of Fusions", read 2026-12-07 in the Chinese translation
 * of the TensorRT 8 Developer Guide, HeKun-NVIDIA/
 * TensorRT-Developer_Guide_in_Chinese@49486de2, 13.TensorRT的最佳性能实践/
 * TensorRT的最佳性能实践.md:247-298, §13.2.4.2, because the stored copy of
 * NVIDIA's page ends before its table): "Convolution and ReLU
 * Activation", "Convolution and GELU Activation", "Convolution and Scale"
 * (a per-channel scale, which an inference batch norm is, folded into one
 * convolution) and "Convolution And ElementWise Operation" (a sum without
 * broadcasting folded into the convolution).  Engines TensorRT builds show
 * the chain whole: ResNet-18's "stage1_conv1_fwd + batchnorm1_fwd +
 * _plus0 + activation0" is one layer (NVIDIA/TensorRT issue #4020,
 * 2024-07-22), and ResNeXt-101's "Conv_7 + Add_9 + Relu_10" beside its
 * projection shortcut "Conv_8" (issue #2169, 2022-07-19).
 *
 * So after a convolution: a batch norm folds into its weights (no work at
 * run time, its parameters gone); one residual add, before any activation,
 * and one activation after that, run in its epilogue on outputs still in
 * registers.  A fused op moves nothing of its own but an add's other input
 * and does no FLOPs apart from the convolution's: a few per output beside
 * the convolution's 2 x C x R x S (128 and more in ResNet-50), not a pass
 * of its own at the FP32 vector rate.  A norm or add after the activation
 * ends the chain (the sum goes into the accumulator before the activation;
 * TensorRT runs a norm there as a Scale layer of its own).  SiLU and
 * sigmoid are kept in the epilogue as before; the Types of Fusions list
 * does not name them.
 */
#include "hwmodel/fusion.h"

#include <string.h>

static const char *const rule_names[FUSION_RULES_COUNT] = {
	[FUSION_NONE] = "none",
	[FUSION_TENSORRT] = "tensorrt",
	[FUSION_RES2] = "tensorrt+res2",
};

const char *fusion_rules_name(enum fusion_rules r)
{
	return r < FUSION_RULES_COUNT ? rule_names[r] : "?";
}

/*
 * NVIDIA's MLPerf Inference v2.0 ResNet-50 code (mlcommons/
 * inference_results_v2.0@425a0d30, closed/NVIDIA/code/resnet50/tensorrt/
 * rn50_graphsurgeon.py:347-372, read 2026-12-07) picks its fusion policy
 * by compute capability and precision: "Res2Mega" for SM 7.5, 8.0, 8.6
 * and 8.7 (Turing, Ampere), smaller plugins on Volta and Xavier, none on
 * other parts, and only for INT8 engines (not while calibrating).
 */
static bool res2_plugin_part(const struct accelerator *a)
{
	const char *arch = a && a->architecture ? a->architecture : "";
	return strcmp(arch, "Turing") == 0 || strcmp(arch, "Ampere") == 0;
}

enum fusion_rules fusion_rules_for(const char *engine,
				   const struct accelerator *a,
				   enum precision p)
{
	if (engine && strcmp(engine, FUSION_MLPERF_ENGINE) == 0 &&
	    p == PREC_INT8 && res2_plugin_part(a))
		return FUSION_RES2;
	return FUSION_TENSORRT;
}

/* ---- a convolution's epilogue ---- */

/* Where a chain after a convolution stands. */
enum chain {
	CHAIN_OFF,	/* not after a convolution */
	CHAIN_CONV,	/* its output, scaled or not: a sum may still join */
	CHAIN_SUM,	/* the residual sum taken: an activation may join */
	CHAIN_DONE,	/* activated: nothing more joins */
};

static bool activation(enum op_kind k)
{
	return k == OP_RELU || k == OP_GELU || k == OP_SILU || k == OP_SIGMOID;
}

/* The chain state after op kind k when k joins the epilogue; CHAIN_OFF
 * when it does not. */
static enum chain joins(enum chain c, enum op_kind k)
{
	if (c == CHAIN_CONV && k == OP_BATCHNORM)
		return CHAIN_CONV;
	if (c == CHAIN_CONV && k == OP_ADD)
		return CHAIN_SUM;
	if ((c == CHAIN_CONV || c == CHAIN_SUM) && activation(k))
		return CHAIN_DONE;
	return CHAIN_OFF;
}

/* What a fused op still costs: only an add's read of its other input. */
static void fold_into_epilogue(struct op *o)
{
	double other = o->kind == OP_ADD ? o->act_read - shape_elements(&o->out)
					 : 0;
	o->act_read = other > 0 ? other : 0;
	o->act_written = 0;
	o->scratch = 0;
	o->params = 0;
	o->flops = 0;
	o->macs = 0;
}

static void tensorrt_epilogues(struct op *ops, bool *launches, size_t n)
{
	enum chain c = CHAIN_OFF;
	for (size_t i = 0; i < n; i++) {
		struct op *o = &ops[i];
		if (o->kind == OP_CONV) {
			c = CHAIN_CONV;
			continue;
		}
		c = joins(c, o->kind);
		if (c != CHAIN_OFF) {
			fold_into_epilogue(o);
			launches[i] = false;
		}
	}
}

/* ---- ResNet-50's res2 stage as one kernel ---- */

/*
 * The plugin's span (rn50_graphsurgeon.py:469-497, fuse_res2_mega): every
 * op from res2a_branch1 to res2c_relu, the three bottlenecks after the
 * stem's pooling, replaced by one RnRes2FullFusion_TRT node whose only
 * input is the pooled stem output and whose only output is res2c_relu's;
 * the code's README (README.md:31) says it "fuses all the res2* layers
 * into one CUDA kernel".  Its fields hold 64- and 256-channel scales, so
 * a graph matches only with that geometry: after the first max pool,
 * convolutions, norms, activations and adds at the pool's resolution,
 * ten convolutions of 64 or 256 outputs and three adds, ending with the
 * activation after the third add on 256 channels.
 */
#define RES2_CONVS 10
#define RES2_ADDS 3

static bool res2_op(const struct op *o, const struct shape *at)
{
	bool kind = o->kind == OP_CONV || o->kind == OP_BATCHNORM ||
		    o->kind == OP_ADD || activation(o->kind);
	bool width = o->kind != OP_CONV || o->out.d[0] == 64 ||
		     o->out.d[0] == 256;
	return kind && width && o->out.kind == SHAPE_IMAGE &&
	       o->out.d[1] == at->d[1] && o->out.d[2] == at->d[2];
}

static bool res2_span(const struct model_graph *g, size_t *first, size_t *last)
{
	size_t i = 0;
	while (i < g->n && g->ops[i].kind != OP_MAXPOOL)
		i++;
	if (i >= g->n || g->ops[i].out.kind != SHAPE_IMAGE ||
	    g->ops[i].out.d[0] != 64)
		return false;
	const struct shape *at = &g->ops[i].out;
	int convs = 0, adds = 0;
	*first = i + 1;
	for (size_t j = i + 1; j < g->n && res2_op(&g->ops[j], at); j++) {
		const struct op *o = &g->ops[j];
		convs += o->kind == OP_CONV;
		adds += o->kind == OP_ADD;
		if (adds == RES2_ADDS && activation(o->kind)) {
			*last = j;
			return convs == RES2_CONVS && o->out.d[0] == 256;
		}
	}
	return false;
}

/*
 * Inside the span every convolution keeps its FLOPs and weights, and the
 * kernel reads the stage's input once and writes its output once: the
 * tensors between its layers stay on chip.  One kernel for all of it.
 */
static void res2_megakernel(const struct model_graph *g, struct op *ops,
			    bool *launches)
{
	size_t first, last;
	if (!res2_span(g, &first, &last))
		return;
	size_t last_conv = first;
	for (size_t j = first; j <= last; j++) {
		ops[j].act_read = ops[j].act_written = 0;
		launches[j] = j == first;
		if (ops[j].kind == OP_CONV)
			last_conv = j;
	}
	ops[first].act_read = shape_elements(&g->ops[first].in);
	ops[last_conv].act_written = shape_elements(&g->ops[last].out);
}

/* ---- the pass ---- */

static bool does_work(const struct op *o)
{
	return o->flops > 0 || op_weight_reads(o) > 0 ||
	       o->act_read + o->act_written > 0;
}

long fusion_apply(const struct model_graph *g, enum fusion_rules r,
		  struct op *ops, bool *launches)
{
	for (size_t i = 0; i < g->n; i++) {
		ops[i] = g->ops[i];
		launches[i] = true;
	}
	if (r == FUSION_TENSORRT || r == FUSION_RES2)
		tensorrt_epilogues(ops, launches, g->n);
	if (r == FUSION_RES2)
		res2_megakernel(g, ops, launches);
	long kernels = 0;
	for (size_t i = 0; i < g->n; i++)
		kernels += launches[i] && does_work(&ops[i]);
	return kernels;
}

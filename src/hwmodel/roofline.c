#include "hwmodel/roofline.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

/* Where to look when a part lacks the precision asked for: the next
 * wider format it does have. */
static const enum precision fallbacks[PREC_COUNT][ROOFLINE_FALLBACKS] = {
	[PREC_FP64] = {PREC_FP64, PREC_FP64, PREC_FP64, PREC_FP64},
	[PREC_FP64_TENSOR] = {PREC_FP64_TENSOR, PREC_FP64, PREC_FP64, PREC_FP64},
	[PREC_FP32] = {PREC_FP32, PREC_FP32, PREC_FP32, PREC_FP32},
	[PREC_TF32] = {PREC_TF32, PREC_FP32, PREC_FP32, PREC_FP32},
	[PREC_FP16] = {PREC_FP16, PREC_BF16, PREC_FP32, PREC_FP32},
	[PREC_BF16] = {PREC_BF16, PREC_FP16, PREC_FP32, PREC_FP32},
	[PREC_FP8] = {PREC_FP8, PREC_BF16, PREC_FP16, PREC_FP32},
	[PREC_INT8] = {PREC_INT8, PREC_FP16, PREC_BF16, PREC_FP32},
};

const enum precision *roofline_fallbacks(enum precision want)
{
	return fallbacks[want];
}

double roofline_matrix_peak(const struct accelerator *a, enum precision want,
			    enum precision *used)
{
	for (int i = 0; i < ROOFLINE_FALLBACKS; i++) {
		enum precision p = fallbacks[want][i];
		if (a->has_peak[p]) {
			*used = p;
			return accelerator_sustained_peak(a, p);
		}
	}
	*used = want;
	return 0;
}

static double vector_peak(const struct accelerator *a)
{
	enum precision used;
	return roofline_matrix_peak(a, PREC_FP32, &used);
}

/* Kernel times of one op: compute and memory, added into out. */
static void add_kernel(struct roofline *out, enum op_class c, double tc, double tm)
{
	if (tc >= tm)
		out->compute_bound += tc;
	else
		out->memory_bound += tm;
	out->class_time[c] += tc >= tm ? tc : tm;
}

/*
 * Unfused attention runs as three kernels one after another, each bounded
 * by itself: the score product (reading Q and K, writing the S x S
 * scores), the softmax (reading and writing the scores), and the value
 * product (reading the probabilities and V, writing the output).  The
 * op's scratch is those four passes over the scores (op_cost.c).  tc is
 * the two products' compute time, split evenly (both are 2 S^2 d
 * multiply-adds per head); softmax_tc the softmax's on the vector units.
 * Dropout on the probabilities is a fourth kernel before the value
 * product: it reads them, writes them dropped and writes a one-byte keep
 * mask per score (Megatron-LM fuses the scaling and masking into the
 * softmax, not the dropout).
 */
static void unfused_attention(struct roofline *out, const struct op *o,
			      double batch_share, double elem, double bandwidth,
			      double tc, double softmax_tc)
{
	double scores = o->scratch / 4 * batch_share * elem;
	double qk = o->act_read * batch_share * elem * 2 / 3;
	double v_out = (o->act_read / 3 + o->act_written) * batch_share * elem;
	double bw = bandwidth > 0 ? bandwidth : 1e300;
	add_kernel(out, OPC_ATTENTION, tc / 2, (qk + scores) / bw);
	add_kernel(out, OPC_ATTENTION, softmax_tc, 2 * scores / bw);
	if (o->p.dropout)
		add_kernel(out, OPC_ATTENTION, 0, (2 * scores + scores / elem) / bw);
	add_kernel(out, OPC_ATTENTION, tc / 2, (scores + v_out) / bw);
}

/*
 * The formats one forward pass runs in.  An inference engine runs the
 * whole network at the precision served (TensorRT's INT8 and FP8 engines
 * keep activations in it between fused layers), so every op does.
 * Training in FP8 does not (Transformer Engine; torchao's Float8Linear,
 * pytorch/torchtitan docs/float8.md: "swap nn.Linear with Float8Linear to
 * perform float8 matmul"): only the linear layers' products take FP8
 * operands, the weights' FP8 copy and an FP8 input, and write a 16-bit
 * output; attention runs at 16 bits (Transformer Engine's fp8_dpa,
 * "FP8 dot product attention", defaults to False: Common API,
 * docs.nvidia.com/deeplearning/transformer-engine), and so do norms,
 * activations and residual adds.  Each FP8 input is quantised first: one
 * read of the 16-bit tensor and a write of the FP8 one (TE, "FP8 Delayed
 * Scaling": delayed scaling needs one tensor read per quantisation) --
 * except after a norm, whose kernel writes FP8 itself (TE's
 * LayerNormLinear and LayerNormMLP).  Assumption: the embedding and the
 * output head (the blocks outside the repeated layers) stay at 16 bits,
 * as frameworks keep the first and last layers in higher precision; and
 * the weights' own cast, once per step, is not counted.
 */
struct formats {
	double matrix;		/* FLOP/s of matrix products at the precision */
	double attention;	/* FLOP/s of attention's products */
	double wide_matrix;	/* FLOP/s of 16-bit products (FP8 training) */
	int elem;		/* bytes per activation element */
	bool fp8_linear;	/* linear layers inside [first, last] in FP8 */
	long first, last;
};

/* The products' rate: the peak the part runs precision p at, times its
 * large-GEMM ceiling at that precision (efficiency_ceiling()), times the
 * share of the part in use. */
static void serving_formats(const struct accelerator *a, enum precision p,
			    const struct efficiency *e, double fraction,
			    struct formats *f)
{
	enum precision used;
	double peak = roofline_matrix_peak(a, p, &used);
	f->matrix = peak * efficiency_ceiling(e, a, used) * fraction;
	f->attention = f->wide_matrix = f->matrix;
	f->elem = precision_bytes(used);
	f->fp8_linear = false;
	f->first = f->last = 0;
}

static void training_formats(const struct accelerator *a, enum precision p,
			     const struct efficiency *e, long layers,
			     struct formats *f)
{
	serving_formats(a, p, e, 1, f);
	enum precision used;
	roofline_matrix_peak(a, p, &used);
	if (used != PREC_FP8)
		return;
	enum precision wide;
	double peak = roofline_matrix_peak(a, PREC_BF16, &wide);
	f->wide_matrix = f->attention = peak * efficiency_ceiling(e, a, wide);
	f->elem = precision_bytes(wide);
	f->fp8_linear = true;
	f->first = layers > 0 ? 1 : 0;
	f->last = layers > 0 ? layers : LONG_MAX;
}

static bool runs_fp8(const struct formats *f, const struct op *o)
{
	return f->fp8_linear && o->kind == OP_LINEAR && o->block >= f->first &&
	       o->block <= f->last;
}

/* Bytes one op moves: weights once, activations per sample, in the
 * formats it runs in (an FP8 linear reads FP8 weights and input). */
static double op_bytes(const struct formats *f, const struct op *o,
		       double batch, bool fused)
{
	double scratch = fused && o->kind == OP_ATTENTION ? 0 : o->scratch;
	if (!runs_fp8(f, o))
		return (op_weight_reads(o) +
			(o->act_read + o->act_written + scratch) * batch) * f->elem;
	return op_weight_reads(o) + o->act_read * batch +
	       o->act_written * batch * f->elem;
}

/* Whether op i's input was written by a norm: the producer is taken to be
 * the latest op before it whose output has its input's shape (a SwiGLU's
 * up projection reads the norm's output past the gate and its SiLU). */
#define PRODUCER_LOOKBACK 8

static bool input_from_norm(const struct model_graph *g, size_t i)
{
	const struct op *o = &g->ops[i];
	for (size_t back = 1; back <= PRODUCER_LOOKBACK && back <= i; back++) {
		const struct op *p = &g->ops[i - back];
		if (shape_equal(&p->out, &o->in))
			return op_kind_class(p->kind) == OPC_NORM;
	}
	return false;
}

/* The quantisation of an FP8 linear's input, unless a norm wrote it. */
static void add_fp8_cast(struct roofline *out, const struct formats *f,
			 const struct model_graph *g, size_t i,
			 double batch_share, double bandwidth)
{
	const struct op *o = &g->ops[i];
	if (!runs_fp8(f, o) || input_from_norm(g, i))
		return;
	double bytes = o->act_read * batch_share * (f->elem + 1);
	out->bytes += bytes;
	add_kernel(out, OPC_ELEMENTWISE, 0, bandwidth > 0 ? bytes / bandwidth : 0);
}

/*
 * Matrix ops run at the tensor peak x the large-GEMM ceiling (e->compute)
 * x their shape factor (matrix_eff.h: their GEMMs' tiles in waves over
 * the SMs `fraction` of the part has, and the length of their
 * reductions); the other ops' FLOPs at the fp32 peak x the ceiling.
 */
/*
 * Under tensor parallelism (Shoeybi et al. 2019) the matrix products and
 * the element-wise work between them (the MLP's activation, attention's
 * softmax) are split over the ranks; the norms, residual adds and
 * position embeddings outside them are done whole by every rank unless
 * sequence parallelism splits them too (Korthikanti et al. 2022).
 */
static bool replicated(const struct op *o)
{
	return op_kind_class(o->kind) == OPC_NORM || o->kind == OP_ADD ||
	       o->kind == OP_POSITION_EMBEDDING;
}

static double matrix_peak(const struct formats *f, const struct op *o)
{
	if (o->kind == OP_ATTENTION)
		return f->attention;
	return runs_fp8(f, o) ? f->matrix : f->wide_matrix;
}

/*
 * ops: g's ops as the engine runs them (fusion.h), or g's own when it runs
 * them one by one.
 */
static void forward_split(const struct model_graph *g, const struct op *ops,
			  long batch, const struct accelerator *a,
			  const struct formats *fm, double share,
			  double replicated_share, double fraction,
			  const struct efficiency *e, struct roofline *out)
{
	memset(out, 0, sizeof(*out));
	double vector = vector_peak(a) * e->compute * fraction;
	double bandwidth = a->memory_bandwidth * e->memory * fraction;
	long sms = matrix_eff_sms(&e->matrix, a, fraction);
	int elem = fm->elem;
	struct matrix_eff_memo memo = {0};
	for (size_t i = 0; i < g->n; i++) {
		const struct op *o = &ops[i];
		enum op_class c = op_kind_class(o->kind);
		double sh = replicated(o) ? replicated_share : share;
		double flops = o->flops * batch * sh;
		bool fused = o->kind != OP_ATTENTION || e->fused_attention;
		double bytes = op_bytes(fm, o, (double)batch, fused) * sh;
		bool mat = c == OPC_GEMM || c == OPC_ATTENTION;
		double peak = mat ? matrix_peak(fm, o) *
					    matrix_eff_op_memo(&memo, &e->matrix, o,
							       batch, sh, sms)
				  : vector;
		double tc = peak > 0 ? flops / peak : 0;
		double tm = bandwidth > 0 ? bytes / bandwidth : 0;
		out->flops += flops;
		out->bytes += bytes;
		add_fp8_cast(out, fm, g, i, (double)batch * sh, bandwidth);
		if (!fused) {
			double mat_flops = 2 * o->macs * batch * sh;
			double tc_mat = peak > 0 ? mat_flops / peak : 0;
			double tc_soft = vector > 0 ? (flops - mat_flops) / vector : 0;
			unfused_attention(out, o, (double)batch * sh, elem,
					  bandwidth, tc_mat, tc_soft);
			continue;
		}
		add_kernel(out, c, tc, tm);
	}
	out->time = out->compute_bound + out->memory_bound;
}

void roofline_forward(const struct model_graph *g, long batch,
		      const struct accelerator *a, enum precision p,
		      enum fusion_rules rules, double share, double fraction,
		      const struct efficiency *e, struct roofline *out)
{
	struct formats fm;
	serving_formats(a, p, e, fraction, &fm);
	size_t n = g->n ? g->n : 1;
	struct op *ops = xmalloc(n * sizeof(*ops));
	bool *launches = xmalloc(n * sizeof(*launches));
	fusion_apply(g, rules, ops, launches);
	forward_split(g, ops, batch, a, &fm, share, share, fraction, e, out);
	free(launches);
	free(ops);
}

void roofline_forward_tp(const struct model_graph *g, long layers, long batch,
			 const struct accelerator *a, enum precision p, long tp,
			 bool sequence_parallel, const struct efficiency *e,
			 struct roofline *out)
{
	double share = 1.0 / (double)tp;
	struct formats fm;
	training_formats(a, p, e, layers, &fm);
	forward_split(g, g->ops, batch, a, &fm, share,
		      sequence_parallel ? share : 1, 1, e, out);
}

/*
 * op_cost.c - per-op arithmetic: parameters, multiply-adds, FLOPs and the
 * activation elements each op reads and writes, per sample.
 *
 * Conventions (the same as the papers and tools the tests compare with):
 * - a multiply-add is 2 FLOPs (Kaplan et al. 2020; PaLM's MFU definition);
 * - convolution and linear layers are counted exactly; a bias adds one FLOP
 *   per output element;
 * - cheap per-element ops get a small fixed FLOP count (FLOPS_PER_ELEMENT
 *   below).  These are approximations of what a kernel executes (an exp or
 *   a tanh is several instructions); they are a fraction of a percent of a
 *   model's FLOPs and matter only for the memory-bound classes' intensity;
 * - bytes are derived from elements read and written at the precision's
 *   element size: each op reads its inputs and weights and writes its
 *   output once (no fusion).  Attention is counted unfused: its score
 *   matrix is written and read back twice (scores, softmax, product), the
 *   traffic FlashAttention-style kernels avoid.
 */
#include <stdio.h>
#include <string.h>

#include "op.h"

struct kind_info {
	const char *name;
	enum op_class cls;
	double flops_per_element;	/* per output element, cheap ops */
};

static const struct kind_info kinds[OP_KIND_COUNT] = {
	[OP_CONV] = {"conv", OPC_GEMM, 0},
	[OP_LINEAR] = {"linear", OPC_GEMM, 0},
	[OP_ATTENTION] = {"attention", OPC_ATTENTION, 0},
	[OP_EMBEDDING] = {"embedding", OPC_DATA, 0},
	/* inference form: y = x * scale + shift with folded statistics */
	[OP_BATCHNORM] = {"batchnorm", OPC_NORM, 2},
	/* mean, variance (sub, square, add), normalise (sub, mul), affine */
	[OP_LAYERNORM] = {"layernorm", OPC_NORM, 8},
	/* square, add, scale by rsqrt, gain */
	[OP_RMSNORM] = {"rmsnorm", OPC_NORM, 4},
	[OP_RELU] = {"relu", OPC_ELEMENTWISE, 1},
	/* x * sigmoid(x): exp, add, divide, multiply */
	[OP_SILU] = {"silu", OPC_ELEMENTWISE, 4},
	/* tanh approximation: about 8 operations */
	[OP_GELU] = {"gelu", OPC_ELEMENTWISE, 8},
	[OP_SIGMOID] = {"sigmoid", OPC_ELEMENTWISE, 3},
	/* max, subtract, exp, sum, divide */
	[OP_SOFTMAX] = {"softmax", OPC_ELEMENTWISE, 5},
	[OP_MAXPOOL] = {"maxpool", OPC_POOL, 0},
	[OP_AVGPOOL] = {"avgpool", OPC_POOL, 0},
	[OP_GLOBAL_AVGPOOL] = {"global_avgpool", OPC_POOL, 0},
	[OP_FLATTEN] = {"flatten", OPC_DATA, 0},
	[OP_TO_TOKENS] = {"to_tokens", OPC_DATA, 0},
	[OP_POSITION_EMBEDDING] = {"position_embedding", OPC_ELEMENTWISE, 1},
	[OP_SELECT_TOKEN] = {"select_token", OPC_DATA, 0},
	[OP_UPSAMPLE] = {"upsample", OPC_DATA, 0},
	[OP_ADD] = {"add", OPC_ELEMENTWISE, 1},
	[OP_MUL] = {"mul", OPC_ELEMENTWISE, 1},
	[OP_CONCAT] = {"concat", OPC_DATA, 0},
};

static const char *const class_names[OPC_COUNT] = {
	"gemm", "attention", "norm", "elementwise", "pool", "data",
};

const char *op_kind_name(enum op_kind k)
{
	return kinds[k].name;
}

int op_kind_from_name(const char *name)
{
	for (int k = 0; k < OP_KIND_COUNT; k++)
		if (strcmp(kinds[k].name, name) == 0)
			return k;
	return -1;
}

const char *op_class_name(enum op_class c)
{
	return class_names[c];
}

enum op_class op_kind_class(enum op_kind k)
{
	return kinds[k].cls;
}

double shape_elements(const struct shape *s)
{
	switch (s->kind) {
	case SHAPE_IMAGE: return (double)s->d[0] * s->d[1] * s->d[2];
	case SHAPE_SEQ: return (double)s->d[0] * s->d[1];
	case SHAPE_VEC: return (double)s->d[0];
	case SHAPE_IDS: return (double)s->d[0];
	}
	return 0;
}

char *shape_format(const struct shape *s, char *buf, size_t len)
{
	switch (s->kind) {
	case SHAPE_IMAGE:
		snprintf(buf, len, "(%ld, %ld, %ld)", s->d[0], s->d[1], s->d[2]);
		break;
	case SHAPE_SEQ:
		snprintf(buf, len, "(%ld, %ld)", s->d[0], s->d[1]);
		break;
	case SHAPE_VEC:
		snprintf(buf, len, "(%ld)", s->d[0]);
		break;
	case SHAPE_IDS:
		snprintf(buf, len, "(%ld ids)", s->d[0]);
		break;
	}
	return buf;
}

bool shape_equal(const struct shape *a, const struct shape *b)
{
	int rank = a->kind == SHAPE_IMAGE ? 3 : a->kind == SHAPE_SEQ ? 2 : 1;
	if (a->kind != b->kind)
		return false;
	for (int i = 0; i < rank; i++)
		if (a->d[i] != b->d[i])
			return false;
	return true;
}

/* Rows a linear layer is applied to: tokens of a sequence, else one. */
static double rows_of(const struct shape *s)
{
	return s->kind == SHAPE_SEQ ? (double)s->d[0] : 1;
}

static double last_dim(const struct shape *s)
{
	return s->kind == SHAPE_SEQ ? (double)s->d[1] : (double)s->d[0];
}

/* Convolution as an implicit GEMM (cuDNN's formulation): one row per
 * output pixel, one column per output channel, a reduction over the input
 * channels of a group times the kernel window; one GEMM per group. */
static void conv_cost(struct op *o)
{
	double cin = (double)o->in.d[0] / o->p.groups;
	double k2 = (double)o->p.kernel * o->p.kernel;
	double outputs = shape_elements(&o->out);
	o->params = o->out.d[0] * cin * k2 + (o->p.bias ? o->out.d[0] : 0);
	o->macs = outputs * cin * k2;
	o->flops = 2 * o->macs + (o->p.bias ? outputs : 0);
	o->gemm[0] = (struct gemm_dims){
		.m = (double)o->out.d[1] * o->out.d[2],
		.n = (double)o->out.d[0] / o->p.groups, .k = cin * k2,
		.count = (double)o->p.groups, .split = GEMM_SPLIT_N};
	o->n_gemm = 1;
}

/* A linear layer: one row per token, one column per output feature. */
static void linear_cost(struct op *o)
{
	double in = last_dim(&o->in), out = last_dim(&o->out);
	o->params = in * out + (o->p.bias ? out : 0);
	o->macs = rows_of(&o->in) * in * out;
	o->flops = 2 * o->macs + (o->p.bias ? rows_of(&o->in) * out : 0);
	o->gemm[0] = (struct gemm_dims){.m = rows_of(&o->in), .n = out,
					.k = in, .count = 1,
					.split = GEMM_SPLIT_N};
	o->n_gemm = 1;
}

/*
 * The attention core on the projected Q, K, V: scores Q K^T (S x S x D
 * multiply-adds over all heads), softmax over heads x S x S, and the
 * product with V (S x S x D again).  The full S x S is counted also for
 * causal models, as the 6N + 12 L h s rule of thumb does (a causal kernel
 * that skips masked blocks does about half the score work).
 */
static void attention_cost(struct op *o)
{
	double s = (double)o->out.d[0], d = (double)o->out.d[1];
	double scores = (double)o->p.heads * s * s;
	o->params = 0;
	o->macs = 2 * s * s * d;
	o->flops = 2 * o->macs + kinds[OP_SOFTMAX].flops_per_element * scores;
	/* scores written, read by softmax, written, read by the V product */
	o->scratch = 4 * scores;
	/* per head: scores S x S over the head dimension, then S x head dim
	 * over the S keys; heads (and samples) are a batch of products */
	double heads = (double)o->p.heads, hd = d / heads;
	o->gemm[0] = (struct gemm_dims){.m = s, .n = s, .k = hd,
					.count = heads, .batch_in_count = true,
					.split = GEMM_SPLIT_COUNT};
	o->gemm[1] = (struct gemm_dims){.m = s, .n = hd, .k = s,
					.count = heads, .batch_in_count = true,
					.split = GEMM_SPLIT_COUNT};
	o->n_gemm = 2;
}

/* Pooling: one comparison or add per window element per output. */
static void pool_cost(struct op *o)
{
	double window = (double)o->p.kernel * o->p.kernel;
	o->flops = shape_elements(&o->out) * window;
}

static void norm_params(struct op *o)
{
	double channels = o->in.kind == SHAPE_IMAGE ? (double)o->in.d[0]
						    : last_dim(&o->in);
	o->params = o->kind == OP_RMSNORM ? channels : 2 * channels;
}

void op_cost(struct op *o, double extra_elems)
{
	o->params = o->macs = o->flops = o->scratch = 0;
	o->n_gemm = 0;
	o->act_read = shape_elements(&o->in) + extra_elems;
	o->act_written = shape_elements(&o->out);
	o->flops = kinds[o->kind].flops_per_element * o->act_written;
	switch (o->kind) {
	case OP_CONV: conv_cost(o); break;
	case OP_LINEAR: linear_cost(o); break;
	case OP_ATTENTION: attention_cost(o); break;
	case OP_BATCHNORM:
	case OP_LAYERNORM:
	case OP_RMSNORM: norm_params(o); break;
	case OP_MAXPOOL:
	case OP_AVGPOOL: pool_cost(o); break;
	case OP_GLOBAL_AVGPOOL: o->flops = shape_elements(&o->in); break;
	case OP_EMBEDDING:
		/* a gather: the looked-up rows are what is read */
		o->params = (double)o->p.vocab * o->p.dim;
		o->act_read = o->act_written;
		break;
	case OP_POSITION_EMBEDDING:
		o->params = shape_elements(&o->out);
		break;
	case OP_FLATTEN:
		/* a view: nothing moves */
		o->act_read = o->act_written = 0;
		break;
	case OP_SELECT_TOKEN:
		o->act_read = o->act_written;
		break;
	case OP_TO_TOKENS:
		/* a learned class token of one feature vector, if asked for */
		o->params = o->p.cls_token ? (double)o->in.d[0] : 0;
		break;
	default:
		break;
	}
}

/* Weight elements one forward pass reads, independent of the batch: every
 * parameter, except an embedding table, of which only the looked-up rows
 * are read (counted as activations above). */
double op_weight_reads(const struct op *o)
{
	return o->kind == OP_EMBEDDING ? 0 : o->params + o->shared_weights;
}

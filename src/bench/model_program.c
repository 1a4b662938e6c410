/*
 * model_program.c - a built model graph as a program of kernels; see
 * model_program.h for what each op becomes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/model_program.h"
#include "core/xalloc.h"

/* Largest buffer a program may ask for, in elements: far past any device,
 * and small enough that element counts times 8 bytes stay exact doubles. */
#define MAX_BUFFER_ELEMENTS (1ULL << 50)

struct lowering {
	struct model_program *p;
	long batch;
	/* activation buffers in the order written: the candidates an op's
	 * input is looked up among */
	int32_t *acts;
	size_t n_acts, cap_acts;
	int32_t embedding;	/* the last embedding table; -1: none yet */
	char *why;
	size_t len;
	int failed;
};

static void fail(struct lowering *l, const struct op *o, const char *what)
{
	if (!l->failed)
		snprintf(l->why, l->len, "%s: %s", o->label, what);
	l->failed = 1;
}

/* A new buffer of `elements`; -1 (and a failure) when too large. */
static int32_t new_buffer(struct lowering *l, const struct op *o,
			  double elements)
{
	if (!(elements >= 1) || elements > (double)MAX_BUFFER_ELEMENTS ||
	    l->p->n_buffers >= INT32_MAX) {
		fail(l, o, "a buffer would exceed 2^50 elements");
		return -1;
	}
	struct model_program *p = l->p;
	xgrow((void **)&p->buffers, &p->cap_buffers, p->n_buffers + 1,
	      sizeof(*p->buffers));
	p->buffers[p->n_buffers] = (uint64_t)elements;
	return (int32_t)p->n_buffers++;
}

static int32_t new_activation(struct lowering *l, const struct op *o,
			      double elements)
{
	int32_t b = new_buffer(l, o, elements);
	if (b >= 0) {
		xgrow((void **)&l->acts, &l->cap_acts, l->n_acts + 1,
		      sizeof(*l->acts));
		l->acts[l->n_acts++] = b;
	}
	return b;
}

/* The most recent activation of exactly `elements`, else the most recent
 * one at least that large (a reshape kept its producer's buffer). */
static int32_t input_of(struct lowering *l, const struct op *o,
			double elements)
{
	for (size_t i = l->n_acts; i-- > 0;)
		if ((double)l->p->buffers[l->acts[i]] == elements)
			return l->acts[i];
	for (size_t i = l->n_acts; i-- > 0;)
		if ((double)l->p->buffers[l->acts[i]] >= elements)
			return l->acts[i];
	fail(l, o, "no earlier tensor is large enough to be its input");
	return -1;
}

/* A second input of an add, mul or concat: the latest activation of the
 * same size other than the first input, else the first input again. */
static int32_t second_input(struct lowering *l, int32_t first)
{
	uint64_t want = l->p->buffers[first];
	for (size_t i = l->n_acts; i-- > 0;)
		if (l->acts[i] != first && l->p->buffers[l->acts[i]] == want)
			return l->acts[i];
	return first;
}

static struct bench_kernel *emit(struct lowering *l, const struct op *o,
				 enum bench_kernel_kind kind, const char *part)
{
	struct model_program *p = l->p;
	xgrow((void **)&p->kernels, &p->cap_kernels, p->n_kernels + 1,
	      sizeof(*p->kernels));
	struct bench_kernel *k = &p->kernels[p->n_kernels++];
	memset(k, 0, sizeof(*k));
	k->kind = kind;
	k->b = -1;
	snprintf(k->label, sizeof(k->label), "%.*s%s%s",
		 (int)(sizeof(k->label) - 16), o->label, *part ? " " : "",
		 part);
	return k;
}

static void emit_gemm(struct lowering *l, const struct op *o, const char *part,
		      int32_t a, int32_t b, int32_t c, double m, double n,
		      double k, double count)
{
	struct bench_kernel *g = emit(l, o, BENCH_KERNEL_GEMM, part);
	g->a = a;
	g->b = b;
	g->c = c;
	g->m = (int64_t)m;
	g->n = (int64_t)n;
	g->k = (int64_t)k;
	g->count = (int64_t)count;
}

static void emit_stream(struct lowering *l, const struct op *o,
			const char *part, int32_t a, int32_t b, int32_t c,
			double elements, double flops)
{
	struct bench_kernel *s = emit(l, o, BENCH_KERNEL_STREAM, part);
	s->a = a;
	s->b = b;
	s->c = c;
	s->elements = (int64_t)elements;
	s->flops = flops;
}

static void emit_rownorm(struct lowering *l, const struct op *o,
			 int32_t a, int32_t c, double rows, double cols,
			 double flops)
{
	struct bench_kernel *r = emit(l, o, BENCH_KERNEL_ROWNORM, "");
	r->a = a;
	r->c = c;
	r->rows = (int64_t)rows;
	r->cols = (int64_t)cols;
	r->flops = flops;
}

static double last_dim(const struct shape *s)
{
	return s->kind == SHAPE_SEQ ? (double)s->d[1] : (double)s->d[0];
}

static double rows_per_sample(const struct shape *s)
{
	switch (s->kind) {
	case SHAPE_SEQ: return (double)s->d[0];
	case SHAPE_IMAGE: return (double)s->d[0] * s->d[1];
	default: return 1;
	}
}

/* Weights of an op, in a buffer of their own (every op's weights are
 * distinct tensors, so they are distinct buffers). */
static int32_t weights(struct lowering *l, const struct op *o, double elements)
{
	return new_buffer(l, o, elements);
}

static void lower_linear(struct lowering *l, const struct op *o, int32_t x)
{
	double rows = l->batch * (o->in.kind == SHAPE_SEQ ? (double)o->in.d[0] : 1);
	double in = last_dim(&o->in), out = last_dim(&o->out);
	/* a tied output head multiplies by the embedding table itself */
	int32_t w = o->shared_weights > 0 && l->embedding >= 0 &&
			    (double)l->p->buffers[l->embedding] >= in * out
		    ? l->embedding : weights(l, o, in * out);
	int32_t y = new_activation(l, o, rows * out);
	if (w >= 0 && y >= 0)
		emit_gemm(l, o, "", x, w, y, rows, out, in, 1);
}

static void lower_conv(struct lowering *l, const struct op *o, int32_t x)
{
	double groups = (double)o->p.groups;
	double pixels = l->batch * (double)o->out.d[1] * o->out.d[2];
	double k = (double)o->in.d[0] / groups * o->p.kernel * o->p.kernel;
	double n = (double)o->out.d[0] / groups;
	int32_t w = weights(l, o, k * n * groups);
	int32_t a = x;
	if (o->p.kernel != 1 || o->p.stride != 1 || o->p.padding != 0) {
		/* im2col: each output pixel's window unfolded into a row */
		a = new_buffer(l, o, pixels * k * groups);
		if (a >= 0)
			emit_stream(l, o, "im2col", x, -1, a, pixels * k * groups, 0);
	}
	int32_t y = new_activation(l, o, pixels * n * groups);
	if (w < 0 || a < 0 || y < 0)
		return;
	emit_gemm(l, o, "", a, w, y, pixels, n, k, groups);
	struct bench_kernel *g = &l->p->kernels[l->p->n_kernels - 1];
	if (groups > 1) {
		g->a_stride = (int64_t)(pixels * k);
		g->b_stride = (int64_t)(k * n);
		g->c_stride = (int64_t)(pixels * n);
	}
}

/* Q K^T per sample and head, softmax, times V.  Q, K and V are read from
 * the projection's output (heads' slices laid end to end: the extents fit
 * inside it whatever the number of KV heads). */
static void lower_attention(struct lowering *l, const struct op *o, int32_t qkv)
{
	double s = (double)o->out.d[0], d = (double)o->out.d[1];
	double heads = (double)o->p.heads, hd = d / heads;
	double count = l->batch * heads;
	int32_t scores = new_buffer(l, o, count * s * s);
	int32_t probs = new_buffer(l, o, count * s * s);
	int32_t y = new_activation(l, o, l->batch * s * d);
	if (scores < 0 || probs < 0 || y < 0)
		return;
	emit_gemm(l, o, "scores", qkv, qkv, scores, s, s, hd, count);
	struct bench_kernel *g = &l->p->kernels[l->p->n_kernels - 1];
	g->a_stride = g->b_stride = (int64_t)(s * hd);
	g->c_stride = (int64_t)(s * s);
	g->trans_b = 1;
	emit_rownorm(l, o, scores, probs, count * s, s, 5);
	emit_gemm(l, o, "values", probs, qkv, y, s, hd, s, count);
	g = &l->p->kernels[l->p->n_kernels - 1];
	g->a_stride = (int64_t)(s * s);
	g->b_stride = g->c_stride = (int64_t)(s * hd);
}

/* FLOPs per element written, as op_cost.c counted them. */
static double flops_per_output(const struct op *o)
{
	return o->act_written > 0 ? o->flops / o->act_written : 0;
}

static void lower_elementwise(struct lowering *l, const struct op *o,
			      int32_t x, int32_t second)
{
	double out = l->batch * shape_elements(&o->out);
	int32_t y = new_activation(l, o, out);
	if (y >= 0)
		emit_stream(l, o, "", x, second, y, out, flops_per_output(o));
}

static void lower_op(struct lowering *l, const struct op *o)
{
	double in = l->batch * shape_elements(&o->in);
	int32_t x = input_of(l, o, in);
	if (x < 0)
		return;
	switch (o->kind) {
	case OP_LINEAR: lower_linear(l, o, x); break;
	case OP_CONV: lower_conv(l, o, x); break;
	case OP_ATTENTION: lower_attention(l, o, x); break;
	case OP_LAYERNORM:
	case OP_RMSNORM:
	case OP_SOFTMAX: {
		int32_t y = new_activation(l, o, in);
		if (y >= 0)
			emit_rownorm(l, o, x, y, l->batch * rows_per_sample(&o->in),
				     last_dim(&o->in), flops_per_output(o));
		break;
	}
	case OP_BATCHNORM:
	case OP_POSITION_EMBEDDING: {
		/* scale and shift, or a learned table; rotary ones have none */
		int32_t w = o->params >= 1 ? weights(l, o, o->params) : -1;
		if (w >= 0 || o->params < 1)
			lower_elementwise(l, o, x, w);
		break;
	}
	case OP_EMBEDDING:
		l->embedding = weights(l, o, o->params);
		if (l->embedding >= 0)
			lower_elementwise(l, o, l->embedding, x);
		break;
	case OP_ADD:
	case OP_MUL:
	case OP_CONCAT:
		lower_elementwise(l, o, x, second_input(l, x));
		break;
	case OP_FLATTEN:
	case OP_TO_TOKENS:
	case OP_SELECT_TOKEN:
		/* a reshape: the output lives in the input's buffer when it
		 * fits; input_of finds it there */
		if (shape_elements(&o->out) > shape_elements(&o->in))
			lower_elementwise(l, o, x, -1);
		break;
	default:
		lower_elementwise(l, o, x, -1);
		break;
	}
}

int model_program_build(const struct model_graph *g, long batch,
			enum bench_precision precision,
			struct model_program *out, char *why, size_t len)
{
	memset(out, 0, sizeof(*out));
	struct lowering l = {.p = out, .batch = batch, .embedding = -1,
			     .why = why, .len = len};
	struct op input_op = {.label = "input"};
	if (batch < 1 || new_activation(&l, &input_op,
					(double)batch * shape_elements(&g->input)) < 0) {
		snprintf(why, len, "batch %ld: the input does not fit a buffer", batch);
		free(l.acts);
		model_program_free(out);
		return -1;
	}
	for (size_t i = 0; i < g->n && !l.failed; i++)
		lower_op(&l, &g->ops[i]);
	free(l.acts);
	if (l.failed) {
		model_program_free(out);
		return -1;
	}
	out->prog = (struct bench_program){
		.precision = precision,
		.n_buffers = (uint32_t)out->n_buffers,
		.buffer_elements = out->buffers,
		.n_kernels = out->n_kernels,
		.kernels = out->kernels,
	};
	return 0;
}

void model_program_free(struct model_program *p)
{
	free(p->buffers);
	free(p->kernels);
	memset(p, 0, sizeof(*p));
}

double bench_program_flops(const struct bench_program *p)
{
	double f = 0;
	for (uint64_t i = 0; i < p->n_kernels; i++) {
		const struct bench_kernel *k = &p->kernels[i];
		switch (k->kind) {
		case BENCH_KERNEL_GEMM:
			f += 2.0 * k->m * k->n * k->k * k->count;
			break;
		case BENCH_KERNEL_STREAM:
			f += (double)k->elements * k->flops;
			break;
		case BENCH_KERNEL_ROWNORM:
			f += (double)k->rows * k->cols * k->flops;
			break;
		}
	}
	return f;
}

double bench_program_bytes(const struct bench_program *p)
{
	double elements = 0;
	for (uint32_t i = 0; i < p->n_buffers; i++)
		elements += (double)p->buffer_elements[i];
	return elements * precision_bytes(bench_precision_core(p->precision));
}

static const struct {
	enum bench_precision bench;
	enum precision core;
} precision_map[] = {
	{BENCH_FP64, PREC_FP64}, {BENCH_FP32, PREC_FP32},
	{BENCH_TF32, PREC_TF32}, {BENCH_FP16, PREC_FP16},
	{BENCH_BF16, PREC_BF16}, {BENCH_INT8, PREC_INT8},
	{BENCH_FP8_E4M3, PREC_FP8},
};

enum precision bench_precision_core(enum bench_precision p)
{
	for (size_t i = 0; i < sizeof(precision_map) / sizeof(precision_map[0]); i++)
		if (precision_map[i].bench == p)
			return precision_map[i].core;
	return PREC_FP32;
}

enum bench_precision bench_precision_of(enum precision p)
{
	for (size_t i = 0; i < sizeof(precision_map) / sizeof(precision_map[0]); i++)
		if (precision_map[i].core == p)
			return precision_map[i].bench;
	return 0;
}

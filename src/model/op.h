/*
 * op.h - the operations a model is built from, and what each one costs.
 *
 * A built op knows its input and output shapes and, per sample, its
 * parameters, multiply-adds, FLOPs and the activation elements it reads and
 * writes.  Bytes follow from element counts and the precision, so one built
 * graph serves every precision and batch size.  The per-kind arithmetic
 * lives in op_cost.c, each formula with a comment.
 */
#ifndef GPUPLAN_MODEL_OP_H
#define GPUPLAN_MODEL_OP_H

#include <stdbool.h>

#include "core/provenance.h"

enum op_kind {
	OP_CONV,
	OP_LINEAR,
	OP_ATTENTION,
	OP_EMBEDDING,
	OP_BATCHNORM,
	OP_LAYERNORM,
	OP_RMSNORM,
	OP_RELU,
	OP_SILU,
	OP_GELU,
	OP_SIGMOID,
	OP_SOFTMAX,
	OP_MAXPOOL,
	OP_AVGPOOL,
	OP_GLOBAL_AVGPOOL,
	OP_FLATTEN,
	OP_TO_TOKENS,
	OP_POSITION_EMBEDDING,
	OP_SELECT_TOKEN,
	OP_UPSAMPLE,
	OP_ADD,
	OP_MUL,
	OP_CONCAT,
	OP_KIND_COUNT
};

/* What limits an op on a GPU: dense matrix work is compute-bound, the rest
 * mostly moves memory.  Reports and the planner's roofline group by this. */
enum op_class {
	OPC_GEMM,		/* conv, linear: tensor-core matrix work */
	OPC_ATTENTION,		/* the S x S score and value products */
	OPC_NORM,		/* batch, layer and RMS norm */
	OPC_ELEMENTWISE,	/* activations, add, mul, softmax */
	OPC_POOL,		/* pooling */
	OPC_DATA,		/* embedding lookups, concat, upsample, reshapes */
	OPC_COUNT
};

const char *op_kind_name(enum op_kind k);	/* "conv", "linear", ... */
int op_kind_from_name(const char *name);	/* -1 when unknown */
const char *op_class_name(enum op_class c);	/* "gemm", "attention", ... */
enum op_class op_kind_class(enum op_kind k);

/*
 * Shapes, per sample (the batch dimension is kept apart):
 *   SHAPE_IMAGE (channels, height, width)
 *   SHAPE_SEQ   (tokens, features)
 *   SHAPE_VEC   (features)
 *   SHAPE_IDS   (tokens) of integer token ids, before an embedding
 */
enum shape_kind { SHAPE_IMAGE, SHAPE_SEQ, SHAPE_VEC, SHAPE_IDS };

struct shape {
	enum shape_kind kind;
	long d[3];
};

double shape_elements(const struct shape *s);
/* "(64, 56, 56)", "(197, 768)", "(1000)" */
char *shape_format(const struct shape *s, char *buf, size_t len);
bool shape_equal(const struct shape *a, const struct shape *b);

/* The parameters an op was written with; unset ones hold their defaults. */
struct op_params {
	long out, in;		/* linear/conv output; linear `in` check (0: none) */
	long kernel, stride, padding, groups;
	bool bias;
	long heads;
	bool causal;
	long scale;		/* upsample */
	long index;		/* select_token */
	bool cls_token;		/* to_tokens */
	long vocab, dim;	/* embedding */
	long kv_heads;		/* attention: grouped-query (0: = heads) */
	bool dropout;		/* attention: dropout on the probabilities */
};

/*
 * A matrix product of an op as a GPU library runs it: `count` independent
 * GEMMs, each of m x n outputs reduced over k (m x n x k multiply-adds),
 * per sample.  A batch of b samples either stacks its rows into the same
 * GEMMs (m x b: a linear layer's tokens, a convolution's output pixels)
 * or adds GEMMs (count x b: attention's per-head products).  Tensor
 * parallelism divides one of n (column-parallel layers), k (row-parallel
 * layers: attention out, FFN down) or count (attention heads).  Planners
 * turn these dimensions into an efficiency (src/hwmodel/matrix_eff.h).
 */
enum gemm_split { GEMM_SPLIT_N, GEMM_SPLIT_K, GEMM_SPLIT_COUNT };

struct gemm_dims {
	double m, n, k;		/* per sample: rows, columns, reduction */
	double count;		/* independent products per sample */
	bool batch_in_count;	/* the batch adds products, not rows */
	enum gemm_split split;	/* what tensor parallelism divides */
};

#define OP_MAX_GEMMS 2

/* One op of a built model. */
struct op {
	enum op_kind kind;
	char label[96];		/* "layer 3 attention", "4.residual.2 conv" */
	struct origin at;	/* where it was written (or generated from) */
	struct op_params p;
	struct shape in, out;
	long block;		/* index of the top-level item it belongs to */
	/* per sample: */
	double params;		/* weights and biases it owns */
	double macs;		/* multiply-adds of matrix products */
	double flops;		/* all floating-point work, 2 per multiply-add */
	double act_read;	/* activation elements read (all inputs) */
	double act_written;	/* activation elements written */
	double scratch;		/* attention scores written and read again */
	double shared_weights;	/* weights read but owned by another op (a
				 * tied output head reads the embedding) */
	/* the matrix products of conv, linear and attention (0 for others) */
	struct gemm_dims gemm[OP_MAX_GEMMS];
	int n_gemm;
};

/* Fills params/macs/flops/act_read/act_written/scratch and the GEMM
 * dimensions of o from its kind, parameters and shapes.  extra_elems: the elements of inputs beyond the
 * first (add, mul, concat). */
void op_cost(struct op *o, double extra_elems);

/* Weight elements one forward pass reads, independent of the batch. */
double op_weight_reads(const struct op *o);

#endif

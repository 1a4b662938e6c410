/*
 * transformer_build.c - a transformer configuration as a list of ops.
 *
 * Layer by layer, the ops a standard implementation runs (Hugging Face's
 * LlamaModel and BertModel are the references for the two families):
 *   embedding [+ learned positions] [+ token types] [embedding norm]
 *   per layer: norm, Q/K/V projection, attention, output projection,
 *              residual add, norm, FFN (GELU: up, gelu, down; SwiGLU:
 *              gate, silu, up, mul, down), residual add
 *   decoder: final norm, output head (tied to the embedding or not)
 *   encoder: [pooler: first token, dense, tanh-like activation]
 * Pre- or post-norm placement changes no count, so one order serves both.
 */
#include <stdio.h>

#include "transformer_build.h"

struct tb {
	const struct model *m;
	struct model_graph *g;
	struct origin at;
	long s, d;		/* tokens, hidden */
};

static struct op *add(struct tb *t, enum op_kind kind, long in_features,
		       long out_features, double extra,
		       const struct op_params *p, const char *label)
{
	struct shape in = {SHAPE_SEQ, {t->s, in_features, 0}};
	struct shape out = {SHAPE_SEQ, {t->s, out_features, 0}};
	return model_graph_append(t->g, kind, &in, &out, p, extra, &t->at,
				  label);
}

static void linear(struct tb *t, long in, long out, const char *label)
{
	struct op_params p = {.out = out, .bias = t->m->tf.bias};
	add(t, OP_LINEAR, in, out, 0, &p, label);
}

/* A row-parallel layer (Megatron-LM, Shoeybi et al. 2019: attention out
 * and FFN down take the split activations of the layer before): tensor
 * parallelism divides its reduction, not its outputs. */
static void row_parallel(struct tb *t, long in, long out, const char *label)
{
	struct op_params p = {.out = out, .bias = t->m->tf.bias};
	struct op *o = add(t, OP_LINEAR, in, out, 0, &p, label);
	o->gemm[0].split = GEMM_SPLIT_K;
}

static enum op_kind norm_kind(const struct transformer_config *tf)
{
	return tf->norm == NORM_RMSNORM ? OP_RMSNORM : OP_LAYERNORM;
}

static void embeddings(struct tb *t)
{
	const struct transformer_config *tf = &t->m->tf;
	struct shape ids = {SHAPE_IDS, {t->s, 0, 0}};
	struct shape out = {SHAPE_SEQ, {t->s, t->d, 0}};
	struct op_params p = {.vocab = tf->vocab, .dim = t->d};
	t->g->input = ids;
	model_graph_append(t->g, OP_EMBEDDING, &ids, &out, &p, 0, &t->at,
			   "embedding");
	if (tf->positions == POS_LEARNED) {
		/* max_seq x hidden parameters, of which s rows are used */
		struct op *o = model_graph_append(t->g, OP_POSITION_EMBEDDING,
						  &out, &out, NULL, 0, &t->at,
						  "position embedding");
		o->params = (double)tf->max_seq * t->d;
	}
	if (tf->type_vocab) {
		struct op *o = model_graph_append(t->g, OP_POSITION_EMBEDDING,
						  &out, &out, NULL, 0, &t->at,
						  "token-type embedding");
		o->params = (double)tf->type_vocab * t->d;
	}
	if (tf->arch == TF_ENCODER)
		add(t, norm_kind(tf), t->d, t->d, 0, NULL, "embedding norm");
}

/*
 * The residual add reads the branch and the residual.  With hidden
 * dropout it is Megatron-LM's fused bias-dropout-add, which also writes a
 * one-byte keep mask per element: counted as half an element of a 16-bit
 * tensor.
 */
static double residual_reads(const struct tb *t)
{
	double extra = t->m->tf.hidden_dropout > 0 ? 0.5 : 0;
	return (1 + extra) * (double)t->s * t->d;
}

static void attention_block(struct tb *t, long layer)
{
	const struct transformer_config *tf = &t->m->tf;
	long head_dim = t->d / tf->heads, kv_dim = tf->kv_heads * head_dim;
	char label[96];
	snprintf(label, sizeof(label), "layer %ld attention norm", layer);
	add(t, norm_kind(tf), t->d, t->d, 0, NULL, label);
	snprintf(label, sizeof(label), "layer %ld q/k/v", layer);
	linear(t, t->d, t->d + 2 * kv_dim, label);
	struct op_params ap = {.heads = tf->heads, .kv_heads = tf->kv_heads,
			       .causal = tf->arch == TF_DECODER,
			       .dropout = tf->attention_dropout > 0};
	snprintf(label, sizeof(label), "layer %ld attention", layer);
	add(t, OP_ATTENTION, t->d + 2 * kv_dim, t->d, 0, &ap, label);
	snprintf(label, sizeof(label), "layer %ld attention out", layer);
	row_parallel(t, t->d, t->d, label);
	snprintf(label, sizeof(label), "layer %ld residual", layer);
	add(t, OP_ADD, t->d, t->d, residual_reads(t), NULL, label);
}

static void ffn_block(struct tb *t, long layer)
{
	const struct transformer_config *tf = &t->m->tf;
	long f = tf->ffn;
	char label[96];
	snprintf(label, sizeof(label), "layer %ld ffn norm", layer);
	add(t, norm_kind(tf), t->d, t->d, 0, NULL, label);
	if (tf->ffn_kind == FFN_SWIGLU) {
		snprintf(label, sizeof(label), "layer %ld ffn gate", layer);
		linear(t, t->d, f, label);
		snprintf(label, sizeof(label), "layer %ld ffn silu", layer);
		add(t, OP_SILU, f, f, 0, NULL, label);
		snprintf(label, sizeof(label), "layer %ld ffn up", layer);
		linear(t, t->d, f, label);
		snprintf(label, sizeof(label), "layer %ld ffn gate x up", layer);
		add(t, OP_MUL, f, f, (double)t->s * f, NULL, label);
	} else {
		snprintf(label, sizeof(label), "layer %ld ffn up", layer);
		linear(t, t->d, f, label);
		snprintf(label, sizeof(label), "layer %ld ffn gelu", layer);
		add(t, OP_GELU, f, f, 0, NULL, label);
	}
	snprintf(label, sizeof(label), "layer %ld ffn down", layer);
	row_parallel(t, f, t->d, label);
	snprintf(label, sizeof(label), "layer %ld residual", layer);
	add(t, OP_ADD, t->d, t->d, residual_reads(t), NULL, label);
}

static void head(struct tb *t)
{
	const struct transformer_config *tf = &t->m->tf;
	if (tf->arch == TF_DECODER) {
		add(t, norm_kind(tf), t->d, t->d, 0, NULL, "final norm");
		linear(t, t->d, tf->vocab, "output head");
		t->g->output = t->g->ops[t->g->n - 1].out;
		if (tf->tied_embeddings) {
			/* the head reads the embedding's weights, owns none */
			struct op *o = &t->g->ops[t->g->n - 1];
			o->shared_weights = o->params;
			o->params = 0;
		}
		return;
	}
	t->g->output = (struct shape){SHAPE_SEQ, {t->s, t->d, 0}};
	if (!tf->pooler)
		return;
	/* BERT's pooler: the first token through a dense layer and tanh
	 * (counted like a sigmoid: a few operations per element). */
	struct shape seq = {SHAPE_SEQ, {t->s, t->d, 0}};
	struct shape vec = {SHAPE_VEC, {t->d, 0, 0}};
	struct op_params p = {.out = t->d, .bias = true};
	model_graph_append(t->g, OP_SELECT_TOKEN, &seq, &vec, NULL, 0, &t->at,
			   "pooler first token");
	model_graph_append(t->g, OP_LINEAR, &vec, &vec, &p, 0, &t->at,
			   "pooler dense");
	model_graph_append(t->g, OP_SIGMOID, &vec, &vec, NULL, 0, &t->at,
			   "pooler tanh");
	t->g->output = vec;
}

double transformer_widest(const struct transformer_config *tf,
			  const char **what)
{
	double kv_dim = (double)tf->kv_heads * (double)(tf->hidden / tf->heads);
	double w = (double)tf->hidden + 2 * kv_dim;
	*what = "the Q/K/V projection";
	if ((double)tf->ffn > w) {
		w = (double)tf->ffn;
		*what = "the FFN";
	}
	if (tf->arch == TF_DECODER && (double)tf->vocab > w) {
		w = (double)tf->vocab;
		*what = "the output head";
	}
	return w;
}

/* Counted as the functions above append: embedding [positions] [token
 * types] [norm]; per layer 5 for attention and 7 (SwiGLU) or 5 (GELU) for
 * the FFN; final norm and head, or the pooler's 3. */
uint64_t transformer_op_count(const struct transformer_config *tf)
{
	uint64_t fixed = 1 + (tf->positions == POS_LEARNED) +
			 (tf->type_vocab != 0) + (tf->arch == TF_ENCODER);
	uint64_t per_layer = 5 + (tf->ffn_kind == FFN_SWIGLU ? 7 : 5);
	if (tf->arch == TF_DECODER)
		fixed += 2;
	else if (tf->pooler)
		fixed += 3;
	return fixed + per_layer * (uint64_t)tf->layers;
}

int build_transformer_ops(const struct model *m, long seq,
			  struct model_graph *g)
{
	struct tb t = {.m = m, .g = g, .s = seq, .d = m->tf.hidden,
		       .at = {m->file, 1, 1}};
	g->blocks = 0;
	embeddings(&t);
	for (long l = 0; l < m->tf.layers; l++) {
		g->blocks = l + 1;
		attention_block(&t, l);
		ffn_block(&t, l);
	}
	g->blocks = m->tf.layers + 1;
	head(&t);
	g->blocks = m->tf.layers + 2;
	return 0;
}

/*
 * graph.c - building a model for one sequence length, and its totals.
 */
#include <string.h>

#include "graph.h"
#include "graph_build.h"
#include "transformer_build.h"

/* A sequence length asked for (--seq) beyond max_seq: the loader held
 * max_seq x the widest tensor within bounds, this holds seq. */
static int check_transformer_seq(const struct model *m, long seq,
				 struct gp_errors *errs)
{
	if (seq > m->tf.max_seq && m->tf.positions == POS_LEARNED) {
		gp_errors_add(errs, m->file, 0, 0, NULL,
			      "sequence length %ld is beyond the %ld learned positions of %s",
			      seq, m->tf.max_seq, m->name);
		return -1;
	}
	const char *what;
	double w = transformer_widest(&m->tf, &what);
	double scores = (double)m->tf.heads * (double)seq * (double)seq;
	if ((double)seq * w <= MODEL_MAX_TENSOR_ELEMENTS) {
		if (scores <= MODEL_MAX_SCORE_ELEMENTS)
			return 0;
		gp_errors_add(errs, m->file, 0, 0, NULL,
			      "sequence length %ld makes the attention score matrix of %s %.3g elements per sample (%ld heads x %ld x %ld), beyond the %.3g gpuplan handles",
			      seq, m->name, scores, m->tf.heads, seq, seq,
			      MODEL_MAX_SCORE_ELEMENTS);
		return -1;
	}
	gp_errors_add(errs, m->file, 0, 0, NULL,
		      "sequence length %ld makes %s of %s %.3g elements per sample (%ld x %.0f), beyond the %.3g gpuplan handles",
		      seq, what, m->name, (double)seq * w, seq, w,
		      MODEL_MAX_TENSOR_ELEMENTS);
	return -1;
}

int model_build(const struct model *m, long seq, struct model_graph *g,
		struct gp_errors *errs)
{
	memset(g, 0, sizeof(*g));
	if (m->kind == MODEL_TRANSFORMER) {
		g->seq = seq ? seq : m->tf.max_seq;
		if (check_transformer_seq(m, g->seq, errs) < 0)
			return -1;
		return build_transformer_ops(m, g->seq, g);
	}
	if (m->kind != MODEL_GRAPH) {
		gp_errors_add(errs, m->file, 0, 0, NULL,
			      "a block file is not a model by itself");
		return -1;
	}
	if (seq && m->input.kind == SHAPE_IMAGE) {
		gp_errors_add(errs, m->file, 0, 0, NULL,
			      "%s takes images, not token sequences: --seq does not apply",
			      m->name);
		return -1;
	}
	if (seq && seq != m->input.d[0]) {
		gp_errors_add(errs, m->file, 0, 0, NULL,
			      "%s fixes its input at %ld tokens: a sequence length of %ld does not apply",
			      m->name, m->input.d[0], seq);
		return -1;
	}
	return build_graph_ops(m, g, errs);
}

void model_cost(const struct model_graph *g, long batch, int elem_bytes,
		struct model_cost *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < g->n; i++) {
		const struct op *o = &g->ops[i];
		double weights = op_weight_reads(o) * elem_bytes;
		double acts = (o->act_read + o->act_written + o->scratch) *
			      elem_bytes * batch;
		struct class_total *t = &c->cls[op_kind_class(o->kind)];
		c->params += o->params;
		c->macs_per_sample += o->macs;
		c->flops_per_sample += o->flops;
		c->weight_bytes += o->params * elem_bytes;
		t->flops += o->flops * batch;
		t->bytes += weights + acts;
		c->bytes_per_step += weights + acts;
	}
	c->flops_per_step = c->flops_per_sample * batch;
}

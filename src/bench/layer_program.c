/*
 * layer_program.c - a transformer layer's forward and backward pass as one
 * program; see layer_program.h.
 */
#include "bench/layer_program.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

#define LAYER_PREFIX "layer 0 "

/* The backward pass being appended: each buffer's gradient so far. */
struct backward {
	struct model_program *p;
	int32_t *grad;		/* per forward buffer: its gradient, or -1 */
	bool *activation;	/* per forward buffer: the input or written */
	size_t n_forward_buffers;
	char *why;
	size_t len;
};

/* ---- appending to the program ---- */

static int32_t new_buffer(struct model_program *p, uint64_t elements)
{
	xgrow((void **)&p->buffers, &p->cap_buffers, p->n_buffers + 1,
	      sizeof(*p->buffers));
	p->buffers[p->n_buffers] = elements;
	return (int32_t)p->n_buffers++;
}

static struct bench_kernel *new_kernel(struct model_program *p,
				       const struct bench_kernel *like,
				       enum bench_kernel_kind kind,
				       const char *part)
{
	xgrow((void **)&p->kernels, &p->cap_kernels, p->n_kernels + 1,
	      sizeof(*p->kernels));
	struct bench_kernel *k = &p->kernels[p->n_kernels++];
	memset(k, 0, sizeof(*k));
	k->kind = kind;
	k->b = -1;
	snprintf(k->label, sizeof(k->label), "%.*s %s",
		 (int)(sizeof(k->label) - 16), like->label, part);
	return k;
}

/* c = a and b summed elementwise (the gradient of a tensor used twice). */
static int32_t sum(struct backward *w, const struct bench_kernel *like,
		   int32_t a, int32_t b)
{
	int32_t c = new_buffer(w->p, w->p->buffers[a]);
	struct bench_kernel *k = new_kernel(w->p, like, BENCH_KERNEL_STREAM,
					    "grad sum");
	k->a = a;
	k->b = b;
	k->c = c;
	k->elements = (int64_t)w->p->buffers[c];
	k->flops = 1;
	return c;
}

/* g joins buffer x's gradient. */
static void accumulate(struct backward *w, const struct bench_kernel *like,
		       int32_t x, int32_t g)
{
	w->grad[x] = w->grad[x] < 0 ? g : sum(w, like, w->grad[x], g);
}

/* ---- each forward kernel's gradients ---- */

/* k, labelled after its forward kernel f, at the end of the program. */
static void push(struct model_program *p, const struct bench_kernel *k,
		 const struct bench_kernel *f, const char *part)
{
	xgrow((void **)&p->kernels, &p->cap_kernels, p->n_kernels + 1,
	      sizeof(*p->kernels));
	p->kernels[p->n_kernels] = *k;
	snprintf(p->kernels[p->n_kernels].label, sizeof(k->label), "%.*s %s",
		 (int)(sizeof(k->label) - 16), f->label, part);
	p->n_kernels++;
}

/* dA = dC op(B)^T, stored as A is (trans_a: as A^T). */
static void gemm_data_grad(struct backward *w, const struct bench_kernel *f,
			   int32_t dc)
{
	int32_t da = new_buffer(w->p, w->p->buffers[f->a]);
	struct bench_kernel k;
	if (!f->trans_a)	/* dA (m x k) = dC (m x n) op(B)^T (n x k) */
		k = (struct bench_kernel){.kind = BENCH_KERNEL_GEMM, .a = dc,
			.b = f->b, .c = da, .m = f->m, .n = f->k, .k = f->n,
			.count = f->count, .a_stride = f->c_stride,
			.b_stride = f->b_stride, .c_stride = f->a_stride,
			.trans_a = 0, .trans_b = !f->trans_b};
	else			/* dA^T (k x m) = op(B) (k x n) dC^T (n x m) */
		k = (struct bench_kernel){.kind = BENCH_KERNEL_GEMM, .a = f->b,
			.b = dc, .c = da, .m = f->k, .n = f->m, .k = f->n,
			.count = f->count, .a_stride = f->b_stride,
			.b_stride = f->c_stride, .c_stride = f->a_stride,
			.trans_a = f->trans_b, .trans_b = 1};
	push(w->p, &k, f, "dgrad");
	accumulate(w, f, f->a, da);
}

/* dB = op(A)^T dC, stored as B is (trans_b: as B^T): a weight's gradient,
 * or an activation's when B is one (attention's K and V). */
static void gemm_weight_grad(struct backward *w, const struct bench_kernel *f,
			     int32_t dc)
{
	int32_t db = new_buffer(w->p, w->p->buffers[f->b]);
	struct bench_kernel k;
	if (!f->trans_b)	/* dB (k x n) = op(A)^T (k x m) dC (m x n) */
		k = (struct bench_kernel){.kind = BENCH_KERNEL_GEMM, .a = f->a,
			.b = dc, .c = db, .m = f->k, .n = f->n, .k = f->m,
			.count = f->count, .a_stride = f->a_stride,
			.b_stride = f->c_stride, .c_stride = f->b_stride,
			.trans_a = !f->trans_a, .trans_b = 0};
	else			/* dB^T (n x k) = dC^T (n x m) op(A) (m x k) */
		k = (struct bench_kernel){.kind = BENCH_KERNEL_GEMM, .a = dc,
			.b = f->a, .c = db, .m = f->n, .n = f->k, .k = f->m,
			.count = f->count, .a_stride = f->c_stride,
			.b_stride = f->a_stride, .c_stride = f->b_stride,
			.trans_a = 1, .trans_b = f->trans_a};
	push(w->p, &k, f, w->activation[f->b] ? "dgrad" : "wgrad");
	if (w->activation[f->b])
		accumulate(w, f, f->b, db);
}

static int gemm_grads(struct backward *w, const struct bench_kernel *f,
		      int32_t dc)
{
	/* a weight shared by several products sums their gradients, which
	 * no single strided GEMM of the program can write */
	if (f->count > 1 && ((!w->activation[f->b] && f->b_stride == 0) ||
			     (!w->activation[f->a] && f->a_stride == 0))) {
		snprintf(w->why, w->len, "%s: a weight shared by %lld products has no single weight-gradient GEMM",
			 f->label, (long long)f->count);
		return -1;
	}
	if (w->activation[f->a])
		gemm_data_grad(w, f, dc);
	gemm_weight_grad(w, f, dc);
	return 0;
}

/* One pass writing x's gradient from the output's and the saved `other`. */
static void stream_grad(struct backward *w, const struct bench_kernel *f,
			int32_t dc, int32_t x, int32_t other)
{
	int32_t dx = new_buffer(w->p, w->p->buffers[x]);
	struct bench_kernel *k = new_kernel(w->p, f, BENCH_KERNEL_STREAM, "grad");
	k->a = dc;
	k->b = other;
	k->c = dx;
	k->elements = (int64_t)w->p->buffers[x];
	k->flops = f->flops;
	accumulate(w, f, x, dx);
}

static void elementwise_grads(struct backward *w, const struct bench_kernel *f,
			      int32_t dc, bool add)
{
	int32_t in[2] = {f->a, f->b};
	for (int i = 0; i < 2; i++) {
		int32_t x = in[i];
		if (x < 0 || !w->activation[x])
			continue;
		if (add)
			accumulate(w, f, x, dc);
		else
			stream_grad(w, f, dc, x, in[1 - i] >= 0 ? in[1 - i] : x);
	}
}

static void rownorm_grad(struct backward *w, const struct bench_kernel *f,
			 int32_t dc)
{
	int32_t dx = new_buffer(w->p, w->p->buffers[f->a]);
	struct bench_kernel *k = new_kernel(w->p, f, BENCH_KERNEL_ROWNORM, "grad");
	k->a = dc;
	k->c = dx;
	k->rows = f->rows;
	k->cols = f->cols;
	k->flops = f->flops;
	accumulate(w, f, f->a, dx);
}

/* ---- the layer ---- */

/* The forward kernels op j of the layer owns: [*from, *to), found by
 * lowering the layer's first j and j + 1 ops (the lowering emits op by
 * op, in order).  One layer is a dozen ops: cheap. */
static int op_kernels(const struct model_graph *layer, size_t j, long batch,
		      enum bench_precision precision, size_t *from, size_t *to,
		      char *why, size_t len)
{
	struct model_graph part = *layer;
	struct model_program p;
	size_t counts[2];
	for (int i = 0; i < 2; i++) {
		part.n = j + (size_t)i;
		if (part.n == 0) {
			counts[i] = 0;
			continue;
		}
		if (model_program_build(&part, batch, precision, &p, why, len) < 0)
			return -1;
		counts[i] = p.n_kernels;
		model_program_free(&p);
	}
	*from = counts[0];
	*to = counts[1];
	return 0;
}

/* The layer's ops, in g's array: [*first, *first + *n). */
static bool find_layer(const struct model_graph *g, size_t *first, size_t *n)
{
	size_t plen = strlen(LAYER_PREFIX);
	*n = 0;
	for (size_t i = 0; i < g->n; i++)
		if (!strncmp(g->ops[i].label, LAYER_PREFIX, plen)) {
			if (!*n)
				*first = i;
			*n = i + 1 - *first;
		}
	return *n > 0;
}

bool layer_program_has_layer(const struct model_graph *g)
{
	size_t first, n;
	return find_layer(g, &first, &n);
}

/* Which buffers are activations: the layer's input (buffer 0) and every
 * buffer a forward kernel writes; the rest are weights. */
static void mark_activations(struct backward *w)
{
	w->activation[0] = true;
	for (uint64_t i = 0; i < w->p->n_kernels; i++)
		w->activation[w->p->kernels[i].c] = true;
}

static int backward_of(struct backward *w, const struct model_graph *layer,
		       long batch, enum bench_precision precision)
{
	size_t forward = w->p->n_kernels;
	struct model_program *p = w->p;
	/* the gradient arriving from the layer above */
	int32_t out = p->kernels[forward - 1].c;
	w->grad[out] = new_buffer(p, p->buffers[out]);
	for (size_t j = layer->n; j-- > 0;) {
		size_t from, to;
		if (op_kernels(layer, j, batch, precision, &from, &to, w->why,
			       w->len) < 0)
			return -1;
		bool add = layer->ops[j].kind == OP_ADD;
		for (size_t i = to; i-- > from;) {
			struct bench_kernel f = p->kernels[i];	/* p may move */
			int32_t dc = w->grad[f.c];
			if (dc < 0)
				continue;	/* nothing downstream reads it */
			int rc = 0;
			if (f.kind == BENCH_KERNEL_GEMM)
				rc = gemm_grads(w, &f, dc);
			else if (f.kind == BENCH_KERNEL_STREAM)
				elementwise_grads(w, &f, dc, add);
			else
				rownorm_grad(w, &f, dc);
			if (rc < 0)
				return -1;
		}
	}
	return 0;
}

int layer_program_build(const struct model_graph *g, long micro_batch,
			enum bench_precision precision,
			struct model_program *out, size_t *forward_kernels,
			char *why, size_t len)
{
	size_t first = 0, n = 0;
	memset(out, 0, sizeof(*out));
	if (!find_layer(g, &first, &n)) {
		snprintf(why, len, "the layer suite times a transformer's layer (ops 'layer 0 ...'); this model has none");
		return -1;
	}
	struct model_graph layer = *g;
	layer.ops = &g->ops[first];
	layer.n = n;
	layer.input = g->ops[first].in;
	if (model_program_build(&layer, micro_batch, precision, out, why, len) < 0)
		return -1;
	*forward_kernels = out->n_kernels;
	struct backward w = {out, NULL, NULL, out->n_buffers, why, len};
	/* gradients are kept for the forward pass's buffers only: every
	 * kernel differentiated reads and writes those */
	w.grad = xmalloc(w.n_forward_buffers * sizeof(*w.grad));
	for (size_t i = 0; i < w.n_forward_buffers; i++)
		w.grad[i] = -1;
	w.activation = xcalloc(w.n_forward_buffers, sizeof(*w.activation));
	mark_activations(&w);
	int rc = backward_of(&w, &layer, micro_batch, precision);
	free(w.grad);
	free(w.activation);
	if (rc < 0) {
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

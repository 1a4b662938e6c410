/*
 * graph_build.c - expanding a graph description into a flat, shape-checked
 * list of ops.
 *
 * The builder walks the op specifications in order with "the current
 * tensor": each op consumes it (or the tensor named by `from:`) and
 * produces the next.  Named outputs are kept in a table so `from:`, `add`,
 * `mul` and `concat` can refer back (a later op of the same name replaces
 * an earlier one, as each repeat iteration does).  Every shape is checked
 * where it is consumed, and a problem is reported at the op that found it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "core/suggest.h"
#include "core/xalloc.h"
#include "graph_build.h"
#include "op_count.h"

/* A named tensor: the name is borrowed from the op spec that gave it,
 * which outlives the build. */
struct named {
	const char *name;
	struct shape shape;
};

struct builder {
	struct model_graph *g;
	struct gp_errors *errs;
	struct named *names;		/* each name once, latest shape */
	size_t n_names, cap_names;
	struct strmap index;		/* name -> index in names */
	struct shape cur;
	bool failed;		/* stop after the first shape error */
};

static void fail_at(struct builder *b, const struct op_spec *s,
		    const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void fail_at(struct builder *b, const struct op_spec *s,
		    const char *hint, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	gp_errors_add(b->errs, s->at.file, s->at.line, s->at.col, hint, "%s",
		      msg);
	free(msg);
	b->failed = true;
}

/* ---- named tensors ---- */

/* A hash lookup per name, so a graph of a million named ops builds in
 * linear time; a later op of the same name shadows the earlier one. */
static void bind(struct builder *b, const char *name, const struct shape *s)
{
	size_t i;
	if (strmap_get(&b->index, name, &i)) {
		b->names[i].shape = *s;
		return;
	}
	xgrow((void **)&b->names, &b->cap_names, b->n_names + 1,
	      sizeof(*b->names));
	b->names[b->n_names] = (struct named){name, *s};
	strmap_set(&b->index, name, b->n_names++);
}

static const struct shape *lookup(struct builder *b, const struct op_spec *s,
				  const char *name)
{
	size_t i;
	if (strcmp(name, "input") == 0)
		return &b->g->input;
	if (strmap_get(&b->index, name, &i))
		return &b->names[i].shape;
	char hint[96];
	const char *h = NULL;
	if (!gp_errors_full(b->errs)) {	/* a did-you-mean nobody would see */
		const char **all = xcalloc(b->n_names + 1, sizeof(char *));
		for (size_t k = 0; k < b->n_names; k++)
			all[k] = b->names[k].name;
		h = suggest_hint(name, all, b->n_names, hint, sizeof(hint));
		free(all);
	}
	fail_at(b, s, h, "no tensor named '%s' before this op", name);
	return NULL;
}

/* ---- size bounds ---- */

static bool within_bounds(struct builder *b, const struct op_spec *s,
			  const double dims[3], int rank)
{
	double elems = 1;
	for (int i = 0; i < rank; i++)
		elems *= dims[i];
	if (elems <= MODEL_MAX_TENSOR_ELEMENTS)
		return true;
	fail_at(b, s, NULL,
		"%s would make a tensor of %.3g elements per sample, beyond the %.3g gpuplan handles",
		op_kind_name(s->op), elems, MODEL_MAX_TENSOR_ELEMENTS);
	return false;
}

/* Every op built is held to the bound: its output per sample and its
 * weights.  Each dimension then stays below 2^40 and each op changes one
 * by a bounded step (a new width, padding, x64 at most), so no long
 * overflows and every count downstream (FLOPs x batch, bytes) is finite. */
static bool op_within_bounds(struct builder *b, const struct op_spec *s,
			     const struct op *o)
{
	double out = shape_elements(&o->out);
	if (out > MODEL_MAX_TENSOR_ELEMENTS) {
		char sh[64];
		fail_at(b, s, NULL,
			"%s would make a tensor %s of %.3g elements per sample, beyond the %.3g gpuplan handles",
			op_kind_name(o->kind), shape_format(&o->out, sh, sizeof(sh)),
			out, MODEL_MAX_TENSOR_ELEMENTS);
		return false;
	}
	if (o->params > MODEL_MAX_TENSOR_ELEMENTS) {
		fail_at(b, s, NULL,
			"%s would have %.3g weights, beyond the %.3g elements gpuplan handles in one tensor",
			op_kind_name(o->kind), o->params, MODEL_MAX_TENSOR_ELEMENTS);
		return false;
	}
	return true;
}

/* ---- shape rules ---- */

static const char *shape_kind_text(enum shape_kind k)
{
	switch (k) {
	case SHAPE_IMAGE: return "an image (channels, height, width)";
	case SHAPE_SEQ: return "a sequence (tokens, features)";
	case SHAPE_VEC: return "a vector (features)";
	case SHAPE_IDS: return "token ids";
	}
	return "?";
}

static const char *shape_kind_word(enum shape_kind k)
{
	switch (k) {
	case SHAPE_IMAGE: return "an image";
	case SHAPE_SEQ: return "a sequence";
	case SHAPE_VEC: return "a vector";
	case SHAPE_IDS: return "token ids";
	}
	return "?";
}

static bool expect_kind(struct builder *b, const struct op_spec *s,
			const struct shape *in, enum shape_kind want)
{
	if (in->kind == want)
		return true;
	char got[64];
	fail_at(b, s, NULL, "%s expects %s, found %s %s", op_kind_name(s->op),
		shape_kind_text(want), shape_kind_word(in->kind),
		shape_format(in, got, sizeof(got)));
	return false;
}

/* Output size of a sliding window: floor((n + 2p - k) / s) + 1. */
static long window_out(long n, long k, long s, long p)
{
	long span = n + 2 * p - k;
	return span < 0 ? 0 : span / s + 1;
}

static bool spatial(struct builder *b, const struct op_spec *s,
		    const struct shape *in, long channels, struct shape *out)
{
	long pad = s->p.padding < 0 ? s->p.kernel / 2 : s->p.padding;
	long h = window_out(in->d[1], s->p.kernel, s->p.stride, pad);
	long w = window_out(in->d[2], s->p.kernel, s->p.stride, pad);
	if (h < 1 || w < 1) {
		fail_at(b, s, NULL,
			"a %ld x %ld window with padding %ld does not fit a %ld x %ld input",
			s->p.kernel, s->p.kernel, pad, in->d[1], in->d[2]);
		return false;
	}
	*out = (struct shape){SHAPE_IMAGE, {channels, h, w}};
	return true;
}

static bool conv_shape(struct builder *b, const struct op_spec *s,
		       const struct shape *in, struct shape *out)
{
	if (!expect_kind(b, s, in, SHAPE_IMAGE))
		return false;
	if (in->d[0] % s->p.groups || s->p.out % s->p.groups) {
		fail_at(b, s, NULL,
			"groups (%ld) must divide the input channels (%ld) and the output channels (%ld)",
			s->p.groups, in->d[0], s->p.out);
		return false;
	}
	return spatial(b, s, in, s->p.out, out);
}

static bool linear_shape(struct builder *b, const struct op_spec *s,
			 const struct shape *in, struct shape *out)
{
	if (in->kind != SHAPE_SEQ && in->kind != SHAPE_VEC) {
		char got[64];
		fail_at(b, s, "flatten or pool an image first",
			"linear expects a vector or a sequence, found %s %s",
			shape_kind_word(in->kind),
			shape_format(in, got, sizeof(got)));
		return false;
	}
	long features = in->kind == SHAPE_SEQ ? in->d[1] : in->d[0];
	if (s->p.in && s->p.in != features) {
		fail_at(b, s, NULL,
			"linear expects %ld input features, found %ld from the op before",
			s->p.in, features);
		return false;
	}
	*out = *in;
	out->d[in->kind == SHAPE_SEQ ? 1 : 0] = s->p.out;
	return true;
}

static bool same_shapes(struct builder *b, const struct op_spec *s,
			const struct shape *a, const struct shape *other,
			const char *name)
{
	if (shape_equal(a, other))
		return true;
	char x[64], y[64];
	fail_at(b, s, NULL, "%s of %s and '%s' %s: shapes differ",
		op_kind_name(s->op), shape_format(a, x, sizeof(x)), name,
		shape_format(other, y, sizeof(y)));
	return false;
}

/* Concatenation along channels (images) or features (sequences). */
static bool concat_shape(struct builder *b, const struct op_spec *s,
			 const struct shape *in, const struct shape **with,
			 struct shape *out)
{
	*out = *in;
	int axis = in->kind == SHAPE_IMAGE ? 0 : in->kind == SHAPE_SEQ ? 1 : 0;
	double total = (double)in->d[axis];
	for (size_t i = 0; i < s->n_with; i++)
		total += (double)with[i]->d[axis];
	double dims[3] = {(double)in->d[0], (double)in->d[1], (double)in->d[2]};
	dims[axis] = total;
	int rank = in->kind == SHAPE_IMAGE ? 3 : in->kind == SHAPE_SEQ ? 2 : 1;
	if (!within_bounds(b, s, dims, rank))
		return false;
	for (size_t i = 0; i < s->n_with; i++) {
		struct shape probe = *with[i];
		probe.d[axis] = in->d[axis];
		if (!shape_equal(&probe, in)) {
			char x[64], y[64];
			fail_at(b, s, NULL,
				"concat of %s and '%s' %s: only the %s may differ",
				shape_format(in, x, sizeof(x)), s->with[i],
				shape_format(with[i], y, sizeof(y)),
				in->kind == SHAPE_IMAGE ? "channels" : "features");
			return false;
		}
		out->d[axis] += with[i]->d[axis];
	}
	return true;
}

static bool token_shape(struct builder *b, const struct op_spec *s,
			const struct shape *in, struct shape *out)
{
	switch (s->op) {
	case OP_TO_TOKENS:
		if (!expect_kind(b, s, in, SHAPE_IMAGE))
			return false;
		*out = (struct shape){SHAPE_SEQ,
				      {in->d[1] * in->d[2] + s->p.cls_token,
				       in->d[0], 0}};
		return true;
	case OP_SELECT_TOKEN:
		if (!expect_kind(b, s, in, SHAPE_SEQ))
			return false;
		if (s->p.index >= in->d[0]) {
			fail_at(b, s, NULL, "token %ld is beyond the %ld tokens",
				s->p.index, in->d[0]);
			return false;
		}
		*out = (struct shape){SHAPE_VEC, {in->d[1], 0, 0}};
		return true;
	case OP_EMBEDDING:
		if (!expect_kind(b, s, in, SHAPE_IDS))
			return false;
		*out = (struct shape){SHAPE_SEQ, {in->d[0], s->p.dim, 0}};
		return true;
	case OP_POSITION_EMBEDDING:
		*out = *in;
		return expect_kind(b, s, in, SHAPE_SEQ);
	default:
		return false;
	}
}

static bool image_shape(struct builder *b, const struct op_spec *s,
			const struct shape *in, struct shape *out)
{
	switch (s->op) {
	case OP_MAXPOOL:
	case OP_AVGPOOL:
		return expect_kind(b, s, in, SHAPE_IMAGE) &&
		       spatial(b, s, in, in->d[0], out);
	case OP_GLOBAL_AVGPOOL:
		*out = (struct shape){SHAPE_IMAGE, {in->d[0], 1, 1}};
		return expect_kind(b, s, in, SHAPE_IMAGE);
	case OP_UPSAMPLE: {
		if (!expect_kind(b, s, in, SHAPE_IMAGE))
			return false;
		double dims[3] = {(double)in->d[0], (double)in->d[1] * s->p.scale,
				  (double)in->d[2] * s->p.scale};
		if (!within_bounds(b, s, dims, 3))
			return false;
		*out = (struct shape){SHAPE_IMAGE,
				      {in->d[0], in->d[1] * s->p.scale,
				       in->d[2] * s->p.scale}};
		return true;
	}
	case OP_FLATTEN:
		*out = (struct shape){SHAPE_VEC, {(long)shape_elements(in), 0, 0}};
		return in->kind != SHAPE_IDS || expect_kind(b, s, in, SHAPE_IMAGE);
	default:
		return false;
	}
}

/* ---- appending ---- */

static void label_of(char *buf, size_t len, const char *path,
		     const struct op_spec *s, const char *kind)
{
	snprintf(buf, len, "%s %s%s%s", path, kind, s->name ? " " : "",
		 s->name ? s->name : "");
}

static bool append(struct builder *b, const struct op_spec *s,
		   enum op_kind kind, const struct shape *in,
		   const struct shape *out, double extra, const char *path,
		   const struct op_params *p)
{
	char label[96];
	label_of(label, sizeof(label), path, s, op_kind_name(kind));
	const struct op *o = model_graph_append(b->g, kind, in, out,
						p ? p : &s->p, extra, &s->at,
						label);
	b->cur = *out;
	return op_within_bounds(b, s, o);
}

/* `attention` in a graph: the Q/K/V projection, the attention core and
 * the output projection, so each lands in its class (gemm, attention). */
static bool append_attention(struct builder *b, const struct op_spec *s,
			     const struct shape *in, const char *path)
{
	if (!expect_kind(b, s, in, SHAPE_SEQ))
		return false;
	long d = in->d[1], heads = s->p.heads;
	long kv = s->p.kv_heads ? s->p.kv_heads : heads;
	if (d % heads || heads % kv) {
		fail_at(b, s, NULL,
			"heads (%ld) must divide the features (%ld) and kv_heads (%ld) must divide heads",
			heads, d, kv);
		return false;
	}
	double scores = (double)heads * (double)in->d[0] * (double)in->d[0];
	if (scores > MODEL_MAX_SCORE_ELEMENTS) {
		fail_at(b, s, NULL,
			"attention over %ld tokens with %ld heads makes a score matrix of %.3g elements per sample (heads x tokens x tokens), beyond the %.3g gpuplan handles",
			in->d[0], heads, scores, MODEL_MAX_SCORE_ELEMENTS);
		return false;
	}
	long kv_dim = kv * (d / heads);
	struct op_params lp = {.out = d + 2 * kv_dim, .bias = s->p.bias};
	struct shape qkv = {SHAPE_SEQ, {in->d[0], d + 2 * kv_dim, 0}};
	char sub[128];
	snprintf(sub, sizeof(sub), "%s.qkv", path);
	if (!append(b, s, OP_LINEAR, in, &qkv, 0, sub, &lp))
		return false;
	struct op_params ap = s->p;
	ap.kv_heads = kv;
	if (!append(b, s, OP_ATTENTION, &qkv, in, 0, path, &ap))
		return false;
	snprintf(sub, sizeof(sub), "%s.out", path);
	lp.out = d;
	return append(b, s, OP_LINEAR, in, in, 0, sub, &lp);
}

static bool infer_shape(struct builder *b, const struct op_spec *s,
			const struct shape *in, const struct shape **with,
			struct shape *out)
{
	switch (s->op) {
	case OP_CONV: return conv_shape(b, s, in, out);
	case OP_LINEAR: return linear_shape(b, s, in, out);
	case OP_ADD:
	case OP_MUL:
		*out = *in;
		return same_shapes(b, s, in, with[0], s->with[0]);
	case OP_CONCAT: return concat_shape(b, s, in, with, out);
	case OP_TO_TOKENS:
	case OP_SELECT_TOKEN:
	case OP_EMBEDDING:
	case OP_POSITION_EMBEDDING: return token_shape(b, s, in, out);
	case OP_MAXPOOL:
	case OP_AVGPOOL:
	case OP_GLOBAL_AVGPOOL:
	case OP_UPSAMPLE:
	case OP_FLATTEN: return image_shape(b, s, in, out);
	case OP_BATCHNORM:
		*out = *in;
		return in->kind == SHAPE_IMAGE || in->kind == SHAPE_VEC ||
		       expect_kind(b, s, in, SHAPE_IMAGE);
	default:	/* norms and activations keep the shape */
		*out = *in;
		if (in->kind == SHAPE_IDS) {
			fail_at(b, s, "embed the tokens first",
				"%s cannot take token ids", op_kind_name(s->op));
			return false;
		}
		return true;
	}
}

static bool build_op(struct builder *b, const struct op_spec *s,
		     const char *path)
{
	const struct shape *in = &b->cur;
	if (s->from && !(in = lookup(b, s, s->from)))
		return false;
	const struct shape *with[MODEL_MAX_WITH];
	double extra = 0;
	for (size_t i = 0; i < s->n_with; i++) {
		if (!(with[i] = lookup(b, s, s->with[i])))
			return false;
		extra += shape_elements(with[i]);
	}
	struct shape input = *in;
	if (s->op == OP_ATTENTION) {
		if (!append_attention(b, s, &input, path))
			return false;
	} else {
		struct shape out;
		if (!infer_shape(b, s, &input, with, &out) ||
		    !append(b, s, s->op, &input, &out, extra, path, NULL))
			return false;
	}
	struct shape after = b->cur;
	if (s->fused_norm != OP_KIND_COUNT &&
	    !append(b, s, s->fused_norm, &after, &after, 0, path, NULL))
		return false;
	if (s->fused_act != OP_KIND_COUNT &&
	    !append(b, s, s->fused_act, &after, &after, 0, path, NULL))
		return false;
	if (s->name)
		bind(b, s->name, &b->cur);
	return true;
}

static bool build_list(struct builder *b, const struct op_spec *v, size_t n,
		       const char *path);

static bool build_residual(struct builder *b, const struct op_spec *s,
			   const char *path)
{
	char sub[96];
	b->g->blocks++;		/* a residual block is a checkpoint unit */
	struct shape x = b->cur;
	snprintf(sub, sizeof(sub), "%s.body", path);
	if (!build_list(b, s->body, s->n_body, sub))
		return false;
	struct shape y = b->cur;
	b->cur = x;
	snprintf(sub, sizeof(sub), "%s.shortcut", path);
	if (s->shortcut && !build_list(b, s->shortcut, s->n_shortcut, sub))
		return false;
	struct shape shortcut = b->cur;
	if (!shape_equal(&y, &shortcut)) {
		char p[64], q[64];
		fail_at(b, s, s->shortcut ? NULL : "add a shortcut: that projects x",
			"residual body gives %s but the shortcut gives %s",
			shape_format(&y, p, sizeof(p)),
			shape_format(&shortcut, q, sizeof(q)));
		return false;
	}
	if (!append(b, s, OP_ADD, &y, &y, shape_elements(&shortcut), path, NULL))
		return false;
	if (s->name)
		bind(b, s->name, &b->cur);
	return true;
}

static bool build_spec(struct builder *b, const struct op_spec *s,
		       const char *path)
{
	switch (s->spec) {
	case SPEC_OP:
		return build_op(b, s, path);
	case SPEC_RESIDUAL:
		return build_residual(b, s, path);
	case SPEC_INCLUDE:
		return build_list(b, s->body, s->n_body, path);
	case SPEC_REPEAT:
		for (long k = 0; k < s->repeat; k++) {
			char sub[96];
			snprintf(sub, sizeof(sub), "%s[%ld]", path, k);
			b->g->blocks++;	/* so is each repeat iteration */
			if (!build_list(b, s->body, s->n_body, sub))
				return false;
		}
		return true;
	}
	return false;
}

static bool build_list(struct builder *b, const struct op_spec *v, size_t n,
		       const char *path)
{
	for (size_t i = 0; i < n; i++) {
		char sub[96];
		snprintf(sub, sizeof(sub), "%s%s%zu", path, path[0] ? "." : "", i);
		if (!build_spec(b, &v[i], sub))
			return false;
	}
	return true;
}

/*
 * The op count is known from the description (op_count.c): a model past
 * MODEL_MAX_OPS is refused before any op is made.
 */
int build_graph_ops(const struct model *m, struct model_graph *g,
		    struct gp_errors *errs)
{
	if (model_check_op_count(m, MODEL_MAX_OPS, "a model may have",
				 NULL, errs) < 0)
		return -1;
	struct builder b = {.g = g, .errs = errs, .cur = m->input};
	strmap_init(&b.index);
	g->input = m->input;
	g->seq = m->input.kind == SHAPE_IMAGE ? 0 : m->input.d[0];
	bool ok = true;
	for (size_t i = 0; ok && i < m->n_ops; i++) {
		char path[32];
		snprintf(path, sizeof(path), "%zu", i);
		g->blocks++;	/* each top-level item starts a checkpoint unit */
		ok = build_spec(&b, &m->ops[i], path);
	}
	g->output = b.cur;
	strmap_free(&b.index);
	free(b.names);
	return ok ? 0 : -1;
}

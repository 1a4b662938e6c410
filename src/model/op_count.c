/*
 * op_count.c - how many ops a description expands to, known before any
 * op is built.
 *
 * Every entry's count is computed once, when it is read, from its
 * children's (a repeat multiplies its body's, an include takes its cached
 * block's), so counting costs one step per entry read, however the
 * repeats and includes multiply.  Counts saturate at MODEL_OPS_MANY: a
 * chain of repeats that would overflow 64 bits is simply "too many".
 *
 * When a count is over a limit, the entry to blame is found top-down:
 * in a list, the first entry that takes the running total past the limit;
 * if that entry is too big on its own and has parts (a repeat's body, an
 * included block, a residual's branches), the search goes on inside them,
 * else it is the one reported.  The error thus lands on the repeat count
 * or the include a person would change, wherever it is nested.
 */
#include <inttypes.h>

#include "op_count.h"
#include "transformer_build.h"

uint64_t ops_add(uint64_t a, uint64_t b)
{
	return a > MODEL_OPS_MANY - b ? MODEL_OPS_MANY : a + b;
}

uint64_t ops_mul(uint64_t a, uint64_t b)
{
	if (a == 0 || b == 0)
		return 0;
	return a > MODEL_OPS_MANY / b ? MODEL_OPS_MANY : a * b;
}

/* An op entry builds itself (attention: its Q/K/V projection, the
 * attention core and the output projection) and its fused norm and
 * activation, as graph_build.c appends them. */
static uint64_t op_entry_count(const struct op_spec *s)
{
	uint64_t n = s->op == OP_ATTENTION ? 3 : 1;
	n += s->fused_norm != OP_KIND_COUNT;
	n += s->fused_act != OP_KIND_COUNT;
	return n;
}

uint64_t list_op_count(const struct op_spec *v, size_t n)
{
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++)
		total = ops_add(total, v[i].ops);
	return total;
}

uint64_t spec_op_count(const struct op_spec *s)
{
	switch (s->spec) {
	case SPEC_OP:
		return op_entry_count(s);
	case SPEC_REPEAT:
		return ops_mul((uint64_t)s->repeat, list_op_count(s->body, s->n_body));
	case SPEC_RESIDUAL:	/* body, shortcut and their add */
		return ops_add(ops_add(list_op_count(s->body, s->n_body),
				       list_op_count(s->shortcut, s->n_shortcut)),
			       1);
	case SPEC_INCLUDE:
		return list_op_count(s->body, s->n_body);
	}
	return MODEL_OPS_MANY;
}

uint64_t model_op_count(const struct model *m)
{
	if (m->kind == MODEL_TRANSFORMER)
		return transformer_op_count(&m->tf);
	return list_op_count(m->ops, m->n_ops);
}

/* ---- the entry to blame ---- */

struct over {
	uint64_t limit;
	const char *who, *hint;
	struct gp_errors *errs;
};

static void blame_list(const struct over *o, const struct op_spec *v,
		       size_t n);

static const char *spec_word(const struct op_spec *s)
{
	switch (s->spec) {
	case SPEC_REPEAT: return "repeat";
	case SPEC_RESIDUAL: return "residual block";
	case SPEC_INCLUDE: return "include";
	case SPEC_OP: break;
	}
	return op_kind_name(s->op);
}

/* What to change, when the caller has no hint of its own. */
static const char *spec_hint(const struct op_spec *s)
{
	switch (s->spec) {
	case SPEC_REPEAT: return "lower the repeat count";
	case SPEC_INCLUDE: return "include it fewer times, or lower a repeat count in it";
	default: return "lower a repeat count around it";
	}
}

static void blame(const struct over *o, const struct op_spec *s,
		  uint64_t before)
{
	const char *hint = o->hint ? o->hint : spec_hint(s);
	char what[96];
	if (s->spec == SPEC_REPEAT)
		snprintf(what, sizeof(what), " (%ld x %" PRIu64 ")", s->repeat,
			 list_op_count(s->body, s->n_body));
	else
		what[0] = '\0';
	if (before == 0)
		gp_errors_add(o->errs, s->at.file, s->at.line, s->at.col, hint,
			      "this %s%s expands to %" PRIu64 " ops: %s at most %" PRIu64,
			      spec_word(s), what, s->ops, o->who, o->limit);
	else
		gp_errors_add(o->errs, s->at.file, s->at.line, s->at.col, hint,
			      "this %s%s brings the model to %" PRIu64 " ops (%" PRIu64
			      " before it, %" PRIu64 " in it): %s at most %" PRIu64,
			      spec_word(s), what, ops_add(before, s->ops), before,
			      s->ops, o->who, o->limit);
}

/* s takes its list past the limit after `before` ops: look inside it when
 * one of its parts is too big by itself. */
static void blame_entry(const struct over *o, const struct op_spec *s,
			uint64_t before)
{
	uint64_t body = list_op_count(s->body, s->n_body);
	uint64_t cut = list_op_count(s->shortcut, s->n_shortcut);
	if (s->spec != SPEC_OP && body > o->limit)
		blame_list(o, s->body, s->n_body);
	else if (s->spec == SPEC_RESIDUAL && cut > o->limit)
		blame_list(o, s->shortcut, s->n_shortcut);
	else
		blame(o, s, before);
}

static void blame_list(const struct over *o, const struct op_spec *v,
		       size_t n)
{
	uint64_t total = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].ops > o->limit - total) {
			blame_entry(o, &v[i], v[i].ops > o->limit ? 0 : total);
			return;
		}
		total += v[i].ops;
	}
}

int model_check_op_count(const struct model *m, uint64_t limit,
			 const char *who, const char *hint,
			 struct gp_errors *errs)
{
	uint64_t n = model_op_count(m);
	if (n <= limit)
		return 0;
	struct over o = {limit, who, hint, errs};
	if (m->kind == MODEL_TRANSFORMER)
		gp_errors_add(errs, m->file, 0, 0, hint ? hint : "lower 'layers'",
			      "the transformer expands to %" PRIu64 " ops: %s at most %" PRIu64,
			      n, who, limit);
	else
		blame_list(&o, m->ops, m->n_ops);
	return -1;
}

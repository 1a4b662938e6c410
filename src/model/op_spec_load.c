/*
 * op_spec_load.c - reading `ops:` lists: ops with their parameters,
 * `repeat:` and `residual:` blocks and `include:` of block files.
 */
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "core/xalloc.h"
#include "model_include.h"
#include "op_count.h"
#include "op_spec_load.h"

/* ---- parameters per op kind ---- */

static const struct yfield conv_fields[] = {
	{"out", true}, {"kernel", true}, {"stride", false}, {"padding", false},
	{"groups", false}, {"bias", false}, {"norm", false}, {"act", false},
	{NULL, false}};
static const struct yfield linear_fields[] = {
	{"out", true}, {"in", false}, {"bias", false}, {"act", false},
	{NULL, false}};
static const struct yfield attention_fields[] = {
	{"heads", true}, {"kv_heads", false}, {"bias", false},
	{"causal", false}, {NULL, false}};
static const struct yfield embedding_fields[] = {
	{"vocab", true}, {"dim", true}, {NULL, false}};
static const struct yfield pool_fields[] = {
	{"kernel", true}, {"stride", false}, {"padding", false}, {NULL, false}};
static const struct yfield upsample_fields[] = {{"scale", true}, {NULL, false}};
static const struct yfield to_tokens_fields[] = {
	{"cls_token", false}, {NULL, false}};
static const struct yfield select_fields[] = {{"index", false}, {NULL, false}};
static const struct yfield with_fields[] = {{"with", true}, {NULL, false}};
static const struct yfield no_fields[] = {{NULL, false}};

static const struct yfield *fields_of(enum op_kind k)
{
	switch (k) {
	case OP_CONV: return conv_fields;
	case OP_LINEAR: return linear_fields;
	case OP_ATTENTION: return attention_fields;
	case OP_EMBEDDING: return embedding_fields;
	case OP_MAXPOOL:
	case OP_AVGPOOL: return pool_fields;
	case OP_UPSAMPLE: return upsample_fields;
	case OP_TO_TOKENS: return to_tokens_fields;
	case OP_SELECT_TOKEN: return select_fields;
	case OP_ADD:
	case OP_MUL:
	case OP_CONCAT: return with_fields;
	default: return no_fields;
	}
}

static void set_defaults(struct op_spec *s)
{
	s->p.stride = 1;
	s->p.groups = 1;
	s->p.bias = s->op == OP_LINEAR || s->op == OP_ATTENTION;
	s->fused_norm = s->fused_act = OP_KIND_COUNT;
}

/* `padding: same` keeps the size at stride 1 (kernel / 2 on each side). */
static int read_padding(struct yread *r, const struct ynode *params,
			struct op_spec *s)
{
	const struct ynode *n = ymap_get(params, "padding");
	if (n && n->kind == YNODE_SCALAR && strcmp(n->text, "same") == 0) {
		s->p.padding = -1;
		return 1;
	}
	return yr_int(r, params, "padding", 0, 1024, &s->p.padding);
}

static int read_fused(struct yread *r, const struct ynode *params,
		      struct op_spec *s)
{
	static const char *const norms[] = {"batchnorm", "layernorm", "rmsnorm"};
	static const enum op_kind norm_ops[] = {OP_BATCHNORM, OP_LAYERNORM,
						OP_RMSNORM};
	static const char *const acts[] = {"relu", "silu", "gelu", "sigmoid"};
	static const enum op_kind act_ops[] = {OP_RELU, OP_SILU, OP_GELU,
					       OP_SIGMOID};
	int i, bad = 0, rc;
	if ((rc = read_word(r, params, "norm", norms, 3, &i)) == 1)
		s->fused_norm = norm_ops[i];
	bad |= rc < 0;
	if ((rc = read_word(r, params, "act", acts, 4, &i)) == 1)
		s->fused_act = act_ops[i];
	bad |= rc < 0;
	return bad ? -1 : 0;
}

static int read_with(struct yread *r, const struct ynode *params,
		     struct op_spec *s)
{
	const struct ynode *n = ymap_get(params, "with");
	if (!n)
		return 0;
	size_t count = n->kind == YNODE_SEQ ? n->n : 1;
	if (count > MODEL_MAX_WITH) {
		yr_error(r, n, NULL, "'with' names %zu tensors; at most %d", count,
			 MODEL_MAX_WITH);
		return -1;
	}
	if (count == 0 || (s->op != OP_CONCAT && count != 1)) {
		yr_error(r, n, NULL, "'with' of %s names %s", op_kind_name(s->op),
			 s->op == OP_CONCAT ? "one or more tensors"
					    : "exactly one tensor");
		return -1;
	}
	s->with = xcalloc(count, sizeof(char *));
	int bad = 0;
	for (size_t i = 0; i < count; i++) {
		const struct ynode *item = n->kind == YNODE_SEQ ? n->items[i] : n;
		if (yr_node_name(r, item, "with", &s->with[s->n_with]) < 0)
			bad = 1;
		else
			s->n_with++;
	}
	return bad ? -1 : 0;
}

static int read_numbers(struct yread *r, const struct ynode *params,
			struct op_spec *s)
{
	const long big = 10000000;
	int bad = 0;
	bad |= yr_int(r, params, "out", 1, big, &s->p.out) < 0;
	bad |= yr_int(r, params, "in", 1, big, &s->p.in) < 0;
	bad |= yr_int(r, params, "kernel", 1, 1024, &s->p.kernel) < 0;
	int st = yr_int(r, params, "stride", 1, 1024, &s->p.stride);
	bad |= st < 0;
	if (st == 0 && (s->op == OP_MAXPOOL || s->op == OP_AVGPOOL))
		s->p.stride = s->p.kernel;	/* pools step by their window */
	bad |= read_padding(r, params, s) < 0;
	bad |= yr_int(r, params, "groups", 1, big, &s->p.groups) < 0;
	bad |= yr_int(r, params, "heads", 1, 100000, &s->p.heads) < 0;
	bad |= yr_int(r, params, "kv_heads", 1, 100000, &s->p.kv_heads) < 0;
	bad |= yr_int(r, params, "scale", 1, 64, &s->p.scale) < 0;
	bad |= yr_int(r, params, "index", 0, big, &s->p.index) < 0;
	bad |= yr_int(r, params, "vocab", 1, big, &s->p.vocab) < 0;
	bad |= yr_int(r, params, "dim", 1, big, &s->p.dim) < 0;
	bad |= yr_bool(r, params, "bias", &s->p.bias) < 0;
	bad |= yr_bool(r, params, "causal", &s->p.causal) < 0;
	bad |= yr_bool(r, params, "cls_token", &s->p.cls_token) < 0;
	return bad ? -1 : 0;
}

/* The value of an op key: its parameters, or nothing for a bare op. */
static int read_params(struct yread *r, const struct ynode *key,
		       const struct ynode *v, struct op_spec *s)
{
	char what[64];
	snprintf(what, sizeof(what), "the parameters of %s", op_kind_name(s->op));
	if (v->kind == YNODE_SCALAR && v->text[0] == '\0')
		v = NULL;	/* `- relu:` with nothing after it */
	if (v && !yr_expect_map(r, v, what))
		return -1;
	int bad = 0;
	if (v) {
		bad |= yr_check_keys(r, v, what, fields_of(s->op)) > 0;
		bad |= read_numbers(r, v, s) < 0;
		bad |= read_fused(r, v, s) < 0;
		bad |= read_with(r, v, s) < 0;
	} else if (fields_of(s->op)[0].key && fields_of(s->op)[0].required) {
		yr_error(r, key, NULL, "%s needs parameters", op_kind_name(s->op));
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* ---- which entry is it ---- */

static const char *const structural[] = {"repeat", "residual", "include"};

static void unknown_kind(struct yread *r, const struct ynode *at,
			 const char *word)
{
	const char *names[OP_KIND_COUNT + 3];
	size_t n = 0;
	for (int k = 0; k < OP_KIND_COUNT; k++)
		names[n++] = op_kind_name(k);
	for (size_t i = 0; i < 3; i++)
		names[n++] = structural[i];
	char hint[96];
	const char *h = suggest_hint(word, names, n, hint, sizeof(hint));
	yr_error(r, at, h, "unknown op kind '%.60s'", word);
}

static bool is_meta_key(const char *k)
{
	return strcmp(k, "name") == 0 || strcmp(k, "from") == 0 ||
	       strcmp(k, "ops") == 0;
}

/* The one key of an entry that says what it is; NULL after an error. */
static const struct ynode *kind_key(struct yread *r, const struct ynode *item)
{
	const struct ynode *found = NULL;
	for (size_t i = 0; i < item->n; i++) {
		const struct ynode *k = item->items[2 * i];
		if (is_meta_key(k->text))
			continue;
		if (found) {
			yr_error(r, k, "write one op per list entry",
				 "'%.60s' and '%.60s' in one entry", found->text,
				 k->text);
			return NULL;
		}
		found = k;
	}
	if (!found)
		yr_error(r, item, NULL,
			 "an ops entry needs a kind (conv, linear, relu, repeat, ...)");
	return found;
}

/* ---- structural entries ---- */

static int read_repeat(struct model_reader *mr, const struct ynode *item,
		       struct op_spec *s)
{
	struct yread *r = &mr->r;
	static const struct yfield fields[] = {{"repeat", true}, {"ops", true},
					       {NULL, false}};
	s->spec = SPEC_REPEAT;
	int bad = yr_check_keys(r, item, "a repeat block", fields) > 0;
	if (yr_int(r, item, "repeat", 1, MODEL_MAX_REPEAT, &s->repeat) < 0)
		bad = 1;
	if (ymap_get(item, "ops") &&
	    read_ops_list(mr, item, "ops", &s->body, &s->n_body) < 0)
		bad = 1;
	return bad ? -1 : 0;
}

static int read_residual(struct model_reader *mr, const struct ynode *item,
			 const struct ynode *v, struct op_spec *s)
{
	struct yread *r = &mr->r;
	static const struct yfield fields[] = {{"ops", true}, {"shortcut", false},
					       {NULL, false}};
	static const struct yfield outer[] = {{"residual", true}, {"name", false},
					      {NULL, false}};
	s->spec = SPEC_RESIDUAL;
	int bad = yr_check_keys(r, item, "a residual block", outer) > 0;
	if (!yr_expect_map(r, v, "'residual'"))
		return -1;
	bad |= yr_check_keys(r, v, "'residual'", fields) > 0;
	if (ymap_get(v, "ops"))
		bad |= read_ops_list(mr, v, "ops", &s->body, &s->n_body) < 0;
	if (ymap_get(v, "shortcut"))
		bad |= read_ops_list(mr, v, "shortcut", &s->shortcut,
				     &s->n_shortcut) < 0;
	return bad ? -1 : 0;
}

/* ---- one entry ---- */

static int read_op(struct model_reader *mr, const struct ynode *item,
		   const struct ynode *key, const struct ynode *v,
		   struct op_spec *s)
{
	struct yread *r = &mr->r;
	int k = op_kind_from_name(key->text);
	if (k < 0) {
		unknown_kind(r, key, key->text);
		return -1;
	}
	s->spec = SPEC_OP;
	s->op = (enum op_kind)k;
	set_defaults(s);
	int bad = 0;
	if (ymap_get(item, "ops")) {
		yr_error(r, ymap_get(item, "ops"), NULL,
			 "'ops' belongs to a repeat block, not to %s", key->text);
		bad = 1;
	}
	bad |= yr_name(r, item, "name", &s->name) < 0;
	bad |= yr_name(r, item, "from", &s->from) < 0;
	bad |= read_params(r, key, v, s) < 0;
	return bad ? -1 : 0;
}

static int read_entry(struct model_reader *mr, const struct ynode *item,
		      struct op_spec *s)
{
	struct yread *r = &mr->r;
	memset(s, 0, sizeof(*s));
	s->at = (struct origin){r->file, item->line, item->col};
	s->fused_norm = s->fused_act = OP_KIND_COUNT;
	if (item->kind == YNODE_SCALAR) {
		for (size_t i = 0; i < 3; i++)
			if (strcmp(item->text, structural[i]) == 0) {
				yr_error(r, item, NULL,
					 "'%s' needs its content: '- repeat: N' with 'ops:', '- residual: {ops: [...]}' or '- include: FILE'",
					 item->text);
				return -1;
			}
		int k = op_kind_from_name(item->text);
		if (k < 0) {
			unknown_kind(r, item, item->text);
			return -1;
		}
		s->spec = SPEC_OP;
		s->op = (enum op_kind)k;
		set_defaults(s);
		if (fields_of(s->op)[0].key && fields_of(s->op)[0].required) {
			yr_error(r, item, NULL, "%s needs parameters",
				 op_kind_name(s->op));
			return -1;
		}
		return 0;
	}
	if (!yr_expect_map(r, item, "an ops entry"))
		return -1;
	const struct ynode *key = kind_key(r, item);
	if (!key)
		return -1;
	const struct ynode *v = ymap_get(item, key->text);
	if (strcmp(key->text, "repeat") == 0)
		return read_repeat(mr, item, s);
	if (strcmp(key->text, "residual") == 0) {
		int rc = read_residual(mr, item, v, s);
		if (yr_name(r, item, "name", &s->name) < 0)
			rc = -1;
		return rc;
	}
	if (strcmp(key->text, "include") == 0)
		return read_include(mr, item, v, s);
	return read_op(mr, item, key, v, s);
}

/* Entries are counted over every file read: however the files are
 * split, a model holds at most MODEL_MAX_OPS entries (each builds at
 * least one op), so what is kept in memory is bounded before counting
 * what they expand to. */
static int count_entry(struct model_reader *mr, const struct ynode *item)
{
	if (++mr->entries <= MODEL_MAX_OPS)
		return 0;
	yr_error(&mr->r, item, NULL,
		 "the model's files hold more than %d op entries: a model may have at most %d ops",
		 MODEL_MAX_OPS, MODEL_MAX_OPS);
	mr->stopped = true;
	return -1;
}

int read_ops_list(struct model_reader *mr, const struct ynode *map,
		  const char *key, struct op_spec **out, size_t *n)
{
	struct yread *r = &mr->r;
	const struct ynode *list = ymap_get(map, key);
	*out = NULL;
	*n = 0;
	if (!list) {
		yr_error(r, map, NULL, "missing required key '%s'", key);
		return -1;
	}
	char what[32];
	snprintf(what, sizeof(what), "'%s'", key);
	if (!yr_expect_seq(r, list, what))
		return -1;
	if (list->n == 0) {
		yr_error(r, list, NULL, "'%s' is empty: a model needs at least one op",
			 key);
		return -1;
	}
	*out = xcalloc(list->n, sizeof(**out));
	*n = list->n;
	int bad = 0;
	for (size_t i = 0; i < list->n && !mr->stopped; i++) {
		if (count_entry(mr, list->items[i]) < 0)
			return -1;
		struct op_spec *s = &(*out)[i];
		bad |= read_entry(mr, list->items[i], s) < 0;
		s->ops = spec_op_count(s);
	}
	return bad || mr->stopped ? -1 : 0;
}

/*
 * model_load.c - strict reading of a model description (profiles/models/).
 *
 * The file-level keys and the transformer configuration are read here; the
 * `ops:` lists (ops, repeats, residuals, includes) in op_spec_load.c.
 */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/file_read.h"
#include "core/paths.h"
#include "core/term_safe.h"
#include "core/xalloc.h"
#include "core/yaml_read.h"
#include "model_read.h"
#include "op_count.h"
#include "op_spec_load.h"
#include "transformer_build.h"

/* ---- transformer ---- */

static const struct yfield transformer_fields[] = {
	{"architecture", true}, {"layers", true}, {"hidden", true},
	{"heads", true}, {"kv_heads", false}, {"ffn", true},
	{"ffn_kind", true}, {"vocab", true}, {"tied_embeddings", false},
	{"norm", true}, {"bias", false}, {"positions", true},
	{"max_seq", true}, {"type_vocab", false}, {"pooler", false},
	{"attention_dropout", false}, {"hidden_dropout", false},
	{NULL, false},
};

static int read_tf_words(struct yread *r, const struct ynode *n,
			 struct transformer_config *tf)
{
	static const char *const arch[] = {"decoder", "encoder"};
	static const char *const ffn[] = {"gelu", "swiglu"};
	static const char *const norm[] = {"layernorm", "rmsnorm"};
	static const char *const pos[] = {"rope", "learned"};
	int a = 0, f = 0, no = 0, p = 0, bad = 0;
	bad |= read_word(r, n, "architecture", arch, 2, &a) < 0;
	bad |= read_word(r, n, "ffn_kind", ffn, 2, &f) < 0;
	bad |= read_word(r, n, "norm", norm, 2, &no) < 0;
	bad |= read_word(r, n, "positions", pos, 2, &p) < 0;
	tf->arch = (enum tf_arch)a;
	tf->ffn_kind = (enum ffn_kind)f;
	tf->norm = (enum norm_kind)no;
	tf->positions = (enum pos_kind)p;
	return bad ? -1 : 0;
}

/* heads must split hidden evenly, and kv_heads must split heads: both are
 * how attention shares out its width. */
static int check_tf_divisions(struct yread *r, const struct ynode *n,
			      const struct transformer_config *tf)
{
	int bad = 0;
	if (tf->hidden % tf->heads != 0) {
		yr_error(r, ymap_get(n, "heads"), NULL,
			 "heads (%ld) must divide hidden (%ld) evenly", tf->heads,
			 tf->hidden);
		bad = 1;
	}
	if (tf->heads % tf->kv_heads != 0) {
		yr_error(r, ymap_get(n, "kv_heads"), NULL,
			 "kv_heads (%ld) must divide heads (%ld) evenly",
			 tf->kv_heads, tf->heads);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* Shapes multiply: the widest tensor of a sample of max_seq tokens and
 * each large weight must stay within MODEL_MAX_TENSOR_ELEMENTS, so every
 * count made from them is finite (model.h). */
static int check_tf_sizes(struct yread *r, const struct ynode *n,
			  const struct transformer_config *tf)
{
	const char *widest;
	double w = transformer_widest(tf, &widest);
	double d = (double)tf->hidden;
	const struct { const char *key, *what, *per; double elems; } t[] = {
		{"max_seq", widest, " per sample", (double)tf->max_seq * w},
		{"vocab", "the embedding", "", (double)tf->vocab * d},
		{"ffn", "an FFN weight", "", (double)tf->ffn * d},
		{"hidden", "the Q/K/V weight", "",
		 d * (d + 2.0 * (double)tf->kv_heads * (double)(tf->hidden / tf->heads))},
		{"max_seq", "the position embedding", "",
		 tf->positions == POS_LEARNED ? (double)tf->max_seq * d : 0},
	};
	double seq = (double)tf->max_seq;
	if ((double)tf->heads * seq * seq > MODEL_MAX_SCORE_ELEMENTS) {
		yr_error(r, ymap_get(n, "max_seq"), NULL,
			 "'max_seq' makes the attention score matrix %.3g elements per sample (heads x max_seq x max_seq), beyond the %.3g gpuplan handles",
			 (double)tf->heads * seq * seq, MODEL_MAX_SCORE_ELEMENTS);
		return -1;
	}
	int bad = 0;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (t[i].elems <= MODEL_MAX_TENSOR_ELEMENTS)
			continue;
		yr_error(r, ymap_get(n, t[i].key), NULL,
			 "'%s' makes %s %.3g elements%s, beyond the %.3g gpuplan handles in one tensor",
			 t[i].key, t[i].what, t[i].elems, t[i].per,
			 MODEL_MAX_TENSOR_ELEMENTS);
		bad = 1;
	}
	return bad ? -1 : 0;
}

static int read_transformer(struct yread *r, const struct ynode *root,
			    struct transformer_config *tf)
{
	const struct ynode *n = ymap_get(root, "transformer");
	if (!n) {
		yr_error(r, root, NULL,
			 "missing required key 'transformer' in a transformer model");
		return -1;
	}
	if (!yr_expect_map(r, n, "'transformer'"))
		return -1;
	int bad = yr_check_keys(r, n, "'transformer'", transformer_fields);
	bad |= read_tf_words(r, n, tf);
	const long big = 10000000;
	int kv = 0;
	bad |= yr_int(r, n, "layers", 1, 10000, &tf->layers) < 0;
	bad |= yr_int(r, n, "hidden", 1, big, &tf->hidden) < 0;
	bad |= yr_int(r, n, "heads", 1, 100000, &tf->heads) < 0;
	bad |= (kv = yr_int(r, n, "kv_heads", 1, 100000, &tf->kv_heads)) < 0;
	bad |= yr_int(r, n, "ffn", 1, big, &tf->ffn) < 0;
	bad |= yr_int(r, n, "vocab", 1, big, &tf->vocab) < 0;
	bad |= yr_int(r, n, "max_seq", 1, big, &tf->max_seq) < 0;
	bad |= yr_int(r, n, "type_vocab", 0, 1000, &tf->type_vocab) < 0;
	bad |= yr_bool(r, n, "tied_embeddings", &tf->tied_embeddings) < 0;
	bad |= yr_bool(r, n, "bias", &tf->bias) < 0;
	bad |= yr_bool(r, n, "pooler", &tf->pooler) < 0;
	bad |= yr_number_in(r, n, "attention_dropout", Q_PROBABILITY,
			    &tf->attention_dropout) < 0;
	bad |= yr_number_in(r, n, "hidden_dropout", Q_PROBABILITY,
			    &tf->hidden_dropout) < 0;
	if (kv == 0)
		tf->kv_heads = tf->heads;
	if (bad || tf->heads == 0 || tf->kv_heads == 0)
		return -1;
	if (check_tf_divisions(r, n, tf) < 0)
		return -1;
	return check_tf_sizes(r, n, tf);
}

/* ---- graph input ---- */

static const struct yfield input_fields[] = {
	{"channels", false}, {"height", false}, {"width", false},
	{"tokens", false}, {"features", false}, {NULL, false},
};

static int read_input(struct yread *r, const struct ynode *root,
		      struct shape *s)
{
	const struct ynode *n = ymap_get(root, "input");
	if (!n) {
		yr_error(r, root, NULL, "missing required key 'input' in a graph model");
		return -1;
	}
	if (!yr_expect_map(r, n, "'input'"))
		return -1;
	int bad = yr_check_keys(r, n, "'input'", input_fields);
	const long big = 1000000;
	long c = 0, h = 0, w = 0, t = 0, f = 0;
	int hc = yr_int(r, n, "channels", 1, big, &c);
	int hh = yr_int(r, n, "height", 1, big, &h);
	int hw = yr_int(r, n, "width", 1, big, &w);
	int ht = yr_int(r, n, "tokens", 1, big, &t);
	int hf = yr_int(r, n, "features", 1, big, &f);
	if (bad || hc < 0 || hh < 0 || hw < 0 || ht < 0 || hf < 0)
		return -1;
	if (hc && hh && hw && !ht && !hf)
		*s = (struct shape){SHAPE_IMAGE, {c, h, w}};
	else if (ht && hf && !hc && !hh && !hw)
		*s = (struct shape){SHAPE_SEQ, {t, f, 0}};
	else if (ht && !hf && !hc && !hh && !hw)
		*s = (struct shape){SHAPE_IDS, {t, 0, 0}};
	else {
		yr_error(r, n, NULL,
			 "'input' is {channels, height, width} for an image, {tokens, features} for vectors or {tokens} for token ids");
		return -1;
	}
	if (shape_elements(s) > MODEL_MAX_TENSOR_ELEMENTS) {
		yr_error(r, n, NULL,
			 "'input' has %.3g elements per sample, beyond the %.3g gpuplan handles",
			 shape_elements(s), MODEL_MAX_TENSOR_ELEMENTS);
		return -1;
	}
	return 0;
}

/* ---- the file ---- */

static const struct yfield model_fields[] = {
	{"schema", true}, {"name", true}, {"kind", true},
	{"description", false}, {"source", false}, {"transformer", false},
	{"input", false}, {"ops", false}, {NULL, false},
};

/* Keys that belong to one kind only. */
static int check_kind_keys(struct yread *r, const struct ynode *root,
			   enum model_kind kind)
{
	static const char *const kinds[] = {"transformer", "graph", "block"};
	const struct { const char *key; bool allowed[3]; } rules[] = {
		{"transformer", {true, false, false}},
		{"input", {false, true, false}},
		{"ops", {false, true, true}},
	};
	int bad = 0;
	for (size_t i = 0; i < 3; i++) {
		const struct ynode *n = ymap_get(root, rules[i].key);
		if (n && !rules[i].allowed[kind]) {
			yr_error(r, n, NULL, "'%s' does not belong in a %s model",
				 rules[i].key, kinds[kind]);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

static int read_body(struct model_reader *mr, const struct ynode *root,
		     struct model *m)
{
	struct yread *r = &mr->r;
	switch (m->kind) {
	case MODEL_TRANSFORMER:
		return read_transformer(r, root, &m->tf);
	case MODEL_GRAPH: {
		int bad = read_input(r, root, &m->input) < 0;
		bad |= read_ops_list(mr, root, "ops", &m->ops, &m->n_ops) < 0;
		return bad ? -1 : 0;
	}
	case MODEL_BLOCK:
		return read_ops_list(mr, root, "ops", &m->ops, &m->n_ops);
	}
	return -1;
}

/* The reader's read_file hook (model_read.h): a model file, or a block
 * file an include reads. */
static int model_read_file(struct model_reader *mr, const char *path,
			   const char *shown, struct model *m)
{
	struct ytree t;
	const char *file = model_reader_add_file(mr, file_shown(shown));
	if (ytree_load(&t, path, file, mr->r.errs) < 0) {
		ytree_free(&t);
		return -1;
	}
	struct yread r = {.file = file, .errs = mr->r.errs};
	struct yread saved = mr->r;
	mr->r = r;
	int bad = 0;
	if (yr_check_schema(&r, t.root, MODEL_SCHEMA, "model file") < 0) {
		mr->r = saved;
		ytree_free(&t);
		return -1;
	}
	bad |= yr_check_keys(&r, t.root, "a model file", model_fields) > 0;
	bad |= yr_name(&r, t.root, "name", &m->name) < 0;
	bad |= yr_string(&r, t.root, "description", &m->description) < 0;
	bad |= read_sources(&r, t.root, "the model", &m->sources) < 0;
	static const char *const kinds[] = {"transformer", "graph", "block"};
	int kind = -1;
	int rk = read_word(&r, t.root, "kind", kinds, 3, &kind);
	if (rk == 1) {
		m->kind = (enum model_kind)kind;
		bad |= check_kind_keys(&r, t.root, m->kind) < 0;
		bad |= read_body(mr, t.root, m) < 0;
	}
	bad |= rk <= 0;
	mr->r = saved;
	ytree_free(&t);
	return bad ? -1 : 0;
}

int model_load(struct model *m, const char *path, struct gp_errors *errs)
{
	return model_load_named(m, path, path, errs);
}

int model_load_named(struct model *m, const char *path, const char *shown,
		     struct gp_errors *errs)
{
	memset(m, 0, sizeof(*m));
	m->file = term_escape_dup(shown, 0);	/* printed: see term_safe.h */
	struct model_reader mr = {.r = {.file = shown, .errs = errs}, .root = m,
				  .read_file = model_read_file};
	strmap_init(&mr.block_index);
	size_t before = gp_errors_count(errs);
	/* Its real folder bounds what it may include (model_include.c). */
	char real[PATH_MAX];
	bool found = realpath(path, real) != NULL;
	if (found)
		mr.root_dir = path_dir(real);
	include_stack_push(&mr, found ? real : path);
	model_read_file(&mr, path, shown, m);
	model_reader_free(&mr);
	if (gp_errors_count(errs) == before && m->kind == MODEL_BLOCK) {
		gp_errors_add(errs, shown, 0, 0,
			      "include it from a graph model with '- include: FILE'",
			      "a block file is not a model by itself");
	}
	if (gp_errors_count(errs) == before)
		model_check_op_count(m, MODEL_MAX_OPS, "a model may have",
				     NULL, errs);
	return gp_errors_count(errs) > before ? -1 : 0;
}

char *model_find(const char *arg, char **shown)
{
	*shown = xstrdup(arg);
	if (access(arg, F_OK) == 0 || strchr(arg, '/'))
		return xstrdup(arg);
	char *data = data_dir_find();
	char *p = data ? xasprintf("%s/profiles/models/%s.yaml", data, arg)
		       : NULL;
	free(data);
	if (!p || access(p, F_OK) != 0) {
		free(p);
		return xstrdup(arg);
	}
	free(*shown);
	*shown = xasprintf("profiles/models/%s.yaml", arg);
	return p;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **model_shipped_files(const char *data, size_t *n)
{
	char *dir = xasprintf("%s/profiles/models", data);
	DIR *d = opendir(dir);
	char **v = NULL;
	*n = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0) {
			v = xrealloc(v, (*n + 1) * sizeof(char *));
			v[(*n)++] = xstrdup(e->d_name);
		}
	}
	if (d)
		closedir(d);
	free(dir);
	if (*n)
		qsort(v, *n, sizeof(char *), compare_names);
	return v;
}

/*
 * model.h - a model description as written in profiles/models/ (see the
 * README there), loaded strictly.
 *
 * A description is either a transformer configuration or a tree of op
 * specifications (ops, `repeat:` and `residual:` blocks, included block
 * files).  Shapes, FLOPs and bytes are not stored here: model_build()
 * derives them for a given sequence length (graph.h).
 *
 * Work and memory are bounded by limits checked while reading, before
 * anything is built (each refusal is a located error):
 *   - an included file is read and parsed once, however often it is
 *     included (the block cache below); at most MODEL_MAX_FILES files,
 *     nested at most MODEL_MAX_INCLUDE_DEPTH deep (model_read.h);
 *   - at most MODEL_MAX_OPS op entries are read over all files, and the
 *     ops the description expands to (repeats multiplied out, includes
 *     counted each time) are counted with saturating arithmetic and held
 *     to MODEL_MAX_OPS before model_build() makes any (op_count.h);
 *   - every per-sample tensor and every weight stays within
 *     MODEL_MAX_TENSOR_ELEMENTS (inputs and transformer shapes at load,
 *     graph shapes where they are built), so every count is finite.
 * Includes may only reach regular files inside the model's own folder
 * (the folder of the file loaded, and below) or the shipped models
 * folder; content of a file that is not a gpuplan model is never quoted.
 *
 * Ownership: struct model owns everything it holds, included files too;
 * free with model_free(), also after a failed load.  An include entry's
 * body is borrowed from the model's block cache (one copy per file).
 */
#ifndef GPUPLAN_MODEL_MODEL_H
#define GPUPLAN_MODEL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/provenance.h"
#include "op.h"

#define MODEL_SCHEMA "gpuplan/model/v1"
#define MODEL_MAX_REPEAT 10000
#define MODEL_MAX_WITH 64	/* tensors one add/mul/concat may name */
#define MODEL_MAX_OPS 1000000	/* ops one model may expand to */
#define MODEL_MAX_FILES 100	/* files one model may read, itself included */
#define MODEL_MAX_INCLUDE_DEPTH 16	/* includes within includes */
/* 2^40 elements in one tensor of one sample (or one weight): far past any
 * real model, and small enough that no count below overflows a long or
 * loses a double's precision. */
#define MODEL_MAX_TENSOR_ELEMENTS 1099511627776.0
/* Attention's heads x S x S score matrix, counted as an unfused kernel's
 * scratch: 2^50, so 32 heads reach 5.9 million tokens (a fused kernel
 * never holds it; the memory model counts it, and must stay finite). */
#define MODEL_MAX_SCORE_ELEMENTS 1125899906842624.0
/* An expanded op count past every limit (counts saturate here). */
#define MODEL_OPS_MANY UINT64_MAX

enum model_kind { MODEL_TRANSFORMER, MODEL_GRAPH, MODEL_BLOCK };

enum tf_arch { TF_DECODER, TF_ENCODER };
enum ffn_kind { FFN_GELU, FFN_SWIGLU };
enum norm_kind { NORM_LAYERNORM, NORM_RMSNORM };
enum pos_kind { POS_ROPE, POS_LEARNED };

struct transformer_config {
	enum tf_arch arch;
	long layers, hidden, heads, kv_heads, ffn, vocab, max_seq, type_vocab;
	enum ffn_kind ffn_kind;
	enum norm_kind norm;
	enum pos_kind positions;
	bool tied_embeddings, bias, pooler;
	/* dropout probabilities (0: none): on the attention probabilities
	 * and on the hidden states after attention and after the MLP */
	double attention_dropout, hidden_dropout;
};

enum spec_kind { SPEC_OP, SPEC_REPEAT, SPEC_RESIDUAL, SPEC_INCLUDE };

/* One entry of an `ops:` list, as written. */
struct op_spec {
	enum spec_kind spec;
	struct origin at;
	enum op_kind op;		/* SPEC_OP */
	struct op_params p;
	enum op_kind fused_norm;	/* conv/linear `norm:`; OP_KIND_COUNT: none */
	enum op_kind fused_act;		/* conv/linear `act:`; OP_KIND_COUNT: none */
	char *name, *from;		/* may be NULL */
	char **with;			/* add/mul/concat inputs */
	size_t n_with;
	long repeat;			/* SPEC_REPEAT */
	struct op_spec *body;		/* repeat, residual, include */
	size_t n_body;
	struct op_spec *shortcut;	/* residual; NULL: identity */
	size_t n_shortcut;
	char *include_path;		/* SPEC_INCLUDE, as written */
	uint64_t ops;			/* ops it expands to (saturating) */
};

/* A file read for an include, kept so every further include of it reuses
 * the entries instead of reading the file again. */
struct model_block {
	char *real;			/* its real path: the cache key */
	struct op_spec *ops;
	size_t n_ops;
	uint64_t count;			/* ops the list expands to */
	bool ok;			/* read without problems */
};

struct model {
	char *name, *description;
	char *file;			/* the path it was loaded from */
	enum model_kind kind;
	struct sources sources;
	struct transformer_config tf;	/* MODEL_TRANSFORMER */
	struct shape input;		/* MODEL_GRAPH */
	struct op_spec *ops;		/* MODEL_GRAPH, MODEL_BLOCK */
	size_t n_ops;
	char **files;			/* every file read, for messages */
	size_t n_files;
	struct model_block *blocks;	/* included files, each read once */
	size_t n_blocks;
};

/*
 * Loads path and every file it includes.  Every problem is added to errs
 * with its location; returns 0 when there were none, else -1.
 */
int model_load(struct model *m, const char *path, struct gp_errors *errs);
/* The same, naming the file `shown` in messages and output (a shipped
 * model is "profiles/models/NAME.yaml" wherever the data folder is). */
int model_load_named(struct model *m, const char *path, const char *shown,
		     struct gp_errors *errs);
void model_free(struct model *m);
/* Frees n op entries and what they own, their nested lists too (an
 * include's body is borrowed from the block cache and left alone). */
void op_specs_free(struct op_spec *v, size_t n);

/*
 * A model named on a command line: the path as given when it exists or
 * holds a '/', else the shipped profiles/models/ARG.yaml when there is
 * one, else the argument itself (whose load then says it is missing).
 * *shown is how messages and output name it.  Both are the caller's.
 */
char *model_find(const char *arg, char **shown);

/* The file names ("llama-2-7b.yaml") in DATA/profiles/models, sorted;
 * *n of them.  The array and each name are the caller's to free. */
char **model_shipped_files(const char *data, size_t *n);

/* True for models whose samples are token sequences (transformers, and
 * graphs whose input is tokens): FLOPs are then also quoted per token. */
bool model_is_sequence(const struct model *m);

#endif

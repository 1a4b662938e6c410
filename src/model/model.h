/*
 * model.h - a model description as written in profiles/models/ (see the
 * README there), loaded strictly.
 *
 * A description is either a transformer configuration or a tree of op
 * specifications (ops, `repeat:` and `residual:` blocks, included block
 * files).  Shapes, FLOPs and bytes are not stored here: model_build()
 * derives them for a given sequence length (graph.h).
 *
 * Ownership: struct model owns everything it holds, included files too;
 * free with model_free(), also after a failed load.
 */
#ifndef GPUPLAN_MODEL_MODEL_H
#define GPUPLAN_MODEL_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/provenance.h"
#include "op.h"

#define MODEL_SCHEMA "gpuplan/model/v1"
#define MODEL_MAX_REPEAT 10000
#define MODEL_MAX_WITH 64	/* tensors one add/mul/concat may name */

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
	char *include_path;		/* SPEC_INCLUDE, as resolved */
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

/* True for models whose samples are token sequences (transformers, and
 * graphs whose input is tokens): FLOPs are then also quoted per token. */
bool model_is_sequence(const struct model *m);

#endif

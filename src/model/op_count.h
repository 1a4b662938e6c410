/*
 * op_count.h - how many ops a description expands to, known before any op
 * is built, and the entry to blame when that is too many.
 *
 * Every entry's count is computed once, when it is read (op_spec_load.c,
 * model_include.c), from its children's, so counting costs one step per
 * entry read however the repeats and includes multiply.  Counts saturate
 * at MODEL_OPS_MANY.
 *
 * Ownership: plain values; errors go to the caller's gp_errors.
 */
#ifndef GPUPLAN_MODEL_OP_COUNT_H
#define GPUPLAN_MODEL_OP_COUNT_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "model.h"

/* The ops a loaded model expands to (MODEL_OPS_MANY past every limit). */
uint64_t model_op_count(const struct model *m);

/*
 * When m expands to more than `limit` ops, adds one error at the entry
 * that takes it past (the innermost repeat, include, residual or op whose
 * own part stays within the limit) saying `who` ("a model may have",
 * "--ops lists") and `hint` (NULL: what to change there), and returns -1;
 * else 0.
 */
int model_check_op_count(const struct model *m, uint64_t limit,
			 const char *who, const char *hint,
			 struct gp_errors *errs);

/* Expanded op counts, saturating at MODEL_OPS_MANY. */
uint64_t ops_add(uint64_t a, uint64_t b);
uint64_t ops_mul(uint64_t a, uint64_t b);
/* The ops one entry expands to, from its children's counts. */
uint64_t spec_op_count(const struct op_spec *s);
uint64_t list_op_count(const struct op_spec *v, size_t n);

#endif

/*
 * precision.h - numeric precisions: their names and their element sizes.
 *
 * Catalogs quote peaks per precision; models store weights and activations
 * at one.  fp64_tensor is a peak category (FP64 on tensor cores), stored
 * like fp64.
 */
#ifndef GPUPLAN_CORE_PRECISION_H
#define GPUPLAN_CORE_PRECISION_H

#include <stdbool.h>

enum precision {
	PREC_FP64,
	PREC_FP64_TENSOR,
	PREC_FP32,
	PREC_TF32,
	PREC_FP16,
	PREC_BF16,
	PREC_FP8,
	PREC_INT8,
	PREC_COUNT
};

/* "fp64", "bf16", ... as written in files and on the command line. */
const char *precision_name(enum precision p);
/* Returns -1 when the name is unknown. */
int precision_from_name(const char *name);
/* Integer precisions are quoted in OPS, floating point in FLOP/s. */
bool precision_is_integer(enum precision p);
/* Bytes per stored element: tf32 is stored as fp32 (4), fp8 and int8 as 1. */
int precision_bytes(enum precision p);
/* Bytes per activation element of a training run at p: FP8 training keeps
 * activations at 16 bits and runs only its linear layers' products in FP8
 * (src/hwmodel/roofline.c says whose practice that is); an upper bound, as
 * the FP8 copies of linear inputs kept for the backward pass are smaller. */
int precision_training_activation_bytes(enum precision p);

#endif

/*
 * train_range.h - how far a training step's time may fall from the
 * planner's figure: each assumption the step rests on has a stated range
 * (efficiency.h and the sources beside each figure), carried through the
 * step's own breakdown to a low and a high step time at a chosen
 * probability.
 *
 * The ranges, each read as a 90% interval of its figure:
 *   large-GEMM ceiling   0.948 to 1/0.948 of the planner's: it takes
 *                        MAMF's best-shape figure at 0.948 (Horace He's
 *                        A100 8192^3 GEMM with random inputs, 257 against
 *                        MAMF's 271.2 TFLOP/s); the best shape itself at
 *                        one end, as far below at the other
 *   memory bandwidth     0.70 to 0.90 of the datasheet (assumption: the
 *                        planner's 0.80 +- 0.10)
 *   network and links    0.77 to 0.83 of line rate: the nccl-tests runs
 *                        collective.c anchors its 0.80 to
 *   overlap slowdown     0 to 40%: none, and the largest the overlap
 *                        study measured (arXiv 2507.03114)
 *   straggler spread     half to twice the 1.76% coefficient of
 *                        variation (assumption: one observation)
 *   attention's kernel   0.47 to 2 times the planner's attention time: the
 *                        kernels of the FlashAttention-2 benchmark
 *   memory-bound kernels 1 to 2 times: fused as the planner prices them,
 *                        or unfused (Liger Kernel's 2-3x)
 * Each range moves the part of the step it governs (the compute-bound
 * part, the memory-bound part and the optimizer, the exposed
 * communication, the overlap penalty, the pace of the slowest GPU); the
 * moves add in quadrature, as for independent errors, and scale from the
 * 90% reading to the level asked with the normal quantiles.
 *
 * What no source bounds is not in the range and is said so where ranges
 * are printed: the software version a run used.
 */
#ifndef GPUPLAN_TRAIN_TRAIN_RANGE_H
#define GPUPLAN_TRAIN_TRAIN_RANGE_H

#include "hwmodel/efficiency.h"
#include "train/train_step.h"

/* Factors on st->total: *low <= 1 <= *high, with the stated ranges
 * multiplied by scale (train_range_scale() of the probability wanted). */
void train_step_range(const struct step *st, const struct efficiency *e,
		      double scale, double *low, double *high);

/* What a stated range (read as a 90% interval) is multiplied by at
 * probability level: Phi^-1(0.5 + level/2) / Phi^-1(0.95). */
double train_range_scale(double level);

/* One sentence naming the ranges and their sources, for a plan's
 * assumptions. */
extern const char train_range_from[];

#endif

/*
 * prom.h - a measured profile's summaries in the Prometheus text
 * exposition format (version 0.0.4), for a node exporter's textfile
 * collector or a push gateway.
 *
 * Three gauge families per unit: the median rate and the ends of its 95%
 * interval, e.g.
 *
 *   gpuplan_bench_bytes_per_second{device="cpu",suite="membw",
 *       kernel="triad",bytes="1048576",threads="16"} 1.2e+11
 *   gpuplan_bench_flops_per_second{...,precision="fp64",m="1024",...}
 *   gpuplan_bench_ci95_low_bytes_per_second{...}, ..._ci95_high_...
 *                        the interval's ends (the unit ends the name)
 *
 * Rates are in base units per second: bytes, launches, integer
 * operations (ops) and floating-point operations (flops: the count, as
 * bytes is, so FLOP/s is flops_per_second; "flops" alone would read as
 * the rate to some and the count to others).
 *
 * A GPU's figures carry gpu="N", its index, as dcgm-exporter's do.
 * A parameter that does not apply to the figure's suite has no label.
 * Families are contiguous, as the format requires; numbers are %.17g.
 *
 * Ownership: nothing is kept.
 */
#ifndef GPUPLAN_BENCH_PROM_H
#define GPUPLAN_BENCH_PROM_H

#include <stddef.h>
#include <stdio.h>

#include "profile/profile.h"

void bench_prom_emit(const struct bench_profile *p, FILE *f);

/* Writes path atomically.  Returns 0, or -1 with why. */
int bench_prom_write(const struct bench_profile *p, const char *path,
		     char *why, size_t len);

#endif

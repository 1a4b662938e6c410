/*
 * verdicts.h - bench's reference-baseline verdicts (profile/baseline.h):
 * at the end of a GPU bench, one stderr line per figure a baseline
 * covers, saying whether the measured figure is what healthy parts of
 * that accelerator reach:
 *
 *   gpuplan bench: baseline: HBM bandwidth at 64% of datasheet, healthy
 *   parts reach 84–89%: check clocks and throttling
 *
 * The figures judged: HBM bandwidth (the best copy or triad at the
 * largest footprint measured: smaller ones may sit in L2), GEMM per
 * precision (the best size), host-to-device pinned (the best size).  The
 * device's name is matched to the catalog (catalog/device_match.h).  A
 * CPU has no baselines, and the line says so.
 *
 * Ownership: struct bench_verdicts owns the catalog and baselines it
 * loaded.
 */
#ifndef GPUPLAN_BENCH_VERDICTS_H
#define GPUPLAN_BENCH_VERDICTS_H

#include <stdbool.h>
#include <stdio.h>

#include "catalog/catalog.h"
#include "profile/baseline.h"
#include "profile/profile.h"

struct bench_verdicts {
	bool loaded;		/* false: no verdicts (note already said why) */
	struct catalog catalog;
	struct baselines baselines;
};

/*
 * Before anything is measured, so a bad file costs nothing: `file`
 * (--baselines) or the shipped baselines, with the shipped catalog, and
 * baselines_check() between them.  A bad --baselines file is an input
 * error: 2 after printing every problem.  The shipped files missing (no
 * data folder) only costs the verdicts: a note, and 0.
 */
int bench_verdicts_load(struct bench_verdicts *v, const char *file);
void bench_verdicts_free(struct bench_verdicts *v);

/* The verdict lines for p, on err. */
void bench_verdicts_say(const struct bench_verdicts *v,
			const struct bench_profile *p, FILE *err);

#endif

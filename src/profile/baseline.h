/*
 * baseline.h - reference baselines: the fraction of its datasheet figure a
 * healthy accelerator reaches (catalogs/baselines/accelerators.yaml,
 * schema gpuplan/baselines/v1), and the verdict on a measured figure:
 *
 *   HBM bandwidth at 64% of datasheet, healthy parts reach 84–89%:
 *   check clocks and throttling
 *
 * Three figures, each against the catalog's datasheet (catalog.h):
 *   BASE_HBM    STREAM-like copy or triad, against memory_bandwidth;
 *   BASE_GEMM   dense matrix multiply at one precision, against
 *               peak_dense of that precision;
 *   BASE_H2D    pinned host-to-device copy, against one direction of the
 *               host interface (half its bidirectional bandwidth).
 * Every range names the published measurements it comes from; the loader
 * is strict (file:line:column errors) and baselines_check() holds each
 * measurement's fraction of the datasheet to its range.  bench prints the
 * verdicts at the end of a GPU bench; diagnose can ask the same question
 * with baseline_verdict().
 *
 * Ownership: struct baselines owns its entries and strings; verdicts
 * point into it and into the catalog, which must outlive them.
 */
#ifndef GPUPLAN_PROFILE_BASELINE_H
#define GPUPLAN_PROFILE_BASELINE_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "core/error.h"
#include "core/provenance.h"

#define BASELINES_SCHEMA "gpuplan/baselines/v1"

enum baseline_figure { BASE_HBM, BASE_GEMM, BASE_H2D, BASE_FIGURES };

/* "hbm_bandwidth", "gemm", "host_to_device": the file's names. */
const char *baseline_figure_key(enum baseline_figure f);
/* "HBM bandwidth", "bf16 GEMM", "host-to-device (pinned)": for people.
 * precision: enum precision for BASE_GEMM, else ignored. */
void baseline_figure_words(enum baseline_figure f, int precision, char *buf,
			   size_t len);

struct baseline_measurement {
	double value;		/* B/s or FLOP/s (OP/s for int8) */
	char *what;		/* the part and how it was measured */
	struct origin at;
};

struct baseline_entry {
	char *accelerator;	/* a catalog accelerator's name */
	enum baseline_figure figure;
	int precision;		/* enum precision for BASE_GEMM, else -1 */
	double low, high;	/* healthy fractions of the datasheet figure */
	struct baseline_measurement *measured;
	size_t n_measured;
	char *note;		/* may be NULL */
	struct sources sources;
	struct origin at;
};

struct baselines {
	char *file;		/* as shown in messages */
	struct baseline_entry *v;
	size_t n;
};

/* Loads path (shown as `shown`).  0, or -1 with every problem in errs
 * (b is then safe to free but must not be used). */
int baselines_load(struct baselines *b, const char *path, const char *shown,
		   struct gp_errors *errs);
/* The same from memory (tests, the fuzz harness). */
int baselines_parse(struct baselines *b, const char *name, const char *buf,
		    size_t len, struct gp_errors *errs);
/* DATA_DIR/catalogs/baselines/accelerators.yaml. */
int baselines_load_shipped(struct baselines *b, const char *data_dir,
			   struct gp_errors *errs);
void baselines_free(struct baselines *b);

/* Against catalog c: every accelerator named exists (did-you-mean), has
 * the datasheet figure, and every measurement's fraction of it lies in
 * its entry's range.  Returns the number of problems added to errs. */
int baselines_check(const struct baselines *b, const struct catalog *c,
		    struct gp_errors *errs);

/* The datasheet figure f of a (B/s or op/s), 0 when the catalog has none. */
double baseline_datasheet(const struct accelerator *a, enum baseline_figure f,
			  int precision);

enum verdict_kind {
	VERDICT_NONE,		/* no baseline (or no datasheet figure) */
	VERDICT_LOW,		/* below the healthy range */
	VERDICT_NORMAL,		/* within it */
	VERDICT_HIGH,		/* above what the published parts reached */
};

struct baseline_verdict {
	enum verdict_kind kind;
	double fraction;		/* measured / datasheet; valid unless NONE */
	const struct baseline_entry *entry;	/* NULL for NONE */
	char text[400];			/* the sentence, without a newline */
};

/* The verdict of e on `measured` given the datasheet figure (> 0): the
 * arithmetic alone, for the unit tests. */
void baseline_judge(const struct baseline_entry *e, double datasheet,
		    double measured, struct baseline_verdict *v);

/*
 * The verdict on figure f (at precision, for GEMM) measured at `measured`
 * (B/s or op/s) on the catalog accelerator named `accelerator`.  Always
 * fills v; VERDICT_NONE says why in its text (no such accelerator, no
 * datasheet figure, no published baseline).
 */
void baseline_verdict(const struct baselines *b, const struct catalog *c,
		      enum baseline_figure f, int precision, double measured,
		      const char *accelerator, struct baseline_verdict *v);

#endif

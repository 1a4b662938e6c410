/*
 * outcome.h - records of completed training runs (`schema:
 * gpuplan/outcome/v1`): what was trained, on what hardware, split how,
 * what was measured, and where it was published.  `gpuplan backtest`
 * holds the planner against them (backtest.h); the format is documented in
 * README.md, section "Backtest".
 *
 * Loading is strict, as for every gpuplan file: every problem is reported
 * with file:line:column, and the load fails.  The catalog is needed to
 * load (an outcome names a catalog instance, or an accelerator of the
 * catalog for hardware described inline), and must outlive the file.
 *
 * Units: measurements are SI (seconds, FLOP/s, tokens per second, a
 * fraction for MFU); gpu_hours and days are counts of hours and days, as
 * written.
 *
 * Ownership: a struct outcome_file owns its records, their strings, their
 * training workloads and the models those name (in wf).  Free with
 * outcome_file_free(), also after a failed load.
 */
#ifndef GPUPLAN_BACKTEST_OUTCOME_H
#define GPUPLAN_BACKTEST_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog/catalog.h"
#include "serve/cbatch.h"
#include "serve/dbatch.h"
#include "core/error.h"
#include "core/provenance.h"
#include "workload/workload.h"

#define OUTCOME_SCHEMA "gpuplan/outcome/v1"
/* The tolerance a row is held to when its record gives none (fractions):
 * a training figure or a serving throughput within 15%, a serving
 * latency (TTFT, TPOT, end to end) within 20% - the margins the serving
 * issue set, latency being the noisier measurement. */
#define OUTCOME_DEFAULT_TOLERANCE 0.15
#define OUTCOME_LATENCY_TOLERANCE 0.20
/* The largest batch a batched record may give: the planner's largest
 * (serve.h, 2^(SERVE_BATCHES - 1)). */
#define OUTCOME_MAX_BATCH 256

/* What a record measured; the order is the order rows are printed in.
 * Training records measure the first six, serving records the rest. */
enum measure {
	MEASURE_STEP_TIME,	/* s per optimizer step */
	MEASURE_FLOPS_PER_GPU,	/* FLOP/s per GPU, counted as `flops_counted` */
	MEASURE_TOKENS_PER_S,	/* tokens per second, whole cluster */
	MEASURE_MFU,		/* a fraction of the datasheet peak */
	MEASURE_GPU_HOURS,	/* GPU-hours of the whole run (a count) */
	MEASURE_DAYS,		/* days of the whole run (a count) */
	MEASURE_OUTPUT_TOKENS_PER_S,	/* generated tokens per second */
	MEASURE_TOTAL_TOKENS_PER_S,	/* prompt and generated tokens per second */
	MEASURE_REQUESTS_PER_S,	/* completed requests per second */
	MEASURE_SAMPLES_PER_S,	/* images (or sequences) per second, of a
				 * batch-served model */
	MEASURE_TTFT_MEAN,	/* s, arrival to first token */
	MEASURE_TTFT_P50,
	MEASURE_TTFT_P99,
	MEASURE_TPOT_MEAN,	/* s per output token after the first */
	MEASURE_TPOT_P50,
	MEASURE_TPOT_P99,
	MEASURE_E2E_MEAN,	/* s, arrival to last token */
	MEASURE_E2E_P50,
	MEASURE_E2E_P99,
	MEASURE_COUNT
};
#define MEASURE_FIRST_SERVING MEASURE_OUTPUT_TOKENS_PER_S

/* "step_time", ...: the key in the file and in the JSON. */
const char *measure_name(enum measure m);
/* A duration of a served request (ttft_*, tpot_*, e2e_*). */
bool measure_is_latency(enum measure m);

/* How a published FLOP/s figure was counted. */
enum flops_counting {
	COUNT_MEGATRON_2021,	/* Narayanan et al. 2021, eq. (3) */
	COUNT_MODEL,		/* 3 x forward FLOPs of the model's graph */
	COUNT_HARDWARE,		/* 4 x forward under full recompute, else 3x */
};
const char *flops_counting_name(enum flops_counting c);

struct outcome_source {
	char *title, *url, *where, *retrieved;	/* where may be NULL */
};

struct outcome_value {
	bool has;
	double v;		/* SI, or a count (see enum measure) */
	struct origin at;	/* the value as written */
	char *text;		/* as written, for messages and tables */
};

/* A serving record's engine and traffic (`engine:` and `load:`).  A
 * model that generates tokens runs in a continuous-batching engine
 * (cbatch.h); any other (an image model, an encoder) is batched whole,
 * as Triton's dynamic batcher or TensorRT's trtexec runs it (dbatch.h). */
struct outcome_serving {
	long tp;		/* tensor-parallel degree of one replica */
	long max_seqs;		/* live sequences at most */
	long token_budget;	/* tokens per iteration at most */
	bool budget_stated;	/* the record gives it (else the engine's
				 * default where known, else
				 * ENGINE_DEFAULT_BUDGET) */
	char *engine;		/* "vllm", "lmdeploy", ... (as written) */
	/* the engine's defaults at the version named, with the record's
	 * `settings:` (engine.h); e NULL when gpuplan's table has no such
	 * engine or version (the planner's assumptions then apply) */
	struct engine_config cfg;
	struct cb_load load;	/* arrivals, clients or rate, requests;
				 * prompt and output from the workload */
	bool batched;		/* batched whole: the fields below */
	long max_batch;		/* samples per batch at most */
	long samples;		/* per request (perf_analyzer -b, trtexec
				 * --batch), 1 unless given */
};

struct outcome {
	char *name;
	struct origin at;		/* the list item */
	struct outcome_source *sources;
	size_t n_sources;
	char *notes;			/* may be NULL */
	bool serving;			/* `serving:` (w is an inference
					 * workload, sv says the traffic) */
	struct outcome_serving sv;
	struct workload *w;		/* `training:` or `serving:`, owned by
					 * the file's wf;
					 * fixed_gpus/fixed_nodes and layout
					 * are set from hardware and layout */
	/* hardware */
	const struct instance *inst;	/* the catalog's, or &inline_inst */
	bool is_inline;
	struct instance inline_inst;	/* accelerator from the catalog; no
					 * price, no source */
	long gpus, nodes;		/* both set: gpus = nodes x inst->gpus */
	bool has_layout;		/* `layout:` given (w->train.layout) */
	/* measured */
	struct outcome_value m[MEASURE_COUNT];
	enum flops_counting counted;	/* with MEASURE_FLOPS_PER_GPU */
	double tolerance;		/* a fraction; 0 when not given (then
					 * outcome_tolerance()'s default) */
	/* `known_miss:` why the planner is known not to reproduce this run
	 * (a mechanism it does not model); NULL: held to its tolerance.
	 * A known miss is printed and counted in the mean like every row,
	 * but --max-error does not fail on it. */
	char *known_miss;
};

struct outcome_file {
	char *file;			/* as shown in messages */
	struct workload_file wf;	/* the records' training workloads */
	struct outcome *v;
	size_t n;
};

/*
 * Loads path against catalog c.  Every problem is added to errs; returns
 * 0 when there were none, else -1 (of must then only be freed).
 */
int outcome_file_load(struct outcome_file *of, const char *path,
		      const struct catalog *c, struct gp_errors *errs);
/* The same, naming the file `shown` in messages. */
int outcome_file_load_as(struct outcome_file *of, const char *path,
			 const char *shown, const struct catalog *c,
			 struct gp_errors *errs);
void outcome_file_free(struct outcome_file *of);

/* The tolerance measurement m of o is held to. */
double outcome_tolerance(const struct outcome *o, enum measure m);

#endif

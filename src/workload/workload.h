/*
 * workload.h - what the planner plans: training runs and inference
 * services, as written in profiles/workloads/ (see the README there).
 * This header is the types' home, with the names of the kinds and of the
 * latency targets; the modules beside it read and show them:
 * workload_file.h (a workload file, loaded strictly, with the model files
 * it names), workload_reader.h (workload items inside outcome records),
 * layout.h (a training `layout:`) and workload_json.h (the JSON form).
 *
 * Units, as everywhere in gpuplan: durations in seconds, sizes in bytes,
 * rates per second; counts (tokens, samples) are plain numbers; money keeps
 * its currency.  A field that was not given and has no default is 0 (or
 * false), and the `has_` flag or the comment beside it says so.
 *
 * Ownership: a struct workload_file owns its workloads, their strings and
 * the models they point at; a model file named by several workloads is
 * loaded once.  Free with workload_file_free() (workload_file.h), also
 * after a failed load.
 */
#ifndef GPUPLAN_WORKLOAD_WORKLOAD_H
#define GPUPLAN_WORKLOAD_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/precision.h"
#include "core/provenance.h"
#include "core/units.h"
#include "model/memory.h"
#include "model/model.h"
#include "workload/engine.h"

#define WORKLOAD_DEFAULT_HOURS_PER_MONTH (730 * 3600.0)	/* s: 8760 h / 12 */
#define WORKLOAD_MAX_HOURS_PER_MONTH (744 * 3600.0)	/* s: a 31-day month */

enum workload_kind { WORKLOAD_TRAINING, WORKLOAD_INFERENCE };

const char *workload_kind_name(enum workload_kind k);	/* "training" */
/* enum optimizer and enum recompute, with their names, are model/memory.h's. */

/*
 * `layout:` in a training workload (or an outcome record): how the work is
 * split, where the team has fixed it.  0 (LAYOUT_UNSET for the flags) in a
 * field: left to the planner's layout search.
 */
enum layout_flag { LAYOUT_UNSET, LAYOUT_OFF, LAYOUT_ON };

struct train_layout {
	long tp, pp, dp;	/* tensor, pipeline, data parallel degrees */
	long micro_batch;	/* samples per GPU per micro-step */
	long interleave;	/* virtual pipeline stages per GPU (v) */
	enum layout_flag sequence_parallel;	/* with tp > 1 (Korthikanti
						 * et al. 2022) */
	enum layout_flag overlap_grad_reduce;	/* off: gradients reduced
						 * after the backward pass;
						 * on: bucketed, overlapped */
	struct origin at;	/* the `layout:` map; line 0: not given */
};

/*
 * `goodput:` in a training workload (or an outcome record): what the team
 * knows of its cluster's failures and checkpoints.  0 in a field: the
 * planner's sourced default (train/goodput.h).
 */
struct goodput_inputs {
	bool off;			/* `goodput: none` or `goodput: 1`: the wall
					 * clock is the productive time */
	double failure_rate;		/* failures per GPU per s */
	double checkpoint_write;	/* s training stops to write one */
	double checkpoint_interval;	/* s of training between two; 0 also
					 * for `optimal` (Young/Daly) */
	double restart;			/* s from a failure to training again,
					 * the lost work apart */
	struct origin at;		/* where its value is written; line 0:
					 * not given */
};

struct training {
	bool by_tokens;		/* `tokens:` was given, else `samples:` */
	double tokens;		/* as written; 0 when by samples */
	double samples;		/* per epoch, as written; 0 when by tokens */
	long epochs;		/* 1 when by tokens */
	long seq;		/* tokens per sample; 0 for non-sequence models */
	long global_batch;	/* samples (sequences) per optimizer step */
	/* derived: */
	double total_samples;	/* samples processed over the whole run */
	double total_tokens;	/* total_samples x seq; 0 for non-sequence */
	double steps;		/* optimizer steps: ceil(total_samples / batch) */
	enum optimizer optimizer;
	int zero;		/* ZeRO stage, 0..3; see zero_auto */
	enum recompute recompute;	/* see recompute_auto */
	bool zero_auto;		/* `zero: auto`: the planner chooses the stage */
	bool recompute_auto;	/* `recompute: auto`: the planner chooses */
	long max_gpus, max_tp, max_pp;	/* 0: no limit given */
	/* `instance: NAME` fixes the instance type (case-blind, as `plan
	 * --instance`); NULL: every instance of the catalog. */
	char *instance;
	struct origin instance_at;
	/* `gpus: N` or `nodes: N` fixes the cluster size ("how long on the
	 * 2,048 GPUs we have"); 0: searched.  At most one is given. */
	long fixed_gpus, fixed_nodes;
	struct train_layout layout;	/* `layout:`; zeros: left to the planner */
	/* `fused_attention:` (default true): the framework runs attention as
	 * one fused kernel (FlashAttention and its kind); false for the
	 * unfused path of earlier frameworks (see hwmodel/efficiency.h). */
	bool fused_attention;
	/* `framework:` (workload/framework.h): its gradient rules, buckets,
	 * ZeRO stages and parallelism limits; the generic entry when none
	 * is named (framework_named false). */
	const struct framework *framework;
	bool framework_named;
	double deadline;	/* s; 0: none */
	bool has_budget;
	struct money budget;	/* a total amount */
	struct origin budget_at;	/* where it was written: a currency with
					 * no exchange rate is reported there */
	bool spot;		/* spot (preemptible) capacity is acceptable */
	bool has_input;
	double decode_time_per_sample;	/* s of one CPU core per sample */
	double bytes_per_sample;	/* B copied host to device per sample */
	struct goodput_inputs goodput;	/* `goodput:`; zeros: the defaults */
};

/* The latency targets a service may set, in the order they are checked
 * and named. */
enum latency_target {
	TARGET_P99,		/* the whole request, p99_latency */
	TARGET_TTFT_P99,	/* time to first token */
	TARGET_TPOT_P99,	/* time per output token after the first */
	TARGET_TTFT_P50,
	TARGET_TPOT_P50,
	TARGET_COUNT
};

struct target_name {
	const char *key;	/* in a workload file: "ttft_p99" */
	const char *label;	/* in sentences: "TTFT p99" */
	const char *json;	/* in a plan: "ttft_p99_target_s" */
	bool per_token;		/* a time per output token (needs 2 out) */
};

const struct target_name *target_name(enum latency_target t);

struct request_trace;			/* trace.h */

struct inference {
	double request_rate;		/* requests per second (a trace's own
					 * mean rate when only it is given) */
	long prompt_tokens;		/* per request, the mean; 0 for
					 * non-sequence models */
	long output_tokens;		/* per request, the mean; 0 likewise */
	/* the shortest and longest (equal when fixed; `prompt_tokens:
	 * {min, max}` draws each request's length uniformly between) */
	long prompt_range[2], output_range[2];
	/* the targets, s (0: none), indexed by enum latency_target; the
	 * token ones for token-generating services only */
	double target[TARGET_COUNT];
	double serving_per_month;	/* s of service a month (730 h) */
	bool has_kv;			/* a sequence model: KV cache applies */
	enum precision kv_precision;	/* valid when has_kv */
	long longest;			/* tokens of the longest request,
					 * prompt + output (the ranges' tops,
					 * or a trace's longest row) */
	/* `trace: FILE` (trace.h): recorded requests replayed in place of
	 * Poisson arrivals (its arrival column) and of the lengths above
	 * (its token columns, which then set them); NULL: none.  Owned by
	 * the workload file. */
	const struct request_trace *trace;
	char *trace_file;		/* as shown in messages */
	/* the trace's gaps are stretched by this to run at request_rate:
	 * its own rate over request_rate (1 when request_rate is not
	 * given, or the trace has no arrivals) */
	double trace_time_scale;
	/* the engine that serves it (`engine:`, `engine_version:`,
	 * `engine_settings:`): its defaults and the settings given; when
	 * the workload names none, the default engine for its model
	 * (ENGINE_DEFAULT_NAME for a decoder, triton otherwise) */
	struct engine_config engine;
	bool engine_named;
};

struct workload {
	char *name;
	enum workload_kind kind;
	char *model_path;		/* as written in the file */
	char *model_file;		/* resolved, as shown in messages */
	const struct model *model;	/* owned by the workload_file */
	enum precision precision;
	struct training train;		/* WORKLOAD_TRAINING */
	struct inference infer;		/* WORKLOAD_INFERENCE */
	struct origin at;		/* the list item */
	struct origin model_at;		/* the `model:` value */
	/* `efficiency: {compute: 0.5, memory: 0.7}`: replaces the planner's
	 * default fractions of the datasheet peak and bandwidth for this
	 * workload (a team that has measured its own).  0: not given. */
	double efficiency_compute, efficiency_memory;
};

struct workload_model;			/* one loaded model file (named_files.h) */
struct workload_trace;			/* one loaded trace file (named_files.h) */

struct workload_file {
	char *file;			/* as shown in messages */
	struct workload *v;
	size_t n;
	struct workload_model *models;
	size_t n_models;
	struct workload_trace *traces;
};

#endif

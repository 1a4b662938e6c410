/*
 * serve.h - sizing an inference service: how many replicas of a model, at
 * which batch size, on which instance, meet a p99 latency target, and what
 * that costs a month.
 *
 * plan_inference() is called for every instance type, so the expensive
 * part (building the model's graphs, sorting their ops, the memory table)
 * is done once per workload by serve_prepare(); per instance the roofline
 * is then evaluated in O(log ops) per batch size (serve_prep.c says how).
 *
 * Ownership: serve_prepare() returns a struct the caller frees with
 * serve_prep_free(); it points at (and does not own) the workload, which
 * must outlive it, and at the accelerators of the catalog plan_inference()
 * is given, which must outlive it too.
 */
#ifndef GPUPLAN_PLAN_SERVE_H
#define GPUPLAN_PLAN_SERVE_H

#include <stddef.h>

#include "plan.h"

#define SERVE_BATCHES 9		/* batch sizes 1, 2, 4, ..., 256 */
#define SERVE_TOKENS 14		/* a pass's curves: 1, 2, ..., 8192 samples
				 * (tokens of an LLM iteration) */
#define SERVE_TPS 7		/* tensor-parallel degrees 1, 2, ..., 64 */
/* A batch-served replica's simulation (dbatch.h): 20,000 requests, 18,000
 * measured, put the p99 between the 17,802nd and 17,838th of them (95%),
 * a few percent of its value for the services planned; a fixed seed gives
 * the same plan every run. */
#define SERVE_SIM_REQUESTS 20000
#define SERVE_SIM_SEED 20261201u

struct serve_prep;

/*
 * Builds what plan_inference() needs for one inference workload: the
 * prefill and decode graphs (token-generating decoders) or the one forward
 * graph, each op's FLOPs and elements per batch size sorted by arithmetic
 * intensity, and memory per GPU per batch size and tensor-parallel degree.
 * Returns NULL with a reason in why when the model cannot be built.
 */
struct serve_prep *serve_prepare(const struct workload *w, char *why,
				 size_t whylen);
void serve_prep_free(struct serve_prep *sp);
/* Points sp at w, a workload with the same model, precisions and token
 * counts as the one sp was made for (prep_cache.c). */
void serve_prep_rebind(struct serve_prep *sp, const struct workload *w);

/*
 * Every sensible way to serve w on instance type `in`, appended to r: one
 * option on whole GPUs (tensor parallel where the model needs it) and one
 * per MIG profile that holds the model.  sp comes from serve_prepare(w).
 *
 * What does not depend on the price is found once per hardware signature
 * (accelerator, GPUs per instance, GPU-to-GPU link) and kept in sp, so a
 * catalog that repeats a machine under many names and prices costs one
 * sizing per machine and a copy and a multiplication per instance.  The
 * kept options hold for one set of efficiencies (s->eff): a call with
 * others finds them again.
 */
void plan_inference(const struct catalog *c, const struct instance *in,
		    const struct workload *w, struct serve_prep *sp,
		    const struct plan_settings *s, struct plan_result *r);

/* ---- the pieces, for tests ---- */

/* One accelerator (or a share of it) as the service time model sees it. */
struct serve_device {
	const struct accelerator *acc;
	enum precision used;	/* the peak used, see roofline_matrix_peak() */
	int elem;		/* bytes per weight or activation element */
	double matrix, vector;	/* FLOP/s after the ceiling and fraction */
	long sms;		/* SMs of the fraction, for the shape factor */
	const struct matrix_eff *shape;	/* the efficiency's curve */
	double bandwidth;	/* B/s after efficiency and fraction */
	long tp;		/* tensor-parallel degree */
	long pp;		/* pipeline stages of an LLM replica (1 unless
				 * set after serve_device_init()) */
	double link;		/* B/s one way between GPUs, after efficiency */
	double graph_gap, stream_gap, stream_floor;	/* s per kernel */
	double iteration_host;	/* s an LLM iteration waits for the host */
};

/*
 * compute_fraction and bandwidth_fraction: 1 for a whole GPU, a MIG slice's
 * shares otherwise; intra: the instance's GPU-to-GPU link (used when
 * tp > 1; may be NULL for tp 1).
 */
void serve_device_init(struct serve_device *d, const struct accelerator *a,
		       enum precision want, const struct efficiency *e,
		       long tp, double compute_fraction,
		       double bandwidth_fraction, const struct link *intra);

/* Fills r->curves for r's recommended option and runner-up (after
 * plan_choose()), with sp prepared for r's workload and the settings the
 * options were planned with. */
void plan_serving_curves(struct serve_prep *sp, const struct plan_settings *s,
			 struct plan_result *r);

/* Fills r->splits for r's recommended option when it is a token service
 * on whole GPUs (after plan_choose()): every split of a replica over its
 * instance's GPUs, sized again as the search sized it. */
void plan_serving_splits(struct serve_prep *sp, const struct plan_settings *s,
			 struct plan_result *r);

/* Seconds one batch of requests takes on one replica: S(b). */
struct serve_time {
	double prefill;		/* the prompt's forward pass (or the one pass) */
	double decode_step;	/* one generated token, KV reads included */
	double kv_read;		/* of which reading the KV cache */
	double comm;		/* tensor-parallel all-reduces, whole request */
	double total;		/* S(b) = prefill + output x decode_step + comm */
	struct time_breakdown split;	/* compute, memory, communication of S(b) */
};

/* S(b) for batch 2^batch_index; batch_index < SERVE_BATCHES. */
void serve_batch_time(const struct serve_prep *sp, const struct serve_device *d,
		      int batch_index, struct serve_time *out);

/*
 * One batch-served replica on d, batching up to max_batch samples (1 to
 * 2^(SERVE_BATCHES - 1)) with no queue delay, under traffic l, as the
 * planner simulates one (dbatch_simulate()'s return); *full gets S of a
 * full batch.  For records of such services (backtest.c).
 */
struct dbatch_load;
struct dbatch_result;
int serve_simulate_batched(const struct serve_prep *sp,
			   const struct serve_device *d, long max_batch,
			   const struct dbatch_load *l, double *full,
			   struct dbatch_result *out);

/*
 * Bytes per GPU to serve batch 2^batch_index with tensor-parallel degree
 * 2^tp_index and elem-byte weights and activations: memory_serving()'s
 * total, from the table serve_prepare() filled.
 */
double serve_memory(const struct serve_prep *sp, int tp_index,
		    int batch_index, int elem);

#endif

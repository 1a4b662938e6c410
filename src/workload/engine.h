/*
 * engine.h - the serving engine as an input: each engine's documented
 * defaults, by version, under the engine's own setting names.
 *
 * An inference workload names `engine:` (vllm, tensorrt-llm, sglang,
 * lmdeploy, triton) and `engine_version:`.  The planner then works with
 * that engine's limits (token budget, live sequences, KV share and page,
 * preemption, overlap, CUDA graphs, chunked prefill, prefix caching) as
 * the engine would set them, and the user overrides any of them by the key
 * the engine itself uses (`max_num_batched_tokens` for vLLM,
 * `max_num_tokens` for TensorRT-LLM, ...).
 *
 * Every value in the table carries its source: version, file and line (or
 * page and section), and the date it was read.  A value that could not be
 * checked in the engine's source at that version is NAN with the source
 * "not verified"; a value the engine computes at start-up (from the model
 * or the GPU) is NAN with the rule said in the source text.  See
 * src/workload/ENGINES.md for the whole table in words.
 *
 * Ownership: everything returned points into a static table, except the
 * text written into a caller's buffer; nothing to free.
 */
#ifndef GPUPLAN_WORKLOAD_ENGINE_H
#define GPUPLAN_WORKLOAD_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

enum engine_kind {
	ENGINE_VLLM,
	ENGINE_TRTLLM,
	ENGINE_SGLANG,
	ENGINE_LMDEPLOY,
	ENGINE_TRITON,
	ENGINE_KINDS
};

/* The settings the planner understands, whatever an engine calls them. */
enum engine_setting {
	ES_TOKEN_BUDGET,	/* tokens one iteration may process */
	ES_MAX_SEQS,		/* sequences live at once */
	ES_KV_FRACTION,		/* share of memory for the KV cache (see kv_base) */
	ES_KV_BLOCK,		/* tokens per KV page */
	ES_PREEMPTION,		/* 1: evict (recompute) when the cache is full;
				   0: admit only what fits to the end */
	ES_HOST_OVERLAP,	/* 1: host scheduling overlaps the GPU's work */
	ES_CUDA_GRAPHS,		/* 1: decode runs as captured CUDA graphs */
	ES_CHUNKED_PREFILL,	/* 1: prompts split across iterations */
	ES_PREFIX_CACHING,	/* 1: cached prompt prefixes are reused */
	ES_PREFIX_HIT_RATE,	/* share of prompt tokens found cached, 0..1 */
	ES_MAX_BATCH,		/* Triton dynamic batcher's largest batch */
	ES_QUEUE_DELAY,		/* Triton's longest wait for a batch, seconds */
	ES_SETTINGS
};

/* What an engine's KV share is a share of: all of the GPU's memory
 * (vLLM's gpu_memory_utilization), or what is free once the weights are
 * loaded (TensorRT-LLM's kv_cache_free_gpu_mem_fraction). */
enum kv_fraction_base {
	KV_OF_TOTAL,		/* weights, buffers and cache together take the
				 * share (vLLM's gpu_memory_utilization) */
	KV_OF_FREE,		/* the cache takes the share of what the weights
				 * and buffers leave */
	KV_CACHE_OF_TOTAL,	/* the cache alone takes the share of all the
				 * memory (LMDeploy 0.1's blocks = total x
				 * cache_max_entry_count / block bytes) */
};

struct engine_default {
	double value;		/* NAN: computed by the engine, or not verified */
	const char *source;	/* version, file:line or page, date read */
};

struct engine_version {
	enum engine_kind kind;
	const char *name;	/* "vllm" */
	const char *version;	/* "0.10.2" */
	enum kv_fraction_base kv_base;
	const char *kv_base_source;
	/* the engine's own key for each setting; NULL: it has no such key */
	const char *native[ES_SETTINGS];
	struct engine_default d[ES_SETTINGS];
	/* bit s set: the native key is in microseconds, the setting in
	 * seconds (Triton's max_queue_delay_microseconds) */
	unsigned native_in_micro;
	/* Scheduling that differs from the mixed iterations the planner
	 * assumes (one forward pass over decodes and prompt chunks): each a
	 * source saying so, or NULL.
	 * separate_prefill: every loop runs the admitted prompts whole in
	 *   prefill passes of their own, then one decode pass (cbatch.h);
	 * budget_is_context: the token budget is the model's context length
	 *   (the engine's session_len), not a number of its own. */
	const char *separate_prefill;
	const char *budget_is_context;
};

/* A workload's engine: the defaults, and which the user set. */
struct engine_config {
	const struct engine_version *e;
	double v[ES_SETTINGS];
	bool given[ES_SETTINGS];
};

/* The engine planned for when a workload names none. */
extern const char *const ENGINE_DEFAULT_NAME;

/* The table entry for name (case-blind; "TensorRT-LLM", "trtllm" and
 * "tensorrt" are one engine) at version (case-blind, a leading 'v'
 * ignored); version NULL: the newest the table holds.  NULL if unknown. */
const struct engine_version *engine_find(const char *name,
					 const char *version);

/* The nearest known engine name to a misspelt one, or NULL. */
const char *engine_did_you_mean(const char *name);

/* The versions the table holds for kind, oldest first, as "0.6.3, 0.10.2"
 * written into buf (cut to len); returns buf. */
const char *engine_versions_text(enum engine_kind k, char *buf, size_t len);

/* The canonical setting an engine's own key names, or -1 when this engine
 * has no such key.  Case-blind; a CLI spelling ("--max-num-seqs") is the
 * same key as the Python one ("max_num_seqs"). */
int engine_setting_of(const struct engine_version *e, const char *native_key);

/* A value given under the engine's own key, in the setting's units. */
double engine_value_from_native(const struct engine_version *e,
				enum engine_setting s, double native);

/* gpuplan's word for a setting ("token_budget"), for messages and JSON. */
const char *engine_setting_name(enum engine_setting s);

/* Whether v may be given for s: token budget an integer >= 16, sequences,
 * pages and batch integers >= 1, KV share in (0, 1], switches 0 or 1, hit
 * rate in [0, 1], queue delay >= 0 seconds.  When not, why says what was
 * expected (at most len bytes). */
bool engine_value_ok(enum engine_setting s, double v, char *why, size_t len);

/* The default of s for this engine on a GPU with gpu_memory_bytes of
 * memory: the table's value, or the engine's own rule where its default
 * depends on the GPU and that rule is verified; NAN where neither is
 * known (the caller then uses its own labelled assumption). */
double engine_default_for(const struct engine_version *e,
			  enum engine_setting s, double gpu_memory_bytes);

/* c holds e's defaults, none marked given. */
void engine_config_init(struct engine_config *c,
			const struct engine_version *e);

#endif

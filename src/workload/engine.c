#include "engine.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/suggest.h"

const char *const ENGINE_DEFAULT_NAME = "vllm";

/* The date every source below was read. */
#define READ " (read 2026-12-07)"

/* A value not checked in the engine's source at that version. */
#define NOT_VERIFIED { NAN, "not verified" }
/* A setting the engine does not have. */
#define NO_SUCH(engine) { NAN, "no such setting in " engine }
/* The hit rate is gpuplan's input, not an engine setting: no reuse is
 * assumed unless the user says how much of each prompt is cached. */
#define HIT_RATE_ASSUMED { 0.0, "gpuplan assumption: no prompt reuse unless given" }

/* Keys in the order of enum engine_setting. */
#define LLM_KEYS(budget, seqs, kv, block, preempt, overlap, graphs, chunk, prefix) \
	{ budget, seqs, kv, block, preempt, overlap, graphs, chunk, prefix, \
	  "prefix_hit_rate", NULL, NULL }

/* The names an entry that was not verified still needs: those the brief
 * for issue 26 gives, so a workload naming the engine reads, and every
 * value left NAN for the planner's own labelled assumptions. */
#define UNVERIFIED_LLM_DEFAULTS(engine) \
	{ NOT_VERIFIED, NOT_VERIFIED, NOT_VERIFIED, NOT_VERIFIED, \
	  NOT_VERIFIED, NOT_VERIFIED, NOT_VERIFIED, NOT_VERIFIED, \
	  NOT_VERIFIED, HIT_RATE_ASSUMED, NO_SUCH(engine), NO_SUCH(engine) }

#define VLLM_KEYS LLM_KEYS("max_num_batched_tokens", "max_num_seqs", \
	"gpu_memory_utilization", "block_size", NULL, NULL, NULL, \
	"enable_chunked_prefill", "enable_prefix_caching")
#define TRTLLM_KEYS LLM_KEYS("max_num_tokens", "max_batch_size", \
	"kv_cache_free_gpu_mem_fraction", "tokens_per_block", NULL, NULL, \
	NULL, "enable_chunked_prefill", "enable_block_reuse")
#define SGLANG_KEYS LLM_KEYS("chunked_prefill_size", "max_running_requests", \
	"mem_fraction_static", "page_size", NULL, NULL, NULL, NULL, NULL)

/* LMDeploy v0.1.0a1, TurboMind: tag v0.1.0a1, commit
 * 9c46b27ce0358b8bc645633442b7810f715997d7, github.com/InternLM/lmdeploy.
 * The converter writes config.ini from TurbomindModelConfig's defaults;
 * LlamaTritonModel.cc's own fallbacks apply only to keys absent there. */
#define LMD "lmdeploy v0.1.0a1 (9c46b27) "
#define LMD_BASE LMD "lmdeploy/turbomind/deploy/target_model/base.py:"
/* LMDeploy v0.6.0, TurboMind: tag v0.6.0, commit
 * e2aa4bd7a434944f2f95f7f55a8272ebc786bf2f; TurbomindEngineConfig. */
#define LMD6 "lmdeploy v0.6.0 (e2aa4bd) "
#define LMD6_MSG LMD6 "lmdeploy/messages.py:"

/* vLLM v0.10.2: the versioned API pages of docs.vllm.ai, which print the
 * source of vllm/config at that release. */
#define VLLM10_CACHE "vllm v0.10.2 docs, vllm.config.cache CacheConfig, " \
	"https://docs.vllm.ai/en/v0.10.2/api/vllm/config/cache.html"
#define VLLM10_SCHED "vllm v0.10.2 docs, vllm.config.scheduler " \
	"SchedulerConfig, " \
	"https://docs.vllm.ai/en/v0.10.2/api/vllm/config/scheduler.html"
/* TensorRT-LLM 1.4.0rc4: the LLM API reference pages of that version,
 * which print each class's signature with its defaults. */
#define TRT14_KV "tensorrt-llm 1.4.0rc4 docs, tensorrt_llm.llmapi." \
	"KvCacheConfig signature, https://nvidia.github.io/TensorRT-LLM/" \
	"1.4.0rc4/llm-api/reference/KvCacheConfig.html"
#define TRT14_TORCH "tensorrt-llm 1.4.0rc4 docs, tensorrt_llm.llmapi." \
	"TorchLlmArgs signature, https://nvidia.github.io/TensorRT-LLM/" \
	"1.4.0rc4/llm-api/reference/TorchLlmArgs.html"

static const struct engine_version table[] = {
	{ ENGINE_VLLM, "vllm", "0.6.3", KV_OF_TOTAL, "not verified",
	  VLLM_KEYS, UNVERIFIED_LLM_DEFAULTS("vllm"), 0, NULL, NULL },
	{ ENGINE_VLLM, "vllm", "0.10.2", KV_OF_TOTAL,
	  VLLM10_CACHE ": gpu_memory_utilization is the fraction of GPU "
	  "memory used for the model executor, a per-instance limit: "
	  "weights, activations and cache together" READ,
	  VLLM_KEYS,
	  {
		{ NAN, VLLM10_SCHED ": max_num_batched_tokens has no static "
		  "default; EngineArgs.create_engine_config sets it by the usage "
		  "context. That rule (and its dependence on the device) was not "
		  "read at this version" READ },
		{ NAN, VLLM10_SCHED ": max_num_seqs has no static default; "
		  "EngineArgs.create_engine_config sets it by the usage context "
		  "(rule not read at this version)" READ },
		{ 0.9, VLLM10_CACHE ": gpu_memory_utilization: float = 0.9" READ },
		{ NAN, VLLM10_CACHE ": block_size has no static default; "
		  "Platform.check_and_update_config() sets it for the platform "
		  "(the CUDA platform's value was not read)" READ },
		NOT_VERIFIED,
		NOT_VERIFIED,
		NOT_VERIFIED,
		NOT_VERIFIED,
		NOT_VERIFIED,
		HIT_RATE_ASSUMED,
		NO_SUCH("vllm"),
		NO_SUCH("vllm"),
	  }, 0, NULL, NULL },
	{ ENGINE_TRTLLM, "tensorrt-llm", "0.21.0", KV_OF_FREE, "not verified",
	  TRTLLM_KEYS, UNVERIFIED_LLM_DEFAULTS("tensorrt-llm"), 0, NULL, NULL },
	{ ENGINE_TRTLLM, "tensorrt-llm", "1.4.0rc4", KV_OF_FREE,
	  "TensorRT-LLM docs, How to Change KV Cache Behavior, "
	  "https://nvidia.github.io/TensorRT-LLM/examples/kvcacheconfig.html "
	  "(unversioned page): the default free_gpu_memory_fraction 0.9 means "
	  "90% of the free GPU memory goes to the KV cache" READ,
	  TRTLLM_KEYS,
	  {
		NOT_VERIFIED,
		NOT_VERIFIED,
		{ 0.9, TRT14_KV ": free_gpu_memory_fraction ... = 0.9" READ },
		NOT_VERIFIED,
		NOT_VERIFIED,
		NOT_VERIFIED,
		NOT_VERIFIED,
		{ 0, TRT14_TORCH ": enable_chunked_prefill: bool = False" READ },
		{ 1, TRT14_KV ": enable_block_reuse: bool = True" READ },
		HIT_RATE_ASSUMED,
		NO_SUCH("tensorrt-llm"),
		NO_SUCH("tensorrt-llm"),
	  }, 0, NULL, NULL },
	{ ENGINE_SGLANG, "sglang", "0.4.0", KV_OF_TOTAL, "not verified",
	  SGLANG_KEYS, UNVERIFIED_LLM_DEFAULTS("sglang"), 0, NULL, NULL },
	{ ENGINE_SGLANG, "sglang", "0.5.0", KV_OF_TOTAL, "not verified",
	  SGLANG_KEYS, UNVERIFIED_LLM_DEFAULTS("sglang"), 0, NULL, NULL },
	{ ENGINE_LMDEPLOY, "lmdeploy", "0.1.0a1", KV_CACHE_OF_TOTAL,
	  LMD "src/turbomind/models/llama/BlockManager.cc:84-90: blocks = "
	  "total memory (cudaMemGetInfo) x cache_max_entry_count / block bytes"
	  READ,
	  LLM_KEYS("max_context_token_num", "max_batch_size",
		   "cache_max_entry_count", "cache_block_seq_len", NULL, NULL,
		   NULL, NULL, NULL),
	  {
		{ NAN, LMD_BASE "51 writes max_context_token_num = 1, and "
		  "src/turbomind/triton_backend/llama/LlamaTritonModel.cc:178-179 "
		  "multiplies a value <= max_batch_size by session_len: the "
		  "budget is the model's session_len" READ },
		{ 64, LMD_BASE "50 max_batch_size: int = 64" READ },
		{ 0.5, LMD_BASE "53 cache_max_entry_count: float = 0.5" READ },
		{ 128, LMD_BASE "54 cache_block_seq_len: int = 128" READ },
		{ 1, LMD "src/turbomind/models/llama/SequenceManager.cc:237-246: "
		  "later sequences are preempted and their blocks evicted when "
		  "blocks run out" READ },
		NOT_VERIFIED,
		{ 0, LMD "no cudaGraph call under src/ (git grep -i cudaGraph "
		  "at the tag finds none)" READ },
		{ 0, LMD "src/turbomind/models/llama/LlamaBatch.cc:1091-1092: "
		  "whole prompts are packed into prefill mini-batches of at most "
		  "max_context_token_num tokens; none is split" READ },
		{ 0, LMD "no prefix caching in the tree (git grep -i "
		  "prefix_cach at the tag finds none)" READ },
		HIT_RATE_ASSUMED,
		NO_SUCH("lmdeploy"),
		NO_SUCH("lmdeploy"),
	  }, 0,
	  LMD "src/turbomind/models/llama/LlamaBatch.cc:1438-1449: each loop "
	  "runs ContextDecode() (the admitted prompts, in sub-batches of at most "
	  "max_context_token_num tokens padded to the longest, :1085-1101), then "
	  "Generate() over every live sequence" READ,
	  LMD "src/turbomind/triton_backend/llama/LlamaTritonModel.cc:178-179: "
	  "max_context_token_num (1) x session_len; session_len is the chat "
	  "template's + 8 (lmdeploy/turbomind/deploy/target_model/base.py:113; "
	  "Llama 2: 4,096, lmdeploy/model.py:403)" READ },
	{ ENGINE_LMDEPLOY, "lmdeploy", "0.6.0", KV_OF_FREE,
	  LMD6 "src/turbomind/models/llama/BlockManager.cc:101-105: blocks = "
	  "free memory x cache_max_entry_count / block bytes" READ,
	  LLM_KEYS("max_prefill_token_num", "max_batch_size",
		   "cache_max_entry_count", "cache_block_seq_len", NULL, NULL,
		   NULL, NULL, "enable_prefix_caching"),
	  {
		{ 8192, LMD6_MSG "157 max_prefill_token_num: int = 8192" READ },
		{ NAN, LMD6 "lmdeploy/utils.py:324-346 get_max_batch_size, "
		  "applied by lmdeploy/cli/serve.py:208: 256 on a GPU whose name "
		  "holds a100 or a800, 512 for h100 or h800, else 128" READ },
		{ 0.8, LMD6_MSG "148 cache_max_entry_count: float = 0.8" READ },
		{ 64, LMD6_MSG "150 cache_block_seq_len: int = 64" READ },
		NOT_VERIFIED,
		NOT_VERIFIED,
		{ 0, LMD6 "no cudaGraph call under src/turbomind (git grep -i "
		  "cudaGraph at the tag finds none)" READ },
		NOT_VERIFIED,
		{ 0, LMD6_MSG "151 enable_prefix_caching: bool = False" READ },
		HIT_RATE_ASSUMED,
		NO_SUCH("lmdeploy"),
		NO_SUCH("lmdeploy"),
	  }, 0, NULL, NULL },
	{ ENGINE_TRITON, "triton", "2.71.0", KV_OF_TOTAL,
	  "no KV cache in triton's dynamic batcher",
	  { NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
	    "max_batch_size", "max_queue_delay_microseconds" },
	  {
		NO_SUCH("triton"), NO_SUCH("triton"), NO_SUCH("triton"),
		NO_SUCH("triton"), NO_SUCH("triton"), NO_SUCH("triton"),
		NO_SUCH("triton"), NO_SUCH("triton"), NO_SUCH("triton"),
		NO_SUCH("triton"),
		{ NAN, "triton v2.71.0 (819ee37) docs/user_guide/batcher.md:60: "
		  "max_batch_size is the model's, set in its config; no "
		  "default" READ },
		{ 0, "triton v2.71.0 (819ee37) docs/user_guide/batcher.md:62-65: "
		  "by default the dynamic batcher will not delay when forming "
		  "batches" READ },
	  },
	  /* max_queue_delay_microseconds is given in microseconds */
	  1u << ES_QUEUE_DELAY, NULL, NULL },
};

#define TABLE_LEN (sizeof table / sizeof table[0])

static const char *const setting_names[ES_SETTINGS] = {
	"token_budget", "max_seqs", "kv_fraction", "kv_block", "preemption",
	"host_overlap", "cuda_graphs", "chunked_prefill", "prefix_caching",
	"prefix_hit_rate", "max_batch", "queue_delay",
};

/* Every name a user may write for an engine, and the one it stands for:
 * TensorRT-LLM goes by three spellings in docs and records. */
static const char *const names[] = {
	"vllm", "tensorrt-llm", "trtllm", "tensorrt", "tensorrt_llm",
	"sglang", "lmdeploy", "triton", NULL,
};
static const char *const canonical[] = {
	"vllm", "tensorrt-llm", "tensorrt-llm", "tensorrt-llm", "tensorrt-llm",
	"sglang", "lmdeploy", "triton",
};

static const char *canonical_name(const char *name)
{
	for (size_t i = 0; names[i]; i++)
		if (strcasecmp(name, names[i]) == 0)
			return canonical[i];
	return NULL;
}

static bool same_version(const char *want, const char *have)
{
	if (want[0] == 'v' || want[0] == 'V')
		want++;
	return strcasecmp(want, have) == 0;
}

/* The table holds each engine's versions oldest first, so the newest is
 * the last that matches. */
const struct engine_version *engine_find(const char *name, const char *version)
{
	const char *canon = name ? canonical_name(name) : NULL;
	const struct engine_version *found = NULL;

	if (!canon)
		return NULL;
	for (size_t i = 0; i < TABLE_LEN; i++) {
		if (strcmp(table[i].name, canon) != 0)
			continue;
		if (!version)
			found = &table[i];
		else if (same_version(version, table[i].version))
			return &table[i];
	}
	return found;
}

const char *engine_did_you_mean(const char *name)
{
	const char *near;

	if (!name)
		return NULL;
	near = suggest_nearest(name, names, (size_t)-1);
	return near ? canonical_name(near) : NULL;
}

const char *engine_versions_text(enum engine_kind k, char *buf, size_t len)
{
	size_t used = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < TABLE_LEN; i++) {
		int n;

		if (table[i].kind != k)
			continue;
		n = snprintf(buf + used, len - used, "%s%s",
			     used ? ", " : "", table[i].version);
		if (n < 0 || (size_t)n >= len - used) {
			buf[used] = '\0';	/* cut between versions, not inside one */
			break;
		}
		used += (size_t)n;
	}
	return buf;
}

/* Compares a user's key with an engine's, reading '-' as '_' and skipping
 * a CLI flag's leading dashes. */
static bool same_key(const char *user, const char *native)
{
	while (*user == '-')
		user++;
	for (; *user && *native; user++, native++) {
		char u = *user == '-' ? '_' : *user;

		if (tolower((unsigned char)u) != tolower((unsigned char)*native))
			return false;
	}
	return *user == '\0' && *native == '\0';
}

int engine_setting_of(const struct engine_version *e, const char *native_key)
{
	if (!e || !native_key)
		return -1;
	for (int s = 0; s < ES_SETTINGS; s++)
		if (e->native[s] && same_key(native_key, e->native[s]))
			return s;
	return -1;
}

const char *engine_setting_name(enum engine_setting s)
{
	return (unsigned)s < ES_SETTINGS ? setting_names[s] : "unknown";
}

double engine_value_from_native(const struct engine_version *e,
				enum engine_setting s, double native)
{
	if (e->native_in_micro & (1u << s))
		return native * 1e-6;
	return native;
}

static bool is_whole(double v)
{
	return v == floor(v);
}

static bool say(char *why, size_t len, const char *what)
{
	if (why && len)
		snprintf(why, len, "%s", what);
	return false;
}

bool engine_value_ok(enum engine_setting s, double v, char *why, size_t len)
{
	if (!isfinite(v))
		return say(why, len, "a finite number");
	switch (s) {
	case ES_TOKEN_BUDGET:
		if (v < 16 || !is_whole(v))
			return say(why, len, "a whole number of tokens, at least 16");
		return true;
	case ES_MAX_SEQS:
	case ES_KV_BLOCK:
	case ES_MAX_BATCH:
		if (v < 1 || !is_whole(v))
			return say(why, len, "a whole number, at least 1");
		return true;
	case ES_KV_FRACTION:
		if (v <= 0 || v > 1)
			return say(why, len, "a share of memory above 0 and at most 1");
		return true;
	case ES_PREEMPTION:
	case ES_HOST_OVERLAP:
	case ES_CUDA_GRAPHS:
	case ES_CHUNKED_PREFILL:
	case ES_PREFIX_CACHING:
		if (v != 0 && v != 1)
			return say(why, len, "0 or 1 (off or on)");
		return true;
	case ES_PREFIX_HIT_RATE:
		if (v < 0 || v > 1)
			return say(why, len, "a share from 0 to 1");
		return true;
	case ES_QUEUE_DELAY:
		if (v < 0)
			return say(why, len, "a delay of 0 or more");
		return true;
	case ES_SETTINGS:
		break;
	}
	return say(why, len, "a known setting");
}

/* No engine's memory-dependent rule (SGLang's chunked_prefill_size and
 * mem_fraction_static, vLLM's token budget and sequences by usage context
 * and device) could be read in a source tied to a version, so none is
 * applied: the
 * answer is the table's value, NAN where the table has none, and the
 * caller's own labelled assumption stands.  gpu_memory_bytes is taken now
 * so that callers need not change when a verified rule is added. */
double engine_default_for(const struct engine_version *e,
			  enum engine_setting s, double gpu_memory_bytes)
{
	(void)gpu_memory_bytes;
	if (!e || (unsigned)s >= ES_SETTINGS)
		return NAN;
	return e->d[s].value;
}

void engine_config_init(struct engine_config *c, const struct engine_version *e)
{
	memset(c, 0, sizeof *c);
	c->e = e;
	for (int s = 0; s < ES_SETTINGS; s++)
		c->v[s] = e ? e->d[s].value : NAN;
}

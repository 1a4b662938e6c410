/*
 * test_engine.c - the table of engines' defaults: finding an engine and
 * version, reading a user's key in the engine's own spelling, the range
 * checks, and that every value carries a source.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "workload/engine.h"

static void finds_engines_and_versions(void)
{
	const struct engine_version *e;

	/* version NULL is the newest the table holds for that engine */
	e = engine_find("vllm", NULL);
	CHECK(e != NULL);
	CHECK_STR(e ? e->version : NULL, "0.10.2");
	e = engine_find("VLLM", "0.6.3");
	CHECK_STR(e ? e->version : NULL, "0.6.3");
	/* a leading v is the tag's spelling of the same version */
	e = engine_find("LMDeploy", "v0.1.0a1");
	CHECK(e != NULL && e->kind == ENGINE_LMDEPLOY);
	/* three spellings of TensorRT-LLM are one engine */
	CHECK(engine_find("trtllm", NULL) == engine_find("TensorRT-LLM", NULL));
	CHECK(engine_find("tensorrt", NULL) == engine_find("tensorrt-llm", NULL));
	CHECK(engine_find("vllm", "0.7.0") == NULL);
	CHECK(engine_find("tgi", NULL) == NULL);
	CHECK(engine_find(NULL, NULL) == NULL);
	CHECK(engine_find(ENGINE_DEFAULT_NAME, NULL) != NULL);
}

static void suggests_near_names(void)
{
	CHECK_STR(engine_did_you_mean("vlm"), "vllm");
	CHECK_STR(engine_did_you_mean("sglnag"), "sglang");
	/* trtlm is one edit from the alias trtllm, which stands for ... */
	CHECK_STR(engine_did_you_mean("trtlm"), "tensorrt-llm");
	CHECK(engine_did_you_mean("pytorch") == NULL);
}

static void lists_versions(void)
{
	char buf[64], tiny[8];

	CHECK_STR(engine_versions_text(ENGINE_VLLM, buf, sizeof buf),
		  "0.6.3, 0.10.2");
	CHECK_STR(engine_versions_text(ENGINE_LMDEPLOY, buf, sizeof buf),
		  "0.1.0a1, 0.6.0");
	/* "0.6.3" fits in 8 bytes, ", 0.10.2" does not: the first stays */
	CHECK_STR(engine_versions_text(ENGINE_VLLM, tiny, sizeof tiny), "0.6.3");
}

static void reads_native_keys(void)
{
	const struct engine_version *vllm = engine_find("vllm", NULL);
	const struct engine_version *lmd = engine_find("lmdeploy", NULL);
	const struct engine_version *tri = engine_find("triton", NULL);

	CHECK(engine_setting_of(vllm, "max_num_batched_tokens") == ES_TOKEN_BUDGET);
	/* the CLI spelling and case do not matter */
	CHECK(engine_setting_of(vllm, "--max-num-seqs") == ES_MAX_SEQS);
	CHECK(engine_setting_of(vllm, "GPU_MEMORY_UTILIZATION") == ES_KV_FRACTION);
	/* another engine's key is not this one's */
	CHECK(engine_setting_of(vllm, "max_num_tokens") == -1);
	CHECK(engine_setting_of(vllm, "max_num_seq") == -1);
	CHECK(engine_setting_of(lmd, "cache_max_entry_count") == ES_KV_FRACTION);
	CHECK(engine_setting_of(lmd, "max_batch_size") == ES_MAX_SEQS);
	CHECK(engine_setting_of(tri, "max_batch_size") == ES_MAX_BATCH);
	CHECK(engine_setting_of(tri, "max_queue_delay_microseconds") == ES_QUEUE_DELAY);
	CHECK(engine_setting_of(tri, "max_num_seqs") == -1);
	/* 250 microseconds is 250e-6 s */
	CHECK_NEAR(engine_value_from_native(tri, ES_QUEUE_DELAY, 250), 250e-6, 1e-12);
	CHECK_NEAR(engine_value_from_native(lmd, ES_MAX_SEQS, 32), 32, 0);
}

/* LMDeploy v0.1.0a1's converter defaults (base.py:50-54) and the
 * share-of-total reading of cache_max_entry_count (BlockManager.cc:89). */
static void lmdeploy_defaults(void)
{
	const struct engine_version *e = engine_find("lmdeploy", "0.1.0a1");

	CHECK(e->d[ES_MAX_SEQS].value == 64);
	CHECK(e->d[ES_KV_FRACTION].value == 0.5);
	CHECK(e->kv_base == KV_CACHE_OF_TOTAL);
	CHECK(e->d[ES_KV_BLOCK].value == 128);
	CHECK(e->d[ES_PREEMPTION].value == 1);
	CHECK(e->d[ES_CHUNKED_PREFILL].value == 0);
	/* its loop: prompts in prefill passes of their own, each at most
	 * session_len tokens; no other entry schedules so */
	CHECK(e->separate_prefill && strstr(e->separate_prefill, "LlamaBatch.cc"));
	CHECK(e->budget_is_context &&
	      strstr(e->budget_is_context, "LlamaTritonModel.cc"));
	CHECK(!engine_find("lmdeploy", "0.6.0")->separate_prefill);
	CHECK(!engine_find("vllm", NULL)->separate_prefill);
	CHECK(e->d[ES_PREFIX_CACHING].value == 0);
	/* the budget is the model's session_len: not a table value */
	CHECK(isnan(e->d[ES_TOKEN_BUDGET].value));
	CHECK_HAS(e->d[ES_TOKEN_BUDGET].source, "session_len");
	CHECK_HAS(e->d[ES_MAX_SEQS].source, "base.py:50");
	/* 80 GiB at 0.5 of the total is 40 GiB for KV, whatever the weights */
	CHECK_NEAR(engine_default_for(e, ES_KV_FRACTION, 80.0 * (1 << 30)), 0.5, 0);
}

/* LMDeploy v0.6.0 (messages.py:148-157, BlockManager.cc:103-104): the
 * KV share became 0.8 of FREE memory, pages 64 tokens, a prefill budget. */
static void lmdeploy_changed_by_0_6(void)
{
	const struct engine_version *old = engine_find("lmdeploy", "0.1.0a1");
	const struct engine_version *e = engine_find("lmdeploy", NULL);

	CHECK_STR(e->version, "0.6.0");
	CHECK(e->kv_base == KV_OF_FREE && old->kv_base == KV_CACHE_OF_TOTAL);
	CHECK(e->d[ES_KV_FRACTION].value == 0.8);
	CHECK(e->d[ES_KV_BLOCK].value == 64);
	CHECK(e->d[ES_TOKEN_BUDGET].value == 8192);
	/* the key for the budget is the version's own */
	CHECK(engine_setting_of(e, "max_prefill_token_num") == ES_TOKEN_BUDGET);
	CHECK(engine_setting_of(old, "max_prefill_token_num") == -1);
	CHECK(engine_setting_of(old, "max_context_token_num") == ES_TOKEN_BUDGET);
	/* max_batch_size goes by the GPU's name, not its memory: no value */
	CHECK(isnan(engine_default_for(e, ES_MAX_SEQS, 80e9)));
}

/* vLLM v0.10.2 (docs.vllm.ai/en/v0.10.2, vllm.config.cache and
 * .scheduler): 0.9 of all memory for the whole instance; the budget,
 * sequences and page have no static default, so no value. */
static void vllm_defaults(void)
{
	const struct engine_version *e = engine_find("vllm", "v0.10.2");

	CHECK(e != NULL);
	if (!e)
		return;
	CHECK(e->d[ES_KV_FRACTION].value == 0.9);
	CHECK(e->kv_base == KV_OF_TOTAL);
	CHECK_HAS(e->d[ES_KV_FRACTION].source, "v0.10.2");
	CHECK_HAS(e->kv_base_source, "per-instance");
	CHECK(isnan(e->d[ES_TOKEN_BUDGET].value));
	CHECK_HAS(e->d[ES_TOKEN_BUDGET].source, "usage context");
	CHECK(isnan(e->d[ES_MAX_SEQS].value));
	CHECK(isnan(e->d[ES_KV_BLOCK].value));
	/* no verified rule by GPU memory: 80 GB gives no budget */
	CHECK(isnan(engine_default_for(e, ES_TOKEN_BUDGET, 80e9)));
	/* the table gives vLLM no key for a preemption mode */
	CHECK(engine_setting_of(e, "preemption_mode") == -1);
	/* the entry that stays unverified carries no values */
	e = engine_find("vllm", "0.6.3");
	CHECK(e != NULL && isnan(e->d[ES_KV_FRACTION].value));
}

/* TensorRT-LLM 1.4.0rc4 (KvCacheConfig and TorchLlmArgs signatures): 0.9
 * of FREE memory, block reuse on, chunked prefill off.  On 80 GB with
 * 16 GB of weights and buffers that is 0.9 x 64 = 57.6 GB of cache, where
 * vLLM's 0.9 of the total would leave 72 - 16 = 56 GB. */
static void trtllm_defaults(void)
{
	const struct engine_version *e = engine_find("trtllm", NULL);

	CHECK(e != NULL);
	if (!e)
		return;
	CHECK_STR(e->version, "1.4.0rc4");
	CHECK(e->kv_base == KV_OF_FREE);
	CHECK(e->d[ES_KV_FRACTION].value == 0.9);
	CHECK(e->d[ES_PREFIX_CACHING].value == 1);
	CHECK(e->d[ES_CHUNKED_PREFILL].value == 0);
	CHECK_HAS(e->d[ES_CHUNKED_PREFILL].source, "TorchLlmArgs");
	CHECK(engine_setting_of(e, "enable_block_reuse") == ES_PREFIX_CACHING);
	/* budget and batch are not verified at this version */
	CHECK(isnan(e->d[ES_TOKEN_BUDGET].value));
	CHECK(isnan(e->d[ES_MAX_SEQS].value));
	/* 0.21.0 stays in the table, unverified */
	e = engine_find("tensorrt-llm", "0.21.0");
	CHECK(e != NULL && isnan(e->d[ES_KV_FRACTION].value));
}

static void triton_defaults(void)
{
	const struct engine_version *e = engine_find("triton", NULL);

	CHECK(e->d[ES_QUEUE_DELAY].value == 0);
	CHECK(isnan(e->d[ES_MAX_BATCH].value));
	CHECK(e->native[ES_TOKEN_BUDGET] == NULL);
}

/* Every entry: a source for every value; a finite value passes the range
 * check of its setting; the hit rate defaults to 0 for LLM engines. */
static void every_value_has_a_source(void)
{
	static const char *const engines[] = {
		"vllm", "tensorrt-llm", "sglang", "lmdeploy", "triton",
	};
	char why[96];

	for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++) {
		char versions[128], *ver, *save = NULL;
		const struct engine_version *any = engine_find(engines[i], NULL);

		CHECK(any != NULL);
		if (!any)
			continue;
		engine_versions_text(any->kind, versions, sizeof versions);
		for (ver = strtok_r(versions, ", ", &save); ver;
		     ver = strtok_r(NULL, ", ", &save)) {
			const struct engine_version *e = engine_find(engines[i], ver);

			CHECK(e != NULL && e->kv_base_source && e->kv_base_source[0]);
			for (int s = 0; e && s < ES_SETTINGS; s++) {
				double v = e->d[s].value;

				CHECK(e->d[s].source && e->d[s].source[0]);
				CHECK(isnan(v) || engine_value_ok(s, v, why, sizeof why));
				/* a value with no key to override it is a bug */
				CHECK(isnan(v) || e->native[s] != NULL ||
				      s == ES_PREEMPTION || s == ES_CUDA_GRAPHS ||
				      s == ES_CHUNKED_PREFILL || s == ES_PREFIX_CACHING);
			}
		}
	}
}

static void range_checks(void)
{
	static const struct { enum engine_setting s; double v; bool ok; } cases[] = {
		{ ES_TOKEN_BUDGET, 16, true },	{ ES_TOKEN_BUDGET, 15, false },
		{ ES_TOKEN_BUDGET, 2048.5, false },
		{ ES_MAX_SEQS, 1, true },	{ ES_MAX_SEQS, 0, false },
		{ ES_KV_FRACTION, 1, true },	{ ES_KV_FRACTION, 0, false },
		{ ES_KV_FRACTION, 1.01, false },{ ES_KV_FRACTION, 0.9, true },
		{ ES_KV_BLOCK, 16, true },	{ ES_KV_BLOCK, 0.5, false },
		{ ES_PREEMPTION, 0, true },	{ ES_CUDA_GRAPHS, 2, false },
		{ ES_PREFIX_HIT_RATE, 0, true },{ ES_PREFIX_HIT_RATE, 1.5, false },
		{ ES_MAX_BATCH, 8, true },	{ ES_MAX_BATCH, -1, false },
		{ ES_QUEUE_DELAY, 0, true },	{ ES_QUEUE_DELAY, -1e-6, false },
		{ ES_MAX_SEQS, NAN, false },	{ ES_KV_FRACTION, INFINITY, false },
	};
	char why[96];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		why[0] = '\0';
		CHECK(engine_value_ok(cases[i].s, cases[i].v, why, sizeof why) ==
		      cases[i].ok);
		/* a refusal always says what was expected */
		CHECK(cases[i].ok || why[0] != '\0');
	}
	engine_value_ok(ES_TOKEN_BUDGET, 8, why, sizeof why);
	CHECK_HAS(why, "at least 16");
}

static void config_starts_from_defaults(void)
{
	struct engine_config c;
	const struct engine_version *e = engine_find("lmdeploy", "0.1.0a1");

	engine_config_init(&c, e);
	CHECK(c.e == e);
	CHECK(c.v[ES_MAX_SEQS] == 64);
	CHECK(isnan(c.v[ES_TOKEN_BUDGET]));
	for (int s = 0; s < ES_SETTINGS; s++)
		CHECK(!c.given[s]);
	CHECK_STR(engine_setting_name(ES_KV_FRACTION), "kv_fraction");
}

int main(void)
{
	finds_engines_and_versions();
	suggests_near_names();
	lists_versions();
	reads_native_keys();
	lmdeploy_defaults();
	lmdeploy_changed_by_0_6();
	vllm_defaults();
	trtllm_defaults();
	triton_defaults();
	every_value_has_a_source();
	range_checks();
	config_starts_from_defaults();
	return check_summary("engine");
}

#include "workload/engine_read.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/suggest.h"

int wl_engine_select(struct yread *r, const struct ynode *name,
		     const struct ynode *version, struct engine_config *c)
{
	const char *v = NULL;
	if (name->kind != YNODE_SCALAR) {
		yr_error(r, name, NULL, "expected an engine name for 'engine' (vllm, tensorrt-llm, sglang, lmdeploy or triton)");
		return -1;
	}
	if (version && version->kind != YNODE_SCALAR) {
		yr_error(r, version, NULL, "expected a version for 'engine_version', as the engine numbers its releases (\"0.11.0\")");
		return -1;
	}
	const char *n = name->text;
	if (version)
		v = version->text;
	const struct engine_version *e = engine_find(n, NULL);
	if (!e) {
		const char *near = engine_did_you_mean(n);
		char hint[96];
		if (near)
			snprintf(hint, sizeof(hint), "did you mean '%s'?", near);
		yr_error(r, name, near ? hint : NULL,
			 "unknown engine '%s': expected vllm, tensorrt-llm, sglang, lmdeploy or triton",
			 n);
		return -1;
	}
	if (v) {
		const struct engine_version *at = engine_find(n, v);
		if (!at) {
			char known[160];
			yr_error(r, version, NULL,
				 "%s has no version '%s' in gpuplan's table of engine defaults: expected one of %s (src/workload/ENGINES.md)",
				 e->name, v,
				 engine_versions_text(e->kind, known, sizeof(known)));
			return -1;
		}
		e = at;
	}
	engine_config_init(c, e);
	return 0;
}

/* A setting's value: true or false, or a plain number. */
static int setting_value(struct yread *r, const struct ynode *n,
			 const char *key, double *out)
{
	if (n->kind == YNODE_SCALAR && !n->quoted &&
	    (strcmp(n->text, "true") == 0 || strcmp(n->text, "false") == 0)) {
		*out = strcmp(n->text, "true") == 0;
		return 0;
	}
	return yr_node_real(r, n, key, out) < 0 ? -1 : 0;
}

/* The engine's own keys, for a did-you-mean. */
static size_t native_keys(const struct engine_version *e, const char **keys)
{
	size_t n = 0;
	for (int s = 0; s < ES_SETTINGS; s++)
		if (e->native[s])
			keys[n++] = e->native[s];
	return n;
}

int wl_engine_settings(struct yread *r, const struct ynode *settings,
		       const char *ctx, struct engine_config *c)
{
	if (!settings)
		return 0;
	if (!yr_expect_map(r, settings, ctx))
		return -1;
	const struct engine_version *e = c->e;
	int bad = 0;
	for (size_t i = 0; i < settings->n; i++) {
		const struct ynode *k = settings->items[2 * i];
		const struct ynode *v = settings->items[2 * i + 1];
		int s = engine_setting_of(e, k->text);
		if (s < 0) {
			const char *keys[ES_SETTINGS];
			char hint[128];
			const char *h = suggest_hint(k->text, keys,
						     native_keys(e, keys), hint,
						     sizeof(hint));
			yr_error(r, k, h,
				 "'%s' is not a setting of %s %s in %s",
				 k->text, e->name, e->version, ctx);
			bad = 1;
			continue;
		}
		double native;
		if (setting_value(r, v, k->text, &native) < 0) {
			bad = 1;
			continue;
		}
		double value = engine_value_from_native(e, s, native);
		char why[160];
		if (!engine_value_ok(s, value, why, sizeof(why))) {
			yr_error(r, v, NULL, "'%s' of %s: %s, found '%s'",
				 k->text, ctx, why, v->text);
			bad = 1;
			continue;
		}
		c->v[s] = value;
		c->given[s] = true;
	}
	return bad ? -1 : 0;
}

/* The engine's own name for setting s, or gpuplan's. */
static const char *key_of(const struct engine_config *c, enum engine_setting s)
{
	return c->e->native[s] ? c->e->native[s] : engine_setting_name(s);
}

int wl_engine_check(struct yread *r, const struct ynode *at,
		    const struct engine_config *c, long longest_prompt)
{
	if (!c->e)
		return 0;	/* no engine read: already reported */
	double budget = c->v[ES_TOKEN_BUDGET], seqs = c->v[ES_MAX_SEQS];
	if (isnan(budget))
		return 0;
	if (!isnan(seqs) && budget < seqs) {
		yr_error(r, at, NULL,
			 "%s's '%s' (%.0f) is below its '%s' (%.0f): every live sequence decodes a token each iteration, so the engine needs at least one token of budget per sequence",
			 c->e->name, key_of(c, ES_TOKEN_BUDGET), budget,
			 key_of(c, ES_MAX_SEQS), seqs);
		return -1;
	}
	bool chunked = !(c->v[ES_CHUNKED_PREFILL] == 0);
	if (!chunked && budget < (double)longest_prompt) {
		yr_error(r, at, NULL,
			 "%s's '%s' (%.0f tokens) is below one prompt (%ld tokens) with chunked prefill off: the longest prompt must run in one iteration",
			 c->e->name, key_of(c, ES_TOKEN_BUDGET), budget,
			 longest_prompt);
		return -1;
	}
	return 0;
}

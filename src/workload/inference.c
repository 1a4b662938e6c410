/*
 * inference.c - an inference workload's fields (traffic, lengths, latency
 * targets, hours a month, KV precision) and the checks that need its
 * model and its trace.
 */
#include "inference.h"

#include "workload/engine_read.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "read_common.h"
#include "trace.h"

/* ---- inference ---- */

static const struct yfield range_fields[] = {
	{"min", true}, {"max", true}, {NULL, false},
};

/*
 * A length in tokens: a whole number, or `{min: A, max: B}` for lengths
 * drawn uniformly between (as vLLM's random dataset draws them); range[]
 * gets the shortest and longest, *mean their mean (rounded).
 */
static int read_length(struct yread *r, const struct ynode *map,
		       const char *key, long least, long *mean, long range[2])
{
	const struct ynode *n = ymap_get(map, key);
	if (!n || n->kind != YNODE_MAP) {
		int rc = yr_int(r, map, key, least, 100000000, mean);
		range[0] = range[1] = *mean;
		return rc;
	}
	char what[64];
	snprintf(what, sizeof(what), "'%s'", key);
	int bad = yr_check_keys(r, n, what, range_fields) > 0;
	bad |= yr_int(r, n, "min", least, 100000000, &range[0]) < 0;
	bad |= yr_int(r, n, "max", least, 100000000, &range[1]) < 0;
	if (!bad && range[0] > range[1]) {
		yr_error(r, ymap_get(n, "min"), NULL,
			 "%s: 'min' %ld is above 'max' %ld", what, range[0],
			 range[1]);
		bad = 1;
	}
	*mean = (range[0] + range[1] + 1) / 2;
	return bad ? -1 : 1;
}

/* `engine:`, `engine_version:` and `engine_settings:` (engine_read.h);
 * with no engine named, the model's default (check_engine_kind()), and
 * neither a version nor settings, which would have nothing to apply to. */
static int read_engine(struct yread *r, const struct ynode *map,
		       struct inference *in)
{
	const struct ynode *name = ymap_get(map, "engine");
	const struct ynode *version = ymap_get(map, "engine_version");
	const struct ynode *settings = ymap_get(map, "engine_settings");
	in->engine_named = name != NULL;
	if (!name) {	/* the default engine comes with the model */
		const struct ynode *orphan = version ? version : settings;
		if (orphan)
			yr_error(r, orphan, NULL,
				 "'%s' needs 'engine': name the engine whose %s it is",
				 version ? "engine_version" : "engine_settings",
				 version ? "version" : "settings");
		return orphan ? -1 : 0;
	}
	if (wl_engine_select(r, name, version, &in->engine) < 0)
		return -1;
	return wl_engine_settings(r, settings, "'engine_settings'", &in->engine);
}

int wl_read_inference(struct yread *r, const struct ynode *map,
		      struct inference *in)
{
	int bad = yr_quantity_in(r, map, "request_rate", Q_REQUEST_RATE,
				 &in->request_rate, NULL) < 0;
	bad |= read_length(r, map, "prompt_tokens", 1, &in->prompt_tokens,
			   in->prompt_range) < 0;
	bad |= read_length(r, map, "output_tokens", 0, &in->output_tokens,
			   in->output_range) < 0;
	for (int t = 0; t < TARGET_COUNT; t++)
		bad |= yr_quantity_in(r, map, target_name(t)->key, Q_LATENCY,
				      &in->target[t], NULL) < 0;
	/* at most WORKLOAD_MAX_HOURS_PER_MONTH: the range's top */
	int hours = yr_quantity_in(r, map, "hours_per_month", Q_SERVING_TIME,
				   &in->serving_per_month, NULL);
	bad |= hours < 0;
	if (hours == 0)
		in->serving_per_month = WORKLOAD_DEFAULT_HOURS_PER_MONTH;
	bad |= wl_read_precision(r, map, "kv_precision", true, false,
				 &in->kv_precision) < 0;
	bad |= read_engine(r, map, in) < 0;
	return bad ? -1 : 0;
}

/*
 * A service needs a latency target: the whole request's p99, or for a
 * model that generates tokens, time to first token and time per output
 * token at p99 or p50 (any subset).  TPOT needs two tokens out.
 */
int wl_check_targets(struct yread *r, const struct ynode *map,
		     const char *what, const struct model *m,
		     const struct inference *in)
{
	bool generates = in->has_kv && m->kind == MODEL_TRANSFORMER &&
			 m->tf.arch == TF_DECODER && in->output_range[1] > 0;
	bool any = false;
	int bad = 0;
	for (int t = 0; t < TARGET_COUNT; t++) {
		const char *key = target_name(t)->key;
		const struct ynode *k = ymap_get(map, key);
		if (!k)
			continue;
		any = true;
		if (t == TARGET_P99)
			continue;	/* any service */
		if (!generates) {
			yr_error(r, k, NULL,
				 "'%s' is a target for services that generate tokens, but %s (model '%s') generates none: use 'p99_latency'",
				 key, what, wl_model_label(m));
			bad = 1;
		} else if (target_name(t)->per_token && in->output_range[0] < 2) {
			yr_error(r, k, NULL,
				 "'%s' needs at least 2 output tokens (time per token after the first); %s has 'output_tokens' %ld",
				 key, what, in->output_range[0]);
			bad = 1;
		}
	}
	if (!any) {
		yr_error(r, map, NULL, generates
			 ? "missing a latency target in %s: give 'p99_latency' (the whole request), 'ttft_p99', 'tpot_p99', 'ttft_p50' or 'tpot_p50'"
			 : "missing required key 'p99_latency' in %s",
			 what);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/*
 * A trace's token columns stand for the keys of the same name: they set
 * the lengths (mean and range); giving both is refused, as which one
 * counts would not be obvious.
 */
static int lengths_from_trace(struct yread *r, const struct ynode *map,
			      struct inference *in)
{
	const struct request_trace *t = in->trace;
	const char *keys[] = {"prompt_tokens", "output_tokens"};
	const long *column[] = {t->prompt, t->output};
	const double mean[] = {t->prompt_mean, t->output_mean};
	const long *from[] = {t->prompt_range, t->output_range};
	long *to_mean[] = {&in->prompt_tokens, &in->output_tokens};
	long *to_range[] = {in->prompt_range, in->output_range};
	int bad = 0;
	for (int i = 0; i < 2; i++) {
		if (!column[i])
			continue;
		const struct ynode *k = ymap_get(map, keys[i]);
		if (k) {
			yr_error(r, k, NULL,
				 "'%s' is given twice: here and by a column of trace '%s'; keep one",
				 keys[i], in->trace_file);
			bad = 1;
			continue;
		}
		*to_mean[i] = lround(mean[i]);
		memcpy(to_range[i], from[i], 2 * sizeof(long));
	}
	in->longest = t->prompt && t->output
		? t->longest : in->prompt_range[1] + in->output_range[1];
	return bad ? -1 : 0;
}

/* The request rate: given, or a trace's own; a trace with arrivals and a
 * rate runs at that rate, its gaps stretched or shrunk alike. */
int wl_check_rate(struct yread *r, const struct ynode *map,
		  const char *what, bool required, struct inference *in)
{
	const struct request_trace *t = in->trace;
	bool given = ymap_get(map, "request_rate") != NULL;
	in->trace_time_scale = 1;
	if (t && t->arrival) {
		/* the trace's own rate, as request_rate's range allows */
		const struct quantity_range *q = quantity_range(Q_REQUEST_RATE);
		if (!(t->rate >= q->min && t->rate <= q->max)) {
			yr_error(r, ymap_get(map, "trace"), NULL,
				 "trace '%s' arrives at %.4g requests a second (%ld over %.4g s): expected %s (a trace's rate is read as a request_rate)",
				 in->trace_file, t->rate, t->n, t->span, q->range);
			return -1;
		}
		if (given && in->request_rate > 0)
			in->trace_time_scale = t->rate / in->request_rate;
		else if (!given)
			in->request_rate = t->rate;
		return 0;
	}
	if (given || !required)
		return 0;
	if (t)
		yr_error(r, map, NULL,
			 "missing required key 'request_rate' in %s (its trace '%s' has no arrival column)",
			 what, in->trace_file);
	else
		yr_error(r, map, NULL, "missing required key 'request_rate' in %s",
			 what);
	return -1;
}

/* prompt and output tokens are for sequence models, and required there
 * (as keys or a trace's columns); an encoder generates nothing; the whole
 * request fits the model. */
/* A token-generating model is served by an LLM engine, any other by
 * Triton; the default engine is the one for the model. */
static int check_engine_kind(struct yread *r, const struct ynode *map,
			     const struct model *m, struct inference *in)
{
	bool generates = m->kind == MODEL_TRANSFORMER && m->tf.arch == TF_DECODER;
	if (in->engine_named && !in->engine.e)
		return -1;	/* already reported */
	if (!in->engine_named) {
		engine_config_init(&in->engine,
				   engine_find(generates ? ENGINE_DEFAULT_NAME
							 : "triton", NULL));
		return 0;
	}
	if (generates == (in->engine.e->kind != ENGINE_TRITON))
		return 0;
	yr_error(r, ymap_get(map, "engine"), NULL,
		 generates ? "engine '%s' batches whole requests, but model '%s' generates tokens: expected an LLM engine (vllm, tensorrt-llm, sglang or lmdeploy)"
			   : "engine '%s' serves token-generating models, but model '%s' does not generate: expected triton",
		 in->engine.e->name, wl_model_label(m));
	return -1;
}

int wl_check_inference(struct yread *r, const struct ynode *map,
		       const char *what, const struct model *m,
		       enum precision serving, bool trace_bad,
		       struct inference *in)
{
	const char *keys[] = {"prompt_tokens", "output_tokens", "kv_precision"};
	const struct request_trace *t = in->trace;
	const long *column[] = {t ? t->prompt : NULL, t ? t->output : NULL,
				NULL};
	int bad = 0;
	in->has_kv = model_is_sequence(m);
	for (int i = 0; i < 3; i++) {
		bool given = ymap_get(map, keys[i]) != NULL;
		if (!in->has_kv && given) {
			yr_error(r, ymap_get(map, keys[i]), NULL,
				 "'%s' needs a sequence model, but model '%s' of %s takes images",
				 keys[i], wl_model_label(m), what);
			bad = 1;
		} else if (!in->has_kv && column[i]) {
			yr_error(r, ymap_get(map, "trace"), NULL,
				 "trace '%s' has %s, which need a sequence model, but model '%s' of %s takes images: give arrivals only",
				 in->trace_file, i ? "output tokens" : "prompt tokens",
				 wl_model_label(m), what);
			bad = 1;
		} else if (in->has_kv && !given && !column[i] && i < 2 &&
			   !trace_bad) {
			yr_error(r, map, NULL,
				 "missing required key '%s' in %s (model '%s' takes token sequences)",
				 keys[i], what, wl_model_label(m));
			bad = 1;
		}
	}
	bad |= check_engine_kind(r, map, m, in) < 0;
	if (!in->has_kv) {
		in->prompt_tokens = in->output_tokens = in->longest = 0;
		memset(in->prompt_range, 0, sizeof(in->prompt_range));
		memset(in->output_range, 0, sizeof(in->output_range));
		return bad ? -1 : 0;
	}
	if (!ymap_get(map, "kv_precision"))
		in->kv_precision = serving == PREC_INT8 ? PREC_BF16 : serving;
	if (bad)
		return -1;
	in->longest = in->prompt_range[1] + in->output_range[1];
	if (t && lengths_from_trace(r, map, in) < 0)
		return -1;
	if (m->kind == MODEL_TRANSFORMER && m->tf.arch == TF_ENCODER &&
	    in->output_range[1] > 0) {
		yr_error(r, ymap_get(map, t && t->output ? "trace" : "output_tokens"),
			 NULL,
			 "model '%s' is an encoder and generates no tokens: 'output_tokens' must be 0",
			 wl_model_label(m));
		return -1;
	}
	const struct ynode *at = ymap_get(map, "engine_settings");
	if (wl_engine_check(r, at ? at : map, &in->engine,
			    in->prompt_range[1]) < 0)
		return -1;
	long limit = wl_seq_limit(m);
	if (in->longest > limit && t && (t->prompt || t->output)) {
		yr_error(r, ymap_get(map, "trace"), NULL,
			 "trace '%s' holds a request of %ld tokens (prompt + output) but model '%s' takes at most %ld: leave out the requests an engine would refuse",
			 in->trace_file, in->longest, wl_model_label(m), limit);
		return -1;
	}
	if (in->longest > limit) {
		yr_error(r, ymap_get(map, "prompt_tokens"), NULL,
			 "'prompt_tokens' + 'output_tokens' is %ld tokens but model '%s' takes at most %ld",
			 in->longest, wl_model_label(m), limit);
		return -1;
	}
	return 0;
}

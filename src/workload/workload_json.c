/*
 * workload_json.c - a workload as JSON: every field, SI units named in
 * the keys, absent optional fields null.
 */
#include "workload_json.h"

#include <stdio.h>

#include "catalog/catalog_json.h"
#include "core/output.h"
#include "read_common.h"
#include "trace.h"

/* ---- JSON ---- */

static json_t *positive_or_null(double v)
{
	return v > 0 ? json_number(v) : json_null();
}

static json_t *flag_json(enum layout_flag f)
{
	return f == LAYOUT_UNSET ? json_null() : json_boolean(f == LAYOUT_ON);
}

json_t *workload_layout_json(const struct train_layout *l)
{
	json_t *j = json_object();
	json_object_set_new(j, "tp", positive_or_null((double)l->tp));
	json_object_set_new(j, "pp", positive_or_null((double)l->pp));
	json_object_set_new(j, "dp", positive_or_null((double)l->dp));
	json_object_set_new(j, "micro_batch",
			    positive_or_null((double)l->micro_batch));
	json_object_set_new(j, "interleave",
			    positive_or_null((double)l->interleave));
	json_object_set_new(j, "sequence_parallel",
			    flag_json(l->sequence_parallel));
	json_object_set_new(j, "overlap_grad_reduce",
			    flag_json(l->overlap_grad_reduce));
	return j;
}

/* The workload's own goodput inputs (null: the planner's default; the
 * plan's JSON gives the defaults and their sources); null when it says
 * nothing. */
static json_t *goodput_inputs_json(const struct goodput_inputs *g)
{
	if (!g->at.line)
		return json_null();
	json_t *j = json_object();
	json_object_set_new(j, "modelled", json_boolean(!g->off));
	json_object_set_new(j, "failure_rate_per_gpu_hour",
			    positive_or_null(g->failure_rate * 3600));
	json_object_set_new(j, "checkpoint_write_s",
			    positive_or_null(g->checkpoint_write));
	json_object_set_new(j, "checkpoint_interval_s",
			    positive_or_null(g->checkpoint_interval));
	json_object_set_new(j, "restart_s", positive_or_null(g->restart));
	return j;
}

static json_t *training_to_json(const struct training *t)
{
	json_t *j = json_object();
	json_object_set_new(j, "tokens", positive_or_null(t->tokens));
	json_object_set_new(j, "samples_per_epoch",
			    positive_or_null(t->samples));
	json_object_set_new(j, "epochs", json_integer(t->epochs));
	json_object_set_new(j, "seq_tokens", positive_or_null((double)t->seq));
	json_object_set_new(j, "global_batch_samples",
			    json_integer(t->global_batch));
	json_object_set_new(j, "total_samples", json_number(t->total_samples));
	json_object_set_new(j, "total_tokens", positive_or_null(t->total_tokens));
	json_object_set_new(j, "steps", json_number(t->steps));
	json_object_set_new(j, "optimizer",
			    json_text(optimizer_name(t->optimizer)));
	json_object_set_new(j, "zero_stage", t->zero_auto
						     ? json_null()
						     : json_integer(t->zero));
	json_object_set_new(j, "zero_auto", json_boolean(t->zero_auto));
	json_object_set_new(j, "recompute",
			    json_text(t->recompute_auto
					      ? "auto"
					      : recompute_name(t->recompute)));
	json_t *par = json_object();
	json_object_set_new(par, "max_gpus", positive_or_null((double)t->max_gpus));
	json_object_set_new(par, "max_tp", positive_or_null((double)t->max_tp));
	json_object_set_new(par, "max_pp", positive_or_null((double)t->max_pp));
	json_object_set_new(j, "parallelism", par);
	json_object_set_new(j, "instance", json_string_or_null(t->instance));
	json_object_set_new(j, "gpus", positive_or_null((double)t->fixed_gpus));
	json_object_set_new(j, "nodes",
			    positive_or_null((double)t->fixed_nodes));
	json_object_set_new(j, "layout", t->layout.at.line
						 ? workload_layout_json(&t->layout)
						 : json_null());
	json_object_set_new(j, "deadline_s", positive_or_null(t->deadline));
	json_object_set_new(j, "budget", t->has_budget
						 ? money_to_json(&t->budget)
						 : json_null());
	json_object_set_new(j, "spot", json_boolean(t->spot));
	json_object_set_new(j, "fused_attention", json_boolean(t->fused_attention));
	json_t *in = json_null();
	if (t->has_input) {
		in = json_object();
		json_object_set_new(in, "decode_s_per_sample",
				    json_number(t->decode_time_per_sample));
		json_object_set_new(in, "bytes_per_sample",
				    json_number(t->bytes_per_sample));
	}
	json_object_set_new(j, "input", in);
	json_object_set_new(j, "goodput", goodput_inputs_json(&t->goodput));
	return j;
}

/* What a service's trace gives: its rows, the columns it has, its own
 * rate and the factor its gaps are stretched by; null without one. */
json_t *workload_trace_json(const struct inference *in)
{
	const struct request_trace *t = in->trace;
	if (!t)
		return json_null();
	json_t *j = json_object();
	json_object_set_new(j, "file", json_text(in->trace_file));
	json_object_set_new(j, "requests", json_integer(t->n));
	json_object_set_new(j, "arrivals", json_boolean(t->arrival != NULL));
	json_object_set_new(j, "prompt_tokens", json_boolean(t->prompt != NULL));
	json_object_set_new(j, "output_tokens", json_boolean(t->output != NULL));
	json_object_set_new(j, "span_s", t->arrival ? json_real(t->span) : json_null());
	json_object_set_new(j, "own_rate_per_s",
			    t->arrival ? json_real(t->rate) : json_null());
	json_object_set_new(j, "time_scale", json_real(in->trace_time_scale));
	return j;
}

static json_t *inference_to_json(const struct inference *in)
{
	json_t *j = json_object();
	json_object_set_new(j, "request_rate_per_s",
			    json_number(in->request_rate));
	json_object_set_new(j, "prompt_tokens",
			    in->has_kv ? json_integer(in->prompt_tokens)
				       : json_null());
	json_object_set_new(j, "output_tokens",
			    in->has_kv ? json_integer(in->output_tokens)
				       : json_null());
	/* the shortest and longest, equal when the length is fixed */
	json_object_set_new(j, "prompt_tokens_range", in->has_kv
			    ? json_pack("[II]", (json_int_t)in->prompt_range[0],
					(json_int_t)in->prompt_range[1])
			    : json_null());
	json_object_set_new(j, "output_tokens_range", in->has_kv
			    ? json_pack("[II]", (json_int_t)in->output_range[0],
					(json_int_t)in->output_range[1])
			    : json_null());
	json_object_set_new(j, "p99_latency_s", json_number(in->target[TARGET_P99]));
	/* the token targets too, null where not set (the plan's names) */
	for (int t = TARGET_P99 + 1; t < TARGET_COUNT; t++)
		json_object_set_new(j, target_name(t)->json,
				    positive_or_null(in->target[t]));
	json_object_set_new(j, "hours_per_month",
			    json_number(in->serving_per_month / 3600));
	json_object_set_new(j, "kv_precision",
			    in->has_kv ? json_text(precision_name(in->kv_precision))
				       : json_null());
	json_object_set_new(j, "trace", workload_trace_json(in));
	return j;
}

json_t *workload_to_json(const struct workload *w)
{
	json_t *j = json_object();
	char at[512];
	json_object_set_new(j, "name", json_text(w->name));
	json_object_set_new(j, "kind", json_text(workload_kind_name(w->kind)));
	json_object_set_new(j, "model", json_text(wl_model_label(w->model)));
	json_object_set_new(j, "model_file", json_text(w->model_file));
	json_object_set_new(j, "sequence_model",
			    json_boolean(model_is_sequence(w->model)));
	json_object_set_new(j, "precision",
			    json_text(precision_name(w->precision)));
	json_t *eff = json_object();
	json_object_set_new(eff, "compute", w->efficiency_compute > 0
						    ? json_real(w->efficiency_compute)
						    : json_null());
	json_object_set_new(eff, "memory", w->efficiency_memory > 0
						   ? json_real(w->efficiency_memory)
						   : json_null());
	json_object_set_new(j, "efficiency", eff);
	if (w->kind == WORKLOAD_TRAINING)
		json_object_set_new(j, "training", training_to_json(&w->train));
	else
		json_object_set_new(j, "inference",
				    inference_to_json(&w->infer));
	snprintf(at, sizeof(at), "%s:%d:%d", w->at.file, w->at.line, w->at.col);
	json_object_set_new(j, "defined_at", json_text(at));
	return j;
}

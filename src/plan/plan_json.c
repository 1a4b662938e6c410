#include "plan/plan_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog_json.h"
#include "core/output.h"
#include "core/xalloc.h"
#include "option/reason.h"
#include "option/wording.h"
#include "plan/choose.h"
#include "serve/serve.h"
#include "train/goodput.h"
#include "workload/workload_json.h"

/*
 * Numbers through these, never jansson's directly: json_real() of an
 * infinity or a NaN returns NULL, and json_object_set_new() then drops
 * the key without a word.  check_figures() (plan.c) leaves no such figure
 * in a result; should one ever reach here it prints as null, visibly.
 */
static json_t *real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *num(double v)
{
	return isfinite(v) ? json_number(v) : json_null();
}

static json_t *index_or_null(long i)
{
	return i < 0 ? json_null() : json_integer(i);
}

static json_t *assumption(double value, const char *from)
{
	json_t *j = json_object();
	json_object_set_new(j, "value", real(value));
	json_object_set_new(j, "from", json_text(from));
	return j;
}

/* A goodput input (train/goodput.h) in the JSON's unit: its value, the
 * ends of its stated range and where each comes from. */
static json_t *goodput_input_json(const struct goodput_model *m,
				  enum goodput_input i)
{
	const struct goodput_value *v = &m->in[i];
	double k = goodput_json_scale(i);
	json_t *j = assumption(v->value * k, v->from);
	json_object_set_new(j, "low", real(v->low * k));
	json_object_set_new(j, "high", real(v->high * k));
	json_object_set_new(j, "range_from", json_text(v->range_from));
	json_object_set_new(j, "given", json_boolean(v->given));
	return j;
}

/* The goodput defaults, for the plan-wide list of assumptions. */
static void goodput_assumptions(json_t *j)
{
	struct goodput_model m;
	goodput_defaults(&m);
	for (int i = 0; i < GOODPUT_INPUTS; i++) {
		char key[64];
		snprintf(key, sizeof(key), "goodput_%s", goodput_input_key(i));
		json_object_set_new(j, key, goodput_input_json(&m, i));
	}
}

static json_t *assumptions_json(const struct efficiency *e)
{
	json_t *j = json_object();
	json_object_set_new(j, "compute_efficiency", assumption(e->compute, e->compute_from));
	json_object_set_new(j, "memory_efficiency", assumption(e->memory, e->memory_from));
	json_object_set_new(j, "link_efficiency", assumption(e->link, e->link_from));
	json_object_set_new(j, "network_efficiency_rdma", assumption(e->network_rdma, e->network_from));
	json_object_set_new(j, "network_efficiency_tcp", assumption(e->network_tcp, e->network_from));
	json_object_set_new(j, "overlap_slowdown",
			    assumption(e->overlap_slowdown, e->overlap_from));
	json_object_set_new(j, "straggler_cv",
			    assumption(e->straggler_cv, e->straggler_from));
	json_object_set_new(j, "spot_overhead", assumption(e->spot_overhead, e->spot_from));
	json_object_set_new(j, "host_link_efficiency",
			    assumption(e->host_link, e->host_link_from));
	json_object_set_new(j, "kernel_gap_graph_s", assumption(e->graph_gap, e->launch_from));
	json_object_set_new(j, "kernel_gap_stream_s", assumption(e->stream_gap, e->launch_from));
	json_object_set_new(j, "kernel_floor_stream_s", assumption(e->stream_floor, e->launch_from));
	json_object_set_new(j, "llm_iteration_host_s", assumption(e->iteration_host, e->iteration_from));
	goodput_assumptions(j);
	return j;
}

/* A training workload's goodput inputs: the defaults with its own
 * `goodput:` in their place (train/goodput.h). */
static json_t *goodput_inputs_json(const struct workload *w)
{
	struct goodput_model m;
	goodput_model_for(&w->train.goodput, &m);
	json_t *j = json_object();
	json_object_set_new(j, "modelled", json_boolean(!m.off));
	for (int i = 0; i < GOODPUT_INPUTS; i++)
		json_object_set_new(j, goodput_input_key(i), goodput_input_json(&m, i));
	json_object_set_new(j, "checkpoint_interval",
			    json_pack("{s:o,s:o}", "value", m.interval > 0
				      ? real(m.interval) : json_string("optimal"),
				      "from", json_text(m.interval_from)));
	json_object_set_new(j, "lost_work",
			    json_pack("{s:o,s:o}", "interval_fraction", real(0.5),
				      "from", json_text(goodput_lost_work_from())));
	return j;
}

/* An option's goodput: the share of its wall clock that trains, at the
 * inputs' values and their ranges' ends, with the interval and MTBF it
 * came from (null when the workload turns the model off). */
static json_t *goodput_json(const struct plan_option *o, bool modelled)
{
	json_t *j = json_object();
	json_object_set_new(j, "fraction", real(o->goodput));
	json_object_set_new(j, "low", real(o->goodput_low));
	json_object_set_new(j, "high", real(o->goodput_high));
	json_object_set_new(j, "checkpoint_interval_s",
			    modelled ? real(o->checkpoint_interval_s) : json_null());
	json_object_set_new(j, "mtbf_s", modelled ? real(o->mtbf_s) : json_null());
	return j;
}

/* "FILE:LINE", whatever the length of the path. */
static json_t *defined_at(const struct origin *at)
{
	char *text = xasprintf("%s:%d", at->file, at->line);
	json_t *j = json_text(text);
	free(text);
	return j;
}

/* Where each accelerator's and instance's figures come from, once, so
 * options can refer to them by name. */
static json_t *sources_json(const struct catalog *c)
{
	json_t *acc = json_object(), *inst = json_object();
	for (size_t i = 0; i < c->n_acc; i++) {
		const struct accelerator *a = &c->acc[i];
		json_t *j = json_object();
		json_object_set_new(j, "defined_at", defined_at(&a->at));
		json_object_set_new(j, "illustrative", json_boolean(a->illustrative));
		json_object_set_new(j, "memory_bytes", num(a->memory));
		json_object_set_new(j, "memory_bandwidth_bytes_per_s",
				    num(a->memory_bandwidth));
		json_t *peaks = json_object();
		for (int p = 0; p < PREC_COUNT; p++)
			if (a->has_peak[p])
				json_object_set_new(peaks, precision_name(p),
						    num(a->peak[p]));
		json_object_set_new(j, "peak_dense_ops_per_s", peaks);
		json_object_set_new(j, "tdp_watts", num(a->tdp));
		json_object_set_new(j, "source", sources_to_json(&a->sources));
		json_object_set_new(acc, a->name, j);
	}
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct instance *in = &c->inst[i];
		json_t *j = json_object();
		json_object_set_new(j, "defined_at", defined_at(&in->at));
		json_object_set_new(j, "price_as_of", json_text(in->as_of));
		json_object_set_new(j, "illustrative", json_boolean(in->illustrative));
		json_object_set_new(j, "owned", json_boolean(in->owned));
		json_object_set_new(j, "source", sources_to_json(&in->sources));
		json_object_set_new(j, "name", json_text(in->name));
		json_object_set_new(j, "provider", json_text(in->provider));
		json_object_set_new(j, "region", json_text(in->region));
		json_object_set_new(j, "spot_as_of", in->spot_as_of
				    ? json_text(in->spot_as_of) : json_null());
		json_object_set_new(inst, in->label, j);
	}
	json_t *j = json_object();
	json_object_set_new(j, "accelerators", acc);
	json_object_set_new(j, "instances", inst);
	return j;
}

static void set(json_t *j, const char *k, json_t *v);

static json_t *range_json(const struct sample_range *r)
{
	json_t *j = json_object();
	set(j, "low", real(r->low));
	set(j, "median", real(r->median));
	set(j, "high", real(r->high));
	return j;
}

/* The calibration the plan was made with, and what it replaced. */
static json_t *calibration_json(const struct carried *k)
{
	const struct calibration *c = k->cal;
	json_t *j = json_object();
	set(j, "file", json_text(c->file));
	set(j, "device", json_text(c->device));
	set(j, "measured", json_text(c->measured));
	set(j, "catalog_accelerator", k->acc ? json_text(k->acc->name) : json_null());
	set(j, "carried_to_catalog", json_boolean(k->compute || k->memory || k->host_link || k->link ||
				 k->launch || k->overlap || k->straggler));
	set(j, "note", json_text(k->note));
	set(j, "ranges", json_text("Monte Carlo: 1000 draws of each fitted curve's parameters from its covariance (sample_device); the delta method on the carried fractions' 95% intervals (catalog options)"));
	return j;
}

/* The workload on the measured device (sample_device.h). */
static json_t *sample_json(const struct plan_result *r, const struct carried *k)
{
	const struct sample_estimate *e = &r->sample;
	json_t *j = json_object();
	set(j, "device", json_text(k->cal->device));
	set(j, "measured", json_text(k->cal->measured));
	if (!e->present) {
		set(j, "why_not", json_text(r->sample_why));
		return j;
	}
	set(j, "batch", json_integer(e->batch));
	set(j, "seq", json_integer(e->seq));
	set(j, "precision", json_text(precision_name(e->precision_used)));
	set(j, "forward_from", json_text(e->from_step
		? "the model's own step curve, fitted from the profile's sweep"
		: "the planner's roofline of the model's ops at the measured GEMM and memory rates"));
	set(j, "forward_s", range_json(&e->forward_s));
	set(j, "kernels_forward_s", e->has_kernels ? range_json(&e->kernels_forward_s) : json_null());
	if (!e->has_kernels)
		set(j, "kernels_why_not", json_text(e->kernels_why));
	if (r->w->kind == WORKLOAD_TRAINING) {
		set(j, "step_s", range_json(&e->step_s));
		set(j, "run_s", range_json(&e->run_s));
	} else {
		set(j, "requests_per_s", range_json(&e->per_s));
	}
	return j;
}

/*
 * When and by what the plan was made, for the report's first page.  The
 * date is the UTC day of SOURCE_DATE_EPOCH when that is set (the
 * reproducible-builds convention: a pipeline that pins it gets the same
 * bytes every day), else of the clock; a day, not a moment, so two runs
 * of the same inputs on one day give the same bytes.
 */
static json_t *generated_json(void)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	char *end = NULL, date[32] = "";
	time_t t = time(NULL);
	struct tm tm;
	if (sde && *sde) {
		long long v = strtoll(sde, &end, 10);
		if (end && *end == '\0' && v >= 0 && v < 253402300800LL)
			t = (time_t)v;
	}
	if (gmtime_r(&t, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d", &tm);
	return json_pack("{s:s,s:s}", "date", date, "tool",
			 "gpuplan " GPUPLAN_VERSION);
}

json_t *plan_header_json(const struct plan *p)
{
	json_t *j = json_object();
	json_object_set_new(j, "schema", json_text("gpuplan/plan/v1"));
	json_object_set_new(j, "generated", generated_json());
	json_object_set_new(j, "currency", json_text(p->settings.currency));
	json_object_set_new(j, "ranked_by_spot", json_boolean(p->settings.spot));
	json_object_set_new(j, "assumptions", assumptions_json(&p->settings.eff));
	json_object_set_new(j, "calibration", p->settings.carried
		? calibration_json(p->settings.carried) : json_null());
	if (p->catalog->fx.present)
		json_object_set_new(j, "exchange_rates",
				    exchange_rates_to_json(&p->catalog->fx));
	json_object_set_new(j, "sources", sources_json(p->catalog));
	json_object_set_new(j, "workloads", json_array());
	return j;
}

/* A token-generating service's engine and simulated latency
 * (serve_llm.c). */
static json_t *llm_json(const struct plan_option *o)
{
	json_t *j = json_object();
	json_object_set_new(j, "engine", json_text("continuous batching, paged KV cache, chunked prefill"));
	json_object_set_new(j, "max_live_sequences", json_integer(o->llm.max_seqs));
	json_object_set_new(j, "token_budget", json_integer(o->llm.token_budget));
	json_object_set_new(j, "ttft_p50_s", real(o->llm.ttft_p50));
	json_object_set_new(j, "ttft_p99_s", real(o->llm.ttft_p99));
	json_object_set_new(j, "tpot_p50_s", real(o->llm.tpot_p50));
	json_object_set_new(j, "tpot_p99_s", real(o->llm.tpot_p99));
	json_object_set_new(j, "e2e_p50_s", real(o->llm.e2e_p50));
	json_object_set_new(j, "e2e_p99_s", real(o->p99_latency_s));
	json_object_set_new(j, "e2e_p99_interval_s", json_pack("[oo]",
			    real(o->llm.e2e_p99_lo), real(o->llm.e2e_p99_hi)));
	json_object_set_new(j, "output_tokens_per_s_per_gpu",
			    real(o->llm.tokens_per_s_per_gpu));
	json_object_set_new(j, "peak_live_sequences",
			    json_integer(o->llm.peak_concurrency));
	json_object_set_new(j, "kv_cache_tokens", real(o->llm.kv_tokens));
	json_object_set_new(j, "kv_cache_peak_use", real(o->llm.kv_peak));
	double in_m, out_m, all_m;
	bool priced = plan_token_costs(o, &in_m, &out_m, &all_m);
	json_object_set_new(j, "prompt_share_of_gpu_time",
			    priced ? real(o->llm.prefill_share) : json_null());
	json_object_set_new(j, "cost_per_million_input_tokens",
			    priced ? real(in_m) : json_null());
	json_object_set_new(j, "cost_per_million_output_tokens",
			    priced ? real(out_m) : json_null());
	json_object_set_new(j, "cost_per_million_tokens",
			    priced ? real(all_m) : json_null());
	return j;
}

static json_t *breakdown_json(const struct time_breakdown *b)
{
	json_t *j = json_object();
	json_object_set_new(j, "compute_s", real(b->compute));
	json_object_set_new(j, "memory_s", real(b->memory));
	json_object_set_new(j, "communication_s", real(b->communication));
	json_object_set_new(j, "input_s", real(b->input));
	return j;
}

static json_t *provenance_json(const struct plan_option *o, const char *currency)
{
	json_t *j = json_object();
	json_object_set_new(j, "peak", json_text("datasheet"));
	json_object_set_new(j, "memory_bandwidth", json_text("datasheet"));
	json_object_set_new(j, "efficiency", json_text("assumption"));
	json_object_set_new(j, "memory", json_text("formula (model show)"));
	json_object_set_new(j, "price",
			    json_text(o->inst->illustrative ? "illustrative"
				       : o->inst->owned ? "derived from purchase"
							: "catalog"));
	json_object_set_new(j, "currency_converted",
			    json_boolean(strcmp(o->inst->on_demand.currency, currency) != 0));
	return j;
}

/* The coded reasons with their figures, so a report can word them in
 * another language. */
static json_t *reason_codes_json(const struct plan_option *o)
{
	json_t *a = json_array();
	for (int i = 0; i < o->n_reasons; i++) {
		const struct plan_reason *r = plan_option_reason_at(o, i);
		json_t *j = json_object();
		json_object_set_new(j, "code", json_text(plan_reason_code_name(r->code)));
		json_object_set_new(j, "a", real(r->a));
		json_object_set_new(j, "b", real(r->b));
		json_object_set_new(j, "c", real(r->c));
		json_object_set_new(j, "n1", json_integer(r->n1));
		json_object_set_new(j, "n2", json_integer(r->n2));
		json_object_set_new(j, "s1", json_string_or_null(plan_reason_s1(r)));
		json_object_set_new(j, "s2", json_string_or_null(plan_reason_s2(r)));
		if (r->code == REASON_PRECISION) {
			json_object_set_new(j, "used", json_text(precision_name(r->p_used)));
			json_object_set_new(j, "wanted", json_text(precision_name(r->p_wanted)));
		}
		json_array_append_new(a, j);
	}
	return a;
}

static json_t *memory_parts_json(const struct plan_option *o)
{
	json_t *j = json_object();
	for (int p = 0; p < MEM_PARTS; p++) {
		char key[40];
		snprintf(key, sizeof(key), "%s_bytes", memory_part_name(p));
		json_object_set_new(j, key, num(round(o->memory_parts[p])));
	}
	return j;
}

static json_t *reasons_json(const struct plan_option *o)
{
	json_t *a = json_array();
	for (int i = 0; i < o->n_reasons; i++) {
		char buf[PLAN_REASON_LEN];
		plan_reason_format(o, i, buf, sizeof(buf));
		json_array_append_new(a, json_text(buf));
	}
	return a;
}

static void set(json_t *j, const char *k, json_t *v)
{
	json_object_set_new(j, k, v);
}

static json_t *load_curve_json(const struct plan_result *r,
			       const struct plan_option *o);

static json_t *option_json(const struct plan_result *r,
			   const struct plan_option *o, const char *currency)
{
	json_t *j = json_object();
	bool training = r->w->kind == WORKLOAD_TRAINING;
	/* the catalog-unique label (instance_key.h): the bare name unless
	 * another region sells it too; sources.instances uses the same */
	set(j, "instance", json_text(o->inst->label));
	set(j, "provider", json_text(o->inst->provider));
	set(j, "region", json_text(o->inst->region));
	set(j, "accelerator", json_text(o->inst->acc->name));
	set(j, "gpus", json_integer(o->gpus));
	set(j, "nodes", json_integer(o->nodes));
	/* MIG: slices apart from the physical GPUs they occupy */
	set(j, "mig_profile", o->slices > 0 ? json_text(o->sharing) : json_null());
	set(j, "slices", json_integer(o->slices));
	set(j, "slices_per_gpu", json_integer(o->slices_per_gpu));
	set(j, "feasible", json_boolean(o->feasible));
	set(j, "runnable", json_boolean(o->runnable));
	set(j, "reasons", reasons_json(o));
	set(j, "reason_codes", reason_codes_json(o));
	set(j, "precision", json_text(precision_name(o->precision_used)));
	if (training) {
		set(j, "dp", json_integer(o->dp));
		set(j, "tp", json_integer(o->tp));
		set(j, "pp", json_integer(o->pp));
		set(j, "zero", json_integer(o->zero));
		set(j, "recompute", json_string(recompute_name(o->recompute)));
		set(j, "interleave", json_integer(o->interleave));
		set(j, "sequence_parallel", json_boolean(o->sequence_parallel));
		set(j, "micro_batch", json_integer(o->micro_batch));
		set(j, "accumulation", json_integer(o->accumulation));
		set(j, "step_s", real(o->step_s));
		set(j, "time_s", real(o->time_s));
		set(j, "mfu", real(o->mfu));
		set(j, "goodput", goodput_json(o, !r->w->train.goodput.off));
	} else {
		set(j, "replicas", json_integer(o->replicas));
		/* one replica's split: tensor parallel x pipeline stages */
		set(j, "tp", json_integer(o->tp > 0 ? o->tp : 1));
		set(j, "pp", json_integer(o->pp > 0 ? o->pp : 1));
		set(j, "batch", json_integer(o->batch));
		set(j, "sharing", o->sharing[0] ? json_text(o->sharing) : json_null());
		set(j, "batch_latency_s", real(o->batch_latency_s));
		set(j, "p99_latency_s", real(o->p99_latency_s));
		set(j, "cost_per_million", real(o->cost_per_million));
		set(j, "llm", o->has_llm && o->runnable ? llm_json(o) : json_null());
		json_t *curve = load_curve_json(r, o);
		if (curve)
			set(j, "load_curve", curve);
	}
	set(j, "cost", real(o->cost));
	set(j, "cost_spot", o->has_spot ? real(o->cost_spot) : json_null());
	set(j, "spot_as_of", o->has_spot && o->inst->spot_as_of
			     ? json_text(o->inst->spot_as_of) : json_null());
	set(j, "cost_period", json_text(training ? "run" : "month"));
	set(j, "currency", json_text(currency));
	set(j, "gpu_hours", real(o->gpu_hours));
	if (training)	/* apart from the wall clock's (paid) */
		set(j, "gpu_hours_compute", real(o->gpu_hours_compute));
	set(j, "energy_kwh", real(o->energy_kwh));
	set(j, "memory_per_gpu_bytes", num(o->memory_per_gpu));
	set(j, "memory_capacity_bytes", num(o->memory_capacity));
	set(j, "memory", memory_parts_json(o));
	set(j, "breakdown", breakdown_json(&o->per_step));
	set(j, "pareto", json_boolean(o->pareto));
	/* what the front and the recommendation are chosen from */
	const char *not_actionable = plan_option_not_actionable(o);
	set(j, "actionable", json_boolean(!not_actionable));
	set(j, "why", not_actionable ? json_text(not_actionable) : json_null());
	if (o->has_range) {
		/* calibrate.h: across the measured fractions' 95% intervals;
		 * else train_range.h: the assumptions' stated ranges */
		set(j, training ? "time_range_s" : "batch_latency_range_s",
		    json_pack("{s:o,s:o}", "low", real(o->time_low_s),
			      "high", real(o->time_high_s)));
		if (training)
			set(j, "step_range_s",
			    json_pack("{s:o,s:o}", "low", real(o->step_low_s),
				      "high", real(o->step_high_s)));
		set(j, "range_level", real(o->range_level));
		set(j, "range_measured", json_boolean(o->range_measured));
		set(j, "cost_range", json_pack("{s:o,s:o}", "low", real(o->cost_low),
					       "high", real(o->cost_high)));
	}
	set(j, "provenance", provenance_json(o, currency));
	return j;
}

/* The option's latency against load, when it is one of the chosen
 * (serve.c: plan_serving_curves()); NULL otherwise. */
static json_t *load_curve_json(const struct plan_result *r,
			       const struct plan_option *o)
{
	const struct load_curve *lc = NULL;
	for (size_t i = 0; i < r->n_curves; i++)
		if (&r->v[r->curves[i].option] == o)
			lc = &r->curves[i];
	if (!lc)
		return NULL;
	json_t *points = json_array();
	for (size_t i = 0; i < lc->n; i++) {
		const struct load_point *p = &lc->p[i];
		json_t *j = json_object();
		bool ok = !p->saturated;
		set(j, "request_rate_per_s", real(p->rate));
		set(j, "e2e_p50_s", ok ? real(p->e2e_p50) : json_null());
		set(j, "e2e_p99_s", ok ? real(p->e2e_p99) : json_null());
		set(j, "ttft_p99_s", ok && o->has_llm ? real(p->ttft_p99) : json_null());
		set(j, "tpot_p99_s", ok && o->has_llm ? real(p->tpot_p99) : json_null());
		set(j, "saturated", json_boolean(p->saturated));
		json_array_append_new(points, j);
	}
	json_t *j = json_object();
	set(j, "replicas", json_integer(o->replicas));
	set(j, "points", points);
	return j;
}

/* The splits weighed for a recommended token service, each with why it
 * lost. */
static json_t *splits_json(const struct plan_result *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->n_splits; i++) {
		const struct plan_split *p = &r->splits[i];
		json_t *j = json_object();
		char why[256];
		plan_split_why(p, &r->splits[0], why, sizeof(why));
		set(j, "tp", json_integer(p->tp));
		set(j, "pp", json_integer(p->pp));
		set(j, "fits", json_boolean(p->fits));
		set(j, "meets_targets", json_boolean(p->ok));
		set(j, "replicas", p->fits ? json_integer(p->replicas) : json_null());
		set(j, "instances", p->fits ? json_integer(p->instances) : json_null());
		set(j, "max_live_sequences", p->fits ? json_integer(p->max_seqs) : json_null());
		set(j, "e2e_p99_s", p->fits ? real(p->p99) : json_null());
		set(j, "ttft_p99_s", p->fits ? real(p->ttft_p99) : json_null());
		set(j, "tpot_p99_s", p->fits ? real(p->tpot_p99) : json_null());
		set(j, "memory_per_gpu_bytes", p->fits ? real(p->memory_per_gpu) : json_null());
		set(j, "why", json_text(why));
		json_array_append_new(a, j);
	}
	return a;
}

/* The recommended option's layouts, each with why it lost. */
static json_t *layouts_json(const struct plan_result *r)
{
	json_t *a = json_array();
	double capacity = r->recommended >= 0 ? r->v[r->recommended].memory_capacity : 0;
	for (size_t i = 0; i < r->n_layouts; i++) {
		const struct plan_layout *l = &r->layouts[i];
		json_t *j = json_object();
		char why[256];
		plan_layout_why(l, &r->layouts[0], capacity, why, sizeof(why));
		set(j, "tp", json_integer(l->tp));
		set(j, "pp", json_integer(l->pp));
		set(j, "interleave", json_integer(l->interleave));
		set(j, "dp", json_integer(l->dp));
		set(j, "micro_batch", json_integer(l->micro_batch));
		set(j, "zero", json_integer(l->zero));
		set(j, "recompute", json_string(recompute_name(l->recompute)));
		set(j, "sequence_parallel", json_boolean(l->sequence_parallel));
		set(j, "fits", json_boolean(l->fits));
		set(j, "memory_per_gpu_bytes", num(l->memory_per_gpu));
		set(j, "step_s", l->fits ? real(l->step_s) : json_null());
		set(j, "why", json_string(why));
		json_array_append_new(a, j);
	}
	return a;
}

/* Nothing feasible: the closest option and what to relax (option/option.h). */
static json_t *shortfall_json(const struct plan_result *r)
{
	const struct plan_shortfall *f = &r->shortfall;
	json_t *j = json_object();
	set(j, "closest", index_or_null(f->closest));
	set(j, "violation", real(f->violation));
	set(j, "deadline_over_s", f->time_over_s > 0 ? real(f->time_over_s) : json_null());
	set(j, "budget_over", f->cost_over > 0 ? real(f->cost_over) : json_null());
	set(j, "meets_deadline", index_or_null(f->in_deadline));
	set(j, "meets_deadline_budget_over",
	    f->in_deadline >= 0 ? real(f->in_deadline_over) : json_null());
	set(j, "target", f->target >= 0
	    ? json_text(target_name((enum latency_target)f->target)->json) : json_null());
	set(j, "target_over_s", f->target >= 0 ? real(f->target_over_s) : json_null());
	set(j, "larger_instance", json_boolean(f->larger));
	return j;
}

/*
 * The engine the service was planned for: named by the workload, or the
 * default; each setting with its value (null where the engine's default is
 * not known and the planner's assumption stood in), whether the workload
 * gave it, and where the default comes from.
 */
static json_t *engine_json(const struct engine_config *c, bool named)
{
	if (!c->e)
		return json_null();
	json_t *j = json_object();
	set(j, "name", json_text(c->e->name));
	set(j, "version", json_text(c->e->version));
	set(j, "named_by_workload", json_boolean(named));
	json_t *settings = json_object();
	for (int k = 0; k < ES_SETTINGS; k++) {
		if (!c->e->native[k] && !c->given[k])
			continue;	/* not a setting of this engine */
		json_t *v = json_object();
		set(v, "key", json_text(c->e->native[k] ? c->e->native[k]
						       : engine_setting_name(k)));
		set(v, "value", num(c->v[k]));
		set(v, "given", json_boolean(c->given[k]));
		set(v, "from", json_text(c->given[k] ? "workload"
					 : c->e->d[k].source));
		json_object_set_new(settings, engine_setting_name(k), v);
	}
	set(j, "settings", settings);
	return j;
}

json_t *plan_result_head_json(const struct plan *p, const struct plan_result *r)
{
	json_t *j = json_object();
	const struct workload *w = r->w;
	set(j, "name", json_text(w->name));
	set(j, "kind", json_text(workload_kind_name(w->kind)));
	set(j, "model", json_text(w->model->name));
	set(j, "precision", json_text(precision_name(w->precision)));
	set(j, "recommended", index_or_null(r->recommended));
	set(j, "runner_up", index_or_null(r->runner_up));
	set(j, "cheapest_meeting_deadline", index_or_null(r->cheapest_in_deadline));
	set(j, "fastest_within_budget", index_or_null(r->fastest_in_budget));
	set(j, "recommendation", json_text(r->why ? r->why : ""));
	set(j, "obvious_alternative", index_or_null(r->obvious));
	set(j, "spot_acceptable", json_boolean(plan_spot_acceptable(&p->settings, w)));
	set(j, "shortfall", r->recommended < 0 ? shortfall_json(r) : json_null());
	set(j, "saving", real(r->saving));
	json_t *classes = json_object();
	for (int k = 0; k < OPC_COUNT; k++) {
		json_t *c = json_object();
		set(c, "flops_per_sample", num(r->classes[k].flops));
		set(c, "weight_bytes", num(r->classes[k].weight_bytes));
		set(c, "activation_bytes_per_sample", num(r->classes[k].act_bytes));
		json_object_set_new(classes, op_class_name(k), c);
	}
	set(j, "op_classes", classes);
	if (w->kind == WORKLOAD_TRAINING) {
		set(j, "deadline_s", w->train.deadline > 0 ? real(w->train.deadline) : json_null());
		set(j, "budget", r->budget > 0 ? real(r->budget) : json_null());
		set(j, "layouts_considered", layouts_json(r));
		set(j, "goodput_inputs", goodput_inputs_json(w));
	} else {
		const struct inference *in = &w->infer;
		for (int t = 0; t < TARGET_COUNT; t++)
			set(j, target_name((enum latency_target)t)->json,
			    in->target[t] > 0 ? real(in->target[t]) : json_null());
		set(j, "request_rate_per_s", real(w->infer.request_rate));
		set(j, "engine", engine_json(&in->engine, in->engine_named));
		/* the phase that takes most of the recommended service's GPU
		 * time, for the report's roofline: a chat service is decode */
		const struct plan_option *rec =
			r->recommended >= 0 ? &r->v[r->recommended] : NULL;
		bool phases = rec && rec->has_llm && rec->llm.prefill_share >= 0 &&
			      in->prompt_tokens > 0;
		set(j, "prompt_tokens", in->prompt_tokens > 0
		    ? json_integer(in->prompt_tokens) : json_null());
		set(j, "dominant_phase", !phases ? json_null()
		    : json_text(rec->llm.prefill_share >= 0.5 ? "prefill" : "decode"));
		set(j, "trace", workload_trace_json(in));
		set(j, "splits_considered", splits_json(r));
	}
	if (p->settings.carried)
		set(j, "sample_device", sample_json(r, p->settings.carried));
	return j;
}

json_t *plan_option_json(const struct plan *p, const struct plan_result *r,
			 size_t i)
{
	return option_json(r, &r->v[i], p->settings.currency);
}

json_t *plan_result_json(const struct plan *p, const struct plan_result *r)
{
	json_t *j = plan_result_head_json(p, r), *opts = json_array();
	for (size_t i = 0; i < r->n; i++)
		json_array_append_new(opts, plan_option_json(p, r, i));
	set(j, "options", opts);
	return j;
}

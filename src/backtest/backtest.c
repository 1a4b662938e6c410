/*
 * backtest.c - each outcome record predicted on its own hardware, and
 * each of its measurements compared with the prediction; the summary
 * over all of them; the JSON form.
 */
#include "backtest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/output.h"
#include "core/xalloc.h"
#include "option/settings.h"
#include "serve/serve.h"
#include "serve/serve_llm.h"
#include "train/train.h"

/* ---- FLOP counts ---- */

double backtest_megatron_flops(double batch, double seq, double layers,
			       double hidden, double vocab)
{
	return 96 * batch * seq * layers * hidden * hidden *
	       (1 + seq / (6 * hidden) + vocab / (16 * layers * hidden));
}

double backtest_step_flops(const struct outcome *o, double forward,
			   enum recompute used)
{
	const struct workload *w = o->w;
	double batch = (double)w->train.global_batch;
	switch (o->counted) {
	case COUNT_MEGATRON_2021: {
		const struct transformer_config *tf = &w->model->tf;
		return backtest_megatron_flops(batch, (double)w->train.seq,
					       (double)tf->layers,
					       (double)tf->hidden,
					       (double)tf->vocab);
	}
	case COUNT_MODEL:
		return 3 * forward * batch;
	case COUNT_HARDWARE:
		return (used == RECOMPUTE_FULL ? 4 : 3) * forward * batch;
	}
	return 0;
}

/* ---- one record ---- */

/* The settings for o's workload: the defaults, with its own efficiencies
 * where it gives them (as plan.c plans a workload). */
static struct plan_settings settings_for(const struct workload *w)
{
	struct plan_settings base;
	plan_settings_default(&base);
	return plan_settings_for(&base, w);
}

/* Why an option cannot stand for the run (it does not fit, or a figure
 * is out of range), into why; false when it can. */
static bool cannot_run(const struct plan_option *opt, char *why, size_t len)
{
	for (int i = 0; i < opt->n_reasons; i++) {
		enum reason_code c = plan_option_reason_at(opt, i)->code;
		if (c == REASON_MEMORY || c == REASON_OUT_OF_RANGE) {
			plan_reason_format(opt, i, why, len);
			return true;
		}
	}
	if (!isfinite(opt->step_s) || opt->step_s <= 0) {
		snprintf(why, len, "the planner's step time is out of range");
		return true;
	}
	return false;
}

/* The option's range, as the option gives it; the run's only when the
 * record states the run's length (as for time_s). */
static void copy_range(const struct plan_option *opt, bool has_run,
		       struct backtest_plan *bp)
{
	bp->has_range = opt->has_range;
	if (!opt->has_range)
		return;
	bp->step_low_s = opt->step_low_s;
	bp->step_high_s = opt->step_high_s;
	bp->time_low_s = has_run ? opt->time_low_s : 0;
	bp->time_high_s = has_run ? opt->time_high_s : 0;
}

/*
 * The planner's option for o, into *bp, with its per-sample forward FLOPs
 * in *forward.  Returns false with a reason in why when there is none.
 */
static bool predict(const struct catalog *c, const struct outcome *o,
		    double level, struct backtest_plan *bp, double *forward,
		    char *why, size_t len)
{
	/* A copy: a record of unstated length is planned as one step, its
	 * totals then unused (gpu_hours and days need the length). */
	struct workload w = *o->w;
	if (w.train.total_samples <= 0) {
		w.train.total_samples = (double)w.train.global_batch;
		w.train.total_tokens = w.train.total_samples * (double)w.train.seq;
		w.train.steps = 1;
	}
	struct plan_settings s = settings_for(&w);
	s.range_level = level;
	struct gp_errors errs;
	gp_errors_init(&errs);
	struct train_prep *tp = train_prepare(c, &w, &errs);
	if (!tp) {
		snprintf(why, len, "%s", errs.n ? errs.v[0].msg
					       : "the model does not build");
		gp_errors_free(&errs);
		return false;
	}
	gp_errors_free(&errs);
	*forward = train_prep_forward_flops(tp);
	struct plan_result r;
	memset(&r, 0, sizeof(r));
	r.w = &w;
	const struct plan_option *opt =
		plan_training_at(tp, o->inst, o->nodes, &s, &r, why, len);
	bool ok = opt && !cannot_run(opt, why, len);
	if (ok) {
		*bp = (struct backtest_plan){
			.tp = opt->tp, .pp = opt->pp, .dp = opt->dp,
			.micro_batch = opt->micro_batch,
			.interleave = opt->interleave,
			.sequence_parallel = opt->sequence_parallel,
			.zero = opt->zero, .recompute = opt->recompute,
			.step_s = opt->step_s,
			.time_s = o->w->train.total_samples > 0 ? opt->time_s : 0,
			.gpu_hours = o->w->train.total_samples > 0
					     ? opt->gpu_hours : 0,
			.mfu = opt->mfu,
		};
		copy_range(opt, o->w->train.total_samples > 0, bp);
	}
	plan_result_free(&r);
	train_prep_free(tp);
	return ok;
}

/*
 * A serving record: its model prepared as the planner prepares a service,
 * one replica of the engine's tensor-parallel degree on the record's
 * accelerator (the instance's GPU-to-GPU link), the paged cache the
 * memory leaves (serve_llm.h), and the record's traffic simulated through
 * the engine's limits.
 */
/*
 * A record of a model batched whole (an image model, an encoder): batches
 * of up to the engine's max_batch, priced as the planner prices them
 * (TensorRT's kernels launched from the host), through the dynamic
 * batcher under the record's load: one client sending a request of
 * max_batch samples at a time is trtexec's loop.
 */
static bool predict_batched(const struct outcome *o, struct serve_prep *sp,
			    const struct serve_device *d,
			    struct backtest_plan *bp, char *why, size_t len)
{
	const struct outcome_serving *sv = &o->sv;
	int top = 0, ti = 0;
	while ((1L << top) < sv->max_batch)
		top++;
	while ((1L << ti) < sv->tp && ti + 1 < SERVE_TPS)
		ti++;
	double need = serve_memory(sp, ti, top, d->elem);
	if (need > accelerator_memory_capacity(o->inst->acc)) {
		snprintf(why, len, "a batch of %ld needs %.3g GB per GPU; %s has %.3g GB",
			 sv->max_batch, need / 1e9, o->inst->acc->name,
			 accelerator_memory_capacity(o->inst->acc) / 1e9);
		return false;
	}
	const struct cb_load *cl = &sv->load;
	struct dbatch_load l = {
		.rate = cl->arrivals == CB_POISSON ? cl->rate : 0,
		.clients = cl->arrivals == CB_CLOSED ? cl->clients
			 : cl->arrivals == CB_OFFLINE ? cl->requests : 0,
		.samples = sv->samples, .requests = cl->requests, .seed = 1,
	};
	if (serve_simulate_batched(sp, d, sv->max_batch, &l, &bp->batch_s,
				   &bp->batch) < 0) {
		snprintf(why, len, "the engine's limits or the load are out of range");
		return false;
	}
	if (bp->batch.saturated) {
		snprintf(why, len, "the request rate is past what the engine serves: the queue grows without bound");
		return false;
	}
	bp->step_s = bp->batch_s;
	return true;
}

/* The record's token budget: as it states it, else its engine's where
 * the table knows it, else the assumed ENGINE_DEFAULT_BUDGET it holds
 * (never below its live sequences, which each decode a token). */
static long record_budget(const struct outcome *o, const struct serve_prep *sp,
			  double capacity)
{
	if (o->sv.budget_stated)
		return o->sv.token_budget;
	struct llm_engine_use u;
	llm_engine_resolve(sp, capacity, &u);
	long b = u.budget > 0 ? u.budget : o->sv.token_budget;
	return b < o->sv.max_seqs ? o->sv.max_seqs : b;
}

static bool predict_serving(const struct outcome *o, struct backtest_plan *bp,
			    char *why, size_t len)
{
	const struct accelerator *a = o->inst->acc;
	/* the record's engine says how its graph is fused (fusion.h) */
	enum fusion_rules rules = fusion_rules_for(o->sv.engine, a,
						   o->w->precision);
	struct serve_prep *sp = serve_prepare_fused(o->w, rules, why, len);
	if (!sp)
		return false;
	struct plan_settings s = settings_for(o->w);
	struct serve_device d;
	serve_device_init(&d, a, o->w->precision, &s.eff, o->sv.tp, 1, 1,
			  &o->inst->intra);
	bp->tp = o->sv.tp;
	bp->pp = bp->dp = 1;
	if (o->sv.batched) {
		bool ok = predict_batched(o, sp, &d, bp, why, len);
		serve_prep_free(sp);
		return ok;
	}
	double parts[MEM_PARTS] = {0};
	double capacity = accelerator_memory_capacity(a);
	long budget = record_budget(o, sp, capacity);
	bp->token_budget = budget;
	bp->kv_tokens = llm_kv_tokens(sp, &d, capacity, budget, o->sv.max_seqs,
				      parts);
	struct cb_engine e;
	llm_engine_at(sp, capacity, o->sv.max_seqs, budget, bp->kv_tokens, &e);
	bool ok = llm_simulate(sp, &d, &e, &o->sv.load, &bp->sim) == 0;
	if (!ok)
		snprintf(why, len, "the engine's limits or the load are out of range");
	else if (bp->sim.never_fits) {
		snprintf(why, len, "one request's KV cache (%ld tokens) does not fit the %.4g tokens the memory leaves on %s",
			 o->sv.load.prompt + o->sv.load.output, bp->kv_tokens,
			 a->name);
		ok = false;
	} else if (bp->sim.saturated) {
		snprintf(why, len, "the request rate is past what the engine serves: the queue grows without bound");
		ok = false;
	}
	bp->tp = o->sv.tp;
	bp->pp = bp->dp = 1;
	bp->step_s = bp->sim.tpot.mean;
	serve_prep_free(sp);
	return ok;
}

/* A batched record's measurement from the batcher's simulation. */
static double batched_value(const struct outcome *o, enum measure m,
			    const struct dbatch_result *r)
{
	switch (m) {
	case MEASURE_SAMPLES_PER_S: return r->samples_per_s;
	case MEASURE_REQUESTS_PER_S: return r->samples_per_s / (double)o->sv.samples;
	case MEASURE_E2E_MEAN: return r->latency.mean;
	case MEASURE_E2E_P50: return r->latency.p50;
	case MEASURE_E2E_P99: return r->latency.p99;
	default: return 0;
	}
}

/* A serving measurement from the simulation. */
static double serving_value(const struct outcome *o, enum measure m,
			    const struct cb_result *r)
{
	double prompt = (double)o->sv.load.prompt, out = (double)o->sv.load.output;
	switch (m) {
	case MEASURE_OUTPUT_TOKENS_PER_S: return r->requests_per_s * out;
	case MEASURE_TOTAL_TOKENS_PER_S: return r->requests_per_s * (prompt + out);
	case MEASURE_REQUESTS_PER_S: return r->requests_per_s;
	case MEASURE_TTFT_MEAN: return r->ttft.mean;
	case MEASURE_TTFT_P50: return r->ttft.p50;
	case MEASURE_TTFT_P99: return r->ttft.p99;
	case MEASURE_TPOT_MEAN: return r->tpot.mean;
	case MEASURE_TPOT_P50: return r->tpot.p50;
	case MEASURE_TPOT_P99: return r->tpot.p99;
	case MEASURE_E2E_MEAN: return r->e2e.mean;
	case MEASURE_E2E_P50: return r->e2e.p50;
	case MEASURE_E2E_P99: return r->e2e.p99;
	default: return 0;
	}
}

/* The row's comparison, from the record's measurement and the plan. */
static void compare(struct backtest_row *row, double forward)
{
	const struct outcome *o = row->o;
	const struct backtest_plan *bp = &row->plan;
	const struct training *t = &o->w->train;
	double tokens = o->serving ? 0 : (double)t->global_batch * (double)t->seq;
	row->measured_cmp = row->measured;
	switch (row->m) {
	case MEASURE_STEP_TIME:
		row->predicted_cmp = bp->step_s;
		break;
	case MEASURE_FLOPS_PER_GPU:
		row->step_flops = backtest_step_flops(o, forward, bp->recompute);
		row->measured_cmp = row->step_flops / (row->measured * (double)o->gpus);
		row->predicted_cmp = bp->step_s;
		break;
	case MEASURE_TOKENS_PER_S:
		row->predicted_cmp = tokens / bp->step_s;
		break;
	case MEASURE_MFU:
		row->predicted_cmp = bp->mfu;
		break;
	case MEASURE_GPU_HOURS:
		row->predicted_cmp = bp->gpu_hours;
		break;
	case MEASURE_DAYS:
		row->predicted_cmp = bp->time_s / 86400;
		break;
	default:
		row->predicted_cmp = o->sv.batched
			? batched_value(o, row->m, &bp->batch)
			: serving_value(o, row->m, &bp->sim);
		break;
	}
	row->predicted_own = row->m == MEASURE_FLOPS_PER_GPU
		? row->step_flops / (bp->step_s * (double)o->gpus)
		: row->predicted_cmp;
	row->error = row->predicted_cmp / row->measured_cmp - 1;
	row->tolerance = outcome_tolerance(o, row->m);
	row->within = fabs(row->error) <= row->tolerance;
}

/* lo .. hi is a finite interval of positive numbers. */
static bool interval_ok(double lo, double hi)
{
	return isfinite(lo) && isfinite(hi) && lo > 0 && lo <= hi;
}

/* The range in the compared terms and in the row's own. */
static void set_range(struct backtest_row *row, double low_cmp,
		      double high_cmp, double low_own, double high_own)
{
	row->has_range = interval_ok(low_cmp, high_cmp) &&
			 interval_ok(low_own, high_own);
	row->low_cmp = low_cmp;
	row->high_cmp = high_cmp;
	row->low_own = low_own;
	row->high_own = high_own;
}

void backtest_row_range(struct backtest_row *row)
{
	const struct backtest_plan *bp = &row->plan;
	row->has_range = false;
	if (row->o->serving || !row->predicted || !bp->has_range)
		return;
	double lo = bp->step_low_s, hi = bp->step_high_s, step = bp->step_s;
	/* a rate goes as 1 / step: its low end is the slow step */
	double slow = step / hi, fast = step / lo;
	switch (row->m) {
	case MEASURE_STEP_TIME:
		set_range(row, lo, hi, lo, hi);
		break;
	case MEASURE_FLOPS_PER_GPU:
		set_range(row, lo, hi, row->predicted_own * slow,
			  row->predicted_own * fast);
		break;
	case MEASURE_TOKENS_PER_S:
	case MEASURE_MFU:
		set_range(row, row->predicted_cmp * slow,
			  row->predicted_cmp * fast, row->predicted_cmp * slow,
			  row->predicted_cmp * fast);
		break;
	case MEASURE_GPU_HOURS: {
		if (!(bp->time_s > 0))
			return;
		double l = row->predicted_cmp * bp->time_low_s / bp->time_s;
		double h = row->predicted_cmp * bp->time_high_s / bp->time_s;
		set_range(row, l, h, l, h);
		break;
	}
	case MEASURE_DAYS: {
		if (!(bp->time_s > 0))
			return;
		double l = bp->time_low_s / 86400, h = bp->time_high_s / 86400;
		set_range(row, l, h, l, h);
		break;
	}
	default:	/* serving: no range yet */
		break;
	}
}

bool backtest_row_covered(const struct backtest_row *row)
{
	return row->has_range && row->measured_cmp >= row->low_cmp &&
	       row->measured_cmp <= row->high_cmp;
}

static struct backtest_row *add_row(struct backtest *bt)
{
	xgrow((void **)&bt->v, &bt->cap, bt->n + 1, sizeof(*bt->v));
	struct backtest_row *row = &bt->v[bt->n++];
	memset(row, 0, sizeof(*row));
	return row;
}

static void backtest_record(struct backtest *bt, const struct catalog *c,
			    const struct outcome *o)
{
	struct backtest_plan bp;
	memset(&bp, 0, sizeof(bp));
	double forward = 0;
	char why[PLAN_REASON_LEN] = "";
	bool ok = o->serving ? predict_serving(o, &bp, why, sizeof(why))
			     : predict(c, o, bt->range_level, &bp, &forward,
				       why, sizeof(why));
	for (int m = 0; m < MEASURE_COUNT; m++) {
		if (!o->m[m].has)
			continue;
		struct backtest_row *row = add_row(bt);
		row->o = o;
		row->m = (enum measure)m;
		row->tolerance = outcome_tolerance(o, row->m);
		row->measured = o->m[m].v;
		row->predicted = ok;
		if (!ok) {
			snprintf(row->reason, sizeof(row->reason), "%s", why);
			continue;
		}
		row->plan = bp;
		compare(row, forward);
		if (!isfinite(row->error) || !isfinite(row->predicted_own) ||
		    !(row->measured_cmp > 0)) {
			/* a model of no FLOPs counted as `model`, say */
			row->predicted = row->within = false;
			snprintf(row->reason, sizeof(row->reason),
				 "the comparison is out of range (the measurement in the compared terms is %g)",
				 row->measured_cmp);
		}
		backtest_row_range(row);
	}
}

static void summarise(struct backtest *bt)
{
	double sum = 0, held = 0;
	bt->n_predicted = bt->n_within = bt->n_failed = bt->n_held = 0;
	bt->max_abs_error = 0;
	bt->max_row = -1;
	for (size_t i = 0; i < bt->n; i++) {
		const struct backtest_row *row = &bt->v[i];
		if (!row->predicted) {
			bt->n_failed++;
			continue;
		}
		double e = fabs(row->error);
		bt->n_predicted++;
		bt->n_within += row->within;
		sum += e;
		if (!row->o->known_miss) {
			bt->n_held++;
			held += e;
		}
		if (bt->max_row < 0 || e > bt->max_abs_error) {
			bt->max_abs_error = e;
			bt->max_row = (long)i;
		}
	}
	bt->mean_abs_error = bt->n_predicted ? sum / (double)bt->n_predicted : 0;
	bt->mean_abs_error_held = bt->n_held ? held / (double)bt->n_held : 0;
}

void backtest_file(struct backtest *bt, const struct catalog *c,
		   const struct outcome_file *f)
{
	if (!(bt->range_level > 0)) {
		struct plan_settings s;
		plan_settings_default(&s);
		bt->range_level = s.range_level;
	}
	for (size_t i = 0; i < f->n; i++)
		backtest_record(bt, c, &f->v[i]);
	summarise(bt);
}

void backtest_free(struct backtest *bt)
{
	free(bt->v);
	memset(bt, 0, sizeof(*bt));
}

/* ---- JSON ---- */

/* "step_time_s", ...: the measurement's key with its SI unit. */
static const char *measure_key(enum measure m)
{
	static const char *const keys[MEASURE_COUNT] = {
		"step_time_s", "flops_per_gpu_flop_per_s", "tokens_per_s",
		"mfu_fraction", "gpu_hours", "days", "output_tokens_per_s",
		"total_tokens_per_s", "requests_per_s", "samples_per_s",
		"ttft_mean_s",
		"ttft_p50_s", "ttft_p99_s", "tpot_mean_s", "tpot_p50_s",
		"tpot_p99_s", "e2e_mean_s", "e2e_p50_s", "e2e_p99_s"};
	return keys[m];
}

/* A serving record's engine and traffic, as simulated. */
static json_t *serving_json(const struct backtest_row *row)
{
	const struct outcome_serving *sv = &row->o->sv;
	static const char *const arrivals[] = {"poisson", "closed_loop", "offline"};
	json_t *j = json_object();
	json_object_set_new(j, "engine", json_text(sv->engine));
	json_object_set_new(j, "tp", json_integer(sv->tp));
	json_object_set_new(j, "batched", json_boolean(sv->batched));
	json_object_set_new(j, "max_batch", sv->batched ? json_integer(sv->max_batch)
						       : json_null());
	json_object_set_new(j, "samples_per_request", sv->batched
			    ? json_integer(sv->samples) : json_null());
	json_object_set_new(j, "batch_s", sv->batched && row->predicted
			    ? json_real(row->plan.batch_s) : json_null());
	json_object_set_new(j, "max_live_sequences", sv->batched ? json_null()
				 : json_integer(sv->max_seqs));
	json_object_set_new(j, "token_budget", sv->batched || !row->predicted
				 ? json_null() : json_integer(row->plan.token_budget));
	json_object_set_new(j, "arrivals", json_string(arrivals[sv->load.arrivals]));
	json_object_set_new(j, "clients", sv->load.arrivals == CB_CLOSED
				 ? json_integer(sv->load.clients) : json_null());
	json_object_set_new(j, "request_rate_per_s", sv->load.arrivals == CB_POISSON
				 ? json_real(sv->load.rate) : json_null());
	json_object_set_new(j, "requests", json_integer(sv->load.requests));
	json_object_set_new(j, "kv_cache_tokens", row->predicted && !sv->batched
				 ? json_real(row->plan.kv_tokens) : json_null());
	json_object_set_new(j, "peak_live_sequences", row->predicted && !sv->batched
				 ? json_integer(row->plan.sim.peak_concurrency) : json_null());
	return j;
}

static json_t *layout_json(const struct backtest_row *row)
{
	if (row->o->serving)
		return serving_json(row);
	const struct train_layout *l = &row->o->w->train.layout;
	const struct backtest_plan *p = &row->plan;
	json_t *j = json_object();
	const char *keys[] = {"tp", "pp", "dp", "micro_batch", "interleave"};
	long given[] = {l->tp, l->pp, l->dp, l->micro_batch, l->interleave};
	long used[] = {p->tp, p->pp, p->dp, p->micro_batch, p->interleave};
	json_t *from = json_object();
	for (int i = 0; i < 5; i++) {
		json_object_set_new(j, keys[i], row->predicted
					 ? json_integer(used[i]) : json_null());
		json_object_set_new(from, keys[i],
				    json_string(given[i] ? "record" : "planner"));
	}
	json_object_set_new(j, "sequence_parallel",
			    row->predicted ? json_boolean(p->sequence_parallel)
					   : json_null());
	json_object_set_new(j, "zero_stage", row->predicted
					 ? json_integer(p->zero) : json_null());
	json_object_set_new(j, "recompute",
			    row->predicted ? json_text(recompute_name(p->recompute))
					   : json_null());
	json_object_set_new(j, "from", from);
	return j;
}

/* The prediction's range in the measurement's own unit (the row's
 * unit_key) and in the compared terms (compared_as); null without one. */
static json_t *range_json(const struct backtest_row *row)
{
	if (!row->has_range)
		return json_null();
	json_t *j = json_object();
	json_object_set_new(j, "low", json_number(row->low_own));
	json_object_set_new(j, "high", json_number(row->high_own));
	json_object_set_new(j, "low_compared", json_number(row->low_cmp));
	json_object_set_new(j, "high_compared", json_number(row->high_cmp));
	json_object_set_new(j, "covered", json_boolean(backtest_row_covered(row)));
	return j;
}

static json_t *row_json(const struct backtest_row *row)
{
	const struct outcome *o = row->o;
	json_t *j = json_object();
	char at[600];
	json_object_set_new(j, "record", json_text(o->name));
	snprintf(at, sizeof(at), "%s:%d:%d", o->at.file, o->at.line, o->at.col);
	json_object_set_new(j, "defined_at", json_text(at));
	json_object_set_new(j, "instance", o->is_inline ? json_null()
							: json_text(o->inst->label));
	json_object_set_new(j, "accelerator", json_text(o->inst->acc->name));
	json_object_set_new(j, "gpus", json_integer(o->gpus));
	json_object_set_new(j, "nodes", json_integer(o->nodes));
	json_object_set_new(j, "layout", layout_json(row));
	json_object_set_new(j, "quantity", json_string(measure_name(row->m)));
	json_object_set_new(j, "unit_key", json_string(measure_key(row->m)));
	json_object_set_new(j, "flops_counted",
			    row->m == MEASURE_FLOPS_PER_GPU
				    ? json_string(flops_counting_name(o->counted))
				    : json_null());
	json_object_set_new(j, "measured", json_number(row->measured));
	json_object_set_new(j, "measured_as_written",
			    json_text(o->m[row->m].text));
	bool step = row->m == MEASURE_FLOPS_PER_GPU;
	json_object_set_new(j, "compared_as",
			    json_string(step ? "step_time_s"
					     : measure_key(row->m)));
	json_object_set_new(j, "step_flops", step && row->predicted
					 ? json_number(row->step_flops)
					 : json_null());
	json_object_set_new(j, "measured_compared", row->predicted
					 ? json_number(row->measured_cmp)
					 : json_null());
	json_object_set_new(j, "predicted", row->predicted
					? json_number(row->predicted_own)
					: json_null());
	json_object_set_new(j, "predicted_compared", row->predicted
					 ? json_number(row->predicted_cmp)
					 : json_null());
	json_object_set_new(j, "predicted_step_s", row->predicted
					 ? json_number(row->plan.step_s)
					 : json_null());
	json_object_set_new(j, "range", range_json(row));
	json_object_set_new(j, "error", row->predicted
				       ? json_real(row->error) : json_null());
	json_object_set_new(j, "tolerance", json_real(row->tolerance));
	json_object_set_new(j, "within_tolerance", json_boolean(row->within));
	json_object_set_new(j, "known_miss", o->known_miss
					       ? json_string(o->known_miss)
					       : json_null());
	json_object_set_new(j, "reason", row->predicted ? json_null()
							: json_text(row->reason));
	return j;
}

json_t *backtest_json(const struct backtest *bt)
{
	json_t *j = json_object();
	json_object_set_new(j, "schema", json_string("gpuplan/backtest/v1"));
	json_t *rows = json_array();
	for (size_t i = 0; i < bt->n; i++)
		json_array_append_new(rows, row_json(&bt->v[i]));
	json_object_set_new(j, "rows", rows);
	json_t *s = json_object();
	json_object_set_new(s, "rows", json_integer((json_int_t)bt->n));
	json_object_set_new(s, "range_level_fraction", json_real(bt->range_level));
	json_object_set_new(s, "predicted",
			    json_integer((json_int_t)bt->n_predicted));
	json_object_set_new(s, "within_tolerance",
			    json_integer((json_int_t)bt->n_within));
	json_object_set_new(s, "not_predicted",
			    json_integer((json_int_t)bt->n_failed));
	json_object_set_new(s, "mean_abs_error", bt->n_predicted
					 ? json_real(bt->mean_abs_error)
					 : json_null());
	json_object_set_new(s, "held", json_integer((json_int_t)bt->n_held));
	json_object_set_new(s, "mean_abs_error_held", bt->n_held
					      ? json_real(bt->mean_abs_error_held)
					      : json_null());
	json_object_set_new(s, "largest_abs_error", bt->max_row >= 0
					    ? json_real(bt->max_abs_error)
					    : json_null());
	json_object_set_new(s, "largest_record", bt->max_row >= 0
				 ? json_text(bt->v[bt->max_row].o->name)
				 : json_null());
	json_object_set_new(j, "summary", s);
	return j;
}

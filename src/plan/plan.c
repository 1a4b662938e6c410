/*
 * plan.c - running the estimators over every workload and instance.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/suggest.h"
#include "core/xalloc.h"
#include "plan/choose.h"
#include "plan/plan.h"
#include "train/train.h"
#include "plan/prep_cache.h"
#include "serve/serve.h"

/* ---- which instances ---- */

/* Whether one of specs (NAME, REGION/NAME, PROVIDER/REGION/NAME:
 * instance_key.h) names in. */
static bool named_in(const struct instance *in, const char *const *specs,
		     size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (instance_matches(in, specs[i]))
			return true;
	return false;
}

bool plan_instance_wanted(const struct plan_settings *s,
			  const struct workload *w, const struct instance *in)
{
	if (s->n_only && !named_in(in, s->only, s->n_only))
		return false;
	if (!instance_filter_keeps(&s->where, in))
		return false;
	if (w->kind == WORKLOAD_TRAINING && w->train.instance &&
	    !instance_matches(in, w->train.instance))
		return false;
	return true;
}

/* Whether some instance that spec names is also one --instance names. */
static bool overlaps(const struct catalog *c, const char *spec,
		     const char *const *only, size_t n_only)
{
	for (size_t i = 0; i < c->n_inst; i++)
		if (instance_matches(&c->inst[i], spec) &&
		    named_in(&c->inst[i], only, n_only))
			return true;
	return false;
}

int plan_check_instances(const struct catalog *c,
			 const struct workload_file *wf,
			 const char *const *only, size_t n_only,
			 struct gp_errors *errs)
{
	size_t before = gp_errors_count(errs);
	char hint[320];
	for (size_t i = 0; i < n_only; i++)
		if (!catalog_count_matches(c, only[i], NULL))
			gp_errors_add(errs, NULL, 0, 0,
				      instance_hint(c, only[i], hint, sizeof(hint)),
				      "--instance: no instance '%s' in the catalog",
				      only[i]);
	for (size_t i = 0; wf && i < wf->n; i++) {
		const struct workload *w = &wf->v[i];
		const struct origin *at = &w->train.instance_at;
		if (w->kind != WORKLOAD_TRAINING || !w->train.instance)
			continue;
		if (!catalog_count_matches(c, w->train.instance, NULL))
			gp_errors_add(errs, at->file, at->line, at->col,
				      instance_hint(c, w->train.instance, hint,
						    sizeof(hint)),
				      "workload '%s' names instance '%s', which is not in the catalog",
				      w->name, w->train.instance);
		else if (n_only && !overlaps(c, w->train.instance, only, n_only))
			gp_errors_add(errs, at->file, at->line, at->col, NULL,
				      "workload '%s' runs on instance '%s' only, which --instance leaves out",
				      w->name, w->train.instance);
	}
	return (int)(gp_errors_count(errs) - before);
}

/* The workload's budget in the plan currency (0 without one). */
static int convert_budget(const struct catalog *c, const struct workload *w,
			  const struct plan_settings *s, struct plan_result *r,
			  char *why, size_t len)
{
	if (w->kind != WORKLOAD_TRAINING || !w->train.has_budget)
		return 0;
	struct money b;
	char what[320];
	snprintf(what, sizeof(what), "the budget of workload '%s' is", w->name);
	if (catalog_convert_at(c, &w->train.budget, s->currency,
			       &w->train.budget_at, what, &b, why, len) < 0)
		return -1;
	r->budget = b.amount;
	return 0;
}

/* The model's work per sample by op class (for rooflines in reports). */
static void class_totals(const struct model_graph *g, int elem,
			 struct plan_result *r)
{
	for (size_t i = 0; i < g->n; i++) {
		const struct op *o = &g->ops[i];
		enum op_class c = op_kind_class(o->kind);
		r->classes[c].flops += o->flops;
		r->classes[c].weight_bytes += op_weight_reads(o) * elem;
		r->classes[c].act_bytes +=
			(o->act_read + o->act_written + o->scratch) * elem;
	}
}

/*
 * Batch-level serving options carry only their total memory from the
 * estimator; the parts a report charts (weights, KV cache, activations,
 * workspace) come from the same accounting, per option's batch and tensor
 * parallelism.  Token-generating services (has_llm) carry their own,
 * sized for the paged KV cache (serve_llm.c).
 */
static void serving_details(const struct workload *w, struct plan_result *r)
{
	struct model_graph g;
	struct gp_errors errs;
	gp_errors_init(&errs);
	long seq = w->model->kind == MODEL_TRANSFORMER ? w->infer.prompt_tokens : 0;
	if (model_build(w->model, seq, &g, &errs) == 0) {
		struct memory_model mm;
		memory_model_init(&mm, w->model, &g);
		class_totals(&g, precision_bytes(w->precision), r);
		for (size_t i = 0; i < r->n; i++) {
			struct plan_option *o = &r->v[i];
			if (o->has_llm)
				continue;
			struct serve_setup ss = {w->precision,
				w->infer.has_kv ? w->infer.kv_precision : w->precision,
				o->batch > 0 ? o->batch : 1,
				w->infer.longest,
				o->tp > 0 ? o->tp : 1};
			struct memory_breakdown mb;
			memory_serving_of(&mm, &ss, false, &mb);
			memcpy(o->memory_parts, mb.bytes, sizeof(o->memory_parts));
		}
	}
	model_graph_free(&g);
	gp_errors_free(&errs);
}

/* ---- every figure finite ---- */

/* A figure a plan may print: finite and not negative. */
static bool figure_ok(double v)
{
	return isfinite(v) && v >= 0;
}

/* The option's figures by name, for the check and its reason. */
struct figure {
	const char *name;
	double *v;
};

static size_t option_figures(struct plan_option *o, struct figure *f)
{
	size_t n = 0;
	f[n++] = (struct figure){"step_s", &o->step_s};
	f[n++] = (struct figure){"time_s", &o->time_s};
	f[n++] = (struct figure){"mfu", &o->mfu};
	f[n++] = (struct figure){"batch_latency_s", &o->batch_latency_s};
	f[n++] = (struct figure){"p99_latency_s", &o->p99_latency_s};
	f[n++] = (struct figure){"cost_per_million", &o->cost_per_million};
	f[n++] = (struct figure){"breakdown.compute_s", &o->per_step.compute};
	f[n++] = (struct figure){"breakdown.memory_s", &o->per_step.memory};
	f[n++] = (struct figure){"breakdown.communication_s",
				 &o->per_step.communication};
	f[n++] = (struct figure){"breakdown.input_s", &o->per_step.input};
	f[n++] = (struct figure){"gpu_hours", &o->gpu_hours};
	/* the goodput's fractions lie in [0, 1] and its MTBF is finite by
	 * the inputs' ranges; its interval is the run's when the run is
	 * shorter, so it is checked with the run */
	f[n++] = (struct figure){"gpu_hours_compute", &o->gpu_hours_compute};
	f[n++] = (struct figure){"goodput.checkpoint_interval_s",
				 &o->checkpoint_interval_s};
	f[n++] = (struct figure){"cost", &o->cost};
	f[n++] = (struct figure){"cost_spot", &o->cost_spot};
	f[n++] = (struct figure){"energy_kwh", &o->energy_kwh};
	f[n++] = (struct figure){"memory_per_gpu_bytes", &o->memory_per_gpu};
	f[n++] = (struct figure){"memory_capacity_bytes", &o->memory_capacity};
	for (int k = 0; k < MEM_PARTS; k++)
		f[n++] = (struct figure){"memory", &o->memory_parts[k]};
	return n;
}

#define MAX_FIGURES (18 + MEM_PARTS)

static bool reason_ok(const struct plan_reason *r)
{
	return isfinite(r->a) && isfinite(r->b) && isfinite(r->c);
}

/* Keeps o's reasons whose figures are finite, at most `most` of them. */
static void keep_finite_reasons(struct plan_option *o, int most)
{
	struct plan_reason *all = o->owner->reasons;
	long kept[PLAN_MAX_REASONS];
	int n = 0;
	for (int i = 0; i < o->n_reasons; i++) {
		const struct plan_reason *r = plan_option_reason_at(o, i);
		if (reason_ok(r) && n < most)
			kept[n++] = r - all;
	}
	for (int i = 0; i < n; i++)
		all[kept[i]].next = i + 1 < n ? kept[i + 1] : -1;
	o->n_reasons = n;
	o->first_reason = n ? kept[0] : 0;
}

/*
 * The last line of defence behind the loaders' ranges (units.h): an
 * option with a figure that is not a finite, non-negative number (an
 * infinite time, a NaN cost) would print as "inf d", lose its key from
 * the JSON (jansson refuses non-finite reals) or be refused by `report`.
 * It becomes an option that cannot run, with its bad figures zeroed and
 * a reason that names the first of them.
 */
static void check_option_figures(struct plan_option *o)
{
	struct figure f[MAX_FIGURES];
	size_t n = option_figures(o, f);
	const char *first = NULL;
	for (size_t k = 0; k < n; k++)
		if (!figure_ok(*f[k].v)) {
			if (!first)
				first = f[k].name;
			*f[k].v = 0;
		}
	bool reasons_ok = true;
	for (int i = 0; i < o->n_reasons; i++)
		reasons_ok &= reason_ok(plan_option_reason_at(o, i));
	if (!first && reasons_ok)
		return;
	o->feasible = o->runnable = o->pareto = false;
	o->has_spot = false;
	keep_finite_reasons(o, PLAN_MAX_REASONS - 1);
	struct plan_reason r = {.code = REASON_OUT_OF_RANGE,
				.s1 = first ? first : "a reason's figure"};
	plan_option_code(o, &r);
}

/* The per-sample work reports chart (from the model) must print too. */
static int check_classes(const struct workload *w, struct plan_result *r,
			 char *why, size_t len)
{
	for (int k = 0; k < OPC_COUNT; k++)
		if (!figure_ok(r->classes[k].flops) ||
		    !figure_ok(r->classes[k].weight_bytes) ||
		    !figure_ok(r->classes[k].act_bytes)) {
			snprintf(why, len,
				 "workload '%s': the work per sample of model '%s' is out of range (not a finite number)",
				 w->name, w->model->name ? w->model->name : w->model_file);
			return -1;
		}
	return 0;
}

static int check_figures(const struct workload *w, struct plan_result *r,
			 char *why, size_t len)
{
	for (size_t i = 0; i < r->n; i++)
		check_option_figures(&r->v[i]);
	return check_classes(w, r, why, len);
}

/*
 * With a calibration carried to the catalog: each runnable option's time
 * and cost across the measured fractions' intervals (calibrate.h).  A
 * fraction the workload replaced with its own (`efficiency:`) has no
 * measured interval.
 */
static void option_ranges(struct plan_result *r, const struct plan_settings *s)
{
	const struct carried *k = s->carried;
	if (!k || !k->acc)
		return;
	struct carried own = *k;
	own.compute = k->compute && s->eff.compute_from == k->compute_from;
	own.memory = k->memory && s->eff.memory_from == k->memory_from;
	if (!own.compute && !own.memory)
		return;
	for (size_t i = 0; i < r->n; i++) {
		struct plan_option *o = &r->v[i];
		if (!o->runnable)
			continue;
		const struct time_breakdown *b = &o->per_step;
		double total = b->compute + b->memory + b->communication + b->input;
		double lo, hi;
		calibrate_time_factors(&own, &s->eff, b->compute, b->memory,
				       total, &lo, &hi);
		double t = r->w->kind == WORKLOAD_TRAINING ? o->time_s
							     : o->batch_latency_s;
		o->has_range = true;
		o->range_measured = true;
		o->range_level = 0.95;
		o->time_low_s = t * lo;
		o->time_high_s = t * hi;
		o->step_low_s = o->step_s * lo;
		o->step_high_s = o->step_s * hi;
		/* a run is paid by the hour; a month of service is not */
		bool paid_by_time = r->w->kind == WORKLOAD_TRAINING;
		o->cost_low = paid_by_time ? o->cost * lo : o->cost;
		o->cost_high = paid_by_time ? o->cost * hi : o->cost;
	}
}

/* The workload on the measured device itself (sample_device.h). */
static void sample_figures(const struct plan_settings *s,
			   const struct workload *w, struct plan_result *r)
{
	if (!s->carried)
		return;
	if (sample_estimate(s->carried->cal, w, &r->sample, r->sample_why,
			    sizeof(r->sample_why)) < 0)
		r->sample.present = false;
}

static int plan_one(struct plan *p, const struct workload *w,
		    struct plan_result *r, char *why, size_t len)
{
	const struct catalog *c = p->catalog;
	struct plan_settings settings = plan_settings_for(&p->settings, w);
	r->w = w;
	if (convert_budget(c, w, &settings, r, why, len) < 0)
		return -1;
	struct gp_errors errs;
	gp_errors_init(&errs);
	/* Room for the usual number of options up front: growing a
	 * 10,000-instance workload's array by doubling copied it a dozen
	 * times. */
	size_t expected = c->n_inst * (w->kind == WORKLOAD_TRAINING ? 10 : 4);
	xgrow((void **)&r->v, &r->cap, expected, sizeof(*r->v));
	xgrow((void **)&r->reasons, &r->cap_reasons, expected,
	      sizeof(*r->reasons));
	if (w->kind == WORKLOAD_TRAINING) {
		struct train_prep *tp = prep_cache_training(p->preps, c, w, &errs);
		if (!tp) {
			snprintf(why, len, "workload '%s': %s", w->name,
				 errs.n ? errs.v[0].msg : "cannot build the model");
			gp_errors_free(&errs);
			return -1;
		}
		for (size_t i = 0; i < c->n_inst; i++)
			if (plan_instance_wanted(&settings, w, &c->inst[i]))
				plan_training(tp, &c->inst[i], &settings, r);
		class_totals(train_prep_graph(tp), precision_training_activation_bytes(w->precision), r);
		int bad = check_figures(w, r, why, len);
		if (bad == 0) {
			option_ranges(r, &settings);
			sample_figures(&settings, w, r);
			plan_choose(r, &settings);
			plan_training_layouts(tp, &settings, r);
			plan_layout_sentence(r);
		}
		gp_errors_free(&errs);
		return bad;
	} else {
		char reason[256];
		struct serve_prep *sp = prep_cache_serving(p->preps, w, reason,
							   sizeof(reason));
		if (!sp) {
			snprintf(why, len, "workload '%s': %s", w->name, reason);
			gp_errors_free(&errs);
			return -1;
		}
		for (size_t i = 0; i < c->n_inst; i++)
			if (plan_instance_wanted(&settings, w, &c->inst[i]))
				plan_inference(c, &c->inst[i], w, sp,
					       &settings, r);
		serving_details(w, r);
		gp_errors_free(&errs);
		if (check_figures(w, r, why, len) < 0)
			return -1;
		option_ranges(r, &settings);
		sample_figures(&settings, w, r);
		plan_choose(r, &settings);
		plan_serving_curves(sp, &settings, r);
		plan_serving_splits(sp, &settings, r);
		return 0;
	}
}

int plan_run(struct plan *p, const struct catalog *c,
	     const struct workload_file *wf, const struct plan_settings *s,
	     char *why, size_t whylen)
{
	memset(p, 0, sizeof(*p));
	p->catalog = c;
	p->workloads = wf;
	p->settings = *s;
	p->results = xcalloc(wf->n + 1, sizeof(*p->results));
	p->n = wf->n;
	p->preps = prep_cache_new();
	int rc = 0;
	for (size_t i = 0; i < wf->n && rc == 0; i++)
		rc = plan_one(p, &wf->v[i], &p->results[i], why, whylen);
	prep_cache_free(p->preps);
	p->preps = NULL;
	return rc;
}

void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		plan_result_free(&p->results[i]);
	free(p->results);
	memset(p, 0, sizeof(*p));
}

int plan_run_each(struct plan *p, const struct catalog *c,
		  const struct workload_file *wf, const struct plan_settings *s,
		  int (*emit)(void *ctx, const struct plan *p,
			      const struct plan_result *r),
		  void *ctx, char *why, size_t whylen)
{
	memset(p, 0, sizeof(*p));
	p->catalog = c;
	p->workloads = wf;
	p->settings = *s;
	p->preps = prep_cache_new();
	int rc = 0;
	struct plan_result r;
	memset(&r, 0, sizeof(r));
	for (size_t i = 0; i < wf->n && rc == 0; i++) {
		rc = plan_one(p, &wf->v[i], &r, why, whylen);
		if (rc == 0 && emit(ctx, p, &r) != 0) {
			snprintf(why, whylen, "cannot write the plan");
			rc = -1;
		}
		plan_result_reset(&r);
	}
	plan_result_free(&r);
	prep_cache_free(p->preps);
	p->preps = NULL;
	return rc < 0 ? -1 : 0;
}

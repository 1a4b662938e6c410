/*
 * The planner: a job planned by hand, properties that must hold for every
 * option, and the calibration of the default efficiency against published
 * training throughput.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "option/reason.h"
#include "option/wording.h"
#include "plan/choose.h"
#include "plan/plan.h"
#include "plan/plan_json.h"
#include "workload/workload_file.h"

struct fixture {
	struct catalog c;
	struct workload_file wf;
	struct plan p;
	bool ok;
};

static void load(struct fixture *f, const char *catalog_dir, const char *workloads,
		 const char *currency)
{
	memset(f, 0, sizeof(*f));
	struct gp_errors e;
	gp_errors_init(&e);
	catalog_init(&f->c);
	f->ok = catalog_dir ? catalog_load_shipped(&f->c, catalog_dir, &e) == 0
			    : false;
	if (!catalog_dir) {
		char path[512];
		snprintf(path, sizeof(path), "%s/tests/unit/data/plan/catalog.yaml",
			 GPUPLAN_SOURCE_DIR);
		const char *paths[] = {path};
		f->ok = catalog_load(&f->c, paths, 1, NULL, &e) == 0;
	}
	f->ok = f->ok && workload_file_load(&f->wf, workloads, &e) == 0;
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	CHECK(f->ok);
	if (!f->ok)
		return;
	struct plan_settings s;
	plan_settings_default(&s);
	memcpy(s.currency, currency, 4);
	char why[256];
	f->ok = plan_run(&f->p, &f->c, &f->wf, &s, why, sizeof(why)) == 0;
	if (!f->ok)
		fprintf(stderr, "plan: %s\n", why);
	CHECK(f->ok);
}

static void unload(struct fixture *f)
{
	plan_free(&f->p);
	workload_file_free(&f->wf);
	catalog_free(&f->c);
}

static char *fixture_path(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/tests/unit/data/plan/%s", GPUPLAN_SOURCE_DIR, name);
	return buf;
}

/*
 * By hand: 977 steps x 1024 samples x 3 passes (forward and a backward of
 * twice the forward) x 134,217,728 FLOPs, compute-bound (the bandwidth is
 * huge), at 100 TFLOP/s x the 80% large-GEMM ceiling x the product's
 * shape factor (matrix_eff.h).  The product is a 1024 x 8192 x 8192 GEMM
 * (a micro-batch of 1024 one-pixel samples) on the fixture GPU, which has
 * no `sms:` and so the default 108 SMs: its best tiles are 64x64, 16 x 128
 * = 2048 of them in 19 waves (2052 slots), and k 8192 / (8192 + 64):
 * shape 0.990309, 79.22% of the peak, 5.085 s.  Each step also has the
 * optimizer, memory-bound at 1000 TB/s x 0.8: 42 bytes per parameter (the
 * two fp32 moments and master weights read and written, 24; the fp32
 * gradients read, 4 (Megatron-LM's rule, the generic framework); the bf16
 * weights written, 2; gradient clipping's three passes over the
 * gradients, 12), and the launch gaps of its one kernel, 3 x 0.9 us
 * (forward, and a backward of two).  At 10 USD/h that is 0.01414 USD; on
 * spot 4 USD/h x 1.1 (preemptions).
 */
static void hand_case(void)
{
	char path[512];
	struct fixture f;
	load(&f, NULL, fixture_path("workload.yaml", path, sizeof(path)), "USD");
	if (!f.ok)
		return unload(&f);
	const struct plan_result *r = &f.p.results[0];
	CHECK(r->n >= 1);
	const struct plan_option *o = &r->v[0];
	double eff = 0.8 * (2048.0 / 2052) * (8192.0 / 8256);
	double compute = 977.0 * 1024 * 3 * 134217728.0 / (100e12 * eff);
	double time = compute + 977.0 * (42.0 * 67108864 / (1000e12 * 0.8) +
					 3 * 0.9e-6);
	CHECK(o->nodes == 1 && o->dp == 1 && o->micro_batch == 1024);
	CHECK_NEAR(o->time_s, time, 1e-6);
	CHECK_NEAR(o->cost, time / 3600 * 10, 1e-6);
	CHECK(o->has_spot);
	CHECK_NEAR(o->cost_spot, time / 3600 * 4 * 1.1, 1e-6);
	CHECK_NEAR(o->gpu_hours, time / 3600, 1e-6);
	CHECK_NEAR(o->energy_kwh, 500 * time / 3600 / 1000, 1e-6);
	/* 5.08 s is past the 5 s deadline: infeasible, and it says why */
	CHECK(!o->feasible && o->runnable);
	CHECK(o->n_reasons >= 1 &&
	      plan_option_reason_at(o, 0)->code == REASON_DEADLINE);
	char buf[300];
	plan_reason_format(o, 0, buf, sizeof(buf));
	CHECK(strstr(buf, "takes 5.09 s, past the 5 s deadline") != NULL);
	/* MFU: model FLOPs over time x peak; compute-bound at the ceiling
	 * times the shape factor, less the optimizer's share of the step */
	CHECK_NEAR(o->mfu, eff * compute / time, 1e-6);
	unload(&f);

	/* The same plan in CNY costs 7 times as much. */
	load(&f, NULL, fixture_path("workload.yaml", path, sizeof(path)), "CNY");
	if (f.ok)
		CHECK_NEAR(f.p.results[0].v[0].cost, time / 3600 * 10 * 7, 1e-6);
	unload(&f);
}

/* A cheaper price never raises any option's cost. */
static void cheaper_price(void)
{
	char path[512];
	struct fixture f;
	load(&f, NULL, fixture_path("workload.yaml", path, sizeof(path)), "USD");
	if (!f.ok)
		return unload(&f);
	size_t n = f.p.results[0].n;
	double before[64];
	for (size_t i = 0; i < n && i < 64; i++)
		before[i] = f.p.results[0].v[i].cost;
	plan_free(&f.p);
	f.c.inst[0].on_demand.amount /= 2;
	struct plan_settings s;
	plan_settings_default(&s);
	char why[256];
	CHECK(plan_run(&f.p, &f.c, &f.wf, &s, why, sizeof(why)) == 0);
	for (size_t i = 0; i < n && i < 64; i++)
		CHECK(f.p.results[0].v[i].cost <= before[i]);
	unload(&f);
}

/* The shipped plan: every infeasible option says why, the recommendation
 * is feasible, rented and sourced, and no Pareto option is dominated. */
static void shipped_properties(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/profiles/workloads/default.yaml",
		 GPUPLAN_SOURCE_DIR);
	struct fixture f;
	load(&f, GPUPLAN_SOURCE_DIR, path, "USD");
	if (!f.ok)
		return unload(&f);
	for (size_t k = 0; k < f.p.n; k++) {
		const struct plan_result *r = &f.p.results[k];
		CHECK(r->recommended >= 0);
		if (r->recommended >= 0) {
			const struct plan_option *o = &r->v[r->recommended];
			CHECK(o->feasible && !o->inst->owned && !o->inst->illustrative);
		}
		CHECK(strlen(r->why) > 20);
		/* the recommendation is on the front it was chosen from */
		if (r->recommended >= 0)
			CHECK(r->v[r->recommended].pareto);
		for (size_t i = 0; i < r->n; i++) {
			const struct plan_option *o = &r->v[i];
			if (!o->feasible)
				CHECK(o->n_reasons >= 1);
			if (!o->pareto)
				continue;
			/* the front holds only feasible rentals a user can
			 * act on, and none of them beats another on both */
			CHECK(o->feasible && !plan_option_not_actionable(o));
			bool training = r->w->kind == WORKLOAD_TRAINING;
			for (size_t j = 0; j < r->n; j++) {
				const struct plan_option *q = &r->v[j];
				double tq = training ? q->time_s : q->p99_latency_s;
				double to = training ? o->time_s : o->p99_latency_s;
				if (q->feasible && !plan_option_not_actionable(q) && j != i)
					CHECK(!(plan_compared_cost(&f.p.settings, r->w, q) <
						plan_compared_cost(&f.p.settings, r->w, o) &&
						tq < to));
			}
		}
	}
	unload(&f);
}

/*
 * Not a calibration: nothing is fitted to a published MFU.  The mechanism
 * bounds the planner's MFU for Llama-2-7B training on one p4de.24xlarge
 * (8 x A100 80GB): it cannot pass the large-GEMM ceiling (every matrix
 * op runs at most at it, and the memory-bound ops and communication only
 * add time), and the MFU is the model's FLOPs over the step time x peak.
 */
static void mfu_mechanism(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/profiles/workloads/default.yaml",
		 GPUPLAN_SOURCE_DIR);
	struct fixture f;
	load(&f, GPUPLAN_SOURCE_DIR, path, "USD");
	if (!f.ok)
		return unload(&f);
	bool seen = false;
	for (size_t k = 0; k < f.p.n; k++) {
		const struct plan_result *r = &f.p.results[k];
		if (strcmp(r->w->name, "llm-pretrain") != 0)
			continue;
		for (size_t i = 0; i < r->n; i++) {
			const struct plan_option *o = &r->v[i];
			if (strcmp(o->inst->name, "p4de.24xlarge") || o->nodes != 1)
				continue;
			printf("  llama-2-7b on 1 x p4de.24xlarge: MFU %.1f%%\n",
			       100 * o->mfu);
			CHECK(o->mfu > 0 && o->mfu < f.p.settings.eff.compute);
			seen = true;
		}
	}
	CHECK(seen);
	unload(&f);
}

/* ---- reasons and figures that must hold whatever the input ---- */

/* Loads a catalog file and a workload file (paths from the source root),
 * without planning. */
static bool load_files(struct fixture *f, const char *catalog,
		       const char *workloads)
{
	memset(f, 0, sizeof(*f));
	struct gp_errors e;
	gp_errors_init(&e);
	catalog_init(&f->c);
	char cpath[512], wpath[512];
	snprintf(cpath, sizeof(cpath), "%s/%s", GPUPLAN_SOURCE_DIR, catalog);
	snprintf(wpath, sizeof(wpath), "%s/%s", GPUPLAN_SOURCE_DIR, workloads);
	const char *paths[] = {cpath};
	f->ok = catalog_load(&f->c, paths, 1, NULL, &e) == 0 &&
		workload_file_load(&f->wf, wpath, &e) == 0;
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	CHECK(f->ok);
	return f->ok;
}

static bool run_plan(struct fixture *f, const char *currency)
{
	char why[256];
	/* settings that die before the reasons are read: a reason must hold
	 * its own copy of what it says (ASAN with
	 * detect_stack_use_after_return=1 catches a pointer into them) */
	struct plan_settings *s = malloc(sizeof(*s));
	plan_settings_default(s);
	memcpy(s->currency, currency, 4);
	f->ok = plan_run(&f->p, &f->c, &f->wf, s, why, sizeof(why)) == 0;
	memset(s, 'X', sizeof(*s));
	free(s);
	if (!f->ok)
		fprintf(stderr, "plan: %s\n", why);
	CHECK(f->ok);
	return f->ok;
}

/*
 * Over budget, in the plan currency.  16 one-GPU instances on 100 Gbit/s
 * TCP: each step all-reduces 67,108,864 gradients, kept and reduced in
 * fp32 under bf16 (Megatron-LM's rule, the generic framework): 268 MB in
 * buckets of max(40M, 1M x 16) = 40M parameters, so two (160 MB and
 * 108.4 MB), each its own ring.  The network sustains 12.5 GB/s x 50% =
 * 6.25 GB/s (the GPUs' host links, 32 GB/s x 80%, do not bind); a ring
 * moves 2 x 15/16 of its bytes and pays NCCL's 8.4 us + 30 steps x 14 us
 * = 0.43 ms: 48.43 ms and 32.96 ms, 81.39 ms, of which the last backward
 * (64 samples, about 0.3 ms) hides its share, 18.9% slower beside it.
 * With the 0.47 ms of compute at the pace of the slowest of 16 GPUs
 * (x 1.031) and the optimizer step that is about 81.6 ms a step, 79.8 s
 * for 977 steps: 16 x 10 x 79.8 / 3600 = 3.55 USD = 24.8 CNY at 7 CNY a
 * dollar (24.82 as the planner rounds its parts), over the 1 USD = 7 CNY
 * budget.  From 8 instances on it is over too (2 x 7/8 x 268 MB / 6.25
 * GB/s = 75 ms a step, 8 x 10 x 73 s / 3600 = 1.6 USD); 4 instances (64 ms,
 * 0.7 USD) fit it.  On 512 instances one bucket holds everything
 * (512M > 67M parameters) and the tree wins: 2 x S / (0.92 x 6.25 GB/s) =
 * 93.4 ms plus 2 x 9 levels x 28 us: about 94.4 ms a step with the
 * compute at x 1.053, 131 USD = 916 CNY.
 */
static void budget_reason(void)
{
	struct fixture f;
	if (!load_files(&f, "tests/unit/data/plan/catalog.yaml",
			"tests/cli/data/plan-arith/budget.yaml") ||
	    !run_plan(&f, "CNY"))
		return unload(&f);
	const struct plan_result *r = &f.p.results[0];
	CHECK(r->n == 10);
	CHECK_NEAR(r->budget, 7, 1e-12);
	char buf[PLAN_REASON_LEN];
	for (size_t i = 0; i < r->n; i++) {
		const struct plan_option *o = &r->v[i];
		CHECK(o->feasible == (o->nodes <= 4));
		if (o->nodes <= 4)
			continue;
		CHECK(o->n_reasons == 1);
		const struct plan_reason *why = plan_option_reason_at(o, 0);
		CHECK(why->code == REASON_BUDGET);
		CHECK_STR(plan_reason_s1(why), "CNY");
		CHECK(plan_reason_s2(why) == NULL);
		CHECK_NEAR(why->b, 7, 1e-12);
		plan_reason_format(o, 0, buf, sizeof(buf));
		if (o->nodes == 16)
			CHECK_STR(buf, "costs 24.82 CNY, over the 7.00 CNY budget");
		if (o->nodes == 512)
			CHECK_STR(buf, "costs 916 CNY, over the 7.00 CNY budget");
	}
	unload(&f);
}

/* No rate from EUR: every option of both estimators says which. */
static void no_rate_reason(void)
{
	struct fixture f;
	if (!load_files(&f, "tests/cli/data/plan-arith/no-rate.yaml",
			"tests/cli/data/plan-arith/both-kinds.yaml") ||
	    !run_plan(&f, "USD"))
		return unload(&f);
	char buf[PLAN_REASON_LEN];
	for (size_t w = 0; w < f.p.n; w++) {
		const struct plan_result *r = &f.p.results[w];
		CHECK(r->n >= 1);
		for (size_t i = 0; i < r->n; i++) {
			const struct plan_option *o = &r->v[i];
			CHECK(!o->feasible && !o->runnable);
			CHECK(o->n_reasons == 1);
			const struct plan_reason *why = plan_option_reason_at(o, 0);
			CHECK(why->code == REASON_NO_RATE);
			CHECK_STR(plan_reason_s1(why), "EUR");
			CHECK_STR(plan_reason_s2(why), "USD");
			plan_reason_format(o, 0, buf, sizeof(buf));
			CHECK_STR(buf, "no exchange rate from EUR to USD");
		}
	}
	unload(&f);
}

/* The wording of the planner's own reasons, money at every size. */
static void reason_words(void)
{
	static const struct {
		struct plan_reason r;
		const char *want;
	} cases[] = {
		{{.code = REASON_BUDGET, .a = 1.76084, .b = 1,
		  .currency = {"USD"}},
		 "costs 1.76 USD, over the 1.00 USD budget"},
		{{.code = REASON_BUDGET, .a = 0.0103, .b = 0.01,
		  .currency = {"USD"}},
		 "costs 0.0103 USD, over the 0.01 USD budget"},
		{{.code = REASON_BUDGET, .a = 25000.4, .b = 20000,
		  .currency = {"CNY"}},
		 "costs 25000 CNY, over the 20000 CNY budget"},
		{{.code = REASON_BUDGET, .a = 2.1e22, .b = 1e15,
		  .currency = {"USD"}},
		 "costs 2.1e+22 USD, over the 1e+15 USD budget"},
		{{.code = REASON_NO_RATE, .currency = {"EUR", "JPY"}},
		 "no exchange rate from EUR to JPY"},
		{{.code = REASON_OUT_OF_RANGE, .s1 = "time_s"},
		 "the estimate is out of range (time_s is not a finite, non-negative number): check the figures of the catalog and the workload"},
		{{.code = REASON_DEADLINE, .a = 1.1e35, .b = 100 * 365 * 86400.0},
		 "takes 1.27e+30 d, past the 100 y deadline"},
		/* a format the part lacks (catalog `lacks:`) ... */
		{{.code = REASON_PRECISION, .p_used = PREC_FP16,
		  .p_wanted = PREC_BF16, .n1 = 1, .s1 = "T4"},
		 "runs as fp16: T4 has no bf16"},
		/* ... and one whose peak the catalog could not source */
		{{.code = REASON_PRECISION, .p_used = PREC_FP32,
		  .p_wanted = PREC_INT8, .n1 = 0, .s1 = "A10G"},
		 "runs as fp32: the catalog has no sourced int8 peak for A10G"},
	};
	struct plan_result r = {0};
	char buf[PLAN_REASON_LEN];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct plan_option *o = plan_result_add(&r);
		plan_option_code(o, &cases[i].r);
		plan_reason_format(o, 0, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].want);
	}
	CHECK_STR(plan_reason_code_name(REASON_OUT_OF_RANGE), "out_of_range");
	plan_result_free(&r);
}

/*
 * The last line of defence (plan.c): a catalog the loaders would refuse
 * (peaks of 1e-320 FLOP/s, set after loading) makes every step time
 * infinite.  Every option then cannot run, says so, keeps only finite
 * figures, and its JSON keeps every key.
 */
static void out_of_range_figures(void)
{
	struct fixture f;
	if (!load_files(&f, "tests/unit/data/plan/catalog.yaml",
			"tests/unit/data/plan/workload.yaml"))
		return unload(&f);
	for (int p = 0; p < PREC_COUNT; p++)
		f.c.acc[0].peak[p] = 1e-320;
	if (!run_plan(&f, "USD"))
		return unload(&f);
	const struct plan_result *r = &f.p.results[0];
	CHECK(r->n >= 1);
	CHECK(r->recommended == -1);
	char buf[PLAN_REASON_LEN];
	for (size_t i = 0; i < r->n; i++) {
		const struct plan_option *o = &r->v[i];
		CHECK(!o->feasible && !o->runnable && !o->pareto);
		CHECK(o->n_reasons >= 1 && o->n_reasons <= PLAN_MAX_REASONS);
		const struct plan_reason *last =
			plan_option_reason_at(o, o->n_reasons - 1);
		CHECK(last->code == REASON_OUT_OF_RANGE);
		CHECK_STR(last->s1, "step_s");
		plan_reason_format(o, o->n_reasons - 1, buf, sizeof(buf));
		CHECK_HAS(buf, "step_s is not a finite, non-negative number");
		const double v[] = {o->step_s, o->time_s, o->mfu, o->cost,
				    o->cost_spot, o->gpu_hours, o->energy_kwh,
				    o->per_step.compute, o->per_step.memory};
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			CHECK(isfinite(v[k]) && v[k] >= 0);
		for (int k = 0; k < o->n_reasons; k++) {
			const struct plan_reason *why = plan_option_reason_at(o, k);
			CHECK(isfinite(why->a) && isfinite(why->b) && isfinite(why->c));
		}
	}
	json_t *j = plan_result_json(&f.p, r);
	json_t *opts = json_object_get(j, "options");
	CHECK(json_array_size(opts) == r->n);
	static const char *const keys[] = {"cost", "time_s", "step_s", "mfu",
					   "gpu_hours", "energy_kwh"};
	for (size_t i = 0; i < json_array_size(opts); i++)
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			CHECK(json_is_number(json_object_get(json_array_get(opts, i),
							     keys[k])));
	CHECK_STR(json_string_value(json_object_get(j, "recommendation")),
		  "No instance in the catalog can run hand-train: every option is out of memory or unpriced (see the reasons per option); use an instance with more memory per GPU, or a smaller model or batch.");
	json_decref(j);
	unload(&f);
}

/*
 * Variants of one job share a preparation (prep_cache.c): what they share
 * (the step) is the same, what they do not (the run's length, the
 * deadline) is each one's own; a variant with another batch is planned
 * afresh.
 */
static void variants(void)
{
	struct fixture f;
	if (!load_files(&f, "tests/unit/data/plan/catalog.yaml",
			"tests/unit/data/plan/variants.yaml") ||
	    !run_plan(&f, "USD"))
		return unload(&f);
	const struct plan_result *a = &f.p.results[0], *b = &f.p.results[1],
				 *c = &f.p.results[2];
	CHECK(a->n == b->n && a->n > 0);
	for (size_t i = 0; i < a->n && i < b->n; i++) {
		CHECK(a->v[i].step_s == b->v[i].step_s);
		CHECK_NEAR(b->v[i].time_s, 2 * a->v[i].time_s, 1e-9);
	}
	CHECK(!a->v[0].feasible && b->v[0].feasible);	/* 5 s against 1 h */
	CHECK(c->n > 0 && c->v[0].micro_batch == 512);
	CHECK(c->v[0].step_s < a->v[0].step_s);
	unload(&f);
}

/*
 * A result emptied for the next workload (plan_result_reset()) holds no
 * option, reason or sentence, keeps the room of its arrays, and takes
 * options and reasons again as a new one would.
 */
static void result_reset(void)
{
	struct plan_result r;
	memset(&r, 0, sizeof(r));
	for (int i = 0; i < 3; i++)
		plan_option_reason(plan_result_add(&r), "note %d", i);
	r.why = strdup("a sentence");
	r.recommended = 1;
	struct plan_option *kept = r.v;
	size_t cap = r.cap;
	plan_result_reset(&r);
	CHECK(r.n == 0 && r.n_reasons == 0 && r.text_len == 0);
	CHECK(r.why == NULL && r.recommended == 0);
	CHECK(r.v == kept && r.cap == cap && r.reasons && r.text);
	struct plan_option *o = plan_result_add(&r);
	plan_option_reason(o, "again");
	char buf[PLAN_REASON_LEN];
	plan_reason_format(o, 0, buf, sizeof(buf));
	CHECK(r.n == 1 && o->n_reasons == 1);
	CHECK_STR(buf, "again");
	plan_result_free(&r);
	CHECK(r.v == NULL && r.reasons == NULL && r.text == NULL);
}

int main(void)
{
	hand_case();
	cheaper_price();
	shipped_properties();
	mfu_mechanism();
	budget_reason();
	no_rate_reason();
	reason_words();
	out_of_range_figures();
	variants();
	result_reset();
	return check_summary("plan");
}

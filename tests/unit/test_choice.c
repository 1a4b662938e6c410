/*
 * The planner's choices a user acts on (issue 15): the spot rule, what is
 * actionable, MIG slices apart from GPUs, the wording of GPU-hours, time
 * ratios and memory, the placing of a chart's reference-line labels, and
 * the report's sentence for a workload with nothing feasible.  Each case
 * is worked out by hand.
 */
#include <string.h>

#include "check.h"
#include "option/reason.h"
#include "option/wording.h"
#include "plan/choose.h"
#include "plan/plan.h"
#include "report/chart.h"
#include "report/i18n.h"
#include "report/plan_words.h"
#include "report/ref_labels.h"
#include "report/report_data.h"

static void spot_rule(void)
{
	struct plan_settings s;
	plan_settings_default(&s);
	struct workload w = {.kind = WORKLOAD_TRAINING};
	struct instance in = {.owned = false};
	struct plan_option o = {.inst = &in, .cost = 100, .cost_spot = 40,
				.has_spot = true};
	/* neither --spot nor `spot: true`: on demand */
	CHECK(!plan_spot_acceptable(&s, &w));
	CHECK_NEAR(plan_compared_cost(&s, &w, &o), 100, 0);
	/* the workload alone makes spot acceptable, without --spot */
	w.train.spot = true;
	CHECK(plan_spot_acceptable(&s, &w));
	CHECK_NEAR(plan_compared_cost(&s, &w, &o), 40, 0);
	/* --spot alone does too */
	w.train.spot = false;
	s.spot = true;
	CHECK(plan_spot_acceptable(&s, &w));
	/* an option without a spot price is compared on demand */
	o.has_spot = false;
	CHECK_NEAR(plan_compared_cost(&s, &w, &o), 100, 0);
	/* serving never runs on spot */
	w.kind = WORKLOAD_INFERENCE;
	CHECK(!plan_spot_acceptable(&s, &w));
}

static void actionable(void)
{
	struct instance rent = {0}, owned = {.owned = true, .illustrative = true},
			ill = {.illustrative = true};
	struct plan_option a = {.inst = &rent}, b = {.inst = &owned}, c = {.inst = &ill};
	CHECK(plan_option_not_actionable(&a) == NULL);
	CHECK_STR(plan_option_not_actionable(&b), "owned machine");
	CHECK_STR(plan_option_not_actionable(&c), "illustrative price");
}

static void slices(void)
{
	struct accelerator acc = {.name = "H200-SXM"};
	struct instance in = {.acc = &acc, .gpus = 8};
	/* 15 replicas on 3g.71gb, two slices to a GPU: 8 physical GPUs */
	struct plan_option o = {.inst = &in, .gpus = 8, .slices = 15,
				.slices_per_gpu = 2, .sharing = "3g.71gb"};
	char buf[128];
	plan_gpus_text(&o, buf, sizeof(buf));
	CHECK_STR(buf, "8 x H200-SXM as 15 x 3g.71gb");
	struct plan_option whole = {.inst = &in, .gpus = 16};
	plan_gpus_text(&whole, buf, sizeof(buf));
	CHECK_STR(buf, "16 x H200-SXM");
}

static void wording(void)
{
	char b[64];
	CHECK_STR(plan_gpu_hours_text(0.46, b, sizeof(b)), "0.46");
	CHECK_STR(plan_gpu_hours_text(0.004, b, sizeof(b)), "0.004");
	CHECK_STR(plan_gpu_hours_text(2.784, b, sizeof(b)), "2.78");
	CHECK_STR(plan_gpu_hours_text(39928.4, b, sizeof(b)), "39928");
	/* one rule: below 2x "% slower", from 2x "x the time" */
	CHECK_STR(plan_slower_text(4.95, 1, b, sizeof(b)), "4.95x the time");
	CHECK_STR(plan_slower_text(2, 1, b, sizeof(b)), "2x the time");
	CHECK_STR(plan_slower_text(1.38, 1, b, sizeof(b)), "38% slower");
	CHECK_STR(plan_slower_text(0.97, 1, b, sizeof(b)), "3% faster");
	/* 7.5 min against 2.78 h: 22.2 times as fast, not "96% faster" */
	CHECK_STR(plan_slower_text(7.5, 166.8, b, sizeof(b)), "22.2x as fast");
	CHECK_STR(plan_slower_text(1, 2, b, sizeof(b)), "2x as fast");
	/* 78.12 GiB is 83.9 GB: it does not fit a GPU of 80 GB */
	CHECK_STR(plan_gb_text(78.12 * 1073741824.0, b, sizeof(b)), "83.9 GB");
	CHECK_STR(plan_gb_text(80e9, b, sizeof(b)), "80 GB");
	CHECK_STR(plan_gb_text(1.5e12, b, sizeof(b)), "1.5 TB");
}

/* A budget line 20 px below the plot's top and a deadline line at x =
 * 800: the deadline's label at the top of its line (y 8 to 22) would be
 * struck through by the budget line, so it goes to the line's bottom. */
static void ref_labels(void)
{
	struct rect plot = {0, 0, 1000, 600}, out[2];
	struct ref_label in[2] = {{false, 20, 60, 14}, {true, 800, 70, 14}};
	ref_labels_place(&plot, in, 2, 8, out);
	/* the budget's at the left end, above its line: 20 - 4 - 14 = 2 */
	CHECK_NEAR(out[0].x, 8, 1e-9);
	CHECK_NEAR(out[0].y, 2, 1e-9);
	/* the deadline's right of its line at the bottom: 600 - 8 - 14 */
	CHECK_NEAR(out[1].x, 808, 1e-9);
	CHECK_NEAR(out[1].y, 578, 1e-9);
	CHECK(!rect_overlap(&out[0], &out[1]));
	CHECK(!(in[0].at >= out[1].y && in[0].at <= out[1].y + out[1].h));
	/* lines far apart: each label keeps its usual place */
	in[0].at = 300;
	ref_labels_place(&plot, in, 2, 8, out);
	CHECK_NEAR(out[1].y, 8, 1e-9);
	CHECK_NEAR(out[0].y, 300 - 4 - 14, 1e-9);
	/* a budget at the very top: its label goes below the line */
	in[0].at = 5;
	ref_labels_place(&plot, in, 2, 8, out);
	CHECK_NEAR(out[0].y, 9, 1e-9);
	CHECK(!rect_overlap(&out[0], &out[1]));
}

/* The report's sentence for a workload with nothing feasible, from the
 * plan's shortfall figures, in both languages. */
static void shortfall_sentence(void)
{
	struct r_option v[2] = {
		{.instance = "p5.48xlarge", .accelerator = "H100-SXM", .nodes = 1,
		 .gpus = 8, .time_s = 2706, .cost = 41.37, .runnable = true},
		{.instance = "p5.48xlarge", .accelerator = "H100-SXM", .nodes = 2,
		 .gpus = 16, .time_s = 1356, .cost = 41.40, .runnable = true},
	};
	struct r_workload w = {.training = true, .v = v, .n = 2,
			       .recommended = -1, .has_shortfall = true,
			       .closest = 0, .meets_deadline = -1,
			       .deadline_over_s = 906, .budget_over = 11.37};
	struct r_plan p = {.currency = "USD", .w = &w, .n = 1};
	char buf[1024];
	r_shortfall_sentence(&p, &w, LANG_EN, buf, sizeof(buf));
	CHECK_STR(buf, "No option meets the constraints; the closest, 1 x p5.48xlarge (8 x H100-SXM), takes 45.1 min for 41.37 USD: allow 15.1 min more, or raise the budget by 11.37 USD.");
	r_shortfall_sentence(&p, &w, LANG_ZH, buf, sizeof(buf));
	CHECK(strstr(buf, "最接近的是 1 x p5.48xlarge (8 x H100-SXM)") != NULL);
	CHECK(strstr(buf, "预算增加 11.37 USD") != NULL);
	/* nothing runs: what to change instead */
	w.closest = -1;
	r_shortfall_sentence(&p, &w, LANG_EN, buf, sizeof(buf));
	CHECK(strstr(buf, "more memory per GPU") != NULL);
}

/* The scatter's legend names only series with a point in colour: an
 * accelerator whose options are all infeasible (grey) is not listed. */
static void legend_listing(void)
{
	double x[2] = {1, 2}, y[2] = {3, 4};
	bool grey[2] = {true, true}, mixed[2] = {true, false};
	struct point_series s = {"T4", x, y, grey, NULL, 2, {0, 0, 0}};
	CHECK(!scatter_series_listed(&s));
	s.muted = mixed;
	CHECK(scatter_series_listed(&s));
	s.muted = NULL;
	CHECK(scatter_series_listed(&s));
	s.name = NULL;
	CHECK(!scatter_series_listed(&s));
}

int main(void)
{
	legend_listing();
	spot_rule();
	actionable();
	slices();
	wording();
	ref_labels();
	shortfall_sentence();
	return check_summary("choice");
}

/*
 * compare_plans.h - two plans (gpuplan/plan/v1, read by plan_load.h)
 * compared as Infracost shows a cost diff: per workload, the
 * recommendation before and after (instance, GPUs, time, cost, the
 * planner's reason) and every option present in both (before, after,
 * change); options in one plan only are listed.  Then each plan's total
 * spend at its recommendations: one-off (training runs) and monthly
 * (services).
 *
 * Money is never compared across currencies: plans of two currencies are
 * compared only through the exchange rates both carry (plan_money.h),
 * after's amounts converted to before's currency for every change, and
 * the comparison's "conversion" says at what rate and of what date; each
 * plan's own amounts stay in its own currency.  Nor across periods: a
 * workload that is training in one plan and a service in the other is
 * listed side by side with a note, never as a change (a cost per run
 * against a cost per month).
 *
 * An option is the same option when its instance, GPU count, node
 * count and GPU sharing (a MIG profile) are; a workload when its name
 * is.  A training option's time is its run time; a service's is its p99
 * latency.
 *
 * The result is the JSON document `gpuplan compare` prints (schema
 * gpuplan/compare/v1, kind "plans"); the table and Markdown are drawn
 * from it (compare_print.h).
 *
 * Ownership: the caller decrefs the returned json_t.
 */
#ifndef GPUPLAN_COMPARE_COMPARE_PLANS_H
#define GPUPLAN_COMPARE_COMPARE_PLANS_H

#include <jansson.h>
#include <stdbool.h>

#include "compare/plan_money.h"
#include "report/report_data.h"

/* money: after to before's currency (plan_money_bridge). */
json_t *compare_plans(const struct r_plan *before, const char *before_file,
		      const struct r_plan *after, const char *after_file,
		      const struct money_bridge *money);

/*
 * The largest relative rise of a total (one-off or monthly, in before's
 * currency) in j; 0 when none rose.  `what` gets which total it was
 * ("monthly USD").  For --fail-above.
 */
double compare_plans_max_rise(const json_t *j, char *what, size_t len);

#endif

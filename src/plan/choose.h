/*
 * choose.h - from one workload's options to a choice: the Pareto front,
 * the cheapest option within the deadline, the fastest within the budget,
 * the recommendation with the sentence that says why (and why the
 * runner-up lost), and, when nothing is feasible, what comes closest.
 *
 * Ownership: plan_choose() fills fields of the result it is given (the
 * `why` sentence is the result's: plan_result_free()).
 */
#ifndef GPUPLAN_PLAN_CHOOSE_H
#define GPUPLAN_PLAN_CHOOSE_H

#include "option/option.h"
#include "option/settings.h"

/* Pareto front, the cheapest within the deadline, the fastest within the
 * budget and the recommendation (choose.c). */
/* After the recommended option's layouts are known (r->layouts, best
 * first): a sentence on how the chosen layout compares with the next few
 * that fit, so a reader sees whether the choice is sharp or one of a
 * crowd. */
void plan_layout_sentence(struct plan_result *r);

void plan_choose(struct plan_result *r, const struct plan_settings *s);

/* Why a user cannot act on o: "owned machine" (a team owns a given
 * number; nothing to rent), "illustrative price" (nobody published it);
 * NULL for a rental at a sourced price. */
const char *plan_option_not_actionable(const struct plan_option *o);

#endif

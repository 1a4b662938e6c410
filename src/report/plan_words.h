/*
 * plan_words.h - a loaded plan's figures in words, as the report prints
 * them: an option's GPUs, and the sentence for a workload with nothing
 * feasible.
 *
 * Ownership: the caller's buffer is written; nothing is kept.
 */
#ifndef GPUPLAN_REPORT_PLAN_WORDS_H
#define GPUPLAN_REPORT_PLAN_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "i18n.h"
#include "report_data.h"

/* The sentence for a workload with nothing feasible, in lang: the
 * closest option and what to relax, with the plan's figures ("No option
 * meets the limits; the closest, ..., takes 45.1 min for 41.37 USD:
 * allow 15.1 min more, or raise the budget by 11.37 USD."). */
void r_shortfall_sentence(const struct r_plan *p, const struct r_workload *w,
			  enum report_lang lang, char *buf, size_t len);

/* "8 x H200-SXM", or with MIG "8 x H200-SXM as 15 x 3g.71gb": the
 * option's GPUs as the plan's table words them (plan_gpus_text()). */
void r_gpus_text(const struct r_option *o, char *buf, size_t len);

/* A training run's GPU-hours of wall clock and of compute with the
 * goodput between them, in lang; false (nothing written) for a service,
 * a plan made before goodput was modelled, or a run that loses less than
 * a tenth of a percent (as the terminal's table). */
bool r_goodput_sentence(const struct r_option *o, enum report_lang lang,
			char *buf, size_t len);

/* GPU-hours with their digits grouped as money's are ("40,349"). */
void r_hours_text(double h, char *buf, size_t len);

#endif

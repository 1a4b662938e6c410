/*
 * reason.c - turning an option's coded reasons into words.
 */
#include <stdio.h>

#include "core/units.h"
#include "core/utf8.h"
#include "option/reason.h"
#include "option/wording.h"

void plan_reason_currency(struct plan_reason *r, int i, const char *code)
{
	snprintf(r->currency[i], sizeof(r->currency[i]), "%s", code);
}

const char *plan_reason_s1(const struct plan_reason *r)
{
	if (r->code == REASON_BUDGET || r->code == REASON_NO_RATE)
		return r->currency[0];
	return r->s1;
}

const char *plan_reason_s2(const struct plan_reason *r)
{
	if (r->code == REASON_NO_RATE)
		return r->currency[1];
	return r->s2;
}

/* An amount of money as a sentence wants it: whole units from 100 up,
 * cents from 1, and three significant digits below 1 and for the
 * extremes an accepted budget or price can reach (0.0103, 2.1e+22), so
 * that a cost over a small budget never rounds to the budget itself. */
static const char *amount_text(double v, char *buf, size_t len)
{
	if (v >= 100 && v < 1e15)
		snprintf(buf, len, "%.0f", v);
	else if (v >= 1 && v < 100)
		snprintf(buf, len, "%.2f", v);
	else
		snprintf(buf, len, "%.3g", v);
	return buf;
}

/* Where a replica runs: "T4", "2 x A10G (tensor parallel)", "a 1g.10gb
 * slice of A100-SXM-40GB". */
static const char *serve_where(const struct plan_reason *r, char *buf,
			       size_t len)
{
	if (r->s2)
		snprintf(buf, len, "a %s slice of %s", r->s2, r->s1);
	else if (r->n1 > 1)
		snprintf(buf, len, "%ld x %s (tensor parallel)", r->n1, r->s1);
	else
		snprintf(buf, len, "%s", r->s1);
	return buf;
}

/* The inference planner's reasons.  Memory in decimal GB on both sides,
 * so they compare at a glance ("needs 16.8 GB at batch 1; T4 has 16 GB"). */
static void serve_reason_format(const struct plan_reason *r, char *buf,
				size_t len)
{
	char x[32], y[32], at[2 * 256 + 64];
	switch (r->code) {
	case REASON_SERVE_MEMORY:
		plan_gb_text(r->a, x, 32);
		plan_gb_text(r->b, y, 32);
		if (r->n1 > 1)
			snprintf(buf, len, "needs %s per GPU at batch 1 even split over %ld GPUs; %s has %s",
				 x, r->n1, r->s1, y);
		else
			snprintf(buf, len, "needs %s at batch 1; %s has %s", x,
				 r->s1, y);
		break;
	case REASON_SERVE_SLOW:
		snprintf(buf, len, "one request takes %s on %s, above the %s p99 target",
			 units_format(UNIT_DURATION, r->a, NULL, x, 32),
			 serve_where(r, at, sizeof(at)),
			 units_format(UNIT_DURATION, r->b, NULL, y, 32));
		break;
	case REASON_SERVE_RATE:
		snprintf(buf, len, "needs more than %ld instances to serve %.4g requests/s",
			 r->n1, r->a);
		break;
	case REASON_SERVE_P99:
		snprintf(buf, len, "needs more than %ld instances to hold the p99 under %s",
			 r->n1, units_format(UNIT_DURATION, r->a, NULL, x, 32));
		break;
	case REASON_MIG_ISOLATED:
		snprintf(buf, len, "MIG slices are isolated in hardware: no interference assumed");
		break;
	case REASON_SERVE_ON_DEMAND:
		snprintf(buf, len, "on demand: serving is not put on spot capacity, which can be reclaimed mid-request");
		break;
	case REASON_LLM_TARGET:
		if (r->n1)
			snprintf(buf, len, "even on an idle replica the %s is %s, above the %s target",
				 r->s1, units_format(UNIT_DURATION, r->a, NULL, x, 32),
				 units_format(UNIT_DURATION, r->b, NULL, y, 32));
		else
			snprintf(buf, len, "needs more than %ld instances to bring the %s under %s",
				 r->n2, r->s1, units_format(UNIT_DURATION, r->b, NULL, y, 32));
		break;
	default:	/* not an inference reason: plan_reason_format() */
		break;
	}
}

static void format_reason(const struct plan_option *o, int i, char *buf,
			  size_t len)
{
	const struct plan_reason *r = plan_option_reason_at(o, i);
	char x[32], y[32], z[32];
	switch (r->code) {
	case REASON_TEXT:
		snprintf(buf, len, "%s", o->owner->text + r->text);
		break;
	case REASON_MEMORY:
		/* decimal GB on both sides, as the datasheet states the
		 * capacity: 78.12 GiB against "80 GB" reads as fitting */
		snprintf(buf, len,
			 "needs %s per GPU even with tp %ld, pp %ld and micro-batch 1; %s has %s",
			 plan_gb_text(r->a, x, 32), r->n1, r->n2,
			 r->s1, plan_gb_text(r->b, y, 32));
		break;
	case REASON_DEADLINE:
		snprintf(buf, len, "takes %s, past the %s deadline",
			 units_format(UNIT_DURATION, r->a, NULL, x, 32),
			 units_format(UNIT_DURATION, r->b, NULL, y, 32));
		break;
	case REASON_BUDGET:
		snprintf(buf, len, "costs %s %s, over the %s %s budget",
			 amount_text(r->a, x, sizeof(x)), r->currency[0],
			 amount_text(r->b, y, sizeof(y)), r->currency[0]);
		break;
	case REASON_ILLUSTRATIVE:
		snprintf(buf, len, "price is illustrative (not from a published source)");
		break;
	case REASON_PRECISION:
		if (r->n1)
			snprintf(buf, len, "runs as %s: %s has no %s",
				 precision_name(r->p_used), r->s1,
				 precision_name(r->p_wanted));
		else
			snprintf(buf, len,
				 "runs as %s: the catalog has no sourced %s peak for %s",
				 precision_name(r->p_used),
				 precision_name(r->p_wanted), r->s1);
		break;
	case REASON_STARVE:
		snprintf(buf, len,
			 "the GPUs starve: data loading needs %.3g s per step against %.3g s of compute (%.0f%% idle); more vCPUs or pre-decoded data would help",
			 r->a, r->b, 100 * r->c);
		break;
	case REASON_NO_RATE:
		snprintf(buf, len, "no exchange rate from %s to %s",
			 r->currency[0], r->currency[1]);
		break;
	case REASON_OUT_OF_RANGE:
		snprintf(buf, len,
			 "the estimate is out of range (%s is not a finite, non-negative number): check the figures of the catalog and the workload",
			 r->s1 ? r->s1 : "a figure");
		break;
	case REASON_GOODPUT:
		snprintf(buf, len,
			 "makes no progress on %ld GPUs: a failure every %s against %s per checkpoint and %s per restart",
			 r->n1, units_format(UNIT_DURATION, r->a, NULL, x, 32),
			 units_format(UNIT_DURATION, r->b, NULL, y, 32),
			 units_format(UNIT_DURATION, r->c, NULL, z, 32));
		break;
	case REASON_SERVE_MEMORY:
	case REASON_SERVE_SLOW:
	case REASON_SERVE_RATE:
	case REASON_SERVE_P99:
	case REASON_MIG_ISOLATED:
	case REASON_SERVE_ON_DEMAND:
	case REASON_LLM_TARGET:
		serve_reason_format(r, buf, len);
		break;
	}
}

void plan_reason_format(const struct plan_option *o, int i, char *buf,
			size_t len)
{
	format_reason(o, i, buf, len);
	utf8_trim_partial(buf);	/* a cut never leaves half a character */
}

const char *plan_reason_code_name(enum reason_code c)
{
	static const char *const names[] = {
		[REASON_TEXT] = "text",
		[REASON_MEMORY] = "memory",
		[REASON_DEADLINE] = "deadline",
		[REASON_BUDGET] = "budget",
		[REASON_ILLUSTRATIVE] = "illustrative_price",
		[REASON_PRECISION] = "precision",
		[REASON_STARVE] = "input_starvation",
		[REASON_NO_RATE] = "no_exchange_rate",
		[REASON_SERVE_MEMORY] = "serve_memory",
		[REASON_SERVE_SLOW] = "serve_too_slow",
		[REASON_SERVE_RATE] = "serve_rate",
		[REASON_SERVE_P99] = "serve_p99",
		[REASON_MIG_ISOLATED] = "mig_isolated",
		[REASON_SERVE_ON_DEMAND] = "serve_on_demand",
		[REASON_OUT_OF_RANGE] = "out_of_range",
		[REASON_LLM_TARGET] = "llm_target",
		[REASON_GOODPUT] = "goodput",
	};
	return names[c];
}

/*
 * Why a layout lost: it does not fit, or the mechanism that costs it most
 * against the chosen one (the part of the step that grew the most).
 */
void plan_layout_why(const struct plan_layout *l, const struct plan_layout *chosen,
		     double capacity, char *buf, size_t len)
{
	char need[32], have[32];
	if (!l->fits) {
		plan_gb_text(l->memory_per_gpu, need, sizeof(need));
		plan_gb_text(capacity, have, sizeof(have));
		snprintf(buf, len, "does not fit: needs %s per GPU, %s available",
			 need, have);
		return;
	}
	if (l == chosen || l->step_s <= chosen->step_s) {
		snprintf(buf, len, "chosen");
		return;
	}
	const struct { const char *what; double a, b; } parts[] = {
		{"compute (smaller or thinner matrix work, more recomputation)",
		 l->compute, chosen->compute},
		{"pipeline bubble", l->bubble, chosen->bubble},
		{"tensor-parallel collectives", l->tp_comm, chosen->tp_comm},
		{"activation sends between pipeline stages", l->pp_comm, chosen->pp_comm},
		{"data-parallel traffic not hidden by the backward pass",
		 l->dp_comm, chosen->dp_comm},
		{"optimizer step", l->optimizer, chosen->optimizer},
		{"data loading", l->input, chosen->input},
	};
	size_t worst = 0;
	for (size_t i = 1; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].a - parts[i].b > parts[worst].a - parts[worst].b)
			worst = i;
	char more[32];
	units_format(UNIT_DURATION, parts[worst].a - parts[worst].b, NULL, more,
		     sizeof(more));
	char slower[48];
	snprintf(buf, len, "%s: %s more %s per step",
		 plan_slower_text(l->step_s, chosen->step_s, slower, sizeof(slower)),
		 more, parts[worst].what);
}

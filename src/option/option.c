/*
 * option.c - a result's options and their reasons: appending, recording a
 * reason (kept in the result, not the option: most options have none),
 * freeing; and a token service's cost per million tokens.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "option/option.h"

struct plan_option *plan_result_add(struct plan_result *r)
{
	xgrow((void **)&r->v, &r->cap, r->n + 1, sizeof(*r->v));
	struct plan_option *o = &r->v[r->n++];
	memset(o, 0, sizeof(*o));
	o->owner = r;
	return o;
}

void plan_option_code(struct plan_option *o, const struct plan_reason *r)
{
	struct plan_result *res = o->owner;
	if (o->n_reasons == PLAN_MAX_REASONS)
		return;
	xgrow((void **)&res->reasons, &res->cap_reasons, res->n_reasons + 1,
	      sizeof(*res->reasons));
	long at = (long)res->n_reasons++;
	res->reasons[at] = *r;
	res->reasons[at].next = -1;
	if (o->n_reasons++ == 0) {
		o->first_reason = at;
		return;
	}
	long last = o->first_reason;
	while (res->reasons[last].next >= 0)
		last = res->reasons[last].next;
	res->reasons[last].next = at;
}

void plan_option_reason(struct plan_option *o, const char *fmt, ...)
{
	struct plan_result *r = o->owner;
	if (o->n_reasons == PLAN_MAX_REASONS)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *text = xvasprintf(fmt, ap);
	va_end(ap);
	size_t len = strlen(text) + 1;
	xgrow((void **)&r->text, &r->text_cap, r->text_len + len, 1);
	memcpy(r->text + r->text_len, text, len);
	free(text);
	struct plan_reason code = {.code = REASON_TEXT, .text = r->text_len};
	r->text_len += len;
	plan_option_code(o, &code);
}

void plan_result_reset(struct plan_result *r)
{
	struct plan_result keep = *r;
	free(r->why);
	free(r->layouts);
	free(r->splits);
	memset(r, 0, sizeof(*r));
	r->v = keep.v;
	r->cap = keep.cap;
	r->reasons = keep.reasons;
	r->cap_reasons = keep.cap_reasons;
	r->text = keep.text;
	r->text_cap = keep.text_cap;
}

void plan_result_free(struct plan_result *r)
{
	plan_result_reset(r);
	free(r->v);
	free(r->text);
	free(r->reasons);
	memset(r, 0, sizeof(*r));
}

bool plan_token_costs(const struct plan_option *o, double *per_m_input,
		      double *per_m_output, double *per_m_all)
{
	const struct inference *in = &o->owner->w->infer;
	double requests = in->request_rate * in->serving_per_month;
	double input = requests * (double)in->prompt_tokens;
	double output = requests * (double)in->output_tokens;
	double share = o->llm.prefill_share;
	if (!o->has_llm || share < 0 || !(input > 0 && output > 0))
		return false;
	*per_m_input = o->cost * share / input * 1e6;
	*per_m_output = o->cost * (1 - share) / output * 1e6;
	*per_m_all = o->cost / (input + output) * 1e6;
	return true;
}

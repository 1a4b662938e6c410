/*
 * reason.c - turning an option's coded reasons into words.
 */
#include <stdio.h>

#include "core/units.h"
#include "plan.h"

void plan_reason_format(const struct plan_option *o, int i, char *buf,
			size_t len)
{
	const struct plan_reason *r = plan_option_reason_at(o, i);
	char x[32], y[32];
	switch (r->code) {
	case REASON_TEXT:
		snprintf(buf, len, "%s", o->owner->text + r->text);
		break;
	case REASON_MEMORY:
		snprintf(buf, len,
			 "needs %s per GPU even with tp %ld, pp %ld and micro-batch 1; %s has %s",
			 units_format(UNIT_BYTES, r->a, NULL, x, 32), r->n1, r->n2,
			 r->s1, units_format(UNIT_BYTES, r->b, NULL, y, 32));
		break;
	case REASON_DEADLINE:
		snprintf(buf, len, "takes %s, past the %s deadline",
			 units_format(UNIT_DURATION, r->a, NULL, x, 32),
			 units_format(UNIT_DURATION, r->b, NULL, y, 32));
		break;
	case REASON_BUDGET:
		snprintf(buf, len, "costs %.0f %s, over the %.0f %s budget", r->a,
			 r->s1, r->b, r->s1);
		break;
	case REASON_ILLUSTRATIVE:
		snprintf(buf, len, "price is illustrative (not from a published source)");
		break;
	case REASON_PRECISION:
		snprintf(buf, len, "runs as %s: %s has no %s",
			 precision_name(r->p_used), r->s1, precision_name(r->p_wanted));
		break;
	case REASON_STARVE:
		snprintf(buf, len,
			 "the GPUs starve: data loading needs %.3g s per step against %.3g s of compute (%.0f%% idle); more vCPUs or pre-decoded data would help",
			 r->a, r->b, 100 * r->c);
		break;
	case REASON_NO_RATE:
		snprintf(buf, len, "no exchange rate from %s to %s", r->s1, r->s2);
		break;
	}
}

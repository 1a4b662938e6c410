/*
 * settings.c - a planning run's settings: the defaults, one workload's own
 * efficiencies (the spot rule is inline in settings.h).
 */
#include <string.h>

#include "option/settings.h"

void plan_settings_default(struct plan_settings *s)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->currency, "USD", 4);
	s->top = 5;
	s->range_level = 0.80;
	efficiency_default(&s->eff);
}

struct plan_settings plan_settings_for(const struct plan_settings *base,
				       const struct workload *w)
{
	struct plan_settings s = *base;
	if (w->efficiency_compute > 0) {
		s.eff.compute = w->efficiency_compute;
		s.eff.compute_from = "the workload's own efficiency: compute";
	}
	if (w->efficiency_memory > 0) {
		s.eff.memory = w->efficiency_memory;
		s.eff.memory_from = "the workload's own efficiency: memory";
	}
	return s;
}

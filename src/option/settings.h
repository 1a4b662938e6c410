/*
 * settings.h - what one planning run prices under: the plan currency,
 * spot or not, the efficiencies (hwmodel/efficiency.h), the instances it
 * keeps, a carried calibration; and the spot rule, which decides the price
 * an option is compared by.
 *
 * Ownership: struct plan_settings is plain data; the lists and the
 * calibration it points at are the caller's and must outlive it.
 */
#ifndef GPUPLAN_OPTION_SETTINGS_H
#define GPUPLAN_OPTION_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog/instance_key.h"
#include "hwmodel/calibrate.h"
#include "hwmodel/efficiency.h"
#include "option/option.h"
#include "workload/workload.h"

struct plan_settings {
	char currency[4];	/* every cost is converted to this ("USD") */
	bool spot;		/* --spot: rank by spot price where the workload allows */
	long top;		/* options per workload in the table view */
	struct efficiency eff;	/* defaults, see hwmodel/efficiency.h */
	/* --instance: plan only these instance types (names as given,
	 * compared case-blind); n_only 0: every instance.  Checked against
	 * the catalog first (plan_check_instances()).  Not owned. */
	const char *const *only;
	size_t n_only;
	/* --region, --provider: plan only instances these keep
	 * (catalog/instance_key.h); empty lists keep all.  Not owned. */
	struct instance_filter where;
	/* --profile: the calibration and what it carried to the catalog
	 * (hwmodel/calibrate.h); NULL: none.  Not owned. */
	const struct carried *carried;
	/* The probability the printed ranges (time_low_s .. time_high_s)
	 * are meant to hold: 0.80 by default; `backtest --coverage LEVEL`
	 * sets it to the level it tests. */
	double range_level;
};

void plan_settings_default(struct plan_settings *s);

/* The settings for one workload: its own efficiencies (`efficiency:`),
 * if it gives them, replace base's (a team that has measured its
 * kernels). */
struct plan_settings plan_settings_for(const struct plan_settings *base,
				       const struct workload *w);

/*
 * The spot rule, the one place it is decided (here): spot prices are
 * acceptable for a training workload when --spot is given or the workload
 * says `spot: true`; serving always runs on demand (a reclaimed instance
 * drops requests mid-flight).  When acceptable, the front, the
 * recommendation, the runner-up, the budget check and the savings all
 * compare spot prices (an option without one at its on-demand price).
 */
static inline bool plan_spot_acceptable(const struct plan_settings *s,
					const struct workload *w)
{
	return w->kind == WORKLOAD_TRAINING && (s->spot || w->train.spot);
}
/* The cost o is compared by under that rule, plan currency.  (Both inline:
 * the chooser's sorts call them once per option, millions of times.) */
static inline double plan_compared_cost(const struct plan_settings *s,
					const struct workload *w,
					const struct plan_option *o)
{
	return plan_spot_acceptable(s, w) && o->has_spot ? o->cost_spot : o->cost;
}

#endif

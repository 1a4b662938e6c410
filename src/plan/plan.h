/*
 * plan.h - every workload against every instance: what each option takes
 * (time, memory, money) and which one to rent.
 *
 * For each workload the planner asks the estimators for options (an
 * instance type, how many, and how the work is split over them: the
 * training estimator in train/, the serving estimator in serve/, both
 * pricing ops with the hardware model in hwmodel/), marks what is
 * infeasible and why, and then chooses (choose.h): the Pareto front of
 * time against cost, the cheapest option that meets the deadline, the
 * fastest within budget, and a recommendation with the sentence that
 * justifies it.  The option and result types are in option/option.h.
 *
 * Every figure names where it came from: datasheet peaks and bandwidths
 * from the catalog, efficiencies from hwmodel/efficiency.h (documented
 * assumptions with their sources), prices from the catalog with their
 * date, exchange rates from the dated rates file.
 *
 * Ownership: a struct plan owns its results and options; it points at (and
 * does not own) the catalog and the workload file, which must outlive it.
 */
#ifndef GPUPLAN_PLAN_PLAN_H
#define GPUPLAN_PLAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog/catalog.h"
#include "core/error.h"
#include "option/option.h"
#include "option/settings.h"
#include "workload/workload.h"

struct prep_cache;

struct plan {
	struct prep_cache *preps;	/* prep_cache.h, during a run */
	const struct catalog *catalog;
	const struct workload_file *workloads;
	struct plan_settings settings;
	struct plan_result *results;	/* one per workload, in file order */
	size_t n;
};

/*
 * Every instance name the planning will filter by, against catalog c:
 * each of `only` (--instance; an unknown one is a problem without a file,
 * with a did-you-mean) and each training workload's `instance:` (reported
 * at its instance_at, with a did-you-mean; one that `only` leaves out is a
 * problem too: nothing would be planned for it).  Returns the number of
 * problems added to errs.
 */
int plan_check_instances(const struct catalog *c,
			 const struct workload_file *wf,
			 const char *const *only, size_t n_only,
			 struct gp_errors *errs);

/* Whether in is planned for w under s: within s->only, and w's own
 * `instance:` when it names one (both case-blind). */
bool plan_instance_wanted(const struct plan_settings *s,
			  const struct workload *w, const struct instance *in);

/*
 * Plans every workload against every instance of the catalog.  Returns 0,
 * or -1 with a reason (an exchange rate missing for the plan currency).
 */
int plan_run(struct plan *p, const struct catalog *c,
	     const struct workload_file *wf, const struct plan_settings *s,
	     char *why, size_t whylen);
void plan_free(struct plan *p);

/*
 * The same, handing each workload's result to emit as soon as it is
 * chosen and freeing it afterwards, so a plan of thousands of instances
 * and hundreds of workloads holds one workload's options at a time.
 * emit returns 0 to go on.  p->results stays empty.
 */
int plan_run_each(struct plan *p, const struct catalog *c,
		  const struct workload_file *wf, const struct plan_settings *s,
		  int (*emit)(void *ctx, const struct plan *p,
			      const struct plan_result *r),
		  void *ctx, char *why, size_t whylen);


#endif

/*
 * choose.c - from options to a choice: the Pareto front of time (or
 * latency) against cost, the cheapest option within the deadline, the
 * fastest within the budget, and one recommendation with the sentence
 * that says why, and why the runner-up lost.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "core/xalloc.h"
#include "option/wording.h"
#include "plan/choose.h"
#include "hwmodel/roofline.h"

const char *plan_option_not_actionable(const struct plan_option *o)
{
	return o->inst->owned ? "owned machine"
	       : o->inst->illustrative ? "illustrative price" : NULL;
}

static double ranked_cost(const struct plan_result *r, const struct plan_option *o,
			  const struct plan_settings *s)
{
	return plan_compared_cost(s, r->w, o);
}

static double duration_of(const struct plan_result *r, const struct plan_option *o)
{
	return r->w->kind == WORKLOAD_TRAINING ? o->time_s : o->p99_latency_s;
}

struct ranked {
	size_t i;
	double cost, time;
};

/* A non-negative double's bits order as the double does. */
static uint64_t key_bits(double v)
{
	uint64_t b;
	if (v < 0)
		v = 0;
	memcpy(&b, &v, sizeof(b));
	return b;
}

struct keyed {
	uint64_t key;
	struct ranked r;
};

/* One stable counting-sort pass on 11 bits of the keys, from *src into
 * *dst; a pass where every key has the same digit is skipped. */
static bool radix_pass(const struct keyed *src, struct keyed *dst, size_t n,
		       int shift)
{
	size_t count[2049] = {0};
	for (size_t k = 0; k < n; k++)
		count[((src[k].key >> shift) & 2047) + 1]++;
	for (int d = 0; d < 2048; d++)
		if (count[d + 1] == n)
			return false;
	for (int d = 0; d < 2048; d++)
		count[d + 1] += count[d];
	for (size_t k = 0; k < n; k++)
		dst[count[(src[k].key >> shift) & 2047]++] = src[k];
	return true;
}

static void radix_by(struct keyed **a, struct keyed **b, size_t n)
{
	for (int shift = 0; shift < 64; shift += 11)
		if (radix_pass(*a, *b, n, shift)) {
			struct keyed *t = *a;
			*a = *b;
			*b = t;
		}
}

/* Within a run of equal costs, order by time (then input order): runs
 * are short, so insertion sort. */
static void order_ties(struct ranked *v, size_t n)
{
	for (size_t start = 0; start < n;) {
		size_t end = start + 1;
		while (end < n && v[end].cost == v[start].cost)
			end++;
		for (size_t i = start + 1; i < end; i++) {
			struct ranked x = v[i];
			size_t k = i;
			while (k > start && (v[k - 1].time > x.time ||
					     (v[k - 1].time == x.time && v[k - 1].i > x.i))) {
				v[k] = v[k - 1];
				k--;
			}
			v[k] = x;
		}
		start = end;
	}
}

/*
 * Sorts by cost, then time, then index (the input order): a stable
 * least-significant-digit radix sort on cost, then the ties by time.  A
 * plan of 10,000 instances has ~50,000 options per workload; a comparison
 * sort of them for every workload cost more than planning them.
 */
static void sort_cost_time(struct ranked *v, size_t n)
{
	struct keyed *a = xcalloc(n + 1, sizeof(*a)), *b = xcalloc(n + 1, sizeof(*b));
	for (size_t k = 0; k < n; k++)
		a[k] = (struct keyed){key_bits(v[k].cost), v[k]};
	radix_by(&a, &b, n);
	for (size_t k = 0; k < n; k++)
		v[k] = a[k].r;
	free(a);
	free(b);
	order_ties(v, n);
}

/* Runnable options sorted by cost, then time; returns how many.  A
 * feasible option is runnable by definition. */
static size_t sort_runnable(struct plan_result *r,
			    const struct plan_settings *s, struct ranked *v)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++)
		r->v[i].runnable |= r->v[i].feasible;
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].runnable)
			v[n++] = (struct ranked){i, ranked_cost(r, &r->v[i], s),
						 duration_of(r, &r->v[i])};
	sort_cost_time(v, n);
	return n;
}

/*
 * The options the front is drawn through and the recommendation comes
 * from: feasible rentals a user can act on (plan_option_not_actionable()),
 * and only when none is feasible, feasible rentals at illustrative prices
 * (recommend() says so).  Never an owned machine, never an infeasible
 * option: a point a user cannot rent is not a choice on the front.
 */
static bool sourced_feasible(const struct plan_result *r);

static bool in_pool(const struct plan_option *o, bool need_sourced)
{
	return o->feasible && !o->inst->owned &&
	       !(need_sourced && o->inst->illustrative);
}

/* Sweep by rising cost: an option of the pool is on the front when it is
 * faster than every cheaper one.  O(n log n) for the sort. */
static void mark_pareto(struct plan_result *r, const struct ranked *v, size_t n)
{
	bool need_sourced = sourced_feasible(r);
	double best = -1;
	for (size_t k = 0; k < n; k++) {
		struct plan_option *o = &r->v[v[k].i];
		o->pareto = false;
		if (!in_pool(o, need_sourced))
			continue;
		if (best < 0 || v[k].time < best) {
			o->pareto = true;
			best = v[k].time;
		}
	}
}

static void mark_limits(struct plan_result *r, const struct ranked *v, size_t n)
{
	const struct workload *w = r->w;
	r->cheapest_in_deadline = r->fastest_in_budget = -1;
	if (w->kind != WORKLOAD_TRAINING)
		return;
	double fastest = 0;
	for (size_t k = 0; k < n; k++) {
		bool in_time = w->train.deadline <= 0 || v[k].time <= w->train.deadline;
		bool in_budget = r->budget <= 0 || v[k].cost <= r->budget;
		if (in_time && r->cheapest_in_deadline < 0)
			r->cheapest_in_deadline = (long)v[k].i;
		if (in_budget && (r->fastest_in_budget < 0 || v[k].time < fastest)) {
			r->fastest_in_budget = (long)v[k].i;
			fastest = v[k].time;
		}
	}
}

/*
 * The recommendation: the cheapest feasible option to rent.  An owned
 * machine (on-prem) is there to compare renting with owning, and a team
 * owns a given number of them, so it is never the one recommended.  An
 * option whose price is illustrative is recommended only when no option
 * with a sourced price is feasible: a manager should not sign off on a
 * number nobody published.  Without a deadline
 * the cheapest may crawl, so the choice is the cheapest feasible option
 * at most twice as slow as the fastest feasible one (a stated rule, not a
 * law).  The runner-up is the next by the same rule on another instance
 * type.
 */
static bool sourced_feasible(const struct plan_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].feasible && !r->v[i].inst->owned &&
		    !r->v[i].inst->illustrative)
			return true;
	return false;
}

static void recommend(struct plan_result *r, const struct ranked *v, size_t n)
{
	bool training = r->w->kind == WORKLOAD_TRAINING;
	bool need_sourced = sourced_feasible(r);
	double fastest = -1;
	for (size_t k = 0; k < n; k++)
		if (in_pool(&r->v[v[k].i], need_sourced) &&
		    (fastest < 0 || v[k].time < fastest))
			fastest = v[k].time;
	bool slack = training && r->w->train.deadline <= 0;
	r->recommended = r->runner_up = -1;
	for (size_t k = 0; k < n; k++) {
		const struct plan_option *o = &r->v[v[k].i];
		if (!in_pool(o, need_sourced) ||
		    (slack && v[k].time > 2 * fastest))
			continue;
		if (r->recommended < 0)
			r->recommended = (long)v[k].i;
		else if (o->inst != r->v[r->recommended].inst) {
			r->runner_up = (long)v[k].i;
			break;
		}
	}
}

/* ---- the sentence ---- */

/* "1,234 USD", "12.50 USD"; three significant digits past 1e15 or below
 * a cent (the extremes accepted inputs reach), where digit groups would
 * not fit or say nothing. */
static const char *money_text(double amount, const char *cur, char *buf,
			      size_t len)
{
	if (amount >= 1e15 || (amount > 0 && amount < 0.01)) {
		snprintf(buf, len, "%.3g %s", amount, cur);
		return buf;
	}
	char digits[48];
	snprintf(digits, sizeof(digits), "%.0f", amount);
	size_t n = strlen(digits), k = 0;
	char grouped[64];
	for (size_t i = 0; i < n && k + 2 < sizeof(grouped); i++) {
		if (i && (n - i) % 3 == 0)
			grouped[k++] = ',';
		grouped[k++] = digits[i];
	}
	grouped[k] = '\0';
	if (amount < 100)
		snprintf(buf, len, "%.2f %s", amount, cur);
	else
		snprintf(buf, len, "%s %s", grouped, cur);
	return buf;
}

static void describe_rig(const struct plan_option *o, char *buf, size_t len)
{
	char gpus[320];
	plan_gpus_text(o, gpus, sizeof(gpus));
	snprintf(buf, len, "%ld x %s (%s)", o->nodes, o->inst->shown, gpus);
}

/* Appends to the recommendation, which grows as needed: names may be up
 * to 256 bytes each, and a fixed buffer would cut one inside a
 * character (and a running offset past its end would write beyond it). */
static void why_add(struct plan_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void why_add(struct plan_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *more = xvasprintf(fmt, ap);
	va_end(ap);
	char *joined = xasprintf("%s%s", r->why ? r->why : "", more);
	free(more);
	free(r->why);
	r->why = joined;
}

/* " on spot", or " on demand" for an option without a spot price when
 * spot is acceptable (said, so the reader knows which price it is). */
static const char *price_kind(const struct plan_result *r,
			      const struct plan_settings *s,
			      const struct plan_option *o)
{
	if (!plan_spot_acceptable(s, r->w))
		return " on demand";
	return o->has_spot ? " on spot" : " on demand (no spot price)";
}

static void training_sentence(struct plan_result *r, const struct plan_settings *s)
{
	const struct workload *w = r->w;
	const struct plan_option *o = &r->v[r->recommended];
	bool spot = plan_spot_acceptable(s, w);
	char rig[600], t[32], c[80], d[32], b[80], od[80];
	describe_rig(o, rig, sizeof(rig));
	why_add(r, "Rent %s for %s: %s%s",
			 rig, units_format(UNIT_DURATION, o->time_s, NULL, t, 32),
			 money_text(plan_compared_cost(s, w, o), s->currency, c, sizeof(c)),
			 price_kind(r, s, o));
	if (spot && o->has_spot)
		why_add(r, " (%s on demand)",
			money_text(o->cost, s->currency, od, sizeof(od)));
	if (o->has_range && o->time_s > 0) {
		char lo[32], hi[32];
		why_add(r, "; %s to %s at the %.0f%% range of its %s",
			units_format(UNIT_DURATION, o->time_low_s, NULL, lo, 32),
			units_format(UNIT_DURATION, o->time_high_s, NULL, hi, 32),
			100 * o->range_level,
			o->range_measured ? "measured fractions" : "assumptions");
	}
	const char *on = spot ? " on spot prices" : "";
	if (w->train.deadline > 0)
		why_add(r, ". It is the cheapest option to rent%s that meets the %s deadline%s%s%s.",
			      on, units_format(UNIT_DURATION, w->train.deadline, NULL, d, 32),
			      r->budget > 0 ? " within the " : "",
			      r->budget > 0 ? money_text(r->budget, s->currency, b, sizeof(b)) : "",
			      r->budget > 0 ? " budget" : "");
	else
		why_add(r, ". No deadline was given: it is the cheapest option%s at most twice as slow as the fastest.",
			on);
	if (o->inst->illustrative)
		why_add(r, " Its price is illustrative: no option at a published price is feasible.");
	if (r->runner_up < 0)
		return;
	const struct plan_option *u = &r->v[r->runner_up];
	describe_rig(u, rig, sizeof(rig));
	double oc = plan_compared_cost(s, w, o), uc = plan_compared_cost(s, w, u);
	double dc = oc > 0 ? 100 * (uc - oc) / oc : 0;
	char slower[48];
	plan_slower_text(u->time_s, o->time_s, slower, sizeof(slower));
	why_add(r, " Runner-up: %s, %s for %s%s (%+.0f%% cost, %s).", rig,
		 units_format(UNIT_DURATION, u->time_s, NULL, t, 32),
		 money_text(uc, s->currency, c, sizeof(c)), price_kind(r, s, u), dc,
		 slower);
}

/* "the 10 s p99 and 500 ms TTFT p99 targets": each target the workload
 * sets, in the order the sizing checks them. */
static void targets_text(const struct inference *in, char *buf, size_t len)
{
	size_t n = 0, k = 0, given = 0;
	for (int t = 0; t < TARGET_COUNT; t++)
		given += in->target[t] > 0;
	buf[0] = 0;
	for (int t = 0; t < TARGET_COUNT && k < len; t++) {
		if (in->target[t] <= 0)
			continue;
		char d[32];
		units_format(UNIT_DURATION, in->target[t], NULL, d, sizeof(d));
		const char *sep = n == 0 ? "the " : n + 1 == given ? " and " : ", ";
		int w = snprintf(buf + k, len - k, "%s%s %s", sep, d,
				 target_name((enum latency_target)t)->label);
		if (w < 0)
			break;
		k += (size_t)w;
		n++;
	}
	if (k < len)
		snprintf(buf + k, len - k, " target%s", given > 1 ? "s" : "");
}

/* "TTFT p99 44 ms, TPOT p99 7.4 ms, " for a token-generating service. */
static void token_latency_text(const struct plan_option *o, char *buf,
			       size_t len)
{
	char a[32], b[32];
	if (!o->has_llm) {
		buf[0] = 0;
		return;
	}
	snprintf(buf, len, "TTFT p99 %s, TPOT p99 %s, end-to-end ",
		 units_format(UNIT_DURATION, o->llm.ttft_p99, NULL, a, 32),
		 units_format(UNIT_DURATION, o->llm.tpot_p99, NULL, b, 32));
}

static void serving_sentence(struct plan_result *r, const struct plan_settings *s)
{
	const struct plan_option *o = &r->v[r->recommended];
	char c[80], m[80], p99[32], targets[160], tokens[96], engine[128];
	targets_text(&r->w->infer, targets, sizeof(targets));
	token_latency_text(o, tokens, sizeof(tokens));
	char stages[48] = "";
	if (o->pp > 1)
		snprintf(stages, sizeof(stages), ", %ld pipeline stages", o->pp);
	if (o->has_llm)
		snprintf(engine, sizeof(engine), "up to %ld live sequences%s%s%s",
			 o->batch, o->pp > 1 ? " per stage" : "",
			 o->tp > 1 ? ", tensor parallel" : "", stages);
	else
		snprintf(engine, sizeof(engine), "dynamic batches of up to %ld",
			 o->batch);
	char per_token[160] = "", ti[40], to[40];
	double in_m, out_m, all_m;
	if (plan_token_costs(o, &in_m, &out_m, &all_m))
		snprintf(per_token, sizeof(per_token),
			 "; %s per million input tokens and %s per million output tokens",
			 money_text(in_m, s->currency, ti, sizeof(ti)),
			 money_text(out_m, s->currency, to, sizeof(to)));
	char gpus[320];
	plan_gpus_text(o, gpus, sizeof(gpus));
	why_add(r, "Serve with %ld x %s (%s, %ld replica%s, %s): %sp99 %s against %s, %s a month (%s per million requests%s).",
			 o->nodes, o->inst->shown, gpus, o->replicas, o->replicas == 1 ? "" : "s",
			 engine,
			 tokens,
			 units_format(UNIT_DURATION, o->p99_latency_s, NULL, p99, 32),
			 targets,
			 money_text(o->cost, s->currency, c, sizeof(c)),
			 money_text(o->cost_per_million, s->currency, m, sizeof(m)),
			 per_token);
	if (r->runner_up < 0)
		return;
	const struct plan_option *u = &r->v[r->runner_up];
	double dc = o->cost > 0 ? 100 * (u->cost - o->cost) / o->cost : 0;
	why_add(r, " Runner-up: %ld x %s, %s a month (%+.0f%%), p99 %s.",
		 u->nodes, u->inst->shown, money_text(u->cost, s->currency, c, sizeof(c)),
		 dc, units_format(UNIT_DURATION, u->p99_latency_s, NULL, p99, 32));
}

/* The measured value of target t on serving option o, s. */
static double target_value(const struct plan_option *o, int t)
{
	switch (t) {
	case TARGET_TTFT_P99: return o->llm.ttft_p99;
	case TARGET_TPOT_P99: return o->llm.tpot_p99;
	case TARGET_TTFT_P50: return o->llm.ttft_p50;
	case TARGET_TPOT_P50: return o->llm.tpot_p50;
	default: return o->p99_latency_s;
	}
}

/*
 * How far o is from feasible: the sum of its relative overruns, each
 * counted only when positive - time / deadline - 1 and cost / budget - 1
 * for training (the compared cost of the spot rule), measured / target - 1
 * over each latency target for serving.  Relative, so that missing a 24 h
 * deadline by 2.4 h weighs as much as a 1,000 USD budget by 100 USD.
 * *worst: the serving target missed most (-1: none).
 */
static double violation(const struct plan_result *r, const struct plan_settings *s,
			const struct plan_option *o, int *worst)
{
	const struct workload *w = r->w;
	double v = 0, most = 0;
	*worst = -1;
	if (w->kind == WORKLOAD_TRAINING) {
		if (w->train.deadline > 0 && o->time_s > w->train.deadline)
			v += o->time_s / w->train.deadline - 1;
		double c = plan_compared_cost(s, w, o);
		if (r->budget > 0 && c > r->budget)
			v += c / r->budget - 1;
		return v;
	}
	for (int t = 0; t < TARGET_COUNT; t++) {
		double want = w->infer.target[t];
		if (want <= 0 || (t != TARGET_P99 && !o->has_llm))
			continue;
		double over = target_value(o, t) / want - 1;
		if (over > 0) {
			v += over;
			if (over > most)
				most = over, *worst = t;
		}
	}
	return v;
}

/* The shortfall: the closest runnable rental (one at a sourced price when
 * any is runnable), and by how much it misses each limit. */
static void find_shortfall(struct plan_result *r, const struct plan_settings *s)
{
	struct plan_shortfall *f = &r->shortfall;
	*f = (struct plan_shortfall){.closest = -1, .in_deadline = -1, .target = -1};
	bool sourced = false;
	for (size_t i = 0; i < r->n; i++)
		sourced |= r->v[i].runnable && !plan_option_not_actionable(&r->v[i]);
	for (size_t i = 0; i < r->n; i++) {
		const struct plan_option *o = &r->v[i];
		int worst;
		if (!o->runnable || o->inst->owned || (sourced && o->inst->illustrative))
			continue;
		double v = violation(r, s, o, &worst);
		if (f->closest < 0 || v < f->violation) {
			f->closest = (long)i, f->violation = v, f->target = worst;
		}
	}
	if (f->closest < 0) {
		f->larger = true;
		return;
	}
	const struct plan_option *o = &r->v[f->closest];
	const struct workload *w = r->w;
	if (w->kind != WORKLOAD_TRAINING) {
		if (f->target >= 0)
			f->target_over_s = target_value(o, f->target) - w->infer.target[f->target];
		return;
	}
	if (w->train.deadline > 0 && o->time_s > w->train.deadline)
		f->time_over_s = o->time_s - w->train.deadline;
	double c = plan_compared_cost(s, w, o);
	if (r->budget > 0 && c > r->budget)
		f->cost_over = c - r->budget;
	/* the other way out of a missed deadline: pay for a faster rental */
	if (f->time_over_s > 0 && r->cheapest_in_deadline >= 0 && r->budget > 0) {
		const struct plan_option *d = &r->v[r->cheapest_in_deadline];
		double over = plan_compared_cost(s, w, d) - r->budget;
		if (over > 0)	/* else it misses something else: not a way out */
			f->in_deadline = r->cheapest_in_deadline, f->in_deadline_over = over;
	}
}

/* " within the 1,000 USD budget" when there is one. */
static void limits_text(const struct plan_result *r, const struct plan_settings *s,
			char *buf, size_t len)
{
	const struct workload *w = r->w;
	char d[32], b[80];
	if (w->train.deadline > 0 && r->budget > 0)
		snprintf(buf, len, "the %s deadline within the %s budget",
			 units_format(UNIT_DURATION, w->train.deadline, NULL, d, 32),
			 money_text(r->budget, s->currency, b, sizeof(b)));
	else if (w->train.deadline > 0)
		snprintf(buf, len, "the %s deadline",
			 units_format(UNIT_DURATION, w->train.deadline, NULL, d, 32));
	else
		snprintf(buf, len, "the %s budget",
			 money_text(r->budget, s->currency, b, sizeof(b)));
}

/* Some option cannot run because its cluster fails faster than it
 * makes progress (train/goodput.h). */
static bool makes_no_progress(const struct plan_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		for (int k = 0; k < r->v[i].n_reasons; k++)
			if (plan_option_reason_at(&r->v[i], k)->code == REASON_GOODPUT)
				return true;
	return false;
}

/*
 * Nothing feasible: one sentence naming the closest option and what to
 * relax, with numbers ("No option meets the 24 h deadline; the closest,
 * 8 x p5.48xlarge (64 x H100-SXM), takes 31.2 h for 9,000 USD: allow
 * 7.2 h more, or raise the budget by 1,200 USD for 16 x p5.48xlarge
 * (128 x H100-SXM), which meets the deadline.").
 */
static void nothing_sentence(struct plan_result *r, const struct plan_settings *s)
{
	const struct workload *w = r->w;
	find_shortfall(r, s);
	const struct plan_shortfall *f = &r->shortfall;
	if (f->closest < 0 && makes_no_progress(r)) {
		why_add(r, "No instance in the catalog can run %s: every option is out of memory, unpriced, or a cluster that fails more often than it can checkpoint and restart (see the reasons per option); use fewer GPUs, or checkpoint and restart faster.",
			 w->name);
		return;
	}
	if (f->closest < 0) {
		why_add(r, "No instance in the catalog can run %s: every option is out of memory or unpriced (see the reasons per option); use an instance with more memory per GPU, or a smaller model or batch.",
			 w->name);
		return;
	}
	const struct plan_option *o = &r->v[f->closest];
	char rig[600], t[32], c[80], lim[200], x[80];
	describe_rig(o, rig, sizeof(rig));
	if (w->kind == WORKLOAD_TRAINING) {
		const char *spot = plan_spot_acceptable(s, w) && o->has_spot ? " on spot" : "";
		limits_text(r, s, lim, sizeof(lim));
		why_add(r, "No option meets %s; the closest, %s, takes %s for %s%s:",
			lim, rig, units_format(UNIT_DURATION, o->time_s, NULL, t, 32),
			money_text(plan_compared_cost(s, w, o), s->currency, c, sizeof(c)), spot);
		const char *sep = " ";
		if (f->time_over_s > 0) {
			why_add(r, "%sallow %s more", sep,
				units_format(UNIT_DURATION, f->time_over_s, NULL, t, 32));
			sep = ", or ";
		}
		if (f->cost_over > 0) {
			why_add(r, "%sraise the budget by %s", sep,
				money_text(f->cost_over, s->currency, x, sizeof(x)));
			sep = ", or ";
		}
		if (f->in_deadline >= 0 && f->in_deadline != f->closest &&
		    f->in_deadline_over > 0) {
			describe_rig(&r->v[f->in_deadline], rig, sizeof(rig));
			why_add(r, "%sraise the budget by %s for %s, which meets the deadline",
				sep, money_text(f->in_deadline_over, s->currency, x, sizeof(x)),
				rig);
		}
		why_add(r, ".");
		return;
	}
	char targets[160], tokens[96];
	targets_text(&w->infer, targets, sizeof(targets));
	token_latency_text(o, tokens, sizeof(tokens));
	why_add(r, "No option meets %s; the closest, %s, reaches %sp99 %s",
		targets, rig, tokens,
		units_format(UNIT_DURATION, o->p99_latency_s, NULL, t, 32));
	if (f->target >= 0)
		why_add(r, ": allow %s more on the %s target",
			units_format(UNIT_DURATION, f->target_over_s, NULL, x, 32),
			target_name((enum latency_target)f->target)->label);
	why_add(r, ".");
}

/*
 * The obvious alternative: what a team renting without a plan picks - the
 * fastest accelerator on offer (highest dense peak at the workload's
 * precision), the cheapest feasible way to rent it.  The report's first
 * page states the saving against it.
 */
static void obvious_alternative(struct plan_result *r, const struct plan_settings *s)
{
	r->obvious = -1;
	r->saving = 0;
	double best_peak = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct plan_option *o = &r->v[i];
		if (!o->feasible || o->inst->owned)
			continue;
		enum precision used;
		double peak = roofline_matrix_peak(o->inst->acc, r->w->precision, &used);
		if (peak > best_peak)
			best_peak = peak;
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct plan_option *o = &r->v[i];
		enum precision used;
		if (!o->feasible || o->inst->owned ||
		    roofline_matrix_peak(o->inst->acc, r->w->precision, &used) < best_peak)
			continue;
		if (r->obvious < 0 || plan_compared_cost(s, r->w, o) <
					      plan_compared_cost(s, r->w, &r->v[r->obvious]))
			r->obvious = (long)i;
	}
	if (r->obvious < 0 || r->recommended < 0)
		return;
	double oc = plan_compared_cost(s, r->w, &r->v[r->obvious]);
	if (oc > 0)
		r->saving = (oc - plan_compared_cost(s, r->w, &r->v[r->recommended])) / oc;
}

/*
 * With ranges: whether the recommendation could miss its deadline at the
 * slow end of its range (the assumptions' stated ranges, train_range.h,
 * or a calibration's measured ones).  With measured ranges (calibrate.h),
 * also whether the choice could change within them: another feasible
 * option whose cheap end is below the recommendation's dear end could be
 * the cheaper one.  The assumptions' ranges move every option the same
 * way, so they are not compared option against option.
 */
static void range_sentence(struct plan_result *r)
{
	const struct plan_option *rec = &r->v[r->recommended];
	if (!rec->has_range)
		return;
	const struct workload *w = r->w;
	char a[32], b[32];
	if (w->kind == WORKLOAD_TRAINING && w->train.deadline > 0 &&
	    rec->time_high_s > w->train.deadline)
		why_add(r, rec->range_measured
			? " Within the measured range it could miss the deadline: %s at the slow end."
			: " At the slow end of its range it could miss the deadline: %s.",
			units_format(UNIT_DURATION, rec->time_high_s, NULL, a, 32));
	if (!rec->range_measured)
		return;
	/* the p99 scaled as its batch time is (queueing not re-simulated) */
	if (w->kind == WORKLOAD_INFERENCE && w->infer.target[TARGET_P99] > 0 &&
	    rec->batch_latency_s > 0 &&
	    rec->p99_latency_s * rec->time_high_s / rec->batch_latency_s >
		    w->infer.target[TARGET_P99])
		why_add(r, " Within the measured range its p99 could pass the target: the batch takes up to %s.",
			units_format(UNIT_DURATION, rec->time_high_s, NULL, a, 32));
	long rival = -1;
	for (size_t i = 0; i < r->n; i++) {
		const struct plan_option *o = &r->v[i];
		/* only what could be recommended: never an owned machine, and
		 * an illustrative price only against another */
		if ((long)i == r->recommended || !o->feasible || !o->has_range ||
		    o->inst == rec->inst || o->cost_low >= rec->cost_high ||
		    o->inst->owned ||
		    (o->inst->illustrative && !rec->inst->illustrative))
			continue;
		if (rival < 0 || o->cost_low < r->v[rival].cost_low)
			rival = (long)i;
	}
	if (rival < 0) {
		why_add(r, " The choice holds across the measured range.");
		return;
	}
	const struct plan_option *o = &r->v[rival];
	snprintf(a, sizeof(a), "%.4g", o->cost_low);
	snprintf(b, sizeof(b), "%.4g", rec->cost_high);
	why_add(r, " Within the measured range the choice could change: %s could cost %s against this option's %s at its dear end.",
		o->inst->shown, a, b);
}

void plan_choose(struct plan_result *r, const struct plan_settings *s)
{
	struct ranked *v = xcalloc(r->n + 1, sizeof(*v));
	size_t n = sort_runnable(r, s, v);
	mark_pareto(r, v, n);
	mark_limits(r, v, n);
	recommend(r, v, n);
	obvious_alternative(r, s);
	free(v);
	free(r->why);	/* a result chosen again says it once */
	r->why = NULL;
	r->shortfall = (struct plan_shortfall){.closest = -1, .in_deadline = -1,
					       .target = -1};
	if (r->recommended < 0)
		nothing_sentence(r, s);
	else if (r->w->kind == WORKLOAD_TRAINING)
		training_sentence(r, s);
	else
		serving_sentence(r, s);
	if (r->recommended >= 0)
		range_sentence(r);
}

/* "tp 8 pp 4x5 mb 2" */
static void layout_text(const struct plan_layout *l, char *buf, size_t len)
{
	char v[32] = "";
	if (l->interleave > 1)
		snprintf(v, sizeof(v), "x%ld", l->interleave);
	char zero[16] = "";
	if (l->zero)
		snprintf(zero, sizeof(zero), " zero %d", l->zero);
	snprintf(buf, len, "tp %ld pp %ld%s mb %ld%s", l->tp, l->pp, v,
		 l->micro_batch, zero);
}

void plan_layout_sentence(struct plan_result *r)
{
	if (r->recommended < 0 || r->n_layouts < 2 || !r->layouts[0].fits ||
	    r->layouts[0].step_s <= 0)
		return;
	size_t fit = 0;
	for (size_t i = 0; i < r->n_layouts; i++)
		fit += r->layouts[i].fits;
	if (fit < 2)
		return;
	const struct plan_layout *best = &r->layouts[0];
	char name[128];
	layout_text(best, name, sizeof(name));
	why_add(r, " Its layout, %s, is the fastest of %zu splits that fit; next:",
		name, fit);
	size_t shown = 0;
	for (size_t i = 1; i < r->n_layouts && shown < 3; i++) {
		const struct plan_layout *l = &r->layouts[i];
		if (!l->fits)
			continue;
		layout_text(l, name, sizeof(name));
		why_add(r, "%s %s (+%.0f%%)", shown ? "," : "", name,
			100 * (l->step_s / best->step_s - 1));
		shown++;
	}
	why_add(r, ".");
}

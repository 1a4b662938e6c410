/*
 * Goodput (src/train/goodput.h): the wall clock of a training run from
 * its productive time, computed by hand at Llama 3's scale and at one
 * node's, the short run that writes no checkpoint, a fixed interval, the
 * cluster too large to make progress, the ranges, and the workload's own
 * inputs as the loader reads them.  Run from the source root (ctest does).
 */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "train/goodput.h"
#include "workload/workload_file.h"

#define DAY 86400.0
#define MONTH (30 * DAY)

/* The default failure rate: Llama 3's 419 unexpected interruptions in
 * 54 days on 16,384 GPUs (goodput.c), per GPU per s. */
static const double llama3_rate = 419 / (54 * DAY * 16384);

/*
 * 16,384 GPUs for a 30-day productive run at the defaults (148.8 s per
 * checkpoint, 600 s per restart):
 *   M     = 1 / (16384 x 5.4813e-9) = 54 d / 419     = 11,135.08 s (3.09 h)
 *   tau   = sqrt(2 x 148.8 x 11,135.08)              = 1,820.38 s
 *   waste = 148.8 / 1,820.38 + (910.19 + 600) / 11,135.08
 *         = 0.081741 + 0.135625                      = 0.217366
 *   goodput = 0.782634
 * With Llama 3's kind of checkpoint (asynchronous, 6.3 s): tau = 374.57 s,
 * waste = 0.016819 + 0.070703, goodput 0.912478 - the report's "higher
 * than 90%" comes out without being put in.
 */
static void llama3_scale(void)
{
	struct goodput_model m;
	goodput_defaults(&m);
	CHECK_NEAR(m.in[GOODPUT_FAILURE_RATE].value, llama3_rate, 1e-15);
	CHECK_NEAR(m.in[GOODPUT_FAILURE_RATE].value * 3600, 1.9733e-5, 1e-4);
	CHECK_NEAR(m.in[GOODPUT_CHECKPOINT_WRITE].value, 148.8, 0);
	CHECK_NEAR(m.in[GOODPUT_RESTART].value, 600, 0);
	struct goodput_point p = goodput_at(llama3_rate, 148.8, 600, 0, 16384, MONTH);
	CHECK(p.feasible);
	CHECK_NEAR(p.mtbf, 11135.08, 1e-6);
	CHECK_NEAR(p.interval, 1820.38, 1e-5);
	CHECK_NEAR(p.waste_checkpoints, 0.081741, 1e-4);
	CHECK_NEAR(p.waste_failures, 0.135625, 1e-4);
	CHECK_NEAR(p.fraction, 0.782634, 1e-5);
	struct goodput_point fast = goodput_at(llama3_rate, 6.3, 600, 0, 16384, MONTH);
	CHECK_NEAR(fast.interval, 374.57, 1e-5);
	CHECK_NEAR(fast.fraction, 0.912478, 1e-5);
}

/*
 * 8 GPUs (one node), the same defaults:
 *   M   = 11,135.08 x 16384 / 8 = 22,804,651 s (264 d)
 *   tau = sqrt(2 x 148.8 x 22,804,651) = 82,381.2 s (22.9 h)
 * a 30-day run:  waste = 148.8 / 82,381.2 + (41,190.6 + 600) / 22,804,651
 *                      = 0.0018062 + 0.0018325, goodput 0.9963612
 * a 45-min run (2,700 s, shorter than tau): no checkpoint on the way, a
 * failure loses half the run: waste = (1,350 + 600) / 22,804,651
 *                      = 8.5509e-5, goodput 0.99991449
 */
static void one_node(void)
{
	struct goodput_point p = goodput_at(llama3_rate, 148.8, 600, 0, 8, MONTH);
	CHECK_NEAR(p.mtbf, 22804651, 1e-6);
	CHECK_NEAR(p.interval, 82381.2, 1e-5);
	CHECK_NEAR(p.waste_checkpoints, 0.0018062, 1e-4);
	CHECK_NEAR(p.waste_failures, 0.0018325, 1e-4);
	CHECK_NEAR(p.fraction, 0.9963612, 1e-7);
	struct goodput_point s = goodput_at(llama3_rate, 148.8, 600, 0, 8, 2700);
	CHECK(s.feasible && s.waste_checkpoints == 0);
	CHECK_NEAR(s.interval, 2700, 0);
	CHECK_NEAR(s.fraction, 0.99991449, 1e-8);
}

/*
 * The workload's own interval: 1 h at 16,384 GPUs wastes
 * 148.8 / 3600 + (1800 + 600) / 11,135.08 = 0.041333 + 0.215535,
 * goodput 0.743132, below the optimum's 0.782634 (the optimum is one).
 */
static void fixed_interval(void)
{
	struct goodput_point p = goodput_at(llama3_rate, 148.8, 600, 3600, 16384, MONTH);
	CHECK_NEAR(p.interval, 3600, 0);
	CHECK_NEAR(p.fraction, 0.743132, 1e-5);
	struct goodput_point best = goodput_at(llama3_rate, 148.8, 600, 0, 16384, MONTH);
	CHECK(best.fraction > p.fraction);
	/* either side of the optimum wastes more */
	CHECK(goodput_at(llama3_rate, 148.8, 600, 0.8 * best.interval, 16384, MONTH).fraction <
	      best.fraction);
	CHECK(goodput_at(llama3_rate, 148.8, 600, 1.25 * best.interval, 16384, MONTH).fraction <
	      best.fraction);
}

/*
 * No progress: 1,000,000 GPUs at the defaults fail every
 * 11,135.08 x 16384 / 1e6 = 182.4 s; tau = 233.0 s; waste = 0.6386 +
 * (116.5 + 600) / 182.4 = 4.57 >= 1.  And at 16,384 GPUs the pessimistic
 * ends (OPT's 7.35e-5 per GPU-hour, 30 min per checkpoint, 1,647 s per
 * restart): M = 2,989.3 s, tau = 3,280.5 s, waste = 0.5487 + 1.0997.
 * The optimistic ends (half the rate, 6.3 s, 300 s): M = 22,270.2 s,
 * tau = 529.72 s, waste = 0.011893 + 0.025364, goodput 0.962743.
 */
static void no_progress(void)
{
	struct goodput_point p = goodput_at(llama3_rate, 148.8, 600, 0, 1000000, MONTH);
	CHECK(!p.feasible && p.fraction == 0);
	CHECK_NEAR(p.mtbf, 182.437, 1e-5);
	struct goodput_model m;
	goodput_defaults(&m);
	struct goodput g;
	goodput_of(&m, 16384, MONTH, &g);
	CHECK(g.mid.feasible);
	CHECK_NEAR(g.mid.fraction, 0.782634, 1e-5);
	CHECK(g.low == 0);
	CHECK_NEAR(g.high, 0.962743, 1e-5);
}

/* The range of a run on 8 GPUs: the pessimistic inputs' goodput below
 * the value's, the optimistic inputs' above it, all short of 1; the low
 * end is the fraction at every input's high (pessimistic) end. */
static void ranges(void)
{
	struct goodput_model m;
	goodput_defaults(&m);
	struct goodput g;
	goodput_of(&m, 8, MONTH, &g);
	CHECK(g.low < g.mid.fraction && g.mid.fraction < g.high && g.high < 1);
	CHECK_NEAR(g.low, goodput_at(m.in[0].high, m.in[1].high, m.in[2].high,
				     0, 8, MONTH).fraction, 1e-12);
}

/* What a workload writes: the rate per GPU-day in SI, its values standing
 * alone (no range), `none` turning it off, `optimal` the default. */
static void workload_inputs(void)
{
	struct workload_file wf;
	struct gp_errors errs;
	gp_errors_init(&errs);
	int rc = workload_file_load(&wf, "tests/unit/data/goodput/workloads.yaml", &errs);
	gp_errors_print(&errs, stderr);
	CHECK(rc == 0);
	if (rc == 0) {
		const struct goodput_inputs *own = &workload_find(&wf, "own-cluster")->train.goodput;
		CHECK_NEAR(own->failure_rate, 4.8e-4 / DAY, 1e-15);
		CHECK_NEAR(own->checkpoint_write, 30, 0);
		CHECK_NEAR(own->checkpoint_interval, 7200, 0);
		CHECK_NEAR(own->restart, 300, 0);
		CHECK(!own->off && own->at.line == 14);
		struct goodput_model m;
		goodput_model_for(own, &m);
		CHECK(m.in[GOODPUT_RESTART].given &&
		      m.in[GOODPUT_RESTART].low == 300 && m.in[GOODPUT_RESTART].high == 300);
		CHECK_NEAR(m.interval, 7200, 0);
		/* 4.8e-4 per GPU-day = 2e-5 per GPU-hour; on 64 GPUs
		 * M = 1 / (64 x 2e-5) h = 781.25 h = 2,812,500 s; the 2 h
		 * interval: waste = 30 / 7200 + (3600 + 300) / 2,812,500 =
		 * 0.0041667 + 0.0013867, goodput 0.9944467 */
		struct goodput g;
		goodput_of(&m, 64, MONTH, &g);
		CHECK_NEAR(g.mid.fraction, 0.9944467, 1e-7);
		CHECK(g.low == g.mid.fraction && g.high == g.mid.fraction);
		const struct goodput_inputs *off = &workload_find(&wf, "off")->train.goodput;
		CHECK(off->off);
		goodput_model_for(off, &m);
		goodput_of(&m, 16384, MONTH, &g);
		CHECK(g.mid.fraction == 1 && g.low == 1 && g.high == 1);
		CHECK(workload_find(&wf, "one")->train.goodput.off);	/* goodput: 1 */
		const struct goodput_inputs *opt = &workload_find(&wf, "optimal")->train.goodput;
		CHECK(opt->checkpoint_interval == 0);
		CHECK_NEAR(opt->failure_rate, 2e-5 / 3600, 1e-15);
		goodput_model_for(opt, &m);
		CHECK(m.interval == 0 && !m.in[GOODPUT_CHECKPOINT_WRITE].given);
	}
	workload_file_free(&wf);
	gp_errors_free(&errs);
}

int main(void)
{
	llama3_scale();
	one_node();
	fixed_interval();
	no_progress();
	ranges();
	workload_inputs();
	return check_summary("goodput");
}

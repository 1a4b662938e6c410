/*
 * The first page's plan-wide figures (report/first_page.h) on a plan
 * built by hand: totals and their ranges computed on paper.
 */
#include <string.h>

#include "check.h"
#include "report/first_page.h"

static struct r_option opt(const char *inst, const char *acc, long gpus,
			   double cost, bool illustrative)
{
	struct r_option o;
	memset(&o, 0, sizeof(o));
	o.instance = inst;
	o.accelerator = acc;
	o.gpus = gpus;
	o.cost = cost;
	o.illustrative = illustrative;
	return o;
}

int main(void)
{
	struct r_option train_a[] = { opt("a.small", "L4", 1, 100, true) };
	struct r_option train_b[] = {
		opt("b.big", "H100-SXM", 4096, 50, false),
		opt("b.small", "A100", 8, 80, false),
	};
	struct r_option serve[] = { opt("a.small", "L4", 1, 1000, true) };
	struct r_option none[] = { opt("c", "T4", 1, 7, false) };
	train_b[0].cost_range[0] = 40;	/* measured */
	train_b[0].cost_range[1] = 70;
	train_b[0].range_measured = true;
	struct r_workload w[4];
	memset(w, 0, sizeof(w));
	w[0] = (struct r_workload){ .name = "t1", .training = true, .v = train_a,
				    .n = 1, .recommended = 0, .obvious = -1 };
	w[1] = (struct r_workload){ .name = "t2", .training = true, .v = train_b,
				    .n = 2, .recommended = 0, .obvious = 1 };
	w[2] = (struct r_workload){ .name = "s", .training = false, .v = serve,
				    .n = 1, .recommended = 0, .obvious = 0,
				    .sample_device = "CPU (x86-64, 16 threads)" };
	w[3] = (struct r_workload){ .name = "x", .training = true, .v = none,
				    .n = 1, .recommended = -1, .obvious = -1 };
	struct r_assumption as[] = {
		{ "memory_efficiency", "assumption: 80% of datasheet bandwidth", 0.8, true },
		{ "kernel_gap_graph_s", "measured: NVIDIA (2019)", 5e-7, true },
		{ "spot_overhead", "Assumption: spot runs take 10% longer", 0.1, true },
	};
	struct r_plan p;
	memset(&p, 0, sizeof(p));
	p.currency = "USD";
	p.w = w;
	p.n = 4;
	p.assumptions = as;
	p.n_assumptions = 3;

	struct fp_totals t;
	fp_totals(&p, &t);
	/* training: 100 -/+ 25% = [75, 125]; 50 measured [40, 70] */
	CHECK(t.n_training == 2 && t.n_services == 1);
	CHECK_NEAR(t.one_off[0], 115, 1e-9);
	CHECK_NEAR(t.one_off[1], 150, 1e-9);
	CHECK_NEAR(t.one_off[2], 195, 1e-9);
	/* services: 1000 -/+ 30% */
	CHECK_NEAR(t.monthly[0], 700, 1e-9);
	CHECK_NEAR(t.monthly[1], 1000, 1e-9);
	CHECK_NEAR(t.monthly[2], 1300, 1e-9);
	CHECK(t.measured && t.assumed && !t.stated);
	/* the assumptions' stated range (train_range.h) counts apart */
	train_a[0].cost_range[0] = 90;
	train_a[0].cost_range[1] = 112;
	train_a[0].range_level = 0.8;
	fp_totals(&p, &t);
	CHECK_NEAR(t.one_off[0], 130, 1e-9);
	CHECK_NEAR(t.one_off[2], 182, 1e-9);
	CHECK(t.measured && t.stated && t.assumed);	/* the service's */
	CHECK_NEAR(t.stated_level, 0.8, 0);
	train_a[0].cost_range[0] = train_a[0].cost_range[1] = 0;

	/* GPU-hours of the recommended training runs only: t1's 10 (9 of
	 * compute) and t2's 100 (95); the service and x's unrecommended run
	 * add nothing */
	double wall, compute;
	CHECK(!fp_gpu_hours(&p, &wall, &compute));	/* none recorded yet */
	train_a[0].gpu_hours = 10;
	train_a[0].gpu_hours_compute = 9;
	train_b[0].gpu_hours = 100;
	train_b[0].gpu_hours_compute = 95;
	train_b[1].gpu_hours = train_b[1].gpu_hours_compute = 1000;
	serve[0].gpu_hours = serve[0].gpu_hours_compute = 500;
	none[0].gpu_hours = none[0].gpu_hours_compute = 7;
	CHECK(fp_gpu_hours(&p, &wall, &compute));
	CHECK_NEAR(wall, 110, 1e-12);
	CHECK_NEAR(compute, 104, 1e-12);
	char gh[600];
	CHECK(fp_gpu_hours_sentence(&p, LANG_EN, gh, sizeof(gh)));	/* 104 / 110 */
	CHECK_HAS(gh, "Training GPU-hours: 110 of wall clock (what is paid), 104 of them compute: 94.5% goodput");
	CHECK(fp_gpu_hours_sentence(&p, LANG_ZH, gh, sizeof(gh)));
	CHECK_HAS(gh, "挂钟时间 110");

	char buf[600];
	CHECK(fp_illustrative(&p, buf, sizeof(buf)) == 1);	/* once */
	CHECK_STR(buf, "a.small");
	CHECK(fp_assumed(&p, buf, sizeof(buf)) == 2);
	CHECK_STR(buf, "memory_efficiency 0.8, spot_overhead 0.1");
	CHECK(fp_limits(&p, LANG_EN, buf, sizeof(buf)) == 3);
	CHECK(strstr(buf, "4096 GPUs is beyond the largest run the backtest covers (2240 GPUs)") != NULL);
	CHECK(strstr(buf, "H100") != NULL && strstr(buf, "CPU") != NULL);
	CHECK(fp_limits(&p, LANG_ZH, buf, sizeof(buf)) == 3);
	CHECK(strstr(buf, "4096 个 GPU") != NULL);

	/* nothing beyond what the model was checked against: no line */
	train_b[0].gpus = 64;
	train_b[0].accelerator = "A100";
	w[2].sample_device = NULL;
	CHECK(fp_limits(&p, LANG_EN, buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "");
	return check_summary("first_page");
}

/*
 * bench_scatter - times gpuplan's time-against-cost chart of one plan
 * workload as a 1600 x 1000 PNG: the very code `gpuplan report --png`
 * runs (report_chart_file), from drawing to the file written, best of
 * three.  Loading the JSON is not timed (matplotlib's side does not time
 * it either).  Used by tests/perf/report-speed.sh; not a test.
 *
 *   bench_scatter PLAN.json OUT_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "report/plan_load.h"
#include "report/report.h"

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: bench_scatter PLAN.json OUT_DIR\n");
		return 2;
	}
	char why[600];
	struct r_plan p;
	struct report_font f;
	if (r_plan_load(&p, argv[1], why, sizeof(why)) < 0 ||
	    report_font_find(LANG_EN, &f, why, sizeof(why)) < 0) {
		fprintf(stderr, "bench_scatter: %s\n", why);
		return 1;
	}
	struct report_options o = {LANG_EN, NULL, NULL, argv[2], NULL, 40, NULL, NULL};
	const struct r_workload *w = &p.w[0];
	size_t *ranked = report_rank(w);
	double best = -1;
	int rc = 0;
	for (int k = 0; k < 3 && rc == 0; k++) {
		double t0 = now_ms();
		rc = report_chart_file(&p, w, ranked, RC_TIME_COST, &o, &f, false,
				       why, sizeof(why));
		double t = now_ms() - t0;
		if (best < 0 || t < best)
			best = t;
	}
	if (rc)
		fprintf(stderr, "bench_scatter: %s\n", why);
	else
		printf("%.0f\n", best);
	free(ranked);
	report_font_free(&f);
	r_plan_free(&p);
	report_fonts_shutdown();
	return rc ? 1 : 0;
}

/*
 * plan_curves.c - a service option's load curve; see plan_curves.h.
 */
#include "plan_curves.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/xalloc.h"

/*
 * A latency of the point in rd->leaf, s: a number from 0 where the point
 * is not saturated (null allowed when nullable: TTFT and TPOT of a service
 * that makes no tokens), none where it is (the queue grows without bound:
 * no latency holds).  NAN for none.
 */
static double point_latency(struct reader *rd, const char *key,
			    const char *path, bool saturated, bool nullable)
{
	size_t at;
	bool given = rd_value_of(rd, &rd->leaf, key, path, true, "a number", &at);
	if (saturated) {
		if (given)
			rd_fail_at(rd, at, "%s.%s: expected null at a saturated point, found %s",
				   path, key, jtype_name(jtype_at(&rd->d, at)));
		return NAN;
	}
	if (!given && nullable)
		return NAN;
	return rd_number(rd, &rd->leaf, key, path, false, 0);
}

/* One point of a curve, above the previous one's rate (prev NULL: the
 * first point). */
static void read_point(struct reader *rd, size_t at, const char *path,
		       const struct r_load_point *prev, struct r_load_point *pt)
{
	if (!rd_record_read(rd, &rd->leaf, at, path))
		return;
	pt->rate = rd_number(rd, &rd->leaf, "request_rate_per_s", path, false, 0);
	if (!rd->failed && prev && !(pt->rate > prev->rate))
		rd_fail_at(rd, rd_field(&rd->leaf, "request_rate_per_s")->at,
			   "%s.request_rate_per_s: expected a rate above the previous point's %g (rates increase along a curve), found %g",
			   path, prev->rate, pt->rate);
	pt->saturated = rd_flag(rd, &rd->leaf, "saturated", path);
	pt->e2e_p50 = point_latency(rd, "e2e_p50_s", path, pt->saturated, false);
	pt->e2e_p99 = point_latency(rd, "e2e_p99_s", path, pt->saturated, false);
	pt->ttft_p99 = point_latency(rd, "ttft_p99_s", path, pt->saturated, true);
	pt->tpot_p99 = point_latency(rd, "tpot_p99_s", path, pt->saturated, true);
}

/* How many elements the list at `at` holds, counting no further than
 * max + 1; *extra is where the (max + 1)-th starts. */
static size_t list_count(struct reader *rd, size_t at, size_t max,
			 size_t *extra)
{
	struct jiter it;
	size_t n = 0, el;
	jiter_begin(&rd->d, at, &it);
	while (n <= max && jiter_next(&rd->d, &it, NULL, &el))
		if (n++ == max)
			*extra = el;
	return n;
}

/*
 * The "load_curve" of option `index` when it has one (rd->option holds
 * the option, just read), appended to rw's curves once every point is
 * read; cap is the curves' allocation.
 */
void r_read_load_curve(struct reader *rd, const char *path,
		       struct r_workload *rw, size_t index, size_t *cap)
{
	size_t at, list, el, extra = 0;
	struct jiter it;
	char p[192], pp[256];
	if (!rd_container(rd, &rd->option, "load_curve", path, J_OBJECT, true, &at))
		return;
	snprintf(p, sizeof(p), "%s.load_curve", path);
	if (!rd_record_read(rd, &rd->sub, at, p))
		return;
	struct r_load_curve c = {(long)index, 0, NULL, 0};
	c.replicas = rd_count(rd, &rd->sub, "replicas", p, false, 1);
	if (!rd_container(rd, &rd->sub, "points", p, J_ARRAY, false, &list))
		return;
	size_t n = list_count(rd, list, R_CURVE_MAX_POINTS, &extra);
	if (n == 0 || n > R_CURVE_MAX_POINTS) {
		rd_fail_at(rd, n ? extra : list, "%s.points: expected a list of 1 to %d points, found %s",
			   p, R_CURVE_MAX_POINTS, n ? "more" : "an empty list");
		return;
	}
	c.pt = xcalloc(n, sizeof(*c.pt));
	jiter_begin(&rd->d, list, &it);
	while (!rd->failed && jiter_next(&rd->d, &it, NULL, &el)) {
		snprintf(pp, sizeof(pp), "%s.points[%zu]", p, c.n);
		read_point(rd, el, pp, c.n ? &c.pt[c.n - 1] : NULL, &c.pt[c.n]);
		c.n++;
	}
	if (rd->failed) {
		free(c.pt);
		return;
	}
	xgrow((void **)&rw->curves, cap, rw->n_curves + 1, sizeof(*rw->curves));
	rw->curves[rw->n_curves++] = c;
}

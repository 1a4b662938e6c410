/*
 * item.c - one workload: its keys, name and kind, then its efficiency
 * overrides, model, precision and the fields and checks of its kind.
 */
#include "item.h"

#include <stdio.h>

#include "inference.h"
#include "keys.h"
#include "layout.h"
#include "read_common.h"
#include "training.h"

/* ---- efficiency overrides ---- */

static const struct yfield efficiency_fields[] = {
	{"compute", false}, {"memory", false}, {NULL, false},
};

/* Fractions of the datasheet peak (compute) and bandwidth (memory) this
 * workload's kernels reach, replacing the planner's defaults. */
static int read_efficiency(struct yread *r, const struct ynode *map,
			   const char *what, struct workload *w)
{
	const struct ynode *n = ymap_get(map, "efficiency");
	if (!n)
		return 0;
	char ctx[160];
	snprintf(ctx, sizeof(ctx), "'efficiency' of %s", what);
	if (!yr_expect_map(r, n, ctx))
		return -1;
	int bad = yr_check_keys(r, n, ctx, efficiency_fields) > 0;
	const char *keys[] = {"compute", "memory"};
	double *out[] = {&w->efficiency_compute, &w->efficiency_memory};
	for (int i = 0; i < 2; i++) {
		double v;
		int rc = yr_positive(r, n, keys[i], &v);
		bad |= rc < 0;
		if (rc == 1 && v > 1) {
			yr_error(r, ymap_get(n, keys[i]), NULL,
				 "'%s' is a fraction of the datasheet figure: at most 1, found %g",
				 keys[i], v);
			bad = 1;
		} else if (rc == 1)	/* and not so small it means nothing */
			bad |= yr_number_in(r, n, keys[i], Q_EFFICIENCY,
					    out[i]) < 0;
	}
	return bad ? -1 : 0;
}

/* ---- one workload ---- */

/*
 * What a workload holds besides its name and kind: efficiency, model,
 * precision and the fields of its kind, with the checks that need the
 * model and, for training, the layout's checks.
 */
int wl_read_body(struct wl_ctx *cx, const struct ynode *n,
		 const char *what, struct workload *w)
{
	struct yread *r = &cx->r;
	int bad = read_efficiency(r, n, what, w) < 0;
	bad |= wl_read_model(cx, n, w) < 0;
	bool infer = w->kind == WORKLOAD_INFERENCE;
	bad |= wl_read_precision(r, n, "precision", infer, true,
				 &w->precision) < 0;
	int fields = infer ? wl_read_inference(r, n, &w->infer)
			   : wl_read_training(r, n, what, cx->embedded, &w->train);
	/* a trace that did not load says nothing of what it lacks */
	bool trace_bad = infer && wl_read_trace(cx, n, w) < 0;
	bad |= trace_bad;
	if (infer && !trace_bad)
		bad |= wl_check_rate(r, n, what, !cx->embedded, &w->infer) < 0;
	if (!w->model)
		return -1;
	/* The model's checks run even after other problems, so a file is
	 * reported whole; they use only fields that were read. */
	if (infer)
		bad |= wl_check_inference(r, n, what, w->model, w->precision,
					  trace_bad, &w->infer) < 0 ||
		       (!cx->embedded && !trace_bad &&
			wl_check_targets(r, n, what, w->model, &w->infer) < 0);
	else
		bad |= wl_check_training(r, n, what, w->model, fields == 0,
					 &w->train) < 0;
	if (!infer && !bad && fields == 0 && !cx->embedded)
		bad |= workload_check_layout(r, ymap_get(n, "layout"), w,
					     w->train.fixed_gpus, "'gpus'") < 0;
	return bad || fields < 0 ? -1 : 0;
}

int wl_read_workload(struct wl_ctx *cx, const struct ynode *n,
		     size_t index, struct workload *w)
{
	struct yread *r = &cx->r;
	w->at = (struct origin){cx->wf->file, n->line, n->col};
	if (!yr_expect_map(r, n, "a workload"))
		return -1;
	char what[128];
	yr_entry_label(n, "workload", index, what, sizeof(what));
	const char *kind_names[] = {workload_kind_name(WORKLOAD_TRAINING),
				    workload_kind_name(WORKLOAD_INFERENCE)};
	int kind = -1;
	int bad = wl_read_choice(r, n, "kind", kind_names, 2,
				 "training or inference", &kind) < 0;
	bad |= wl_check_keys(r, n, what, kind);
	bad |= yr_name(r, n, "name", &w->name) < 0;
	if (kind < 0) {
		/* the rest is still read, so its problems are reported */
		read_efficiency(r, n, what, w);
		wl_read_model(cx, n, w);
		return -1;
	}
	w->kind = (enum workload_kind)kind;
	return wl_read_body(cx, n, what, w) < 0 || bad ? -1 : 0;
}

/*
 * layout.c - a training `layout:` read, then checked against the batch,
 * the `parallelism:` limits, the cluster's GPUs and the model's shape.
 */
#include "layout.h"

#include <string.h>

#include "read_common.h"

/* ---- layout ---- */

static const struct yfield layout_fields[] = {
	{"tp", false}, {"pp", false}, {"dp", false}, {"micro_batch", false},
	{"interleave", false}, {"sequence_parallel", false},
	{"overlap_grad_reduce", false}, {NULL, false},
};

static int read_flag(struct yread *r, const struct ynode *map,
		     const char *key, enum layout_flag *out)
{
	bool v = false;
	int rc = yr_bool(r, map, key, &v);
	if (rc == 1)
		*out = v ? LAYOUT_ON : LAYOUT_OFF;
	return rc;
}

int workload_read_layout(struct yread *r, const struct ynode *n,
			 const char *owner, struct train_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->at = (struct origin){r->file, n->line, n->col};
	if (!yr_expect_map(r, n, owner))
		return -1;
	int bad = yr_check_keys(r, n, owner, layout_fields) > 0;
	bad |= yr_int(r, n, "tp", 1, 1024, &l->tp) < 0;
	bad |= yr_int(r, n, "pp", 1, 1024, &l->pp) < 0;
	bad |= yr_int(r, n, "dp", 1, 1000000, &l->dp) < 0;
	bad |= yr_int(r, n, "micro_batch", 1, 1000000000, &l->micro_batch) < 0;
	bad |= yr_int(r, n, "interleave", 1, 1024, &l->interleave) < 0;
	bad |= read_flag(r, n, "sequence_parallel", &l->sequence_parallel) < 0;
	bad |= read_flag(r, n, "overlap_grad_reduce",
			 &l->overlap_grad_reduce) < 0;
	if (!bad && l->interleave > 1 && l->pp == 1) {
		yr_error(r, ymap_get(n, "interleave"), NULL,
			 "'interleave' of %ld virtual stages per GPU needs a pipeline, but 'pp' is 1",
			 l->interleave);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* The global batch split evenly: micro_batch and dp within it, and
 * dp x micro_batch (or dp alone) dividing it. */
static int check_layout_batch(struct yread *r, const struct ynode *n,
			      const struct train_layout *l, long batch)
{
	if (l->micro_batch > batch) {
		yr_error(r, ymap_get(n, "micro_batch"), NULL,
			 "'micro_batch' of %ld samples is more than 'global_batch' (%ld)",
			 l->micro_batch, batch);
		return -1;
	}
	if (l->dp > batch) {
		yr_error(r, ymap_get(n, "dp"), NULL,
			 "'dp' of %ld ranks is more than 'global_batch' (%ld samples): a rank would have none",
			 l->dp, batch);
		return -1;
	}
	if (l->dp && l->micro_batch && batch % (l->dp * l->micro_batch)) {
		yr_error(r, ymap_get(n, "micro_batch"), NULL,
			 "'global_batch' of %ld samples is not a whole number of dp x micro_batch = %ld x %ld",
			 batch, l->dp, l->micro_batch);
		return -1;
	}
	if (l->dp && batch % l->dp) {
		yr_error(r, ymap_get(n, "dp"), NULL,
			 "'global_batch' of %ld samples does not divide evenly among %ld data-parallel ranks",
			 batch, l->dp);
		return -1;
	}
	return 0;
}

/* The degrees within the workload's `parallelism:` limits. */
static int check_layout_limits(struct yread *r, const struct ynode *n,
			       const struct train_layout *l,
			       const struct training *t)
{
	int bad = 0;
	if (t->max_tp && l->tp > t->max_tp) {
		yr_error(r, ymap_get(n, "tp"), NULL,
			 "'tp' is %ld but 'parallelism' allows at most %ld (max_tp)",
			 l->tp, t->max_tp);
		bad = 1;
	}
	if (t->max_pp && l->pp > t->max_pp) {
		yr_error(r, ymap_get(n, "pp"), NULL,
			 "'pp' is %ld but 'parallelism' allows at most %ld (max_pp)",
			 l->pp, t->max_pp);
		bad = 1;
	}
	long all = l->tp * l->pp * l->dp;
	if (t->max_gpus && all > t->max_gpus) {
		yr_error(r, n, NULL,
			 "the layout's tp x pp x dp is %ld GPUs but 'parallelism' allows at most %ld (max_gpus)",
			 all, t->max_gpus);
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* The degrees against the cluster: all three make exactly its GPUs; any
 * of them divides its GPUs. */
static int check_layout_gpus(struct yread *r, const struct ynode *n,
			     const struct train_layout *l, long gpus,
			     const char *gpus_what)
{
	if (gpus <= 0)
		return 0;
	long tp = l->tp ? l->tp : 1, pp = l->pp ? l->pp : 1;
	long dp = l->dp ? l->dp : 1;
	if (l->tp && l->pp && l->dp && tp * pp * dp != gpus) {
		yr_error(r, n, NULL,
			 "the layout's tp x pp x dp is %ld x %ld x %ld = %ld GPUs, but %s is %ld",
			 tp, pp, dp, tp * pp * dp, gpus_what, gpus);
		return -1;
	}
	if (gpus % (tp * pp * dp)) {
		yr_error(r, n, NULL,
			 "%s (%ld) is not a multiple of the layout's tp x pp x dp = %ld (the degrees given)",
			 gpus_what, gpus, tp * pp * dp);
		return -1;
	}
	return 0;
}

/* A transformer's shape bounds the split: tensor parallelism divides
 * heads, and each (virtual) pipeline stage holds at least one layer. */
static int check_layout_model(struct yread *r, const struct ynode *n,
			      const struct train_layout *l,
			      const struct model *m)
{
	if (m->kind != MODEL_TRANSFORMER)
		return 0;
	if (l->tp > m->tf.heads) {
		yr_error(r, ymap_get(n, "tp"), NULL,
			 "'tp' of %ld is more than the %ld attention heads of model '%s'",
			 l->tp, m->tf.heads, wl_model_label(m));
		return -1;
	}
	long stages = (l->pp ? l->pp : 1) * (l->interleave ? l->interleave : 1);
	if (stages > m->tf.layers) {
		yr_error(r, ymap_get(n, l->interleave > 1 ? "interleave" : "pp"),
			 NULL,
			 "the layout's pp x interleave is %ld pipeline stages but model '%s' has %ld layers",
			 stages, wl_model_label(m), m->tf.layers);
		return -1;
	}
	return 0;
}

int workload_check_layout(struct yread *r, const struct ynode *n,
			  const struct workload *w, long gpus,
			  const char *gpus_what)
{
	const struct train_layout *l = &w->train.layout;
	if (!n || n->kind != YNODE_MAP)
		return 0;
	if (check_layout_batch(r, n, l, w->train.global_batch) < 0 ||
	    check_layout_limits(r, n, l, &w->train) < 0 ||
	    check_layout_gpus(r, n, l, gpus, gpus_what) < 0 ||
	    (w->model && check_layout_model(r, n, l, w->model) < 0))
		return -1;
	return 0;
}

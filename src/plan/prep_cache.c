#include "plan/prep_cache.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "train/train.h"

#define KEPT 8		/* preparations of each kind kept */

struct kept {
	const struct workload *w;	/* the workload it was made for */
	void *prep;
};

struct prep_cache {
	struct kept train[KEPT], serve[KEPT];
	size_t n_train, n_serve;	/* slots used; the next goes at n % KEPT */
};

struct prep_cache *prep_cache_new(void)
{
	return xcalloc(1, sizeof(struct prep_cache));
}

void prep_cache_free(struct prep_cache *pc)
{
	if (!pc)
		return;
	for (size_t i = 0; i < KEPT; i++) {
		train_prep_free(pc->train[i].prep);
		serve_prep_free(pc->serve[i].prep);
	}
	free(pc);
}

static bool same_layout(const struct train_layout *a, const struct train_layout *b)
{
	return a->tp == b->tp && a->pp == b->pp && a->dp == b->dp &&
	       a->micro_batch == b->micro_batch && a->interleave == b->interleave &&
	       a->sequence_parallel == b->sequence_parallel &&
	       a->overlap_grad_reduce == b->overlap_grad_reduce;
}

/* Everything the layout search and the step model read of a training
 * workload (train.c, train_layout.c, train_step.c) and the efficiencies it
 * brings to the settings (plan_settings_for()). */
static bool same_step(const struct workload *a, const struct workload *b)
{
	const struct training *x = &a->train, *y = &b->train;
	return a->model == b->model && a->precision == b->precision &&
	       a->efficiency_compute == b->efficiency_compute &&
	       a->efficiency_memory == b->efficiency_memory &&
	       x->seq == y->seq && x->global_batch == y->global_batch &&
	       x->optimizer == y->optimizer && x->zero == y->zero &&
	       x->zero_auto == y->zero_auto && x->recompute == y->recompute &&
	       x->recompute_auto == y->recompute_auto &&
	       x->max_tp == y->max_tp && x->max_pp == y->max_pp &&
	       same_layout(&x->layout, &y->layout) &&
	       x->fused_attention == y->fused_attention &&
	       x->has_input == y->has_input &&
	       x->decode_time_per_sample == y->decode_time_per_sample &&
	       x->bytes_per_sample == y->bytes_per_sample;
}

/* What serve_prepare() reads of a serving workload. */
static bool same_service(const struct workload *a, const struct workload *b)
{
	const struct inference *x = &a->infer, *y = &b->infer;
	return a->model == b->model && a->precision == b->precision &&
	       a->efficiency_compute == b->efficiency_compute &&
	       a->efficiency_memory == b->efficiency_memory &&
	       !memcmp(x->prompt_range, y->prompt_range, sizeof(x->prompt_range)) &&
	       !memcmp(x->output_range, y->output_range, sizeof(x->output_range)) &&
	       x->prompt_tokens == y->prompt_tokens &&
	       x->output_tokens == y->output_tokens &&
	       x->longest == y->longest && x->trace == y->trace &&
	       x->has_kv == y->has_kv &&
	       (!x->has_kv || x->kv_precision == y->kv_precision);
}

static struct kept *find(struct kept *v, const struct workload *w,
			 bool (*same)(const struct workload *, const struct workload *))
{
	for (size_t i = 0; i < KEPT; i++)
		if (v[i].prep && same(v[i].w, w))
			return &v[i];
	return NULL;
}

struct train_prep *prep_cache_training(struct prep_cache *pc,
				       const struct catalog *c,
				       const struct workload *w,
				       struct gp_errors *errs)
{
	struct kept *k = find(pc->train, w, same_step);
	if (k) {
		k->w = w;
		train_prep_rebind(k->prep, w);
		return k->prep;
	}
	struct train_prep *tp = train_prepare(c, w, errs);
	if (!tp)
		return NULL;
	k = &pc->train[pc->n_train++ % KEPT];
	train_prep_free(k->prep);
	*k = (struct kept){w, tp};
	return tp;
}

struct serve_prep *prep_cache_serving(struct prep_cache *pc,
				      const struct workload *w, char *why,
				      size_t whylen)
{
	struct kept *k = find(pc->serve, w, same_service);
	if (k) {
		k->w = w;
		serve_prep_rebind(k->prep, w);
		return k->prep;
	}
	struct serve_prep *sp = serve_prepare(w, why, whylen);
	if (!sp)
		return NULL;
	k = &pc->serve[pc->n_serve++ % KEPT];
	serve_prep_free(k->prep);
	*k = (struct kept){w, sp};
	return sp;
}

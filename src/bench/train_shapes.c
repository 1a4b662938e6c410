/*
 * train_shapes.c - a model's matrix products as a training step runs them;
 * see train_shapes.h.
 */
#include "bench/train_shapes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

const char *train_role_name(enum train_role r)
{
	static const char *const names[TRAIN_ROLES] = {"forward", "dgrad", "wgrad"};
	return r < TRAIN_ROLES ? names[r] : "?";
}

void train_gemm_of(const struct train_product *p, enum train_role r,
		   bool fp8, struct train_gemm *out)
{
	switch (r) {
	case TRAIN_FORWARD:
		*out = (struct train_gemm){p->out, p->tokens, p->in, true, false};
		break;
	case TRAIN_DGRAD:
		*out = (struct train_gemm){p->in, p->tokens, p->out, false, false};
		break;
	default:
		*out = (struct train_gemm){p->in, p->out, p->tokens, false, true};
		break;
	}
	if (fp8) {
		out->trans_a = true;
		out->trans_b = false;
	}
}

/* Every distinct product, in the order first met. */
struct product_list {
	struct train_product *v;
	size_t n, cap;
	size_t grouped;		/* products of several GEMMs, left out */
	double grouped_flops;
};

static void add_product(struct product_list *l, const struct op *o,
			long tokens, long in, long out)
{
	double flops = 2.0 * (double)tokens * (double)in * (double)out;
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].tokens == tokens && l->v[i].in == in &&
		    l->v[i].out == out) {
			l->v[i].occurrences++;
			l->v[i].flops += flops;
			return;
		}
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v));
	struct train_product *p = &l->v[l->n++];
	*p = (struct train_product){tokens, in, out, 1, flops, ""};
	snprintf(p->label, sizeof(p->label), "%.63s", o->label);
}

/* One GEMM of op o at the micro-batch, its split side divided by tp.
 * -1 with why when tp leaves a fraction of a feature. */
static int add_gemm(struct product_list *l, const struct op *o,
		    const struct gemm_dims *d, long micro_batch, long tp,
		    char *why, size_t len)
{
	double count = d->batch_in_count ? d->count * micro_batch : d->count;
	double rows = d->batch_in_count ? d->m : d->m * micro_batch;
	double n = d->n, k = d->k;
	double *split = d->split == GEMM_SPLIT_N ? &n : d->split == GEMM_SPLIT_K ? &k : &count;
	if (fmod(*split, (double)tp) != 0) {
		snprintf(why, len, "tp %ld does not divide %s's %.0f %s into whole parts",
			 tp, o->label, *split,
			 split == &count ? "products" : "features");
		return -1;
	}
	*split /= (double)tp;
	if (count != 1) {
		l->grouped++;
		l->grouped_flops += 2.0 * rows * n * k * count;
		return 0;
	}
	add_product(l, o, (long)rows, (long)k, (long)n);
	return 0;
}

static int by_flops(const void *a, const void *b)
{
	const struct train_product *x = a, *y = b;
	return (x->flops < y->flops) - (x->flops > y->flops);
}

int train_shapes_of(const struct model_graph *g, long micro_batch, long tp,
		    struct train_shapes *out, char *why, size_t len)
{
	memset(out, 0, sizeof(*out));
	struct product_list l = {0};
	int rc = 0;
	for (size_t i = 0; i < g->n && rc == 0; i++) {
		const struct op *o = &g->ops[i];
		if (op_kind_class(o->kind) != OPC_GEMM)
			continue;
		for (int j = 0; j < o->n_gemm && rc == 0; j++)
			rc = add_gemm(&l, o, &o->gemm[j], micro_batch, tp, why, len);
	}
	if (rc == 0 && l.n == 0) {
		snprintf(why, len, "the model has no linear layer or convolution to time");
		rc = -1;
	}
	if (rc < 0) {
		free(l.v);
		return -1;
	}
	/* stable: equal FLOPs keep the order the model runs them in */
	for (size_t i = 1; i < l.n; i++)
		for (size_t j = i; j > 0 && by_flops(&l.v[j - 1], &l.v[j]) > 0; j--) {
			struct train_product t = l.v[j];
			l.v[j] = l.v[j - 1];
			l.v[j - 1] = t;
		}
	out->total = l.grouped_flops;
	for (size_t i = 0; i < l.n; i++)
		out->total += l.v[i].flops;
	for (size_t i = 0; i < l.n; i++) {
		if (out->n == TRAIN_SHAPES_MAX ||
		    out->covered >= TRAIN_SHAPES_COVER * out->total) {
			out->left++;
			continue;
		}
		out->v[out->n++] = l.v[i];
		out->covered += l.v[i].flops;
	}
	out->left += l.grouped;
	free(l.v);
	return 0;
}

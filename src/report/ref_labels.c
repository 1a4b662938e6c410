/*
 * ref_labels.c - see ref_labels.h.
 */
#include "ref_labels.h"

bool rect_overlap(const struct rect *a, const struct rect *b)
{
	return a->x < b->x + b->w && b->x < a->x + a->w &&
	       a->y < b->y + b->h && b->y < a->y + a->h;
}

static bool inside(const struct rect *plot, const struct rect *r)
{
	return r->x >= plot->x && r->y >= plot->y &&
	       r->x + r->w <= plot->x + plot->w && r->y + r->h <= plot->y + plot->h;
}

/* Does line j (other than the label's own) run through r? */
static bool crosses(const struct ref_label *l, const struct rect *r)
{
	if (l->vertical)
		return l->at >= r->x && l->at <= r->x + r->w;
	return l->at >= r->y && l->at <= r->y + r->h;
}

/* The four places tried for label l, in order of preference. */
static void candidates(const struct rect *p, const struct ref_label *l,
		       double pad, struct rect c[4])
{
	double w = l->w, h = l->h;
	if (l->vertical) {
		double top = p->y + pad, bottom = p->y + p->h - pad - h;
		c[0] = (struct rect){l->at + pad, top, w, h};
		c[1] = (struct rect){l->at - pad - w, top, w, h};
		c[2] = (struct rect){l->at + pad, bottom, w, h};
		c[3] = (struct rect){l->at - pad - w, bottom, w, h};
	} else {
		double left = p->x + pad, right = p->x + p->w - pad - w;
		double above = l->at - pad / 2 - h, below = l->at + pad / 2;
		c[0] = (struct rect){left, above, w, h};
		c[1] = (struct rect){left, below, w, h};
		c[2] = (struct rect){right, above, w, h};
		c[3] = (struct rect){right, below, w, h};
	}
}

static bool clear(const struct ref_label *in, size_t n, size_t i,
		  const struct rect *out, const struct rect *r)
{
	for (size_t j = 0; j < n; j++)
		if (j != i && crosses(&in[j], r))
			return false;
	for (size_t j = 0; j < i; j++)
		if (rect_overlap(&out[j], r))
			return false;
	return true;
}

void ref_labels_place(const struct rect *plot, const struct ref_label *in,
		      size_t n, double pad, struct rect *out)
{
	for (size_t i = 0; i < n; i++) {
		struct rect c[4];
		candidates(plot, &in[i], pad, c);
		int pick = -1;
		for (int k = 0; k < 4 && pick < 0; k++)
			if (inside(plot, &c[k]) && clear(in, n, i, out, &c[k]))
				pick = k;
		for (int k = 0; k < 4 && pick < 0; k++)
			if (inside(plot, &c[k]))
				pick = k;
		out[i] = c[pick < 0 ? 0 : pick];
	}
}

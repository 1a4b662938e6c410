/*
 * model_graph.c - the built graph's op list: appending and freeing; see
 * model_graph.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "model_graph.h"

struct op *model_graph_append(struct model_graph *g, enum op_kind kind,
			      const struct shape *in, const struct shape *out,
			      const struct op_params *p, double extra_elems,
			      const struct origin *at, const char *label)
{
	xgrow((void **)&g->ops, &g->cap, g->n + 1, sizeof(*g->ops));
	struct op *o = &g->ops[g->n++];
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->in = *in;
	o->out = *out;
	if (p)
		o->p = *p;
	if (at)
		o->at = *at;
	o->block = g->blocks;
	snprintf(o->label, sizeof(o->label), "%s", label);
	op_cost(o, extra_elems);
	return o;
}

void model_graph_free(struct model_graph *g)
{
	free(g->ops);
	memset(g, 0, sizeof(*g));
}

/*
 * model_fixture.h - a shipped model loaded and built for a unit test
 * (profiles/models/FILE), with every load problem printed.
 */
#ifndef GPUPLAN_TEST_MODEL_FIXTURE_H
#define GPUPLAN_TEST_MODEL_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>

#include "check.h"
#include "model/graph.h"

struct built {
	struct model m;
	struct model_graph g;
	struct model_cost c;	/* batch 1 at 2-byte elements, when ok */
	bool ok;
};

static inline void build(struct built *b, const char *file, long seq)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/profiles/models/%s", GPUPLAN_SOURCE_DIR,
		 file);
	struct gp_errors e;
	gp_errors_init(&e);
	b->ok = model_load(&b->m, path, &e) == 0 &&
		model_build(&b->m, seq, &b->g, &e) == 0;
	gp_errors_print(&e, stderr);
	gp_errors_free(&e);
	CHECK(b->ok);
	if (b->ok)
		model_cost(&b->g, 1, 2, &b->c);
}

static inline void done(struct built *b)
{
	model_graph_free(&b->g);
	model_free(&b->m);
}

#endif

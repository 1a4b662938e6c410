/*
 * fuzz_model.c - a model description and the files it includes, loaded
 * and built as `model show` does: loading reads the files, building
 * expands repeats and includes and checks every shape; then the costs and
 * the memory of one training and one serving setup, whose figures must
 * all be finite for a model that built, and whose formulas (`how`) print
 * as plain text.
 */
#include <math.h>

#include "core/term_safe.h"
#include "fuzz.h"
#include "model/graph.h"
#include "model/memory.h"
#include "model/model.h"

static void check_finite(const char *what, double v)
{
	if (!isfinite(v))
		fuzz_fail("model_cost/memory", "%s is %g for a model that built",
			  what, v);
}

static void check_memory(const struct memory_breakdown *b)
{
	check_finite("the memory total", b->total);
	for (int i = 0; i < MEM_PARTS; i++) {
		check_finite(memory_part_name(i), b->bytes[i]);
		const char *kind;
		long at = text_control_char(b->how[i], 0, &kind);
		if (at >= 0)
			fuzz_fail("memory", "the formula of %s holds %s at byte %ld",
				  memory_part_name(i), kind, at);
	}
}

/* What `model show` prints besides the graph, at batch 1 in bf16. */
static void figures(const struct model *m, const struct model_graph *g)
{
	struct model_cost c;
	model_cost(g, 1, 2, &c);
	check_finite("params", c.params);
	check_finite("flops_per_sample", c.flops_per_sample);
	check_finite("bytes_per_step", c.bytes_per_step);
	const struct train_setup t = {PREC_BF16, OPTIMIZER_ADAMW, 1, 1, 1, 1, 1,
				      RECOMPUTE_SELECTIVE, 1, true, false, {4, 0, false}};
	const struct serve_setup s = {PREC_BF16, PREC_BF16, 1,
				      g->seq > 0 ? g->seq : 1, 1};
	struct memory_breakdown b;
	memory_training(m, g, &t, &b);
	check_memory(&b);
	memory_serving(m, g, &s, &b);
	check_memory(&b);
}

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	struct model m;
	int rc = model_load(&m, f->path[0], errs);
	if (rc == 0) {
		struct model_graph g = {0};
		rc = model_build(&m, 0, &g, errs);
		if (rc == 0)
			figures(&m, &g);
		model_graph_free(&g);
	}
	model_free(&m);
	return rc;
}

FUZZ_LOADER_HARNESS("model_load+model_build", "model.yaml", load)

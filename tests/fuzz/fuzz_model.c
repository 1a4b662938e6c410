/*
 * fuzz_model.c - a model description and the files it includes, loaded
 * and built as `model show` does: loading reads the files, building
 * expands repeats and includes and checks every shape.
 */
#include "fuzz.h"
#include "model/graph.h"
#include "model/model.h"

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	struct model m;
	int rc = model_load(&m, f->path[0], errs);
	if (rc == 0) {
		struct model_graph g = {0};
		rc = model_build(&m, 0, &g, errs);
		model_graph_free(&g);
	}
	model_free(&m);
	return rc;
}

FUZZ_LOADER_HARNESS("model_load+model_build", "model.yaml", load)

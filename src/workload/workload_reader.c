/*
 * workload_reader.c - workload items inside another kind of file (an
 * outcome record's `training:` and `serving:`), read as a workload file's
 * items are.
 */
#include "workload_reader.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_read.h"
#include "core/paths.h"
#include "core/strmap.h"
#include "core/term_safe.h"
#include "core/xalloc.h"
#include "item.h"
#include "keys.h"
#include "named_files.h"

struct workload_reader {
	struct wl_ctx cx;
	size_t most;
};

struct workload_reader *workload_reader_open(struct workload_file *wf,
					     const char *path,
					     const char *shown, size_t most,
					     struct gp_errors *errs)
{
	memset(wf, 0, sizeof(*wf));
	wf->file = term_escape_dup(file_shown(shown), 0);	/* printed: see term_safe.h */
	wf->v = xcalloc(most + 1, sizeof(*wf->v));
	struct workload_reader *wr = xcalloc(1, sizeof(*wr));
	wr->cx = (struct wl_ctx){
		.r = {.file = wf->file, .errs = errs},
		.wf = wf,
		.dir = path_dir(path),
		.shown_dir = path_dir(shown),
		.embedded = true,
		.noun = "outcome",
	};
	strmap_init(&wr->cx.model_index);
	wr->most = most;
	return wr;
}

static int reader_item(struct workload_reader *wr, const struct ynode *map,
		       const char *name, const char *what,
		       enum workload_kind kind, struct workload **out)
{
	struct wl_ctx *cx = &wr->cx;
	if (cx->wf->n >= wr->most) {
		fprintf(stderr, "gpuplan: workload_reader: more items than the %zu announced\n",
			wr->most);
		abort();
	}
	struct workload *w = &cx->wf->v[cx->wf->n++];
	*out = w;
	w->name = xstrdup(name);
	w->kind = kind;
	w->at = (struct origin){cx->wf->file, map->line, map->col};
	if (!yr_expect_map(&cx->r, map, what))
		return -1;
	int bad = wl_check_embedded_keys(&cx->r, map, what,
					 kind == WORKLOAD_INFERENCE);
	bad |= wl_read_body(cx, map, what, w) < 0;
	return bad ? -1 : 0;
}

int workload_reader_training(struct workload_reader *wr,
			     const struct ynode *map, const char *name,
			     const char *what, struct workload **out)
{
	return reader_item(wr, map, name, what, WORKLOAD_TRAINING, out);
}

int workload_reader_serving(struct workload_reader *wr,
			    const struct ynode *map, const char *name,
			    const char *what, struct workload **out)
{
	return reader_item(wr, map, name, what, WORKLOAD_INFERENCE, out);
}

void workload_reader_close(struct workload_reader *wr)
{
	if (!wr)
		return;
	strmap_free(&wr->cx.model_index);
	free(wr->cx.models_seen);
	free(wr->cx.dir);
	free(wr->cx.shown_dir);
	free(wr);
}

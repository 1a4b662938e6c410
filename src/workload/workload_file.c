/*
 * workload_file.c - a workload file: its schema and `workloads:` list,
 * each item read in turn, names unique; the lookup by name; freeing it
 * with the models and traces it loaded.
 */
#include "workload_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/name_index.h"
#include "core/file_read.h"
#include "core/paths.h"
#include "core/strmap.h"
#include "core/term_safe.h"
#include "core/xalloc.h"
#include "core/yaml_read.h"
#include "item.h"
#include "named_files.h"
#include "trace.h"

static void free_workload(struct workload *w)
{
	free(w->name);
	free(w->train.instance);
	free(w->model_path);
	free(w->model_file);
	free(w->infer.trace_file);
}

/* ---- the file ---- */

/* Names are unique case-blind, as workload_find() looks them up; one
 * pass over a hash of the names (name_index.h), so a file of n
 * workloads is checked in O(n). */
static void check_duplicates(struct workload_file *wf, struct gp_errors *errs)
{
	struct name_index seen;
	name_index_init(&seen);
	for (size_t i = 0; i < wf->n; i++) {
		size_t j;
		if (!wf->v[i].name ||
		    name_index_add(&seen, wf->v[i].name, i, &j))
			continue;
		char hint[256];
		snprintf(hint, sizeof(hint), "first defined at %s:%d",
			 wf->file, wf->v[j].at.line);
		gp_errors_add(errs, wf->file, wf->v[i].at.line,
			      wf->v[i].at.col, hint,
			      "duplicate workload name '%s'", wf->v[i].name);
	}
	name_index_free(&seen);
}

static const struct yfield file_fields[] = {
	{"schema", true}, {"workloads", true}, {NULL, false},
};

static int read_list(struct wl_ctx *cx, const struct ynode *list)
{
	if (!yr_expect_seq(&cx->r, list, "'workloads'"))
		return -1;
	if (list->n == 0) {
		yr_error(&cx->r, list, NULL, "'workloads' is empty: expected at least one workload");
		return -1;
	}
	struct workload_file *wf = cx->wf;
	wf->v = xcalloc(list->n, sizeof(*wf->v));
	int bad = 0;
	for (size_t i = 0; i < list->n; i++) {
		struct workload *w = &wf->v[wf->n];
		int rc = wl_read_workload(cx, list->items[i], i, w);
		bad |= rc < 0;
		/* Once problems are only counted (error.h), a workload with
		 * problems of its own is dropped as soon as it is read, as
		 * the catalog does: the load fails anyway, and a flood of
		 * entries then costs the tree's memory only.  The count of
		 * further problems leaves out duplicates among them. */
		if (rc < 0 && gp_errors_full(cx->r.errs)) {
			free_workload(w);
			memset(w, 0, sizeof(*w));
		} else
			wf->n++;
	}
	return bad ? -1 : 0;
}

static int read_file(struct wl_ctx *cx, const struct ytree *t)
{
	struct yread *r = &cx->r;
	/* Another kind of file (a catalog, say) would only produce a
	 * screenful of unknown keys: one error about its schema says it. */
	if (yr_check_schema(r, t->root, WORKLOAD_SCHEMA, "workload file") < 0)
		return -1;
	int bad = yr_check_keys(r, t->root, "a workload file", file_fields) > 0;
	const struct ynode *list = ymap_get(t->root, "workloads");
	if (list)
		bad |= read_list(cx, list) < 0;
	return bad ? -1 : 0;
}

int workload_file_load_as(struct workload_file *wf, const char *path,
			  const char *shown, struct gp_errors *errs)
{
	memset(wf, 0, sizeof(*wf));
	wf->file = term_escape_dup(file_shown(shown), 0);	/* printed: see term_safe.h */
	size_t before = gp_errors_count(errs);
	struct ytree t;
	if (ytree_load(&t, path, wf->file, errs) == 0) {
		struct wl_ctx cx = {
			.r = {.file = wf->file, .errs = errs},
			.wf = wf,
			.dir = path_dir(path),
			.shown_dir = path_dir(shown),
			.noun = "workload",
		};
		strmap_init(&cx.model_index);
		read_file(&cx, &t);
		check_duplicates(wf, errs);
		strmap_free(&cx.model_index);
		free(cx.models_seen);
		free(cx.dir);
		free(cx.shown_dir);
	}
	ytree_free(&t);
	return gp_errors_count(errs) > before ? -1 : 0;
}

int workload_file_load(struct workload_file *wf, const char *path,
		       struct gp_errors *errs)
{
	return workload_file_load_as(wf, path, path, errs);
}

void workload_file_free(struct workload_file *wf)
{
	for (size_t i = 0; i < wf->n; i++)
		free_workload(&wf->v[i]);
	free(wf->v);
	struct workload_model *next;
	for (struct workload_model *wm = wf->models; wm; wm = next) {
		next = wm->next;
		if (wm->found)
			model_free(&wm->m);
		free(wm->path);
		free(wm);
	}
	struct workload_trace *next_trace;
	for (struct workload_trace *wt = wf->traces; wt; wt = next_trace) {
		next_trace = wt->next;
		request_trace_free(&wt->t);
		free(wt->path);
		free(wt);
	}
	free(wf->file);
	memset(wf, 0, sizeof(*wf));
}

const struct workload *workload_find(const struct workload_file *wf,
				     const char *name)
{
	for (size_t i = 0; i < wf->n; i++)
		if (wf->v[i].name && strcasecmp(wf->v[i].name, name) == 0)
			return &wf->v[i];
	return NULL;
}

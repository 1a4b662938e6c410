/*
 * named_files.c - a workload's `model:` and `trace:`: the path resolved
 * against the workload file's folder (or a shipped model's name), the
 * file loaded once per workload file, and the error at each workload that
 * needed a file that is missing or does not load.
 */
#include "named_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/paths.h"
#include "core/suggest.h"
#include "core/xalloc.h"

/* ---- paths ---- */

/*
 * dir/rel with "." and "x/.." segments removed, as written rather than as
 * the file system resolves it, so "profiles/workloads/../models/a.yaml"
 * reads "profiles/models/a.yaml" in messages.  An absolute rel is kept.
 */
static char *join_clean(const char *dir, const char *rel)
{
	char *whole = rel[0] == '/' ? xstrdup(rel)
				    : xasprintf("%s/%s", dir, rel);
	bool absolute = whole[0] == '/';
	char **seg = xcalloc(strlen(whole) + 1, sizeof(char *));
	size_t n = 0;
	for (char *save = NULL, *s = strtok_r(whole, "/", &save); s;
	     s = strtok_r(NULL, "/", &save)) {
		if (strcmp(s, ".") == 0)
			continue;
		if (strcmp(s, "..") == 0 && n > 0 && strcmp(seg[n - 1], "..") != 0)
			n--;
		else if (!(strcmp(s, "..") == 0 && absolute && n == 0))
			seg[n++] = s;
	}
	size_t len = 2;
	for (size_t i = 0; i < n; i++)
		len += strlen(seg[i]) + 1;
	char *out = xcalloc(len, 1);
	if (absolute)
		strcat(out, "/");
	for (size_t i = 0; i < n; i++) {
		strcat(out, seg[i]);
		if (i + 1 < n)
			strcat(out, "/");
	}
	if (!out[0])
		strcat(out, ".");
	free(seg);
	free(whole);
	return out;
}

/* ---- models ---- */

static struct workload_model *find_model(const struct wl_ctx *cx,
					 const char *path)
{
	size_t i;
	return strmap_get(&cx->model_index, path, &i) ? cx->models_seen[i]
							: NULL;
}

static struct workload_model *load_model(struct wl_ctx *cx, const char *path)
{
	struct workload_model *wm = xcalloc(1, sizeof(*wm));
	wm->path = xstrdup(path);
	wm->next = cx->wf->models;
	cx->wf->models = wm;
	cx->wf->n_models++;
	xgrow((void **)&cx->models_seen, &cx->cap_seen, cx->n_seen + 1,
	      sizeof(*cx->models_seen));
	cx->models_seen[cx->n_seen] = wm;
	strmap_put(&cx->model_index, wm->path, cx->n_seen++, NULL);
	struct stat st;
	wm->found = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	if (!wm->found)
		return wm;
	bool loaded = model_load(&wm->m, path, cx->r.errs) == 0;
	wm->block = loaded && wm->m.kind == MODEL_BLOCK;
	wm->ok = loaded && !wm->block;
	return wm;
}

/* "llama-2-7b": no folder and no .yaml, so a shipped model's name. */
static bool is_model_name(const char *s)
{
	size_t len = strlen(s);
	return !strchr(s, '/') &&
	       !(len > 5 && !strcmp(s + len - 5, ".yaml")) &&
	       !(len > 4 && !strcmp(s + len - 4, ".yml"));
}

/* "a, b, c" of the shipped model files' names, with a did-you-mean for
 * `name` in hint ("" when none is near). */
static char *shipped_list(const char *name, char *hint, size_t len)
{
	char *data = data_dir_find();
	size_t n = 0;
	char **files = data ? model_shipped_files(data, &n) : NULL;
	free(data);
	size_t total = 1;
	for (size_t i = 0; i < n; i++) {
		files[i][strlen(files[i]) - 5] = '\0';	/* ".yaml" */
		total += strlen(files[i]) + 2;
	}
	char *list = xcalloc(total, 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(list, ", ");
		strcat(list, files[i]);
	}
	const char *near = suggest_nearest(name, (const char *const *)files, n);
	snprintf(hint, len, near ? "did you mean \"%s\"? " : "", near);
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
	return list;
}

/*
 * `model: llama-2-7b` where no such file is beside the workload file: the
 * shipped model of that name, found as `gpuplan model show NAME` finds it
 * (model_find).  *path becomes its file; an unknown name is an error with
 * a did-you-mean and the shipped names.  0, or -1 after the error.
 */
static int shipped_model(struct wl_ctx *cx, const struct ynode *n,
			 struct workload *w, char **path)
{
	char *shown;
	char *found = model_find(w->model_path, &shown);
	if (access(found, F_OK) == 0) {
		free(*path);
		*path = found;
		free(w->model_file);
		w->model_file = shown;
		return 0;
	}
	free(found);
	free(shown);
	char hint[SUGGEST_MAX_WORD + 32];
	char *list = shipped_list(w->model_path, hint, sizeof(hint));
	yr_error(&cx->r, n, NULL, "unknown model \"%s\"; %sshipped models: %s",
		 w->model_path, hint, list[0] ? list : "none (no data folder)");
	free(list);
	return -1;
}

/*
 * Resolves and loads the `model:` of w (once per file).  A model that is
 * missing or does not load gets an error at this workload's `model:`, after
 * the model's own problems, so each workload that needed it is named.
 */
int wl_read_model(struct wl_ctx *cx, const struct ynode *map,
		  struct workload *w)
{
	const struct ynode *n = ymap_get(map, "model");
	if (yr_string(&cx->r, map, "model", &w->model_path) <= 0)
		return n ? -1 : 0;
	/* a path, not a name (it may be long), but still one line: it is
	 * shown in tables and messages */
	if (strpbrk(w->model_path, "\n\t")) {
		yr_error(&cx->r, n, NULL,
			 "'model' is a file path: one line without tabs");
		return -1;
	}
	w->model_at = (struct origin){cx->wf->file, n->line, n->col};
	char *path = join_clean(cx->dir, w->model_path);
	w->model_file = join_clean(cx->shown_dir, w->model_path);
	if (access(path, F_OK) != 0 && is_model_name(w->model_path) &&
	    shipped_model(cx, n, w, &path) < 0) {
		free(path);
		return -1;
	}
	struct workload_model *wm = find_model(cx, path);
	if (!wm)
		wm = load_model(cx, path);
	free(path);
	if (wm->ok) {
		w->model = &wm->m;
		return 0;
	}
	if (!wm->found)
		yr_error(&cx->r, n, NULL,
			 "model file '%s' of %s '%s' not found (looked for %s)",
			 w->model_path, cx->noun, w->name ? w->name : "?",
			 wm->path);
	else if (wm->block)
		yr_error(&cx->r, n, NULL,
			 "'%s' is a block of ops for 'include:', not a model: %s '%s' needs a transformer or graph model",
			 w->model_path, cx->noun, w->name ? w->name : "?");
	else
		yr_error(&cx->r, n, NULL,
			 "%s '%s' needs model '%s', which does not load (its problems are listed above)",
			 cx->noun, w->name ? w->name : "?", w->model_path);
	return -1;
}

/* ---- traces ---- */

static struct workload_trace *trace_of(struct wl_ctx *cx, const char *path,
				       const char *shown)
{
	for (struct workload_trace *wt = cx->wf->traces; wt; wt = wt->next)
		if (strcmp(wt->path, path) == 0)
			return wt;
	struct workload_trace *wt = xcalloc(1, sizeof(*wt));
	wt->path = xstrdup(path);
	wt->next = cx->wf->traces;
	cx->wf->traces = wt;
	struct stat st;
	wt->found = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	wt->ok = wt->found &&
		 request_trace_load(&wt->t, path, shown, cx->r.errs) == 0;
	return wt;
}

/*
 * Resolves and loads the `trace:` of w (once per file), as wl_read_model()
 * does its model: a trace that is missing or does not load gets an error
 * at this workload's `trace:`.
 */
int wl_read_trace(struct wl_ctx *cx, const struct ynode *map,
		  struct workload *w)
{
	const struct ynode *n = ymap_get(map, "trace");
	char *written = NULL;
	if (yr_string(&cx->r, map, "trace", &written) <= 0)
		return n ? -1 : 0;
	if (strpbrk(written, "\n\t")) {
		yr_error(&cx->r, n, NULL,
			 "'trace' is a file path: one line without tabs");
		free(written);
		return -1;
	}
	char *path = join_clean(cx->dir, written);
	w->infer.trace_file = join_clean(cx->shown_dir, written);
	struct workload_trace *wt = trace_of(cx, path, w->infer.trace_file);
	int rc = 0;
	if (wt->ok)
		w->infer.trace = &wt->t;
	else if (wt->found) {
		yr_error(&cx->r, n, NULL,
			 "%s '%s' needs trace '%s', which does not load (its problems are listed above)",
			 cx->noun, w->name ? w->name : "?", written);
		rc = -1;
	} else {
		yr_error(&cx->r, n, NULL,
			 "trace file '%s' of %s '%s' not found (looked for %s)",
			 written, cx->noun, w->name ? w->name : "?", path);
		rc = -1;
	}
	free(written);
	free(path);
	return rc;
}

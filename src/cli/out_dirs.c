/*
 * out_dirs.c - folders a command writes into; see out_dirs.h.
 */
#include "out_dirs.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/atomic_file.h"
#include "core/io_guard.h"
#include "core/xalloc.h"


/*
 * Calls visit for each folder on the way to path, outermost first
 * ("a", "a/b", "a/b/c"); stops at the first that returns non-zero and
 * returns that.
 */
static int each_folder(const char *path, void *ctx,
		       int (*visit)(void *ctx, const char *folder))
{
	char *p = xstrdup(path);
	int rc = 0;
	for (char *s = p + 1; *p && rc == 0; s++) {
		bool end = *s == '\0';
		if (!end && *s != '/')
			continue;
		*s = '\0';
		rc = visit(ctx, p);
		if (end)
			break;
		*s = '/';
	}
	free(p);
	return rc;
}

/* An existing part of the way that is not a folder: 1, with its name
 * copied to ctx (a char *, the caller frees); a part not there yet (the
 * rest will be made): 2, stop looking; else 0. */
static int not_a_folder(void *ctx, const char *folder)
{
	struct stat st;
	if (stat(folder, &st) < 0)
		return 2;
	if (S_ISDIR(st.st_mode))
		return 0;
	*(char **)ctx = xstrdup(folder);
	return 1;
}

int out_dir_usable(const char *option, const char *dir)
{
	char *bad = NULL;
	if (each_folder(dir, &bad, not_a_folder) != 1)
		return 0;
	fprintf(stderr, "gpuplan: %s: '%s' is not a folder\n", option, bad);
	free(bad);
	return 2;
}

/* Why the folder that will hold a new file cannot, or NULL. */
static const char *folder_problem(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) != 0)
		return errno == ENOENT || errno == ENOTDIR ? "does not exist"
							   : strerror(errno);
	if (!S_ISDIR(st.st_mode))
		return "is not a folder";
	if (access(dir, W_OK | X_OK) != 0)
		return "may not be written into";
	return NULL;
}

int out_file_usable(const char *option, const char *path)
{
	char why[600];
	if (atomic_check_target(path, why, sizeof(why)) != ATOMIC_OK) {
		fprintf(stderr, "gpuplan: %s: %s\n", option, why);
		return 2;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return 0;	/* a device or pipe, written in place */
	char *copy = xstrdup(path);
	const char *dir = dirname(copy);
	const char *problem = folder_problem(dir);
	if (problem)
		fprintf(stderr, "gpuplan: %s: cannot write '%s': the folder '%s' %s\n",
			option, path, dir, problem);
	free(copy);
	return problem ? 2 : 0;
}

struct make_ctx {
	struct out_dirs *d;
	char *why;
	size_t len;
};

/* mkdir for one folder on the way, remembered when this run made it. */
static int make_one(void *ctx, const char *folder)
{
	struct make_ctx *m = ctx;
	struct out_dirs *d = m->d;
	struct stat st;
	if (mkdir(folder, 0777) == 0) {
		xgrow((void **)&d->made, &d->cap, d->n + 1, sizeof(*d->made));
		d->made[d->n++] = (struct made_dir){xstrdup(folder),
						    io_guard_dir_add(folder)};
		return 0;
	}
	if (errno != EEXIST) {
		snprintf(m->why, m->len, "cannot create '%s': %s", folder,
			 strerror(errno));
		return -1;
	}
	if (stat(folder, &st) < 0 || !S_ISDIR(st.st_mode)) {
		snprintf(m->why, m->len, "'%s' is not a folder", folder);
		return -1;
	}
	return 0;
}

int out_dirs_make(struct out_dirs *d, const char *path, char *why,
		  size_t len)
{
	struct make_ctx m = {d, why, len};
	return *path ? each_folder(path, &m, make_one) : 0;
}

void out_dirs_release(struct out_dirs *d, bool remove)
{
	for (size_t i = d->n; i > 0; i--) {
		if (remove)
			rmdir(d->made[i - 1].path);
		io_guard_dir_remove(d->made[i - 1].guard);
		free(d->made[i - 1].path);
	}
	free(d->made);
	memset(d, 0, sizeof(*d));
}


void stale_files_find(struct stale_files *s, const char *dir,
		      bool (*ours)(const char *name, void *arg), void *arg)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (!ours(e->d_name, arg))
			continue;
		char *path = xasprintf("%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
		s->v[s->n++] = (struct stale_file){path, (unsigned long long)st.st_dev,
						   (unsigned long long)st.st_ino};
	}
	if (d)
		closedir(d);
}

void stale_files_remove(struct stale_files *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct stat st;
		if (lstat(s->v[i].path, &st) == 0 &&
		    (unsigned long long)st.st_dev == s->v[i].dev &&
		    (unsigned long long)st.st_ino == s->v[i].ino)
			unlink(s->v[i].path);
	}
	stale_files_free(s);
}

void stale_files_free(struct stale_files *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].path);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

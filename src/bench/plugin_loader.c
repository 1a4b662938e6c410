/*
 * plugin_loader.c - locate and open libgpuplan-cuda.so; see plugin_loader.h.
 */

#include "plugin_loader.h"

#include "core/paths.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void set_why(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_why(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (!why || !whylen)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
}

/* Copy src into dst; returns -1 (and stores nothing) if it does not fit. */
static int copy_path(char *dst, const char *src)
{
	size_t n = strlen(src);

	if (n >= PATH_MAX)
		return -1;
	memcpy(dst, src, n + 1);
	return 0;
}

/* Remove the last path component in place: "/a/b" -> "/a", "/a" -> "/". */
static void strip_last(char *path)
{
	char *slash = strrchr(path, '/');

	if (!slash)
		return;
	if (slash == path)
		slash[1] = '\0';
	else
		*slash = '\0';
}

/* The executable's folder and ../lib/gpuplan beside it (the install layout):
 * /usr/bin/gpuplan gives /usr/bin and /usr/lib/gpuplan. */
static size_t exe_relative_dirs(struct cuda_plugin_dirs *out)
{
	char *dir = exe_dir();
	if (!dir)
		return 0;
	if (copy_path(out->dir[0], dir) == 0) {
		out->count = 1;
		strip_last(dir);
		/* Avoid "//lib/gpuplan" for an executable in /bin. */
		int n = snprintf(out->dir[1], PATH_MAX, "%s/lib/gpuplan",
				 strcmp(dir, "/") == 0 ? "" : dir);
		if (n > 0 && n < PATH_MAX)
			out->count = 2;
	}
	free(dir);
	return out->count;
}

size_t cuda_plugin_search_dirs(struct cuda_plugin_dirs *out)
{
	const char *env = getenv("GPUPLAN_PLUGIN_DIR");

	memset(out, 0, sizeof(*out));
	/* An explicit directory is the only one searched, so a test or a
	 * user pointing at a build never picks up an installed plugin. */
	if (env && *env) {
		if (copy_path(out->dir[0], env) == 0)
			out->count = 1;
		return out->count;
	}
	return exe_relative_dirs(out);
}

/* "DIR1, DIR2" for the not-found message. */
static void join_dirs(const struct cuda_plugin_dirs *dirs, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < dirs->count && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s",
				 i ? ", " : "", dirs->dir[i]);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* The first directory holding the plugin file wins; 0 if one does. */
static int find_plugin(char *path, char *why, size_t whylen)
{
	struct cuda_plugin_dirs dirs;
	char looked[2 * PATH_MAX + 8];
	struct stat st;
	size_t i;

	if (cuda_plugin_search_dirs(&dirs) == 0) {
		set_why(why, whylen,
			"cuda plugin not found (cannot read /proc/self/exe to find it; set GPUPLAN_PLUGIN_DIR)");
		return -1;
	}
	for (i = 0; i < dirs.count; i++) {
		int n = snprintf(path, PATH_MAX, "%s/%s", dirs.dir[i],
				 GPUPLAN_CUDA_PLUGIN_FILE);

		if (n > 0 && n < PATH_MAX && stat(path, &st) == 0 &&
		    S_ISREG(st.st_mode))
			return 0;
	}
	join_dirs(&dirs, looked, sizeof(looked));
	if (cuda_plugin_was_built())
		set_why(why, whylen,
			"cuda plugin not found (looked in %s); it was built with this gpuplan: install it or point GPUPLAN_PLUGIN_DIR at it",
			looked);
	else
		set_why(why, whylen,
			"cuda plugin not found (looked in %s); build with the CUDA Toolkit installed to get it",
			looked);
	return -1;
}

/* dlsym the entry and call it; the table is checked by check_table. */
static const struct gpuplan_cuda_plugin *plugin_table(void *dl, const char *path,
						     char *why, size_t whylen)
{
	const struct gpuplan_cuda_plugin *api;
	/* POSIX guarantees dlsym's object pointer converts to a function
	 * pointer; the union says so without an ISO C pedantic warning. */
	union {
		void *obj;
		gpuplan_cuda_entry_fn fn;
	} entry;

	dlerror();
	entry.obj = dlsym(dl, GPUPLAN_CUDA_ENTRY_SYMBOL);
	if (!entry.obj) {
		set_why(why, whylen, "cuda plugin %s has no entry point %s",
			path, GPUPLAN_CUDA_ENTRY_SYMBOL);
		return NULL;
	}
	api = entry.fn();
	if (!api)
		set_why(why, whylen, "cuda plugin %s returned no plugin table", path);
	return api;
}

static int check_table(const struct gpuplan_cuda_plugin *api, const char *path,
		       char *why, size_t whylen)
{
	if (api->abi_version != GPUPLAN_CUDA_ABI_VERSION) {
		set_why(why, whylen,
			"cuda plugin %s has ABI version %u, this gpuplan needs %d; rebuild the plugin with this gpuplan",
			path, (unsigned)api->abi_version, GPUPLAN_CUDA_ABI_VERSION);
		return -1;
	}
	if (api->struct_size < sizeof(*api)) {
		set_why(why, whylen,
			"cuda plugin %s has a %u-byte plugin table, this gpuplan needs at least %zu",
			path, (unsigned)api->struct_size, sizeof(*api));
		return -1;
	}
#define REQUIRE_HOOK(name)                                                    \
	do {                                                                  \
		if (!api->name) {                                             \
			set_why(why, whylen,                                  \
				"cuda plugin %s lacks the required hook %s",  \
				path, #name);                                 \
			return -1;                                            \
		}                                                             \
	} while (0)
	REQUIRE_HOOK(init);
	REQUIRE_HOOK(device_count);
	REQUIRE_HOOK(device_info);
	REQUIRE_HOOK(self_test);
	REQUIRE_HOOK(shutdown);
	REQUIRE_HOOK(job_prepare);
	REQUIRE_HOOK(job_run);
	REQUIRE_HOOK(job_check);
	REQUIRE_HOOK(job_release);
	REQUIRE_HOOK(can_access_peer);
#undef REQUIRE_HOOK
	return 0;
}

/* Hand on the plugin's own reason; an empty one still gets a message. */
static int init_plugin(const struct gpuplan_cuda_plugin *api, const char *path,
		       char *why, size_t whylen)
{
	char reason[512] = "";

	if (api->init(reason, sizeof(reason)) == 0)
		return 0;
	if (reason[0])
		set_why(why, whylen, "%s", reason);
	else
		set_why(why, whylen, "cuda plugin %s failed to initialise without saying why",
			path);
	return -1;
}

int cuda_plugin_load(struct cuda_plugin_handle *h, char *why, size_t whylen)
{
	const struct gpuplan_cuda_plugin *api;
	const char *dlerr;

	memset(h, 0, sizeof(*h));
	if (find_plugin(h->path, why, whylen))
		goto fail;
	/* RTLD_LOCAL: the plugin's static CUDA runtime stays private to it. */
	h->dl = dlopen(h->path, RTLD_NOW | RTLD_LOCAL);
	if (!h->dl) {
		dlerr = dlerror();
		set_why(why, whylen, "cannot load cuda plugin: %s",
			dlerr ? dlerr : h->path);
		goto fail;
	}
	api = plugin_table(h->dl, h->path, why, whylen);
	if (!api || check_table(api, h->path, why, whylen) ||
	    init_plugin(api, h->path, why, whylen))
		goto fail;
	h->api = api;
	return 0;
fail:
	if (h->dl)
		dlclose(h->dl);
	memset(h, 0, sizeof(*h));
	return -1;
}

void cuda_plugin_unload(struct cuda_plugin_handle *h)
{
	if (h->api)
		h->api->shutdown();
	if (h->dl)
		dlclose(h->dl);
	memset(h, 0, sizeof(*h));
}

void cuda_plugin_probe(struct cuda_plugin_info *out)
{
	memset(out, 0, sizeof(*out));
	out->built = cuda_plugin_was_built();
	if (find_plugin(out->path, out->why, sizeof(out->why))) {
		out->path[0] = '\0';
		return;
	}
	out->found = 1;
	void *dl = dlopen(out->path, RTLD_NOW | RTLD_LOCAL);
	if (!dl) {
		const char *dlerr = dlerror();
		set_why(out->why, sizeof(out->why), "cannot load cuda plugin: %s",
			dlerr ? dlerr : out->path);
		return;
	}
	const struct gpuplan_cuda_plugin *api =
		plugin_table(dl, out->path, out->why, sizeof(out->why));
	if (api && check_table(api, out->path, out->why, sizeof(out->why)) == 0) {
		out->usable = 1;
		snprintf(out->build_info, sizeof(out->build_info), "%s",
			 api->build_info ? api->build_info : "");
	}
	dlclose(dl);
}

void cuda_plugin_describe(const struct cuda_plugin_info *info, char *buf,
			  size_t len)
{
	const char *built = info->built
		? "built"
		: "not built with this gpuplan (no CUDA Toolkit at build time)";
	if (info->usable)
		snprintf(buf, len, "%s; found %s (%s)", built, info->path,
			 info->build_info);
	else
		snprintf(buf, len, "%s; %s", built, info->why);
}

int cuda_plugin_was_built(void)
{
#if defined(GPUPLAN_CUDA_PLUGIN_BUILT) && GPUPLAN_CUDA_PLUGIN_BUILT
	return 1;
#else
	return 0;
#endif
}

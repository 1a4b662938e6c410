#include "paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

char *path_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

char *exe_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return xstrdup(buf[0] ? buf : "/");
}

static int has_catalogs(const char *dir)
{
	char *p = xasprintf("%s/catalogs", dir);
	struct stat st;
	int ok = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
	free(p);
	return ok;
}

/* Appends "PLACE (WHAT)" to the list of places looked. */
static void looked(char *why, size_t len, const char *place, const char *what)
{
	if (!why)
		return;
	size_t used = strlen(why);
	if (used < len)
		snprintf(why + used, len - used, "%s%s (%s)", used ? ", " : "",
			 place, what);
}

/* True when dir is root or lies under it (both resolved). */
static int is_under(const char *dir, const char *root)
{
	char real_root[PATH_MAX];
	if (!realpath(root, real_root))
		return 0;
	size_t n = strlen(real_root);
	return strncmp(dir, real_root, n) == 0 &&
	       (dir[n] == '\0' || dir[n] == '/');
}

/* Step 2: the source tree, only for a binary inside its build folder, so
 * an installed copy never reads a source tree that happens to remain. */
static char *from_build_tree(const char *exe, char *why, size_t len)
{
#if defined(GPUPLAN_SOURCE_DIR) && defined(GPUPLAN_BUILD_DIR)
	if (!exe || !is_under(exe, GPUPLAN_BUILD_DIR))
		return NULL;
	if (has_catalogs(GPUPLAN_SOURCE_DIR))
		return xstrdup(GPUPLAN_SOURCE_DIR);
	looked(why, len, GPUPLAN_SOURCE_DIR, "the build's source tree, no catalogs/ there");
#else
	(void)exe;
	(void)why;
	(void)len;
#endif
	return NULL;
}

char *data_dir_search(char *why, size_t len)
{
	if (why && len)
		why[0] = '\0';
	const char *env = getenv("GPUPLAN_DATA_DIR");
	if (env && *env) {
		if (has_catalogs(env))
			return xstrdup(env);
		char *place = xasprintf("GPUPLAN_DATA_DIR=%s", env);
		looked(why, len, place, "no catalogs/ there");
		free(place);
		return NULL;
	}
	looked(why, len, "GPUPLAN_DATA_DIR", "unset");
	char *exe = exe_dir();
	char *found = from_build_tree(exe, why, len);
	if (found || !exe) {
		if (!exe)
			looked(why, len, "/proc/self/exe", "unreadable");
		free(exe);
		return found;
	}
	char *installed = xasprintf("%s/../share/gpuplan", exe);
	free(exe);
	if (has_catalogs(installed))
		return installed;
	looked(why, len, installed, "no catalogs/ there");
	free(installed);
	return NULL;
}

char *data_dir_find(void)
{
	return data_dir_search(NULL, 0);
}

char *data_dir_require(const char *what)
{
	char why[3 * PATH_MAX];
	char *dir = data_dir_search(why, sizeof(why));
	if (!dir)
		fprintf(stderr,
			"gpuplan: cannot find the shipped %s: looked in %s; "
			"set GPUPLAN_DATA_DIR to the folder that holds catalogs/ and profiles/\n",
			what, why);
	return dir;
}

const char *data_dir_order(void)
{
	return "$GPUPLAN_DATA_DIR, else the source tree when run from the build "
	       "folder, else ../share/gpuplan beside the executable's folder";
}

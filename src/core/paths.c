#include "paths.h"

#include <limits.h>
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

char *data_dir_find(void)
{
	const char *env = getenv("GPUPLAN_DATA_DIR");
	if (env && *env)
		return has_catalogs(env) ? xstrdup(env) : NULL;
#ifdef GPUPLAN_SOURCE_DIR
	if (has_catalogs(GPUPLAN_SOURCE_DIR))
		return xstrdup(GPUPLAN_SOURCE_DIR);
#endif
	char *exe = exe_dir();
	if (!exe)
		return NULL;
	char *installed = xasprintf("%s/../share/gpuplan", exe);
	free(exe);
	if (has_catalogs(installed))
		return installed;
	free(installed);
	return NULL;
}

#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t k = write(fd, p, len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		len -= (size_t)k;
	}
	return 0;
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		fsync(fd);	/* best effort: some file systems refuse */
		close(fd);
	}
}

/* A device or pipe (-o /dev/null, -o /dev/stdout) cannot be replaced by
 * a rename, and must not be: it is written in place. */
static int write_in_place(const char *path, const void *data, size_t len,
			  char *why, size_t whylen)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0 || write_all(fd, data, len) < 0) {
		snprintf(why, whylen, "cannot write '%s': %s", path,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int replace_file(const char *path, const void *data, size_t len,
			char *why, size_t whylen);

int atomic_write(const char *path, const void *data, size_t len, char *why,
		 size_t whylen)
{
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return write_in_place(path, data, len, why, whylen);
	/* A link to a file: replace the file it points to, keep the link. */
	char real[PATH_MAX];
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, real))
		return replace_file(real, data, len, why, whylen);
	return replace_file(path, data, len, why, whylen);
}

static int replace_file(const char *path, const void *data, size_t len,
			char *why, size_t whylen)
{
	char *copy = xstrdup(path);
	char *dir = xstrdup(dirname(copy));
	free(copy);
	char *tmp = xasprintf("%s.tmp.XXXXXX", path);
	int rc = -1;
	int fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(why, whylen, "cannot create a file in '%s': %s", dir,
			 strerror(errno));
		goto out;
	}
	/* mkstemp makes 0600; give the file the usual permissions. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0) {
		snprintf(why, whylen, "cannot write '%s': %s", path,
			 strerror(errno));
		close(fd);
		unlink(tmp);
		goto out;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		snprintf(why, whylen, "cannot write '%s': %s", path,
			 strerror(errno));
		unlink(tmp);
		goto out;
	}
	sync_dir(dir);
	rc = 0;
out:
	free(tmp);
	free(dir);
	return rc;
}

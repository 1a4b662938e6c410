#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
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

int atomic_write(const char *path, const void *data, size_t len, char *why,
		 size_t whylen)
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

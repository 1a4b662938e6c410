#include "file_read.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io_guard.h"
#include "xalloc.h"

enum file_read_status file_read_all(const char *path, size_t limit,
				    char **data, size_t *len)
{
	*data = NULL;
	*len = 0;
	bool in = strcmp(path, "-") == 0;
	FILE *f = in ? stdin : fopen(path, "rb");
	if (!f)
		return FILE_READ_CANNOT_OPEN;
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
		io_guard_input_add(st.st_dev, st.st_ino);
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    (unsigned long long)st.st_size > (unsigned long long)limit) {
		if (!in)
			fclose(f);
		return FILE_READ_TOO_LARGE;	/* known without reading it */
	}
	/* A regular file's size is known: one allocation of that size (plus
	 * the NUL and one byte to notice a file that grew), where doubling
	 * from 64 KiB held up to twice the file. */
	size_t cap = 1 << 16, n = 0;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    (unsigned long long)st.st_size + 2 > cap)
		cap = (size_t)st.st_size + 2;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			/* never past limit + 2: room for one byte too many and
			 * the NUL, whatever the source (/dev/zero, a pipe) */
			cap = cap > (limit + 2) / 2 ? limit + 2 : cap * 2;
			buf = xrealloc(buf, cap);
		}
		/* never more than limit + 1 bytes in all: enough to know */
		size_t want = cap - 1 - n;
		if (want > limit + 1 - n)
			want = limit + 1 - n;
		size_t got = fread(buf + n, 1, want, f);
		n += got;
		if (got < want || n > limit)
			break;
	}
	int err = errno;
	int failed = ferror(f);
	if (!in)
		fclose(f);
	if (failed || n > limit) {
		free(buf);
		errno = err;
		return failed ? FILE_READ_CANNOT_READ : FILE_READ_TOO_LARGE;
	}
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return FILE_READ_OK;
}

const char *file_shown(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

size_t file_count_stdin(const char *const *paths, size_t n)
{
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		count += paths[i] && strcmp(paths[i], "-") == 0;
	return count;
}

/* Atomic writes: the whole content or nothing, and no stray temp files. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/atomic_file.h"

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	if (d)
		closedir(d);
	return n;
}

int main(void)
{
	char dir[] = "/tmp/gpuplan-atomic-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[256], why[256];
	snprintf(path, sizeof(path), "%s/out.json", dir);

	CHECK(atomic_write(path, "first\n", 6, why, sizeof(why)) == 0);
	CHECK(atomic_write(path, "second\n", 7, why, sizeof(why)) == 0);
	FILE *f = fopen(path, "r");
	char buf[32] = {0};
	CHECK(f && fread(buf, 1, sizeof(buf) - 1, f) == 7);
	if (f)
		fclose(f);
	CHECK_STR(buf, "second\n");
	CHECK(count_entries(dir) == 1);	/* no temporary left behind */

	/* A folder that does not exist: an error, and nothing written. */
	char bad[300];
	snprintf(bad, sizeof(bad), "%s/missing/out.json", dir);
	CHECK(atomic_write(bad, "x", 1, why, sizeof(why)) == -1);
	CHECK(strstr(why, "cannot create a file in") != NULL);
	CHECK(count_entries(dir) == 1);

	/* A device is written in place, never replaced by a file: /dev/full
	 * refuses the write (a rename over it would have "succeeded"). */
	CHECK(atomic_write("/dev/full", "x", 1, why, sizeof(why)) == -1);
	CHECK(strstr(why, "No space left") != NULL);
	struct stat st;
	CHECK(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));

	/* A link keeps pointing at its target, which gets the content. */
	char link[300];
	snprintf(link, sizeof(link), "%s/link.json", dir);
	CHECK(symlink(path, link) == 0);
	CHECK(atomic_write(link, "third\n", 6, why, sizeof(why)) == 0);
	struct stat lst;
	CHECK(lstat(link, &lst) == 0 && S_ISLNK(lst.st_mode));
	f = fopen(path, "r");
	memset(buf, 0, sizeof(buf));
	CHECK(f && fread(buf, 1, sizeof(buf) - 1, f) == 6);
	if (f)
		fclose(f);
	CHECK_STR(buf, "third\n");

	unlink(link);
	unlink(path);
	rmdir(dir);
	return check_summary("atomic_file");
}

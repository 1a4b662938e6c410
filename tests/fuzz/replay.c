/*
 * replay.c - a main() for the harnesses where libFuzzer is not linked
 * (gcc builds, GPUPLAN_FUZZ off): runs the harness once on each file
 * named, or on each file of each folder named, in name order.  ctest uses
 * it to replay the committed seeds and findings in every build, so a
 * finding, once fixed, stays fixed, and the harnesses compile everywhere.
 *
 *   fuzz_NAME FILE|FOLDER...
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/file_read.h"

#define REPLAY_MAX_BYTES (16u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	char *data;
	size_t len;
	if (file_read_all(path, REPLAY_MAX_BYTES, &data, &len) != FILE_READ_OK) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		return -1;
	}
	fprintf(stderr, "replay: %s\n", path);
	LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	free(data);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int skip_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Returns the number of inputs run, or -1. */
static long run_dir(const char *dir)
{
	struct dirent **list;
	int n = scandir(dir, &list, skip_hidden, by_name);
	if (n < 0) {
		fprintf(stderr, "replay: cannot list %s\n", dir);
		return -1;
	}
	long ran = 0;
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		if (ran >= 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
			ran = run_file(path) < 0 ? -1 : ran + 1;
		free(list[i]);
	}
	free(list);
	return ran;
}

int main(int argc, char **argv)
{
	long total = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: no such file or folder: %s\n", argv[i]);
			return 1;
		}
		long ran = S_ISDIR(st.st_mode) ? run_dir(argv[i])
					       : run_file(argv[i]) < 0 ? -1 : 1;
		if (ran < 0)
			return 1;
		total += ran;
	}
	printf("replayed %ld inputs\n", total);
	return 0;
}

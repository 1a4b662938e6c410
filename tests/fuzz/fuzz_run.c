/*
 * fuzz_run.c - a run record (gpuplan/run/v1, src/run/record.h), loaded as
 * `gpuplan compare` loads it.
 *
 * Besides the loaders' invariants (fuzz.h): a record that loads is
 * written back by run_record_emit into text the loader takes again, and
 * that text written once more is the same bytes (the writer and the strict
 * loader agree on everything either accepts); and it compares with itself
 * into a JSON document that writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_runs.h"
#include "core/output.h"
#include "fuzz.h"
#include "run/record.h"

static struct run_record loaded;
static int loaded_rc;

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	run_record_free(&loaded);
	loaded_rc = run_record_load(&loaded, f->path[0], errs);
	return loaded_rc;
}

static char *render(const struct run_record *r, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		fuzz_fail("run_record_emit", "open_memstream failed");
	run_record_emit(r, f);
	fclose(f);
	return buf;
}

static void check_round_trip(const struct run_record *r)
{
	size_t n1, n2;
	char *t1 = render(r, &n1);
	struct run_record again;
	struct gp_errors errs;
	gp_errors_init(&errs);
	if (run_record_parse(&again, "again.yaml", t1, n1, &errs) < 0) {
		gp_errors_print(&errs, stderr);
		fuzz_fail("run_record_emit", "the loader refuses what the writer wrote");
	}
	char *t2 = render(&again, &n2);
	if (n1 != n2 || memcmp(t1, t2, n1) != 0)
		fuzz_fail("run_record_emit", "written twice, the record differs");
	json_t *j = compare_runs(r, "a", &again, "b");
	FILE *null = fopen("/dev/null", "w");
	if (null) {
		json_write(null, j);
		fclose(null);
	}
	json_decref(j);
	run_record_free(&again);
	gp_errors_free(&errs);
	free(t1);
	free(t2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files f;
	fuzz_write_file(data, size, "run.yaml", &f);
	fuzz_check_loader("run_record_load", load, &f);
	if (loaded_rc == 0)
		check_round_trip(&loaded);
	run_record_free(&loaded);
	return 0;
}

/*
 * fuzz_workload.c - a workload file and the model files it names: the
 * input's other files, or the shipped models (fuzz_link_shipped_models),
 * loaded as `workload validate` loads them.
 */
#include "fuzz.h"
#include "workload/workload.h"
#include "workload/workload_file.h"

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	struct workload_file wf;
	int rc = workload_file_load(&wf, f->path[0], errs);
	workload_file_free(&wf);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files f;
	fuzz_write_files(data, size, "workload.yaml", &f);
	fuzz_link_shipped_models();
	fuzz_check_loader("workload_file_load", load, &f);
	return 0;
}

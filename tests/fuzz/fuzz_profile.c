/*
 * fuzz_profile.c - a measured profile (`gpuplan bench` output, CPU or
 * GPU, with NVML samples), loaded as `fit` and `compare` will load it.
 */
#include "fuzz.h"
#include "profile/profile.h"

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	struct bench_profile p;
	int rc = bench_profile_load(&p, f->path[0], errs);
	bench_profile_free(&p);
	return rc;
}

FUZZ_LOADER_HARNESS("bench_profile_load", "profile.yaml", load)

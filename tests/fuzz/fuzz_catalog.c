/*
 * fuzz_catalog.c - catalog files (accelerators, instances, exchange rates,
 * on-premises purchases), loaded together as `catalog validate` loads
 * them: every file of the input, with the "shipped" accelerators and rates
 * added when the input defines none (catalogs/README.md's rule).
 *
 * The shipped files are tests/fuzz/data/catalogs/: three accelerators of
 * the real list (all 15 made each input ten times slower to load) and the
 * real exchange rates.
 */
#include <stdbool.h>

#include "catalog/catalog.h"
#include "fuzz.h"

#define FIXTURE GPUPLAN_SOURCE_DIR "/tests/fuzz/data"

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	struct catalog c;
	catalog_init(&c);
	int rc = catalog_load(&c, f->path, f->n, FIXTURE, errs);
	catalog_free(&c);
	return rc;
}

/* The stand-in must load cleanly, or every input would carry its errors. */
static void check_fixture(void)
{
	static bool checked;
	if (checked)
		return;
	checked = true;
	const char *files[] = {FIXTURE "/catalogs/accelerators.yaml",
			       FIXTURE "/catalogs/currency.yaml"};
	struct catalog c;
	struct gp_errors errs;
	catalog_init(&c);
	gp_errors_init(&errs);
	int rc = catalog_load(&c, files, 2, NULL, &errs);
	catalog_free(&c);
	if (rc != 0) {
		gp_errors_print(&errs, stderr);
		fuzz_fail("catalog_load", "the harness's catalogs in %s no longer load (above): copy the parts again from catalogs/accelerators.yaml",
			  FIXTURE);
	}
	gp_errors_free(&errs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files f;
	check_fixture();
	fuzz_write_files(data, size, "catalog.yaml", &f);
	fuzz_check_loader("catalog_load", load, &f);
	return 0;
}

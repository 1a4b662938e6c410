/*
 * fuzz.h - what every gpuplan fuzz harness shares: the input turned into
 * files, and the invariants every loader keeps.
 *
 * gpuplan's loaders read files (a model includes others, a workload names
 * models), so a harness writes the fuzz input into a private folder and
 * calls the public loader on the paths, exactly as the command line would.
 *
 * An input may hold several files.  A line
 *
 *     #--8<-- NAME
 *
 * starts a file called NAME (a relative path: letters, digits, '.', '_',
 * '-' and '/', no '..', at most FUZZ_NAME_MAX bytes); the bytes before the
 * first such line, if any, are the main file (the harness names it), and
 * an input that starts with the line names its main file itself.  The line
 * is a YAML comment, so a single file is simply itself.  Example (a model
 * and the block it includes):
 *
 *     schema: gpuplan/model/v1
 *     ...
 *       - include: parts/backbone.yaml
 *     #--8<-- parts/backbone.yaml
 *     schema: gpuplan/model/v1
 *     ...
 *
 * tests/fuzz/seeds.sh packs seed files and the files they name this way.
 *
 * Invariants checked by fuzz_check_loader(), each a crash when broken so
 * libFuzzer keeps the input:
 *   - a load that succeeds added no problem; one that fails added at least
 *     one, and every problem names a file (line 0 only for whole-file
 *     problems), on a line that exists when it is one of the input's files;
 *   - every message, as printed, holds no terminal control character;
 *   - the same input loaded twice gives the same messages.
 * With FUZZ_VERBOSE set in the environment, each load also prints what it
 * gave (loaded, or its messages), for a person looking at seeds.
 *
 * Ownership: the paths in struct fuzz_files belong to the helper and stay
 * valid until the next fuzz_write_*() call.  The folder is removed at exit.
 */
#ifndef GPUPLAN_TESTS_FUZZ_H
#define GPUPLAN_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "core/error.h"

#define FUZZ_SEPARATOR "#--8<-- "	/* at the start of a line */
#define FUZZ_MAX_FILES 8
#define FUZZ_NAME_MAX 64

struct fuzz_files {
	size_t n;			/* files written; the first is the main one */
	const char *path[FUZZ_MAX_FILES];	/* absolute paths, as loaders see them */
	const char *name[FUZZ_MAX_FILES];	/* relative to the work folder */
	size_t lines[FUZZ_MAX_FILES];	/* lines in each file, at most (every
					 * line break YAML knows ends one) */
};

/* Writes the input, split into its files, into a fresh work folder (the
 * previous input's files are removed first, so each input is loaded alone).
 * main_name names the main file unless the input names it. */
void fuzz_write_files(const uint8_t *data, size_t size, const char *main_name,
		      struct fuzz_files *f);

/* Writes the whole input as one file called name (no splitting). */
void fuzz_write_file(const uint8_t *data, size_t size, const char *name,
		     struct fuzz_files *f);

/* The absolute path of the folder the files are written in. */
const char *fuzz_work_dir(void);

/* Links `models` in the work folder to the shipped profiles/models (unless
 * the input made a models/ of its own), so a workload file at
 * workloads/NAME.yaml names "../models/llama-2-7b.yaml" as the shipped
 * default workloads do.  Call after fuzz_write_files(). */
void fuzz_link_shipped_models(void);

/* A loader under test: loads what f names, frees what it loaded, and
 * returns 0 on success or -1 on failure, with its problems in errs. */
typedef int (*fuzz_loader)(const struct fuzz_files *f, struct gp_errors *errs);

/* Runs load twice and checks the invariants above; aborts with both
 * message lists when one is broken.  `what` names the loader. */
void fuzz_check_loader(const char *what, fuzz_loader load,
		       const struct fuzz_files *f);

struct catalog;
/* The small price list of tests/fuzz/data/catalogs, loaded once and kept
 * for the whole run (the harnesses that plan need one); a load failure is
 * a broken harness: fuzz_fail() names `harness`. */
const struct catalog *fuzz_price_list(const char *harness);

/* Prints "fuzz: WHAT: broken invariant: ..." and aborts (libFuzzer then
 * saves the input as a crash). */
void fuzz_fail(const char *what, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/*
 * A harness for one loader over a split input, in one line:
 *
 *     FUZZ_LOADER_HARNESS("model", "model.yaml", load_model)
 */
#define FUZZ_LOADER_HARNESS(what, main_name, load)                          \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);       \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)        \
	{                                                                   \
		struct fuzz_files f_;                                       \
		fuzz_write_files(data, size, (main_name), &f_);             \
		fuzz_check_loader((what), (load), &f_);                     \
		return 0;                                                   \
	}

#endif

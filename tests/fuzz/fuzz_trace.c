/*
 * fuzz_trace.c - a recorded request trace (src/workload/trace.h), loaded
 * as a workload's `trace:` loads it.
 *
 * Besides the loaders' invariants (fuzz.h): a trace that loads has rows;
 * its arrivals start at 0, never go back and span the time its rate says;
 * every length is a whole number of tokens from 1 up, within the range
 * and under the longest request reported.
 */
#include <math.h>

#include "fuzz.h"
#include "workload/trace.h"

static struct request_trace loaded;	/* the last load's */
static int loaded_rc;

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	request_trace_free(&loaded);
	loaded_rc = request_trace_load(&loaded, f->path[0], f->name[0], errs);
	return loaded_rc;
}

static void check_lengths(const long *v, long n, const long range[2],
			  long longest, const char *what)
{
	for (long i = 0; v && i < n; i++)
		if (v[i] < 1 || v[i] < range[0] || v[i] > range[1] ||
		    v[i] > longest)
			fuzz_fail("request_trace_load", "%s %ld of row %ld is outside %ld..%ld (longest %ld)",
				  what, v[i], i, range[0], range[1], longest);
}

static void check_trace(const struct request_trace *t)
{
	if (t->n < 1 || (!t->arrival && !t->prompt && !t->output))
		fuzz_fail("request_trace_load", "loaded %ld rows and no column", t->n);
	for (long i = 0; t->arrival && i < t->n; i++)
		if (!isfinite(t->arrival[i]) || (i == 0 && t->arrival[0] != 0) ||
		    (i > 0 && t->arrival[i] < t->arrival[i - 1]))
			fuzz_fail("request_trace_load", "arrival %ld is %g after %g",
				  i, t->arrival[i], i ? t->arrival[i - 1] : 0.0);
	if (t->arrival && !(t->span > 0 && t->rate > 0 && isfinite(t->rate)))
		fuzz_fail("request_trace_load", "arrivals span %g s at %g/s",
			  t->span, t->rate);
	check_lengths(t->prompt, t->n, t->prompt_range, t->longest, "prompt");
	check_lengths(t->output, t->n, t->output_range, t->longest, "output");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files f;
	fuzz_write_file(data, size, "trace.csv", &f);
	fuzz_check_loader("request_trace_load", load, &f);
	if (loaded_rc == 0)
		check_trace(&loaded);
	request_trace_free(&loaded);
	return 0;
}

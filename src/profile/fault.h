/*
 * fault.h - what went wrong while measuring, and what it cost: the
 * `faults:` of a measured profile.
 *
 * A bench run does not stop at the first fault.  Each fault is recorded
 * where it happened (the suite, and the figure under way), with what the
 * device or plugin said and what was done about it, and the run carries on
 * with what it can still measure:
 *
 *   error          a job failed (prepare or run) and the device then
 *                  passed its health check: that figure is missing, the
 *                  suite goes on with the next one;
 *   wrong-result   a job's output did not check out: the figure is
 *                  missing (a wrong kernel's time is no figure), the suite
 *                  goes on;
 *   device-lost    a job failed and the device then failed its health
 *                  check (a sticky CUDA error, a GPU that fell off the
 *                  bus): the figure is missing and every later figure that
 *                  needs that device is not measured; `ended` names the
 *                  suites it cut short or kept from running, its own first;
 *   out-of-memory  a size did not fit (at prepare, or while running): that
 *                  size is missing, and the larger sizes of the same series
 *                  are not tried and are missing with it;
 *   bad-timer      timer readings were negative, zero or not finite: they
 *                  were discarded and counted (timing.h); the figure is
 *                  kept and marked, or missing when no reading was good;
 *   throttled      the GPU slowed its clocks while figures were measured
 *                  (NVML, samples.h): the figures are kept and marked.
 *
 * `missing` names the figures of the fault's suite that are not in the
 * profile because of it; `marked` the figures that are, but carry a mark
 * (a figure's `throttled`, its time's `rejected` and `too_few`).  An
 * unsupported precision, a suite needing two GPUs on a host with one, or
 * NCCL not being installed are not faults: nothing measurable is missing,
 * and they stay notes.
 *
 * Ownership: a bench_fault owns its text and name lists; bench_faults_free
 * frees them.  Kind names are static strings.
 */
#ifndef GPUPLAN_PROFILE_FAULT_H
#define GPUPLAN_PROFILE_FAULT_H

#include <stdbool.h>
#include <stddef.h>

enum bench_fault_kind {
	BENCH_FAULT_ERROR,
	BENCH_FAULT_WRONG_RESULT,
	BENCH_FAULT_DEVICE_LOST,
	BENCH_FAULT_OUT_OF_MEMORY,
	BENCH_FAULT_BAD_TIMER,
	BENCH_FAULT_THROTTLED,
	BENCH_FAULT_KINDS
};

/* A list of names (figures or suites), each a copy. */
struct bench_names {
	char **v;
	size_t n, cap;
};

struct bench_fault {
	enum bench_fault_kind kind;
	char suite[16];		/* where it happened */
	char figure[64];	/* the figure under way; "" for none */
	char *what;		/* what the device said, and what was done */
	struct bench_names missing;	/* figures of `suite` not measured */
	struct bench_names marked;	/* figures of `suite` kept with a mark */
	struct bench_names ended;	/* device-lost: suites cut short or not run */
};

struct bench_faults {
	struct bench_fault *v;
	size_t n, cap;
};

/* "error", "wrong-result", "device-lost", "out-of-memory", "bad-timer",
 * "throttled"; NULL outside the enum. */
const char *bench_fault_kind_name(enum bench_fault_kind k);
/* The kind of a name, or -1. */
int bench_fault_kind_of(const char *name);
/* The names above, NULL-terminated (for the loader's messages). */
extern const char *const bench_fault_kind_names[];

void bench_faults_init(struct bench_faults *l);
void bench_faults_free(struct bench_faults *l);

/* Appends a fault (what formatted, copied) and returns its index: an
 * index, not a pointer, because a later add may move the list. */
size_t bench_faults_add(struct bench_faults *l, enum bench_fault_kind kind,
			const char *suite, const char *figure,
			const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* The last fault of kind, or NULL. */
struct bench_fault *bench_faults_last(struct bench_faults *l,
				      enum bench_fault_kind kind);

void bench_names_add(struct bench_names *l, const char *name);
bool bench_names_has(const struct bench_names *l, const char *name);
void bench_names_free(struct bench_names *l);

#endif

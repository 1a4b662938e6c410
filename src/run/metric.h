/*
 * metric.h - a figure taken from a command's output: its name, which way
 * is better, and the POSIX extended regular expression that finds it.
 *
 * `--metric NAME=REGEX`, `NAME:higher=REGEX` or `NAME:lower=REGEX`.  The
 * regex's first capture group is the number (a plain decimal, sign and
 * exponent allowed); the last match in the run's output counts, since a
 * log prints its running figure many times and the final one last.
 * Without a suffix the direction is taken from the name only when that is
 * unambiguous (metric_infer_better); otherwise the spec is refused with a
 * message asking for the suffix.  Wall time is not one of these: every run
 * records it and it is always compared, lower being better.
 *
 * Ownership: a metric owns its regex text and compiled form; free with
 * metric_free.
 */
#ifndef GPUPLAN_RUN_METRIC_H
#define GPUPLAN_RUN_METRIC_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#define METRIC_NAME_MAX 64	/* bytes of a name, NUL included */
#define WALL_TIME_METRIC "wall_time_s"

enum better { BETTER_HIGHER, BETTER_LOWER };

struct metric {
	char name[METRIC_NAME_MAX];
	enum better better;
	char *regex;		/* as given */
	regex_t re;
	bool compiled;
};

/* "higher" or "lower". */
const char *better_name(enum better b);
/* From "higher"/"lower"; false for anything else. */
bool better_from_name(const char *s, enum better *out);

/*
 * The direction a name alone gives, when it is unambiguous: higher for a
 * throughput, a rate ("/s", "per_s", "per_sec"), accuracy, score, speedup,
 * samples, tokens, images, items or FLOPs; lower for loss, latency, time,
 * duration, seconds, ms, us, error, perplexity, memory.  A name with words
 * of both kinds, or of neither, gives false.
 */
bool metric_infer_better(const char *name, enum better *out);

/* Parses a --metric spec into m (compiled).  Returns 0, or -1 with a
 * message in why that names the problem. */
int metric_parse(const char *spec, struct metric *m, char *why, size_t len);

/* Compiles an already named metric's regex (the loader's path); 0 or -1
 * with why. */
int metric_compile(struct metric *m, const char *regex, char *why,
		   size_t len);

/*
 * The number of the last match of m in text (NUL-terminated): 1 found
 * (in *out), 0 no match, -1 a match whose first group is not a finite
 * number (why says what it held).
 */
int metric_capture(const struct metric *m, const char *text, double *out,
		   char *why, size_t len);

void metric_free(struct metric *m);

#endif

/*
 * metric.h - a figure taken from a command's output: its name, which way
 * is better, and the POSIX extended regular expression that finds it.
 *
 * `--metric NAME[:QUALIFIER...]=REGEX`, the qualifiers `higher` or
 * `lower` (which way is better) and `stdout` or `stderr` (the one stream
 * the figure is read from; without one, either stream), in any order:
 * `loss:lower:stderr=loss ([0-9.]+)`.  The regex's first capture group is
 * the number (a plain decimal, sign and exponent allowed); it is matched
 * line by line (capture.h), and the last match counts, since a log prints
 * its running figure many times and the final one last.  Without a
 * direction it is taken from the name only when that is unambiguous
 * (metric_infer_better); otherwise the spec is refused with a message
 * asking for it.  Wall time is not one of these: every run records it and
 * it is always compared, lower being better, so its name is reserved.
 *
 * A pattern is a POSIX extended regular expression, and only that: glibc
 * also takes back-references (\1 to \9) in one, which are not ERE and
 * make matching exponential (80 bytes took over 30 s), so they are
 * refused here, as is a pattern too large once its repetition counts are
 * written out.
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

/* Where a figure is read from: either stream (each read apart, line by
 * line), or one of them only. */
enum metric_stream { METRIC_ANY_STREAM, METRIC_STDOUT, METRIC_STDERR };

struct metric {
	char name[METRIC_NAME_MAX];
	enum better better;
	enum metric_stream stream;
	char *regex;		/* as given */
	regex_t re;
	bool compiled;
};

/* "higher" or "lower". */
const char *better_name(enum better b);
/* From "higher"/"lower"; false for anything else. */
bool better_from_name(const char *s, enum better *out);

/* "stdout" or "stderr"; NULL for METRIC_ANY_STREAM. */
const char *metric_stream_name(enum metric_stream s);
/* From "stdout"/"stderr"; false for anything else. */
bool metric_stream_from_name(const char *s, enum metric_stream *out);

/* True for a name gpuplan records itself (wall_time_s): a metric of that
 * name would be listed twice by `gpuplan compare`. */
bool metric_name_reserved(const char *name);

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
 * with why (a back-reference, a pattern too large, a syntax error, no
 * capture group). */
int metric_compile(struct metric *m, const char *regex, char *why,
		   size_t len);

/*
 * The first group of the last match of m in one line of n bytes (NUL
 * bytes inside it are ordinary bytes; line[n] must be '\0').  `continued`:
 * the line is the rest of one cut short, so '^' does not match at its
 * start.  Returns true with *group set (rm_so -1 when the group took no
 * part in the match), false when nothing matched.
 */
bool metric_last_match(const struct metric *m, const char *line, size_t n,
		       bool continued, regmatch_t *group);

void metric_free(struct metric *m);

#endif

/*
 * capture.h - the metrics' figures taken from a command's output as it
 * arrives: chunks of stdout and stderr in any order and of any size, fed
 * by exec.c (or by a test or the fuzz harness).
 *
 * Each stream is cut into lines of its own, a line ending at '\n' or '\r'
 * (a progress bar's updates are lines), so stderr bytes arriving in the
 * middle of a stdout line never split it, and the result does not depend
 * on how the bytes were chunked.  Each line is matched once, when it is
 * complete, against every metric that reads its stream (metric.h): the
 * work is linear in the output, and the memory one line per stream
 * whatever the output's size.  A line longer than CAPTURE_LINE_MAX bytes
 * is matched in pieces of that size ('^' matching only at the first).
 * NUL bytes are ordinary bytes of a line: they hide nothing.
 *
 * A metric's value is the first group of the last match in the last
 * matching line; lines complete in the order their ends arrive, and at
 * the end an unfinished last line of stdout completes before stderr's.
 *
 * Ownership: a capture points to the metrics it was made with (they must
 * outlive it) and owns its line buffers; free with capture_free.
 */
#ifndef GPUPLAN_RUN_CAPTURE_H
#define GPUPLAN_RUN_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "run/metric.h"

#define CAPTURE_LINE_MAX (64u << 10)	/* bytes of a line matched at once */
#define CAPTURE_GROUP_MAX 64		/* a figure's text, NUL included */

enum capture_stream { CAPTURE_STDOUT, CAPTURE_STDERR };

/* The last match of one metric so far. */
struct capture_hit {
	bool found;
	bool group_set;		/* the first group took part in the match */
	size_t group_len;	/* its length, which may exceed what is kept */
	char group[CAPTURE_GROUP_MAX];	/* its first bytes, NUL-ended */
};

struct capture_line {
	char *buf;		/* NUL-ended */
	size_t len, cap;
	bool continued;		/* the rest of a line cut at CAPTURE_LINE_MAX */
};

struct capture {
	const struct metric *metrics;
	size_t n_metrics;
	struct capture_hit *hits;	/* one per metric */
	struct capture_line line[2];	/* by enum capture_stream */
};

void capture_init(struct capture *c, const struct metric *metrics,
		  size_t n_metrics);

/* n bytes of one stream, as they arrived. */
void capture_feed(struct capture *c, enum capture_stream s, const char *b,
		  size_t n);

/* The stream ended (or is read no more): its unfinished last line counts
 * as a line.  Feeding it again afterwards starts a new line. */
void capture_close(struct capture *c, enum capture_stream s);

/* Both streams closed, stdout first. */
void capture_end(struct capture *c);

/*
 * Metric i's figure: 1 found (in *out), 0 no line matched, -1 the last
 * match's first group is not a finite decimal number (why says what it
 * held).
 */
int capture_value(const struct capture *c, size_t i, double *out, char *why,
		  size_t len);

void capture_free(struct capture *c);

#endif

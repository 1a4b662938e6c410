/*
 * backlog.h - output read from a command's pipes and not yet matched:
 * chunks of either stream in the order they arrived, with each stream's
 * end in its place.  exec.c empties the pipes as fast as the command
 * fills them into here, and matches (capture.h) in between, a slice at a
 * time, when the pipes are quiet: matching is the slower of the two (64
 * patterns over a chatty log), and a command blocked on a full pipe would
 * count gpuplan's matching in its own time.  Past BACKLOG_MAX bytes
 * waiting, reading waits for matching instead, so memory stays bounded.
 *
 * Ownership: a backlog owns its buffers; free with backlog_free.
 */
#ifndef GPUPLAN_RUN_BACKLOG_H
#define GPUPLAN_RUN_BACKLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "run/capture.h"

#define BACKLOG_MAX (64u << 20)	/* bytes waiting before reading waits */
#define BACKLOG_SLICE (8u << 10)	/* bytes x metrics matched a step: ~0.2 ms */

struct backlog_chunk {
	enum capture_stream stream;
	size_t n;		/* bytes; 0 with `end` */
	bool end;		/* the stream ended here */
};

struct backlog {
	char *bytes;		/* bytes[head, len) wait, in chunk order */
	size_t head, len, cap;
	struct backlog_chunk *chunk;	/* chunk[first, n) wait */
	size_t first, n, chunk_cap;
};

void backlog_init(struct backlog *q);
void backlog_add(struct backlog *q, enum capture_stream s, const char *b,
		 size_t n);
/* Stream s ended after what was added so far. */
void backlog_end(struct backlog *q, enum capture_stream s);
/* Bytes waiting (ends not counted). */
size_t backlog_waiting(const struct backlog *q);
bool backlog_empty(const struct backlog *q);
/* Feeds c the oldest bytes, about BACKLOG_SLICE / metrics of them, and
 * closes the streams whose end is met. */
void backlog_step(struct backlog *q, struct capture *c);
/* Feeds c everything waiting. */
void backlog_flush(struct backlog *q, struct capture *c);
void backlog_free(struct backlog *q);

#endif

/*
 * backlog.c - output waiting to be matched; see backlog.h.
 */
#include "run/backlog.h"

#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

void backlog_init(struct backlog *q)
{
	memset(q, 0, sizeof(*q));
}

static void push_chunk(struct backlog *q, struct backlog_chunk c)
{
	xgrow((void **)&q->chunk, &q->chunk_cap, q->n + 1, sizeof(*q->chunk));
	q->chunk[q->n++] = c;
}

void backlog_add(struct backlog *q, enum capture_stream s, const char *b,
		 size_t n)
{
	if (n == 0)
		return;
	xgrow((void **)&q->bytes, &q->cap, q->len + n, 1);
	memcpy(q->bytes + q->len, b, n);
	q->len += n;
	struct backlog_chunk *last = q->n > q->first ? &q->chunk[q->n - 1] : NULL;
	if (last && last->stream == s && !last->end)
		last->n += n;	/* one read after another of the same stream */
	else
		push_chunk(q, (struct backlog_chunk){s, n, false});
}

void backlog_end(struct backlog *q, enum capture_stream s)
{
	push_chunk(q, (struct backlog_chunk){s, 0, true});
}

size_t backlog_waiting(const struct backlog *q)
{
	return q->len - q->head;
}

bool backlog_empty(const struct backlog *q)
{
	return q->first == q->n;
}

/* Feeds c up to `budget` bytes from the front; the buffers are reused
 * from the start once everything waiting has been fed. */
static void feed_front(struct backlog *q, struct capture *c, size_t budget)
{
	while (q->first < q->n && budget > 0) {
		struct backlog_chunk *k = &q->chunk[q->first];
		size_t take = k->n < budget ? k->n : budget;
		if (k->end)
			capture_close(c, k->stream);
		else
			capture_feed(c, k->stream, q->bytes + q->head, take);
		q->head += take;
		k->n -= take;
		budget -= take;
		if (k->n == 0)
			q->first++;
	}
	if (q->first == q->n)
		q->first = q->n = q->head = q->len = 0;
}

void backlog_step(struct backlog *q, struct capture *c)
{
	size_t budget = BACKLOG_SLICE / (c->n_metrics ? c->n_metrics : 1);
	feed_front(q, c, budget ? budget : 1);
}

void backlog_flush(struct backlog *q, struct capture *c)
{
	feed_front(q, c, (size_t)-1);
}

void backlog_free(struct backlog *q)
{
	free(q->bytes);
	free(q->chunk);
	memset(q, 0, sizeof(*q));
}

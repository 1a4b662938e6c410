/*
 * capture.c - figures from output chunks, line by line; see capture.h.
 */
#include "run/capture.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

void capture_init(struct capture *c, const struct metric *metrics,
		  size_t n_metrics)
{
	memset(c, 0, sizeof(*c));
	c->metrics = metrics;
	c->n_metrics = n_metrics;
	c->hits = xcalloc(n_metrics + 1, sizeof(*c->hits));
}

static bool reads_stream(const struct metric *m, enum capture_stream s)
{
	return m->stream == METRIC_ANY_STREAM ||
	       (m->stream == METRIC_STDOUT) == (s == CAPTURE_STDOUT);
}

static void remember(struct capture_hit *h, const char *line,
		     const regmatch_t *g)
{
	h->found = true;
	h->group_set = g->rm_so >= 0;
	h->group_len = h->group_set ? (size_t)(g->rm_eo - g->rm_so) : 0;
	size_t keep = h->group_len < CAPTURE_GROUP_MAX ? h->group_len
						       : CAPTURE_GROUP_MAX - 1;
	if (h->group_set)
		memcpy(h->group, line + g->rm_so, keep);
	h->group[keep] = '\0';
}

/* The line gathered for stream s, matched by every metric reading s, then
 * emptied; `cut`: it was cut at CAPTURE_LINE_MAX and goes on. */
static void finish_line(struct capture *c, enum capture_stream s, bool cut)
{
	struct capture_line *l = &c->line[s];
	for (size_t i = 0; i < c->n_metrics; i++) {
		regmatch_t g;
		if (reads_stream(&c->metrics[i], s) &&
		    metric_last_match(&c->metrics[i], l->buf ? l->buf : "",
				      l->len, l->continued, &g))
			remember(&c->hits[i], l->buf, &g);
	}
	l->len = 0;
	if (l->buf)
		l->buf[0] = '\0';
	l->continued = cut;
}

static void append(struct capture_line *l, const char *b, size_t n)
{
	if (l->len + n + 1 > l->cap) {
		while (l->len + n + 1 > l->cap)
			l->cap = l->cap ? 2 * l->cap : 256;
		l->buf = xrealloc(l->buf, l->cap);
	}
	memcpy(l->buf + l->len, b, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

static bool is_line_end(char ch)
{
	return ch == '\n' || ch == '\r';
}

void capture_feed(struct capture *c, enum capture_stream s, const char *b,
		  size_t n)
{
	struct capture_line *l = &c->line[s];
	while (n > 0) {
		size_t room = CAPTURE_LINE_MAX - l->len;
		size_t limit = n < room ? n : room, k = 0;
		while (k < limit && !is_line_end(b[k]))
			k++;
		append(l, b, k);
		if (k < limit) {	/* a line's end */
			finish_line(c, s, false);
			k++;
		} else if (k == room) {	/* a line too long: this piece alone */
			finish_line(c, s, true);
		}
		b += k;
		n -= k;
	}
}

void capture_close(struct capture *c, enum capture_stream s)
{
	if (c->line[s].len > 0)
		finish_line(c, s, false);
	c->line[s].continued = false;
}

void capture_end(struct capture *c)
{
	capture_close(c, CAPTURE_STDOUT);
	capture_close(c, CAPTURE_STDERR);
}

int capture_value(const struct capture *c, size_t i, double *out, char *why,
		  size_t len)
{
	const struct capture_hit *h = &c->hits[i];
	if (!h->found)
		return 0;
	size_t n = h->group_len;
	if (!h->group_set || n == 0 || n >= CAPTURE_GROUP_MAX) {
		snprintf(why, len, "the capture group matched %s",
			 !h->group_set ? "nothing"
			 : n ? "over 63 characters" : "an empty string");
		return -1;
	}
	char *end = NULL;
	errno = 0;
	double v = strtod(h->group, &end);
	bool decimal = strspn(h->group, "0123456789.eE+-") == n;
	if (!decimal || *end || errno == ERANGE || !isfinite(v)) {
		snprintf(why, len, "the capture group holds '%s', not a number",
			 h->group);
		return -1;
	}
	*out = v;
	return 1;
}

void capture_free(struct capture *c)
{
	free(c->hits);
	free(c->line[0].buf);
	free(c->line[1].buf);
	memset(c, 0, sizeof(*c));
}

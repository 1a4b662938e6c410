/*
 * fuzz_capture.c - `gpuplan run`'s capture (src/run/capture.c and
 * backlog.c): a fake command's output, fed in chunks across both streams,
 * as exec.c feeds it.
 *
 * The input is a list of chunks.  Each starts with a header byte h: the
 * stream is h & 1 (stdout, stderr), bit 1 asks for a backlog step after
 * the chunk, and the chunk holds the next (h >> 2) + 1 bytes (fewer at the
 * input's end).  The metrics are a fixed set of realistic patterns (the
 * bound on time is the capture's, not glibc's on any pattern), reading
 * either stream, stdout alone or stderr alone, one anchored, one that
 * may match the empty string.
 *
 * Besides "no crash": every metric's result (found or not, its value, its
 * message) is the same
 *   - fed directly in the input's chunks, fed a byte at a time in the same
 *     order, and fed through a backlog stepped where the input says (the
 *     chunking never matters);
 *   - for a metric of one stream, fed that stream's bytes in one piece
 *     (the other stream never matters);
 * and a value found is finite.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "run/backlog.h"
#include "run/capture.h"

static const char *const specs[] = {
	"throughput=throughput: ([0-9.]+)",
	"loss:stdout=^loss ([-0-9.eE+]+)$",
	"err:lower:stderr=error rate ([-0-9.eE+]+)",
	"digits:lower=([0-9]*)",
	"last:higher:stdout=([0-9]+)[^0-9]*$",
	"tokens_per_s=([0-9.]+) tokens/s",
};
#define N_METRICS (sizeof(specs) / sizeof(specs[0]))

static struct metric metrics[N_METRICS];
static int ready;

static void compile_once(void)
{
	char why[400];
	for (size_t i = 0; i < N_METRICS && !ready; i++)
		if (metric_parse(specs[i], &metrics[i], why, sizeof(why)) < 0)
			fuzz_fail("metric_parse", "%s", why);
	ready = 1;
}

struct result {
	int rc;
	double v;
	char why[200];
};

static void results_of(const struct capture *c, struct result *out)
{
	for (size_t i = 0; i < N_METRICS; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].rc = capture_value(c, i, &out[i].v, out[i].why,
					  sizeof(out[i].why));
		if (out[i].rc == 1 && !isfinite(out[i].v))
			fuzz_fail("capture_value", "metric '%s' found a value that is not finite",
				  metrics[i].name);
	}
}

static void same(const struct result *a, const struct result *b, size_t i,
		 const char *how)
{
	if (a->rc != b->rc || (a->rc == 1 && a->v != b->v) ||
	    (a->rc == -1 && strcmp(a->why, b->why) != 0))
		fuzz_fail("capture", "metric '%s': %s gives %d (%.17g, %s), the input's chunks %d (%.17g, %s)",
			  metrics[i].name, how, b->rc, b->v, b->why, a->rc,
			  a->v, a->why);
}

/* One chunk of the input: its stream, bytes, and whether a backlog step
 * follows; false at the input's end. */
struct chunk {
	enum capture_stream stream;
	const char *b;
	size_t n;
	bool step;
};

static bool next_chunk(const uint8_t **p, const uint8_t *end, struct chunk *k)
{
	if (*p >= end)
		return false;
	uint8_t h = *(*p)++;
	size_t want = (size_t)(h >> 2) + 1, left = (size_t)(end - *p);
	k->stream = (h & 1) ? CAPTURE_STDERR : CAPTURE_STDOUT;
	k->step = (h & 2) != 0;
	k->b = (const char *)*p;
	k->n = want < left ? want : left;
	*p += k->n;
	return true;
}

/* The chunks as they come; byte_by_byte: each chunk a byte at a time. */
static void direct(const uint8_t *data, size_t size, bool byte_by_byte,
		   struct result *out)
{
	struct capture c;
	capture_init(&c, metrics, N_METRICS);
	const uint8_t *p = data;
	struct chunk k;
	while (next_chunk(&p, data + size, &k))
		for (size_t i = 0; i < k.n; i += byte_by_byte ? 1 : k.n)
			capture_feed(&c, k.stream, k.b + i, byte_by_byte ? 1 : k.n);
	capture_end(&c);
	results_of(&c, out);
	capture_free(&c);
}

/* Through a backlog, as exec.c does: added as read, stepped where the
 * input says, the streams' ends queued, flushed at the end. */
static void through_backlog(const uint8_t *data, size_t size,
			    struct result *out)
{
	struct capture c;
	struct backlog q;
	capture_init(&c, metrics, N_METRICS);
	backlog_init(&q);
	const uint8_t *p = data;
	struct chunk k;
	while (next_chunk(&p, data + size, &k)) {
		backlog_add(&q, k.stream, k.b, k.n);
		if (k.step)
			backlog_step(&q, &c);
	}
	backlog_end(&q, CAPTURE_STDOUT);
	backlog_end(&q, CAPTURE_STDERR);
	backlog_flush(&q, &c);
	if (!backlog_empty(&q) || backlog_waiting(&q))
		fuzz_fail("backlog_flush", "bytes left waiting after a flush");
	results_of(&c, out);
	backlog_free(&q);
	capture_free(&c);
}

/* One stream's bytes gathered and fed in one piece. */
static void one_stream(const uint8_t *data, size_t size,
		       enum capture_stream s, struct result *out)
{
	char *all = malloc(size + 1);
	size_t n = 0;
	const uint8_t *p = data;
	struct chunk k;
	while (next_chunk(&p, data + size, &k))
		if (k.stream == s) {
			memcpy(all + n, k.b, k.n);
			n += k.n;
		}
	struct capture c;
	capture_init(&c, metrics, N_METRICS);
	capture_feed(&c, s, all, n);
	capture_end(&c);
	results_of(&c, out);
	capture_free(&c);
	free(all);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	compile_once();
	struct result chunks[N_METRICS], bytes[N_METRICS], queued[N_METRICS],
		alone[2][N_METRICS];
	direct(data, size, false, chunks);
	direct(data, size, true, bytes);
	through_backlog(data, size, queued);
	one_stream(data, size, CAPTURE_STDOUT, alone[0]);
	one_stream(data, size, CAPTURE_STDERR, alone[1]);
	for (size_t i = 0; i < N_METRICS; i++) {
		same(&chunks[i], &bytes[i], i, "a byte at a time");
		same(&chunks[i], &queued[i], i, "through a backlog");
		if (metrics[i].stream == METRIC_STDOUT)
			same(&chunks[i], &alone[0][i], i, "stdout alone in one piece");
		if (metrics[i].stream == METRIC_STDERR)
			same(&chunks[i], &alone[1][i], i, "stderr alone in one piece");
	}
	return 0;
}

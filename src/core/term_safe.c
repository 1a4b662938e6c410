/*
 * term_safe.c - escaping what a terminal would obey (see term_safe.h).
 *
 * fopencookie is a glibc extension: this file alone asks for it.
 */
#define _GNU_SOURCE
#include "term_safe.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "utf8.h"
#include "xalloc.h"

static bool is_bidi_control(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

/* What needs escaping at p: NULL for nothing, else the reason.  *len is
 * the character's length (1 for a byte that is not UTF-8). */
static const char *classify(const unsigned char *p, size_t avail,
			    unsigned flags, int *len, uint32_t *cp)
{
	unsigned long c;
	*len = (int)utf8_next((const char *)p, avail, &c);
	if (c == UTF8_INVALID) {
		*cp = p[0];
		return "a byte that is not UTF-8";
	}
	*cp = (uint32_t)c;
	if (*cp == '\n' || *cp == '\t')
		return flags & TERM_KEEP_LINES ? NULL
		       : *cp == '\n'	       ? "a line break"
					       : "a tab";
	if (*cp == 0x1b)
		return "an escape character";
	if (*cp < 0x20 || *cp == 0x7f || (*cp >= 0x80 && *cp <= 0x9f))
		return "a control character";
	if (is_bidi_control(*cp))
		return "a bidirectional override";
	return NULL;
}

static int spell(const char *reason, int len, uint32_t cp, char *buf)
{
	(void)len;
	if (strcmp(reason, "a byte that is not UTF-8") == 0)
		return sprintf(buf, "\\x%02x", (unsigned)cp);
	if (cp == '\n')
		return sprintf(buf, "\\n");
	if (cp == '\t')
		return sprintf(buf, "\\t");
	if (cp == '\r')
		return sprintf(buf, "\\r");
	if (cp < 0x80)
		return sprintf(buf, "\\x%02x", (unsigned)cp);
	return sprintf(buf, "\\u%04x", (unsigned)cp);
}

/* Escapes n bytes of in into out (room for outlen - 1 bytes). */
static size_t escape_bytes(const unsigned char *in, size_t n, char *out,
			   size_t outlen, unsigned flags)
{
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		int len;
		uint32_t cp;
		const char *why = classify(in + i, n - i, flags, &len, &cp);
		char esc[16];
		int k = why ? spell(why, len, cp, esc) : len;
		if (o + (size_t)k + 1 > outlen)
			break;
		memcpy(out + o, why ? (const void *)esc : (const void *)(in + i),
		       (size_t)k);
		o += (size_t)k;
		i += (size_t)len;
	}
	if (outlen)
		out[o] = '\0';
	return o;
}

size_t term_escape_flags(const char *in, char *out, size_t outlen,
			 unsigned flags)
{
	return escape_bytes((const unsigned char *)in, strlen(in), out, outlen,
			    flags);
}

size_t term_escape(const char *in, char *out, size_t outlen)
{
	return term_escape_flags(in, out, outlen, 0);
}

char *term_escape_dup(const char *in, unsigned flags)
{
	size_t cap = 6 * strlen(in) + 1;	/* "\u202e" is 6 for 3 bytes */
	char *out = xmalloc(cap);
	term_escape_flags(in, out, cap, flags);
	return out;
}

long text_control_char(const char *in, unsigned flags, const char **what)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t n = strlen(in);
	for (size_t i = 0; i < n;) {
		int len;
		uint32_t cp;
		const char *why = classify(p + i, n - i, flags, &len, &cp);
		if (why) {
			if (what)
				*what = why;
			return (long)i;
		}
		i += (size_t)len;
	}
	return -1;
}

bool term_needs_escape(const char *in, unsigned flags)
{
	return text_control_char(in, flags, NULL) >= 0;
}

/* ---- stderr through the filter ---- */

struct safe_stream {
	int fd;
	unsigned char held[4];	/* the start of a character split across writes */
	size_t n_held;
};

static int write_fd(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static ssize_t safe_write(void *cookie, const char *buf, size_t size)
{
	struct safe_stream *s = cookie;
	unsigned char *in = xmalloc(s->n_held + size);
	memcpy(in, s->held, s->n_held);
	memcpy(in + s->n_held, buf, size);
	size_t n = s->n_held + size, whole = n;
	s->n_held = 0;
	/* Hold back an unfinished UTF-8 character for the next write: a lead
	 * byte among the last three whose sequence runs past the end. */
	for (size_t back = 1; back <= 3 && back <= n; back++) {
		if ((in[n - back] & 0xc0) == 0x80)
			continue;
		if (utf8_lead_length(in[n - back]) > back) {
			whole = n - back;
			memcpy(s->held, in + whole, back);
			s->n_held = back;
		}
		break;
	}
	size_t cap = 6 * whole + 1;
	char *out = xmalloc(cap);
	size_t len = escape_bytes(in, whole, out, cap, TERM_KEEP_LINES);
	int rc = write_fd(s->fd, out, len);
	free(out);
	free(in);
	return rc < 0 ? -1 : (ssize_t)size;
}

static int safe_close(void *cookie)
{
	struct safe_stream *s = cookie;
	if (s->n_held) {
		char out[32];
		size_t len = escape_bytes(s->held, s->n_held, out, sizeof(out), 0);
		write_fd(s->fd, out, len);
		s->n_held = 0;
	}
	return 0;
}

/* The filtered stderr's state.  Static, not allocated: the stream lives
 * as long as the process and is never closed, and a heap cookie held only
 * by glibc's FILE was reported by LeakSanitizer as a leak at every exit
 * of every sanitizer build (found by the fuzz build's seed commands). */
static struct safe_stream stderr_state;

int term_safe_stderr(void)
{
	struct safe_stream *s = &stderr_state;
	s->fd = STDERR_FILENO;
	s->n_held = 0;
	cookie_io_functions_t io = {.write = safe_write, .close = safe_close};
	FILE *f = fopencookie(s, "w", io);
	if (!f)
		return -1;
	setvbuf(f, NULL, _IONBF, 0);
	fflush(stderr);
	stderr = f;
	return 0;
}

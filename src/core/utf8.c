/*
 * utf8.c - decoding and cleaning UTF-8 text; see utf8.h.
 */
#include "utf8.h"

#include <string.h>

#include "xalloc.h"

bool utf8_noncharacter(unsigned long cp)
{
	return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe;
}

/* Length of the sequence lead byte b starts, its payload bits in *c and the
 * smallest code point that length may encode; 0 when b cannot lead. */
static size_t lead(unsigned char b, unsigned long *c, unsigned long *min)
{
	if ((b & 0xe0) == 0xc0) {
		*c = b & 0x1f;
		*min = 0x80;
		return 2;
	}
	if ((b & 0xf0) == 0xe0) {
		*c = b & 0x0f;
		*min = 0x800;
		return 3;
	}
	if ((b & 0xf8) == 0xf0) {
		*c = b & 0x07;
		*min = 0x10000;
		return 4;
	}
	return 0;
}

void utf8_trim_partial(char *s)
{
	size_t n = strlen(s);
	for (size_t back = 1; back <= 3 && back <= n; back++) {
		unsigned char b = (unsigned char)s[n - back];
		if ((b & 0xc0) == 0x80)
			continue;
		if (utf8_lead_length(b) > back)
			s[n - back] = '\0';
		return;
	}
}

size_t utf8_lead_length(unsigned char b)
{
	unsigned long c, min;
	return b < 0x80 ? 1 : lead(b, &c, &min);
}

size_t utf8_next(const char *s, size_t n, unsigned long *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned long c, min;
	size_t len;

	*cp = UTF8_INVALID;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	len = lead(u[0], &c, &min);
	if (!len || len > n)
		return 1;
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 1;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 1;
	*cp = utf8_noncharacter(c) ? 0xfffd : c;
	return len;
}

size_t utf8_put(unsigned long cp, char *out)
{
	unsigned char *o = (unsigned char *)out;

	if (cp < 0x80) {
		o[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (unsigned char)(0xc0 | cp >> 6);
		o[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12);
		o[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (unsigned char)(0xf0 | cp >> 18);
	o[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Does the character at s (l bytes, decoded as cp) go to cairo as it
 * is?  Not a malformed byte, nor a noncharacter utf8_next decoded as
 * U+FFFD (a real U+FFFD is kept). */
static bool kept(const char *s, size_t l, unsigned long cp)
{
	return cp != UTF8_INVALID &&
	       (cp != 0xfffd || (l == 3 && !memcmp(s, "\xef\xbf\xbd", 3)));
}

/* The bytes the character at s (l bytes, decoded as cp) becomes in a
 * clean copy: itself, or the replacement.  Returns their count; writes
 * them to out when out is not NULL. */
static size_t clean_char(const char *s, size_t l, unsigned long cp,
			 unsigned long replacement, char *out)
{
	char r[4];
	if (kept(s, l, cp)) {
		if (out)
			memcpy(out, s, l);
		return l;
	}
	size_t k = utf8_put(replacement, r);
	if (out)
		memcpy(out, r, k);
	return k;
}

size_t utf8_clean(char *out, const char *s, size_t len,
		  unsigned long replacement)
{
	size_t o = 0;
	unsigned long cp;

	for (size_t i = 0; i < len;) {
		size_t l = utf8_next(s + i, len - i, &cp);

		o += clean_char(s + i, l, cp, replacement, out + o);
		i += l;
	}
	return o;
}

void utf8_clean_into(char *dst, size_t cap, const char *s,
		     unsigned long replacement)
{
	size_t n = s ? strlen(s) : 0, o = 0;
	unsigned long cp;

	if (cap == 0)
		return;
	for (size_t i = 0; i < n;) {
		size_t l = utf8_next(s + i, n - i, &cp);
		size_t k = clean_char(s + i, l, cp, replacement, NULL);

		if (o + k >= cap)
			break;
		o += clean_char(s + i, l, cp, replacement, dst + o);
		i += l;
	}
	dst[o] = '\0';
}

char *utf8_clean_dup(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	char *out = xmalloc(3 * n + 1);

	out[n ? utf8_clean(out, s, n, 0xfffd) : 0] = '\0';
	return out;
}

bool utf8_drawable(const char *s)
{
	size_t n = strlen(s);
	unsigned long cp;

	for (size_t i = 0; i < n;) {
		size_t l = utf8_next(s + i, n - i, &cp);

		if (!kept(s + i, l, cp))
			return false;
		i += l;
	}
	return true;
}

size_t utf8_bounds(const char *s, size_t n, size_t *bounds)
{
	size_t k = 0;
	unsigned long cp;
	bounds[0] = 0;
	for (size_t i = 0; i < n;) {
		i += utf8_next(s + i, n - i, &cp);
		bounds[++k] = i;
	}
	return k;
}

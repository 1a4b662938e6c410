/*
 * json_read.c - JSON checked and read in place; see json_read.h.
 *
 * jdoc_check is the only code that looks at unchecked bytes: an
 * iterative scanner (no recursion, so no nesting can exhaust the C stack)
 * with the open containers on a stack of JSON_MAX_DEPTH bytes.  The
 * readers below it trust the checked document and stay short.
 */
#include "json_read.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "core/utf8.h"

/* ---- checking ----------------------------------------------------------- */

struct check {
	const struct jdoc *d;
	size_t i;		/* where the scan is */
	size_t err_at;
	char *why;
	size_t len;
	bool failed;
};

static void fail(struct check *c, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct check *c, size_t at, const char *fmt, ...)
{
	va_list ap;
	if (c->failed)
		return;
	c->failed = true;
	c->err_at = at;
	va_start(ap, fmt);
	vsnprintf(c->why, c->len, fmt, ap);
	va_end(ap);
}

static size_t skip_ws(const struct jdoc *d, size_t i)
{
	while (i < d->n && (d->s[i] == ' ' || d->s[i] == '\t' ||
			    d->s[i] == '\n' || d->s[i] == '\r'))
		i++;
	return i;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* What is at offset i, for "found ...": the end of the file, a NUL or a
 * control character by its code, a character quoted, or the byte that is
 * not UTF-8. */
static const char *describe(const struct jdoc *d, size_t i, char *buf,
			    size_t len)
{
	unsigned char b;
	unsigned long cp;
	if (i >= d->n)
		return "the end of the file";
	b = (unsigned char)d->s[i];
	if (b == 0)
		snprintf(buf, len, "a NUL byte");
	else if (b < 0x20 || b == 0x7f)
		snprintf(buf, len, "a control character (U+%04X)", b);
	else if (b < 0x80)
		snprintf(buf, len, "'%c'", b);
	else {
		size_t l = utf8_next(d->s + i, d->n - i, &cp);
		if (cp == UTF8_INVALID)
			snprintf(buf, len, "a byte that is not UTF-8 (0x%02X)", b);
		else if (cp == 0xfeff)	/* invisible when quoted */
			snprintf(buf, len, "a byte order mark (U+FEFF)");
		else
			snprintf(buf, len, "'%.*s'", (int)l, d->s + i);
	}
	return buf;
}

static int hex4(const char *s)
{
	int v = 0;
	for (int k = 0; k < 4; k++) {
		char h = s[k];
		int x = is_digit(h) ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
			: h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
		if (x < 0)
			return -1;
		v = v << 4 | x;
	}
	return v;
}

/* A \u escape at i (the backslash): its code point, a surrogate pair
 * counted as one, in *cp; the offset after it in *next. */
static bool check_unicode(struct check *c, size_t i, size_t *next)
{
	const char *s = c->d->s;
	size_t n = c->d->n;
	int v = i + 6 <= n ? hex4(s + i + 2) : -1;
	if (v < 0) {
		fail(c, i, "'\\u' in a string must be followed by four hex digits");
		return false;
	}
	if (v == 0) {
		fail(c, i, "a NUL character (\\u0000) in a string");
		return false;
	}
	if (v >= 0xdc00 && v <= 0xdfff) {
		fail(c, i, "an unpaired surrogate \\u%04X in a string", (unsigned)v);
		return false;
	}
	if (v >= 0xd800 && v <= 0xdbff) {
		int w = i + 12 <= n && s[i + 6] == '\\' && s[i + 7] == 'u'
			? hex4(s + i + 8) : -1;
		if (w < 0xdc00 || w > 0xdfff) {
			fail(c, i, "an unpaired surrogate \\u%04X in a string",
			     (unsigned)v);
			return false;
		}
		*next = i + 12;
		return true;
	}
	*next = i + 6;
	return true;
}

/* A string at c->i (its opening quote); c->i moves past the closing one. */
static bool check_string(struct check *c)
{
	const char *s = c->d->s;
	size_t n = c->d->n, start = c->i, i = start + 1;
	unsigned long cp;
	while (i < n) {
		unsigned char b = (unsigned char)s[i];
		if (b == '"') {
			c->i = i + 1;
			return true;
		}
		if (b == '\\') {
			char e = i + 1 < n ? s[i + 1] : '\0';
			if (e == 'u') {
				if (!check_unicode(c, i, &i))
					return false;
			} else if (e && strchr("\"\\/bfnrt", e)) {
				i += 2;
			} else {
				char what[48];
				fail(c, i, "an unknown escape in a string: '\\' followed by %s",
				     describe(c->d, i + 1, what, sizeof(what)));
				return false;
			}
			continue;
		}
		if (b < 0x20) {
			if (b == 0)
				fail(c, i, "a NUL byte in a string");
			else
				fail(c, i, "a control character (U+%04X) in a string: "
				     "JSON writes it as \\u%04X", b, b);
			return false;
		}
		size_t l = b < 0x80 ? 1 : utf8_next(s + i, n - i, &cp);
		if (b >= 0x80 && cp == UTF8_INVALID) {
			fail(c, i, "a byte that is not UTF-8 (0x%02X) in a string", b);
			return false;
		}
		i += l;
	}
	fail(c, start, "a string that is never closed (no '\"' before the end of the file)");
	return false;
}

/* Could the number s[0..len) (JSON's grammar) be past DBL_MAX?  Not with
 * fewer than 300 digits and an exponent of at most two digits: strtod,
 * the cost of checking, is then skipped. */
static bool may_overflow(const char *s, size_t len)
{
	size_t digits = 0, exp_digits = 0;
	bool in_exp = false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == 'e' || s[i] == 'E')
			in_exp = true;
		else if (is_digit(s[i]))
			*(in_exp ? &exp_digits : &digits) += 1;
	}
	return digits >= 300 || exp_digits > 2;
}

/* A number at c->i: JSON's grammar, and a value a double holds. */
static bool check_number(struct check *c)
{
	const char *s = c->d->s;
	size_t n = c->d->n, start = c->i, i = start;
	if (s[i] == '-')
		i++;
	if (i >= n || !is_digit(s[i])) {
		fail(c, start, "a malformed number: '-' must be followed by a digit");
		return false;
	}
	if (s[i] == '0' && i + 1 < n && is_digit(s[i + 1])) {
		fail(c, start, "a malformed number: a leading zero");
		return false;
	}
	while (i < n && is_digit(s[i]))
		i++;
	if (i < n && s[i] == '.') {
		if (++i >= n || !is_digit(s[i])) {
			fail(c, start, "a malformed number: a digit must follow the '.'");
			return false;
		}
		while (i < n && is_digit(s[i]))
			i++;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= n || !is_digit(s[i])) {
			fail(c, start, "a malformed number: a digit must follow the exponent's 'e'");
			return false;
		}
		while (i < n && is_digit(s[i]))
			i++;
	}
	c->i = i;
	if (!may_overflow(s + start, i - start))
		return true;
	char *end;
	double v = strtod(s + start, &end);
	if (end != s + i || !isfinite(v)) {
		fail(c, start, "a number out of range: beyond the largest a double holds (1.8e308)");
		return false;
	}
	return true;
}

static bool check_literal(struct check *c)
{
	static const char *const words[] = {"true", "false", "null"};
	for (size_t k = 0; k < 3; k++) {
		size_t l = strlen(words[k]);
		if (c->i + l <= c->d->n && !memcmp(c->d->s + c->i, words[k], l)) {
			c->i += l;
			return true;
		}
	}
	return false;
}

/* A scalar at c->i, or a bad start; containers are the caller's. */
static bool check_scalar(struct check *c)
{
	char what[48];
	char b = c->d->s[c->i];
	if (b == '"')
		return check_string(c);
	if (b == '-' || is_digit(b))
		return check_number(c);
	if ((b == 't' || b == 'f' || b == 'n') && check_literal(c))
		return true;
	fail(c, c->i, "expected a value (an object, a list, a string, a number, "
	     "true, false or null), found %s",
	     describe(c->d, c->i, what, sizeof(what)));
	return false;
}

/* Remembers the container from start to end when it is large. */
static void span_add(struct jdoc *d, size_t start, size_t end)
{
	if (end - start < JSON_SPAN_MIN)
		return;
	xgrow((void **)&d->spans, &d->cap_spans, d->n_spans + 1, sizeof(*d->spans));
	d->spans[d->n_spans++] = (struct jspan){start, end};
}

static int by_start(const void *a, const void *b)
{
	size_t x = ((const struct jspan *)a)->start, y = ((const struct jspan *)b)->start;
	return (x > y) - (x < y);
}

int jdoc_check(struct jdoc *d, size_t *root, size_t *at, char *why,
	       size_t whylen)
{
	struct check c = {d, 0, 0, why, whylen, false};
	char stack[JSON_MAX_DEPTH], what[48];
	size_t starts[JSON_MAX_DEPTH];
	size_t depth = 0;
	d->spans = NULL;
	d->n_spans = d->cap_spans = 0;
	const char *s = d->s;
	*root = c.i = skip_ws(d, 0);
value:
	c.i = skip_ws(d, c.i);
	if (c.i >= d->n) {
		fail(&c, c.i, "expected a value, found the end of the file");
		goto out;
	}
	if (s[c.i] == '{' || s[c.i] == '[') {
		if (depth == JSON_MAX_DEPTH) {
			fail(&c, c.i, "objects and lists nested more than %d deep",
			     JSON_MAX_DEPTH);
			goto out;
		}
		bool obj = s[c.i] == '{';
		starts[depth] = c.i;
		stack[depth++] = obj ? '}' : ']';
		c.i = skip_ws(d, c.i + 1);
		if (c.i < d->n && s[c.i] == stack[depth - 1]) {
			depth--;
			c.i++;
			goto after;
		}
		if (obj)
			goto key;
		goto value;
	}
	if (!check_scalar(&c))
		goto out;
	goto after;
key:
	if (c.i >= d->n || s[c.i] != '"') {
		fail(&c, c.i, "expected a key (a string in double quotes), found %s",
		     describe(d, c.i, what, sizeof(what)));
		goto out;
	}
	if (!check_string(&c))
		goto out;
	c.i = skip_ws(d, c.i);
	if (c.i >= d->n || s[c.i] != ':') {
		fail(&c, c.i, "expected ':' after a key, found %s",
		     describe(d, c.i, what, sizeof(what)));
		goto out;
	}
	c.i++;
	goto value;
after:
	c.i = skip_ws(d, c.i);
	if (depth == 0) {
		if (c.i < d->n)
			fail(&c, c.i, "expected the end of the file after the document, found %s",
			     describe(d, c.i, what, sizeof(what)));
		goto out;
	}
	if (c.i < d->n && s[c.i] == ',') {
		c.i = skip_ws(d, c.i + 1);
		if (stack[depth - 1] == '}')
			goto key;
		goto value;
	}
	if (c.i < d->n && s[c.i] == stack[depth - 1]) {
		depth--;
		c.i++;
		span_add(d, starts[depth], c.i);
		goto after;
	}
	fail(&c, c.i, stack[depth - 1] == '}'
		     ? "expected ',' or '}' after a member of an object, found %s"
		     : "expected ',' or ']' after an element of a list, found %s",
	     describe(d, c.i, what, sizeof(what)));
out:
	*at = c.err_at;
	if (c.failed) {
		jdoc_free(d);
		return -1;
	}
	/* inner containers close first: sorted by start for bsearch */
	if (d->n_spans)
		qsort(d->spans, d->n_spans, sizeof(*d->spans), by_start);
	return 0;
}

void jdoc_free(struct jdoc *d)
{
	free(d->spans);
	d->spans = NULL;
	d->n_spans = d->cap_spans = 0;
}

void jdoc_position(const struct jdoc *d, size_t at, int *line, int *col)
{
	size_t start = 0;
	long l = 1, k = 1;
	if (at > d->n)
		at = d->n;
	for (size_t i = 0; i < at; i++)
		if (d->s[i] == '\n') {
			l++;
			start = i + 1;
		}
	for (size_t i = start; i < at; i++)
		k += ((unsigned char)d->s[i] & 0xc0) != 0x80;
	*line = l > 2147483647L ? 2147483647 : (int)l;
	*col = k > 2147483647L ? 2147483647 : (int)k;
}

/* ---- reading a checked document -------------------------------------- */

enum jtype jtype_at(const struct jdoc *d, size_t at)
{
	switch (d->s[at]) {
	case '{': return J_OBJECT;
	case '[': return J_ARRAY;
	case '"': return J_STRING;
	case 't': return J_TRUE;
	case 'f': return J_FALSE;
	case 'n': return J_NULL;
	default: return J_NUMBER;
	}
}

const char *jtype_name(enum jtype t)
{
	static const char *const names[] = {"an object", "a list", "a string",
		"a number", "true/false", "true/false", "null"};
	return names[t];
}

double jnumber(const struct jdoc *d, size_t at)
{
	return strtod(d->s + at, NULL);
}

void jbuf_free(struct jbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

/*
 * The offset just past the string whose opening quote is at i.  A checked
 * document holds no NUL before its end, so strcspn (which glibc scans 16
 * bytes at a time) finds the next quote or backslash.
 */
static size_t string_end(const struct jdoc *d, size_t i)
{
	for (i++;; i += 2) {
		i += strcspn(d->s + i, "\"\\");
		if (d->s[i] == '"')
			return i + 1;
	}
}

/* A large container's end, from jdoc_check's spans; 0 when not there. */
static size_t span_end(const struct jdoc *d, size_t at)
{
	size_t lo = 0, hi = d->n_spans;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (d->spans[mid].start == at)
			return d->spans[mid].end;
		if (d->spans[mid].start < at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The offset just past the value at `at` (checked: brackets balance). */
static size_t value_end(const struct jdoc *d, size_t at)
{
	const char *s = d->s;
	size_t i = at, depth = 0, end;
	if (s[i] == '"')
		return string_end(d, i);
	if (s[i] != '{' && s[i] != '[')
		return i + strcspn(s + i, ",]} \t\r\n");
	if ((end = span_end(d, at)) != 0)
		return end;
	do {
		i += strcspn(s + i, "\"{}[]");
		if (s[i] == '"') {
			i = string_end(d, i);
			continue;
		}
		depth += s[i] == '{' || s[i] == '[' ? 1 : (size_t)-1;
		i++;
	} while (depth > 0);
	return i;
}

const char *jstring(const struct jdoc *d, size_t at, struct jbuf *b)
{
	size_t end = string_end(d, at) - 1, o = 0;
	xgrow((void **)&b->s, &b->cap, end - at + 1, 1);
	for (size_t i = at + 1; i < end;) {
		if (d->s[i] != '\\') {
			b->s[o++] = d->s[i++];
			continue;
		}
		char e = d->s[i + 1];
		static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
		if (e != 'u') {
			b->s[o++] = to[strchr(from, e) - from];
			i += 2;
			continue;
		}
		unsigned long cp = (unsigned long)hex4(d->s + i + 2);
		i += 6;
		if (cp >= 0xd800 && cp <= 0xdbff) {
			cp = 0x10000 + ((cp - 0xd800) << 10) +
			     ((unsigned long)hex4(d->s + i + 2) - 0xdc00);
			i += 6;
		}
		o += utf8_put(cp, b->s + o);	/* at most the 6 or 12 bytes read */
	}
	b->s[o] = '\0';
	b->len = o;
	return b->s;
}

void jiter_begin(const struct jdoc *d, size_t at, struct jiter *it)
{
	it->at = at + 1;
	it->first = true;
	it->object = d->s[at] == '{';
}

bool jiter_next(const struct jdoc *d, struct jiter *it, size_t *key_at,
		size_t *value_at)
{
	size_t i = skip_ws(d, it->at);
	if (d->s[i] == ']' || d->s[i] == '}')
		return false;
	if (!it->first)
		i = skip_ws(d, i + 1);		/* the ',' */
	if (it->object) {
		if (key_at)
			*key_at = i;
		i = skip_ws(d, string_end(d, i));
		i = skip_ws(d, i + 1);		/* the ':' */
	}
	*value_at = i;
	it->at = value_end(d, i);
	it->first = false;
	return true;
}

/*
 * utf8.h - UTF-8 decoded one way for the whole program: text as cairo will
 * draw it, as JSON will hold it (output.h, json_text) and as a terminal
 * will show it (term_safe.h).
 *
 * cairo checks every string it is given (show_text, text_extents, a font
 * family, PDF metadata) and refuses, with a context or surface error that
 * blanks everything drawn after it, any string that is not valid UTF-8 or
 * holds a code point it does not accept: surrogates, beyond U+10FFFF, and
 * the noncharacters U+FDD0..U+FDEF and U+xFFFE/U+xFFFF (its UNICODE_VALID).
 * Names reach a report from hand-edited catalogs and plans, so every
 * string is cleaned here before cairo sees it: each malformed byte and
 * each refused character becomes one replacement (U+FFFD, or '?' where a
 * chart wants plain ASCII), and valid text passes unchanged.
 * Ownership: nothing is kept; the _dup function returns a malloc'd copy.
 */
#ifndef GPUPLAN_CORE_UTF8_H
#define GPUPLAN_CORE_UTF8_H

#include <stdbool.h>
#include <stddef.h>

#define UTF8_INVALID 0x110000UL	/* beyond Unicode: a malformed byte */

/* True for the noncharacters: U+FDD0..U+FDEF and the last two code
 * points of every plane. */
bool utf8_noncharacter(unsigned long cp);

/*
 * Decodes the character at s[0..n) (n >= 1) and returns its length in
 * bytes, always >= 1.  *cp is the code point; UTF8_INVALID for a byte
 * that does not start a well-formed sequence (stray continuation byte,
 * overlong form, surrogate, beyond U+10FFFF, cut short), which then
 * counts as one byte; U+FFFD for a well-formed noncharacter, whose whole
 * sequence is consumed.  So *cp is always what a cleaned copy draws.
 */
size_t utf8_next(const char *s, size_t n, unsigned long *cp);

/* The byte offsets of the character boundaries of s[0..n) as utf8_next
 * steps through them: bounds[0] = 0, ..., bounds[k] = n, with room for
 * n + 1 in bounds; returns k, the number of characters. */
size_t utf8_bounds(const char *s, size_t n, size_t *bounds);

/* Cuts s before a last character that a fixed buffer cut short (snprintf
 * truncates bytes, not characters), so the text stays UTF-8. */
void utf8_trim_partial(char *s);

/* The length of the sequence the byte b leads (1 for ASCII, 2 to 4), or
 * 0 when b cannot lead one (a continuation byte, 0xf8 and above). */
size_t utf8_lead_length(unsigned char b);

/* Writes the UTF-8 form of cp (a valid code point) to out (4 bytes of
 * room); returns its length, 1 to 4. */
size_t utf8_put(unsigned long cp, char *out);

/*
 * Copies s[0..len) to out as text cairo accepts: each malformed byte and
 * each noncharacter becomes `replacement` (U+FFFD or '?').  out needs
 * 3 * len bytes of room; returns the bytes written (no NUL added).
 */
size_t utf8_clean(char *out, const char *s, size_t len,
		  unsigned long replacement);

/* The same into dst (cap bytes with the NUL), cut at a character
 * boundary when it does not fit. */
void utf8_clean_into(char *dst, size_t cap, const char *s,
		     unsigned long replacement);

/* A malloc'd, NUL-terminated clean copy of s (NULL: ""), U+FFFD for
 * what cairo would refuse. */
char *utf8_clean_dup(const char *s);

/* True when s needs no cleaning. */
bool utf8_drawable(const char *s);

#endif

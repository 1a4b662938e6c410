/*
 * yaml_emit.c - text written as YAML double-quoted scalars; see
 * yaml_emit.h.
 */
#include "yaml_emit.h"

#include <stdlib.h>
#include <string.h>

#include "term_safe.h"

/* Bytes in a well-formed UTF-8 sequence starting at c (1 to 4), or 0
 * when it is not one. */
static int utf8_len(const unsigned char *c)
{
	int n = *c < 0x80 ? 1 : (*c & 0xE0) == 0xC0 && *c >= 0xC2 ? 2
		: (*c & 0xF0) == 0xE0 ? 3 : (*c & 0xF8) == 0xF0 && *c <= 0xF4 ? 4 : 0;
	for (int k = 1; k < n; k++)
		if ((c[k] & 0xC0) != 0x80)
			return 0;
	return n;
}

/*
 * A YAML double-quoted scalar that any YAML reader takes back: " and \
 * escaped, C0 and C1 control characters as \xNN, and a byte that is not
 * part of well-formed UTF-8 (a Latin-1 hostname) as \xNN too, which reads
 * back as that code point (so "h\xe9te" returns as "hete" with an e-acute:
 * readable, not byte-identical).  Other UTF-8 as it is.
 */
static void emit_quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *c = (const unsigned char *)s; *c;) {
		int n = utf8_len(c);
		if (*c == '"' || *c == '\\')
			fprintf(f, "\\%c", *c);
		else if (n == 0 || *c < 0x20 || *c == 0x7f)
			fprintf(f, "\\x%02x", *c);
		else if (n == 2 && *c == 0xC2 && c[1] < 0xA0)	/* U+0080..U+009F */
			fprintf(f, "\\x%02x", c[1]);
		else
			fwrite(c, 1, (size_t)n, f);
		c += n > 0 ? n : 1;
	}
	fputc('"', f);
}

/*
 * What is written is what the loader takes back (yr_string, yr_name): a
 * control character, bidirectional override or byte that is not UTF-8 is
 * first spelt out as term_escape does ("\x1b", "\u202e"), so a plugin's
 * message or a hostname holding one cannot make a profile unreadable.
 * Text keeps its line breaks and tabs; a name does not have any, and is
 * cut (never inside an escape or a character) to the size of the field
 * the loader reads it into.
 */
void yaml_emit_text(FILE *f, const char *s)
{
	if (!term_needs_escape(s, TERM_KEEP_LINES)) {
		emit_quoted(f, s);
		return;
	}
	char *safe = term_escape_dup(s, TERM_KEEP_LINES);
	emit_quoted(f, safe);
	free(safe);
}

void yaml_emit_name(FILE *f, const char *s, size_t size)
{
	if (!term_needs_escape(s, 0) && strlen(s) < size) {
		emit_quoted(f, s);
		return;
	}
	char *safe = malloc(size ? size : 1);
	if (!safe)
		abort();
	term_escape(s, safe, size ? size : 1);
	emit_quoted(f, safe);
	free(safe);
}


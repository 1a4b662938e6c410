/*
 * term_safe.h - text from files and command lines made safe to print.
 *
 * A name, key or value may hold bytes a terminal obeys: ESC sequences that
 * move the cursor, clear the screen or retitle the window; C1 controls
 * (U+0080-U+009F, CSI among them); bidirectional overrides that reorder
 * what a reader sees.  gpuplan never prints them raw:
 *   - term_escape() spells them out ("\x1b", "\u009b", "\u202e"), as well
 *     as bytes that are not UTF-8 ("\xff"); valid UTF-8 (Chinese labels)
 *     passes through unchanged;
 *   - term_safe_stderr() puts that filter under stderr for the whole run,
 *     so every message is covered, whoever wrote the fprintf;
 *   - text_control_char() lets loaders refuse such text at load, with its
 *     position, before it reaches a plan, a table or a report.
 * Ownership: nothing here keeps a pointer; term_escape_dup() returns a
 * string the caller frees.
 */
#ifndef GPUPLAN_CORE_TERM_SAFE_H
#define GPUPLAN_CORE_TERM_SAFE_H

#include <stdbool.h>
#include <stddef.h>

enum {
	TERM_KEEP_LINES = 1,	/* pass '\n' and '\t' through (whole messages) */
};

/* Writes in, escaped, into out (always NUL-terminated when outlen > 0;
 * cut short, never inside an escape or a UTF-8 character).  Returns the
 * length written. */
size_t term_escape(const char *in, char *out, size_t outlen);
size_t term_escape_flags(const char *in, char *out, size_t outlen,
			 unsigned flags);

/* The escaped copy of in (malloc'd). */
char *term_escape_dup(const char *in, unsigned flags);

/* True when in would print differently after term_escape (flags as there). */
bool term_needs_escape(const char *in, unsigned flags);

/*
 * The byte offset of the first character a name or value may not hold
 * (C0 controls other than those flags allow, DEL, C1 controls,
 * bidirectional overrides, bytes that are not UTF-8), or -1 when there is
 * none.  *what names it for a message ("a tab", "an escape character",
 * "a bidirectional override", "a byte that is not UTF-8").
 */
long text_control_char(const char *in, unsigned flags, const char **what);

/* Replaces stderr with a stream that escapes what term_escape would, but
 * keeps newlines and tabs; unbuffered, like stderr.  Called once, first
 * thing in main.  Returns 0, or -1 when the stream could not be made
 * (stderr is then left as it was). */
int term_safe_stderr(void);

#endif

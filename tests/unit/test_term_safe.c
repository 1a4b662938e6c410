/* Escaping what a terminal would obey, and finding it in loaded text. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/term_safe.h"

static const struct {
	const char *in;
	unsigned flags;
	const char *want;
} cases[] = {
	{"plain", 0, "plain"},
	{"\xe4\xb8\xad\xe6\x96\x87 H100", 0, "\xe4\xb8\xad\xe6\x96\x87 H100"},	/* 中文 passes */
	{"a\x1b[2Jb", 0, "a\\x1b[2Jb"},			/* ESC: clear screen */
	{"a\nb\tc\rd", 0, "a\\nb\\tc\\rd"},
	{"a\nb\tc", TERM_KEEP_LINES, "a\nb\tc"},		/* whole messages */
	{"x\x7fy", 0, "x\\x7fy"},				/* DEL */
	{"x\xc2\x9b" "31my", 0, "x\\u009b31my"},		/* C1 CSI */
	{"evil\xe2\x80\xaetxt.exe", 0, "evil\\u202etxt.exe"},	/* RLO */
	{"bad\xff" "byte", 0, "bad\\xffbyte"},		/* not UTF-8 */
	{"\xc0\xaf", 0, "\\xc0\\xaf"},				/* overlong '/' */
	{"\xed\xa0\x80", 0, "\\xed\\xa0\\x80"},		/* a surrogate */
	{"cut\xe4\xb8", 0, "cut\\xe4\\xb8"},			/* unfinished */
	{"\xef\xb7\x90", 0, "\xef\xb7\x90"},	/* U+FDD0: a noncharacter, not a control */
};

static void test_escape(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *got = term_escape_dup(cases[i].in, cases[i].flags);
		CHECK_STR(got, cases[i].want);
		CHECK(term_needs_escape(cases[i].in, cases[i].flags) ==
		      (strcmp(cases[i].in, cases[i].want) != 0));
		free(got);
	}
}

/* A short buffer cuts between characters, never inside an escape or a
 * UTF-8 sequence, and is always terminated. */
static void test_truncation(void)
{
	char buf[8];
	CHECK(term_escape("ab\x1b" "cd", buf, sizeof(buf)) == 7);
	CHECK_STR(buf, "ab\\x1bc");
	CHECK(term_escape("abcdef\x1b", buf, sizeof(buf)) == 6);
	CHECK_STR(buf, "abcdef");
	CHECK(term_escape("abcde\xe4\xb8\xad", buf, sizeof(buf)) == 5);
	CHECK_STR(buf, "abcde");
	char one[1] = {'x'};
	CHECK(term_escape("abc", one, 1) == 0 && one[0] == '\0');
}

static void test_control_char(void)
{
	const char *what = NULL;
	CHECK(text_control_char("name", 0, &what) == -1);
	CHECK(text_control_char("a\tb", 0, &what) == 1);
	CHECK_STR(what, "a tab");
	CHECK(text_control_char("a\tb", TERM_KEEP_LINES, &what) == -1);
	CHECK(text_control_char("ab\ncd", 0, &what) == 2);
	CHECK_STR(what, "a line break");
	CHECK(text_control_char("\xe4\xb8\xad\x1b", 0, &what) == 3);
	CHECK_STR(what, "an escape character");
	CHECK(text_control_char("x\xe2\x80\xae", 0, &what) == 1);
	CHECK_STR(what, "a bidirectional override");
	CHECK(text_control_char("x\xc2\x85", 0, &what) == 1);
	CHECK_STR(what, "a control character");
	CHECK(text_control_char("\xfe", 0, &what) == 0);
	CHECK_STR(what, "a byte that is not UTF-8");
}

int main(void)
{
	test_escape();
	test_truncation();
	test_control_char();
	return check_summary("term_safe");
}

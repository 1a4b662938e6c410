#include "trace.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "core/file_read.h"
#include "core/suggest.h"
#include "core/utc_time.h"
#include "core/xalloc.h"

enum column { COL_ARRIVAL, COL_PROMPT, COL_OUTPUT, COL_KINDS };

/* Each column's names, lower case (they compare case-blind): ours, then
 * BurstGPT's and Azure's. */
static const char *const column_names[COL_KINDS][4] = {
	[COL_ARRIVAL] = {"arrival_s", "timestamp", NULL},
	[COL_PROMPT] = {"prompt_tokens", "request tokens", "contexttokens", NULL},
	[COL_OUTPUT] = {"output_tokens", "response tokens", "generatedtokens", NULL},
};

/* Every name, for a near miss's "did you mean" (as written in files). */
static const char *const all_names[] = {
	"arrival_s", "Timestamp", "prompt_tokens", "Request tokens",
	"ContextTokens", "output_tokens", "Response tokens",
	"GeneratedTokens", NULL,
};

#define TOKENS_MOST 100000000L	/* as a workload's prompt_tokens */
#define FIELD_MAX 64		/* bytes of a value read; longer is wrong */

/* One field of a line: where it starts (1-based column) and its text,
 * unquoted and trimmed, cut at FIELD_MAX bytes. */
struct field {
	int col;
	char text[FIELD_MAX + 1];
	bool too_long;		/* cut at FIELD_MAX: no value of ours */
	bool after_quote;	/* text after a closing quote */
};

struct reader {
	const char *file;
	struct gp_errors *errs;
	const char *p, *end;	/* the line being read */
	int line;
	int idx[COL_KINDS];	/* field index of each column, -1: none */
	int fields;		/* the header's field count */
	struct request_trace *t;
	size_t cap;
	bool datetime;		/* arrivals are date-times (from the first) */
	long base_days;		/* the first arrival: days and seconds */
	double base_sec;
	double last;		/* the latest arrival so far, s */
};

static void error_at(struct reader *r, int col, const char *hint,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void error_at(struct reader *r, int col, const char *hint,
		     const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	gp_errors_add(r->errs, r->file, r->line, col, hint, "%s", msg);
}

/* ---- fields ---- */

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Reads the field at *pp (up to ',' or the line's end) into f; *pp is left
 * after its comma, or at the end, and *more says whether a comma (another
 * field) followed.  -1 on a quote left open.
 */
static int read_field(struct reader *r, const char **pp, const char *line,
		      struct field *f, bool *more)
{
	const char *p = *pp, *end = r->end;
	size_t n = 0;
	while (p < end && blank(*p))
		p++;
	f->col = (int)(p - line) + 1;
	f->too_long = f->after_quote = false;
	if (p < end && *p == '"') {
		for (p++;; p++) {
			if (p >= end)
				return -1;
			if (*p == '"' && !(p + 1 < end && p[1] == '"'))
				break;
			if (*p == '"')
				p++;
			if (n < FIELD_MAX)
				f->text[n++] = *p;
			else
				f->too_long = true;
		}
		p++;
		while (p < end && blank(*p))
			p++;
		if (p < end && *p != ',')
			f->after_quote = true;	/* "5"junk: not a field */
		while (p < end && *p != ',')
			p++;
	} else {
		for (; p < end && *p != ','; p++) {
			if (n < FIELD_MAX)
				f->text[n++] = *p;
			else
				f->too_long = true;
		}
		while (n > 0 && blank(f->text[n - 1]))
			n--;
	}
	f->text[n] = '\0';
	*more = p < end;
	*pp = *more ? p + 1 : p;
	return 0;
}

/* The fields of the line r->p..r->end into v (at most max), their count,
 * or -1 after reporting a quote left open. */
static int split(struct reader *r, struct field *v, int max, int *count)
{
	const char *line = r->p, *p = r->p;
	int n = 0;
	bool more;
	do {
		struct field spare;
		struct field *f = n < max ? &v[n] : &spare;
		if (read_field(r, &p, line, f, &more) < 0) {
			error_at(r, f->col, NULL,
				 "a quoted field runs past the end of the line: expected a closing '\"'");
			return -1;
		}
		n++;
	} while (more && n <= max);
	*count = n;
	return 0;
}

/* ---- the header ---- */

static int column_of(const char *name)
{
	for (int c = 0; c < COL_KINDS; c++)
		for (int i = 0; column_names[c][i]; i++)
			if (strcasecmp(name, column_names[c][i]) == 0)
				return c;
	return -1;
}

#define HEADER_MOST 256		/* columns; more is not a trace */

static int read_header(struct reader *r)
{
	struct field f[HEADER_MOST];
	int n;
	if (split(r, f, HEADER_MOST, &n) < 0)
		return -1;
	if (n > HEADER_MOST) {
		error_at(r, 1, NULL, "a header of more than %d columns: expected at most %d",
			 HEADER_MOST, HEADER_MOST);
		return -1;
	}
	r->fields = n;
	int bad = 0;
	for (int i = 0; i < n; i++) {
		/* a name cut short or with text after its quotes is none of ours */
		int c = f[i].too_long || f[i].after_quote ? -1 : column_of(f[i].text);
		char hint[96];
		if (c < 0) {
			if (suggest_hint(f[i].text, all_names, (size_t)-1, hint,
					 sizeof(hint))) {
				error_at(r, f[i].col, hint,
					 "unknown column '%s' (a column read under another name is an error, not skipped)",
					 f[i].text);
				bad = 1;
			}
			continue;
		}
		if (r->idx[c] >= 0) {
			error_at(r, f[i].col, NULL,
				 "column '%s' says again what column '%s' says: expected each of arrival, prompt and output tokens once",
				 f[i].text, f[r->idx[c]].text);
			bad = 1;
		}
		r->idx[c] = i;
	}
	/* No column of ours and no near miss: this is not a trace (it may be
	 * any file a path can name, /etc/passwd say), so nothing of it is
	 * quoted, as the YAML loaders refuse a file that is not theirs. */
	if (!bad && r->idx[0] < 0 && r->idx[1] < 0 && r->idx[2] < 0) {
		gp_errors_add(r->errs, r->file, r->line, 1,
			      "a trace is CSV whose header row names one or more of arrival_s, prompt_tokens, output_tokens, or BurstGPT's or Azure's names for them",
			      "not a request trace: expected a header row naming its columns");
		bad = 1;
	}
	return bad ? -1 : 0;
}

/* ---- values ---- */

/* A decimal number: digits, a sign, a point, an exponent (strtod alone
 * would take hex, "inf" and "nan"). */
static bool parse_number(const char *s, double *v)
{
	if (!*s || strspn(s, "0123456789+-.eE") != strlen(s))
		return false;
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return *end == '\0' && errno == 0 && isfinite(*v);
}

static const char *const column_label[COL_KINDS] = {
	"arrival", "prompt tokens", "output tokens",
};

/* Two digits at s, as a number; -1 when they are not. */
static int two_digits(const char *s)
{
	if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9')
		return -1;
	return (s[0] - '0') * 10 + s[1] - '0';
}

/*
 * A date-time with an offset from UTC at its end, as Azure's 2024 traces
 * write it ("2024-05-10 00:00:00.009930+00:00"; also -05:30): the moment
 * in UTC.  Offsets run from -12:00 to +14:00, as the world's time zones
 * do.  A date-time without one, or ending in 'Z', is utc_civil_parse's.
 */
static bool parse_datetime(const char *s, long *days, double *sec)
{
	size_t n = strlen(s);
	if (n < 6 + 19 || (s[n - 6] != '+' && s[n - 6] != '-') || s[n - 3] != ':')
		return utc_civil_parse(s, '-', days, sec);
	int hours = two_digits(s + n - 5), minutes = two_digits(s + n - 2);
	int east = s[n - 6] == '+' ? 1 : -1;
	if (hours < 0 || minutes < 0 || minutes > 59 ||
	    (east > 0 ? hours * 60 + minutes > 14 * 60 : hours * 60 + minutes > 12 * 60))
		return false;
	char local[FIELD_MAX + 1];
	snprintf(local, sizeof(local), "%.*s", (int)(n - 6), s);
	if (!utc_civil_parse(local, '-', days, sec) || local[n - 7] == 'Z')
		return false;
	/* local time = UTC + offset; the day may change, and *sec carries it
	 * (the arrivals are differences of days * 86400 + sec) */
	*sec -= east * (hours * 3600.0 + minutes * 60.0);
	return true;
}

#define DATETIME_FORM "a date-time 'YYYY-MM-DD HH:MM:SS[.frac][+HH:MM]'"

/* The arrival in f, s after the first row's; false after reporting. */
static bool read_arrival(struct reader *r, const struct field *f, long row,
			 double *at)
{
	long days;
	double sec, v;
	bool whole = !f->too_long && !f->after_quote;
	bool is_datetime = whole && parse_datetime(f->text, &days, &sec);
	bool is_number = whole && !is_datetime && parse_number(f->text, &v);
	if ((!is_datetime && !is_number) || (row > 0 && is_datetime != r->datetime)) {
		const char *want = row == 0
			? "expected seconds (a number) or " DATETIME_FORM
			: r->datetime ? "expected " DATETIME_FORM " as the first row's"
				      : "expected seconds (a number) as the first row's";
		error_at(r, f->col, NULL, "arrival: %s, found '%s'", want,
			 f->text);
		return false;
	}
	if (row == 0) {
		r->datetime = is_datetime;
		r->base_days = is_datetime ? days : 0;
		r->base_sec = is_datetime ? sec : v;
	}
	*at = is_datetime ? (double)(days - r->base_days) * 86400.0 +
				    (sec - r->base_sec)
			  : v - r->base_sec;
	if (!isfinite(*at)) {
		error_at(r, f->col, NULL,
			 "arrival: '%s' is too far from the first row's",
			 f->text);
		return false;
	}
	if (row > 0 && *at < r->last) {
		error_at(r, f->col, "sort the file by its arrival column",
			 "arrival '%s' is earlier than a row above it: expected rows in time order",
			 f->text);
		return false;
	}
	r->last = *at;
	return true;
}

static bool read_tokens(struct reader *r, const struct field *f,
			enum column c, long *v)
{
	double d;
	if (!f->too_long && !f->after_quote && parse_number(f->text, &d) &&
	    d == floor(d) &&
	    d >= 1 && d <= (double)TOKENS_MOST) {
		*v = (long)d;
		return true;
	}
	bool none = parse_number(f->text, &d) && d == 0;
	error_at(r, f->col,
		 none ? "a failed request? leave such rows out, as BurstGPT's *_without_fails files do"
		      : NULL,
		 "%s: expected a whole number of tokens from 1 to 100000000, found '%s'",
		 column_label[c], f->text);
	return false;
}

/* ---- rows ---- */

/* Room for one more row in each column the file has. */
static void grow(struct reader *r)
{
	struct request_trace *t = r->t;
	if ((size_t)t->n < r->cap)
		return;
	r->cap = r->cap ? 2 * r->cap : 1024;
	if (t->arrival)
		t->arrival = xrealloc(t->arrival, r->cap * sizeof(double));
	if (t->prompt)
		t->prompt = xrealloc(t->prompt, r->cap * sizeof(long));
	if (t->output)
		t->output = xrealloc(t->output, r->cap * sizeof(long));
}

static int read_row(struct reader *r)
{
	struct field f[HEADER_MOST];
	int n;
	if (split(r, f, HEADER_MOST, &n) < 0)
		return -1;
	if (n != r->fields) {
		error_at(r, 1, NULL, "expected %d fields, as the header has, found %s%d",
			 r->fields, n > HEADER_MOST ? "more than " : "",
			 n > HEADER_MOST ? HEADER_MOST : n);
		return -1;
	}
	if (r->t->n >= TRACE_MAX_ROWS) {
		error_at(r, 1, "cut the trace to the hours that matter (its busiest)",
			 "more than %ld requests: expected at most that many",
			 (long)TRACE_MAX_ROWS);
		return -1;
	}
	struct request_trace *t = r->t;
	grow(r);
	bool ok = true;
	if (r->idx[COL_ARRIVAL] >= 0)
		ok &= read_arrival(r, &f[r->idx[COL_ARRIVAL]], t->n,
				   &t->arrival[t->n]);
	if (r->idx[COL_PROMPT] >= 0)
		ok &= read_tokens(r, &f[r->idx[COL_PROMPT]], COL_PROMPT,
				  &t->prompt[t->n]);
	if (r->idx[COL_OUTPUT] >= 0)
		ok &= read_tokens(r, &f[r->idx[COL_OUTPUT]], COL_OUTPUT,
				  &t->output[t->n]);
	if (ok)
		t->n++;
	return ok ? 0 : -1;
}

/* ---- the file ---- */

/* Sets r->p..r->end to the next line from *pp that holds a header or a
 * row (not blank, not a '#' comment); false at the end. */
static bool next_line(struct reader *r, const char **pp, const char *end)
{
	while (*pp < end) {
		const char *s = *pp, *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		*pp = nl ? nl + 1 : end;
		r->line++;
		if (e > s && e[-1] == '\r')
			e--;
		const char *q = s;
		while (q < e && blank(*q))
			q++;
		if (q == e || *q == '#')
			continue;
		r->p = s;
		r->end = e;
		return true;
	}
	return false;
}

static void summarise(struct request_trace *t)
{
	if (t->n == 0)
		return;		/* check_rows() says so */
	const long *col[2] = {t->prompt, t->output};
	double *mean[2] = {&t->prompt_mean, &t->output_mean};
	long *range[2] = {t->prompt_range, t->output_range};
	for (int c = 0; c < 2; c++) {
		if (!col[c])
			continue;
		double sum = 0;
		range[c][0] = range[c][1] = col[c][0];
		for (long i = 0; i < t->n; i++) {
			sum += (double)col[c][i];
			if (col[c][i] < range[c][0])
				range[c][0] = col[c][i];
			if (col[c][i] > range[c][1])
				range[c][1] = col[c][i];
		}
		*mean[c] = sum / (double)t->n;
	}
	for (long i = 0; i < t->n; i++) {
		long both = (t->prompt ? t->prompt[i] : 0) +
			    (t->output ? t->output[i] : 0);
		if (both > t->longest)
			t->longest = both;
	}
	if (t->arrival) {
		t->span = t->arrival[t->n - 1];
		t->rate = t->span > 0 ? (double)(t->n - 1) / t->span : 0;
	}
}

/* Rows enough to be a trace: one, and with arrivals two, not all at once. */
static int check_rows(struct reader *r)
{
	struct request_trace *t = r->t;
	r->line = 0;
	if (t->n == 0) {
		error_at(r, 0, NULL, "expected rows of requests below the header, found none");
		return -1;
	}
	if (t->arrival && (t->n < 2 || t->span <= 0)) {
		error_at(r, 0, NULL,
			 "the arrivals span no time (%s): expected two or more rows at different times, to give a rate",
			 t->n < 2 ? "one row" : "every row at one instant");
		return -1;
	}
	return 0;
}

static int read_text(struct reader *r, const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		const char *line = text;
		r->line = 1;
		for (const char *p = text; p < nul; p++)
			if (*p == '\n') {
				r->line++;
				line = p + 1;
			}
		error_at(r, (int)(nul - line) + 1, NULL,
			 "a NUL byte: expected text (CSV)");
		return -1;
	}
	const char *p = text, *end = text + len;
	if (len >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;	/* UTF-8's byte-order mark, as Excel saves CSV */
	if (!next_line(r, &p, end)) {
		r->line = 0;
		error_at(r, 0, NULL, "expected a header row naming the columns (arrival_s, prompt_tokens, output_tokens), found %s",
			 len ? "only blank lines and comments" : "an empty file");
		return -1;
	}
	if (read_header(r) < 0)
		return -1;
	struct request_trace *t = r->t;
	/* a column the file has starts non-NULL; grow() sizes it */
	t->arrival = r->idx[COL_ARRIVAL] >= 0 ? xmalloc(sizeof(double)) : NULL;
	t->prompt = r->idx[COL_PROMPT] >= 0 ? xmalloc(sizeof(long)) : NULL;
	t->output = r->idx[COL_OUTPUT] >= 0 ? xmalloc(sizeof(long)) : NULL;
	r->cap = 1;
	int bad = 0;
	while (next_line(r, &p, end) && !gp_errors_full(r->errs))
		bad |= read_row(r) < 0;
	if (bad)
		return -1;
	summarise(t);
	return check_rows(r);
}

int request_trace_load(struct request_trace *t, const char *path,
		       const char *shown, struct gp_errors *errs)
{
	memset(t, 0, sizeof(*t));
	t->file = xstrdup(shown);
	struct reader r = {.file = shown, .errs = errs, .t = t,
			   .idx = {-1, -1, -1}};
	char *text;
	size_t len;
	switch (file_read_all(path, (size_t)TRACE_MAX_BYTES, &text, &len)) {
	case FILE_READ_OK:
		break;
	case FILE_READ_TOO_LARGE:
		gp_errors_add(errs, shown, 0, 0, "cut the trace to the hours that matter (its busiest)",
			      "trace is larger than %ld MiB", TRACE_MAX_BYTES >> 20);
		return -1;
	default:
		gp_errors_add(errs, shown, 0, 0, NULL, "cannot read trace: %s",
			      strerror(errno));
		return -1;
	}
	int rc = read_text(&r, text, len);
	free(text);
	return rc;
}

void request_trace_free(struct request_trace *t)
{
	free(t->file);
	free(t->arrival);
	free(t->prompt);
	free(t->output);
	memset(t, 0, sizeof(*t));
}

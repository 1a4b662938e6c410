/*
 * metric.c - figures found in a command's output; see metric.h.
 */
#include "run/metric.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"

const char *better_name(enum better b)
{
	return b == BETTER_HIGHER ? "higher" : "lower";
}

bool better_from_name(const char *s, enum better *out)
{
	if (strcmp(s, "higher") == 0)
		*out = BETTER_HIGHER;
	else if (strcmp(s, "lower") == 0)
		*out = BETTER_LOWER;
	else
		return false;
	return true;
}

const char *metric_stream_name(enum metric_stream s)
{
	return s == METRIC_STDOUT ? "stdout" : s == METRIC_STDERR ? "stderr" : NULL;
}

bool metric_stream_from_name(const char *s, enum metric_stream *out)
{
	if (strcmp(s, "stdout") == 0)
		*out = METRIC_STDOUT;
	else if (strcmp(s, "stderr") == 0)
		*out = METRIC_STDERR;
	else
		return false;
	return true;
}

bool metric_name_reserved(const char *name)
{
	return strcmp(name, WALL_TIME_METRIC) == 0;
}

/* Words of a name, split at '_', '-', '.', '/' and spaces: "/s" is kept
 * as the word "/s" since it is the clearest rate of all. */
static bool has_word(const char *name, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = name; (p = strstr(p, word)) != NULL; p++) {
		bool start = p == name || strchr("_-./ ", p[-1]) || word[0] == '/';
		char after = p[wl];
		bool end = after == '\0' || strchr("_-./ ", after);
		if (start && end)
			return true;
	}
	return false;
}

bool metric_infer_better(const char *name, enum better *out)
{
	static const char *const higher[] = {"/s", "per_s", "per_sec", "throughput",
		"accuracy", "acc", "score", "speedup", "samples", "tokens",
		"images", "items", "flops", "tflops", "bandwidth", "qps", "rps",
		"fps", "mfu", NULL};
	static const char *const lower[] = {"loss", "latency", "time",
		"duration", "seconds", "s", "sec", "ms", "us", "ns", "error",
		"err", "perplexity", "ppl", "memory", "mem", "bytes", NULL};
	char low[METRIC_NAME_MAX];
	size_t i = 0;
	for (; name[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	bool h = false, l = false;
	for (const char *const *w = higher; *w; w++)
		h |= has_word(low, *w);
	/* a rate's "/s", "per_s" or "per_sec" holds an "s" or "sec" that
	 * is not a time */
	bool rate = has_word(low, "/s") || has_word(low, "per_s") ||
		    has_word(low, "per_sec");
	for (const char *const *w = lower; *w; w++)
		if (!(rate && (strcmp(*w, "s") == 0 || strcmp(*w, "sec") == 0)))
			l |= has_word(low, *w);
	if (h == l)
		return false;
	*out = h ? BETTER_HIGHER : BETTER_LOWER;
	return true;
}

static bool valid_name(const char *s, size_t n)
{
	if (n == 0 || n >= METRIC_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_-./", s[i]))
			return false;
	return true;
}

/*
 * How many pieces glibc's regcomp builds for an ERE once every bounded
 * repetition is written out: it copies a repeated piece once per count
 * ("(a{200}){200}" is 40,000 copies, and a pattern a little deeper takes
 * gigabytes), so a record's pattern is measured before it is compiled.
 * Counted saturating at REGEX_PIECES_MAX + 1; REGEX_TOO_DEEP for groups
 * nested REGEX_DEPTH_MAX deep.  Brackets, escapes and anchors are one
 * piece each; '+' copies its piece once, '*' and '?' not.
 */
#define REGEX_PIECES_MAX 2000
#define REGEX_DEPTH_MAX 32
#define REGEX_TOO_DEEP SIZE_MAX

static size_t sat_mul(size_t a, size_t b)
{
	return a && b > (REGEX_PIECES_MAX + 1) / a ? REGEX_PIECES_MAX + 1 : a * b;
}

static size_t sat_add(size_t a, size_t b)
{
	return a + b > REGEX_PIECES_MAX ? REGEX_PIECES_MAX + 1 : a + b;
}

/* The end of a bracket expression starting at p ('['), or NULL. */
static const char *bracket_end(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++)
		if (p[0] == '[' && strchr(":=.", p[1])) {
			const char *close = p + 2;
			while (*close && !(close[0] == p[1] && close[1] == ']'))
				close++;
			if (!*close)
				return NULL;
			p = close + 1;
		}
	return *p ? p : NULL;
}

/* The largest count of an interval "{m}", "{m,}" or "{m,n}" at p, with
 * *end after it; 0 when p holds no interval. */
static size_t interval_count(const char *p, const char **end)
{
	char *e;
	if (!isdigit((unsigned char)p[1]))
		return 0;
	unsigned long lo = strtoul(p + 1, &e, 10), hi = lo;
	if (*e == ',' && isdigit((unsigned char)e[1]))
		hi = strtoul(e + 1, &e, 10);
	else if (*e == ',') {	/* "{m,}": m copies and a star */
		hi = lo + 1;
		e++;
	}
	if (*e != '}')
		return 0;
	*end = e + 1;
	unsigned long k = hi > lo ? hi : lo;
	return k > REGEX_PIECES_MAX ? REGEX_PIECES_MAX + 1 : (k ? k : 1);
}

static size_t regex_pieces(const char *re)
{
	size_t total[REGEX_DEPTH_MAX] = {0}, last[REGEX_DEPTH_MAX] = {0};
	int d = 0;
	for (const char *p = re; *p; p++) {
		size_t atom = 1, k = 0;
		const char *after = p;
		switch (*p) {
		case '(':
			if (++d == REGEX_DEPTH_MAX)
				return REGEX_TOO_DEEP;
			total[d] = last[d] = 0;
			continue;
		case ')':
			if (d == 0)
				break;
			atom = total[d--];
			break;
		case '|':
			last[d] = 0;
			continue;
		case '+':
			k = 2;
			break;
		case '*':
		case '?':
			continue;
		case '{':
			k = interval_count(p, &after);
			if (k)
				p = after - 1;
			break;
		case '[': {
			const char *e = bracket_end(p);
			p = e ? e : p + strlen(p) - 1;
			break;
		}
		case '\\':
			if (p[1])
				p++;
			break;
		}
		if (k) {	/* repeats the last piece k times in all */
			total[d] = sat_add(total[d], sat_mul(last[d], k - 1));
			last[d] = sat_mul(last[d], k);
		} else {
			total[d] = sat_add(total[d], atom);
			last[d] = atom;
		}
		if (total[d] > REGEX_PIECES_MAX)
			return REGEX_PIECES_MAX + 1;
	}
	size_t all = 0;
	for (int i = 0; i <= d; i++)
		all = sat_add(all, total[i]);
	return all;
}

/*
 * The offset of the first back-reference (a backslash and a digit 1 to 9)
 * in an ERE, or -1.  Inside a bracket expression a backslash is an
 * ordinary character, so the class "[" backslash "1]" holds none.
 */
static long backreference_at(const char *re)
{
	for (const char *p = re; *p; p++) {
		if (*p == '[') {
			const char *e = bracket_end(p);
			if (!e)
				return -1;	/* regcomp reports the open bracket */
			p = e;
		} else if (*p == '\\' && p[1]) {
			if (p[1] >= '1' && p[1] <= '9')
				return p - re;
			p++;
		}
	}
	return -1;
}

int metric_compile(struct metric *m, const char *regex, char *why,
		   size_t len)
{
	long backref = backreference_at(regex);
	if (backref >= 0) {
		snprintf(why, len,
			 "metric '%s': the regular expression '%.80s' holds the back-reference '%.2s' (character %ld): a pattern is a POSIX extended regular expression, which has none (matching one can take exponential time)",
			 m->name, regex, regex + backref, backref + 1);
		return -1;
	}
	size_t pieces = regex_pieces(regex);
	if (pieces == REGEX_TOO_DEEP) {
		snprintf(why, len,
			 "metric '%s': the regular expression '%.80s' nests groups %d deep; a figure's pattern needs far fewer",
			 m->name, regex, REGEX_DEPTH_MAX);
		return -1;
	}
	if (pieces > REGEX_PIECES_MAX) {
		snprintf(why, len,
			 "metric '%s': the regular expression '%.80s' is over %d pieces once its repetition counts are written out; a figure's pattern needs far fewer",
			 m->name, regex, REGEX_PIECES_MAX);
		return -1;
	}
	int rc = regcomp(&m->re, regex, REG_EXTENDED | REG_NEWLINE);
	if (rc) {
		char msg[160];
		regerror(rc, &m->re, msg, sizeof(msg));
		snprintf(why, len, "metric '%s': bad regular expression '%.80s': %s",
			 m->name, regex, msg);
		return -1;
	}
	if (m->re.re_nsub < 1) {
		regfree(&m->re);
		snprintf(why, len,
			 "metric '%s': the regular expression '%.80s' has no capture group: put the number in ( )",
			 m->name, regex);
		return -1;
	}
	m->compiled = true;
	m->regex = xstrdup(regex);
	return 0;
}

/* One qualifier after the name ("higher", "lower", "stdout", "stderr"),
 * each kind at most once.  0, or -1 with why. */
static int read_qualifier(struct metric *m, const char *q, size_t n,
			  bool *have_better, bool *have_stream, char *why,
			  size_t len)
{
	char word[16] = "";
	if (n < sizeof(word))
		memcpy(word, q, n);
	bool is_better = n < sizeof(word) && better_from_name(word, &m->better);
	bool is_stream = n < sizeof(word) &&
			 metric_stream_from_name(word, &m->stream);
	if ((!is_better && !is_stream) || (is_better && *have_better) ||
	    (is_stream && *have_stream)) {
		snprintf(why, len,
			 "--metric '%s': expected ':higher' or ':lower' and at most one of ':stdout' or ':stderr' after the name, found ':%.*s'",
			 m->name, (int)(n < 20 ? n : 20), q);
		return -1;
	}
	*have_better |= is_better;
	*have_stream |= is_stream;
	return 0;
}

int metric_parse(const char *spec, struct metric *m, char *why, size_t len)
{
	memset(m, 0, sizeof(*m));
	const char *eq = strchr(spec, '=');
	if (!eq) {
		snprintf(why, len,
			 "--metric expects NAME=REGEX or NAME:higher=REGEX, found '%.80s'",
			 spec);
		return -1;
	}
	const char *colon = memchr(spec, ':', (size_t)(eq - spec));
	size_t nlen = (size_t)((colon ? colon : eq) - spec);
	if (!valid_name(spec, nlen)) {
		snprintf(why, len,
			 "--metric: a name is 1 to %d letters, digits or _-./, found '%.*s'",
			 METRIC_NAME_MAX - 1, (int)(nlen < 80 ? nlen : 80), spec);
		return -1;
	}
	memcpy(m->name, spec, nlen);
	if (metric_name_reserved(m->name)) {
		snprintf(why, len, "--metric: '%s' is recorded for every run already",
			 m->name);
		return -1;
	}
	bool have_better = false, have_stream = false;
	for (const char *q = colon; q && q < eq;) {
		const char *next = memchr(q + 1, ':', (size_t)(eq - q - 1));
		const char *end = next ? next : eq;
		if (read_qualifier(m, q + 1, (size_t)(end - q - 1), &have_better,
				   &have_stream, why, len) < 0)
			return -1;
		q = next;
	}
	if (!have_better && !metric_infer_better(m->name, &m->better)) {
		snprintf(why, len,
			 "--metric '%s': which way is better is not clear from the name: write '%s:higher=...' or '%s:lower=...'",
			 m->name, m->name, m->name);
		return -1;
	}
	if (metric_compile(m, eq + 1, why, len) == 0)
		return 0;
	char said[600];	/* "metric 'x': ..." said of the option: "--metric 'x': ..." */
	snprintf(said, sizeof(said), "--%s", why);
	snprintf(why, len, "%s", said);
	return -1;
}

/*
 * Each search starts where the last match ended (REG_STARTEND: the line's
 * own length, NUL bytes included, and no strlen of the rest), so a line
 * costs one pass per match, never a rescan of what follows it.  The
 * context before a later start is the line's own byte, so '^' matches only
 * at the line's start.
 */
bool metric_last_match(const struct metric *m, const char *line, size_t n,
		       bool continued, regmatch_t *group)
{
	regmatch_t g[2];
	bool found = false;
	size_t from = 0;
	while (from <= n) {
		g[0].rm_so = (regoff_t)from;
		g[0].rm_eo = (regoff_t)n;
		if (regexec(&m->re, line, 2, g,
			    REG_STARTEND | (continued ? REG_NOTBOL : 0)) != 0)
			break;
		found = true;
		*group = g[1];
		/* an empty match still moves on by one byte */
		from = g[0].rm_eo > g[0].rm_so ? (size_t)g[0].rm_eo
					       : (size_t)g[0].rm_eo + 1;
	}
	return found;
}

void metric_free(struct metric *m)
{
	if (m->compiled)
		regfree(&m->re);
	free(m->regex);
	memset(m, 0, sizeof(*m));
}

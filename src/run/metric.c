/*
 * metric.c - figures found in a command's output; see metric.h.
 */
#include "run/metric.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
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

int metric_compile(struct metric *m, const char *regex, char *why,
		   size_t len)
{
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
	if (strcmp(m->name, WALL_TIME_METRIC) == 0) {
		snprintf(why, len, "--metric: '%s' is recorded for every run already",
			 WALL_TIME_METRIC);
		return -1;
	}
	if (colon) {
		char dir[16] = "";
		size_t dl = (size_t)(eq - colon - 1);
		if (dl < sizeof(dir))
			memcpy(dir, colon + 1, dl);
		if (dl >= sizeof(dir) || !better_from_name(dir, &m->better)) {
			snprintf(why, len,
				 "--metric '%s': expected ':higher' or ':lower' after the name, found ':%.*s'",
				 m->name, (int)(dl < 20 ? dl : 20), colon + 1);
			return -1;
		}
	} else if (!metric_infer_better(m->name, &m->better)) {
		snprintf(why, len,
			 "--metric '%s': which way is better is not clear from the name: write '%s:higher=...' or '%s:lower=...'",
			 m->name, m->name, m->name);
		return -1;
	}
	return metric_compile(m, eq + 1, why, len);
}

/* The text of the first group as a finite decimal number. */
static int group_number(const char *text, const regmatch_t *g, double *out,
			char *why, size_t len)
{
	char num[64];
	size_t n = g->rm_so < 0 ? 0 : (size_t)(g->rm_eo - g->rm_so);
	if (g->rm_so < 0 || n == 0 || n >= sizeof(num)) {
		snprintf(why, len, "the capture group matched %s",
			 g->rm_so < 0 ? "nothing" : n ? "over 63 characters" : "an empty string");
		return -1;
	}
	memcpy(num, text + g->rm_so, n);
	num[n] = '\0';
	char *end = NULL;
	errno = 0;
	double v = strtod(num, &end);
	bool decimal = strspn(num, "0123456789.eE+-") == n;
	if (!decimal || *end || errno == ERANGE || !isfinite(v)) {
		snprintf(why, len, "the capture group holds '%s', not a number",
			 num);
		return -1;
	}
	*out = v;
	return 1;
}

int metric_capture(const struct metric *m, const char *text, double *out,
		   char *why, size_t len)
{
	regmatch_t g[2], last[2];
	bool found = false;
	const char *p = text, *last_base = text;
	int flags = 0;
	while (*p && regexec(&m->re, p, 2, g, flags) == 0) {
		found = true;
		memcpy(last, g, sizeof(g));
		last_base = p;
		/* an empty match still moves on by one character */
		p += g[0].rm_eo > 0 ? g[0].rm_eo : 1;
		flags = p[-1] == '\n' ? 0 : REG_NOTBOL;
	}
	if (!found)
		return 0;
	return group_number(last_base, &last[1], out, why, len);
}

void metric_free(struct metric *m)
{
	if (m->compiled)
		regfree(&m->re);
	free(m->regex);
	memset(m, 0, sizeof(*m));
}

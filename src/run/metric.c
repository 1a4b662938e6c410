/*
 * metric.c - figures found in a command's output; see metric.h.
 */
#include "run/metric.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
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

int metric_compile(struct metric *m, const char *regex, char *why,
		   size_t len)
{
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

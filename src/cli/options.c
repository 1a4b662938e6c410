#include "options.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "core/units.h"
#include "core/xalloc.h"

int usage_error(const struct cmd_spec *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("gpuplan: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'gpuplan %s --help'.\n", s->path);
	return OPTS_USAGE_ERROR;
}

static size_t count_opts(const struct cmd_spec *s)
{
	size_t n = 0;
	while (s->opts && s->opts[n].name)
		n++;
	return n;
}

void opts_print_help(const struct cmd_spec *s, FILE *out)
{
	fprintf(out, "usage: gpuplan %s%s%s%s\n\n%s\n", s->path,
		count_opts(s) ? " [options]" : "", s->args ? " " : "",
		s->args ? s->args : "", s->summary);
	fprintf(out, "\noptions:\n");
	size_t n = count_opts(s);
	for (size_t i = 0; i <= n; i++) {
		const struct opt_spec *o = &s->opts[i];
		char left[64];
		if (i == n)
			snprintf(left, sizeof(left), "-h, --help");
		else
			snprintf(left, sizeof(left), "%s%c%s--%s%s%s%s",
				 o->short_name ? "-" : "",
				 o->short_name ? o->short_name : ' ',
				 o->short_name ? ", " : "   ", o->name,
				 o->arg == OPT_FLAG ? "" : " ",
				 o->arg == OPT_FLAG ? "" : o->metavar,
				 o->arg == OPT_LIST ? "..." : "");
		fprintf(out, "  %-28s %s\n", left,
			i == n ? "show this help" : o->help);
	}
	if (s->details)
		fprintf(out, "\n%s\n", s->details);
}

static const struct opt_spec *lookup(const struct cmd_spec *s,
				     const char *name, size_t len,
				     char short_name, size_t *index)
{
	for (size_t i = 0; s->opts && s->opts[i].name; i++) {
		const struct opt_spec *o = &s->opts[i];
		if ((short_name && o->short_name == short_name) ||
		    (!short_name && strlen(o->name) == len &&
		     strncmp(o->name, name, len) == 0)) {
			*index = i;
			return o;
		}
	}
	return NULL;
}

/* word is "--name" or "-x" as the user typed it; cluster the whole
 * argument when word is one letter of "-qx".  Only long names get a
 * did-you-mean: every letter is one edit from every other. */
static int unknown_option(const struct cmd_spec *s, const char *word,
			  const char *cluster)
{
	const char *names[64];
	char dashed[64][48];
	size_t n = 0;
	for (size_t i = 0; s->opts && s->opts[i].name && n < 63; i++) {
		snprintf(dashed[n], sizeof(dashed[n]), "--%s", s->opts[i].name);
		names[n] = dashed[n];
		n++;
	}
	names[n++] = "--help";
	char hint[96];
	const char *h = word[1] == '-'
		? suggest_hint(word, names, n, hint, sizeof(hint)) : NULL;
	char in[80] = "";
	if (cluster)
		snprintf(in, sizeof(in), " in '%.64s'", cluster);
	if (h)
		usage_error(s, "unknown option '%s'%s (%s)", word, in, h);
	else
		usage_error(s, "unknown option '%s'%s", word, in);
	return -1;
}

static void add_positional(struct parsed *p, const char *a)
{
	p->args = xrealloc(p->args, (p->nargs + 1) * sizeof(char *));
	p->args[p->nargs++] = a;
}

static void add_list_item(struct opt_result *r, const char *a)
{
	r->list = xrealloc(r->list, (r->nlist + 1) * sizeof(char *));
	r->list[r->nlist++] = a;
}

/* The option as the user spelled it, for messages: "--output" or "-o". */
static void spelled(const struct opt_spec *o, bool as_short, char *buf,
		    size_t len)
{
	if (as_short)
		snprintf(buf, len, "-%c", o->short_name);
	else
		snprintf(buf, len, "--%s", o->name);
}

/* Takes the value of option o from "--x=value", "-xvalue" or the next
 * argument.  A list option then also takes every following argument up to
 * the next option.  Returns how many further argv entries were consumed,
 * or -1. */
static int take_value(const struct cmd_spec *s, const struct opt_spec *o,
		      bool as_short, struct opt_result *r,
		      const char *inline_value, int i, int argc, char **argv)
{
	char name[64];
	spelled(o, as_short, name, sizeof(name));
	int used = 0;
	const char *v = inline_value;
	if (!v) {
		if (i + 1 >= argc) {
			usage_error(s, "option '%s' needs a %s", name,
				    o->metavar);
			return -1;
		}
		v = argv[i + 1];
		used = 1;
	}
	/* `-o ''` or `--report=` names nothing: refused before any work,
	 * rather than failing (or writing somewhere odd) at the end. */
	if (!*v) {
		usage_error(s, "option '%s' needs a %s, found an empty value",
			    name, o->metavar);
		return -1;
	}
	r->set = true;
	if (o->arg == OPT_VALUE) {
		r->value = v;
		return used;
	}
	add_list_item(r, v);
	while (i + used + 1 < argc && argv[i + used + 1][0] != '-') {
		if (!argv[i + used + 1][0]) {
			usage_error(s, "option '%s' needs a %s, found an empty value",
				    name, o->metavar);
			return -1;
		}
		add_list_item(r, argv[i + used + 1]);
		used++;
	}
	return used;
}

/* Returned by the option parsers when -h sits in a cluster ("-qh"). */
enum { PARSE_HELP = -2 };

static int parse_long(const struct cmd_spec *s, struct parsed *p, int i,
		      int argc, char **argv)
{
	const char *name = argv[i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	size_t index;
	const struct opt_spec *o = lookup(s, name, len, 0, &index);
	if (!o) {
		char word[64];
		snprintf(word, sizeof(word), "%.*s",
			 (int)strcspn(argv[i], "="), argv[i]);
		/* "--help=x" is help given a value, not an unknown option
		 * (whose nearest name would be --help itself) */
		if (eq && strcmp(word, "--help") == 0) {
			usage_error(s, "option '--help' takes no value, found '%.64s'",
				    argv[i]);
			return -1;
		}
		return unknown_option(s, word, NULL);
	}
	struct opt_result *r = &p->opt[index];
	if (o->arg != OPT_FLAG)
		return take_value(s, o, false, r, eq ? eq + 1 : NULL, i, argc,
				  argv);
	if (eq) {
		usage_error(s, "option '--%s' takes no value, found '%.64s'",
			    o->name, argv[i]);
		return -1;
	}
	r->set = true;
	return 0;
}

/* "-q", "-qv" (flags combined), "-n1" and "-n 1" (a value attached or
 * next), "-qn1": as getopt_long reads them.  The first letter that takes a
 * value takes the rest of the argument, or the next one. */
static int parse_short(const struct cmd_spec *s, struct parsed *p, int i,
		       int argc, char **argv)
{
	const char *a = argv[i];
	for (const char *c = a + 1; *c; c++) {
		size_t index;
		const struct opt_spec *o = lookup(s, NULL, 0, *c, &index);
		if (!o && *c == 'h')
			return PARSE_HELP;
		if (!o) {
			char word[3] = {'-', *c, '\0'};
			return unknown_option(s, word, a[2] ? a : NULL);
		}
		struct opt_result *r = &p->opt[index];
		if (o->arg != OPT_FLAG)
			return take_value(s, o, true, r, c[1] ? c + 1 : NULL,
					  i, argc, argv);
		r->set = true;
	}
	return 0;
}

static bool is_help(const char *a)
{
	return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

static void (*collector)(const struct cmd_spec *s, void *ctx);
static void *collector_ctx;

void opts_collect(void (*fn)(const struct cmd_spec *s, void *ctx), void *ctx)
{
	collector = fn;
	collector_ctx = ctx;
}

bool opts_collecting(void)
{
	return collector != NULL;
}

int opts_parse(const struct cmd_spec *s, int argc, char **argv,
	       struct parsed *p)
{
	p->nopt = count_opts(s);
	p->opt = xcalloc(p->nopt + 1, sizeof(*p->opt));
	p->args = NULL;
	p->nargs = 0;
	if (collector) {
		collector(s, collector_ctx);
		return OPTS_HELP_SHOWN;
	}
	bool only_positional = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!only_positional && is_help(a)) {
			opts_print_help(s, stdout);
			return OPTS_HELP_SHOWN;
		}
		if (!only_positional && strcmp(a, "--") == 0) {
			only_positional = true;
			continue;
		}
		if (!only_positional && a[0] == '\0')
			return usage_error(s, "an argument is empty: name a %s",
					   s->args ? s->args : "value");
		if (only_positional || a[0] != '-' || a[1] == '\0') {
			add_positional(p, a);
			continue;
		}
		int used = a[1] == '-' ? parse_long(s, p, i, argc, argv)
				       : parse_short(s, p, i, argc, argv);
		if (used == PARSE_HELP) {
			opts_print_help(s, stdout);
			return OPTS_HELP_SHOWN;
		}
		if (used < 0)
			return OPTS_USAGE_ERROR;
		i += used;
	}
	if ((int)p->nargs < s->min_args)
		return usage_error(s, "missing %s", s->args ? s->args
							     : "argument");
	if (s->max_args >= 0 && (int)p->nargs > s->max_args)
		return usage_error(s, "unexpected argument '%s'",
				   p->args[s->max_args]);
	return OPTS_OK;
}

void opts_free(struct parsed *p)
{
	for (size_t i = 0; p->opt && i < p->nopt; i++)
		free(p->opt[i].list);
	free(p->opt);
	free(p->args);
	p->opt = NULL;
	p->args = NULL;
}

bool opt_whole(const char *text, long min, long max, long *out)
{
	size_t n = strspn(text, "0123456789");
	if (n == 0 || n > 18 || text[n] != '\0')
		return false;
	long v = strtol(text, NULL, 10);
	if (v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool opt_number_or_percent(const char *text, double *x, bool *percent)
{
	char num[64];
	size_t len = strlen(text);
	*percent = len && text[len - 1] == '%';
	if (*percent)
		len--;
	if (len == 0 || len >= sizeof(num))
		return false;
	memcpy(num, text, len);
	num[len] = '\0';
	struct unit_problem why;
	return units_plain_number(num, x, &why) == 0;
}

const struct opt_result *opt_find(const struct parsed *p,
				  const struct cmd_spec *s, const char *name)
{
	for (size_t i = 0; s->opts && s->opts[i].name; i++)
		if (strcmp(s->opts[i].name, name) == 0)
			return &p->opt[i];
	return NULL;
}

bool opt_flag(const struct parsed *p, const struct cmd_spec *s,
	      const char *name)
{
	const struct opt_result *r = opt_find(p, s, name);
	return r && r->set;
}

const char *opt_value(const struct parsed *p, const struct cmd_spec *s,
		      const char *name)
{
	const struct opt_result *r = opt_find(p, s, name);
	return r && r->set ? r->value : NULL;
}

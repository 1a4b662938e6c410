#include "options.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
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

static int unknown_option(const struct cmd_spec *s, const char *arg)
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
	char word[64];
	snprintf(word, sizeof(word), "%.*s", (int)strcspn(arg, "="), arg);
	char hint[96];
	const char *h = suggest_hint(word, names, n, hint, sizeof(hint));
	if (h)
		usage_error(s, "unknown option '%s' (%s)", word, h);
	else
		usage_error(s, "unknown option '%s'", word);
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

/* Takes the value of option o from "--x=value" or the next argument.  A
 * list option then also takes every following argument up to the next
 * option.  Returns how many further argv entries were consumed, or -1. */
static int take_value(const struct cmd_spec *s, const struct opt_spec *o,
		      struct opt_result *r, const char *inline_value,
		      int i, int argc, char **argv)
{
	int used = 0;
	const char *v = inline_value;
	if (!v) {
		if (i + 1 >= argc) {
			usage_error(s, "option '--%s' needs a %s", o->name,
				    o->metavar);
			return -1;
		}
		v = argv[i + 1];
		used = 1;
	}
	/* `-o ''` or `--report=` names nothing: refused before any work,
	 * rather than failing (or writing somewhere odd) at the end. */
	if (!*v) {
		usage_error(s, "option '--%s' needs a %s, found an empty value",
			    o->name, o->metavar);
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
			usage_error(s, "option '--%s' needs a %s, found an empty value",
				    o->name, o->metavar);
			return -1;
		}
		add_list_item(r, argv[i + used + 1]);
		used++;
	}
	return used;
}

static int parse_option(const struct cmd_spec *s, struct parsed *p, int i,
			int argc, char **argv)
{
	const char *a = argv[i];
	const struct opt_spec *o;
	size_t index;
	const char *inline_value = NULL;
	if (a[1] == '-') {
		const char *name = a + 2;
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		o = lookup(s, name, len, 0, &index);
		if (eq)
			inline_value = eq + 1;
	} else {
		o = a[2] == '\0' ? lookup(s, NULL, 0, a[1], &index) : NULL;
	}
	if (!o)
		return unknown_option(s, a);
	struct opt_result *r = &p->opt[index];
	if (o->arg == OPT_FLAG) {
		if (inline_value) {
			usage_error(s, "option '--%s' takes no value", o->name);
			return -1;
		}
		r->set = true;
		return 0;
	}
	return take_value(s, o, r, inline_value, i, argc, argv);
}

static bool is_help(const char *a)
{
	return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

int opts_parse(const struct cmd_spec *s, int argc, char **argv,
	       struct parsed *p)
{
	p->nopt = count_opts(s);
	p->opt = xcalloc(p->nopt + 1, sizeof(*p->opt));
	p->args = NULL;
	p->nargs = 0;
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
		int used = parse_option(s, p, i, argc, argv);
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

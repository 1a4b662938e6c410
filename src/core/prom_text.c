/*
 * prom_text.c - Prometheus text exposition format; see prom_text.h.
 */
#include "core/prom_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/term_safe.h"

/* Escapes \ and newline, and " too when quoted (label values).  Other
 * control bytes and bytes that are not UTF-8 (a log's uuid field, say)
 * are spelled out first as term_safe.h does ("\x1b"): the format wants
 * UTF-8 and promtool refuses what is not. */
static void escaped(FILE *f, const char *raw, bool quoted)
{
	char *s = term_escape_dup(raw, TERM_KEEP_LINES);
	for (const char *c = s; *c; c++) {
		if (*c == '\\' || (quoted && *c == '"'))
			fprintf(f, "\\%c", *c);
		else if (*c == '\n')
			fputs("\\n", f);
		else
			fputc(*c, f);
	}
	free(s);
}

void prom_family(FILE *f, const char *name, const char *type,
		 const char *help)
{
	fprintf(f, "# HELP %s ", name);
	escaped(f, help, false);
	fprintf(f, "\n# TYPE %s %s\n", name, type);
}

static void value(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else
		fprintf(f, "%.17g", v);
}

void prom_sample(FILE *f, const char *name, const struct prom_label *labels,
		 size_t n_labels, double v)
{
	const char *sep = "{";

	fputs(name, f);
	for (size_t i = 0; i < n_labels; i++) {
		if (!labels[i].value || !labels[i].value[0])
			continue;
		fprintf(f, "%s%s=\"", sep, labels[i].name);
		escaped(f, labels[i].value, true);
		fputc('"', f);
		sep = ",";
	}
	if (sep[0] == ',')
		fputc('}', f);
	fputc(' ', f);
	value(f, v);
	fputc('\n', f);
}

const char *prom_number(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.17g", v);
	return buf;
}

bool prom_name_ok(const char *name, bool label)
{
	if (!name || !*name)
		return false;
	for (const char *c = name; *c; c++) {
		bool alpha = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			     *c == '_' || (!label && *c == ':');
		bool digit = *c >= '0' && *c <= '9';
		if (!alpha && !(digit && c != name))
			return false;
	}
	return true;
}

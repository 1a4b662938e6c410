/*
 * fuzz_diagnose.c - `gpuplan diagnose`'s outputs from an nvidia-smi log:
 * the log read as the command reads it (src/diagnose/smi_log.h), then,
 * whatever could be read, diagnosed and written as the table, Markdown,
 * JSON and Prometheus text (src/diagnose/diag_out.h), priced at a plan
 * whose names hold control bytes too.
 *
 * Invariants (besides the loaders', fuzz.h), each a crash when broken:
 *   - every output is UTF-8 and holds no control byte but the line end,
 *     no C1 control and no bidirectional override, whatever bytes the
 *     log's uuid and name fields held;
 *   - outside its tables' rows, Markdown holds no unescaped '|';
 *   - the Prometheus text is the exposition format (0.0.4) as promtool
 *     parses it: HELP and TYPE once per family, before its samples; a
 *     family's samples together; names [a-zA-Z_:][a-zA-Z0-9_:]*; label
 *     values quoted, escaping only \\, \" and \n; HELP escaping only \\
 *     and \n; each value a number, NaN or +-Inf;
 *   - the JSON is one document jansson reads back.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "diagnose/diag_out.h"
#include "diagnose/smi_log.h"
#include "fuzz.h"

static struct smi_log loaded;

static int load(const struct fuzz_files *f, struct gp_errors *errs)
{
	smi_log_free(&loaded);
	/* a log without timestamps is placed a second a sample, as with
	 * --interval 1s, so those logs reach the outputs too */
	return smi_log_read(&loaded, f->path[0], NULL, 1, errs);
}

/* ---- every output ---- */

static bool is_bidi_control(unsigned long cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

/* UTF-8 with no control but '\n'; `what` names the output. */
static void check_text(const char *what, const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned long cp;
		size_t k = utf8_next(s + i, n - i, &cp);
		if (cp == UTF8_INVALID)
			fuzz_fail(what, "byte 0x%02x at %zu is not UTF-8",
				  (unsigned char)s[i], i);
		if ((cp < 0x20 && cp != '\n') || cp == 0x7f ||
		    (cp >= 0x80 && cp <= 0x9f) || is_bidi_control(cp))
			fuzz_fail(what, "U+%04lX at byte %zu", cp, i);
		i += k;
	}
}

/* Outside a table's rows (lines that start with '|'), every '|' is
 * escaped: a name cannot end a cell or start a table. */
static void check_markdown(const char *s)
{
	for (const char *line = s; *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		for (size_t i = 0; line[0] != '|' && i < len; i++)
			if (line[i] == '|' && (i == 0 || line[i - 1] != '\\'))
				fuzz_fail("diagnosis_print markdown",
					  "unescaped '|' in '%.*s'", (int)len, line);
		line += len + (end != NULL);
	}
}

/* ---- the Prometheus text format ---- */

#define FAMILIES_MOST 64

struct prom_state {
	char typed[FAMILIES_MOST][96];	/* families with a TYPE line */
	char sampled[FAMILIES_MOST][96];	/* families with samples */
	size_t ntyped, nsampled;
	char current[96];		/* the family of the last sample */
	int line;
};

static bool listed(char list[][96], size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static void add_name(char list[][96], size_t *n, const char *name)
{
	if (*n >= FAMILIES_MOST)
		fuzz_fail("diagnosis_prom", "more than %d families", FAMILIES_MOST);
	snprintf(list[(*n)++], 96, "%s", name);
}

static void prom_bad(const struct prom_state *st, const char *why,
		     const char *line)
{
	fuzz_fail("diagnosis_prom", "line %d: %s: '%s'", st->line, why, line);
}

/* The name at *p ([a-zA-Z_:][a-zA-Z0-9_:]*; no ':' in a label name) into
 * out; false when there is none. */
static bool read_name(const char **p, bool label, char *out, size_t len)
{
	size_t n = 0;
	for (const char *c = *p;; c++) {
		bool alpha = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			     *c == '_' || (!label && *c == ':');
		bool digit = *c >= '0' && *c <= '9';
		if (!alpha && !(digit && n > 0))
			break;
		if (n + 1 < len)
			out[n] = *c;
		n++;
	}
	if (n == 0 || n >= len)
		return false;
	out[n] = '\0';
	*p += n;
	return true;
}

/* Text up to `stop` (or the end) whose backslashes escape only what
 * `escapable` lists; *p left at the stop. */
static bool read_escaped(const char **p, char stop, const char *escapable)
{
	const char *c = *p;
	for (; *c && *c != stop; c++)
		if (*c == '\\' && (!c[1] || !strchr(escapable, c[1])))
			return false;
		else if (*c == '\\')
			c++;
	*p = c;
	return true;
}

static bool prom_value(const char *s)
{
	if (!strcmp(s, "NaN") || !strcmp(s, "+Inf") || !strcmp(s, "-Inf"))
		return true;
	char *end;
	strtod(s, &end);
	return end != s && *end == '\0' && !strpbrk(s, "xXnN");
}

static void prom_comment(struct prom_state *st, const char *line)
{
	bool help = !strncmp(line, "# HELP ", 7);
	if (!help && strncmp(line, "# TYPE ", 7))
		prom_bad(st, "a comment that is not HELP or TYPE", line);
	const char *p = line + 7;
	char name[96];
	if (!read_name(&p, false, name, sizeof(name)) || *p != ' ')
		prom_bad(st, "no metric name", line);
	p++;
	if (listed(st->sampled, st->nsampled, name))
		prom_bad(st, "HELP or TYPE after the family's samples", line);
	if (help) {
		if (!read_escaped(&p, '\0', "\\n"))
			prom_bad(st, "HELP escapes something other than \\\\ and \\n", line);
		return;
	}
	if (strcmp(p, "gauge") && strcmp(p, "counter") && strcmp(p, "untyped") &&
	    strcmp(p, "summary") && strcmp(p, "histogram"))
		prom_bad(st, "an unknown TYPE", line);
	if (listed(st->typed, st->ntyped, name))
		prom_bad(st, "a second TYPE", line);
	add_name(st->typed, &st->ntyped, name);
}

static void prom_labels(struct prom_state *st, const char **pp,
			const char *line)
{
	const char *p = *pp + 1;	/* past '{' */
	for (;;) {
		char label[96];
		if (!read_name(&p, true, label, sizeof(label)) || p[0] != '=' ||
		    p[1] != '"')
			prom_bad(st, "a label is not name=\"value\"", line);
		p += 2;
		if (!read_escaped(&p, '"', "\\\"n") || *p != '"')
			prom_bad(st, "a label value escapes something other than \\\\, \\\" and \\n, or is not closed", line);
		p++;
		if (*p == '}')
			break;
		if (*p != ',')
			prom_bad(st, "labels not separated by ','", line);
		p++;
	}
	*pp = p + 1;
}

static void prom_sample_line(struct prom_state *st, const char *line)
{
	const char *p = line;
	char name[96];
	if (!read_name(&p, false, name, sizeof(name)))
		prom_bad(st, "no metric name", line);
	if (*p == '{')
		prom_labels(st, &p, line);
	if (*p != ' ' || !prom_value(p + 1))
		prom_bad(st, "no value after the name and labels", line);
	if (!listed(st->typed, st->ntyped, name))
		prom_bad(st, "a sample before its TYPE", line);
	if (strcmp(name, st->current) && listed(st->sampled, st->nsampled, name))
		prom_bad(st, "a family's samples apart", line);
	if (!listed(st->sampled, st->nsampled, name))
		add_name(st->sampled, &st->nsampled, name);
	snprintf(st->current, sizeof(st->current), "%s", name);
}

static void check_prom(const char *text, size_t n)
{
	check_text("diagnosis_prom", text, n);
	if (n && text[n - 1] != '\n')
		fuzz_fail("diagnosis_prom", "the text does not end with a line end");
	struct prom_state st;
	memset(&st, 0, sizeof(st));
	char *copy = strndup(text, n);
	for (char *line = copy, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		st.line++;
		if (line[0] == '#')
			prom_comment(&st, line);
		else
			prom_sample_line(&st, line);
	}
	free(copy);
}

/* ---- the outputs ---- */

typedef void (*writer)(FILE *f, const struct diagnosis *g, bool md);

static void table(FILE *f, const struct diagnosis *g, bool md)
{
	diagnosis_print(f, g, md);
}

static void prom(FILE *f, const struct diagnosis *g, bool md)
{
	(void)md;
	diagnosis_prom(f, g);
}

static char *written(writer w, const struct diagnosis *g, bool md, size_t *n)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, n);
	if (!f)
		fuzz_fail("fuzz_diagnose", "open_memstream failed");
	w(f, g, md);
	fclose(f);
	return text;
}

static void check_json(const struct diagnosis *g)
{
	json_t *j = diagnosis_json(g);
	char *text = j ? json_dumps(j, JSON_INDENT(2)) : NULL;
	if (!text)
		fuzz_fail("diagnosis_json", "no JSON made");
	check_text("diagnosis_json", text, strlen(text));
	json_error_t e;
	json_t *back = json_loads(text, 0, &e);
	if (!back)
		fuzz_fail("diagnosis_json", "not read back: %s", e.text);
	json_decref(back);
	free(text);
	json_decref(j);
}

static void check_outputs(void)
{
	struct diagnosis g;
	diagnosis_of_log(&loaded, false, "log\x1b[2J|\xff.csv", &g);
	/* a plan's names reach the outputs too */
	g.price = (struct diag_price){.set = true, .currency = "U\x1b$",
		.workload = "chat|\x07\xc2\x9b", .instance = "p5\xe2\x80\xae\"x\\",
		.per_gpu_hour = 12.5};
	diagnosis_price(&g);
	size_t n;
	char *t = written(table, &g, false, &n);
	check_text("diagnosis_print table", t, n);
	free(t);
	t = written(table, &g, true, &n);
	check_text("diagnosis_print markdown", t, n);
	check_markdown(t);
	free(t);
	t = written(prom, &g, false, &n);
	check_prom(t, n);
	free(t);
	check_json(&g);
	diagnosis_free(&g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_files f;
	fuzz_write_file(data, size, "log.csv", &f);
	fuzz_check_loader("smi_log_read", load, &f);
	/* a bad log still shows what its readable rows say (cmd_diagnose.c) */
	if (loaded.n)
		check_outputs();
	smi_log_free(&loaded);
	return 0;
}

#include "output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "num_format.h"
#include "term_safe.h"
#include "xalloc.h"

void output_open(struct output *o)
{
	o->data = NULL;
	o->len = 0;
	o->streamed = false;
	atomic_set_init(&o->file);
	o->f = open_memstream(&o->data, &o->len);
	if (!o->f) {
		fprintf(stderr, "gpuplan: out of memory\n");
		abort();
	}
}

int output_open_to(struct output *o, const char *path)
{
	if (!path || strcmp(path, "-") == 0) {
		output_open(o);
		return 0;
	}
	char why[512];
	o->data = NULL;
	o->len = 0;
	atomic_set_init(&o->file);
	int rc = atomic_set_stream(&o->file, path, &o->f, why, sizeof(why));
	if (rc == ATOMIC_IN_PLACE) {
		output_open(o);
		return 0;
	}
	if (rc != ATOMIC_OK) {
		fprintf(stderr, "gpuplan: %s\n", why);
		atomic_set_abort(&o->file);
		o->f = NULL;
		return rc == ATOMIC_REFUSED ? 2 : 1;
	}
	o->streamed = true;
	return 0;
}

void output_discard(struct output *o)
{
	if (o->streamed) {
		atomic_set_abort(&o->file);	/* closes o->f */
		o->streamed = false;
	} else if (o->f) {
		fclose(o->f);
	}
	free(o->data);
	o->f = NULL;
	o->data = NULL;
}

int output_finish(struct output *o, const char *path)
{
	if (o->streamed) {
		char why[512];
		o->f = NULL;
		o->streamed = false;
		if (atomic_set_commit(&o->file, why, sizeof(why)) != ATOMIC_OK) {
			fprintf(stderr, "gpuplan: %s\n", why);
			return 1;
		}
		return 0;
	}
	fclose(o->f);
	o->f = NULL;
	int rc = 0;
	if (path && strcmp(path, "-") != 0) {
		char why[512];
		int w = atomic_write(path, o->data, o->len, why, sizeof(why));
		if (w != ATOMIC_OK) {
			fprintf(stderr, "gpuplan: %s\n", why);
			rc = w == ATOMIC_REFUSED ? 2 : 1;
		}
	} else if (fwrite(o->data, 1, o->len, stdout) != o->len ||
		   fflush(stdout) != 0) {
		fprintf(stderr, "gpuplan: cannot write to standard output\n");
		rc = 1;
	}
	free(o->data);
	o->data = NULL;
	return rc;
}

/* 17 digits always read back; shorten_reals() then cuts each real to its
 * shortest exact form (num_format.h). */
#define JSON_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(17))

/* The end of the JSON string that starts at the quote *p. */
static const char *skip_string(const char *p)
{
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && p[1])
			p++;
	return *p ? p + 1 : p;
}

/*
 * jansson's text with every real (a number token holding '.', 'e' or 'E')
 * rewritten by num_shortest_json; integers, strings and layout untouched.
 * Returns a new malloc'd string and frees text.
 */
static char *shorten_reals(char *text)
{
	size_t len = strlen(text);
	char *out = xmalloc(len + 1), *o = out;
	const char *p = text;
	while (*p) {
		if (*p == '"') {
			const char *end = skip_string(p);
			memcpy(o, p, (size_t)(end - p));
			o += end - p;
			p = end;
			continue;
		}
		if (*p != '-' && (*p < '0' || *p > '9')) {
			*o++ = *p++;
			continue;
		}
		size_t n = strspn(p, "-+0123456789.eE");
		if (memchr(p, '.', n) || memchr(p, 'e', n) || memchr(p, 'E', n)) {
			char num[NUM_SHORTEST_MAX];
			num_shortest_json(strtod(p, NULL), num);
			size_t k = strlen(num);
			if (k <= n) {	/* never longer than jansson's %.17g */
				memcpy(o, num, k);
				o += k;
				p += n;
				continue;
			}
		}
		memcpy(o, p, n);
		o += n;
		p += n;
	}
	*o = '\0';
	free(text);
	return out;
}

/* One string, one write: json_dumpf writes token by token, which costs
 * more than building the document (a third of `model show --ops` on a
 * 1,000-op graph). */
char *json_dump_text(const json_t *j)
{
	char *text = json_dumps(j, JSON_FLAGS);
	if (!text) {
		fprintf(stderr, "gpuplan: out of memory writing JSON\n");
		abort();
	}
	return shorten_reals(text);
}

void json_write(FILE *f, const json_t *j)
{
	char *text = json_dump_text(j);
	fputs(text, f);
	fputc('\n', f);
	free(text);
}

static void spaces(FILE *f, int n)
{
	fprintf(f, "%*s", n, "");
}

/* text with `indent` more spaces after each of its line breaks */
static void put_indented(FILE *f, const char *text, size_t len, int indent)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl) {
			fwrite(p, 1, (size_t)(end - p), f);
			return;
		}
		fwrite(p, 1, (size_t)(nl - p) + 1, f);
		spaces(f, indent);
		p = nl + 1;
	}
}

void json_stream_begin(struct json_stream *s, FILE *f, int indent,
		       const json_t *head, const char *key)
{
	s->f = f;
	s->indent = indent;
	s->items = 0;
	char *text = json_dump_text(head);
	if (json_object_size(head) == 0) {
		fputc('{', f);		/* "{}" */
	} else {
		put_indented(f, text, strlen(text) - 2, indent);	/* but "\n}" */
		fputc(',', f);
	}
	json_t *k = json_string(key);
	char *quoted = json_dumps(k, JSON_ENCODE_ANY);
	fputc('\n', f);
	spaces(f, indent + 2);
	fprintf(f, "%s: [", quoted);
	free(quoted);
	json_decref(k);
	free(text);
}

int json_stream_next(struct json_stream *s)
{
	fputs(s->items++ ? ",\n" : "\n", s->f);
	spaces(s->f, s->indent + 4);
	return s->indent + 4;
}

void json_stream_item(struct json_stream *s, const json_t *item)
{
	int indent = json_stream_next(s);
	char *text = json_dump_text(item);
	put_indented(s->f, text, strlen(text), indent);
	free(text);
}

void json_stream_end(struct json_stream *s)
{
	if (s->items) {
		fputc('\n', s->f);
		spaces(s->f, s->indent + 2);
	}
	fputs("]\n", s->f);
	spaces(s->f, s->indent);
	fputc('}', s->f);
	if (s->indent == 0)
		fputc('\n', s->f);
}

json_t *json_number(double v)
{
	if (v == floor(v) && fabs(v) < 9007199254740992.0)	/* 2^53 */
		return json_integer((json_int_t)v);
	return json_real(v);
}

json_t *json_text(const char *s)
{
	json_t *j = json_string(s);
	if (!j) {
		char *spelled = term_escape_dup(s, TERM_KEEP_LINES);
		j = json_string(spelled);
		free(spelled);
	}
	if (!j) {
		fprintf(stderr, "gpuplan: out of memory writing JSON\n");
		abort();
	}
	return j;
}

json_t *json_string_or_null(const char *s)
{
	return s ? json_text(s) : json_null();
}

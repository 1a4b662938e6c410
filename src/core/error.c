#include "error.h"

#include <stdarg.h>
#include <stdlib.h>

#include "term_safe.h"
#include "xalloc.h"

void gp_errors_init(struct gp_errors *e)
{
	e->v = NULL;
	e->n = e->cap = 0;
	e->dropped = 0;
}

size_t gp_errors_count(const struct gp_errors *e)
{
	return e->n + e->dropped;
}

bool gp_errors_full(const struct gp_errors *e)
{
	return e->n >= GP_ERRORS_MAX_KEPT;
}

void gp_errors_free(struct gp_errors *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].file);
		free(e->v[i].msg);
		free(e->v[i].hint);
	}
	free(e->v);
	gp_errors_init(e);
}

void gp_errors_add(struct gp_errors *e, const char *file, int line, int col,
		   const char *hint, const char *fmt, ...)
{
	if (gp_errors_full(e)) {
		e->dropped++;
		return;
	}
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 8;
		e->v = xrealloc(e->v, e->cap * sizeof(*e->v));
	}
	struct gp_error *err = &e->v[e->n++];
	va_list ap;
	va_start(ap, fmt);
	err->msg = xvasprintf(fmt, ap);
	va_end(ap);
	err->file = file ? xstrdup(file) : NULL;
	err->hint = hint ? xstrdup(hint) : NULL;
	err->line = line;
	err->col = col;
}

static void format_raw(const struct gp_error *err, char *buf, size_t len)
{
	int k = 0;
	if (err->file && err->line > 0)
		k = snprintf(buf, len, "%s:%d:%d: ", err->file, err->line,
			     err->col > 0 ? err->col : 1);
	else if (err->file)
		k = snprintf(buf, len, "%s: ", err->file);
	if (k < 0 || (size_t)k >= len)
		return;
	if (err->hint)
		snprintf(buf + k, len - (size_t)k, "%s (%s)", err->msg,
			 err->hint);
	else
		snprintf(buf + k, len - (size_t)k, "%s", err->msg);
}

void gp_error_format(const struct gp_error *err, char *buf, size_t len)
{
	char raw[2048];
	format_raw(err, raw, sizeof(raw));
	term_escape(raw, buf, len);
}

void gp_errors_print(const struct gp_errors *e, FILE *out)
{
	char buf[4096];
	for (size_t i = 0; i < e->n; i++) {
		gp_error_format(&e->v[i], buf, sizeof(buf));
		fprintf(out, "%s\n", buf);
	}
	if (e->dropped)
		fprintf(out, "... and %zu more problem%s (only the first %d are shown)\n",
			e->dropped, e->dropped == 1 ? "" : "s", GP_ERRORS_MAX_KEPT);
}

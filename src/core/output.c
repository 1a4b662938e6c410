#include "output.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"

void output_open(struct output *o)
{
	o->data = NULL;
	o->len = 0;
	o->f = open_memstream(&o->data, &o->len);
	if (!o->f) {
		fprintf(stderr, "gpuplan: out of memory\n");
		abort();
	}
}

void output_discard(struct output *o)
{
	if (o->f)
		fclose(o->f);
	free(o->data);
	o->f = NULL;
	o->data = NULL;
}

int output_finish(struct output *o, const char *path)
{
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

void json_write(FILE *f, const json_t *j)
{
	/* One string, one write: json_dumpf writes token by token, which
	 * costs more than building the document (a third of `model show --ops`
	 * on a 1,000-op graph). */
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	if (!text) {
		fprintf(stderr, "gpuplan: out of memory writing JSON\n");
		abort();
	}
	fputs(text, f);
	fputc('\n', f);
	free(text);
}

json_t *json_number(double v)
{
	if (v == floor(v) && fabs(v) < 9007199254740992.0)	/* 2^53 */
		return json_integer((json_int_t)v);
	return json_real(v);
}

json_t *json_string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

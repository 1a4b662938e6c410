/*
 * plan_load.c - a plan JSON read whole: the text checked, the root found
 * to be a plan, its parts read (plan_sources.h, plan_workloads.h) and each
 * option's instance resolved against the sources; see plan_load.h.
 */
#include "plan_load.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file_read.h"
#include "core/output.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "json_read.h"
#include "plan_reader.h"
#include "plan_sources.h"
#include "plan_strings.h"
#include "plan_workloads.h"

/* Each option's instance: owned or illustrative, from the sources. */
static void resolve_instances(struct r_plan *p)
{
	for (size_t i = 0; i < p->n; i++)
		for (size_t k = 0; k < p->w[i].n; k++) {
			struct r_option *o = &p->w[i].v[k];
			const struct r_instance *in = r_plan_instance(p, o->instance);
			o->owned = in && in->owned;
			o->illustrative = in && in->illustrative;
		}
}

/* The root's "schema" is a plan's; else a failure saying what it is. */
static bool schema_ok(struct reader *rd, size_t root)
{
	const struct field *f = rd_field(&rd->root, "schema");
	const char *found = "nothing (the key is missing)", *q = "";
	if (f && jtype_at(&rd->d, f->at) == J_STRING) {
		found = jstring(&rd->d, f->at, &rd->buf);
		if (!strcmp(found, "gpuplan/plan/v1"))
			return true;
		q = "\"";
	} else if (f) {
		found = jtype_name(jtype_at(&rd->d, f->at));
	}
	rd_fail_at(rd, f ? f->at : root,
		   "schema: expected \"gpuplan/plan/v1\" (a file written by "
		"'gpuplan plan --format json'), found %s%.200s%s", q, found, q);
	return false;
}

static void read_root(struct reader *rd, size_t at, struct r_plan *p)
{
	if (jtype_at(&rd->d, at) != J_OBJECT) {
		rd_fail_at(rd, at, "not a plan: expected an object ({...}), found %s",
			   jtype_name(jtype_at(&rd->d, at)));
		return;
	}
	if (!rd_record_read(rd, &rd->root, at, ""))
		return;
	if (!schema_ok(rd, at))
		return;
	p->currency = rd_string(rd, &rd->root, "currency", "", false, NAME);
	r_read_assumptions(rd, p);
	r_read_rates(rd, p);
	r_read_generated(rd, p);
	r_read_plan_sources(rd, p);
	r_read_workloads(rd, p);
	if (!rd->failed)
		resolve_instances(p);
}

int r_plan_parse(struct r_plan *p, const char *text, size_t len,
		 const char *name, bool positions, char *why, size_t whylen)
{
	struct reader rd;
	size_t root, at;
	char msg[400];
	memset(p, 0, sizeof(*p));
	memset(&rd, 0, sizeof(rd));
	rd.d = (struct jdoc){text, len, NULL, 0, 0};
	rd.name = name;
	rd.positions = positions;
	rd.why = why;
	rd.len = whylen;
	if (jdoc_check(&rd.d, &root, &at, msg, sizeof(msg)) < 0) {
		rd_fail_at(&rd, at, "not a plan: %s", msg);
		return -1;
	}
	p->strings = rd.strings = xcalloc(1, sizeof(*rd.strings));
	strmap_init(&rd.strings->map);
	read_root(&rd, root, p);
	jbuf_free(&rd.buf);
	jdoc_free(&rd.d);
	struct record *recs[] = {&rd.root, &rd.workload, &rd.option, &rd.sub, &rd.leaf};
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		rd_record_free(recs[i]);
	if (rd.failed) {
		r_plan_free(p);
		return -1;
	}
	return 0;
}

int r_plan_load(struct r_plan *p, const char *path, char *why, size_t len)
{
	char *text;
	size_t n;
	const char *name = file_shown(path);	/* "<stdin>" for "-" */
	memset(p, 0, sizeof(*p));
	switch (file_read_all(path, PLAN_MAX_BYTES, &text, &n)) {
	case FILE_READ_CANNOT_OPEN:
		snprintf(why, len, "%s: cannot open: %s", name, strerror(errno));
		return -1;
	case FILE_READ_CANNOT_READ:
		snprintf(why, len, "%s: cannot read: %s", name, strerror(errno));
		return -1;
	case FILE_READ_TOO_LARGE:
		snprintf(why, len, "%s: file too large: a plan may be at most %zu MiB",
			 name, PLAN_MAX_BYTES >> 20);
		return -1;
	case FILE_READ_OK:
		break;
	}
	int rc = r_plan_parse(p, text, n, name, true, why, len);
	free(text);
	return rc;
}

int r_plan_from_json(struct r_plan *p, const json_t *root, const char *name,
		     char *why, size_t len)
{
	/* the flags of json_write (core/output.h), so lines and columns are
	 * those of the plan a -o file holds */
	char *text = json_dump_text(root);
	memset(p, 0, sizeof(*p));
	if (!text) {
		snprintf(why, len, "%s: cannot write the plan as JSON", name);
		return -1;
	}
	int rc = r_plan_parse(p, text, strlen(text), name, true, why, len);
	free(text);
	return rc;
}

/*
 * model.c - what a loaded model description is and frees; see model.h.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"

void op_specs_free(struct op_spec *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct op_spec *s = &v[i];
		free(s->name);
		free(s->from);
		for (size_t k = 0; k < s->n_with; k++)
			free(s->with[k]);
		free(s->with);
		free(s->include_path);
		if (s->spec != SPEC_INCLUDE)	/* borrowed from the cache */
			op_specs_free(s->body, s->n_body);
		op_specs_free(s->shortcut, s->n_shortcut);
	}
	free(v);
}

void model_free(struct model *m)
{
	free(m->name);
	free(m->description);
	free(m->file);
	free_sources(&m->sources);
	op_specs_free(m->ops, m->n_ops);
	for (size_t i = 0; i < m->n_blocks; i++) {
		free(m->blocks[i].real);
		op_specs_free(m->blocks[i].ops, m->blocks[i].n_ops);
	}
	free(m->blocks);
	for (size_t i = 0; i < m->n_files; i++)
		free(m->files[i]);
	free(m->files);
	memset(m, 0, sizeof(*m));
}

bool model_is_sequence(const struct model *m)
{
	return m->kind == MODEL_TRANSFORMER ||
	       (m->kind == MODEL_GRAPH && m->input.kind != SHAPE_IMAGE);
}

/*
 * profile_emit.c - the scalars every part of the profile's writer writes;
 * see profile_emit.h.
 */
#include "profile/profile_emit.h"

#include "core/yaml_emit.h"

void profile_emit_string(FILE *f, const char *indent, const char *key,
			 const char *value)
{
	fprintf(f, "%s%s: ", indent, key);
	yaml_emit_text(f, value);
	fputc('\n', f);
}

void profile_emit_name(FILE *f, const char *indent, const char *key,
		       const char *value, size_t size)
{
	fprintf(f, "%s%s: ", indent, key);
	yaml_emit_name(f, value, size);
	fputc('\n', f);
}

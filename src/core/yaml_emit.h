/*
 * yaml_emit.h - text written as a YAML double-quoted scalar that gpuplan's
 * loaders (yr_string, yr_name) take back: the measured profile's and the
 * fitted file's writers share it.
 *
 * A control character, bidirectional override or byte that is not UTF-8
 * is first spelt out as term_escape() does ("\x1b", "\u202e"), so a
 * plugin's message or a hostname holding one cannot make a file
 * unreadable; then " and \ are escaped.  Text keeps its line breaks and
 * tabs; a name does not have any, and is cut (never inside an escape or a
 * character) to the size of the field the loader reads it into.
 */
#ifndef GPUPLAN_CORE_YAML_EMIT_H
#define GPUPLAN_CORE_YAML_EMIT_H

#include <stddef.h>
#include <stdio.h>

void yaml_emit_text(FILE *f, const char *s);
/* size: of the field the loader reads the name into */
void yaml_emit_name(FILE *f, const char *s, size_t size);

#endif

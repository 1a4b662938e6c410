/*
 * prom_text.h - the Prometheus text exposition format (version 0.0.4), as
 * the node exporter's textfile collector and promtool read it.  Every
 * --prom output of gpuplan (bench, diagnose, plan) is written through here,
 * so the rules live in one place:
 *
 *   # HELP gpuplan_x_bytes what it is
 *   # TYPE gpuplan_x_bytes gauge
 *   gpuplan_x_bytes{device="cuda",index="0"} 8.589934592e+10
 *
 * - a family's HELP and TYPE come once, before its samples, and a
 *   family's samples are contiguous (callers emit one family at a time);
 * - label values escape \, " and newline; HELP text escapes \ and newline;
 *   other control bytes and bytes that are not UTF-8 are spelled out
 *   first ("\x1b", core/term_safe.h), so the text is UTF-8 with no
 *   control byte but the line ends;
 * - values print with %.17g (round-trip exact), NaN as NaN and infinities
 *   as +Inf/-Inf;
 * - names follow Prometheus' conventions: the gpuplan_ prefix and a base
 *   unit suffix (_bytes, _seconds, _flops, _ratio, _celsius, _watts,
 *   _hertz); prom_name_ok() checks the character set.
 *
 * Ownership: nothing is kept.
 */
#ifndef GPUPLAN_CORE_PROM_TEXT_H
#define GPUPLAN_CORE_PROM_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct prom_label {
	const char *name;
	const char *value;	/* NULL or "": the label is left out */
};

/* The HELP and TYPE lines that open a family.  type: "gauge", "counter"
 * or "untyped". */
void prom_family(FILE *f, const char *name, const char *type,
		 const char *help);

/* One sample line: name{labels} value.  Labels with an empty value are
 * left out (Prometheus treats an empty label as an absent one). */
void prom_sample(FILE *f, const char *name, const struct prom_label *labels,
		 size_t n_labels, double value);

/* A number as a label value ("%.17g"), into buf. */
const char *prom_number(double v, char *buf, size_t len);

/* True when name is a valid metric or label name:
 * [a-zA-Z_:][a-zA-Z0-9_:]* (label names: no ':'). */
bool prom_name_ok(const char *name, bool label);

#endif

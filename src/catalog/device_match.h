/*
 * device_match.h - the catalog's accelerator for a device's name as the
 * driver reports it ("NVIDIA A100-SXM4-80GB" is A100-SXM-80GB): the entry
 * whose every name token (split on spaces and hyphens) the device's name
 * holds, a token matching exactly or as the start of one (SXM in SXM4);
 * among several, the one whose tokens all match exactly ("A10G" over
 * "A10"), else the one with the most tokens matching exactly
 * ("A100-SXM-80GB" over "A10" in "NVIDIA A100-SXM4-80GB"); failing any, the one whose family (first token, "H100") the
 * device names.  Used by plan --profile (calibrate.c) and by bench's
 * reference-baseline verdicts.
 *
 * Ownership: the result points into cat.
 */
#ifndef GPUPLAN_CATALOG_DEVICE_MATCH_H
#define GPUPLAN_CATALOG_DEVICE_MATCH_H

#include <stddef.h>

#include "catalog.h"

/* The one accelerator, or NULL; *n is the number of candidates (0: none,
 * more than 1: ambiguous, their names joined with ", " in names). */
const struct accelerator *catalog_match_device(const struct catalog *cat,
					       const char *device, char *names,
					       size_t len, int *n);

#endif

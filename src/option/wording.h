/*
 * wording.h - how the sentences, the table and the report write an
 * option's GPUs, GPU-hours, bytes and a ratio of times: one rule each, so
 * that every output says a figure the same way.
 *
 * Ownership: each function writes into the caller's buffer (and returns it
 * where it returns a string).
 */
#ifndef GPUPLAN_OPTION_WORDING_H
#define GPUPLAN_OPTION_WORDING_H

#include <stddef.h>

#include "option/option.h"

/* "8 x H200-SXM", or with MIG "8 x H200-SXM as 15 x 3g.71gb": the GPUs
 * an option uses, physical GPUs first. */
void plan_gpus_text(const struct plan_option *o, char *buf, size_t len);

/* GPU-hours with three significant digits below 100 ("0.46"), whole
 * above ("39928"); never "0" for a non-zero figure. */
const char *plan_gpu_hours_text(double h, char *buf, size_t len);
/* Bytes in decimal GB, three significant digits ("83.9 GB"): the unit
 * family every need-against-capacity comparison uses, since the catalog
 * states GPU memory in GB as the datasheets do. */
const char *plan_gb_text(double bytes, char *buf, size_t len);
/* How `slow`'s time compares with `fast`'s, one rule: from 2x as
 * "4.95x the time", below it "38% slower" or "3% faster", and from twice
 * as fast as "22.2x as fast". */
const char *plan_slower_text(double slow, double fast, char *buf, size_t len);

#endif

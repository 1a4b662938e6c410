/*
 * keys.h - which keys a workload takes, inside src/workload/ only: those
 * of both kinds, of training and of inference, the required ones, and
 * those of a workload item inside an outcome record (`training:`,
 * `serving:`).
 *
 * A key of the other kind is named as such, a key the outcome says itself
 * (its cluster, its traffic) points there, any other unknown key gets a
 * did-you-mean.
 *
 * Ownership: nothing is kept.
 */
#ifndef GPUPLAN_WORKLOAD_KEYS_H
#define GPUPLAN_WORKLOAD_KEYS_H

#include <stdbool.h>

#include "core/yaml_read.h"

/*
 * The keys of workload map `what`, with its required ones; kind is an
 * enum workload_kind, or -1 when unknown (the keys of both kinds are then
 * taken).  1 after recording a problem, else 0.
 */
int wl_check_keys(struct yread *r, const struct ynode *map, const char *what,
		  int kind);

/* The same for an item inside an outcome record: a training run, or a
 * served model when serving. */
int wl_check_embedded_keys(struct yread *r, const struct ynode *map,
			   const char *what, bool serving);

#endif

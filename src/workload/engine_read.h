/*
 * engine_read.h - the serving engine as a workload or a serving record
 * names it: `engine:` (a name from the table, engine.h), `engine_version:`
 * and `engine_settings:`, a mapping of the engine's own setting names to
 * values ({max_num_batched_tokens: 8192, enable_chunked_prefill: true}),
 * each checked against that engine and version and its range.
 *
 * Ownership: the config points into engine.c's static table.
 */
#ifndef GPUPLAN_WORKLOAD_ENGINE_READ_H
#define GPUPLAN_WORKLOAD_ENGINE_READ_H

#include "core/yaml_read.h"
#include "workload/engine.h"

/*
 * The engine named by node `name` (a scalar) at the version in node
 * `version` (NULL: the newest in the table) into *c, with its defaults.  An unknown name gets a
 * did-you-mean, an unknown version the versions known.  0, or -1.
 */
int wl_engine_select(struct yread *r, const struct ynode *name,
		     const struct ynode *version, struct engine_config *c);

/* Settings node `settings` (a mapping; NULL: none) over c's defaults:
 * each key must be one c's engine has, each value in its range.  ctx
 * names the mapping in messages.  0, or -1. */
int wl_engine_settings(struct yread *r, const struct ynode *settings,
		       const char *ctx, struct engine_config *c);

/*
 * What the settings must satisfy with the traffic's lengths: a token
 * budget that holds every decode of a full engine (max_seqs; vLLM refuses
 * less) and, with chunked prefill off, the longest prompt in one
 * iteration.  at: the node to report at.  0, or -1.
 */
int wl_engine_check(struct yread *r, const struct ynode *at,
		    const struct engine_config *c, long longest_prompt);

#endif

/*
 * live.h - `gpuplan diagnose --live`: one GPU sampled through NVML for a
 * while (bench/gpu_sampler.h), into the same series a log gives, so the
 * same detectors read it.  Live samples also count the compute processes
 * on the GPU, which a log cannot show.
 *
 * Ownership: the GPU written into *log is owned by log (smi_log_free).
 */
#ifndef GPUPLAN_DIAGNOSE_LIVE_H
#define GPUPLAN_DIAGNOSE_LIVE_H

#include <stddef.h>

#include "smi_log.h"

/* Samples GPU `index` every interval_s for duration_s seconds (blocking)
 * into log (initialised here, one GPU).  Returns 0, or -1 with why
 * ("libnvidia-ml.so.1 not found (NVML comes with the NVIDIA driver)",
 * "no GPU with index 3 in NVML (it sees 1)"). */
int diagnose_live(unsigned index, double duration_s, double interval_s,
		  struct smi_log *log, char *why, size_t len);

#endif

/*
 * gpu_sampler.h - clocks, temperature, power and throttle reasons of a GPU,
 * sampled through NVML on a background thread while a bench runs.
 *
 * gpuplan links no NVIDIA library: NVML (libnvidia-ml.so.1, installed with
 * the driver) is opened with dlopen when a sampler starts, and only the
 * handful of functions below are looked up.  $GPUPLAN_NVML_LIBRARY, when
 * set and non-empty, names the library to open instead (tests point it at
 * a fake).  Where NVML is missing the bench still runs; the profile then
 * says that no samples were taken and why.
 *
 * What a sample holds, when a run is throttled, and the names of the
 * throttle reasons are the profile's record of the samples:
 * profile/samples.h.
 *
 * Ownership: gpu_sampler_start returns a sampler that the caller stops with
 * gpu_sampler_stop (which joins the thread, moves the samples into *out and
 * frees the sampler).  struct gpu_samples owns its array; free with
 * gpu_samples_free.
 */
#ifndef GPUPLAN_BENCH_GPU_SAMPLER_H
#define GPUPLAN_BENCH_GPU_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/samples.h"

struct gpu_sampler;

/*
 * Opens NVML, finds the GPU by its UUID ("GPU-..." as nvidia-smi prints
 * it; the CUDA plugin reports it), takes a first sample and starts a thread
 * that samples every interval_s seconds (0.1 is the bench's choice).
 * Returns the sampler, or NULL with why: "libnvidia-ml.so.1 not found
 * (NVML comes with the NVIDIA driver)", "nvmlInit_v2 failed: ...",
 * "no GPU with UUID ... in NVML".
 */
struct gpu_sampler *gpu_sampler_start(const char *uuid, double interval_s,
				      char *why, size_t len);

/*
 * The same for the GPU NVML numbers index (nvidia-smi's index), for a
 * command that knows no UUID (run, diagnose --live).  Fails with "no GPU
 * with index N in NVML (it sees M)" when there is none.
 */
struct gpu_sampler *gpu_sampler_start_index(unsigned index, double interval_s,
					    char *why, size_t len);

/* The sampled GPU's name ("NVIDIA H100 80GB HBM3") and UUID as NVML gives
 * them; "" where NVML refused. */
void gpu_sampler_identity(const struct gpu_sampler *s, char *name,
			  size_t name_len, char *uuid, size_t uuid_len);

/* Labels the samples taken from now on (copied; truncated to fit). */
void gpu_sampler_mark(struct gpu_sampler *s, const char *during);

/* Stops the thread, takes a last sample, closes NVML and moves every
 * sample into out (initialised here).  s is freed; NULL is a no-op that
 * leaves out empty. */
void gpu_sampler_stop(struct gpu_sampler *s, struct gpu_samples *out);

#endif

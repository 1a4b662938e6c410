/*
 * device.h - what was measured: the device a measured profile describes
 * (the CPU, or a GPU as the CUDA plugin read it) and the host CPU it ran on.
 *
 * It lives in src/profile, not src/bench, because it is the `device:` and
 * `host:` record of a measured profile (profile.h): written and read back
 * there, and read by whatever loads a profile.  Filling it in is a bench
 * backend's describe hook (bench/backend.h).  Its parts keep their own
 * homes: struct cpu_info (bench/cpu_info.h, with the code that reads it
 * from Linux) and struct gpuplan_cuda_device_info (the CUDA plugin's ABI,
 * bench/cuda/plugin_abi.h, shared with the plugin's own build).
 *
 * Ownership: struct bench_device is caller-allocated plain data.
 */
#ifndef GPUPLAN_PROFILE_DEVICE_H
#define GPUPLAN_PROFILE_DEVICE_H

#include "bench/cpu_info.h"
#include "bench/cuda/plugin_abi.h"

/* What is being measured.  kind is "cpu" or "cuda". */
struct bench_device {
	char kind[8];		/* "cpu" or "cuda" */
	char name[256];		/* the CPU's model, or the GPU's name */
	int index;		/* cuda:N; 0 for the cpu */
	struct cpu_info cpu;	/* the host CPU (both kinds run on a host) */
	/* kind "cuda": the GPU as the plugin reads it, its build line and
	 * how many GPUs the host has (p2p and allreduce use them all) */
	struct gpuplan_cuda_device_info gpu;
	char plugin_build[160];
	int gpu_count;
};

#endif

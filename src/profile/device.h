/*
 * device.h - what was measured: the device a measured profile describes
 * (the CPU, or a GPU as the CUDA plugin read it) and the host CPU it ran on.
 *
 * It lives in src/profile, not src/bench, because it is the `device:` and
 * `host:` record of a measured profile (profile.h): written and read back
 * there, and read by whatever loads a profile.  Filling it in is a bench
 * backend's describe hook (bench/backend.h).  Its parts have headers of
 * their own beside it: struct cpu_info (cpu_identity.h; the code that
 * reads it from Linux is bench/cpu_info.h) and struct
 * gpuplan_cuda_device_info (gpu_identity.h, part of the CUDA plugin's ABI,
 * bench/cuda/plugin_abi.h, so shared with the plugin's own build).
 *
 * Ownership: struct bench_device is caller-allocated plain data.
 */
#ifndef GPUPLAN_PROFILE_DEVICE_H
#define GPUPLAN_PROFILE_DEVICE_H

#include "profile/cpu_identity.h"
#include "profile/gpu_identity.h"

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

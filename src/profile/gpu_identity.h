/*
 * gpu_identity.h - what a GPU is, as the CUDA plugin reads it: name, UUID,
 * PCI address, compute capability, SMs, memory and clocks, and the CUDA
 * versions of the driver and of the plugin's runtime.
 *
 * It lives in src/profile because it is the `device:` record of a profile
 * measured on a GPU (device.h).  It is also part of the CUDA plugin's ABI
 * (bench/cuda/plugin_abi.h includes it; the device_info hook fills it), so
 * it is plain C that includes nothing of gpuplan's or of CUDA's: it must
 * compile in the host program (gcc, C11) and in the plugin (nvcc, C++).
 * Changing the layout of anything below means bumping
 * GPUPLAN_CUDA_ABI_VERSION (bench/cuda/plugin_abi.h).
 *
 * Ownership: struct gpuplan_cuda_device_info is caller-allocated plain
 * data with no pointers; nothing needs freeing.
 */
#ifndef GPUPLAN_PROFILE_GPU_IDENTITY_H
#define GPUPLAN_PROFILE_GPU_IDENTITY_H

#include <stdint.h>

/*
 * Bits of gpuplan_cuda_device_info.valid.  A field whose bit is clear could
 * not be read on this device/driver and must be shown as absent, never as 0.
 * name, compute capability, SM count and total memory have no bit: the
 * device_info hook fails as a whole if it cannot read them.
 */
enum gpuplan_cuda_info_valid {
	GPUPLAN_CUDA_HAS_UUID		= 1u << 0,
	GPUPLAN_CUDA_HAS_PCI_BUS_ID	= 1u << 1,
	GPUPLAN_CUDA_HAS_MEM_BUS_WIDTH	= 1u << 2,
	GPUPLAN_CUDA_HAS_SM_CLOCK	= 1u << 3,
	GPUPLAN_CUDA_HAS_MEM_CLOCK	= 1u << 4,
	GPUPLAN_CUDA_HAS_MEM_BANDWIDTH	= 1u << 5,
	GPUPLAN_CUDA_HAS_DRIVER_VERSION	= 1u << 6,
	GPUPLAN_CUDA_HAS_RUNTIME_VERSION = 1u << 7,
};

struct gpuplan_cuda_device_info {
	char name[256];			/* "NVIDIA H100 80GB HBM3" */
	char uuid[48];			/* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi prints it */
	char pci_bus_id[32];		/* "0000:3b:00.0" (domain:bus:device.function) */
	int cc_major;			/* compute capability, e.g. 9 */
	int cc_minor;			/* e.g. 0 */
	int sm_count;			/* streaming multiprocessors */
	uint64_t total_mem_bytes;	/* global memory, bytes */
	int mem_bus_width_bits;		/* global memory bus, bits */
	uint64_t sm_clock_max_hz;	/* peak SM clock, Hz */
	uint64_t mem_clock_hz;		/* peak memory clock, Hz, as the driver reports it */
	/*
	 * Theoretical peak memory bandwidth, bytes/s:
	 *   2 * mem_clock_hz * mem_bus_width_bits / 8
	 * The 2 is the double-data-rate factor: the driver reports the memory
	 * clock such that two transfers happen per reported cycle (true for
	 * HBM and, with the driver's own scaling, for GDDR).  Valid only when
	 * both inputs are.
	 */
	double mem_bandwidth_bytes_per_s;
	int driver_version;		/* CUDA version the driver supports, 1000*major + 10*minor: 13000 = 13.0 */
	int runtime_version;		/* CUDA runtime linked into the plugin, same encoding */
	uint32_t valid;			/* enum gpuplan_cuda_info_valid bits */
};

#endif

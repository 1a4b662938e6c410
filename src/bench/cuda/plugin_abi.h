/*
 * plugin_abi.h - the contract between gpuplan and its CUDA plugin.
 *
 * gpuplan never links CUDA.  The CUDA backend lives in libgpuplan-cuda.so,
 * which gpuplan dlopen()s only when asked (see bench/plugin_loader.h).  This
 * header is all the two sides share, so it is plain C and includes nothing
 * from CUDA: it must compile in the host program (gcc, C11) and in the
 * plugin (nvcc, C++).
 *
 * Ownership: the plugin table returned by the entry point and the strings it
 * points to (build_info) are static data owned by the plugin; they stay valid
 * until the library is unloaded.  Every struct the hooks fill is allocated by
 * the caller.  Error text goes into a caller-provided buffer, always
 * NUL-terminated when errlen > 0, lowercase, without a full stop.
 *
 * Changing the layout of anything below means bumping
 * GPUPLAN_CUDA_ABI_VERSION; the loader refuses a plugin whose version
 * differs.  Appending hooks at the end of struct gpuplan_cuda_plugin without
 * changing the existing ones is the one change struct_size lets us make
 * compatibly.
 */
#ifndef GPUPLAN_BENCH_CUDA_PLUGIN_ABI_H
#define GPUPLAN_BENCH_CUDA_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUPLAN_CUDA_ABI_VERSION 1
#define GPUPLAN_CUDA_ENTRY_SYMBOL "gpuplan_cuda_plugin_entry"
#define GPUPLAN_CUDA_PLUGIN_FILE "libgpuplan-cuda.so"

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

/*
 * Result of the plugin's self-test: one STREAM triad a[i] = b[i] + s * c[i]
 * over `elements` doubles, timed with CUDA events around a single launch
 * after a warm-up launch, and checked element by element on the host.
 */
struct gpuplan_cuda_self_test {
	uint64_t elements;		/* doubles per array */
	uint64_t bytes_moved;		/* 3 arrays x 8 B x elements: read b and c, write a */
	double kernel_seconds;		/* timed launch, from cudaEventElapsedTime, s */
	double bytes_per_s;		/* bytes_moved / kernel_seconds */
	double max_abs_error;		/* largest |a[i] - expected|; the inputs make expected exact */
	int passed;			/* 1 when every element matched exactly */
};

/*
 * The plugin's table of hooks.  Every hook is required.  Hooks that can fail
 * return 0 on success and nonzero with a reason in err on failure; none of
 * them prints or exits.  init must succeed before any other hook is called,
 * and shutdown is the last call before the library is unloaded.
 *
 * self_test returns 0 only when the kernel ran and every element matched.
 * On a wrong result it still fills `out` (passed = 0, the timing and the
 * largest error) and err names the first bad element.
 */
struct gpuplan_cuda_plugin {
	uint32_t abi_version;		/* GPUPLAN_CUDA_ABI_VERSION the plugin was built with */
	uint32_t struct_size;		/* sizeof(struct gpuplan_cuda_plugin) in the plugin */
	const char *build_info;		/* one line: runtime version, architectures compiled for */

	int (*init)(char *err, size_t errlen);
	int (*device_count)(void);	/* devices found by init; 0 before init */
	int (*device_info)(int dev, struct gpuplan_cuda_device_info *out,
			   char *err, size_t errlen);
	int (*self_test)(int dev, size_t elements,
			 struct gpuplan_cuda_self_test *out,
			 char *err, size_t errlen);
	void (*shutdown)(void);
};

/* The one exported symbol of libgpuplan-cuda.so; named by GPUPLAN_CUDA_ENTRY_SYMBOL. */
const struct gpuplan_cuda_plugin *gpuplan_cuda_plugin_entry(void);

typedef const struct gpuplan_cuda_plugin *(*gpuplan_cuda_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif

/*
 * cpu_identity.h - what a CPU is: its model, logical CPUs and cores,
 * memory, caches and the instruction-set extensions that decide which GEMM
 * kernels it can run.
 *
 * It lives in src/profile because it is part of the `device:` and `host:`
 * record of a measured profile (device.h): the record is plain data, and
 * what a STREAM footprint must outgrow is read from it (stream_rule.h).
 * Reading it from Linux is bench's (bench/cpu_info.h).  A field whose bit
 * in `valid` is clear could not be read and must be shown as absent; 0
 * never means "unknown".
 *
 * Ownership: struct cpu_info is caller-allocated plain data with no
 * pointers; nothing needs freeing.
 */
#ifndef GPUPLAN_PROFILE_CPU_IDENTITY_H
#define GPUPLAN_PROFILE_CPU_IDENTITY_H

#include <stdint.h>

enum cpu_info_valid {
	CPU_INFO_HAS_MODEL		= 1u << 0,
	CPU_INFO_HAS_LOGICAL_CPUS	= 1u << 1,
	CPU_INFO_HAS_MEMORY		= 1u << 2,
	CPU_INFO_HAS_L1D		= 1u << 3,
	CPU_INFO_HAS_L2			= 1u << 4,
	CPU_INFO_HAS_L3			= 1u << 5,
	/* The flags (x86) or Features (arm64) line was read, so a clear bit
	 * in `isa` means the CPU lacks that extension. */
	CPU_INFO_HAS_ISA		= 1u << 6,
	CPU_INFO_HAS_CORES		= 1u << 7,
};

/* Extensions that decide which GEMM kernels a CPU can run. */
enum cpu_isa {
	CPU_ISA_AVX2		= 1u << 0,
	CPU_ISA_FMA		= 1u << 1,
	CPU_ISA_AVX512F		= 1u << 2,
	CPU_ISA_AVX512_BF16	= 1u << 3,
	CPU_ISA_AMX_TILE	= 1u << 4,
	CPU_ISA_ASIMD		= 1u << 5,	/* arm64 NEON */
	CPU_ISA_SVE		= 1u << 6,
};

struct cpu_info {
	char model[256];	/* "AMD EPYC 9654 96-Core Processor" */
	int model_is_machine;	/* 1: no model name in /proc/cpuinfo, model is uname's machine ("aarch64") */
	long logical_cpus;	/* online logical CPUs (sysconf), ignoring affinity and cgroup limits */
	long physical_cores;	/* distinct (package, core) pairs over the online CPUs:
				 * logical_cpus / physical_cores threads per core */
	uint64_t memory_bytes;	/* physical memory, bytes */
	/* Per cache instance, bytes, as cpu0 sees them: an L3 shared by
	 * many cores is its full size, not a per-core share. */
	uint64_t l1d_bytes;
	uint64_t l2_bytes;
	uint64_t l3_bytes;
	unsigned l3_instances;	/* distinct L3s across the online CPUs (one per
				 * CCD on an EPYC, per socket on most Xeons);
				 * 0: unknown.  STREAM sizes its arrays past the
				 * sum of them. */
	uint32_t isa;		/* enum cpu_isa bits; meaningful with CPU_INFO_HAS_ISA */
	uint32_t valid;		/* enum cpu_info_valid bits */
};

#endif

/*
 * plugin_abi.h - the contract between gpuplan and its CUDA plugin.
 *
 * gpuplan never links CUDA.  The CUDA backend lives in libgpuplan-cuda.so,
 * which gpuplan dlopen()s only when asked (see bench/plugin_loader.h).  This
 * header, with the two it includes (bench/program_abi.h, and
 * profile/gpu_identity.h for the device description the plugin fills), is
 * all the two sides share, so it is plain C and includes nothing from CUDA:
 * it must compile in the host program (gcc, C11) and in the plugin (nvcc,
 * C++).
 *
 * Ownership: the plugin table returned by the entry point and the strings it
 * points to (build_info) are static data owned by the plugin; they stay valid
 * until the library is unloaded.  Every struct the hooks fill is allocated by
 * the caller.  Error text goes into a caller-provided buffer, always
 * NUL-terminated when errlen > 0, lowercase, without a full stop.
 *
 * Changing the layout of anything below, or of struct
 * gpuplan_cuda_device_info (profile/gpu_identity.h), means bumping
 * GPUPLAN_CUDA_ABI_VERSION; the loader refuses a plugin whose version
 * differs.  Appending hooks at the end of struct gpuplan_cuda_plugin without
 * changing the existing ones is the one change struct_size lets us make
 * compatibly.
 */
#ifndef GPUPLAN_BENCH_CUDA_PLUGIN_ABI_H
#define GPUPLAN_BENCH_CUDA_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#include "../program_abi.h"
#include "profile/gpu_identity.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GPUPLAN_CUDA_ABI_VERSION 3
#define GPUPLAN_CUDA_ENTRY_SYMBOL "gpuplan_cuda_plugin_entry"
#define GPUPLAN_CUDA_PLUGIN_FILE "libgpuplan-cuda.so"

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
 * Jobs: what the bench suites measure.  The host (bench/backend_cuda.c)
 * decides sizes, repetitions and what counts as work; the plugin only
 * prepares a job, runs it a given number of times between two CUDA events
 * and checks its result.  One job kind per measured operation:
 *
 *   GEMM        C = op(A) op(B) through cuBLASLt, column-major, C m x n,
 *               reduced over k, at `precision` (enum bench_precision), on
 *               `device`.  A is stored k x m and transposed (the TN layout)
 *               unless flags has GPUPLAN_JOB_A_PLAIN (stored m x k); B is
 *               stored k x n unless GPUPLAN_JOB_B_TRANSPOSED (stored n x k,
 *               transposed): a framework's forward, data- and
 *               weight-gradient GEMMs are TN, NN and NT (bench/
 *               train_shapes.h).  FP8 and INT8 take TN only (BENCH_
 *               UNSUPPORTED otherwise).  TF32 is fp32 storage with
 *               CUBLAS_COMPUTE_32F_FAST_TF32; FP8 is e4m3 A and B with fp32
 *               accumulation and bf16 C (sm_89 and newer); INT8
 *               accumulates and writes int32.  Inputs are drawn uniform in
 *               [-1, 1) (int8: integers in [-64, 64]), seeded, every
 *               mantissa bit varying: a GEMM of zeros or of a few values
 *               draws less power and so runs faster on a power-limited
 *               part than one of real data.  The fastest algorithm of the
 *               heuristic's first few is chosen in prepare.
 *               With GPUPLAN_JOB_BESIDE_COMM the GEMM runs beside a
 *               collective on other streams for the whole of every run:
 *               with n_devices >= 2, an NCCL all-reduce (sum, fp32) of
 *               `bytes` per GPU over GPUs 0..n_devices-1 (which include
 *               `device`), each of them running the same GEMM too; with
 *               n_devices 1, a device-to-device copy of `bytes` on
 *               `device` (copy engines: memory traffic, not NCCL's SMs).
 *               The run's time is the GEMMs' on `device`'s stream.
 *   COPY        the device-memory copy kernel a[i] = b[i] over `bytes` per
 *               array (vectorised 16-byte loads and stores, grid-stride).
 *   TRIAD       a[i] = b[i] + s * c[i] over `bytes` per array, doubles.
 *   H2D, D2H    cudaMemcpyAsync of `bytes` between host and device; the
 *               host buffer is pinned (cudaHostAlloc) when flags has
 *               GPUPLAN_JOB_PINNED, else plain malloc'ed (pageable) memory.
 *   D2D         cudaMemcpyAsync device to device of `bytes` on `device`.
 *   P2P         cudaMemcpyPeerAsync of `bytes` from `device` to `peer`;
 *               with GPUPLAN_JOB_BIDIRECTIONAL also peer to device at the
 *               same time on a second stream (each direction `bytes`).
 *               Peer access is enabled when the pair supports it; a pair
 *               without it is timed through the host, as CUDA does, and
 *               says so in `note`.
 *   ALLREDUCE   ncclAllReduce (sum) of `bytes` per GPU at `precision`
 *               over GPUs device..device+n_devices-1, one communicator per
 *               GPU from ncclCommInitAll, in place.  NCCL is loaded with
 *               dlopen("libnccl.so.2"); without it prepare fails with
 *               BENCH_UNSUPPORTED.
 *   LAUNCH      an empty kernel <<<1, 1>>> launched back to back; the time
 *               per launch is the time of a run over its iterations.
 *   PROGRAM     every kernel of `program` (program_abi.h) in order: GEMMs
 *               through cuBLASLt (strided-batched when count > 1), STREAM
 *               and ROWNORM with the plugin's own kernels.
 *
 * seconds: elapsed time from cudaEventElapsedTime between an event recorded
 * before the first iteration and one after the last, on the job's stream(s),
 * after a cudaEventSynchronize (host-to-device copies from pageable memory
 * included, since the copy returns only when the host side is done).
 */
enum gpuplan_cuda_job_kind {
	GPUPLAN_JOB_GEMM = 1,
	GPUPLAN_JOB_COPY = 2,
	GPUPLAN_JOB_TRIAD = 3,
	GPUPLAN_JOB_H2D = 4,
	GPUPLAN_JOB_D2H = 5,
	GPUPLAN_JOB_D2D = 6,
	GPUPLAN_JOB_P2P = 7,
	GPUPLAN_JOB_ALLREDUCE = 8,
	GPUPLAN_JOB_LAUNCH = 9,
	GPUPLAN_JOB_PROGRAM = 10,
};

enum gpuplan_cuda_job_flags {
	GPUPLAN_JOB_PINNED = 1u << 0,
	GPUPLAN_JOB_BIDIRECTIONAL = 1u << 1,
	GPUPLAN_JOB_A_PLAIN = 1u << 2,		/* GEMM: A stored m x k, not transposed */
	GPUPLAN_JOB_B_TRANSPOSED = 1u << 3,	/* GEMM: B stored n x k, transposed */
	GPUPLAN_JOB_BESIDE_COMM = 1u << 4,	/* GEMM: a collective runs beside it */
};

struct gpuplan_cuda_job {
	uint32_t kind;			/* enum gpuplan_cuda_job_kind */
	uint32_t precision;		/* enum bench_precision: GEMM, ALLREDUCE, PROGRAM */
	uint32_t flags;			/* enum gpuplan_cuda_job_flags */
	int32_t device;			/* the (first) device */
	int32_t peer;			/* P2P: the other device */
	int32_t n_devices;		/* ALLREDUCE, GEMM beside a collective: GPUs taking part */
	int64_t m, n, k;		/* GEMM */
	uint64_t bytes;			/* COPY, TRIAD: per array; transfers: per direction;
					 * ALLREDUCE and a GEMM's collective: per GPU */
	const struct bench_program *program;	/* PROGRAM; read during prepare only */
};

/* What prepare learnt about a job. */
struct gpuplan_cuda_job_info {
	uint64_t device_bytes;		/* device memory the job holds (all GPUs), from
					 * cudaMemGetInfo before and after prepare */
	char note[160];			/* "" or one line the host prints and records:
					 * "peer access unsupported: staged through the host",
					 * "cublasLt algorithm 3 of 8 chosen" */
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
 *
 * job_prepare allocates and initialises what the job needs (and, for GEMM,
 * picks the algorithm); it returns an enum bench_status (program_abi.h), with *job
 * set to an opaque handle only on BENCH_OK.  A failed prepare holds
 * nothing.  job_run runs the job `iterations` (>= 1) times and stores the
 * elapsed seconds as the timer gave them: the host discards and counts a
 * reading that is not finite and greater than zero (profile/timing.h), so
 * the plugin need not filter them.  job_run returns BENCH_OK, BENCH_ERROR,
 * or BENCH_OUT_OF_MEMORY when memory the run needs beyond what prepare took
 * ran out; job_check returns BENCH_OK or BENCH_ERROR.  After BENCH_ERROR
 * the host runs self_test on the job's devices to tell a fault of the job
 * from a lost device (a sticky error fails every later call).
 * job_check verifies the output of the last run against a host computation
 * (exactly for copies and integer GEMM, within the precision's tolerance
 * for floating GEMM on sampled elements), naming the first mismatch in err.
 * job_release frees it all.
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

	/* ABI 2: the bench jobs. */
	int (*job_prepare)(const struct gpuplan_cuda_job *job, void **handle,
			   struct gpuplan_cuda_job_info *info,
			   char *err, size_t errlen);
	int (*job_run)(void *handle, int64_t iterations, double *seconds,
		       char *err, size_t errlen);
	int (*job_check)(void *handle, char *err, size_t errlen);
	void (*job_release)(void *handle);
	/* 1 when device can read peer's memory directly
	 * (cudaDeviceCanAccessPeer), 0 when not, -1 with err on a fault. */
	int (*can_access_peer)(int device, int peer, char *err, size_t errlen);
};

/* The one exported symbol of libgpuplan-cuda.so; named by GPUPLAN_CUDA_ENTRY_SYMBOL. */
const struct gpuplan_cuda_plugin *gpuplan_cuda_plugin_entry(void);

typedef const struct gpuplan_cuda_plugin *(*gpuplan_cuda_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif

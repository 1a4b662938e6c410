/*
 * program_abi.h - a model step lowered to kernels, as plain data: what
 * `gpuplan bench --model` runs on a device.
 *
 * The host lowers a built model graph at one batch size (bench/model_program.h)
 * into buffers and a list of kernels over them.  Two executors run the same
 * program: the CPU one (bench/cpu_program.h: OpenBLAS and loops) and the
 * CUDA plugin (cuBLASLt and its own kernels), so what the two measure is the
 * same work, counted once, on the host.  Plain C with fixed-width fields: it
 * crosses the plugin boundary (cuda/plugin_abi.h includes it) and changing
 * it means bumping GPUPLAN_CUDA_ABI_VERSION.
 *
 * Buffers are numbered 0..n_buffers-1.  An executor allocates every buffer
 * before the first kernel runs and keeps them all for the whole step (a
 * training step keeps every activation for the backward pass), so the
 * step's memory is the sum of the buffers plus the executor's own
 * workspace.  Every buffer is written by at most one kernel, no kernel
 * reads the buffer it writes, and none reads a buffer before the kernel
 * that writes it has run, so after a step any kernel's output can be
 * recomputed from its inputs and checked.  Buffers are filled with small finite values (|x| <= 1/64) at
 * allocation so no kernel ever sees NaN or infinity.
 *
 * Kernels:
 *   GEMM     count independent products C_i = op(A_i) * op(B_i), each
 *            C m x n, op(A) m x k, op(B) k x n, row-major as stored with
 *            leading dimensions equal to the stored row lengths; A_i starts
 *            at element i * a_stride of buffer a (b, c likewise; a stride of
 *            0 shares one matrix between all products, as a weight is
 *            shared by a batch).  trans_a: A is stored k x m; trans_b: B is
 *            stored n x k.  beta is 0.  FLOPs: 2*m*n*k*count.
 *   STREAM   an elementwise pass: reads `elements` of buffer a and, when
 *            b >= 0, as many of b, writes `elements` of c; `flops` per
 *            element written (activations, adds, the im2col gather of a
 *            convolution counted as its traffic).  Element i reads index
 *            i % (length of the input buffer), so an input may be shorter
 *            than the output (a bias, a broadcast).
 *   ROWNORM  rows x cols: each row of a reduced (mean and variance, or a
 *            max and a sum for softmax) and then normalised into c: two
 *            reads and one write of every element; `flops` per element.
 *
 * Element sizes: buffers hold the program's precision (fp32 on the CPU;
 * fp32, tf32, fp16 or bf16 on a GPU) for every kernel.
 */
#ifndef GPUPLAN_BENCH_PROGRAM_ABI_H
#define GPUPLAN_BENCH_PROGRAM_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What an executor or a plugin job hook returns.  OUT_OF_MEMORY and
 * UNSUPPORTED are answers, not faults: the host backs off a sweep or skips
 * a figure.  A call that returns anything but OK holds nothing. */
enum bench_status {
	BENCH_OK = 0,
	BENCH_ERROR = 1,		/* anything else; the reason says what */
	BENCH_OUT_OF_MEMORY = 2,	/* device, pinned or allowed host memory ran out */
	BENCH_UNSUPPORTED = 3,		/* the device/build/library lacks it; the reason says which */
};

enum bench_kernel_kind {
	BENCH_KERNEL_GEMM = 1,
	BENCH_KERNEL_STREAM = 2,
	BENCH_KERNEL_ROWNORM = 3,
};

/* Precisions, shared by the GEMM suite and programs. */
enum bench_precision {
	BENCH_FP64 = 1,
	BENCH_FP32 = 2,
	BENCH_TF32 = 3,		/* fp32 storage, tf32 tensor-core compute */
	BENCH_FP16 = 4,
	BENCH_BF16 = 5,
	BENCH_INT8 = 6,		/* int8 inputs, int32 accumulate and output */
	BENCH_FP8_E4M3 = 7,	/* fp8 e4m3 inputs, fp32 accumulate, bf16 output; sm_89+ */
};

/* "fp64", "fp32", "tf32", "fp16", "bf16", "int8", "fp8 e4m3"; NULL for
 * a value outside the enum.  For messages on both sides of the plugin
 * boundary (the host's own names are core/precision.h's). */
static inline const char *bench_precision_label(uint32_t p)
{
	switch (p) {
	case BENCH_FP64: return "fp64";
	case BENCH_FP32: return "fp32";
	case BENCH_TF32: return "tf32";
	case BENCH_FP16: return "fp16";
	case BENCH_BF16: return "bf16";
	case BENCH_INT8: return "int8";
	case BENCH_FP8_E4M3: return "fp8 e4m3";
	default: return NULL;
	}
}

struct bench_kernel {
	uint32_t kind;		/* enum bench_kernel_kind */
	int32_t a, b, c;	/* buffer indices; b is -1 when unused */
	/* GEMM */
	int64_t m, n, k, count;
	int64_t a_stride, b_stride, c_stride;	/* elements between products */
	uint8_t trans_a, trans_b, pad_[2];
	/* STREAM: elements written; ROWNORM: rows and cols */
	int64_t elements;
	int64_t rows, cols;
	double flops;		/* STREAM, ROWNORM: per element written */
	/* what the kernel came from, for errors: "layer 3 attention fwd" */
	char label[64];
};

struct bench_program {
	uint32_t precision;		/* enum bench_precision */
	uint32_t n_buffers;
	const uint64_t *buffer_elements;	/* n_buffers entries, each > 0 */
	uint64_t n_kernels;
	const struct bench_kernel *kernels;
};

#ifdef __cplusplus
}
#endif

#endif

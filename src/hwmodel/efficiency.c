#include "hwmodel/efficiency.h"

/*
 * compute 0.80, the large-GEMM ceiling: the fraction of the dense BF16
 * peak that a large matmul reaches in a published GEMM benchmark, the
 * "Maximum Achievable Matmul FLOPS comparison table" of Stas Bekman's
 * Machine Learning Engineering book (mamf-finder.py, a brute-force scan of
 * large matmul shapes under PyTorch/cuBLAS, CUDA 12.1):
 * https://github.com/stas00/ml-engineering/tree/master/compute/accelerator#maximum-achievable-matmul-flops-comparison-table
 * It lists NVIDIA A100 SXM 267.9 of 312 TFLOPS (85.9%), A100 PCIe 256.4
 * (82.2%), H100 SXM 792.1 of 989 (80.1%).  0.80 is the lowest of these
 * NVIDIA figures, rounded down: the benchmark reports the best shape it
 * found, a little above what a typical large GEMM sustains.  No
 * end-to-end training figure (MFU of any published run) enters it; the
 * planner's MFU follows from this ceiling, the shape of each matrix op
 * (matrix_eff.c: tile and wave quantization on the part's SMs, short
 * reductions), the memory-bound ops and communication.
 *
 * memory 0.80, link 0.80, networks 0.80 with RDMA and 0.50 without,
 * host link 0.80, spot overhead 10%: assumptions, not
 * measurements; `gpuplan bench` (memory copy, transfer and all-reduce
 * suites) is how a team replaces them with its own figures.
 *
 * Kernel launches: NVIDIA's "Getting Started with CUDA Graphs" (A. Gray,
 * 2019-09-05, https://developer.nvidia.com/blog/cuda-graphs/) times 20
 * short kernels x 1000 steps on a Tesla V100 with CUDA 10.1: "the kernel
 * execution time of 2.9us"; launched back to back in a stream, "3.8us
 * (vs 2.9us kernel execution time)" per kernel; captured in a graph,
 * "3.4us".  So 0.9 us per kernel of stream, 0.5 us in a graph, beyond the
 * work, and 3.8 us per kernel as the least a host-launched kernel takes
 * (quoted from copies of the page; the page itself is not stored here).
 * One GPU and driver generation: where launches are host-bound the CPU
 * and driver set the figure more than the GPU, and `gpuplan bench`'s
 * launch suite (empty kernels back to back) measures it on a team's own
 * machine.
 *
 * An LLM engine's iteration waits about 2 ms for the host between graph
 * replays: SGLang issue 5593 (2025-04-21) profiled "a GPU bubble (idle
 * period) of around 2ms before the first kernel in the graph starts
 * execution each time the graph is replayed" (Qwen2.5-32B-Instruct, tp 4,
 * batch 64, fp8, the offline engine), the input preparation before each
 * replay; vLLM's v0.6.0 release notes (2024-09-05) name the same work -
 * "gathering the LLM results from the last step, scheduling the requests
 * to run for the next step, and preparing these requests as inputs" - as
 * 29% of Llama 3 8B's time on an H100 before that release.  One
 * measurement of one engine, kept as an assumption until a team measures
 * its own engine.
 */
static const char compute_default_from[] =
	"benchmark: large-GEMM ceiling per part and precision, measured with random inputs (Bekman, ML Engineering, Maximum Achievable Matmul FLOPS table v2 at 744d01e: A100 SXM bf16 86.9%, H100 SXM bf16 80.3%, H100 SXM fp8 70.9%; the catalog's matmul_ceiling) at 0.948 of the best shape's figure (an A100 8192^3 GEMM with random inputs, 257 against 271.2 TFLOP/s, Horace He 2024), 80% where the table has no row (assumption); each matrix op below it by its shape: 256x128 tiles in waves over the SMs, k/(k+64) for short reductions (assumption)";

/*
 * MAMF reports the best shape of a sweep, the largest of many means: on
 * the same part (an A100) a fixed large GEMM with random inputs, 8192^3,
 * ran at 257 TFLOP/s (Horace He, "Strangely, Matrix Multiplications on
 * GPUs Run Faster When Given 'Predictable' Data!", thonking.ai, 2024:
 * "benchmark(randn_inputs) # 257 Teraflops") against MAMF's 271.2, 0.948
 * of it.  The planner's ceiling is what such a GEMM sustains, so each
 * part's MAMF figure is taken at 0.948 of itself: one part's ratio,
 * assumed for the others.  The tile model (matrix_eff.c) then rates
 * 8192^3 at 0.99 of the ceiling.
 */
#define MAMF_BEST_SHAPE 0.948

bool efficiency_compute_is_default(const struct efficiency *e)
{
	return e->compute_from == compute_default_from;
}

double efficiency_ceiling(const struct efficiency *e,
			  const struct accelerator *a, enum precision p)
{
	if (efficiency_compute_is_default(e) && (unsigned)p < PREC_COUNT &&
	    a->matmul_ceiling[p] > 0)
		return a->matmul_ceiling[p] * MAMF_BEST_SHAPE;
	return e->compute;
}

void efficiency_default(struct efficiency *e)
{
	e->compute = 0.80;
	matrix_eff_default(&e->matrix);
	e->memory = 0.80;
	e->link = 0.80;
	e->network_rdma = 0.80;
	e->network_tcp = 0.50;
	e->spot_overhead = 0.10;
	e->host_link = 0.80;
	e->host_link_from = "assumption: 80% of the PCIe rate for pinned host-to-device copies";
	e->fused_attention = true;
	e->graph_gap = 0.5e-6;
	e->stream_gap = 0.9e-6;
	e->stream_floor = 3.8e-6;
	e->iteration_host = 2e-3;
	e->iteration_from = "measured: SGLang issue 5593 (2025), a GPU bubble of around 2 ms before each decode graph replay (Qwen2.5-32B, tp 4, batch 64): the host scheduling and preparing the next iteration; one engine's figure, an assumption for the rest";
	e->launch_from = "measured: NVIDIA, Getting Started with CUDA Graphs (2019, Tesla V100, CUDA 10.1): 2.9 us kernels took 3.8 us each launched in a stream and 3.4 us in a CUDA graph; gap 0.9 us (stream) or 0.5 us (graph) per kernel, and at least 3.8 us per host-launched kernel";
	e->compute_from = compute_default_from;
	e->memory_from = "assumption: 80% of datasheet memory bandwidth";
	e->network_from = "assumption: 80% of line rate with RDMA, 50% without; 80% of NVLink/PCIe";
	e->spot_from = "assumption: spot runs take 10% longer (preemptions, restarts from checkpoints)";
	e->link_from = e->network_from;
	e->overlap_slowdown = 0.189;
	e->overlap_from = "measured: compute kernels ran 18.9% slower on average (40.0% at most) while communication overlapped them, GPT and LLaMA models on 4 x A100, H100, MI250, MI210 (arXiv 2507.03114, Characterizing Compute-Communication Overlap in GPU-Accelerated Distributed Deep Learning, abstract)";
	e->straggler_cv = 0.0176;
	e->straggler_from = "observed: 5% and higher speed differences between the GPUs of one 8-GPU node (Bekman, ML Engineering, compute/accelerator 'Not all accelerators are created equal', 744d01e): a 5% range of 8 normal draws (2.85 spreads) is a 1.76% coefficient of variation";
}

#include "efficiency.h"

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
 */
void efficiency_default(struct efficiency *e)
{
	e->compute = 0.80;
	matrix_eff_default(&e->matrix);
	e->memory = 0.80;
	e->link = 0.80;
	e->network_rdma = 0.80;
	e->network_tcp = 0.50;
	e->grad_bucket = 25.0 * 1024 * 1024;
	e->spot_overhead = 0.10;
	e->host_link = 0.80;
	e->fused_attention = true;
	e->compute_from = "benchmark: large-GEMM ceiling 80% of the dense peak (Bekman, ML Engineering, Maximum Achievable Matmul FLOPS: A100 SXM 85.9%, H100 SXM 80.1%); each matrix op below it by its shape: 256x128 tiles in waves over the SMs, k/(k+64) for short reductions (assumption)";
	e->memory_from = "assumption: 80% of datasheet memory bandwidth";
	e->network_from = "assumption: 80% of line rate with RDMA, 50% without; 80% of NVLink/PCIe";
	e->spot_from = "assumption: spot runs take 10% longer (preemptions, restarts from checkpoints)";
}

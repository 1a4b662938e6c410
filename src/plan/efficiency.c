#include "efficiency.h"

/*
 * compute 0.60: an assumption calibrated so that the planner's model FLOPs
 * utilisation for large-model training on A100 lands inside the published
 * range: Megatron-LM sustains 44-52% of the A100 peak (Narayanan et al.,
 * SC21), PaLM 540B 46.2% MFU (Chowdhery et al. 2022); the planner adds
 * memory-bound ops and communication on top of the matrix work, so the
 * matrix efficiency itself must sit above those end-to-end figures.
 * tests/unit/test_plan.c holds the planner's MFU for Llama-2-7B on
 * p4d.24xlarge inside that range.
 *
 * memory 0.80, link 0.80, networks 0.80 with RDMA and 0.50 without,
 * overlap 0.50, host link 0.80, spot overhead 10%: assumptions, not
 * measurements; `gpuplan bench` (memory copy, transfer and all-reduce
 * suites) is how a team replaces them with its own figures.
 */
void efficiency_default(struct efficiency *e)
{
	e->compute = 0.60;
	e->memory = 0.80;
	e->link = 0.80;
	e->network_rdma = 0.80;
	e->network_tcp = 0.50;
	e->overlap = 0.50;
	e->spot_overhead = 0.10;
	e->host_link = 0.80;
	e->compute_from = "assumption: 60% of the dense peak for matrix work, calibrated to Megatron-LM's 44-52% end-to-end on A100 (Narayanan et al. 2021)";
	e->memory_from = "assumption: 80% of datasheet memory bandwidth";
	e->network_from = "assumption: 80% of line rate with RDMA, 50% without; 80% of NVLink/PCIe";
	e->spot_from = "assumption: spot runs take 10% longer (preemptions, restarts from checkpoints)";
}

#include "workload/framework.h"

#include <stddef.h>
#include <strings.h>

/*
 * Sources, each read on 2026-12-07:
 *
 * Megatron-LM, NVIDIA/Megatron-LM at d98e8a64 (2026-08-22):
 *   megatron/training/arguments.py:1204-1217: with bf16, "bfloat16
 *     requires gradient accumulation and all-reduce to be done in fp32"
 *     (accumulate_allreduce_grads_in_fp32 set unless --grad-reduce-in-bf16);
 *     param_and_grad_buffer.py:924 grad_dtype = torch.float if
 *     grad_reduce_in_fp32 else param.dtype.
 *   docs/user-guide/features/dist_optimizer.md: bytes per parameter,
 *     non-distributed / distributed optimizer: fp16 parameters and fp16
 *     gradients 20 / 4 + 16/d; bf16 parameters and fp32 gradients
 *     18 / 6 + 12/d (fp32 main parameters and two fp32 moments, plus
 *     fp32 main gradients under fp16).
 *   distributed_data_parallel.py:122-137: bucket_size defaults to
 *     max(40000000, 1000000 * dp) parameters; one bucket when
 *     overlap_grad_reduce is off.  arguments.py:3121-3122
 *     --overlap-grad-reduce defaults to False.  The distributed
 *     optimizer is Megatron's ZeRO-1; Megatron FSDP (--use-megatron-fsdp,
 *     arguments.py:1027-1029) its ZeRO-3; it has no ZeRO-2.
 *     arguments.py:2944-2948 --no-gradient-accumulation-fusion: fusion
 *     on by default (layers.py:713-727: the weight-gradient GEMM
 *     accumulates into the fp32 main_grad).
 * NeMo runs Megatron-Core (the same rules) with overlap on: NeMo 2.0
 *   recipes set overlap_grad_reduce and overlap_param_gather (assumption
 *   until verified: see the framework's limits_from).
 * DeepSpeed, microsoft/DeepSpeed at 38327e07 (2025-02-21):
 *   deepspeed/runtime/engine.py:939-950: the communication dtype is the
 *   model's (bf16) unless set; engine.py:1017-1021: gradients accumulate
 *   in fp32 for bf16 without ZeRO, in the model's dtype with ZeRO.
 *   zero/config.py:109 reduce_bucket_size 5e8 elements; :128
 *   allgather_bucket_size 5e8; :208 stage3_prefetch_bucket_size 5e7;
 *   :214 stage3_param_persistence_threshold 1e5 (smaller parameters, the
 *   biases and norms, are not partitioned, so a layer's gathers are its
 *   weight matrices); :351-353 overlap_comm on for stage 3 only.
 * PyTorch FSDP: see the fsdp entry's sources.
 */

/* What Megatron-LM and NeMo share: Megatron-Core's gradients, buckets and
 * Megatron FSDP. */
#define MEGATRON_CORE_RULES \
	.grad_bytes_bf16 = 4, .reduce_bytes_bf16 = 4, \
	.zero_grad_bytes_bf16 = 4, .zero_reduce_bytes_bf16 = 4, \
	.fp16_main_grad_bytes = 4, \
	.bucket_min = 40e6, .bucket_per_rank = 1e6, \
	.bucket_from = "Megatron-Core distributed_data_parallel.py:122-137: max(40M, 1M x dp) parameters per bucket", \
	.zero3_gathers_per_layer = 1, \
	.zero3_from = "Megatron FSDP (--use-megatron-fsdp, arguments.py:1027-1029 at d98e8a64): one gather per transformer layer (assumption: the layer is the unit it shards)", \
	.zero_stage = {true, true, false, true}, \
	.model_parallel = true, .sequence_parallel = true, \
	.accumulation_fused = true

static const struct framework table[FRAMEWORK_KINDS] = {
	[FRAMEWORK_GENERIC] = {
		.kind = FRAMEWORK_GENERIC, .name = "generic",
		.version = "no framework named",
		.grad_bytes_bf16 = 4, .reduce_bytes_bf16 = 4,
		.zero_grad_bytes_bf16 = 4, .zero_reduce_bytes_bf16 = 4,
		.grads_from = "assumption: Megatron-LM's rule (fp32 gradients under bf16, arguments.py:1204-1217 at d98e8a64) for a framework not named",
		.bucket_min = 40e6, .bucket_per_rank = 1e6,
		.bucket_from = "assumption: Megatron-Core's default bucket, max(40M, 1M x dp) parameters (distributed_data_parallel.py:122-137 at d98e8a64)",
		.zero3_gathers_per_layer = 4,
		.zero3_from = "assumption: DeepSpeed's ZeRO-3 gathers each weight matrix (stage3_param_persistence_threshold 1e5 keeps smaller ones whole, zero/config.py:214 at 38327e07)",
		.zero_stage = {true, true, true, true},
		.model_parallel = true, .sequence_parallel = true,
		.overlap_default = true,
		.accumulation_fused = true,
		.limits_from = "no framework named: every ZeRO stage, tensor parallelism inside a node with sequence parallelism, overlap on",
	},
	[FRAMEWORK_MEGATRON] = {
		.kind = FRAMEWORK_MEGATRON, .name = "megatron",
		MEGATRON_CORE_RULES,
		.version = "Megatron-LM d98e8a64 (2026-08-22)",
		.grads_from = "Megatron-LM arguments.py:1204-1217 (fp32 gradients under bf16); dist_optimizer.md: 18 / 6 + 12/d bytes per parameter (bf16), 20 / 4 + 16/d (fp16)",
		.overlap_default = false,
		.limits_from = "Megatron-LM: the distributed optimizer (ZeRO-1) or Megatron FSDP (ZeRO-3), no ZeRO-2; --overlap-grad-reduce off by default (arguments.py:3121-3122)",
	},
	[FRAMEWORK_NEMO] = {
		.kind = FRAMEWORK_NEMO, .name = "nemo",
		MEGATRON_CORE_RULES,
		.version = "NeMo on Megatron-Core d98e8a64",
		.grads_from = "Megatron-Core's rules (NeMo trains through them): fp32 gradients under bf16",
		.overlap_default = true,
		.limits_from = "NeMo: Megatron-Core's distributed optimizer (ZeRO-1) or Megatron FSDP (ZeRO-3), with gradient reduction overlapped (assumption: NeMo's performance recipes turn overlap on)",
	},
	[FRAMEWORK_DEEPSPEED] = {
		.kind = FRAMEWORK_DEEPSPEED, .name = "deepspeed",
		.version = "DeepSpeed 38327e07 (2025-02-21)",
		.grad_bytes_bf16 = 4, .reduce_bytes_bf16 = 2,
		.zero_grad_bytes_bf16 = 2, .zero_reduce_bytes_bf16 = 2,
		.grads_from = "DeepSpeed engine.py:939-950 (gradients reduced in the model's dtype), engine.py:1017-1021 (accumulated in fp32 for bf16 without ZeRO, in bf16 with it)",
		.bucket_min = 5e8, .bucket_per_rank = 0,
		.bucket_from = "DeepSpeed zero/config.py:109: reduce_bucket_size 5e8 elements",
		.zero3_gathers_per_layer = 4,
		.zero3_from = "DeepSpeed zero/config.py:214: stage3_param_persistence_threshold 1e5 keeps biases and norms whole, so each weight matrix is gathered on its own",
		.zero_stage = {true, true, true, true},
		.model_parallel = true, .sequence_parallel = false,
		.overlap_default = true,
		.limits_from = "DeepSpeed: ZeRO stages 0-3; tensor and pipeline parallelism through Megatron-DeepSpeed, without sequence parallelism (assumption)",
	},
	[FRAMEWORK_FSDP] = {
		.kind = FRAMEWORK_FSDP, .name = "fsdp",
		.version = "PyTorch FSDP (FullyShardedDataParallel)",
		.grad_bytes_bf16 = 4, .reduce_bytes_bf16 = 2,
		.zero_grad_bytes_bf16 = 4, .zero_reduce_bytes_bf16 = 2,
		.fp32_params = true,
		.grads_from = "PyTorch FSDP: the sharded flat parameter stays fp32 and holds its fp32 gradient; MixedPrecision reduces in param_dtype unless reduce_dtype is set",
		.bucket_min = 0, .bucket_per_rank = 0,
		.bucket_from = "PyTorch FSDP: one reduce-scatter per wrapped unit (a transformer block)",
		.zero3_gathers_per_layer = 1,
		.zero3_from = "PyTorch FSDP: one all-gather per wrapped unit (a transformer block)",
		.zero_stage = {true, false, true, true},
		.model_parallel = false, .sequence_parallel = false,
		.overlap_default = true,
		.limits_from = "PyTorch FSDP: FULL_SHARD (ZeRO-3), SHARD_GRAD_OP (ZeRO-2) or NO_SHARD (DDP); no tensor or pipeline parallelism",
	},
};

const struct framework *framework_get(enum framework_kind k)
{
	return (unsigned)k < FRAMEWORK_KINDS ? &table[k] : &table[0];
}

const struct framework *framework_or_generic(const struct framework *f)
{
	return f ? f : &table[FRAMEWORK_GENERIC];
}

const struct framework *framework_find(const char *name)
{
	for (int k = FRAMEWORK_MEGATRON; k < FRAMEWORK_KINDS; k++)
		if (strcasecmp(name, table[k].name) == 0)
			return &table[k];
	return NULL;
}

const char *framework_names(void)
{
	return "megatron, nemo, deepspeed or fsdp";
}

double framework_grad_bytes(const struct framework *f, enum precision p,
			    int zero, bool wire)
{
	if (p == PREC_FP32 || p == PREC_TF32)
		return 4;
	if (p != PREC_BF16 && p != PREC_FP8)	/* fp8 keeps bf16 masters' rules */
		return 2;
	if (zero >= 1)
		return wire ? f->zero_reduce_bytes_bf16 : f->zero_grad_bytes_bf16;
	return wire ? f->reduce_bytes_bf16 : f->grad_bytes_bf16;
}

struct grad_rules framework_rules(const struct framework *f, enum precision p,
				  int zero)
{
	f = framework_or_generic(f);
	return (struct grad_rules){
		.grad_bytes = framework_grad_bytes(f, p, zero, false),
		.main_grad_bytes = p == PREC_FP16 ? f->fp16_main_grad_bytes : 0,
		.fp32_params = f->fp32_params,
	};
}

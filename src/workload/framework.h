/*
 * framework.h - the training framework as an input: what each framework
 * does by default with the mechanisms the step model prices (the
 * precision gradients are kept and reduced in, the gradient buckets, the
 * ZeRO stages it offers, tensor and pipeline parallelism, overlap), read
 * from its own source or documentation at a named version.
 *
 * A training workload names `framework:` (megatron, nemo, deepspeed,
 * fsdp); without one the planner uses `generic`: Megatron-LM's gradient
 * rules with every ZeRO stage searched, stated as an assumption.
 *
 * Ownership: everything returned points into a static table.
 */
#ifndef GPUPLAN_WORKLOAD_FRAMEWORK_H
#define GPUPLAN_WORKLOAD_FRAMEWORK_H

#include <stdbool.h>

#include "core/precision.h"
#include "model/memory.h"

enum framework_kind {
	FRAMEWORK_GENERIC,
	FRAMEWORK_MEGATRON,
	FRAMEWORK_NEMO,
	FRAMEWORK_DEEPSPEED,
	FRAMEWORK_FSDP,
	FRAMEWORK_KINDS
};

struct framework {
	enum framework_kind kind;
	const char *name;		/* "megatron" */
	const char *version;		/* the version whose defaults these are */
	/* Bytes per parameter of the gradient buffer each GPU accumulates
	 * into, and of the gradients on the wire when they are reduced,
	 * under bf16 mixed precision without and with ZeRO (DeepSpeed
	 * changes dtype there); fp16 keeps and reduces 2 everywhere, fp32
	 * and tf32 training 4. */
	double grad_bytes_bf16, reduce_bytes_bf16;
	double zero_grad_bytes_bf16, zero_reduce_bytes_bf16;
	/* The sharded parameter is itself fp32 and is the optimizer's
	 * master copy (PyTorch FSDP's flat parameter): 4 bytes of weights,
	 * no separate master copy. */
	bool fp32_params;
	/* fp32 copies of the gradients the optimizer keeps beside the
	 * buffer under fp16 (Megatron's main grads), bytes per parameter,
	 * sharded with the optimizer state. */
	double fp16_main_grad_bytes;
	const char *grads_from;
	/* Gradient bucket, parameters: max(bucket_min, bucket_per_rank x
	 * data-parallel ranks).  0: one bucket per wrapped unit (FSDP: a
	 * transformer block). */
	double bucket_min, bucket_per_rank;
	const char *bucket_from;
	/* ZeRO-3's parameter gathers per transformer layer (one message per
	 * wrapped unit or per weight matrix), 0 where ZeRO-3 is not
	 * offered. */
	int zero3_gathers_per_layer;
	const char *zero3_from;
	bool zero_stage[4];		/* the stages it offers */
	bool model_parallel;		/* tensor and pipeline parallelism */
	bool sequence_parallel;		/* with tensor parallelism */
	bool overlap_default;		/* gradient reduction overlaps backward */
	/* the weight-gradient GEMM accumulates into the gradient buffer
	 * itself, so micro-batches add no pass of their own */
	bool accumulation_fused;
	const char *limits_from;
};

/* The table entry of kind k. */
const struct framework *framework_get(enum framework_kind k);
/* f, or the generic entry where a workload names none (NULL). */
const struct framework *framework_or_generic(const struct framework *f);
/* By name, case-blind; NULL when unknown. */
const struct framework *framework_find(const char *name);
/* "megatron, nemo, deepspeed, fsdp" for messages. */
const char *framework_names(void);
/* Gradient bytes per parameter f keeps (and puts on the wire, `wire`)
 * for precision p under ZeRO stage zero. */
double framework_grad_bytes(const struct framework *f, enum precision p,
			    int zero, bool wire);

/* The state accounting f gives precision p under ZeRO stage zero
 * (model/memory.h); f NULL: the generic entry. */
struct grad_rules framework_rules(const struct framework *f, enum precision p,
				  int zero);

#endif

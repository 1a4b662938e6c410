/*
 * The training mechanisms of issue 27, against hand-computed figures:
 * each framework's state accounting (Megatron-LM's dist_optimizer.md
 * table), the straggler term, and the step's range.
 */
#include <math.h>
#include <string.h>

#include "check.h"
#include "train/train_range.h"
#include "train/train_step.h"
#include "workload/framework.h"

/* Megatron-LM docs/user-guide/features/dist_optimizer.md (d98e8a64):
 * bytes per parameter, non-distributed optimizer: fp16 parameters and
 * gradients 20, bf16 parameters with fp32 gradients 18, fp32 16. */
static void test_megatron_bytes(void)
{
	const struct framework *f = framework_find("megatron");
	CHECK(f != NULL);
	struct grad_rules g = framework_rules(f, PREC_BF16, 0);
	struct state_bytes b = memory_state_bytes(PREC_BF16, OPTIMIZER_ADAMW, &g);
	CHECK_NEAR(b.weights + b.gradients + b.optimizer, 18, 1e-12);
	g = framework_rules(f, PREC_FP16, 0);
	b = memory_state_bytes(PREC_FP16, OPTIMIZER_ADAMW, &g);
	CHECK_NEAR(b.weights + b.gradients + b.optimizer, 20, 1e-12);
	/* distributed optimizer (ZeRO-1), d = 8: 6 + 12/8 (bf16), 4 + 16/8 */
	g = framework_rules(f, PREC_BF16, 1);
	b = memory_state_bytes(PREC_BF16, OPTIMIZER_ADAMW, &g);
	CHECK_NEAR(b.weights + b.gradients + b.optimizer / 8, 6 + 12.0 / 8, 1e-12);
	g = framework_rules(f, PREC_FP16, 1);
	b = memory_state_bytes(PREC_FP16, OPTIMIZER_ADAMW, &g);
	CHECK_NEAR(b.weights + b.gradients + b.optimizer / 8, 4 + 16.0 / 8, 1e-12);
	/* fp32: 16, whatever the framework */
	g = framework_rules(f, PREC_FP32, 0);
	b = memory_state_bytes(PREC_FP32, OPTIMIZER_ADAMW, &g);
	CHECK_NEAR(b.weights + b.gradients + b.optimizer, 16, 1e-12);
}

/* DeepSpeed reduces bf16 gradients in bf16, and with ZeRO keeps them so
 * (engine.py:939-950, 1017-1021); FSDP keeps the fp32 flat parameter as
 * its master copy: 4 + 4 + 8 = 16, reduced in bf16. */
static void test_other_frameworks(void)
{
	const struct framework *ds = framework_find("DeepSpeed");
	CHECK(ds != NULL);
	CHECK_NEAR(framework_grad_bytes(ds, PREC_BF16, 0, false), 4, 0);
	CHECK_NEAR(framework_grad_bytes(ds, PREC_BF16, 0, true), 2, 0);
	CHECK_NEAR(framework_grad_bytes(ds, PREC_BF16, 2, false), 2, 0);
	const struct framework *fsdp = framework_find("fsdp");
	struct grad_rules g = framework_rules(fsdp, PREC_BF16, 3);
	struct state_bytes b = memory_state_bytes(PREC_BF16, OPTIMIZER_ADAMW, &g);
	CHECK_NEAR(b.weights, 4, 0);
	CHECK_NEAR(b.gradients, 4, 0);
	CHECK_NEAR(b.optimizer, 8, 0);
	CHECK(!b.master_copy);
	CHECK(!fsdp->model_parallel);
	CHECK(!fsdp->zero_stage[1] && fsdp->zero_stage[3]);
	CHECK(framework_find("jax") == NULL);
	/* without a framework's rules: the ZeRO paper's 2 + 2 + 12 */
	b = memory_state_bytes(PREC_BF16, OPTIMIZER_ADAMW, NULL);
	CHECK_NEAR(b.weights + b.gradients + b.optimizer, 16, 0);
}

/* Blom's expected maximum of N standard normals,
 * Phi^-1((N - 0.375) / (N + 0.25)):
 *   N = 8:    Phi^-1(7.625 / 8.25 = 0.924242) = 1.43376
 *   N = 1024: Phi^-1(1023.625 / 1024.25 = 0.999390) = 3.23... */
static void test_straggler(void)
{
	struct efficiency e;
	efficiency_default(&e);
	e.straggler_cv = 0.0176;
	CHECK_NEAR(train_straggler_factor(&e, 1), 1, 0);
	CHECK_NEAR(train_straggler_factor(&e, 8), 1 + 0.0176 * 1.43376, 2e-5);
	double z1024 = (train_straggler_factor(&e, 1024) - 1) / 0.0176;
	CHECK(z1024 > 3.2 && z1024 < 3.3);
	e.straggler_cv = 0;
	CHECK_NEAR(train_straggler_factor(&e, 4096), 1, 0);
}

/*
 * A 10 s step: compute-bound 6 s, memory-bound 3 s (0.5 s of it the
 * optimizer), communication 1 s of which 0.189 s is the overlap penalty
 * on 1 s hidden; no straggler.  Moves at the favourable / unfavourable
 * ends:
 *   ceiling   6 x (1 - 0.948) = 0.312        6 x (1/0.948 - 1) = 0.329114
 *   memory    3 x (1 - 0.8/0.9) = 0.333333   3 x (0.8/0.7 - 1) = 0.428571
 *   network   0.811 x (1 - 0.8/0.83) = 0.029313   0.811 x (0.8/0.77 - 1) = 0.031597
 *   overlap   0.189                          0.40 - 0.189 = 0.211
 *   unfused   2.5 x (1 - 1) = 0              2.5 x (2 - 1) = 2.5
 *             (the memory-bound work but the optimizer, fused or not)
 *   attention none in this step
 * down = sqrt(0.312^2 + 0.333333^2 + 0.029313^2 + 0.189^2) = 0.495010
 * up   = sqrt(0.329114^2 + 0.428571^2 + 0.031597^2 + 0.211^2 + 2.5^2)
 *      = sqrt(0.337508 + 6.25) = 2.566614
 * at 90% (the stated ranges as they are): 0.950501 and 1.256654;
 * at 80%, x 1.281552 / 1.6449 = 0.779107: 0.961433 and 1.199967.
 * With 2 s of it attention (0.47x to 2x): down adds (2 x 0.53)^2 = 1.1236,
 * up adds 2^2 = 4: at 90% 1 - sqrt(1.368635) / 10 = 0.883014 and
 * 1 + sqrt(10.587508) / 10 = 1.325385.
 */
static void test_range(void)
{
	struct efficiency e;
	efficiency_default(&e);
	e.memory = 0.80;
	e.overlap_slowdown = 0.189;
	struct step st;
	memset(&st, 0, sizeof(st));
	st.total = 10;
	st.compute = 6;
	st.memory = 3;
	st.optimizer = 0.5;
	st.communication = 1;
	st.overlap_extra = 0.189;
	st.straggler = 1;
	double lo, hi;
	train_step_range(&st, &e, train_range_scale(0.90), &lo, &hi);
	CHECK_NEAR(lo, 0.950501, 1e-4);
	CHECK_NEAR(hi, 1.256654, 1e-4);
	train_step_range(&st, &e, train_range_scale(0.80), &lo, &hi);
	CHECK_NEAR(lo, 0.961433, 1e-4);
	CHECK_NEAR(hi, 1.199967, 1e-4);
	st.attention = 2;
	double alo, ahi;
	train_step_range(&st, &e, train_range_scale(0.90), &alo, &ahi);
	CHECK_NEAR(alo, 0.883016, 1e-4);
	CHECK_NEAR(ahi, 1.325385, 1e-4);
	st.attention = 0;
	/* a wider level, a wider range */
	double lo95, hi95;
	train_step_range(&st, &e, train_range_scale(0.95), &lo95, &hi95);
	CHECK(lo95 < lo && hi95 > hi);
	/* nothing to range */
	st.total = 0;
	train_step_range(&st, &e, train_range_scale(0.80), &lo, &hi);
	CHECK(lo == 1 && hi == 1);
}

int main(void)
{
	test_megatron_bytes();
	test_other_frameworks();
	test_straggler();
	test_range();
	return check_summary("train");
}

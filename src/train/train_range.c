#include "train/train_range.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

const char train_range_from[] =
	"range: each assumption's stated range as a 90% interval, moved through the step's breakdown and added in quadrature: large-GEMM ceiling 0.948-1.055 of the planner's (MAMF's best shape against an A100 8192^3 GEMM with random inputs, 271.2 and 257 TFLOP/s), memory bandwidth 0.70-0.90 (assumption), network 0.77-0.83 of line rate (nccl-tests anchors), overlap slowdown 0-40% (arXiv 2507.03114), straggler spread 0.5-2x (assumption), attention's kernel 0.47-2x (the FlashAttention-2 benchmark's kernels on A100 and H100), memory-bound kernels 1-2x (Liger Kernel's fused against unfused); not bounded by any source: a run's software version";

/*
 * Attention's kernel: the FlashAttention-2 benchmark (Dao 2023, figures 4
 * and 7; causal, head dimension 128, 2k-8k tokens, forward and backward)
 * puts FlashAttention-2 at 155-182 TFLOP/s on an A100, FlashAttention 1
 * at 69-80 and PyTorch's unfused attention at 32-34; on an H100 265-308,
 * 108-135 and 57-63.  The planner's attention (its FLOPs uncut by the
 * causal mask, at the tile model's rate for 128-long reductions, and the
 * backward's recomputation) takes 2.1x FlashAttention-2's time on an A100
 * at 2k and 1.2x on an H100, and half FlashAttention 1's on an H100: so
 * 0.47x at the fast end, 2x at the slow.
 */
#define ATTENTION_FAST 0.47
#define ATTENTION_SLOW 2.0
/*
 * The memory-bound kernels: the planner takes one pass per op, as fused
 * kernels run them; Liger Kernel reports its fused kernels ~2x (LayerNorm,
 * cross-entropy) to ~3x (RMSNorm, RoPE) faster than the Hugging Face ones
 * they replace (linkedin/Liger-Kernel README at 0097d15): 2x at the slow
 * end for a run on unfused kernels.
 */
#define UNFUSED_SLOW 2.0

/* The 90% reading of each stated range. */
#define RANGE_Z 1.6449

/* Factors on one part of the step at each end of an assumption's range. */
struct swing {
	double part;		/* s of the step the assumption governs */
	double low, high;	/* the part's factor at the favourable and
				 * unfavourable ends */
};

static double sq(double x)
{
	return x * x;
}

/* The compute- and memory-bound parts at another straggler spread: the
 * step ran them at pace st->straggler. */
static struct swing straggler_swing(const struct step *st,
				    const struct efficiency *e, double work)
{
	struct swing s = {work, 1, 1};
	if (st->straggler <= 1 || e->straggler_cv <= 0)
		return s;
	double z = (st->straggler - 1) / e->straggler_cv;
	s.low = (1 + 0.5 * e->straggler_cv * z) / st->straggler;
	s.high = (1 + 2.0 * e->straggler_cv * z) / st->straggler;
	return s;
}

double train_range_scale(double level)
{
	if (level <= 0 || level >= 1)
		return 0;
	return gsl_cdf_ugaussian_Pinv(0.5 + level / 2) / RANGE_Z;
}

/* Adds a part's moves at the two ends of its range. */
static void add_swing(struct swing s, double *down, double *up)
{
	*down += sq(s.part * (1 - s.low));
	*up += sq(s.part * (s.high - 1));
}

void train_step_range(const struct step *st, const struct efficiency *e,
		      double scale, double *low, double *high)
{
	*low = *high = 1;
	if (st->total <= 0 || scale <= 0)
		return;
	double mem = e->memory > 0 ? e->memory : 0.80;
	double down = 0, up = 0;
	add_swing((struct swing){st->compute, 0.948, 1 / 0.948}, &down, &up);
	add_swing((struct swing){st->memory, mem / 0.90, mem / 0.70}, &down, &up);
	add_swing((struct swing){st->communication - st->overlap_extra,
				 0.80 / 0.83, 0.80 / 0.77}, &down, &up);
	/* the overlap penalty: none at all, or 40% of the hidden span */
	if (e->overlap_slowdown > 0)
		add_swing((struct swing){st->overlap_extra, 0,
					 0.40 / e->overlap_slowdown}, &down, &up);
	add_swing(straggler_swing(st, e, st->compute + st->memory - st->optimizer),
		  &down, &up);
	/* the kernels a run uses: attention's, and the memory-bound ops' */
	add_swing((struct swing){st->attention, ATTENTION_FAST, ATTENTION_SLOW},
		  &down, &up);
	add_swing((struct swing){st->memory - st->optimizer, 1.0, UNFUSED_SLOW},
		  &down, &up);
	*low = 1 - sqrt(down) * scale / st->total;
	*high = 1 + sqrt(up) * scale / st->total;
	if (*low < 0.05)
		*low = 0.05;
}

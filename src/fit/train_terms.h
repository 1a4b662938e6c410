/*
 * train_terms.h - what a measured profile's training suites (bench's
 * train-gemm, overlap, spread and layer; profile/figure.h) give the
 * training model, each with its 95% interval:
 *
 *   matmul    the rate the model's own GEMMs sustain: every train-gemm
 *             figure (a product in one role) weighted by the FLOPs it runs
 *             per micro-batch, sum(occ W) / sum(occ W / rate) for W =
 *             2mnk: the time the step's matrix work takes, as a rate.  Its
 *             interval puts every figure at its own interval's end at once
 *             (the widest the figures allow).  Given only when every
 *             train-gemm figure is usable: a missing shape would tilt it.
 *   overlap   the slowdown of the GEMM beside a collective: alone / beside
 *             - 1 of the two rates; interval from the ends of theirs
 *             (alone_low / beside_high - 1 .. alone_high / beside_low - 1).
 *   spread    the coefficient of variation of the GEMM's rate across the
 *             host's GPUs (sample standard deviation over the mean), the
 *             slowest GPU named; its interval is the chi-square interval
 *             of a normal sample's standard deviation over n - 1 degrees of
 *             freedom, over the mean (n GPUs, n >= 2).
 *   layer     seconds per layer per micro-batch, forward and backward: the
 *             median time of one call, its interval the median's.
 *
 * A figure measured on a busy host or with too few good repetitions is
 * left out and the term says so (why); a throttled one is kept: a
 * sustained figure is meant to hold the clock the power limit leaves
 * (bench/measure.h), and the reasons seen are kept beside it.
 *
 * Ownership: plain data.
 */
#ifndef GPUPLAN_FIT_TRAIN_TERMS_H
#define GPUPLAN_FIT_TRAIN_TERMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bench_profile;

#define TRAIN_TERMS_MAX_POINTS 32
#define TRAIN_TERMS_MAX_GPUS 64

/* One train-gemm figure. */
struct train_point {
	char role[16];		/* "forward", "dgrad", "wgrad" */
	long m, n, k, occurrences;
	double rate, low, high;	/* FLOP/s and its 95% interval */
	double clock_hz;	/* median SM clock of its steady part; 0: none */
};

struct train_matmul {
	bool ok;
	char why[200];
	char precision[8];
	size_t n;
	struct train_point v[TRAIN_TERMS_MAX_POINTS];
	double rate, low, high;	/* derived: FLOP/s */
	uint64_t throttle;	/* reasons seen in the figures' steady parts */
};

struct train_overlap {
	bool ok;
	char why[200];
	char beside[64];	/* "allreduce x 8 GPUs", "d2d copy", "memcpy" */
	double alone, alone_low, alone_high;	/* FLOP/s */
	double with, with_low, with_high;	/* beside the collective */
	double slowdown, low, high;	/* derived */
};

struct train_spread {
	bool ok;
	char why[200];
	int n;
	int gpu[TRAIN_TERMS_MAX_GPUS];
	double rate[TRAIN_TERMS_MAX_GPUS];	/* FLOP/s, the medians */
	double mean, cv, low, high;	/* derived */
	int slowest;			/* derived: the GPU of the lowest rate */
};

struct train_layer {
	bool ok;
	char why[200];
	char precision[8];
	long batch, seq;
	double seconds, low, high;	/* per call: a layer, a micro-batch */
};

struct train_terms {
	char source[256];	/* the profile, as named */
	char device[300];	/* "cuda: NVIDIA H100 80GB HBM3" */
	char measured[32];	/* the profile's `when` */
	char model[64];
	long micro_batch, tp;
	double sustain_s;
	struct train_matmul matmul;
	struct train_overlap overlap;
	struct train_spread spread;
	struct train_layer layer;
};

/* p's training terms into out, named by source.  false when p ran no
 * training suite (out then zeroed); each term's ok says whether it is
 * given, its why why not. */
bool train_terms_from_profile(const struct bench_profile *p,
			      const char *source, struct train_terms *out);

/* The derived values of each given term from its points (above). */
void train_matmul_derive(struct train_matmul *m);
void train_overlap_derive(struct train_overlap *o);
void train_spread_derive(struct train_spread *s);

/* Whether any term is given. */
bool train_terms_any(const struct train_terms *t);

#endif

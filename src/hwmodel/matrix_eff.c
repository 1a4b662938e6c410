#include "hwmodel/matrix_eff.h"

#include <math.h>

/*
 * The default curve.
 *
 * Tiles and waves: NVIDIA, "Matrix Multiplication Background User's
 *   Guide" (sections on tile quantization and wave quantization; its
 *   example is a grid of 256x128 tiles on the 108 SMs of an A100), Deep
 *   Learning Performance docs,
 *   https://docs.nvidia.com/deeplearning/performance/dl-performance-matrix-multiplication/index.html
 *   The guide says libraries choose among several tile sizes: larger
 *   tiles reuse more data and run more efficiently, smaller ones make
 *   more tiles to keep the SMs busy.
 *
 * tile_long 256, tile_short 128: the largest tile, the guide's example.
 *
 * tile_min 16: assumption, anchored to the tensor-core instruction shape
 *   (m16 x n8 x k16 MMAs on Ampere and Hopper): no tile side is thinner,
 *   so a decode step's one row is padded to 16, not to a 128-row tile.
 *
 * tile_ref 64: assumption: tiles of at least 64x64's operand reuse
 *   (32 multiply-adds per element loaded) sustain the ceiling; thinner
 *   ones (16 or 32 wide) are slowed in proportion to their reuse.  Such
 *   thin tiles serve products bound by reading their weights anyway, so
 *   the choice moves little; a fit to measured GEMMs replaces it.
 *
 * k_overhead 64 (both classes): assumption, not a measurement: a tile's
 *   fixed cost (filling its software pipeline, writing its output tile)
 *   is taken to be worth about two main-loop steps of a 32-deep k-tile,
 *   so k = 64 runs at half the ceiling, k = 128 (an attention head) at
 *   two thirds and k = 4096 at 98%.
 *
 * default_sms 108: assumption, the A100's SM count (the guide above),
 *   for parts whose catalog entry has no `sms:`.
 *
 * scale 1: no class-specific correction; a fit sets it per class.
 *
 * Not modelled: split-K (a library splitting a long reduction over more
 *   tiles when the grid is small), so a small grid with a long k is
 *   charged its idle SMs; such products are mostly bound by memory.
 */
void matrix_eff_default(struct matrix_eff *p)
{
	p->tile_long = 256;
	p->tile_short = 128;
	p->tile_min = 16;
	p->tile_ref = 64;
	p->default_sms = 108;
	p->measured_half_n = 0;	/* no measured GEMM curve: the tile model alone */
	for (int c = 0; c < MATRIX_CLASSES; c++)
		p->curve[c] = (struct matrix_curve){.scale = 1.0,
						    .k_overhead = 64};
	p->from = "default curve: output tiles (16 to 256x128) in waves over the SMs (NVIDIA Matrix Multiplication Background guide), k/(k+64) for short reductions (assumption)";
}

bool matrix_eff_equal(const struct matrix_eff *a, const struct matrix_eff *b)
{
	if (a->tile_long != b->tile_long || a->tile_short != b->tile_short ||
	    a->tile_min != b->tile_min || a->tile_ref != b->tile_ref ||
	    a->default_sms != b->default_sms ||
	    a->measured_half_n != b->measured_half_n)
		return false;
	for (int c = 0; c < MATRIX_CLASSES; c++)
		if (a->curve[c].scale != b->curve[c].scale ||
		    a->curve[c].k_overhead != b->curve[c].k_overhead)
			return false;
	return true;
}

static double reuse(double a, double b)
{
	return a * b / (a + b);
}

/* m x n x count outputs in tiles of tm x tn on sms SMs. */
static void fit_tile(const struct matrix_eff *p, long tm, long tn, double m,
		     double n, double count, long sms, struct gemm_fit *f)
{
	f->tile_m = tm;
	f->tile_n = tn;
	double rows = ceil(m / tm), cols = ceil(n / tn);
	f->tile_eff = m * n / (rows * tm * cols * tn);
	f->tiles = rows * cols * count;
	f->waves = ceil(f->tiles / sms);
	f->wave_eff = f->tiles / (f->waves * sms);
	f->reuse_eff = reuse(tm, tn) / reuse(p->tile_ref, p->tile_ref);
	if (f->reuse_eff > 1)
		f->reuse_eff = 1;
}

static double rate(const struct gemm_fit *f)
{
	return f->tile_eff * f->wave_eff * f->reuse_eff;
}

double matrix_eff_gemm(const struct matrix_eff *p, enum matrix_class c,
		       double m, double n, double k, double count, long sms,
		       struct gemm_fit *detail)
{
	struct gemm_fit best = {0}, f;
	if (p->measured_half_n > 0) {
		double h = 3.0 / (1.0 / m + 1.0 / n + 1.0 / k);
		best.shape = h / (h + p->measured_half_n);
		best.tile_eff = best.wave_eff = best.reuse_eff = best.k_eff = 1;
		if (detail)
			*detail = best;
		return best.shape;
	}
	if (sms < 1)
		sms = 1;
	/* largest tiles first: a smaller one must do strictly better */
	for (long tm = p->tile_long; tm >= p->tile_min; tm /= 2)
		for (long tn = p->tile_long; tn >= p->tile_min; tn /= 2) {
			if (tm * tn > p->tile_long * p->tile_short)
				continue;
			fit_tile(p, tm, tn, m, n, count, sms, &f);
			if (best.tile_m == 0 || rate(&f) > rate(&best))
				best = f;
		}
	const struct matrix_curve *cv = &p->curve[c];
	best.k_eff = k / (k + cv->k_overhead);
	best.shape = cv->scale * rate(&best) * best.k_eff;
	if (best.shape > 1)
		best.shape = 1;
	if (detail)
		*detail = best;
	return best.shape;
}

double matrix_eff_op(const struct matrix_eff *p, const struct op *o,
		     long batch, double share, long sms)
{
	enum matrix_class c = op_kind_class(o->kind) == OPC_ATTENTION
				      ? MATRIX_ATTENTION : MATRIX_GEMM;
	double work = 0, time = 0;
	for (int i = 0; i < o->n_gemm; i++) {
		struct gemm_dims g = o->gemm[i];
		if (g.batch_in_count)
			g.count *= batch;
		else
			g.m *= batch;
		if (g.split == GEMM_SPLIT_N)
			g.n *= share;
		else if (g.split == GEMM_SPLIT_K)
			g.k *= share;
		else
			g.count *= share;
		if (!(g.m > 0 && g.n > 0 && g.k > 0 && g.count > 0))
			continue;
		double f = g.m * g.n * g.k * g.count;
		work += f;
		time += f / matrix_eff_gemm(p, c, g.m, g.n, g.k, g.count, sms,
					    NULL);
	}
	return time > 0 ? work / time : 1;
}

static bool same_gemm(const struct gemm_dims *a, const struct gemm_dims *b)
{
	return a->m == b->m && a->n == b->n && a->k == b->k &&
	       a->count == b->count && a->batch_in_count == b->batch_in_count &&
	       a->split == b->split;
}

double matrix_eff_op_memo(struct matrix_eff_memo *memo,
			  const struct matrix_eff *p, const struct op *o,
			  long batch, double share, long sms)
{
	int cls = (int)op_kind_class(o->kind);
	for (int i = 0; i < memo->n; i++) {
		bool same = memo->v[i].cls == cls && memo->v[i].n_gemm == o->n_gemm;
		for (int k = 0; same && k < o->n_gemm; k++)
			same = same_gemm(&memo->v[i].g[k], &o->gemm[k]);
		if (same)
			return memo->v[i].factor;
	}
	double f = matrix_eff_op(p, o, batch, share, sms);
	if (memo->n < MATRIX_EFF_MEMO) {
		memo->v[memo->n].cls = cls;
		memo->v[memo->n].n_gemm = o->n_gemm;
		for (int k = 0; k < o->n_gemm; k++)
			memo->v[memo->n].g[k] = o->gemm[k];
		memo->v[memo->n++].factor = f;
	}
	return f;
}

long matrix_eff_sms(const struct matrix_eff *p, const struct accelerator *a,
		    double fraction)
{
	long all = a && a->sms > 0 ? a->sms : p->default_sms;
	double s = floor((double)all * fraction + 1e-9);
	return s >= 1 ? (long)s : 1;
}

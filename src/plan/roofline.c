#include "roofline.h"

#include <stdbool.h>
#include <string.h>

/* Where to look when a part lacks the precision asked for: the next
 * wider format it does have. */
static const enum precision fallbacks[PREC_COUNT][ROOFLINE_FALLBACKS] = {
	[PREC_FP64] = {PREC_FP64, PREC_FP64, PREC_FP64, PREC_FP64},
	[PREC_FP64_TENSOR] = {PREC_FP64_TENSOR, PREC_FP64, PREC_FP64, PREC_FP64},
	[PREC_FP32] = {PREC_FP32, PREC_FP32, PREC_FP32, PREC_FP32},
	[PREC_TF32] = {PREC_TF32, PREC_FP32, PREC_FP32, PREC_FP32},
	[PREC_FP16] = {PREC_FP16, PREC_BF16, PREC_FP32, PREC_FP32},
	[PREC_BF16] = {PREC_BF16, PREC_FP16, PREC_FP32, PREC_FP32},
	[PREC_FP8] = {PREC_FP8, PREC_BF16, PREC_FP16, PREC_FP32},
	[PREC_INT8] = {PREC_INT8, PREC_FP16, PREC_BF16, PREC_FP32},
};

const enum precision *roofline_fallbacks(enum precision want)
{
	return fallbacks[want];
}

double roofline_matrix_peak(const struct accelerator *a, enum precision want,
			    enum precision *used)
{
	for (int i = 0; i < ROOFLINE_FALLBACKS; i++) {
		enum precision p = fallbacks[want][i];
		if (a->has_peak[p]) {
			*used = p;
			return a->peak[p];
		}
	}
	*used = want;
	return 0;
}

static double vector_peak(const struct accelerator *a)
{
	enum precision used;
	return roofline_matrix_peak(a, PREC_FP32, &used);
}

/*
 * Matrix ops run at the tensor peak x the large-GEMM ceiling (e->compute)
 * x their shape factor (matrix_eff.h: their GEMMs' tiles in waves over
 * the SMs `fraction` of the part has, and the length of their
 * reductions); the other ops' FLOPs at the fp32 peak x the ceiling.
 */
void roofline_forward(const struct model_graph *g, long batch,
		      const struct accelerator *a, enum precision p,
		      double share, double fraction,
		      const struct efficiency *e, struct roofline *out)
{
	memset(out, 0, sizeof(*out));
	enum precision used;
	double matrix = roofline_matrix_peak(a, p, &used) * e->compute * fraction;
	double vector = vector_peak(a) * e->compute * fraction;
	double bandwidth = a->memory_bandwidth * e->memory * fraction;
	long sms = matrix_eff_sms(&e->matrix, a, fraction);
	int elem = precision_bytes(used);
	for (size_t i = 0; i < g->n; i++) {
		const struct op *o = &g->ops[i];
		enum op_class c = op_kind_class(o->kind);
		double flops = o->flops * batch * share;
		double bytes = (op_weight_reads(o) +
				(o->act_read + o->act_written + o->scratch) * batch) *
			       elem * share;
		bool mat = c == OPC_GEMM || c == OPC_ATTENTION;
		double peak = mat ? matrix * matrix_eff_op(&e->matrix, o, batch,
							   share, sms)
				  : vector;
		double tc = peak > 0 ? flops / peak : 0;
		double tm = bandwidth > 0 ? bytes / bandwidth : 0;
		if (tc >= tm)
			out->compute_bound += tc;
		else
			out->memory_bound += tm;
		out->class_time[c] += tc >= tm ? tc : tm;
		out->flops += flops;
		out->bytes += bytes;
	}
	out->time = out->compute_bound + out->memory_bound;
}

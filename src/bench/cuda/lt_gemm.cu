/*
 * lt_gemm.cu - cuBLASLt descriptors for one matmul, shared by the GEMM job
 * and the GEMM kernels of a program.  See jobs.h (struct lt_shape).
 */
#include <string.h>

#include "jobs.h"

int lt_types(uint32_t precision, struct lt_shape *s, char *err, size_t errlen)
{
	s->scale_type = CUDA_R_32F;
	s->compute = CUBLAS_COMPUTE_32F;
	switch (precision) {
	case BENCH_FP64:
		s->ab_type = s->c_type = s->scale_type = CUDA_R_64F;
		s->compute = CUBLAS_COMPUTE_64F;
		return BENCH_OK;
	case BENCH_FP32:
		s->ab_type = s->c_type = CUDA_R_32F;
		return BENCH_OK;
	case BENCH_TF32:
		/* fp32 storage; cuBLASLt rounds the inputs to tf32 for the
		 * tensor cores and accumulates in fp32. */
		s->ab_type = s->c_type = CUDA_R_32F;
		s->compute = CUBLAS_COMPUTE_32F_FAST_TF32;
		return BENCH_OK;
	case BENCH_FP16:
		/* fp32 accumulation, as training uses it. */
		s->ab_type = s->c_type = CUDA_R_16F;
		return BENCH_OK;
	case BENCH_BF16:
		s->ab_type = s->c_type = CUDA_R_16BF;
		return BENCH_OK;
	case BENCH_INT8:
		/* int32 accumulation and output need int32 scalars. */
		s->ab_type = CUDA_R_8I;
		s->c_type = s->scale_type = CUDA_R_32I;
		s->compute = CUBLAS_COMPUTE_32I;
		return BENCH_OK;
	case BENCH_FP8_E4M3:
		/* Scale pointers left at their default (none: scale 1). */
		s->ab_type = CUDA_R_8F_E4M3;
		s->c_type = CUDA_R_16BF;
		return BENCH_OK;
	default:
		set_err(err, errlen, "precision %u unknown to the cuda plugin",
			(unsigned)precision);
		return BENCH_UNSUPPORTED;
	}
}

/* rows x cols stored column-major with leading dimension ld, batched. */
static int make_layout(cublasLtMatrixLayout_t *out, cudaDataType_t type,
		       uint64_t rows, uint64_t cols, int64_t ld, int32_t batch,
		       int64_t stride, char *err, size_t errlen)
{
	cublasStatus_t st;

	*out = NULL;
	st = cublasLtMatrixLayoutCreate(out, type, rows, cols, ld);
	if (st != CUBLAS_STATUS_SUCCESS) {
		*out = NULL;
		return cublas_status(st, "cublasLtMatrixLayoutCreate", err, errlen);
	}
	if (batch <= 1)
		return BENCH_OK;
	st = cublasLtMatrixLayoutSetAttribute(*out, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
					      &batch, sizeof(batch));
	if (st == CUBLAS_STATUS_SUCCESS)
		st = cublasLtMatrixLayoutSetAttribute(
			*out, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
			sizeof(stride));
	if (st != CUBLAS_STATUS_SUCCESS) {
		cublasLtMatrixLayoutDestroy(*out);
		*out = NULL;
		return cublas_status(st, "cublasLtMatrixLayoutSetAttribute", err,
				     errlen);
	}
	return BENCH_OK;
}

static int make_desc(struct lt_gemm *g, char *err, size_t errlen)
{
	const struct lt_shape *s = &g->shape;
	int32_t ta = s->trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
	int32_t tb = s->trans_b ? CUBLAS_OP_T : CUBLAS_OP_N;
	cublasStatus_t st;

	st = cublasLtMatmulDescCreate(&g->desc, s->compute, s->scale_type);
	if (st != CUBLAS_STATUS_SUCCESS) {
		g->desc = NULL;
		return cublas_status(st, "cublasLtMatmulDescCreate", err, errlen);
	}
	st = cublasLtMatmulDescSetAttribute(g->desc, CUBLASLT_MATMUL_DESC_TRANSA,
					    &ta, sizeof(ta));
	if (st == CUBLAS_STATUS_SUCCESS)
		st = cublasLtMatmulDescSetAttribute(g->desc, CUBLASLT_MATMUL_DESC_TRANSB,
						    &tb, sizeof(tb));
	if (st != CUBLAS_STATUS_SUCCESS)
		return cublas_status(st, "cublasLtMatmulDescSetAttribute", err, errlen);
	return BENCH_OK;
}

int lt_gemm_init(struct lt_gemm *g, const struct lt_shape *s, char *err,
		 size_t errlen)
{
	int ret;

	memset(g, 0, sizeof(*g));
	g->shape = *s;
	ret = make_desc(g, err, errlen);
	/* A is stored k x m when transposed, else m x k; B likewise. */
	if (ret == BENCH_OK)
		ret = make_layout(&g->a, s->ab_type, s->trans_a ? s->k : s->m,
				  s->trans_a ? s->m : s->k, s->lda, s->batch,
				  s->stride_a, err, errlen);
	if (ret == BENCH_OK)
		ret = make_layout(&g->b, s->ab_type, s->trans_b ? s->n : s->k,
				  s->trans_b ? s->k : s->n, s->ldb, s->batch,
				  s->stride_b, err, errlen);
	if (ret == BENCH_OK)
		ret = make_layout(&g->c, s->c_type, s->m, s->n, s->ldc, s->batch,
				  s->stride_c, err, errlen);
	if (ret != BENCH_OK)
		lt_gemm_free(g);
	return ret;
}

void lt_gemm_free(struct lt_gemm *g)
{
	if (g->c)
		cublasLtMatrixLayoutDestroy(g->c);
	if (g->b)
		cublasLtMatrixLayoutDestroy(g->b);
	if (g->a)
		cublasLtMatrixLayoutDestroy(g->a);
	if (g->desc)
		cublasLtMatmulDescDestroy(g->desc);
	g->a = g->b = g->c = NULL;
	g->desc = NULL;
}

int lt_gemm_candidates(cublasLtHandle_t h, struct lt_gemm *g,
		       size_t max_workspace,
		       cublasLtMatmulHeuristicResult_t *res, int want,
		       int *got, char *err, size_t errlen)
{
	cublasLtMatmulPreference_t pref = NULL;
	uint64_t ws = max_workspace;
	cublasStatus_t st;
	int i, n = 0, ok = 0;

	*got = 0;
	st = cublasLtMatmulPreferenceCreate(&pref);
	if (st != CUBLAS_STATUS_SUCCESS)
		return cublas_status(st, "cublasLtMatmulPreferenceCreate", err, errlen);
	st = cublasLtMatmulPreferenceSetAttribute(
		pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));
	if (st == CUBLAS_STATUS_SUCCESS)
		st = cublasLtMatmulAlgoGetHeuristic(h, g->desc, g->a, g->b, g->c,
						    g->c, pref, want, res, &n);
	cublasLtMatmulPreferenceDestroy(pref);
	if (st != CUBLAS_STATUS_SUCCESS)
		return cublas_status(st, "cublasLtMatmulAlgoGetHeuristic", err, errlen);
	/* Keep the usable ones, in the heuristic's order. */
	for (i = 0; i < n; i++)
		if (res[i].state == CUBLAS_STATUS_SUCCESS &&
		    res[i].workspaceSize <= max_workspace)
			res[ok++] = res[i];
	if (ok == 0) {
		set_err(err, errlen, "cublasLt has no algorithm for this matmul on this device");
		return BENCH_UNSUPPORTED;
	}
	*got = ok;
	return BENCH_OK;
}

cublasStatus_t lt_gemm_enqueue(cublasLtHandle_t h, const struct lt_gemm *g,
			       const cublasLtMatmulAlgo_t *algo,
			       const void *A, const void *B, void *C,
			       void *workspace, size_t workspace_bytes,
			       cudaStream_t s)
{
	static const double one_d = 1.0, zero_d = 0.0;
	static const float one_f = 1.0f, zero_f = 0.0f;
	static const int32_t one_i = 1, zero_i = 0;
	const void *alpha, *beta;

	switch (g->shape.scale_type) {
	case CUDA_R_64F: alpha = &one_d; beta = &zero_d; break;
	case CUDA_R_32I: alpha = &one_i; beta = &zero_i; break;
	default: alpha = &one_f; beta = &zero_f; break;
	}
	return cublasLtMatmul(h, g->desc, alpha, A, g->a, B, g->b, beta, C, g->c,
			      C, g->c, algo ? algo : &g->algo, workspace,
			      workspace_bytes, s);
}

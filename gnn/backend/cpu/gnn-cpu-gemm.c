/* gnn-cpu-gemm.c: batched matrix products through OpenBLAS
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <cblas.h>

#include "gnn-cpu-private.h"

/* How a (rows, cols) matrix view with strides (rs, cs) maps onto BLAS: row-major with a
 * leading dimension, transposed or not. */
static gboolean
blas_layout (gint64 rows, gint64 cols, gint64 rs, gint64 cs, gboolean *trans, gint64 *ld)
{
  if ((cs == 1 || cols <= 1) && rs >= MAX (cols, 1))
    {
      *trans = FALSE;
      *ld = rs;
      return TRUE;
    }
  if ((rs == 1 || rows <= 1) && cs >= MAX (rows, 1))
    {
      *trans = TRUE;
      *ld = cs;
      return TRUE;
    }
  return FALSE;
}

/* out[b] (m, n) = s0 * A[b] (m, k) · B[b] (k, n) + s1 * out[b] */
static gboolean
k_gemm (const GnnKernelArgs *args, GError **error)
{
  const GnnKernelTensor *a = args->in[0], *b = args->in[1], *c = args->out;
  gint64 batch, m, n, k, lda, ldb, ldc;
  gboolean ta, tb, tc;
  gsize es;

  if (a->ndim != 3 || b->ndim != 3 || c->ndim != 3 || a->dtype != c->dtype || b->dtype != c->dtype ||
      (c->dtype != GNN_DTYPE_FLOAT32 && c->dtype != GNN_DTYPE_FLOAT64))
    return gnn_cpu_unsupported (args, error);
  batch = c->shape[0];
  m = c->shape[1];
  n = c->shape[2];
  k = a->shape[2];
  if (!blas_layout (m, k, a->strides[1], a->strides[2], &ta, &lda) ||
      !blas_layout (k, n, b->strides[1], b->strides[2], &tb, &ldb) ||
      !blas_layout (m, n, c->strides[1], c->strides[2], &tc, &ldc) || tc)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "cpu gemm: operands need a unit stride in one of their last two dimensions");
      return FALSE;
    }
  if (m == 0 || n == 0)
    return TRUE;
  lda = MAX (lda, 1);
  ldb = MAX (ldb, 1);
  ldc = MAX (ldc, 1);
  es = gnn_dtype_get_size (c->dtype);
  for (gint64 i = 0; i < batch; i++)
    {
      const char *pa = (const char *) a->data + i * a->strides[0] * (gint64) es;
      const char *pb = (const char *) b->data + i * b->strides[0] * (gint64) es;
      char *pc = (char *) c->data + i * c->strides[0] * (gint64) es;

      if (c->dtype == GNN_DTYPE_FLOAT32)
        cblas_sgemm (CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                     (blasint) m, (blasint) n, (blasint) k, (float) args->s[0],
                     (const float *) pa, (blasint) lda, (const float *) pb, (blasint) ldb,
                     (float) args->s[1], (float *) pc, (blasint) ldc);
      else
        cblas_dgemm (CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
                     (blasint) m, (blasint) n, (blasint) k, args->s[0],
                     (const double *) pa, (blasint) lda, (const double *) pb, (blasint) ldb,
                     args->s[1], (double *) pc, (blasint) ldc);
    }
  return TRUE;
}

void
gnn_cpu_register_gemm (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_GEMM] = k_gemm;
}

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

typedef struct {
  const GnnKernelArgs *args;
  gint64 m, n, k, lda, ldb, ldc;
  gboolean ta, tb;
  gint64 rows;        /* rows of C per task when the tasks split matrices; 0: one task per batch element */
  gint64 cols;        /* columns of C per task when the tasks split them instead; 0: whole rows */
  gint64 row_tasks;   /* tasks per batch element */
} GemmCtx;

/* C[i] rows [r0, r1) = alpha · A[i] rows [r0, r1) · B[i] + beta · C[i] rows [r0, r1), one OpenBLAS
 * call on the calling thread. Every element of C is computed by the same kernel over the
 * same k order whatever the split, so results do not depend on the thread count. */
static void
gemm_block (const GemmCtx *g, gint64 i, gint64 r0, gint64 r1, gint64 c0, gint64 c1)
{
  const GnnKernelArgs *args = g->args;
  const GnnKernelTensor *a = args->in[0], *b = args->in[1], *c = args->out;
  gint64 es = (gint64) gnn_dtype_get_size (c->dtype);
  /* row r of op (A) starts at r · lda (A as stored) or at column r (A stored transposed) */
  const char *pa = (const char *) a->data + (i * a->strides[0] + r0 * (g->ta ? 1 : g->lda)) * es;
  /* column c of op (B) starts at c (B as stored) or at row c (B stored transposed) */
  const char *pb = (const char *) b->data + (i * b->strides[0] + c0 * (g->tb ? g->ldb : 1)) * es;
  char *pc = (char *) c->data + (i * c->strides[0] + r0 * g->ldc + c0) * es;
  blasint rows = (blasint) (r1 - r0), cols = (blasint) (c1 - c0);

  if (c->dtype == GNN_DTYPE_FLOAT32)
    cblas_sgemm (CblasRowMajor, g->ta ? CblasTrans : CblasNoTrans, g->tb ? CblasTrans : CblasNoTrans,
                 rows, cols, (blasint) g->k, (float) args->params.gemm.alpha,
                 (const float *) pa, (blasint) g->lda, (const float *) pb, (blasint) g->ldb,
                 (float) args->params.gemm.beta, (float *) pc, (blasint) g->ldc);
  else
    cblas_dgemm (CblasRowMajor, g->ta ? CblasTrans : CblasNoTrans, g->tb ? CblasTrans : CblasNoTrans,
                 rows, cols, (blasint) g->k, args->params.gemm.alpha,
                 (const double *) pa, (blasint) g->lda, (const double *) pb, (blasint) g->ldb,
                 args->params.gemm.beta, (double *) pc, (blasint) g->ldc);
}

static void
gemm_tasks (gpointer data, gint64 b, gint64 e)
{
  const GemmCtx *g = data;

  for (gint64 t = b; t < e; t++)
    {
      if (g->rows == 0)
        gemm_block (g, t, 0, g->m, 0, g->n);
      else if (g->cols > 0)
        {
          gint64 i = t / g->row_tasks, c0 = (t % g->row_tasks) * g->cols;
          gemm_block (g, i, 0, g->m, c0, MIN (g->n, c0 + g->cols));
        }
      else
        {
          gint64 i = t / g->row_tasks, r0 = (t % g->row_tasks) * g->rows;
          gemm_block (g, i, r0, MIN (g->m, r0 + g->rows), 0, g->n);
        }
    }
}

/* Multiply-adds below which a product runs on the calling thread */
#define GEMM_GRAIN (1 << 18)

/* out[b] (m, n) = alpha * A[b] (m, k) · B[b] (k, n) + beta * out[b]. OpenBLAS runs single-threaded
 * (gnn_set_num_threads): gnn's threads take whole products of a batch, or blocks of rows of
 * one product, so that a batch of small products (a convolution's) does not pay OpenBLAS's
 * thread hand-off for each. */
static gboolean
k_gemm (const GnnKernelArgs *args, GError **error)
{
  const GnnKernelTensor *a = args->in[0], *b = args->in[1], *c = args->out;
  gint64 batch;
  gboolean tc;
  GemmCtx g = { args };
  int threads;
  double work;

  if (a->ndim != 3 || b->ndim != 3 || c->ndim != 3 || a->dtype != c->dtype || b->dtype != c->dtype ||
      (c->dtype != GNN_DTYPE_FLOAT32 && c->dtype != GNN_DTYPE_FLOAT64))
    return gnn_cpu_unsupported (args, error);
  batch = c->shape[0];
  g.m = c->shape[1];
  g.n = c->shape[2];
  g.k = a->shape[2];
  if (!blas_layout (g.m, g.k, a->strides[1], a->strides[2], &g.ta, &g.lda) ||
      !blas_layout (g.k, g.n, b->strides[1], b->strides[2], &g.tb, &g.ldb) ||
      !blas_layout (g.m, g.n, c->strides[1], c->strides[2], &tc, &g.ldc) || tc)
    {
      g_set_error_literal (error, GNN_ERROR, GNN_ERROR_NOT_SUPPORTED,
                           "cpu gemm: operands need a unit stride in one of their last two dimensions");
      return FALSE;
    }
  if (g.m == 0 || g.n == 0 || batch == 0)
    return TRUE;
  g.lda = MAX (g.lda, 1);
  g.ldb = MAX (g.ldb, 1);
  g.ldc = MAX (g.ldc, 1);
  threads = gnn_get_num_threads ();
  work = (double) batch * (double) g.m * (double) g.n * (double) MAX (g.k, 1);
  if (threads <= 1 || work < GEMM_GRAIN)
    {
      for (gint64 i = 0; i < batch; i++)
        gemm_block (&g, i, 0, g.m, 0, g.n);
      return TRUE;
    }
  if (batch >= threads)
    {
      gnn_parallel_for (batch, MAX (1, (gint64) (GEMM_GRAIN / (work / (double) batch))), gemm_tasks, &g);
      return TRUE;
    }
  /* a few wide products of few rows (a recurrent step's, (32, 512) by (512, 2048)): split
   * each into blocks of columns, a multiple of 64, so that each thread packs only its part of
   * B, where a split into rows would have every thread pack all of it */
  if (g.m < 32 * threads && g.n >= 128 * threads)
    {
      g.rows = g.m;
      g.cols = ((g.n + threads - 1) / threads + 63) / 64 * 64;
      g.row_tasks = (g.n + g.cols - 1) / g.cols;
      gnn_parallel_for (batch * g.row_tasks, 1, gemm_tasks, &g);
      return TRUE;
    }
  /* a few large products: split each into blocks of rows, a multiple of 16 (OpenBLAS's
   * register blocking) where the matrix is tall enough */
  g.rows = (g.m + threads - 1) / threads;
  if (g.m >= 32 * threads)
    g.rows = (g.rows + 15) / 16 * 16;
  g.rows = MAX (g.rows, 1);
  g.row_tasks = (g.m + g.rows - 1) / g.rows;
  gnn_parallel_for (batch * g.row_tasks, 1, gemm_tasks, &g);
  return TRUE;
}

void
gnn_cpu_register_gemm (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_GEMM] = k_gemm;
}

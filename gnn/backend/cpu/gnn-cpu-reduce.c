/* gnn-cpu-reduce.c: reductions over the middle dimension of [outer, r, inner]
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>

#include "gnn-cpu-private.h"

/* Block size of a long reduction: partial sums of fixed blocks are added in order, so the
 * result does not depend on the number of threads. */
#define SUM_BLOCK 16384

typedef struct {
  const GnnKernelArgs *args;
  double *partials;
  gint64 n_blocks;
} SumCtx;

/* out[o, i] = Σ_r in[o, r, i], accumulating in double (float32, float64) or int64 */
static void
sum_rows (gpointer data, gint64 b, gint64 e)
{
  const GnnKernelArgs *args = data;
  gint64 r = args->i[1], inner = args->i[2];
  const GnnKernelTensor *in = args->in[0];

  for (gint64 oi = b; oi < e; oi++)
    {
      gint64 o = oi / inner, i = oi % inner;
      gint64 base = o * r * inner + i;
      switch (in->dtype)
        {
        case GNN_DTYPE_FLOAT32:
          {
            const float *x = (const float *) in->data + base;
            double acc = 0;
            for (gint64 k = 0; k < r; k++)
              acc += x[k * inner];
            ((float *) args->out->data)[oi] = (float) acc;
          }
          break;
        case GNN_DTYPE_FLOAT64:
          {
            const double *x = (const double *) in->data + base;
            double acc = 0;
            for (gint64 k = 0; k < r; k++)
              acc += x[k * inner];
            ((double *) args->out->data)[oi] = acc;
          }
          break;
        default:
          {
            const gint64 *x = (const gint64 *) in->data + base;
            gint64 acc = 0;
            for (gint64 k = 0; k < r; k++)
              acc += x[k * inner];
            ((gint64 *) args->out->data)[oi] = acc;
          }
        }
    }
}

static void
sum_blocks (gpointer data, gint64 b, gint64 e)
{
  SumCtx *ctx = data;
  const GnnKernelTensor *in = ctx->args->in[0];
  gint64 r = ctx->args->i[1];

  for (gint64 blk = b; blk < e; blk++)
    {
      gint64 s = blk * SUM_BLOCK, t = MIN (r, s + SUM_BLOCK);
      double acc = 0;
      if (in->dtype == GNN_DTYPE_FLOAT32)
        for (gint64 k = s; k < t; k++)
          acc += ((const float *) in->data)[k];
      else
        for (gint64 k = s; k < t; k++)
          acc += ((const double *) in->data)[k];
      ctx->partials[blk] = acc;
    }
}

static gboolean
k_sum (const GnnKernelArgs *args, GError **error)
{
  gint64 outer = args->i[0], r = args->i[1], inner = args->i[2];
  GnnDtype dt = args->in[0]->dtype;

  if (dt != GNN_DTYPE_FLOAT32 && dt != GNN_DTYPE_FLOAT64 && dt != GNN_DTYPE_INT64)
    return gnn_cpu_unsupported (args, error);
  if (outer * inner == 1 && r > 2 * SUM_BLOCK && dt != GNN_DTYPE_INT64)
    {
      SumCtx ctx = { args, NULL, (r + SUM_BLOCK - 1) / SUM_BLOCK };
      double acc = 0;
      ctx.partials = g_new (double, ctx.n_blocks);
      gnn_parallel_for (ctx.n_blocks, 1, sum_blocks, &ctx);
      for (gint64 k = 0; k < ctx.n_blocks; k++)
        acc += ctx.partials[k];
      g_free (ctx.partials);
      if (dt == GNN_DTYPE_FLOAT32)
        *(float *) args->out->data = (float) acc;
      else
        *(double *) args->out->data = acc;
      return TRUE;
    }
  gnn_parallel_for (outer * inner, MAX (1, GNN_CPU_GRAIN / MAX (r, 1)), sum_rows, (gpointer) args);
  return TRUE;
}

void
gnn_cpu_register_reduce (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_SUM] = k_sum;
}

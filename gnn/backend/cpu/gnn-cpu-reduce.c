/* gnn-cpu-reduce.c: reductions over the middle dimension of [outer, r, inner]: sum, max,
 * min, var, softmax, log-softmax and the softmax backward kernels
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
  gint64 r = args->params.reduce.reduced, inner = args->params.reduce.inner;
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
  gint64 r = ctx->args->params.reduce.reduced;

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
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
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

/* ---- kernels over columns of [outer, r, inner] ------------------------------------------ */

static void
run_cols (const GnnKernelArgs *args, GnnParallelFunc func)
{
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  GnnCpuColCtx ctx = { args, (inner + GNN_CPU_COLS - 1) / GNN_CPU_COLS };
  gint64 work = MAX (r, 1) * MIN (inner, GNN_CPU_COLS);

  if (outer <= 0 || inner <= 0)
    return;
  gnn_parallel_for (outer * ctx.n_col_blocks, MAX (1, GNN_CPU_GRAIN / work), func, &ctx);
}

static gboolean
float_or_double (const GnnKernelArgs *args)
{
  GnnDtype dt = args->in[0]->dtype;
  return dt == GNN_DTYPE_FLOAT32 || dt == GNN_DTYPE_FLOAT64;
}

/* One long reduction (outer = inner = 1) is split into fixed blocks whose partial results
 * are combined in order. */
typedef struct {
  const GnnKernelArgs *args;
  gpointer partials;     /* one value per block */
  gint64 *at;            /* max / min: the index of each block's value */
  double mean;           /* var: the mean, for the second pass */
} BlockCtx;

#define N_BLOCKS(r) (((r) + SUM_BLOCK - 1) / SUM_BLOCK)

/* whether @args is one long reduction, which its blocks split among the threads */
static inline gboolean
long_reduction (const GnnKernelArgs *args)
{
  return args->params.reduce.outer * args->params.reduce.inner == 1 && args->params.reduce.reduced > 2 * SUM_BLOCK;
}

/* ---- max / min ---------------------------------------------------------------------- */

/* Whether v replaces the best value b so far: NaN beats everything and nothing beats NaN
 * (PyTorch propagates NaN); a tie keeps the earlier index. For integers v != v is false. */
#define BEATS_MAX(v, b) ((b) == (b) && ((v) != (v) || (v) > (b)))
#define BEATS_MIN(v, b) ((b) == (b) && ((v) != (v) || (v) < (b)))

/* the kernels of each dtype and direction, minmax_cols_max_f32 to minmax_long_min_i64 */
#define T float
#define NAME(x) x##_max_f32
#define BEATS BEATS_MAX
#include "gnn-cpu-minmax-tmpl.c"
#define T double
#define NAME(x) x##_max_f64
#define BEATS BEATS_MAX
#include "gnn-cpu-minmax-tmpl.c"
#define T gint64
#define NAME(x) x##_max_i64
#define BEATS BEATS_MAX
#include "gnn-cpu-minmax-tmpl.c"
#define T float
#define NAME(x) x##_min_f32
#define BEATS BEATS_MIN
#include "gnn-cpu-minmax-tmpl.c"
#define T double
#define NAME(x) x##_min_f64
#define BEATS BEATS_MIN
#include "gnn-cpu-minmax-tmpl.c"
#define T gint64
#define NAME(x) x##_min_i64
#define BEATS BEATS_MIN
#include "gnn-cpu-minmax-tmpl.c"

/* out[o, i] = max_r in0[o, r, i], out2[o, i] = its first index (the first NaN if any) */
static gboolean
k_minmax (const GnnKernelArgs *args, GError **error)
{
  gboolean is_max = args->op == GNN_BACKEND_OP_MAX;
  GnnDtype dt = args->in[0]->dtype;
  GnnParallelFunc cols;
  void (*long_red) (const GnnKernelArgs *);

  switch (dt)
    {
    case GNN_DTYPE_FLOAT32:
      cols = is_max ? minmax_cols_max_f32 : minmax_cols_min_f32;
      long_red = is_max ? minmax_long_max_f32 : minmax_long_min_f32;
      break;
    case GNN_DTYPE_FLOAT64:
      cols = is_max ? minmax_cols_max_f64 : minmax_cols_min_f64;
      long_red = is_max ? minmax_long_max_f64 : minmax_long_min_f64;
      break;
    case GNN_DTYPE_INT64:
      cols = is_max ? minmax_cols_max_i64 : minmax_cols_min_i64;
      long_red = is_max ? minmax_long_max_i64 : minmax_long_min_i64;
      break;
    default:
      return gnn_cpu_unsupported (args, error);
    }
  if (args->params.reduce.reduced <= 0)
    {
      g_set_error (error, GNN_ERROR, GNN_ERROR_INDEX,
                   "%s: cannot reduce over a dimension of size zero", is_max ? "max" : "min");
      return FALSE;
    }
  if (long_reduction (args))
    long_red (args);
  else
    run_cols (args, cols);
  return TRUE;
}

/* ---- var, softmax, log-softmax and the softmax backward ------------------------------ */

/* the kernels of each floating dtype, var_cols_f32 to softmax_backward_cols_f64 */
#define T float
#define NAME(x) x##_f32
#include "gnn-cpu-reduce-tmpl.c"
#define T double
#define NAME(x) x##_f64
#include "gnn-cpu-reduce-tmpl.c"

/* out[o, i] = Σ_r (in0[o, r, i] - mean)² / max (0, r - correction) */
static gboolean
k_var (const GnnKernelArgs *args, GError **error)
{
  gboolean f32 = args->in[0]->dtype == GNN_DTYPE_FLOAT32;

  if (!float_or_double (args))
    return gnn_cpu_unsupported (args, error);
  if (long_reduction (args))
    (f32 ? var_long_f32 : var_long_f64) (args);
  else
    run_cols (args, f32 ? var_cols_f32 : var_cols_f64);
  return TRUE;
}

/* out = softmax or log-softmax of in0 over r, shaped as in0 */
static gboolean
k_softmax (const GnnKernelArgs *args, GError **error)
{
  if (!float_or_double (args))
    return gnn_cpu_unsupported (args, error);
  run_cols (args, args->in[0]->dtype == GNN_DTYPE_FLOAT32 ? softmax_cols_f32 : softmax_cols_f64);
  return TRUE;
}

/* in0 the gradient of the result, in1 the result */
static gboolean
k_softmax_backward (const GnnKernelArgs *args, GError **error)
{
  if (!float_or_double (args) || args->in[1]->dtype != args->in[0]->dtype)
    return gnn_cpu_unsupported (args, error);
  run_cols (args, args->in[0]->dtype == GNN_DTYPE_FLOAT32 ? softmax_backward_cols_f32
                                                          : softmax_backward_cols_f64);
  return TRUE;
}

void
gnn_cpu_register_reduce (GnnCpuKernel *table)
{
  table[GNN_BACKEND_OP_SUM] = k_sum;
  table[GNN_BACKEND_OP_MAX] = k_minmax;
  table[GNN_BACKEND_OP_MIN] = k_minmax;
  table[GNN_BACKEND_OP_VAR] = k_var;
  table[GNN_BACKEND_OP_SOFTMAX] = k_softmax;
  table[GNN_BACKEND_OP_LOG_SOFTMAX] = k_softmax;
  table[GNN_BACKEND_OP_SOFTMAX_BACKWARD] = k_softmax_backward;
  table[GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD] = k_softmax_backward;
}

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

/* Inner columns one task handles: the inner loops then run over contiguous memory while the
 * per-column state (running max, sums) stays on the stack. Every column is reduced over r in
 * index order by one task, so results do not depend on the thread count. */
#define COLS 64

typedef struct {
  const GnnKernelArgs *args;
  gint64 n_col_blocks;
} ColCtx;

/* Task t covers outer index *o and inner columns [*c0, *c1). */
static inline void
task_cols (const ColCtx *ctx, gint64 t, gint64 *o, gint64 *c0, gint64 *c1)
{
  gint64 inner = ctx->args->params.reduce.inner;

  *o = t / ctx->n_col_blocks;
  *c0 = (t % ctx->n_col_blocks) * COLS;
  *c1 = MIN (inner, *c0 + COLS);
}

static void
run_cols (const GnnKernelArgs *args, GnnParallelFunc func)
{
  gint64 outer = args->params.reduce.outer, r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  ColCtx ctx = { args, (inner + COLS - 1) / COLS };
  gint64 work = MAX (r, 1) * MIN (inner, COLS);

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
#define LONG_REDUCTION(args) ((args)->params.reduce.outer * (args)->params.reduce.inner == 1 && \
                              (args)->params.reduce.reduced > 2 * SUM_BLOCK)

/* ---- max / min ---------------------------------------------------------------------- */

/* Whether v replaces the best value b so far: NaN beats everything and nothing beats NaN
 * (PyTorch propagates NaN); a tie keeps the earlier index. For integers v != v is false. */
#define BEATS_MAX(v, b) ((b) == (b) && ((v) != (v) || (v) > (b)))
#define BEATS_MIN(v, b) ((b) == (b) && ((v) != (v) || (v) < (b)))

#define MINMAX_KERNELS(SUFFIX, T, BEATS)                                                     \
static void                                                                                  \
minmax_cols_##SUFFIX (gpointer data, gint64 b, gint64 e)                                     \
{                                                                                            \
  const ColCtx *ctx = data;                                                                  \
  const GnnKernelArgs *args = ctx->args;                                                     \
  gint64 r = args->params.reduce.reduced, inner = args->params.reduce.inner;                                                 \
  const T *x = args->in[0]->data;                                                            \
  T *out = args->out->data;                                                                  \
  gint64 *idx = args->out2 ? args->out2->data : NULL;                                        \
                                                                                             \
  for (gint64 t = b; t < e; t++)                                                             \
    {                                                                                        \
      gint64 o, c0, c1;                                                                      \
      T best[COLS];                                                                          \
      gint64 at[COLS];                                                                       \
      const T *row;                                                                          \
                                                                                             \
      task_cols (ctx, t, &o, &c0, &c1);                                                      \
      row = x + o * r * inner;                                                               \
      for (gint64 c = c0; c < c1; c++)                                                       \
        {                                                                                    \
          best[c - c0] = row[c];                                                             \
          at[c - c0] = 0;                                                                    \
        }                                                                                    \
      for (gint64 k = 1; k < r; k++)                                                         \
        {                                                                                    \
          const T *xk = row + k * inner;                                                     \
          for (gint64 c = c0; c < c1; c++)                                                   \
            if (BEATS (xk[c], best[c - c0]))                                                 \
              {                                                                              \
                best[c - c0] = xk[c];                                                        \
                at[c - c0] = k;                                                              \
              }                                                                              \
        }                                                                                    \
      for (gint64 c = c0; c < c1; c++)                                                       \
        {                                                                                    \
          out[o * inner + c] = best[c - c0];                                                 \
          if (idx)                                                                           \
            idx[o * inner + c] = at[c - c0];                                                 \
        }                                                                                    \
    }                                                                                        \
}                                                                                            \
                                                                                             \
static void                                                                                  \
minmax_blocks_##SUFFIX (gpointer data, gint64 b, gint64 e)                                   \
{                                                                                            \
  BlockCtx *ctx = data;                                                                      \
  const T *x = ctx->args->in[0]->data;                                                       \
  gint64 r = ctx->args->params.reduce.reduced;                                                                \
                                                                                             \
  for (gint64 blk = b; blk < e; blk++)                                                       \
    {                                                                                        \
      gint64 s = blk * SUM_BLOCK, end = MIN (r, s + SUM_BLOCK), at = s;                      \
      T best = x[s];                                                                         \
      for (gint64 k = s + 1; k < end; k++)                                                   \
        if (BEATS (x[k], best))                                                              \
          {                                                                                  \
            best = x[k];                                                                     \
            at = k;                                                                          \
          }                                                                                  \
      ((T *) ctx->partials)[blk] = best;                                                     \
      ctx->at[blk] = at;                                                                     \
    }                                                                                        \
}                                                                                            \
                                                                                             \
static void                                                                                  \
minmax_long_##SUFFIX (const GnnKernelArgs *args)                                             \
{                                                                                            \
  gint64 n_blocks = N_BLOCKS (args->params.reduce.reduced);                                                   \
  BlockCtx ctx = { args, g_new (T, n_blocks), g_new (gint64, n_blocks), 0 };                 \
  T best;                                                                                    \
  gint64 at;                                                                                 \
                                                                                             \
  gnn_parallel_for (n_blocks, 1, minmax_blocks_##SUFFIX, &ctx);                              \
  best = ((T *) ctx.partials)[0];                                                            \
  at = ctx.at[0];                                                                            \
  for (gint64 blk = 1; blk < n_blocks; blk++)                                                \
    if (BEATS (((T *) ctx.partials)[blk], best))                                             \
      {                                                                                      \
        best = ((T *) ctx.partials)[blk];                                                    \
        at = ctx.at[blk];                                                                    \
      }                                                                                      \
  *(T *) args->out->data = best;                                                             \
  if (args->out2)                                                                            \
    *(gint64 *) args->out2->data = at;                                                       \
  g_free (ctx.partials);                                                                     \
  g_free (ctx.at);                                                                           \
}

MINMAX_KERNELS (max_f32, float, BEATS_MAX)
MINMAX_KERNELS (max_f64, double, BEATS_MAX)
MINMAX_KERNELS (max_i64, gint64, BEATS_MAX)
MINMAX_KERNELS (min_f32, float, BEATS_MIN)
MINMAX_KERNELS (min_f64, double, BEATS_MIN)
MINMAX_KERNELS (min_i64, gint64, BEATS_MIN)

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
  if (LONG_REDUCTION (args))
    long_red (args);
  else
    run_cols (args, cols);
  return TRUE;
}

/* ---- var ---------------------------------------------------------------------------- */

/* Two passes in double: the mean, then the sum of squared deviations, divided by
 * max (0, r - correction) as PyTorch does (an empty reduction gives NaN). */
#define VAR_KERNELS(SUFFIX, T)                                                               \
static void                                                                                  \
var_cols_##SUFFIX (gpointer data, gint64 b, gint64 e)                                        \
{                                                                                            \
  const ColCtx *ctx = data;                                                                  \
  const GnnKernelArgs *args = ctx->args;                                                     \
  gint64 r = args->params.reduce.reduced, inner = args->params.reduce.inner;                                                 \
  double div = MAX (0.0, (double) r - args->params.reduce.correction);                                           \
  const T *x = args->in[0]->data;                                                            \
  T *out = args->out->data;                                                                  \
                                                                                             \
  for (gint64 t = b; t < e; t++)                                                             \
    {                                                                                        \
      gint64 o, c0, c1;                                                                      \
      double mean[COLS] = { 0 }, m2[COLS] = { 0 };                                           \
      const T *row;                                                                          \
                                                                                             \
      task_cols (ctx, t, &o, &c0, &c1);                                                      \
      row = x + o * r * inner;                                                               \
      for (gint64 k = 0; k < r; k++)                                                         \
        for (gint64 c = c0; c < c1; c++)                                                     \
          mean[c - c0] += row[k * inner + c];                                                \
      for (gint64 c = c0; c < c1; c++)                                                       \
        mean[c - c0] /= (double) r;                                                          \
      for (gint64 k = 0; k < r; k++)                                                         \
        for (gint64 c = c0; c < c1; c++)                                                     \
          {                                                                                  \
            double d = row[k * inner + c] - mean[c - c0];                                    \
            m2[c - c0] += d * d;                                                             \
          }                                                                                  \
      for (gint64 c = c0; c < c1; c++)                                                       \
        out[o * inner + c] = (T) (r == 0 ? NAN : m2[c - c0] / div);                          \
    }                                                                                        \
}                                                                                            \
                                                                                             \
static void                                                                                  \
var_blocks_##SUFFIX (gpointer data, gint64 b, gint64 e)                                      \
{                                                                                            \
  BlockCtx *ctx = data;                                                                      \
  const T *x = ctx->args->in[0]->data;                                                       \
  gint64 r = ctx->args->params.reduce.reduced;                                                                \
                                                                                             \
  for (gint64 blk = b; blk < e; blk++)                                                       \
    {                                                                                        \
      gint64 s = blk * SUM_BLOCK, end = MIN (r, s + SUM_BLOCK);                              \
      double acc = 0;                                                                        \
      if (isnan (ctx->mean))                                                                 \
        for (gint64 k = s; k < end; k++)                                                     \
          acc += x[k];                                                                       \
      else                                                                                   \
        for (gint64 k = s; k < end; k++)                                                     \
          {                                                                                  \
            double d = x[k] - ctx->mean;                                                     \
            acc += d * d;                                                                    \
          }                                                                                  \
      ((double *) ctx->partials)[blk] = acc;                                                 \
    }                                                                                        \
}                                                                                            \
                                                                                             \
static void                                                                                  \
var_long_##SUFFIX (const GnnKernelArgs *args)                                                \
{                                                                                            \
  gint64 r = args->params.reduce.reduced, n_blocks = N_BLOCKS (r);                                            \
  BlockCtx ctx = { args, g_new (double, n_blocks), NULL, NAN };                              \
  double acc = 0, m2 = 0;                                                                    \
                                                                                             \
  gnn_parallel_for (n_blocks, 1, var_blocks_##SUFFIX, &ctx);                                 \
  for (gint64 blk = 0; blk < n_blocks; blk++)                                                \
    acc += ((double *) ctx.partials)[blk];                                                   \
  ctx.mean = acc / (double) r;                                                               \
  if (!isnan (ctx.mean))                                                                     \
    {                                                                                        \
      gnn_parallel_for (n_blocks, 1, var_blocks_##SUFFIX, &ctx);                             \
      for (gint64 blk = 0; blk < n_blocks; blk++)                                            \
        m2 += ((double *) ctx.partials)[blk];                                                \
    }                                                                                        \
  else                                                                                       \
    m2 = NAN;                                                                                \
  *(T *) args->out->data = (T) (m2 / MAX (0.0, (double) r - args->params.reduce.correction));                    \
  g_free (ctx.partials);                                                                     \
}

VAR_KERNELS (f32, float)
VAR_KERNELS (f64, double)

/* out[o, i] = Σ_r (in0[o, r, i] - mean)² / max (0, r - correction) */
static gboolean
k_var (const GnnKernelArgs *args, GError **error)
{
  gboolean f32 = args->in[0]->dtype == GNN_DTYPE_FLOAT32;

  if (!float_or_double (args))
    return gnn_cpu_unsupported (args, error);
  if (LONG_REDUCTION (args))
    (f32 ? var_long_f32 : var_long_f64) (args);
  else
    run_cols (args, f32 ? var_cols_f32 : var_cols_f64);
  return TRUE;
}

/* ---- softmax, log-softmax and their backward ---------------------------------------- */

/* Numerically stable: the maximum of each column is subtracted before exp, and the sums of
 * exponentials accumulate in double. A NaN anywhere in a column gives NaN everywhere in it. */
#define SOFTMAX_KERNELS(SUFFIX, T)                                                           \
static void                                                                                  \
softmax_cols_##SUFFIX (gpointer data, gint64 b, gint64 e)                                    \
{                                                                                            \
  const ColCtx *ctx = data;                                                                  \
  const GnnKernelArgs *args = ctx->args;                                                     \
  gint64 r = args->params.reduce.reduced, inner = args->params.reduce.inner;                                                 \
  gboolean is_log = args->op == GNN_BACKEND_OP_LOG_SOFTMAX;                                  \
                                                                                             \
  if (r <= 0)                                                                                \
    return;                                                                                  \
  for (gint64 t = b; t < e; t++)                                                             \
    {                                                                                        \
      gint64 o, c0, c1;                                                                      \
      double m[COLS], s[COLS] = { 0 };                                                       \
      const T *x;                                                                            \
      T *y;                                                                                  \
                                                                                             \
      task_cols (ctx, t, &o, &c0, &c1);                                                      \
      x = (const T *) args->in[0]->data + o * r * inner;                                     \
      y = (T *) args->out->data + o * r * inner;                                             \
      for (gint64 c = c0; c < c1; c++)                                                       \
        m[c - c0] = x[c];                                                                    \
      for (gint64 k = 1; k < r; k++)                                                         \
        for (gint64 c = c0; c < c1; c++)                                                     \
          {                                                                                  \
            double v = x[k * inner + c];                                                     \
            if (v > m[c - c0] || v != v)                                                     \
              m[c - c0] = v;                                                                 \
          }                                                                                  \
      for (gint64 k = 0; k < r; k++)                                                         \
        for (gint64 c = c0; c < c1; c++)                                                     \
          {                                                                                  \
            double ex = exp (x[k * inner + c] - m[c - c0]);                                  \
            s[c - c0] += ex;                                                                 \
            if (!is_log)                                                                     \
              y[k * inner + c] = (T) ex;                                                     \
          }                                                                                  \
      if (is_log)                                                                            \
        {                                                                                    \
          for (gint64 c = c0; c < c1; c++)                                                   \
            s[c - c0] = m[c - c0] + log (s[c - c0]);                                         \
          for (gint64 k = 0; k < r; k++)                                                     \
            for (gint64 c = c0; c < c1; c++)                                                 \
              y[k * inner + c] = (T) (x[k * inner + c] - s[c - c0]);                         \
        }                                                                                    \
      else                                                                                   \
        {                                                                                    \
          for (gint64 c = c0; c < c1; c++)                                                   \
            s[c - c0] = 1.0 / s[c - c0];                                                     \
          for (gint64 k = 0; k < r; k++)                                                     \
            for (gint64 c = c0; c < c1; c++)                                                 \
              y[k * inner + c] = (T) (y[k * inner + c] * s[c - c0]);                         \
        }                                                                                    \
    }                                                                                        \
}                                                                                            \
                                                                                             \
/* softmax: out = y * (g - Σ_r g * y); log-softmax: out = g - exp (y) * Σ_r g */             \
static void                                                                                  \
softmax_backward_cols_##SUFFIX (gpointer data, gint64 b, gint64 e)                           \
{                                                                                            \
  const ColCtx *ctx = data;                                                                  \
  const GnnKernelArgs *args = ctx->args;                                                     \
  gint64 r = args->params.reduce.reduced, inner = args->params.reduce.inner;                                                 \
  gboolean is_log = args->op == GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD;                         \
                                                                                             \
  for (gint64 t = b; t < e; t++)                                                             \
    {                                                                                        \
      gint64 o, c0, c1;                                                                      \
      double s[COLS] = { 0 };                                                                \
      const T *g, *y;                                                                        \
      T *out;                                                                                \
                                                                                             \
      task_cols (ctx, t, &o, &c0, &c1);                                                      \
      g = (const T *) args->in[0]->data + o * r * inner;                                     \
      y = (const T *) args->in[1]->data + o * r * inner;                                     \
      out = (T *) args->out->data + o * r * inner;                                           \
      if (is_log)                                                                            \
        {                                                                                    \
          for (gint64 k = 0; k < r; k++)                                                     \
            for (gint64 c = c0; c < c1; c++)                                                 \
              s[c - c0] += g[k * inner + c];                                                 \
          for (gint64 k = 0; k < r; k++)                                                     \
            for (gint64 c = c0; c < c1; c++)                                                 \
              out[k * inner + c] = (T) (g[k * inner + c] - exp ((double) y[k * inner + c]) * s[c - c0]); \
        }                                                                                    \
      else                                                                                   \
        {                                                                                    \
          for (gint64 k = 0; k < r; k++)                                                     \
            for (gint64 c = c0; c < c1; c++)                                                 \
              s[c - c0] += (double) g[k * inner + c] * y[k * inner + c];                     \
          for (gint64 k = 0; k < r; k++)                                                     \
            for (gint64 c = c0; c < c1; c++)                                                 \
              out[k * inner + c] = (T) (y[k * inner + c] * (g[k * inner + c] - s[c - c0])); \
        }                                                                                    \
    }                                                                                        \
}

SOFTMAX_KERNELS (f32, float)
SOFTMAX_KERNELS (f64, double)

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

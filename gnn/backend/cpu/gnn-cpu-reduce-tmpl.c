/* gnn-cpu-reduce-tmpl.c: the var and softmax kernels of gnn-cpu-reduce.c for one dtype
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-reduce.c once per floating dtype, with T the element type and NAME (x)
 * the name x for that dtype (x##_f32); not compiled on its own. in0 is a contiguous
 * (outer, r, inner) (params.reduce); the _cols kernels are tasks of run_cols, the _blocks
 * ones parts of a long reduction (outer = inner = 1).
 */
/* ---- var: two passes in double, the mean, then the sum of squared deviations, divided by
 * max (0, r - correction) as PyTorch does (an empty reduction gives NaN) ------------------ */

/* in0 is (outer, r, inner), out (outer, inner): out[o, i] = Σ_r (in0[o, r, i] - mean)² / div;
 * a task reduces up to GNN_CPU_COLS columns of one o */
static void
NAME (var_cols) (gpointer data, gint64 b, gint64 e)
{
  const GnnCpuColCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  gint64 r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  double div = MAX (0.0, (double) r - args->params.reduce.correction);
  const T *x = args->in[0]->data;
  T *out = args->out->data;

  for (gint64 t = b; t < e; t++)
    {
      gint64 o, c0, c1;
      double mean[GNN_CPU_COLS] = { 0 }, m2[GNN_CPU_COLS] = { 0 };
      const T *row;

      gnn_cpu_col_task (ctx, t, &o, &c0, &c1);
      row = x + o * r * inner;
      for (gint64 k = 0; k < r; k++)
        for (gint64 c = c0; c < c1; c++)
          mean[c - c0] += row[k * inner + c];
      for (gint64 c = c0; c < c1; c++)
        mean[c - c0] /= (double) r;
      for (gint64 k = 0; k < r; k++)
        for (gint64 c = c0; c < c1; c++)
          {
            double d = row[k * inner + c] - mean[c - c0];
            m2[c - c0] += d * d;
          }
      for (gint64 c = c0; c < c1; c++)
        out[o * inner + c] = (T) (r == 0 ? NAN : m2[c - c0] / div);
    }
}

/* in0 is (r): the partial sums of blocks [b, e) of SUM_BLOCK elements, of the values while
 * ctx->mean is NaN (the first pass), else of the squared deviations from ctx->mean */
static void
NAME (var_blocks) (gpointer data, gint64 b, gint64 e)
{
  BlockCtx *ctx = data;
  const T *x = ctx->args->in[0]->data;
  gint64 r = ctx->args->params.reduce.reduced;

  for (gint64 blk = b; blk < e; blk++)
    {
      gint64 s = blk * SUM_BLOCK, end = MIN (r, s + SUM_BLOCK);
      double acc = 0;
      if (isnan (ctx->mean))
        for (gint64 k = s; k < end; k++)
          acc += x[k];
      else
        for (gint64 k = s; k < end; k++)
          {
            double d = x[k] - ctx->mean;
            acc += d * d;
          }
      ((double *) ctx->partials)[blk] = acc;
    }
}

/* in0 is (r), out a scalar: VAR of one long reduction, its blocks' partial sums added in order */
static void
NAME (var_long) (const GnnKernelArgs *args)
{
  gint64 r = args->params.reduce.reduced, n_blocks = N_BLOCKS (r);
  BlockCtx ctx = { args, g_new (double, n_blocks), NULL, NAN };
  double acc = 0, m2 = 0;

  gnn_parallel_for (n_blocks, 1, NAME (var_blocks), &ctx);
  for (gint64 blk = 0; blk < n_blocks; blk++)
    acc += ((double *) ctx.partials)[blk];
  ctx.mean = acc / (double) r;
  if (!isnan (ctx.mean))
    {
      gnn_parallel_for (n_blocks, 1, NAME (var_blocks), &ctx);
      for (gint64 blk = 0; blk < n_blocks; blk++)
        m2 += ((double *) ctx.partials)[blk];
    }
  else
    m2 = NAN;
  *(T *) args->out->data = (T) (m2 / MAX (0.0, (double) r - args->params.reduce.correction));
  g_free (ctx.partials);
}

/* ---- softmax, log-softmax and their backward: numerically stable, the maximum of each
 * column is subtracted before exp, and the sums of exponentials accumulate in double. A NaN
 * anywhere in a column gives NaN everywhere in it ----------------------------------------- */

/* in0 and out are (outer, r, inner): out[o, :, i] = softmax (or log-softmax, by args->op) of
 * in0[o, :, i]; a task handles up to GNN_CPU_COLS columns of one o */
static void
NAME (softmax_cols) (gpointer data, gint64 b, gint64 e)
{
  const GnnCpuColCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  gint64 r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  gboolean is_log = args->op == GNN_BACKEND_OP_LOG_SOFTMAX;

  if (r <= 0)
    return;
  for (gint64 t = b; t < e; t++)
    {
      gint64 o, c0, c1;
      double m[GNN_CPU_COLS], s[GNN_CPU_COLS] = { 0 };
      const T *x;
      T *y;

      gnn_cpu_col_task (ctx, t, &o, &c0, &c1);
      x = (const T *) args->in[0]->data + o * r * inner;
      y = (T *) args->out->data + o * r * inner;
      for (gint64 c = c0; c < c1; c++)
        m[c - c0] = x[c];
      for (gint64 k = 1; k < r; k++)
        for (gint64 c = c0; c < c1; c++)
          {
            double v = x[k * inner + c];
            if (v > m[c - c0] || v != v)
              m[c - c0] = v;
          }
      for (gint64 k = 0; k < r; k++)
        for (gint64 c = c0; c < c1; c++)
          {
            double ex = exp (x[k * inner + c] - m[c - c0]);
            s[c - c0] += ex;
            if (!is_log)
              y[k * inner + c] = (T) ex;
          }
      if (is_log)
        {
          for (gint64 c = c0; c < c1; c++)
            s[c - c0] = m[c - c0] + log (s[c - c0]);
          for (gint64 k = 0; k < r; k++)
            for (gint64 c = c0; c < c1; c++)
              y[k * inner + c] = (T) (x[k * inner + c] - s[c - c0]);
        }
      else
        {
          for (gint64 c = c0; c < c1; c++)
            s[c - c0] = 1.0 / s[c - c0];
          for (gint64 k = 0; k < r; k++)
            for (gint64 c = c0; c < c1; c++)
              y[k * inner + c] = (T) (y[k * inner + c] * s[c - c0]);
        }
    }
}

/* in0 (the gradient g), in1 (the result y) and out are (outer, r, inner), sums over r:
 * softmax: out = y * (g - Σ_r g * y); log-softmax: out = g - exp (y) * Σ_r g */
static void
NAME (softmax_backward_cols) (gpointer data, gint64 b, gint64 e)
{
  const GnnCpuColCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  gint64 r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  gboolean is_log = args->op == GNN_BACKEND_OP_LOG_SOFTMAX_BACKWARD;

  for (gint64 t = b; t < e; t++)
    {
      gint64 o, c0, c1;
      double s[GNN_CPU_COLS] = { 0 };
      const T *g, *y;
      T *out;

      gnn_cpu_col_task (ctx, t, &o, &c0, &c1);
      g = (const T *) args->in[0]->data + o * r * inner;
      y = (const T *) args->in[1]->data + o * r * inner;
      out = (T *) args->out->data + o * r * inner;
      if (is_log)
        {
          for (gint64 k = 0; k < r; k++)
            for (gint64 c = c0; c < c1; c++)
              s[c - c0] += g[k * inner + c];
          for (gint64 k = 0; k < r; k++)
            for (gint64 c = c0; c < c1; c++)
              out[k * inner + c] = (T) (g[k * inner + c] - exp ((double) y[k * inner + c]) * s[c - c0]);
        }
      else
        {
          for (gint64 k = 0; k < r; k++)
            for (gint64 c = c0; c < c1; c++)
              s[c - c0] += (double) g[k * inner + c] * y[k * inner + c];
          for (gint64 k = 0; k < r; k++)
            for (gint64 c = c0; c < c1; c++)
              out[k * inner + c] = (T) (y[k * inner + c] * (g[k * inner + c] - s[c - c0]));
        }
    }
}

#undef T
#undef NAME

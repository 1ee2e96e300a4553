/* gnn-cpu-minmax-tmpl.c: the max and min kernels of gnn-cpu-reduce.c for one dtype and one
 * direction
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Included by gnn-cpu-reduce.c once per dtype and direction, with T the element type,
 * NAME (x) the name x for them (x##_max_f32) and BEATS (v, b) whether v replaces the best
 * value b so far; not compiled on its own.
 */
/* in0 is (outer, r, inner), out and out2 (when given, int64) (outer, inner): out[o, i] the
 * best of in0[o, :, i] by BEATS, out2[o, i] its first index; a task handles up to GNN_CPU_COLS
 * columns of one o */
static void
NAME (minmax_cols) (gpointer data, gint64 b, gint64 e)
{
  const GnnCpuColCtx *ctx = data;
  const GnnKernelArgs *args = ctx->args;
  gint64 r = args->params.reduce.reduced, inner = args->params.reduce.inner;
  const T *x = args->in[0]->data;
  T *out = args->out->data;
  gint64 *idx = args->out2 ? args->out2->data : NULL;

  for (gint64 t = b; t < e; t++)
    {
      gint64 o, c0, c1;
      T best[GNN_CPU_COLS];
      gint64 at[GNN_CPU_COLS];
      const T *row;

      gnn_cpu_col_task (ctx, t, &o, &c0, &c1);
      row = x + o * r * inner;
      for (gint64 c = c0; c < c1; c++)
        {
          best[c - c0] = row[c];
          at[c - c0] = 0;
        }
      for (gint64 k = 1; k < r; k++)
        {
          const T *xk = row + k * inner;
          for (gint64 c = c0; c < c1; c++)
            if (BEATS (xk[c], best[c - c0]))
              {
                best[c - c0] = xk[c];
                at[c - c0] = k;
              }
        }
      for (gint64 c = c0; c < c1; c++)
        {
          out[o * inner + c] = best[c - c0];
          if (idx)
            idx[o * inner + c] = at[c - c0];
        }
    }
}

/* in0 is (r): the best value and its index of each block [b, e) of SUM_BLOCK elements */
static void
NAME (minmax_blocks) (gpointer data, gint64 b, gint64 e)
{
  BlockCtx *ctx = data;
  const T *x = ctx->args->in[0]->data;
  gint64 r = ctx->args->params.reduce.reduced;

  for (gint64 blk = b; blk < e; blk++)
    {
      gint64 s = blk * SUM_BLOCK, end = MIN (r, s + SUM_BLOCK), at = s;
      T best = x[s];
      for (gint64 k = s + 1; k < end; k++)
        if (BEATS (x[k], best))
          {
            best = x[k];
            at = k;
          }
      ((T *) ctx->partials)[blk] = best;
      ctx->at[blk] = at;
    }
}

/* in0 is (r), out and out2 scalars: one long reduction, its blocks' bests compared in order */
static void
NAME (minmax_long) (const GnnKernelArgs *args)
{
  gint64 n_blocks = N_BLOCKS (args->params.reduce.reduced);
  BlockCtx ctx = { args, g_new (T, n_blocks), g_new (gint64, n_blocks), 0 };
  T best;
  gint64 at;

  gnn_parallel_for (n_blocks, 1, NAME (minmax_blocks), &ctx);
  best = ((T *) ctx.partials)[0];
  at = ctx.at[0];
  for (gint64 blk = 1; blk < n_blocks; blk++)
    if (BEATS (((T *) ctx.partials)[blk], best))
      {
        best = ((T *) ctx.partials)[blk];
        at = ctx.at[blk];
      }
  *(T *) args->out->data = best;
  if (args->out2)
    *(gint64 *) args->out2->data = at;
  g_free (ctx.partials);
  g_free (ctx.at);
}
#undef T
#undef NAME
#undef BEATS
